# Argument checks shared by the fault injectors (sourced after lib/common.sh): a bad argument gets one line
# naming it and its value, and exit 2, before anything is done.
fault_name() { [[ "$2" =~ ^[A-Za-z0-9_]+$ ]] || { echo "$1: not a plain name: $2" >&2; exit 2; }; }
fault_seconds() {
  [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -gt 0 ] || { echo "seconds: not a positive integer: $1" >&2; exit 2; }
}
fault_file() { [ -f "$2" ] || { echo "$1: not found: $2" >&2; exit 2; }; }
fault_pg_url() {
  [[ "$1" == postgresql://* || "$1" == postgres://* ]] || { echo "url: not a postgresql:// URL: $1" >&2; exit 2; }
}
# The mariadb (or mysql) client's path.
fault_mariadb_client() { command -v mariadb || command -v mysql || ivs_die "the mariadb client is not installed"; }
fault_psql() { command -v psql >/dev/null || ivs_die "psql is not installed"; }
# A list of settings: each argument `name=value`, the name a plain setting name.
fault_settings() {
  local s
  [ $# -gt 0 ] || { echo "settings: none given (name=value ...)" >&2; exit 2; }
  for s in "$@"; do
    [[ "$s" =~ ^[A-Za-z_][A-Za-z0-9_.]*=[^[:cntrl:]\'\;]+$ ]] || { echo "setting: not a name=value: $s" >&2; exit 2; }
  done
}
# Runs SQL (after SELECT CONNECTION_ID()) in SESSIONS sessions of their own at once; prints their connection ids on
# one line once every one has started it, and returns when all have ended. A statement ended by its
# max_statement_time (MariaDB error 1969) ended as meant; any other error fails the injector.
fault_mariadb_sessions() {
  local defaults=$1 db=$2 n=$3 sql=$4 client dir i ids="" p bad=0
  client="$(fault_mariadb_client)"
  dir=$(mktemp -d)
  local pids=()
  for ((i = 0; i < n; i++)); do
    "$client" --defaults-file="$defaults" -uroot -N -B --unbuffered "$db" -e "SELECT CONNECTION_ID(); $sql" \
      >"$dir/$i" 2>"$dir/$i.err" &
    pids+=("$!")
  done
  for ((i = 0; i < n; i++)); do
    until [ -s "$dir/$i" ] || ! kill -0 "${pids[$i]}" 2>/dev/null; do sleep 0.05; done
    ids+="$(head -n 1 "$dir/$i") "
  done
  echo "${ids% }"
  for p in "${pids[@]}"; do wait "$p" || true; done
  for ((i = 0; i < n; i++)); do
    if grep -v -e 'max_statement_time exceeded' -e '^$' "$dir/$i.err" >&2; then bad=1; fi
  done
  rm -rf "$dir"
  return "$bad"
}
# As fault_mariadb_sessions for PostgreSQL: SQL (ended by its statement_timeout, which is not an error here) after
# SELECT pg_backend_pid() in SESSIONS sessions; prints their pids on one line, returns when all have ended.
fault_pg_sessions() {
  local url=$1 n=$2 sql=$3 dir i ids="" p bad=0
  dir=$(mktemp -d)
  local pids=()
  for ((i = 0; i < n; i++)); do
    printf 'SELECT pg_backend_pid();\n%s\n' "$sql" | psql "$url" -X -q -t -A >"$dir/$i" 2>"$dir/$i.err" &
    pids+=("$!")
  done
  for ((i = 0; i < n; i++)); do
    until [ -s "$dir/$i" ] || ! kill -0 "${pids[$i]}" 2>/dev/null; do sleep 0.05; done
    ids+="$(head -n 1 "$dir/$i") "
  done
  echo "${ids% }"
  for p in "${pids[@]}"; do wait "$p" || true; done
  for ((i = 0; i < n; i++)); do
    if grep -v -e 'canceling statement due to statement timeout' -e '^$' "$dir/$i.err" >&2; then bad=1; fi
  done
  rm -rf "$dir"
  return "$bad"
}
fault_sessions() {
  [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le 16 ] \
    || { echo "sessions: not a number from 1 to 16: $1" >&2; exit 2; }
}
