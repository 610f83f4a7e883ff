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
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 3 ] || { echo "usage: $0 URL TABLE SECONDS" >&2; exit 2; }
url=$1 table=$2 seconds=$3
fault_pg_url "$url"
fault_name table "$table"
fault_seconds "$seconds"
fault_psql

# The pid is selected from the locking read, so it is printed once the rows are locked.
psql "$url" -X -q -t -A -v ON_ERROR_STOP=1 <<SQL
BEGIN;
SELECT pg_backend_pid() FROM (SELECT count(*) FROM (SELECT 1 FROM "$table" FOR UPDATE) locked) n;
SELECT pg_sleep($seconds);
COMMIT;
SQL
