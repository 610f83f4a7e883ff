#!/usr/bin/env bash
# Fault injector: another PostgreSQL session locks every row of <table> (SELECT ... FOR UPDATE) and keeps its
# transaction open.
#
#   scripts/faults/postgres-row-lock.sh URL TABLE SECONDS
#
# URL: the server as a libpq URL (postgresql://user@127.0.0.1:PORT/db; the password, if any, from PGPASSWORD).
# Prints the holding backend's pg_backend_pid() on the first line once it holds the row locks, then returns when
# its transaction has ended. Every update of a locked row waits on the holder's transaction id meanwhile
# (docs/diagnosis.md, scenario 4), and pg_blocking_pids names that pid.
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

# The pid is selected from the locking read, so it is printed once the rows are locked.
psql "$url" -X -q -t -A -v ON_ERROR_STOP=1 <<SQL
BEGIN;
SELECT pg_backend_pid() FROM (SELECT count(*) FROM (SELECT 1 FROM "$table" FOR UPDATE) locked) n;
SELECT pg_sleep($seconds);
COMMIT;
SQL
