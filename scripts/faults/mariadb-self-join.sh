#!/usr/bin/env bash
# Fault injector (held-out H3): SESSIONS other sessions each run a heavy self-join aggregate on the benchmark's
# table (every pair of rows) for SECONDS, ended by its max_statement_time.
#
#   scripts/faults/mariadb-self-join.sh DEFAULTS_FILE DATABASE TABLE SESSIONS SECONDS
#
# Prints the sessions' connection ids on the first line (space-separated) once each runs its statement, and
# returns when they have ended (docs/diagnosis.md, "The held-out set").
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 5 ] || { echo "usage: $0 DEFAULTS_FILE DATABASE TABLE SESSIONS SECONDS" >&2; exit 2; }
defaults=$1 db=$2 table=$3 sessions=$4 seconds=$5
fault_file "defaults file" "$defaults"
fault_name database "$db"
fault_name table "$table"
fault_sessions "$sessions"
fault_seconds "$seconds"

fault_mariadb_sessions "$defaults" "$db" "$sessions" "SET STATEMENT max_statement_time=$seconds FOR
  SELECT COUNT(*), SUM(CRC32(CONCAT(a.YCSB_KEY, b.YCSB_KEY))) FROM \`$table\` a JOIN \`$table\` b JOIN \`$table\` c
  WHERE a.YCSB_KEY <> b.YCSB_KEY;"
