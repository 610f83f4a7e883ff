#!/usr/bin/env bash
# Fault injector: another session takes LOCK TABLES <table> WRITE on a MariaDB server and holds it.
#
#   scripts/faults/mariadb-table-lock.sh DEFAULTS_FILE DATABASE TABLE SECONDS
#
# DEFAULTS_FILE is a client option file that reaches the server as a user allowed to lock the table (the private
# server's my.cnf from scripts/mariadb.sh, with -uroot). Prints the holding session's CONNECTION_ID() on the first
# line as soon as it holds the lock, then returns when it has released it. Every other session that touches the
# table waits "for table metadata lock" meanwhile (docs/diagnosis.md, scenario 2).
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

# One session: the id first (unbuffered), then the lock, held for the given time, then released.
"$client" --defaults-file="$defaults" -uroot -N -B --unbuffered "$db" \
  -e "SELECT CONNECTION_ID(); LOCK TABLES \`$table\` WRITE; DO SLEEP($seconds); UNLOCK TABLES;"
