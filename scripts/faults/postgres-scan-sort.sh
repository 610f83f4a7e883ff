#!/usr/bin/env bash
# Fault injector (held-out H4): SESSIONS other sessions each scan the benchmark's table many times over and sort
# what they read (SELECT md5(string_agg(...)) over a generated repeat of its rows), for SECONDS, ended by
# statement_timeout.
#
#   scripts/faults/postgres-scan-sort.sh URL TABLE SESSIONS SECONDS
#
# Prints the sessions' backend pids on the first line once each runs, and returns when they have ended
# (docs/diagnosis.md, "The held-out set").
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 4 ] || { echo "usage: $0 URL TABLE SESSIONS SECONDS" >&2; exit 2; }
url=$1 table=$2 sessions=$3 seconds=$4
fault_pg_url "$url"
fault_name table "$table"
fault_sessions "$sessions"
fault_seconds "$seconds"
fault_psql

fault_pg_sessions "$url" "$sessions" "SET statement_timeout = '${seconds}s';
SELECT md5(string_agg(x, '' ORDER BY x)) FROM
  (SELECT md5(t::text || g) AS x FROM \"$table\" t CROSS JOIN generate_series(1, 100000) g) s;"
