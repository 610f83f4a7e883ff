#!/usr/bin/env bash
# A private PostgreSQL (15 from Debian) for tests and demos.
#
#   scripts/postgres.sh install        install the Debian package if the binaries are missing (root only)
#   scripts/postgres.sh start          start (initdb when new); prints the env exports
#   scripts/postgres.sh stop           fast shutdown (SIGKILL after 30 s)
#   scripts/postgres.sh status         "running"/"stopped"; exit 0 when running, 3 when not
#   scripts/postgres.sh env            shell exports: eval "$(scripts/postgres.sh env)"
#   scripts/postgres.sh restart-fresh  stop, wipe the data directory, start (a "fresh instance": a copy of a pristine
#                                      data directory made once by initdb)
#   scripts/postgres.sh kill9          SIGKILL the postmaster (fault tests); the next start runs crash recovery
#
# Environment:
#   IVS_STATE_DIR               state directory (default: <repo>/.cache/postgres): data/, log, port; a relative
#                               path is taken against the current working directory. As root, when the server's
#                               user cannot enter the checkout, a state directory below <repo>/.cache moves to
#                               /var/tmp/ivsbench-postgres-<hash of the checkout's path>/ with the same name below
#                               it; one elsewhere that the user cannot reach is refused (exit 2)
#   IVS_POSTGRES_BASE_PORT      first TCP port tried (default 25432)
#   IVS_POSTGRES_SHARED_BUFFERS shared_buffers (default 128MB, PostgreSQL's own default)
#   IVS_POSTGRES_SETTINGS       more settings, one `name = value` a line, written at each start to
#                               <data>/ivs-settings.conf (included by postgresql.conf): for a scenario that needs a
#                               differently configured instance (docs/diagnosis.md, held-out H6: synchronous_commit
#                               = off); start it with its own IVS_STATE_DIR so the default instance keeps the defaults
#   IVS_POSTGRES_USER_OS        the system user the server runs as when we are root (default postgres)
#
# PostgreSQL refuses to run as root, so as root the data directory is given to a system user and every server
# tool runs as that user. Configuration choices (everything else is PostgreSQL's default, deliberately):
# listen on 127.0.0.1 only, no Unix socket (the path length limit and /var/run permissions are avoided; every
# client uses TCP), trust authentication (a private test server; the user still has a password for configs
# that set one), and pg_stat_statements preloaded so the tests can compare client counts with the server's.
set -euo pipefail
IVS_LOG_TAG=postgres
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

PG_VERSION=15
PG_BIN="/usr/lib/postgresql/$PG_VERSION/bin"
OS_USER="${IVS_POSTGRES_USER_OS:-postgres}"
# The server's user must enter every folder above its state directory. When it cannot enter the checkout (a private
# folder: a root-only home, a `mktemp -d` folder), the project's .cache is, for PostgreSQL's state only, a folder of
# its own under /var/tmp named after the checkout: the default state directory and any IVS_STATE_DIR below .cache
# (the experiment presets' .cache/postgres-fresh) keep their names below it.
server_cache_dir() {
  if ivs_is_root && id "$OS_USER" >/dev/null 2>&1 && ! runuser -u "$OS_USER" -- test -x "$IVS_REPO_ROOT"; then
    ivs_outside_cache_dir postgres
  else
    echo "$IVS_CACHE_DIR"
  fi
}
# A relative IVS_STATE_DIR is taken against the working directory the script was started in.
STATE_DIR="$(ivs_abs_path "${IVS_STATE_DIR:-$IVS_CACHE_DIR/postgres}")"
SERVER_CACHE_DIR=$IVS_CACHE_DIR
case "$STATE_DIR" in
  "$IVS_CACHE_DIR"/*)
    SERVER_CACHE_DIR="$(server_cache_dir)"
    STATE_DIR="$SERVER_CACHE_DIR/${STATE_DIR#"$IVS_CACHE_DIR"/}" ;;
esac
DATADIR="$STATE_DIR/data"
PIDFILE="$DATADIR/postmaster.pid"
LOG="$STATE_DIR/postgres.log"
PORTFILE="$STATE_DIR/port"
# Below Linux's ephemeral range (32768-60999 by default): while the server is down, a client retrying in a tight
# loop can be given the server's own port as its source port and connect to itself, which then holds the port and
# the restart cannot bind it.
BASE_PORT="${IVS_POSTGRES_BASE_PORT:-25432}"
SHARED_BUFFERS="${IVS_POSTGRES_SHARED_BUFFERS:-128MB}"
SETTINGS="${IVS_POSTGRES_SETTINGS:-}"
while IFS= read -r setting; do
  [[ -z "$setting" || "$setting" =~ ^[A-Za-z][A-Za-z0-9_.]*\ *=\ *[^[:cntrl:]]+$ ]] \
    || { echo "IVS_POSTGRES_SETTINGS: not a name = value line: $setting" >&2; exit 2; }
done <<<"$SETTINGS"
START_TIMEOUT=60
DB=ivsbench
DB_USER=ivs
DB_PASSWORD=ivs

# Runs a server tool as the user that owns the data directory. As root, from / (every path given is absolute): the
# server's user may not be able to enter the caller's working directory (a checkout in a private folder).
as_owner() {
  if ivs_is_root; then
    (cd / && runuser -u "$OS_USER" -- "$@")
  else
    "$@"
  fi
}

# As root, the server runs as $OS_USER, which must enter every folder above the state directory. A state directory
# below a folder it cannot enter (a checkout in a private folder, mode 0700) fails here, before anything is stopped
# or written, with one line naming that folder.
check_state_dir_reachable() {
  local d folders=()
  ivs_is_root || return 0
  d=$(dirname "$STATE_DIR")
  while :; do
    folders=("$d" "${folders[@]}")
    [ "$d" = / ] && break
    d=$(dirname "$d")
  done
  for d in "${folders[@]}"; do
    [ -d "$d" ] || return 0 # made below by mkdir -p with this process's umask
    runuser -u "$OS_USER" -- test -x "$d" && continue
    echo "[postgres] ERROR: IVS_STATE_DIR $STATE_DIR: the server's user $OS_USER cannot enter $d (mode $(stat -c %a "$d"), owner" \
      "$(stat -c %U "$d")); choose a state directory below folders it can enter (such as /var/tmp), or one below" \
      "the project's .cache (moved to /var/tmp when the checkout is private)" >&2
    exit 2
  done
}

cmd_install() {
  if [ -x "$PG_BIN/postgres" ] && [ -x "$PG_BIN/initdb" ] && command -v psql >/dev/null 2>&1; then
    ivs_log "PostgreSQL already installed: $("$PG_BIN/postgres" --version)"
    return 0
  fi
  if ! ivs_is_root; then
    ivs_die "PostgreSQL $PG_VERSION is not installed and we are not root; as root run: apt-get install -y postgresql"
  fi
  ivs_apt_install postgresql
  # Debian's postinst starts its own cluster on 5432; ours is separate and does not need it.
  [ -x "$PG_BIN/postgres" ] || ivs_die "installed, but $PG_BIN/postgres is missing (not PostgreSQL $PG_VERSION?)"
  ivs_log "installed: $("$PG_BIN/postgres" --version)"
}

ensure_os_user() {
  ivs_is_root || return 0
  if ! id "$OS_USER" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$OS_USER"
  fi
}

saved_port() { [ -f "$PORTFILE" ] && tr -dc '0-9' <"$PORTFILE"; }

server_pid() {
  local pid
  [ -f "$PIDFILE" ] || return 1
  pid=$(head -n1 "$PIDFILE" | tr -dc '0-9')
  ivs_pid_alive "$pid" || return 1
  # A recycled pid must not be mistaken for our server.
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$DATADIR" || return 1
  echo "$pid"
}

psql_admin() {
  PGCONNECT_TIMEOUT=5 PGOPTIONS='-c client_min_messages=warning' psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$(saved_port)" -U postgres "$@"
}

cmd_env() {
  local port
  port=$(saved_port)
  [ -n "$port" ] || ivs_die "no $PORTFILE yet: run scripts/postgres.sh start"
  printf 'export IVS_POSTGRES_PORT=%q\n' "$port"
  printf 'export IVS_POSTGRES_URL=%q\n' "jdbc:postgresql://127.0.0.1:$port/$DB"
  printf 'export IVS_POSTGRES_USER=%q\n' "$DB_USER"
  printf 'export IVS_POSTGRES_PASSWORD=%q\n' "$DB_PASSWORD"
  printf 'export IVS_POSTGRES_PIDFILE=%q\n' "$PIDFILE"
  printf 'export IVS_POSTGRES_DATADIR=%q\n' "$DATADIR"
}

cmd_status() {
  local pid
  if pid=$(server_pid); then
    echo "running (pid $pid, port $(saved_port), state $STATE_DIR)"
    return 0
  fi
  echo "stopped (state $STATE_DIR)"
  return 3
}

# Starts the server once on $1; returns 0 when it accepts connections, 2 when the port was taken, 1 otherwise.
launch() {
  local port=$1 offset
  echo "$port" >"$PORTFILE"
  offset=$(stat -c %s "$LOG" 2>/dev/null || echo 0)
  # pg_ctl detaches the server (its own session), so Ctrl-C in the calling shell does not reach it.
  if as_owner "$PG_BIN/pg_ctl" -D "$DATADIR" -l "$LOG" -w -t "$START_TIMEOUT" \
      -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=''" start >/dev/null 2>&1; then
    return 0
  fi
  if tail -c +"$((offset + 1))" "$LOG" 2>/dev/null | grep -qiE 'Address already in use|could not bind'; then
    return 2
  fi
  return 1
}

fail_with_log() {
  ivs_log "$1; last lines of $LOG:"
  tail -n 40 "$LOG" >&2 2>/dev/null || true
  exit 1
}

# A new data directory is a copy of a pristine one, made once per server version by initdb beside the state
# directory (a restart-fresh then costs a copy of a few tens of MB instead of an initdb). The copy is what initdb
# leaves, before the first start: nothing of a previous run is in it; the settings below are added to each copy.
init_datadir() {
  local version pristine tmp
  version=$("$PG_BIN/initdb" --version | sed -n 's/^initdb (PostgreSQL) \([^ ]*\).*/\1/p')
  pristine="$(dirname "$STATE_DIR")/postgres-pristine-$version"
  rm -rf "$DATADIR"
  mkdir -p "$STATE_DIR"
  ivs_is_root && chown "$OS_USER": "$STATE_DIR"
  if [ ! -f "$pristine/PG_VERSION" ]; then
    tmp="$pristine.tmp.$$"
    rm -rf "$tmp"
    mkdir -p "$tmp"
    ivs_is_root && chown "$OS_USER": "$tmp"
    chmod 700 "$tmp"
    ivs_log "initialising the pristine data directory $pristine"
    # C locale and UTF-8: keys order bytewise as on the other targets, and text holds any value.
    as_owner "$PG_BIN/initdb" -D "$tmp" -U postgres --auth=trust --encoding=UTF8 --locale=C >>"$LOG" 2>&1 \
      || { rm -rf "$tmp"; fail_with_log "initdb failed"; }
    # Another start may have made it meanwhile: keep the first.
    mv -T "$tmp" "$pristine" 2>/dev/null || rm -rf "$tmp"
  fi
  ivs_log "initialising $DATADIR (a copy of $pristine)"
  cp -a "$pristine" "$DATADIR.tmp.$$" && mv -T "$DATADIR.tmp.$$" "$DATADIR" \
    || { rm -rf "$DATADIR.tmp.$$"; fail_with_log "could not copy $pristine"; }
  cat >>"$DATADIR/postgresql.conf" <<EOF
# Added by scripts/postgres.sh: only what differs from PostgreSQL's defaults.
shared_buffers = $SHARED_BUFFERS
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = all
# After a crash, sync the data directory's file systems once instead of fsyncing every file: restarts in the
# crash tests take a fraction of the time on a busy machine.
recovery_init_sync_method = syncfs
EOF
}

cmd_start() {
  local t0 port attempt rc saved
  t0=$(ivs_now_ms)
  if server_pid >/dev/null; then
    ivs_log "already running on port $(saved_port)"
    cmd_env
    return 0
  fi
  [ -x "$PG_BIN/postgres" ] || ivs_die "$PG_BIN/postgres not found: run scripts/postgres.sh install (as root)"
  ensure_os_user
  check_state_dir_reachable
  if [ "$SERVER_CACHE_DIR" != "$IVS_CACHE_DIR" ] && [ ! -d "$SERVER_CACHE_DIR" ]; then
    mkdir -p "$SERVER_CACHE_DIR" && chmod 755 "$SERVER_CACHE_DIR"
    ivs_log "$OS_USER cannot enter $IVS_REPO_ROOT: its state below .cache lives in $SERVER_CACHE_DIR"
  fi
  mkdir -p "$STATE_DIR"
  touch "$LOG"
  ivs_is_root && chown "$OS_USER": "$STATE_DIR" "$LOG"
  [ -f "$DATADIR/PG_VERSION" ] || init_datadir
  # IVS_POSTGRES_SETTINGS, rewritten at every start (empty without it); a data directory made before it gets the
  # include line now
  grep -q "^include_if_exists = 'ivs-settings.conf'" "$DATADIR/postgresql.conf" \
    || echo "include_if_exists = 'ivs-settings.conf'" >>"$DATADIR/postgresql.conf"
  printf '%s\n' "$SETTINGS" >"$DATADIR/ivs-settings.conf"
  ivs_is_root && chown "$OS_USER": "$DATADIR/ivs-settings.conf"
  # After a kill -9 the pid file is stale; the server removes it itself when its pid is not running.

  # Prefer the port of the last run (stable URLs); move on if something else took it meanwhile.
  port=$(saved_port || true)
  if [ -z "$port" ] || ! ivs_port_free "$port"; then port=$(ivs_find_free_port "$BASE_PORT"); fi
  saved=$port
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    rc=0; launch "$port" || rc=$?
    [ "$rc" -eq 0 ] && break
    [ "$rc" -eq 2 ] || fail_with_log "postgres did not start"
    # Just after a crash or a stop the kernel can still hold the last run's connections on the port (nothing
    # listens, yet bind fails): a restart keeps its URL by waiting a little before it moves on.
    if [ "$port" = "$saved" ] && [ "$attempt" -le 5 ]; then
      ivs_log "port $port is still held by closing connections (attempt $attempt); retrying in 1 s"
      sleep 1
      continue
    fi
    ivs_log "port $port was taken (attempt $attempt); trying the next free one"
    port=$(ivs_find_free_port "$((port + 1))")
  done
  [ "$rc" -eq 0 ] || fail_with_log "postgres did not start (no usable port)"

  if [ "$(psql_admin -tA -c "SELECT count(*) FROM pg_roles WHERE rolname = '$DB_USER'")" = 0 ]; then
    psql_admin -c "CREATE ROLE $DB_USER LOGIN CREATEDB PASSWORD '$DB_PASSWORD'" \
      || fail_with_log "could not create user $DB_USER"
  fi
  if [ "$(psql_admin -tA -c "SELECT count(*) FROM pg_database WHERE datname = '$DB'")" = 0 ]; then
    psql_admin -c "CREATE DATABASE $DB OWNER $DB_USER" || fail_with_log "could not create database $DB"
  fi
  # An experiment's quiescence wait runs CHECKPOINT before each run phase (PostgreSQL 15's pg_checkpoint role).
  psql_admin -c "GRANT pg_checkpoint TO $DB_USER" >/dev/null || fail_with_log "could not grant pg_checkpoint to $DB_USER"
  # In template1 too, so the experiment's fresh databases have it as well.
  for d in template1 "$DB"; do
    psql_admin -d "$d" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" \
      || fail_with_log "could not create extension pg_stat_statements in $d"
  done
  ivs_log "ready on 127.0.0.1:$port ($("$PG_BIN/postgres" --version)) in $(( $(ivs_now_ms) - t0 )) ms"
  cmd_env
}

cmd_stop() {
  local pid
  if ! pid=$(server_pid); then
    ivs_log "not running"
    return 0
  fi
  as_owner "$PG_BIN/pg_ctl" -D "$DATADIR" -m fast -w -t 30 stop >/dev/null 2>&1 || kill -TERM "$pid" 2>/dev/null || true
  if ! ivs_wait_pid_exit "$pid" 30; then
    ivs_log "pid $pid still there after 30 s: SIGKILL"
    kill -9 "$pid" 2>/dev/null || true
    ivs_wait_pid_exit "$pid" 10 || ivs_die "pid $pid did not exit"
  fi
  ivs_log "stopped"
}

cmd_kill9() {
  local pid
  pid=$(server_pid) || ivs_die "not running"
  kill -9 "$pid"
  ivs_wait_pid_exit "$pid" 10 || ivs_die "pid $pid survived SIGKILL"
  ivs_log "killed pid $pid (SIGKILL)"
}

cmd_restart_fresh() {
  ensure_os_user
  check_state_dir_reachable
  cmd_stop
  # A fresh instance takes its port from IVS_POSTGRES_BASE_PORT as a new one does (as mariadb.sh's does), not
  # the last run's: a preset that moved its fresh port in command and url must find the server there.
  rm -rf "$DATADIR" "$PORTFILE"
  cmd_start
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) cmd_env ;;
  restart-fresh) cmd_restart_fresh ;;
  kill9) cmd_kill9 ;;
  *) echo "usage: $0 {install|start|stop|status|env|restart-fresh|kill9}" >&2; exit 2 ;;
esac
