# Shared helpers for the scripts in scripts/. Source it; do not run it.
# shellcheck shell=bash

IVS_REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
IVS_CACHE_DIR="$IVS_REPO_ROOT/.cache"

# The folder under /var/tmp that holds, for a server run as a system user that cannot enter the checkout $2
# (default: this one), what would live below its .cache (scripts/postgres.sh, as root, in a private folder): named
# after the server $1 and the checkout's path.
ivs_outside_cache_dir() {
  printf '/var/tmp/ivsbench-%s-%s\n' "$1" "$(printf '%s' "${2:-$IVS_REPO_ROOT}" | sha256sum | cut -c1-12)"
}

ivs_log() { printf '[%s] %s\n' "${IVS_LOG_TAG:-ivsbench}" "$*" >&2; }
ivs_die() { printf '[%s] ERROR: %s\n' "${IVS_LOG_TAG:-ivsbench}" "$*" >&2; exit 1; }

ivs_is_root() { [ "$(id -u)" -eq 0 ]; }

# Prints $1 as an absolute path: a relative path is taken against the caller's working directory (where the
# script was started), so a state directory such as IVS_STATE_DIR=.cache/x means the same thing to every tool
# the script runs, including those that change directory (mariadb-install-db works from its basedir, /usr).
# Call it once, at the start, before anything changes directory.
ivs_abs_path() {
  [ -n "$1" ] || ivs_die "empty path"
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$PWD" "${1#./}" ;;
  esac
}

# Milliseconds since the epoch (for timings printed to the user).
ivs_now_ms() { date +%s%3N; }

# True when something accepts TCP connections on 127.0.0.1:$1.
ivs_port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# True when nothing listens on port $1 (any address) and nothing answers on 127.0.0.1.
ivs_port_free() {
  local port=$1
  if command -v ss >/dev/null 2>&1; then
    if ss -Hltn "sport = :$port" 2>/dev/null | grep -q .; then return 1; fi
  fi
  ! ivs_port_open "$port"
}

# Prints the first free port in [$1, $1+200).
ivs_find_free_port() {
  local port=$1 last=$(($1 + 200))
  while [ "$port" -lt "$last" ]; do
    if ivs_port_free "$port"; then echo "$port"; return 0; fi
    port=$((port + 1))
  done
  ivs_die "no free TCP port in [$1, $last)"
}

# True while process $1 exists (and is not a zombie).
ivs_pid_alive() {
  local pid=$1 state
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || echo "?")
  [ "$state" != "Z" ]
}

# Waits up to $2 seconds for process $1 to exit. Returns 1 if it is still there.
ivs_wait_pid_exit() {
  local pid=$1 deadline=$(( $(date +%s) + $2 ))
  while ivs_pid_alive "$pid"; do
    [ "$(date +%s)" -ge "$deadline" ] && return 1
    sleep 0.1
  done
  return 0
}

# apt-get install, run once per script; waits for a concurrent apt/dpkg instead of failing on its lock.
IVS_APT_UPDATED=${IVS_APT_UPDATED:-}
ivs_apt_install() {
  ivs_is_root || ivs_die "need root to install Debian packages: $*"
  command -v apt-get >/dev/null 2>&1 || ivs_die "apt-get not found; install manually: $*"
  local apt=(apt-get -o DPkg::Lock::Timeout=900 -q)
  if [ -z "$IVS_APT_UPDATED" ]; then
    ivs_log "apt-get update"
    DEBIAN_FRONTEND=noninteractive "${apt[@]}" update >&2 || ivs_die "apt-get update failed"
    IVS_APT_UPDATED=1
    export IVS_APT_UPDATED
  fi
  ivs_log "apt-get install -y $*"
  DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends "$@" >&2 \
    || ivs_die "apt-get install $* failed"
}

# Java major version of the `java` on PATH (e.g. 17), or empty.
ivs_java_major() {
  command -v java >/dev/null 2>&1 || return 0
  java -version 2>&1 | awk -F'"' '/version/ {split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]); exit}'
}

# Checks java >= 17 and mvn; installs them from Debian when root and missing.
ivs_require_java_maven() {
  local major
  major=$(ivs_java_major)
  if { [ -z "$major" ] || [ "$major" -lt 17 ] || ! command -v mvn >/dev/null 2>&1; } && ivs_is_root \
      && command -v apt-get >/dev/null 2>&1; then
    ivs_apt_install openjdk-17-jdk-headless maven
    major=$(ivs_java_major)
  fi
  [ -n "$major" ] || ivs_die "java not found: install a JDK 17 or newer (Debian: apt-get install openjdk-17-jdk-headless)"
  [ "$major" -ge 17 ] || ivs_die "java $major found on PATH; ivsbench needs Java 17 or newer"
  command -v mvn >/dev/null 2>&1 || ivs_die "mvn not found: install Maven 3.8+ (Debian: apt-get install maven)"
}

# Creates/refreshes the analyzer venv in .cache/venv. Prints nothing; returns non-zero on failure.
# Reinstalls only when results-analyzer's pyproject.toml / requirements*.txt change.
IVS_VENV="$IVS_CACHE_DIR/venv"
ivs_setup_venv() {
  local dir="$IVS_REPO_ROOT/results-analyzer" py="${IVS_PYTHON:-python3}" stamp digest
  [ -d "$dir" ] || { ivs_log "no results-analyzer/ yet: skipping the Python environment"; return 0; }
  command -v "$py" >/dev/null 2>&1 || { ivs_log "python3 not found"; return 1; }
  if [ ! -x "$IVS_VENV/bin/python" ]; then
    ivs_log "creating $IVS_VENV with $("$py" --version 2>&1)"
    mkdir -p "$IVS_CACHE_DIR"
    if ! "$py" -m venv "$IVS_VENV" >&2; then
      # Debian ships venv/ensurepip separately (python3-venv).
      rm -rf "$IVS_VENV"
      if ivs_is_root && command -v apt-get >/dev/null 2>&1; then
        ( ivs_apt_install python3-venv ) || return 1
        "$py" -m venv "$IVS_VENV" >&2 || return 1
      else
        ivs_log "python3 cannot create venvs (Debian: apt-get install python3-venv)"; return 1
      fi
    fi
  fi
  stamp="$IVS_VENV/.ivs-installed"
  # Some of these files do not exist: cat's failure must not end a caller running under set -eo pipefail.
  digest=$( { cat "$dir"/pyproject.toml "$dir"/setup.py "$dir"/setup.cfg "$dir"/requirements*.txt 2>/dev/null || true; } \
    | sha256sum | cut -c1-16)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ]; then
    return 0
  fi
  local pip=("$IVS_VENV/bin/python" -m pip --disable-pip-version-check -q)
  if [ -f "$dir/pyproject.toml" ] || [ -f "$dir/setup.py" ]; then
    ivs_log "pip install -e results-analyzer[test]"
    "${pip[@]}" install -e "$dir[test]" >&2 || return 1
  elif [ -f "$dir/requirements.txt" ]; then
    ivs_log "pip install -r results-analyzer/requirements.txt"
    "${pip[@]}" install -r "$dir/requirements.txt" >&2 || return 1
  fi
  if ! "$IVS_VENV/bin/python" -c 'import pytest' 2>/dev/null; then
    "${pip[@]}" install pytest >&2 || return 1
  fi
  echo "$digest" >"$stamp"
}
