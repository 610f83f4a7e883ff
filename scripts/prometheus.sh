#!/usr/bin/env bash
# A private Prometheus (2.42 from Debian) that scrapes one ivsbench run, for the Prometheus test and for demos.
#
#   scripts/prometheus.sh install   install the Debian package if prometheus is missing (root only)
#   scripts/prometheus.sh start     start on 127.0.0.1 (first free port from 29090); prints the env exports
#   scripts/prometheus.sh stop      SIGTERM, SIGKILL after 30 s
#   scripts/prometheus.sh status    "running"/"stopped"; exit 0 when running, 3 when not
#   scripts/prometheus.sh env       export IVS_PROMETHEUS_URL=http://127.0.0.1:PORT, IVS_PROMETHEUS_TARGET=127.0.0.1:TPORT,
#                                   IVS_PROMETHEUS_SD_DIR=<state>/targets
#
# The scrape config has one job, ivsbench, with one target: 127.0.0.1:TPORT (the first free port from 29464 when
# first started, kept in the state directory), scraped every second. Give a run --metrics-listen
# "$IVS_PROMETHEUS_TARGET" and Prometheus scrapes it; between runs the target is simply down.
# More targets (the node and mysqld exporters beside a run) are added while it runs, without a restart: write a
# file_sd file $IVS_PROMETHEUS_SD_DIR/NAME.json, e.g. [{"targets":["127.0.0.1:9100"],"labels":{"job":"node"}}]
# (the labels' job names the job; Prometheus reads the directory within seconds), delete it to drop them.
#
# Environment:
#   IVS_PROMETHEUS_STATE_DIR   state directory (default: <repo>/.cache/prometheus): prometheus.yml, data/, log,
#                              pid, ports
#   IVS_PROMETHEUS_BASE_PORT   first port tried for Prometheus itself (default 29090)
#   IVS_PROMETHEUS_TARGET_BASE first port tried for the scrape target (default 29464)
#
# Debian's package enables its own service on :9090 where systemd runs; this instance is separate from it.
set -euo pipefail
IVS_LOG_TAG=prometheus
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

STATE_DIR="$(ivs_abs_path "${IVS_PROMETHEUS_STATE_DIR:-$IVS_CACHE_DIR/prometheus}")"
PIDFILE="$STATE_DIR/prometheus.pid"
PORTFILE="$STATE_DIR/port"
TARGETFILE="$STATE_DIR/target-port"
CONFIG="$STATE_DIR/prometheus.yml"
SD_DIR="$STATE_DIR/targets"
LOG="$STATE_DIR/prometheus.log"
BASE_PORT="${IVS_PROMETHEUS_BASE_PORT:-29090}"
TARGET_BASE="${IVS_PROMETHEUS_TARGET_BASE:-29464}"
START_TIMEOUT=60

cmd_install() {
  if command -v prometheus >/dev/null 2>&1; then
    ivs_log "Prometheus already installed: $(prometheus --version 2>&1 | head -n1)"
    return 0
  fi
  if ! ivs_is_root; then
    ivs_die "prometheus is not installed and we are not root; as root run: apt-get install -y prometheus"
  fi
  ivs_apt_install prometheus
  command -v prometheus >/dev/null 2>&1 || ivs_die "installed, but prometheus is not on PATH"
  ivs_log "installed: $(prometheus --version 2>&1 | head -n1)"
}

server_pid() {
  local pid
  [ -f "$PIDFILE" ] || return 1
  pid=$(tr -dc '0-9' <"$PIDFILE")
  ivs_pid_alive "$pid" || return 1
  # A recycled pid must not be mistaken for ours.
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$CONFIG" || return 1
  echo "$pid"
}

cmd_env() {
  [ -s "$PORTFILE" ] && [ -s "$TARGETFILE" ] || ivs_die "not started yet: run scripts/prometheus.sh start"
  printf 'export IVS_PROMETHEUS_URL=%q\n' "http://127.0.0.1:$(cat "$PORTFILE")"
  printf 'export IVS_PROMETHEUS_TARGET=%q\n' "127.0.0.1:$(cat "$TARGETFILE")"
  printf 'export IVS_PROMETHEUS_SD_DIR=%q\n' "$SD_DIR"
}

cmd_status() {
  local pid
  if pid=$(server_pid); then
    echo "running (pid $pid, port $(cat "$PORTFILE"), target 127.0.0.1:$(cat "$TARGETFILE"), state $STATE_DIR)"
    return 0
  fi
  echo "stopped (state $STATE_DIR)"
  return 3
}

write_config() {
  cat >"$CONFIG" <<YAML
# Written by scripts/prometheus.sh: one ivsbench run at a time, scraped every second, and the targets of the
# file_sd files in targets/ (exporters; their labels name their job).
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: ivsbench
    static_configs:
      - targets: ["127.0.0.1:$1"]
  - job_name: added
    file_sd_configs:
      - files: ["$SD_DIR/*.json"]
        refresh_interval: 5s
YAML
}

cmd_start() {
  local t0 port target pid deadline
  t0=$(ivs_now_ms)
  if server_pid >/dev/null; then
    ivs_log "already running on port $(cat "$PORTFILE")"
    cmd_env
    return 0
  fi
  command -v prometheus >/dev/null 2>&1 || ivs_die "prometheus not found: run scripts/prometheus.sh install (as root)"
  mkdir -p "$STATE_DIR/data" "$SD_DIR"
  # Keep the target's port across starts (a stable scrape config) unless something else listens there now.
  target=$(cat "$TARGETFILE" 2>/dev/null || true)
  if [ -z "$target" ] || ! ivs_port_free "$target"; then target=$(ivs_find_free_port "$TARGET_BASE"); fi
  echo "$target" >"$TARGETFILE"
  write_config "$target"
  port=$(ivs_find_free_port "$BASE_PORT")
  [ "$port" != "$target" ] || port=$(ivs_find_free_port "$((port + 1))")
  echo "$port" >"$PORTFILE"
  echo "--- $(date -Is) start on port $port, target 127.0.0.1:$target" >>"$LOG"
  # Own session: not killed with the caller's terminal or process group; stop it with `stop`.
  setsid nohup prometheus --config.file="$CONFIG" --storage.tsdb.path="$STATE_DIR/data" \
    --web.listen-address="127.0.0.1:$port" >>"$LOG" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PIDFILE"
  deadline=$(( $(date +%s) + START_TIMEOUT ))
  until ivs_port_open "$port" && (exec 3<>"/dev/tcp/127.0.0.1/$port"; printf 'GET /-/ready HTTP/1.0\r\n\r\n' >&3; head -n1 <&3) 2>/dev/null | grep -q ' 200'; do
    if ! ivs_pid_alive "$pid"; then
      ivs_log "prometheus exited during startup; last lines of $LOG:"
      tail -n 30 "$LOG" >&2
      rm -f "$PIDFILE"
      exit 1
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      ivs_log "not ready after ${START_TIMEOUT}s; last lines of $LOG:"
      tail -n 30 "$LOG" >&2
      kill -9 "$pid" 2>/dev/null || true
      rm -f "$PIDFILE"
      exit 1
    fi
    sleep 0.2
  done
  ivs_log "ready on 127.0.0.1:$port (pid $pid), scraping 127.0.0.1:$target every 1 s, in $(( $(ivs_now_ms) - t0 )) ms"
  cmd_env
}

cmd_stop() {
  local pid
  if ! pid=$(server_pid); then
    ivs_log "not running"
    rm -f "$PIDFILE"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  if ! ivs_wait_pid_exit "$pid" 30; then
    ivs_log "pid $pid still there after 30 s: SIGKILL"
    kill -9 "$pid" 2>/dev/null || true
    ivs_wait_pid_exit "$pid" 10 || ivs_die "pid $pid did not exit"
  fi
  rm -f "$PIDFILE"
  ivs_log "stopped"
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) cmd_env ;;
  *) echo "usage: $0 {install|start|stop|status|env}" >&2; exit 2 ;;
esac
