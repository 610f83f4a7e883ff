#!/usr/bin/env bash
# Fault injector (held-out H2): another session runs VACUUM FULL on the benchmark's table, again and again for
# SECONDS, in one session (each rewrites the table under its AccessExclusiveLock: every statement on the table
# waits while it runs).
#
#   scripts/faults/postgres-vacuum-full.sh URL TABLE SECONDS
#
# Prints the session's pg_backend_pid() on the first line, and returns when the last VACUUM FULL begun before
# SECONDS passed has ended (docs/diagnosis.md, "The held-out set").
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

# one session driven statement by statement: the next VACUUM FULL is sent when the last one answered
coproc PSQL { psql "$url" -X -q -t -A -v ON_ERROR_STOP=1; }
psql_pid=$PSQL_PID   # bash unsets PSQL_PID once the client has exited
echo "SELECT pg_backend_pid();" >&"${PSQL[1]}"
read -r pid <&"${PSQL[0]}" || ivs_die "psql ended before it gave its pid"
echo "$pid"
end=$((SECONDS + seconds))
while [ "$SECONDS" -lt "$end" ]; do
  echo "VACUUM FULL \"$table\"; SELECT 'vacuumed';" >&"${PSQL[1]}"
  read -r _ <&"${PSQL[0]}" || ivs_die "VACUUM FULL failed"
done
eval "exec ${PSQL[1]}>&-"
wait "$psql_pid"
