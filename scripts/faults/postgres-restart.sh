#!/usr/bin/env bash
# Fault injector: the private PostgreSQL server of scripts/postgres.sh is stopped and started again mid-run.
#
#   scripts/faults/postgres-restart.sh STATE_DIR DOWN_SECONDS
#
# STATE_DIR: the server's IVS_STATE_DIR (where scripts/postgres.sh keeps its data directory and port). The server
# is stopped (pg_ctl's fast shutdown: every session is ended, the server checkpoints), stays down DOWN_SECONDS,
# and starts again on the port it had (scripts/postgres.sh prefers the last run's port), so a client with
# reconnectOnConnectionFailure gets its sessions back (docs/diagnosis.md, scenario 18). Prints the stopped
# postmaster's pid on the first line, the new one's on the second.
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

[ $# -eq 2 ] || { echo "usage: $0 STATE_DIR DOWN_SECONDS" >&2; exit 2; }
state=$1 down=$2
[ -d "$state" ] || { echo "state dir: not a directory: $state" >&2; exit 2; }
[[ "$down" =~ ^[0-9]+$ ]] || { echo "down seconds: not a non-negative integer: $down" >&2; exit 2; }
script="$(dirname "${BASH_SOURCE[0]}")/../postgres.sh"
exports=$(IVS_STATE_DIR=$state bash "$script" env 2>/dev/null) \
  || { echo "state dir: no scripts/postgres.sh server state in: $state" >&2; exit 2; }
eval "$exports"
pidfile=$IVS_POSTGRES_PIDFILE
[ -s "$pidfile" ] || { echo "state dir: no running server (no pid file): $state" >&2; exit 2; }
head -n 1 "$pidfile"
IVS_STATE_DIR=$state bash "$script" stop >/dev/null 2>&1
sleep "$down"
IVS_STATE_DIR=$state bash "$script" start >/dev/null 2>&1
head -n 1 "$pidfile"
