#!/usr/bin/env bash
# A private MariaDB (10.11 from Debian) with the RocksDB engine (MyRocks) loaded at startup, for tests and demos.
#
#   scripts/mariadb.sh install        install the Debian packages if mariadbd is missing (root only)
#   scripts/mariadb.sh start          start (initialising the datadir if new); prints the env exports
#   scripts/mariadb.sh stop           clean shutdown (SIGKILL after 30 s)
#   scripts/mariadb.sh status         "running"/"stopped"; exit 0 when running, 3 when not
#   scripts/mariadb.sh env            shell exports: eval "$(scripts/mariadb.sh env)"
#   scripts/mariadb.sh restart-fresh  stop, wipe the datadir, start (a "fresh instance": a copy of a pristine datadir
#                                     that mariadb-install-db made once per server version under .cache/)
#   scripts/mariadb.sh restart-copy   stop, replace the datadir with a physical copy of the running server whose state
#                                     directory IVS_COPY_OF names (mariadb-backup --backup, --prepare, --copy-back:
#                                     files copied, not records re-inserted, so InnoDB pages and MyRocks SST files keep
#                                     the shape the history left; MyRocks flushes its memtable into the checkpoint),
#                                     start (experiment mode main-maintained's copy of main; docs/experiments.md)
#   scripts/mariadb.sh kill9          SIGKILL the server (fault tests); the next start runs crash recovery
#
# Environment:
#   IVS_STATE_DIR             state directory (default: <repo>/.cache/mariadb): my.cnf, data/, log, pid, socket;
#                             a relative path is taken against the current working directory
#   IVS_MARIADB_BUFFER_POOL   innodb_buffer_pool_size (default 128M, MariaDB's own default)
#   IVS_MARIADB_MAX_CONNECTIONS  max_connections (default 151, MariaDB's own default; a sweep to 512 terminals
#                             needs more than 512: each terminal holds one connection, plus loader and monitor)
#   IVS_MARIADB_BASE_PORT     first TCP port tried (default 23306)
#   IVS_COPY_OF               restart-copy: the state directory of the running server to copy (its my.cnf is read)
#   IVS_MARIADB_SETTINGS      more [mariadbd] settings, one `name=value` (or bare `name`) a line, appended after the
#                             ones below (a later line wins): for a scenario that needs a differently configured
#                             instance (docs/diagnosis.md 14, 15: a small redo log, small MyRocks write buffers);
#                             start it with its own IVS_STATE_DIR so the default instance keeps the defaults
#
# Configuration choices (everything else is MariaDB's default, deliberately: results must be comparable
# with a stock server): bind-address=127.0.0.1, skip-name-resolve, max_allowed_packet=64M (values grow to
# 1.6 MB per field and 16 MB per record), skip-log-bin, plugin-load-add=metadata_lock_info.so when the server
# ships it (Debian's mariadb-server does: information_schema.METADATA_LOCK_INFO names who holds the table lock
# that "Waiting for table metadata lock" sessions wait for; docs/diagnosis.md), plugin-load-add=ha_rocksdb.so (the engine must be
# loaded at startup; INSTALL SONAME on a running 10.11 crashed it), tmpdir=<state>/tmp (servers started side by
# side must not share /tmp: a bootstrap failed when another instance's temporary table file of the same name
# went away there). innodb_flush_log_at_trx_commit stays at its default (1). The server never reads
# /etc/mysql: every tool gets --defaults-file.
set -euo pipefail
IVS_LOG_TAG=mariadb
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

# A relative IVS_STATE_DIR is taken against the working directory the script was started in.
STATE_DIR="$(ivs_abs_path "${IVS_STATE_DIR:-$IVS_CACHE_DIR/mariadb}")"
CNF="$STATE_DIR/my.cnf"
DATADIR="$STATE_DIR/data"
PIDFILE="$STATE_DIR/mariadbd.pid"
ERRLOG="$STATE_DIR/mariadbd.err"
BUFFER_POOL="${IVS_MARIADB_BUFFER_POOL:-128M}"
MAX_CONNECTIONS="${IVS_MARIADB_MAX_CONNECTIONS:-151}"
# Below Linux's ephemeral range (32768-60999 by default), as scripts/postgres.sh: a port inside it can be handed to
# an outgoing connection as its local port while the server is down (a restart, a fresh instance's restart-fresh
# every epoch), and a client retrying in a tight loop can even connect to itself on it; the server then cannot bind.
BASE_PORT="${IVS_MARIADB_BASE_PORT:-23306}"
SETTINGS="${IVS_MARIADB_SETTINGS:-}"
while IFS= read -r setting; do
  [[ -z "$setting" || "$setting" =~ ^[A-Za-z][A-Za-z0-9_-]*(=[^[:cntrl:]]*)?$ ]] \
    || { echo "IVS_MARIADB_SETTINGS: not a name=value line: $setting" >&2; exit 2; }
done <<<"$SETTINGS"
START_TIMEOUT=60
DB=ivsbench
DB_USER=ivs
DB_PASSWORD=ivs

# Unix socket paths are limited to 107 bytes; fall back to a short path under /tmp when the state dir is deep.
socket_path() {
  local s="$STATE_DIR/mariadbd.sock"
  if [ "${#s}" -gt 100 ]; then
    s="/tmp/ivs-mariadb-$(printf '%s' "$STATE_DIR" | sha256sum | cut -c1-12).sock"
  fi
  echo "$s"
}
SOCKET="$(socket_path)"

find_tool() {  # mariadb-* name, with the mysql* alias as fallback
  local t
  for t in "$@"; do
    command -v "$t" >/dev/null 2>&1 && { command -v "$t"; return 0; }
    [ -x "/usr/sbin/$t" ] && { echo "/usr/sbin/$t"; return 0; }
  done
  return 1
}

mariadbd_bin() { find_tool mariadbd mysqld; }

cmd_install() {
  if mariadbd_bin >/dev/null && find_tool mariadb-admin mysqladmin >/dev/null \
      && [ -n "$(plugin_so)" ]; then
    ivs_log "MariaDB already installed: $("$(mariadbd_bin)" --version)"
    return 0
  fi
  if ! ivs_is_root; then
    ivs_die "MariaDB server (with the RocksDB plugin) is not installed and we are not root; as root run:
  apt-get install -y mariadb-server mariadb-client mariadb-plugin-rocksdb mariadb-backup"
  fi
  ivs_apt_install mariadb-server mariadb-client mariadb-plugin-rocksdb mariadb-backup
  # Debian's postinst may have started the system instance; ours is separate and does not need it.
  ivs_log "installed: $("$(mariadbd_bin)" --version)"
}

plugin_so() {
  local d
  for d in /usr/lib/mysql/plugin /usr/lib/*/mariadb*/plugin /usr/lib64/mysql/plugin; do
    [ -f "$d/ha_rocksdb.so" ] && { echo "$d/ha_rocksdb.so"; return 0; }
  done
  return 0
}

cnf_port() { [ -f "$CNF" ] && sed -n 's/^port *= *//p' "$CNF" | head -n1; }

server_pid() {
  local pid
  [ -f "$PIDFILE" ] || return 1
  pid=$(tr -dc '0-9' <"$PIDFILE")
  ivs_pid_alive "$pid" || return 1
  # A recycled pid must not be mistaken for our server.
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "--defaults-file=$CNF" || return 1
  echo "$pid"
}

admin() { "$(find_tool mariadb-admin mysqladmin)" --defaults-file="$CNF" -uroot "$@"; }
client() { "$(find_tool mariadb mysql)" --defaults-file="$CNF" -uroot "$@"; }

write_cnf() {
  local port=$1 user_line="" mdl_line=""
  ivs_is_root && user_line="user=root"
  local so; so="$(plugin_so)"
  [ -n "$so" ] && [ -f "$(dirname "$so")/metadata_lock_info.so" ] && mdl_line="plugin-load-add=metadata_lock_info.so"
  cat >"$CNF" <<EOF
# Generated by scripts/mariadb.sh; rewritten on every start. Only what differs from MariaDB's defaults.
[mariadbd]
$user_line
datadir=$DATADIR
socket=$SOCKET
pid-file=$PIDFILE
log-error=$ERRLOG
tmpdir=$STATE_DIR/tmp
bind-address=127.0.0.1
port=$port
skip-name-resolve
max_allowed_packet=64M
plugin-load-add=ha_rocksdb.so
$mdl_line
innodb_buffer_pool_size=$BUFFER_POOL
max_connections=$MAX_CONNECTIONS
skip-log-bin
$SETTINGS

[client]
socket=$SOCKET
port=$port
EOF
}

cmd_env() {
  local port
  port=$(cnf_port)
  [ -n "$port" ] || ivs_die "no $CNF yet: run scripts/mariadb.sh start"
  printf 'export IVS_MARIADB_PORT=%q\n' "$port"
  printf 'export IVS_MARIADB_SOCKET=%q\n' "$SOCKET"
  printf 'export IVS_MARIADB_URL=%q\n' "jdbc:mariadb://127.0.0.1:$port/$DB"
  printf 'export IVS_MARIADB_USER=%q\n' "$DB_USER"
  printf 'export IVS_MARIADB_PASSWORD=%q\n' "$DB_PASSWORD"
  printf 'export IVS_MARIADB_DEFAULTS=%q\n' "$CNF"
  printf 'export IVS_MARIADB_PIDFILE=%q\n' "$PIDFILE"
}

cmd_status() {
  local pid
  if pid=$(server_pid); then
    echo "running (pid $pid, port $(cnf_port), state $STATE_DIR)"
    return 0
  fi
  echo "stopped (state $STATE_DIR)"
  return 3
}

# Starts mariadbd once on $1; returns 0 when it answers ping, 2 when the port was taken, 1 otherwise.
launch() {
  local port=$1 bin pid deadline offset
  bin=$(mariadbd_bin)
  write_cnf "$port"
  offset=$(stat -c %s "$ERRLOG" 2>/dev/null || echo 0)
  # Detached: its own session, so Ctrl-C in the calling shell or the end of a CI step does not reach it.
  setsid nohup "$bin" --defaults-file="$CNF" >>"$ERRLOG" 2>&1 </dev/null &
  pid=$!
  deadline=$(( $(date +%s) + START_TIMEOUT ))
  while :; do
    if admin --connect-timeout=2 ping >/dev/null 2>&1 && [ -f "$PIDFILE" ]; then
      return 0
    fi
    if ! ivs_pid_alive "$pid"; then
      if tail -c +"$((offset + 1))" "$ERRLOG" 2>/dev/null | grep -qiE 'Address already in use|Do you already have another'; then
        return 2
      fi
      return 1
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      ivs_log "not ready after ${START_TIMEOUT}s"
      kill -9 "$pid" 2>/dev/null || true
      return 1
    fi
    sleep 0.1
  done
}

fail_with_log() {
  ivs_log "$1; last lines of $ERRLOG:"
  tail -n 40 "$ERRLOG" >&2 2>/dev/null || true
  exit 1
}

# A new datadir is a copy of a pristine one, initialised once per server version by mariadb-install-db under .cache/
# (a restart-fresh then costs a copy of a few MB instead of a bootstrap, seconds on a busy machine). The copy is
# what mariadb-install-db leaves, before the first start: nothing of a previous run is in it.
init_datadir() {
  local version pristine tmp
  version=$("$(mariadbd_bin)" --version | awk '{print $3}')
  pristine="$IVS_CACHE_DIR/mariadb-pristine-$version"
  if [ ! -d "$pristine/mysql" ]; then
    tmp="$pristine.tmp.$$"
    rm -rf "$tmp"
    ivs_log "initialising the pristine datadir $pristine"
    "$(find_tool mariadb-install-db mysql_install_db)" --defaults-file="$CNF" --datadir="$tmp" \
      --auth-root-authentication-method=normal --skip-test-db >>"$ERRLOG" 2>&1 \
      || { rm -rf "$tmp"; fail_with_log "mariadb-install-db failed"; }
    # Another start may have made it meanwhile: keep the first.
    mv -T "$tmp" "$pristine" 2>/dev/null || rm -rf "$tmp"
  fi
  ivs_log "initialising $DATADIR (a copy of $pristine)"
  cp -a "$pristine" "$DATADIR.tmp.$$" && mv -T "$DATADIR.tmp.$$" "$DATADIR" \
    || { rm -rf "$DATADIR.tmp.$$"; fail_with_log "could not copy $pristine"; }
}

cmd_start() {
  local t0 port attempt rc engine
  t0=$(ivs_now_ms)
  if server_pid >/dev/null; then
    ivs_log "already running on port $(cnf_port)"
    cmd_env
    return 0
  fi
  mariadbd_bin >/dev/null || ivs_die "mariadbd not found: run scripts/mariadb.sh install (as root)"
  [ -n "$(plugin_so)" ] || ivs_die "ha_rocksdb.so not found: run scripts/mariadb.sh install (mariadb-plugin-rocksdb)"
  mkdir -p "$STATE_DIR" "$STATE_DIR/tmp"
  # After a kill -9: the pid file and socket are stale; InnoDB and RocksDB recover from their own logs.
  rm -f "$PIDFILE" "$SOCKET" "$SOCKET.lock"

  if [ ! -d "$DATADIR/mysql" ]; then
    rm -rf "$DATADIR"
    write_cnf "$(ivs_find_free_port "$BASE_PORT")"
    init_datadir
  fi

  # Prefer the port of the last run (stable URLs); move on if something else took it meanwhile.
  port=$(cnf_port)
  if [ -z "$port" ] || ! ivs_port_free "$port"; then port=$(ivs_find_free_port "$BASE_PORT"); fi
  for attempt in 1 2 3 4 5; do
    rc=0; launch "$port" || rc=$?
    [ "$rc" -eq 0 ] && break
    [ "$rc" -eq 2 ] || fail_with_log "mariadbd did not start"
    ivs_log "port $port was taken (attempt $attempt); trying the next free one"
    rm -f "$PIDFILE" "$SOCKET" "$SOCKET.lock"
    port=$(ivs_find_free_port "$((port + 1))")
  done
  [ "$rc" -eq 0 ] || fail_with_log "mariadbd did not start (no usable port)"

  client -e "CREATE DATABASE IF NOT EXISTS \`$DB\`;
    CREATE USER IF NOT EXISTS '$DB_USER'@'127.0.0.1' IDENTIFIED BY '$DB_PASSWORD';
    CREATE USER IF NOT EXISTS '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASSWORD';
    GRANT ALL PRIVILEGES ON *.* TO '$DB_USER'@'127.0.0.1';
    GRANT ALL PRIVILEGES ON *.* TO '$DB_USER'@'localhost';" \
    || fail_with_log "could not create database $DB / user $DB_USER"

  engine=$(client -N -B -e "SELECT SUPPORT FROM information_schema.ENGINES WHERE ENGINE='ROCKSDB'" || true)
  case "$engine" in
    YES|DEFAULT) ;;
    *) fail_with_log "RocksDB engine not loaded (SUPPORT='${engine:-missing}')" ;;
  esac
  ivs_log "ready on 127.0.0.1:$port ($("$(mariadbd_bin)" --version | awk '{print $3}'), RocksDB $engine) in $(( $(ivs_now_ms) - t0 )) ms"
  cmd_env
}

cmd_stop() {
  local pid
  if ! pid=$(server_pid); then
    ivs_log "not running"
    rm -f "$PIDFILE"
    return 0
  fi
  admin shutdown >/dev/null 2>&1 || kill -TERM "$pid" 2>/dev/null || true
  if ! ivs_wait_pid_exit "$pid" 30; then
    ivs_log "pid $pid still there after 30 s: SIGKILL"
    kill -9 "$pid" 2>/dev/null || true
    ivs_wait_pid_exit "$pid" 10 || ivs_die "pid $pid did not exit"
  fi
  rm -f "$PIDFILE"
  ivs_log "stopped"
}

cmd_kill9() {
  local pid
  pid=$(server_pid) || ivs_die "not running"
  kill -9 "$pid"
  ivs_wait_pid_exit "$pid" 10 || ivs_die "pid $pid survived SIGKILL"
  ivs_log "killed pid $pid (SIGKILL)"
}

# A physical copy of another running instance of this script (IVS_COPY_OF: its state directory), made while it runs
# and without reading its pages through its buffer pool: mariadb-backup copies the data files (InnoDB with its
# redo log, MyRocks through a checkpoint), --prepare makes them consistent, --copy-back puts them in a new datadir.
cmd_restart_copy() {
  local src="${IVS_COPY_OF:-}" t0 backup
  [ -n "$src" ] || { echo "restart-copy: IVS_COPY_OF (the state directory of the server to copy) is not set" >&2; exit 2; }
  src=$(ivs_abs_path "$src")
  [ -f "$src/my.cnf" ] || { echo "restart-copy: IVS_COPY_OF '$src' holds no my.cnf (not a scripts/mariadb.sh state directory)" >&2; exit 2; }
  [ "$src" != "$STATE_DIR" ] || { echo "restart-copy: IVS_COPY_OF is this instance's own state directory" >&2; exit 2; }
  t0=$(ivs_now_ms)
  cmd_stop
  backup="$STATE_DIR/backup"
  rm -rf "$DATADIR" "$backup"
  mkdir -p "$STATE_DIR/tmp"
  ivs_log "copying the server of $src (mariadb-backup)"
  "$(find_tool mariadb-backup mariabackup)" --defaults-file="$src/my.cnf" --backup --user=root \
    --target-dir="$backup" >>"$ERRLOG" 2>&1 || fail_with_log "mariadb-backup --backup of $src failed"
  "$(find_tool mariadb-backup mariabackup)" --prepare --target-dir="$backup" >>"$ERRLOG" 2>&1 \
    || fail_with_log "mariadb-backup --prepare failed"
  "$(find_tool mariadb-backup mariabackup)" --copy-back --target-dir="$backup" --datadir="$DATADIR" >>"$ERRLOG" 2>&1 \
    || fail_with_log "mariadb-backup --copy-back failed"
  rm -rf "$backup"
  ivs_log "copied in $(( $(ivs_now_ms) - t0 )) ms"
  [ -f "$CNF" ] || write_cnf "$(ivs_find_free_port "$BASE_PORT")"
  cmd_start
}

cmd_restart_fresh() {
  cmd_stop
  rm -rf "$DATADIR"
  cmd_start
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) cmd_env ;;
  restart-fresh) cmd_restart_fresh ;;
  restart-copy) cmd_restart_copy ;;
  kill9) cmd_kill9 ;;
  *) echo "usage: $0 {install|start|stop|status|env|restart-fresh|restart-copy|kill9}" >&2; exit 2 ;;
esac
