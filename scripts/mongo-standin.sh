#!/usr/bin/env bash
# A MongoDB wire-protocol stand-in (mongo-java-server + H2 backend) as its own process, for tests on
# machines where no real mongod can be installed. Real MongoDB for measurements comes from docker/.
#
#   scripts/mongo-standin.sh start           start on 127.0.0.1 (first free port from 27117); prints the env exports
#   scripts/mongo-standin.sh stop            SIGTERM (the H2 store is closed cleanly), SIGKILL after 15 s
#   scripts/mongo-standin.sh status          "running"/"stopped"; exit 0 when running, 3 when not
#   scripts/mongo-standin.sh env             export IVS_MONGO_URL=mongodb://127.0.0.1:PORT/ivsbench, IVS_MONGO_PORT
#   scripts/mongo-standin.sh restart-fresh   stop, delete the H2 file, start
#
# Environment:
#   IVS_MONGO_STATE_DIR   state directory (default: <repo>/.cache/mongo-standin): pid, port, log, H2 file
#   IVS_MONGO_BASE_PORT   first TCP port tried (default 27117)
#   IVS_MONGO_HEAP        -Xmx of the stand-in JVM (default 1g)
#
# The classpath is the project's test classpath (mongo-java-server is a test dependency of pom.xml),
# resolved once with Maven and cached in .cache/ until pom.xml changes.
set -euo pipefail
IVS_LOG_TAG=mongo-standin
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

STATE_DIR="${IVS_MONGO_STATE_DIR:-$IVS_CACHE_DIR/mongo-standin}"
PIDFILE="$STATE_DIR/standin.pid"
PORTFILE="$STATE_DIR/standin.port"
LOG="$STATE_DIR/standin.log"
H2FILE="$STATE_DIR/standin.mv.db"
# Below Linux's ephemeral range (32768-60999 by default), as the other servers' scripts: no outgoing connection is
# given it as its local port between the free-port check and the bind. Not 27017, a real mongod's own port.
BASE_PORT="${IVS_MONGO_BASE_PORT:-27117}"
HEAP="${IVS_MONGO_HEAP:-1g}"
CP_FILE="$IVS_CACHE_DIR/test-classpath.txt"
SOURCE="$IVS_REPO_ROOT/scripts/mongo-standin/MongoStandin.java"
START_TIMEOUT=60

classpath() {
  local pom="$IVS_REPO_ROOT/pom.xml"
  mkdir -p "$IVS_CACHE_DIR"
  if [ ! -s "$CP_FILE" ] || [ "$pom" -nt "$CP_FILE" ]; then
    local mvn=(mvn -B -q -Dstyle.color=never -f "$pom" dependency:build-classpath -Dmdep.outputFile="$CP_FILE" -Dmdep.includeScope=test)
    # Offline first (fast, no network); online once if something is not in the local repository yet.
    if ! "${mvn[@]}" -o >/dev/null 2>&1; then
      ivs_log "resolving the test classpath with Maven (online)"
      "${mvn[@]}" >"$CP_FILE.log" 2>&1 || { tail -n 30 "$CP_FILE.log" >&2; ivs_die "mvn dependency:build-classpath failed"; }
    fi
  fi
  grep -q 'mongo-java-server-h2-backend' "$CP_FILE" \
    || ivs_die "mongo-java-server-h2-backend is not on the test classpath ($CP_FILE); is it in pom.xml?"
  cat "$CP_FILE"
}

standin_pid() {
  local pid
  [ -f "$PIDFILE" ] || return 1
  pid=$(tr -dc '0-9' <"$PIDFILE")
  ivs_pid_alive "$pid" || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "MongoStandin.java" || return 1
  echo "$pid"
}

cmd_env() {
  [ -s "$PORTFILE" ] || ivs_die "not started yet: run scripts/mongo-standin.sh start"
  local port
  port=$(cat "$PORTFILE")
  printf 'export IVS_MONGO_PORT=%q\n' "$port"
  printf 'export IVS_MONGO_URL=%q\n' "mongodb://127.0.0.1:$port/ivsbench"
}

cmd_status() {
  local pid
  if pid=$(standin_pid); then
    echo "running (pid $pid, port $(cat "$PORTFILE"), state $STATE_DIR)"
    return 0
  fi
  echo "stopped (state $STATE_DIR)"
  return 3
}

cmd_start() {
  local t0 cp port pid deadline
  t0=$(ivs_now_ms)
  if standin_pid >/dev/null; then
    ivs_log "already running on port $(cat "$PORTFILE")"
    cmd_env
    return 0
  fi
  command -v java >/dev/null 2>&1 || ivs_die "java not found (need 17+)"
  mkdir -p "$STATE_DIR"
  rm -f "$PIDFILE"
  cp=$(classpath)
  port=$(ivs_find_free_port "$BASE_PORT")
  echo "$port" >"$PORTFILE"
  echo "--- $(date -Is) start on port $port" >>"$LOG"
  # Own session: not killed with the caller's terminal or process group; stop it with `stop`.
  # SerialGC: a small, quiet JVM next to the benchmark client on a 2-core box.
  setsid nohup java -Xmx"$HEAP" -XX:+UseSerialGC -cp "$cp" "$SOURCE" "$port" "$H2FILE" \
    >>"$LOG" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PIDFILE"
  deadline=$(( $(date +%s) + START_TIMEOUT ))
  until ivs_port_open "$port"; do
    if ! ivs_pid_alive "$pid"; then
      ivs_log "the stand-in exited during startup; last lines of $LOG:"
      tail -n 30 "$LOG" >&2
      rm -f "$PIDFILE"
      exit 1
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      ivs_log "not listening after ${START_TIMEOUT}s; last lines of $LOG:"
      tail -n 30 "$LOG" >&2
      kill -9 "$pid" 2>/dev/null || true
      rm -f "$PIDFILE"
      exit 1
    fi
    sleep 0.1
  done
  ivs_log "ready on 127.0.0.1:$port (pid $pid) in $(( $(ivs_now_ms) - t0 )) ms"
  cmd_env
}

cmd_stop() {
  local pid
  if ! pid=$(standin_pid); then
    ivs_log "not running"
    rm -f "$PIDFILE"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  if ! ivs_wait_pid_exit "$pid" 15; then
    ivs_log "pid $pid still there after 15 s: SIGKILL"
    kill -9 "$pid" 2>/dev/null || true
    ivs_wait_pid_exit "$pid" 10 || ivs_die "pid $pid did not exit"
  fi
  rm -f "$PIDFILE"
  ivs_log "stopped"
}

cmd_restart_fresh() {
  cmd_stop
  rm -f "$H2FILE" "$STATE_DIR"/standin.*.db "$STATE_DIR"/*.tempFile
  cmd_start
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) cmd_env ;;
  restart-fresh) cmd_restart_fresh ;;
  *) echo "usage: $0 {start|stop|status|env|restart-fresh}" >&2; exit 2 ;;
esac
