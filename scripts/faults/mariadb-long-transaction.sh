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

[ $# -eq 4 ] || { echo "usage: $0 DEFAULTS_FILE DATABASE TABLE SECONDS" >&2; exit 2; }
defaults=$1 db=$2 table=$3 seconds=$4
[ -f "$defaults" ] || { echo "defaults file: not found: $defaults" >&2; exit 2; }
[[ "$db" =~ ^[A-Za-z0-9_]+$ ]] || { echo "database: not a plain name: $db" >&2; exit 2; }
[[ "$table" =~ ^[A-Za-z0-9_]+$ ]] || { echo "table: not a plain name: $table" >&2; exit 2; }
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || { echo "seconds: not a positive integer: $seconds" >&2; exit 2; }
client="$(command -v mariadb || command -v mysql)" || ivs_die "the mariadb client is not installed"

# One session fed from a pipe: the statements up to the read run at once, then the client waits for input (the
# session idle, its transaction open) until the COMMIT comes SECONDS later. --unbuffered prints the id at once.
{
  echo "SELECT CONNECTION_ID(); START TRANSACTION WITH CONSISTENT SNAPSHOT; SELECT COUNT(*) FROM \`$table\`;"
  sleep "$seconds"
  echo "COMMIT;"
} | "$client" --defaults-file="$defaults" -uroot -N -B --unbuffered "$db"
