#!/usr/bin/env bash
# Fault injector: busy processes that are neither the database server nor the client take the host's CPU.
#
#   scripts/faults/cpu-burn.sh SECONDS [PROCESSES]
#
# Starts PROCESSES (default 2) busy loops, prints their pids on the first line (space-separated: the culprits a
# report should point to as "another process"), and returns when they have ended after SECONDS
# (docs/diagnosis.md, scenario 12). Each loop is ended by timeout(1) with SIGTERM, so it stops also where the
# caller runs in the background with SIGINT ignored.
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 SECONDS [PROCESSES]" >&2; exit 2; }
seconds=$1 procs=${2:-2}
fault_seconds "$seconds"
[[ "$procs" =~ ^[0-9]+$ ]] && [ "$procs" -gt 0 ] && [ "$procs" -le 64 ] \
  || { echo "processes: not an integer in 1..64: $procs" >&2; exit 2; }

pids=()
for _ in $(seq "$procs"); do
  timeout -s TERM "$seconds" bash -c 'while :; do :; done' &
  pids+=("$!")
done
echo "${pids[*]}"
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=$?; done
# timeout's own exit code 124 is the normal end
[ "$rc" -eq 0 ] || [ "$rc" -eq 124 ] || exit "$rc"
