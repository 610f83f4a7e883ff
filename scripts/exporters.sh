#!/usr/bin/env bash
# Private Prometheus exporters (Debian's packages) for the exporter-fed monitor (docs/monitor-exporters.md): its
# test, and demos. node_exporter and process-exporter always; mysqld_exporter when this checkout's private MariaDB
# runs (scripts/mariadb.sh), postgres_exporter when its private PostgreSQL runs (scripts/postgres.sh).
#
#   scripts/exporters.sh install   install the four Debian packages if one is missing (root only)
#   scripts/exporters.sh start     start them on 127.0.0.1 (free ports); prints the env exports
#   scripts/exporters.sh stop      SIGTERM each, SIGKILL after 30 s
#   scripts/exporters.sh status    "running"/"stopped"; exit 0 when all started ones run, 3 when none does
#   scripts/exporters.sh env       export IVS_NODE_EXPORTER_URL, IVS_PROCESS_EXPORTER_URL and, when started,
#                                  IVS_MYSQLD_EXPORTER_URL, IVS_POSTGRES_EXPORTER_URL (http://127.0.0.1:PORT/metrics)
#
# mysqld_exporter reads a private .my.cnf (mode 0600) for the private MariaDB's user; postgres_exporter gets a
# DATA_SOURCE_NAME for the private PostgreSQL's database. process-exporter names each group by the process's
# command (mariadbd, postgres; children join their parent's group) and, by default, keeps only the servers whose
# command line names this checkout's .cache folder (or PostgreSQL's folder for it under /var/tmp, scripts/postgres.sh),
# so another MariaDB on the host is not counted.
#
# Environment:
#   IVS_EXPORTERS_STATE_DIR     state directory (default: <repo>/.cache/exporters): my.cnf, process.yml, web.yml,
#                               pid and port files, logs
#   IVS_EXPORTERS_PROCESS_MATCH regex the server's command line must match (default: this checkout's .cache path
#                               or /var/tmp/ivsbench-postgres-<hash>; ".*" for any)
#   IVS_EXPORTERS_WEB_CONFIG    an exporter-toolkit web config (TLS and/or basic auth) for all four; default: none
#                               (plain http, no auth)
# Debian's packages enable their own services (:9100, :9104, :9187, :9256) where systemd runs; these are separate.
set -euo pipefail
IVS_LOG_TAG=exporters
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

STATE_DIR="$(ivs_abs_path "${IVS_EXPORTERS_STATE_DIR:-$IVS_CACHE_DIR/exporters}")"
WEB_CONFIG="$STATE_DIR/web.yml"
regex_quote() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g'; }
# PostgreSQL's state sits under /var/tmp instead of .cache when its user cannot enter the checkout (postgres.sh).
PROCESS_MATCH="${IVS_EXPORTERS_PROCESS_MATCH:-$(regex_quote "$(ivs_abs_path "$IVS_CACHE_DIR")")|$(regex_quote "$(ivs_outside_cache_dir postgres)")}"
START_TIMEOUT=30
NAMES="node process mysqld postgres"

binary() {
  case "$1" in
    node) echo prometheus-node-exporter ;;
    process) echo prometheus-process-exporter ;;
    mysqld) echo prometheus-mysqld-exporter ;;
    postgres) echo prometheus-postgres-exporter ;;
  esac
}

base_port() {
  case "$1" in node) echo 29100 ;; process) echo 29256 ;; mysqld) echo 29104 ;; postgres) echo 29187 ;; esac
}

cmd_install() {
  local missing="" name
  for name in $NAMES; do
    command -v "$(binary "$name")" >/dev/null 2>&1 || missing="$missing $(binary "$name")"
  done
  if [ -z "$missing" ]; then
    ivs_log "exporters already installed"
    return 0
  fi
  ivs_is_root || ivs_die "missing:$missing; as root run: apt-get install -y$missing"
  # shellcheck disable=SC2086
  ivs_apt_install $missing
}

exporter_pid() {  # exporter_pid NAME: the pid of our running exporter NAME
  local pid file="$STATE_DIR/$1.pid"
  [ -f "$file" ] || return 1
  pid=$(tr -dc '0-9' <"$file")
  ivs_pid_alive "$pid" || return 1
  # A recycled pid must not be mistaken for ours: ours name our web config.
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$WEB_CONFIG" || return 1
  echo "$pid"
}

cmd_env() {
  local name var
  [ -s "$STATE_DIR/node.port" ] || ivs_die "not started yet: run scripts/exporters.sh start"
  for name in $NAMES; do
    var="IVS_$(echo "$name" | tr '[:lower:]' '[:upper:]')_EXPORTER_URL"
    if [ -s "$STATE_DIR/$name.port" ] && exporter_pid "$name" >/dev/null; then
      printf 'export %s=%q\n' "$var" "http://127.0.0.1:$(cat "$STATE_DIR/$name.port")/metrics"
    fi
  done
}

cmd_status() {
  local name pid up=0
  for name in $NAMES; do
    if pid=$(exporter_pid "$name"); then
      echo "$name: running (pid $pid, port $(cat "$STATE_DIR/$name.port"))"
      up=1
    fi
  done
  [ "$up" -eq 1 ] && return 0
  echo "stopped (state $STATE_DIR)"
  return 3
}

launch() {  # launch NAME PORT ARG...: starts exporter NAME, waits for its /metrics
  local name=$1 port=$2 pid deadline log="$STATE_DIR/$1.log"
  shift 2
  echo "--- $(date -Is) start on port $port" >>"$log"
  # Own session: not killed with the caller's terminal or process group; stop it with `stop`.
  setsid nohup "$(binary "$name")" "$@" >>"$log" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$STATE_DIR/$name.pid"
  echo "$port" >"$STATE_DIR/$name.port"
  deadline=$(( $(date +%s) + START_TIMEOUT ))
  until ivs_port_open "$port"; do
    if ! ivs_pid_alive "$pid"; then
      ivs_log "$name exporter exited during startup; last lines of $log:"
      tail -n 20 "$log" >&2
      rm -f "$STATE_DIR/$name.pid"
      return 1
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      ivs_log "$name exporter not listening after ${START_TIMEOUT}s; last lines of $log:"
      tail -n 20 "$log" >&2
      kill -9 "$pid" 2>/dev/null || true
      rm -f "$STATE_DIR/$name.pid"
      return 1
    fi
    sleep 0.1
  done
  ivs_log "$name exporter on 127.0.0.1:$port (pid $pid)"
}

server_env() {  # server_env mariadb|postgres: that private server's exports, or nothing when it is stopped
  "$IVS_REPO_ROOT/scripts/$1.sh" status >/dev/null 2>&1 || return 0
  "$IVS_REPO_ROOT/scripts/$1.sh" env 2>/dev/null || true
}

cmd_start() {
  local name port env
  mkdir -p "$STATE_DIR"
  chmod 700 "$STATE_DIR"
  for name in $NAMES; do
    command -v "$(binary "$name")" >/dev/null 2>&1 || ivs_die "$(binary "$name") not found: run scripts/exporters.sh install (as root)"
  done
  if [ -n "${IVS_EXPORTERS_WEB_CONFIG:-}" ]; then
    cp "$IVS_EXPORTERS_WEB_CONFIG" "$WEB_CONFIG"
  else
    echo "# Written by scripts/exporters.sh: no TLS, no basic auth." >"$WEB_CONFIG"
  fi
  chmod 600 "$WEB_CONFIG"
  cat >"$STATE_DIR/process.yml" <<YAML
# Written by scripts/exporters.sh: one group per server command; children join their parent's group.
process_names:
  - name: "{{.Comm}}"
    comm: [mariadbd, mysqld, postgres]
    cmdline: ['$(printf '%s' "$PROCESS_MATCH" | sed "s/'/''/g")']
YAML
  # pg_stat_statements per statement kind, as the built-in sampler reads it (docs/monitor-exporters.md): each
  # column becomes ivsbench_statements_<column>{kind="..."}. Statements that name pg_stat_ (the monitors') are
  # left out; the exporter's other queries are not. The live and dead tuples of the database's tables, summed as
  # the built-in sampler sums them, become ivsbench_tables_n_live_tup and ivsbench_tables_n_dead_tup.
  cat >"$STATE_DIR/queries.yml" <<'YAML'
ivsbench_statements:
  query: >-
    SELECT lower(split_part(btrim(s.query), ' ', 1)) AS kind, sum(s.calls) AS calls, sum(s.rows) AS rows,
    sum(s.total_exec_time) AS exec_time_ms, sum(s.shared_blks_hit) AS shared_blks_hit,
    sum(s.shared_blks_read) AS shared_blks_read
    FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
    WHERE d.datname = current_database() AND s.query NOT LIKE '%pg\_stat\_%' GROUP BY 1
  metrics:
    - kind: {usage: LABEL, description: first keyword of the statement}
    - calls: {usage: COUNTER, description: calls}
    - rows: {usage: COUNTER, description: rows}
    - exec_time_ms: {usage: COUNTER, description: execution time in ms}
    - shared_blks_hit: {usage: COUNTER, description: shared blocks hit}
    - shared_blks_read: {usage: COUNTER, description: shared blocks read}
ivsbench_tables:
  query: >-
    SELECT coalesce(sum(n_live_tup), 0) AS n_live_tup, coalesce(sum(n_dead_tup), 0) AS n_dead_tup
    FROM pg_stat_user_tables
  metrics:
    - n_live_tup: {usage: GAUGE, description: live tuples of the database's tables}
    - n_dead_tup: {usage: GAUGE, description: dead tuples of the database's tables}
YAML
  for name in $NAMES; do
    exporter_pid "$name" >/dev/null && { ivs_log "$name exporter already running"; continue; }
    rm -f "$STATE_DIR/$name.port"
    port=$(ivs_find_free_port "$(base_port "$name")")
    case "$name" in
      node)
        # Debian's node_exporter leaves out lo by default; the built-in sampler lists it (a local client's traffic).
        launch node "$port" --web.listen-address="127.0.0.1:$port" --web.config.file="$WEB_CONFIG" \
          --collector.netdev.device-exclude='^$' ;;
      process)
        launch process "$port" -web.listen-address="127.0.0.1:$port" -web.config.file="$WEB_CONFIG" \
          -config.path="$STATE_DIR/process.yml" -threads=false -gather-smaps=false ;;
      mysqld)
        env=$(server_env mariadb)
        [ -n "$env" ] || { ivs_log "private MariaDB not running: no mysqld_exporter"; continue; }
        (
          eval "$env"
          umask 077
          printf '[client]\nuser=%s\npassword=%s\nhost=127.0.0.1\nport=%s\n' \
            "$IVS_MARIADB_USER" "$IVS_MARIADB_PASSWORD" "$IVS_MARIADB_PORT" >"$STATE_DIR/my.cnf"
        )
        launch mysqld "$port" --web.listen-address="127.0.0.1:$port" --web.config.file="$WEB_CONFIG" \
          --config.my-cnf="$STATE_DIR/my.cnf" ;;
      postgres)
        env=$(server_env postgres)
        [ -n "$env" ] || { ivs_log "private PostgreSQL not running: no postgres_exporter"; continue; }
        (
          eval "$env"
          db=${IVS_POSTGRES_URL##*/}
          db=${db%%\?*}
          export DATA_SOURCE_NAME="postgresql://$IVS_POSTGRES_USER:$IVS_POSTGRES_PASSWORD@127.0.0.1:$IVS_POSTGRES_PORT/$db?sslmode=disable"
          launch postgres "$port" --web.listen-address="127.0.0.1:$port" --web.config.file="$WEB_CONFIG" \
            --extend.query-path="$STATE_DIR/queries.yml"
        ) ;;
    esac
  done
  cmd_env
}

cmd_stop() {
  local name pid
  for name in $NAMES; do
    if ! pid=$(exporter_pid "$name"); then
      rm -f "$STATE_DIR/$name.pid"
      continue
    fi
    kill -TERM "$pid" 2>/dev/null || true
    if ! ivs_wait_pid_exit "$pid" 30; then
      ivs_log "$name exporter (pid $pid) still there after 30 s: SIGKILL"
      kill -9 "$pid" 2>/dev/null || true
      ivs_wait_pid_exit "$pid" 10 || ivs_die "pid $pid did not exit"
    fi
    rm -f "$STATE_DIR/$name.pid"
    ivs_log "$name exporter stopped"
  done
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) cmd_env ;;
  *) echo "usage: $0 install|start|stop|status|env" >&2; exit 2 ;;
esac
