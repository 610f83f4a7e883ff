#!/usr/bin/env bash
# Fault injector: other sessions take the server's own CPU with statements of their own (no table: md5 over a
# generated series), each running for SECONDS, ended by its statement_timeout.
#
#   scripts/faults/postgres-heavy-sessions.sh URL SESSIONS SECONDS
#
# URL: a libpq URL (the password, if any, from PGPASSWORD). Prints the sessions' backend pids on the first line
# once each runs, and returns when they have ended (docs/diagnosis.md, scenario 20: `server-work`).
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 3 ] || { echo "usage: $0 URL SESSIONS SECONDS" >&2; exit 2; }
url=$1 sessions=$2 seconds=$3
fault_pg_url "$url"
fault_sessions "$sessions"
fault_seconds "$seconds"
fault_psql

fault_pg_sessions "$url" "$sessions" "SET statement_timeout = '${seconds}s';
SELECT count(*) FROM generate_series(1, 1000000000) g WHERE md5(g::text) LIKE 'abc%';"
