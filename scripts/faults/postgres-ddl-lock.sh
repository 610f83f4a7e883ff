#!/usr/bin/env bash
# Fault injector (held-out H1): another session alters the benchmark's table in a transaction it leaves open:
# BEGIN; ALTER TABLE <table> ADD COLUMN h1 int; ... SECONDS later ROLLBACK (the table is as before).
#
#   scripts/faults/postgres-ddl-lock.sh URL TABLE SECONDS
#
# The ALTER takes the table's AccessExclusiveLock, held to the transaction's end: every statement on the table
# waits on a relation lock meanwhile. Prints the holder's pg_backend_pid() on the first line once it holds the
# lock, and returns when its transaction has ended (docs/diagnosis.md, "The held-out set").
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

psql "$url" -X -q -t -A -v ON_ERROR_STOP=1 <<SQL
BEGIN;
ALTER TABLE "$table" ADD COLUMN h1 int;
SELECT pg_backend_pid();
SELECT pg_sleep($seconds);
ROLLBACK;
SQL
