#!/usr/bin/env bash
# Fault injector: another PostgreSQL session opens a REPEATABLE READ transaction, reads <table> once (which takes
# its snapshot) and then stays idle in transaction, so vacuum and page pruning cannot remove the row versions
# updated after its snapshot (dead tuples pile up on the hot rows).
#
#   scripts/faults/postgres-long-transaction.sh URL TABLE SECONDS
#
# URL: the server as a libpq URL (postgresql://user@127.0.0.1:PORT/db; the password, if any, from PGPASSWORD).
# docs/diagnosis.md, scenario 9. Prints the idle backend's pg_backend_pid() on the first line once its snapshot
# is taken, and returns when its transaction has ended (COMMIT after SECONDS). Meanwhile pg_stat_activity shows
# it 'idle in transaction' with its xact_start and backend_xmin. It takes no row lock: nobody waits for it.
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

# One session fed from a pipe: psql runs the read (the pid selected from it, so it is printed once the snapshot
# is taken), then waits for input with the transaction open and no statement running until the COMMIT.
{
  echo "BEGIN ISOLATION LEVEL REPEATABLE READ;"
  echo "SELECT pg_backend_pid() FROM (SELECT count(*) FROM \"$table\") n;"
  sleep "$seconds"
  echo "COMMIT;"
} | psql "$url" -X -q -t -A -v ON_ERROR_STOP=1
