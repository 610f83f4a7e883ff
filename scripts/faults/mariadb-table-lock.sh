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

[ $# -eq 4 ] || { echo "usage: $0 DEFAULTS_FILE DATABASE TABLE SECONDS" >&2; exit 2; }
defaults=$1 db=$2 table=$3 seconds=$4
[ -f "$defaults" ] || { echo "defaults file: not found: $defaults" >&2; exit 2; }
[[ "$db" =~ ^[A-Za-z0-9_]+$ ]] || { echo "database: not a plain name: $db" >&2; exit 2; }
[[ "$table" =~ ^[A-Za-z0-9_]+$ ]] || { echo "table: not a plain name: $table" >&2; exit 2; }
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || { echo "seconds: not a positive integer: $seconds" >&2; exit 2; }
client="$(command -v mariadb || command -v mysql)" || ivs_die "the mariadb client is not installed"

# One session: the id first (unbuffered), then the lock, held for the given time, then released.
"$client" --defaults-file="$defaults" -uroot -N -B --unbuffered "$db" \
  -e "SELECT CONNECTION_ID(); LOCK TABLES \`$table\` WRITE; DO SLEEP($seconds); UNLOCK TABLES;"
