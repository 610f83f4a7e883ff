#!/usr/bin/env bash
# Fault injector: another session locks every row of <table> (SELECT ... FOR UPDATE) and keeps its transaction
# open, holding the row locks.
#
#   scripts/faults/mariadb-row-lock.sh DEFAULTS_FILE DATABASE TABLE SECONDS
#
# DEFAULTS_FILE: a client option file reaching the server as root (the private server's my.cnf from
# scripts/mariadb.sh). Works for InnoDB and MyRocks tables alike (docs/diagnosis.md, scenarios 1 and 3). Prints
# the holding session's CONNECTION_ID() on the first line, then the number of rows it locked once it holds
# them, and returns when its transaction has ended. Every write to a locked row waits meanwhile; with a
# table of a few thousand rows the benchmark's operations hit them all.
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

# One session: the id first (unbuffered), then the locking read (its row count), the hold, the commit. READ
# COMMITTED: under MyRocks' default REPEATABLE READ a locking read of a row written since the transaction's
# snapshot fails ("snapshot conflict"), which a busy table always has.
"$client" --defaults-file="$defaults" -uroot -N -B --unbuffered "$db" \
  -e "SELECT CONNECTION_ID(); SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED; START TRANSACTION;
      SELECT COUNT(*) FROM \`$table\` FOR UPDATE; DO SLEEP($seconds); COMMIT;"
