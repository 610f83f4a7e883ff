#!/usr/bin/env bash
# Fault injector: other sessions take the server's own CPU with statements of their own (no table: the server's
# SHA2 in a loop), each running for SECONDS, ended by its max_statement_time.
#
#   scripts/faults/mariadb-heavy-sessions.sh DEFAULTS_FILE SESSIONS SECONDS
#
# Prints the sessions' connection ids on the first line (space-separated) once each runs its statement, and
# returns when they have ended (docs/diagnosis.md, scenario 19: `server-work`).
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 3 ] || { echo "usage: $0 DEFAULTS_FILE SESSIONS SECONDS" >&2; exit 2; }
defaults=$1 sessions=$2 seconds=$3
fault_file "defaults file" "$defaults"
fault_sessions "$sessions"
fault_seconds "$seconds"

fault_mariadb_sessions "$defaults" mysql "$sessions" \
  "SET STATEMENT max_statement_time=$seconds FOR SELECT BENCHMARK(1000000000, SHA2(RAND(), 256));"
