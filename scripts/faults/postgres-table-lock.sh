#!/usr/bin/env bash
# Fault injector: another session takes LOCK TABLE <table> IN <MODE> MODE on PostgreSQL and holds it.
#
#   scripts/faults/postgres-table-lock.sh URL TABLE SECONDS [MODE]
#
# MODE: ACCESS EXCLUSIVE (default: every statement on the table waits, scenario 5) or SHARE (writes wait, reads
# go on: scenario 7), or any other table lock mode PostgreSQL accepts.
#
# URL: the server as a libpq URL (postgresql://user@127.0.0.1:PORT/db; the password, if any, from PGPASSWORD).
# Prints the holding backend's pg_backend_pid() on the first line once it holds the lock, then returns when its
# transaction has ended. Every other statement on the table waits on a relation lock meanwhile, blocked by
# that pid (docs/diagnosis.md, scenarios 5 and 7).
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 3 ] && [ $# -le 4 ] || { echo "usage: $0 URL TABLE SECONDS [MODE]" >&2; exit 2; }
url=$1 table=$2 seconds=$3 mode=${4:-ACCESS EXCLUSIVE}
fault_pg_url "$url"
fault_name table "$table"
fault_seconds "$seconds"
[[ "$mode" =~ ^(ACCESS\ SHARE|ROW\ SHARE|ROW\ EXCLUSIVE|SHARE\ UPDATE\ EXCLUSIVE|SHARE|SHARE\ ROW\ EXCLUSIVE|EXCLUSIVE|ACCESS\ EXCLUSIVE)$ ]] \
  || { echo "mode: not a table lock mode: $mode" >&2; exit 2; }
fault_psql

# psql sends each statement when it reads it: the pid is printed once the lock is held.
psql "$url" -X -q -t -A -v ON_ERROR_STOP=1 <<SQL
BEGIN;
LOCK TABLE "$table" IN $mode MODE;
SELECT pg_backend_pid();
SELECT pg_sleep($seconds);
COMMIT;
SQL
