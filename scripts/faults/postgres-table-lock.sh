#!/usr/bin/env bash
# Fault injector: another session takes LOCK TABLE <table> IN ACCESS EXCLUSIVE MODE on PostgreSQL and holds it.
#
#   scripts/faults/postgres-table-lock.sh URL TABLE SECONDS
#
# URL: the server as a libpq URL (postgresql://user@127.0.0.1:PORT/db; the password, if any, from PGPASSWORD).
# Prints the holding backend's pg_backend_pid() on the first line once it holds the lock, then returns when its
# transaction has ended. Every other statement on the table waits on a relation lock meanwhile, blocked by
# that pid (docs/diagnosis.md, scenario 5).
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

[ $# -eq 3 ] || { echo "usage: $0 URL TABLE SECONDS" >&2; exit 2; }
url=$1 table=$2 seconds=$3
[[ "$url" == postgresql://* || "$url" == postgres://* ]] || { echo "url: not a postgresql:// URL: $url" >&2; exit 2; }
[[ "$table" =~ ^[A-Za-z0-9_]+$ ]] || { echo "table: not a plain name: $table" >&2; exit 2; }
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -gt 0 ] || { echo "seconds: not a positive integer: $seconds" >&2; exit 2; }
command -v psql >/dev/null || ivs_die "psql is not installed"

# psql sends each statement when it reads it: the pid is printed once the lock is held.
psql "$url" -X -q -t -A -v ON_ERROR_STOP=1 <<SQL
BEGIN;
LOCK TABLE "$table" IN ACCESS EXCLUSIVE MODE;
SELECT pg_backend_pid();
SELECT pg_sleep($seconds);
COMMIT;
SQL
