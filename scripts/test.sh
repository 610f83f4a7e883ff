#!/usr/bin/env bash
# THE test command (README, .ci/run): sets up everything the tests need, runs the Java and Python tests,
# and always stops the private servers it used.
#
#   scripts/test.sh [--java-only | --python-only] [--keep-servers]
#
# Java:   checks Java 17+ and Maven (installs them from Debian when root and missing), starts a private
#         MariaDB 10.11 with MyRocks (scripts/mariadb.sh), the MongoDB stand-in (scripts/mongo-standin.sh), a
#         private PostgreSQL 15 (scripts/postgres.sh), a one-node Cassandra 5.0 (scripts/cassandra.sh) and a private
#         Prometheus 2.42 (scripts/prometheus.sh; installed from Debian when root and missing) and private
#         node/process/mysqld/postgres exporters (scripts/exporters.sh; Debian's packages, likewise), builds
#         target/benchbase.jar from clean (CLI tests run it), then `mvn -B test` with -Divs.mariadb.url /
#         -Divs.mongo.url / -Divs.postgres.url / -Divs.cassandra.url / -Divs.prometheus.url / -Divs.prometheus.target
#         / -Divs.exporter.{node,process,mysqld,postgres} and the IVS_MARIADB_* / IVS_MONGO_* / IVS_POSTGRES_* /
#         IVS_CASSANDRA_* / IVS_PROMETHEUS_* / IVS_*_EXPORTER_URL variables exported.
# Python: if results-analyzer/ exists: venv in .cache/venv, the analyzer with its test extra, Debian chromium
#         (the report screenshot test and the browse page's filters; exported as IVS_CHROMIUM). Its unit tests
#         (all but tests/test_real_*.py; no server) run in the background beside the Java part, once the jar is
#         built; its real-server tests (tests/test_real_*.py, each starting its own servers) run alone after it,
#         once the Java tests' servers are stopped.
# Tests never skip for a missing server, jar or browser here: they fail. IVS_ALLOW_SKIP=1 (never set by this
# script) is how a developer running mvn test or pytest by hand without servers turns those failures into skips.
# Any skipped test (surefire's or pytest's JUnit XML reports, read by scripts/lib/skipped_tests.py) fails the
# part it is in, and is listed by name with its reason.
# The tree: tests write only under temporary folders, target/ and .cache/ (the servers' state, the venv). The
# work tree's `git status --porcelain --ignored` outside those two (Python's own __pycache__/, .pytest_cache/
# and *.egg-info/ aside) is recorded before the first part and after the last; a path that changed fails the
# run (tree=FAILED), listed by name.
#
# Environment: IVS_TEST_TIMEOUT (seconds per forked test JVM, default 3600: the whole Java suite runs in one forked JVM), IVS_PYTHON (default python3),
# plus those of scripts/mariadb.sh, scripts/mongo-standin.sh, scripts/postgres.sh, scripts/prometheus.sh and
# scripts/exporters.sh.
# Exit status: 0 when every selected part passed; 1 otherwise. The last line says which part failed.
set -uo pipefail
IVS_LOG_TAG=test
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=lib/servers.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/servers.sh"
cd "$IVS_REPO_ROOT"
# Debian's Maven 3.8 leaves colour-reset escapes in its output even with -B: keep the log plain.
export MAVEN_OPTS="${MAVEN_OPTS:-} -Djansi.noreset=true"
# A full run checks everything for real: an IVS_ALLOW_SKIP left in the caller's environment must not turn a
# missing server into a skip.
unset IVS_ALLOW_SKIP

run_java=1 run_python=1 keep_servers=0
for arg in "$@"; do
  case "$arg" in
    --java-only) run_python=0 ;;
    --python-only) run_java=0 ;;
    --keep-servers) keep_servers=1 ;;
    -h|--help) sed -n '2,33p' "$0"; exit 0 ;;
    *) echo "unknown option: $arg (use --java-only, --python-only, --keep-servers)" >&2; exit 2 ;;
  esac
done
[ "$run_java" -eq 1 ] || [ "$run_python" -eq 1 ] || { echo "--java-only and --python-only exclude each other" >&2; exit 2; }

java_status=SKIPPED python_status=SKIPPED tree_status=SKIPPED
[ "$run_java" -eq 1 ] && java_status=FAILED      # until proven otherwise (also if we die half-way)
[ "$run_python" -eq 1 ] && python_status=FAILED
t_start=$(date +%s)

finish() {
  local rc=0
  trap - EXIT INT TERM
  if [ -n "${units_pid:-}" ]; then  # interrupted while the analyzer's unit tests ran in the background
    pkill -TERM -P "$units_pid" 2>/dev/null
    kill "$units_pid" 2>/dev/null
  fi
  if [ "$ivs_servers_started" -eq 1 ]; then
    if [ "$keep_servers" -eq 1 ]; then
      ivs_log "--keep-servers: leaving MariaDB, the MongoDB stand-in, PostgreSQL, Cassandra, Prometheus and the exporters running"
      scripts/mariadb.sh env 2>/dev/null
      scripts/mongo-standin.sh env 2>/dev/null
      scripts/postgres.sh env 2>/dev/null
      scripts/cassandra.sh env 2>/dev/null
      scripts/prometheus.sh env 2>/dev/null
      scripts/exporters.sh env 2>/dev/null
    else
      ivs_stop_servers || rc=1
    fi
  fi
  case "$java_status $python_status $tree_status" in *FAILED*) rc=1 ;; esac
  echo "ivsbench tests: java=$java_status python=$python_status tree=$tree_status ($(( $(date +%s) - t_start )) s)"
  exit "$rc"
}
trap finish EXIT
trap 'ivs_log "interrupted"; exit 130' INT TERM

# The work tree's status outside target/ and .cache/, one sorted line per path (ignored files one by one).
tree_paths() {
  git -C "$IVS_REPO_ROOT" status --porcelain=v1 --ignored=traditional --untracked-files=all -- . \
      ':(exclude)target/' ':(exclude).cache/' \
    | grep -Ev '(^|/)(__pycache__|\.pytest_cache|[^/]*\.egg-info)(/|$)' | LC_ALL=C sort
  return "${PIPESTATUS[0]}"
}

step() {  # step <description> <command...>: runs it, logs its duration, returns its status
  local desc=$1 t0 rc
  shift
  ivs_log "== $desc"
  t0=$(date +%s)
  "$@"
  rc=$?
  ivs_log "== $desc: $([ "$rc" -eq 0 ] && echo ok || echo "FAILED (exit $rc)") in $(( $(date +%s) - t0 )) s"
  return "$rc"
}

build_jar() {
  # clean: class files of deleted or renamed tests would otherwise still run (and old reports be read below).
  step "build target/benchbase.jar" mvn -B -q -DskipTests clean package
}

java_tests() {
  local rc=0 props
  mapfile -t props < <(ivs_server_props)
  step "mvn test" mvn -B test "${props[@]}" -Dsurefire.timeout="${IVS_TEST_TIMEOUT:-3600}" || rc=1
  # A skipped test checked nothing: @Disabled, a failed assumption, a server that was missing after all.
  step "no skipped Java test" "${IVS_PYTHON:-python3}" scripts/lib/skipped_tests.py java target/surefire-reports \
    || rc=1
  return "$rc"
}

ensure_chromium() {
  local bin
  bin=$(command -v chromium || command -v chromium-browser || true)
  if [ -z "$bin" ]; then
    if ivs_is_root && command -v apt-get >/dev/null 2>&1; then
      ( ivs_apt_install chromium ) || ivs_log "could not install chromium; the screenshot and browse page tests will fail"
      bin=$(command -v chromium || true)
    else
      ivs_log "chromium missing and not root: skipping its installation (as root: apt-get install chromium)"
    fi
  fi
  [ -n "$bin" ] && export IVS_CHROMIUM="$bin"
  return 0
}

python_env() {  # the venv and chromium, in the foreground: nothing else may be installing them meanwhile
  step "analyzer venv (.cache/venv)" bash -c '. scripts/lib/common.sh && ivs_setup_venv' || return 1
  ensure_chromium
}

# The analyzer's tests in two parts. Its unit tests (every module but tests/test_real_*.py: synthetic runs, the
# committed runs, the jar on embedded SQLite, chromium) start no server and judge no host's CPU, so with the Java
# part they run beside it, in the background, their output in a log printed when they end. Its real-server tests
# (tests/test_real_*.py) start their own servers and judge where the host's CPU went: they run alone, after the
# Java part and its servers are gone.
UNITS_REPORT="$IVS_CACHE_DIR/pytest-junit-units.xml"
REAL_REPORT="$IVS_CACHE_DIR/pytest-junit.xml"
UNITS_LOG="$IVS_CACHE_DIR/pytest-units.log"
units_pid=

python_units() {
  rm -f "$UNITS_REPORT"
  step "pytest results-analyzer (unit tests, no server)" "$IVS_VENV/bin/python" -m pytest -rs \
    --junitxml="$UNITS_REPORT" --ignore-glob='*/test_real_*.py' results-analyzer
}

start_python_units() {
  rm -f "$UNITS_LOG"
  ivs_log "== the analyzer's unit tests start in the background, beside the Java part (their output: at their end)"
  python_units </dev/null >"$UNITS_LOG" 2>&1 &
  units_pid=$!
}

wait_python_units() {  # the background unit tests' status, their output printed
  local rc=0
  [ -n "$units_pid" ] || return 1
  wait "$units_pid" || rc=$?
  units_pid=
  ivs_log "== the analyzer's unit tests, run in the background (their output follows)"
  cat "$UNITS_LOG"
  return "$rc"
}

python_tests() {  # $1: 1 when the unit tests ran in the background (python_units), 0 to run them here
  local rc=0
  if [ "$1" -eq 1 ]; then
    wait_python_units || rc=1
  else
    python_env || return 1
    python_units || rc=1
  fi
  # The end-to-end analyzer test runs the jar against its own MariaDB: with --python-only nothing built them.
  if [ ! -f target/benchbase.jar ]; then
    step "check Java 17+ and Maven" ivs_require_java_maven || return 1
    step "build target/benchbase.jar" mvn -B -q -DskipTests package || return 1
  fi
  step "install MariaDB" scripts/mariadb.sh install || return 1
  # No IVS_ALLOW_SKIP here: a test whose server, jar or browser is missing fails rather than skips.
  rm -f "$REAL_REPORT"
  local real=(results-analyzer/tests/test_real_*.py)
  step "pytest results-analyzer (real-server tests)" "$IVS_VENV/bin/python" -m pytest -rs --junitxml="$REAL_REPORT" \
    "${real[@]}" || rc=1
  step "no skipped Python test" "$IVS_VENV/bin/python" scripts/lib/skipped_tests.py python "$UNITS_REPORT" \
    "$REAL_REPORT" || rc=1
  [ -f "$UNITS_REPORT" ] && [ -f "$REAL_REPORT" ] || { ivs_log "a pytest report is missing: $UNITS_REPORT, $REAL_REPORT"; rc=1; }
  return "$rc"
}

tree_status=FAILED
tree_readable=1
tree_before=$(tree_paths) || tree_readable=0

units_in_background=0
if [ "$run_java" -eq 1 ]; then
  step "check Java 17+ and Maven" ivs_require_java_maven
  if build_jar; then
    # The jar first (the analyzer's unit tests run it on SQLite), then those tests in the background while the
    # servers start and the Java tests run.
    if [ "$run_python" -eq 1 ] && [ -d results-analyzer ] && python_env; then
      start_python_units
      units_in_background=1
    fi
    if step "start MariaDB + MongoDB stand-in + PostgreSQL + Cassandra + Prometheus + exporters" ivs_start_servers \
        && java_tests; then
      java_status=OK
    fi
  fi
fi

# The Python real-server tests start their own private servers: the Java tests' ones (Cassandra's JVM above all)
# would only take CPU from them, and they judge where a host's CPU went.
if [ "$run_python" -eq 1 ] && [ "$ivs_servers_started" -eq 1 ] && [ "$keep_servers" -eq 0 ]; then
  step "stop the Java tests' servers" ivs_stop_servers || java_status=FAILED
fi

if [ "$run_python" -eq 1 ]; then
  if [ ! -d results-analyzer ]; then
    ivs_log "no results-analyzer/ yet: no Python tests to run"
    python_status=SKIPPED
  elif python_tests "$units_in_background"; then
    python_status=OK
  fi
fi

# Tests write only under temporary folders, target/ and .cache/: any other path whose status changed is listed.
if [ "$tree_readable" -eq 1 ] && tree_after=$(tree_paths); then
  changed=$(diff <(printf '%s\n' "$tree_before") <(printf '%s\n' "$tree_after") | sed -n 's/^[<>] //p' \
    | LC_ALL=C sort -u | paste -sd, - | sed 's/,/, /g')
  if [ -z "$changed" ]; then
    tree_status=OK
  else
    ivs_log "the tests changed the work tree outside target/ and .cache/ (git status lines before/after): $changed"
  fi
else
  ivs_log "could not read the work tree's status with git (is this a git work tree?): tree=FAILED"
fi
