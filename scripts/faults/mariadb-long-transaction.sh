#!/usr/bin/env bash
# Fault injector: another session opens a transaction with a consistent snapshot, reads <table> once and then
# stays idle (no statement running) with the transaction open, so InnoDB cannot purge the row versions written
# after its snapshot (the history list grows).
#
#   scripts/faults/mariadb-long-transaction.sh DEFAULTS_FILE DATABASE TABLE SECONDS
#
# DEFAULTS_FILE: a client option file reaching the server as root (the private server's my.cnf from
# scripts/mariadb.sh). docs/diagnosis.md, scenario 8. Prints the idle session's CONNECTION_ID() on the first
# line, then the rows it read once its snapshot is open, and returns when its transaction has ended (COMMIT after
# SECONDS). Meanwhile the session's process-list command is Sleep and INNODB_TRX shows its transaction's age.
# It takes no lock: nobody waits for it.
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 4 ] || { echo "usage: $0 DEFAULTS_FILE DATABASE TABLE SECONDS" >&2; exit 2; }
defaults=$1 db=$2 table=$3 seconds=$4
fault_file "defaults file" "$defaults"
fault_name database "$db"
fault_name table "$table"
fault_seconds "$seconds"
client="$(fault_mariadb_client)"

# One session fed from a pipe: the statements up to the read run at once, then the client waits for input (the
# session idle, its transaction open) until the COMMIT comes SECONDS later. --unbuffered prints the id at once.
{
  echo "SELECT CONNECTION_ID(); START TRANSACTION WITH CONSISTENT SNAPSHOT; SELECT COUNT(*) FROM \`$table\`;"
  sleep "$seconds"
  echo "COMMIT;"
} | "$client" --defaults-file="$defaults" -uroot -N -B --unbuffered "$db"
