#!/usr/bin/env bash
# A steady background load for checking that tests and measurements hold on a busy box: CPU burners that each
# spin for DUTY % of every PERIOD and sleep the rest, started and stopped by the caller.
#
#   scripts/bg-load.sh start [--burners N] [--duty PCT] [--period-ms MS] [--for SECONDS]
#   scripts/bg-load.sh stop
#   scripts/bg-load.sh status
#   scripts/bg-load.sh run [--burners N] [--duty PCT] [--period-ms MS] -- COMMAND [ARG...]
#
#   --burners N      how many burner processes (default 1; each can take at most one core)
#   --duty PCT       share of each period a burner spins, 1..100 (default 50)
#   --period-ms MS   the duty cycle's period, 10..10000 ms (default 100)
#   --for SECONDS    each burner ends by itself after this long (default 7200), so a forgotten load stops
#
# `start` returns at once and records the burners' pids in IVS_BG_LOAD_STATE (default .cache/bg-load.pids);
# `stop` ends them (and any the state file lists); starting while a load runs is refused. `run` starts the load,
# runs COMMAND in the foreground beside it, stops the load whatever happened, and exits with COMMAND's status.
# Each burner is scripts/lib/bg-burner.sh (`ps` shows it by that name); the duty is on the wall clock, so on a box
# already busier than the load a burner gets less CPU than its duty, never more.
# Exit status: 0 done; 1 a load is already running (start) or could not be stopped; 2 bad input.
set -uo pipefail
IVS_LOG_TAG=bg-load
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

usage() { sed -n '5,13p' "$0" | sed 's/^# \{0,1\}//' >&2; }
bad() { echo "bg-load.sh: $*" >&2; exit 2; }

state=${IVS_BG_LOAD_STATE:-$IVS_CACHE_DIR/bg-load.pids}
burners=1 duty=50 period=100 lifetime=7200

is_int() { [[ "$1" =~ ^[0-9]+$ ]]; }

parse_load_options() {  # sets burners/duty/period/lifetime; leaves the rest in rest_args
  rest_args=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --burners) [ $# -ge 2 ] || bad "--burners needs a number"; burners=$2; shift 2 ;;
      --duty) [ $# -ge 2 ] || bad "--duty needs a percentage"; duty=$2; shift 2 ;;
      --period-ms) [ $# -ge 2 ] || bad "--period-ms needs a number of milliseconds"; period=$2; shift 2 ;;
      --for) [ $# -ge 2 ] || bad "--for needs a number of seconds"; lifetime=$2; shift 2 ;;
      --) shift; rest_args=("$@"); return 0 ;;
      *) bad "unknown option: $1 (use --burners, --duty, --period-ms, --for)" ;;
    esac
  done
}

check_load_options() {
  { is_int "$burners" && [ "$burners" -ge 1 ] && [ "$burners" -le 64 ]; } || bad "--burners: '$burners' is not 1..64"
  { is_int "$duty" && [ "$duty" -ge 1 ] && [ "$duty" -le 100 ]; } || bad "--duty: '$duty' is not 1..100"
  { is_int "$period" && [ "$period" -ge 10 ] && [ "$period" -le 10000 ]; } || bad "--period-ms: '$period' is not 10..10000"
  { is_int "$lifetime" && [ "$lifetime" -ge 1 ]; } || bad "--for: '$lifetime' is not a positive number of seconds"
}

running_pids() {  # the recorded pids that are still burners (a pid reused by another process is not)
  local pid
  [ -f "$state" ] || return 0
  while read -r pid; do
    [ -n "$pid" ] && ivs_pid_alive "$pid" && grep -q bg-burner.sh "/proc/$pid/cmdline" 2>/dev/null && echo "$pid"
  done < "$state"
}

start_load() {
  local i pid
  if [ -n "$(running_pids)" ]; then
    echo "bg-load.sh: a load is already running (pids $(running_pids | tr '\n' ' ')); stop it first" >&2
    return 1
  fi
  mkdir -p "$(dirname "$state")"
  : > "$state"
  for (( i = 0; i < burners; i++ )); do
    # No inherited stdio: the caller's pipes close when the caller is done.
    bash "$IVS_REPO_ROOT/scripts/lib/bg-burner.sh" "$period" "$duty" "$lifetime" </dev/null >/dev/null 2>&1 &
    pid=$!
    echo "$pid" >> "$state"
  done
  ivs_log "started $burners burner(s) at $duty % of every $period ms for at most $lifetime s (pids $(tr '\n' ' ' < "$state"))"
}

stop_load() {
  local pids pid rc=0
  pids=$(running_pids)
  for pid in $pids; do kill "$pid" 2>/dev/null || true; done
  for pid in $pids; do ivs_wait_pid_exit "$pid" 5 || { kill -9 "$pid" 2>/dev/null || true; }; done
  for pid in $pids; do ivs_pid_alive "$pid" && { ivs_log "burner $pid did not stop"; rc=1; }; done
  rm -f "$state"
  ivs_log "stopped $(echo "$pids" | grep -c . || true) burner(s)"
  return "$rc"
}

[ $# -ge 1 ] || { usage; exit 2; }
cmd=$1
shift
case "$cmd" in
  start)
    parse_load_options "$@"
    [ ${#rest_args[@]} -eq 0 ] || bad "start takes no command (use run ... -- COMMAND)"
    check_load_options
    start_load ;;
  stop)
    [ $# -eq 0 ] || bad "stop takes no options"
    stop_load ;;
  status)
    [ $# -eq 0 ] || bad "status takes no options"
    pids=$(running_pids)
    if [ -n "$pids" ]; then echo "running: $(echo "$pids" | tr '\n' ' ')"; else echo "not running"; fi ;;
  run)
    parse_load_options "$@"
    [ ${#rest_args[@]} -gt 0 ] || bad "run needs a command after --"
    check_load_options
    start_load || exit 1
    trap 'stop_load' EXIT
    trap 'exit 130' INT TERM
    t0=$(date +%s)
    "${rest_args[@]}"
    rc=$?
    ivs_log "command exited $rc after $(( $(date +%s) - t0 )) s beside the load"
    exit "$rc" ;;
  -h|--help) usage; exit 0 ;;
  *) bad "unknown command: $cmd (use start, stop, status, run)" ;;
esac
