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
