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
#         (the report screenshot test and the browse page's filters; exported as IVS_CHROMIUM), set up first;
#         the tests that start no server run beside the Java tests (their log printed after them); then, alone,
#         the jar and MariaDB for tests/test_real_*.py, which start their own servers.
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
    -h|--help) sed -n '2,32p' "$0"; exit 0 ;;
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
  if [ -n "${py_pid:-}" ] && kill -0 "$py_pid" 2>/dev/null; then  # interrupted while pytest ran beside Java
    pkill -TERM -P "$py_pid" 2>/dev/null
    kill "$py_pid" 2>/dev/null
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

java_tests() {
  local rc=0
  # clean: class files of deleted or renamed tests would otherwise still run (and old reports be read below).
  step "build target/benchbase.jar" mvn -B -q -DskipTests clean package || return 1
  start_python_beside
  local props
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

# The Python tests that start no server (all but tests/test_real_*.py) need the venv and chromium, set up before
# the Java tests (installs must not run beside them). They then run beside the Java tests, which leave about one of
# the two cores idle on average (waits on phases and servers), with their output in a log printed afterwards; the
# test_real_*.py ones run after the Java tests, alone, as they judge where the host's CPU went.
PY_REPORT="$IVS_CACHE_DIR/pytest-junit.xml"
PY_REAL_REPORT="$IVS_CACHE_DIR/pytest-junit-real.xml"
PY_BESIDE_LOG="$IVS_CACHE_DIR/pytest-no-servers.log"
py_ready=0 py_pid=""

python_prepare() {
  step "analyzer venv (.cache/venv)" bash -c '. scripts/lib/common.sh && ivs_setup_venv' || return 1
  ensure_chromium
  py_ready=1
}

no_server_tests() {
  step "pytest results-analyzer, the tests without servers" "$IVS_VENV/bin/python" -m pytest -rs \
    --junitxml="$PY_REPORT" --ignore-glob='*/test_real_*' results-analyzer
}

start_python_beside() {
  [ "$run_python" -eq 1 ] && [ "$py_ready" -eq 1 ] || return 0
  rm -f "$PY_REPORT" "$PY_BESIDE_LOG"
  ivs_log "== pytest results-analyzer, the tests without servers: started beside the Java tests (log printed after them)"
  no_server_tests >"$PY_BESIDE_LOG" 2>&1 &
  py_pid=$!
}

python_tests() {
  local rc=0
  if [ -n "$py_pid" ]; then
    wait "$py_pid" || rc=1
    py_pid=""
    cat "$PY_BESIDE_LOG"
  else
    [ "$py_ready" -eq 1 ] || python_prepare || return 1
    rm -f "$PY_REPORT"
    no_server_tests || rc=1
  fi
  # The end-to-end analyzer test runs the jar against its own MariaDB: with --python-only nothing built them.
  if [ ! -f target/benchbase.jar ]; then
    step "check Java 17+ and Maven" ivs_require_java_maven || return 1
    step "build target/benchbase.jar" mvn -B -q -DskipTests package || return 1
  fi
  step "install MariaDB" scripts/mariadb.sh install || return 1
  # No IVS_ALLOW_SKIP here: a test whose server, jar or browser is missing fails rather than skips.
  rm -f "$PY_REAL_REPORT"
  step "pytest results-analyzer, the tests with real servers (alone)" "$IVS_VENV/bin/python" -m pytest -rs \
    --junitxml="$PY_REAL_REPORT" results-analyzer/tests/test_real_*.py || rc=1
  step "no skipped Python test" "$IVS_VENV/bin/python" scripts/lib/skipped_tests.py python "$PY_REPORT" \
    "$PY_REAL_REPORT" || rc=1
  return "$rc"
}

tree_status=FAILED
tree_readable=1
tree_before=$(tree_paths) || tree_readable=0

if [ "$run_java" -eq 1 ]; then
  step "check Java 17+ and Maven" ivs_require_java_maven
  if [ "$run_python" -eq 1 ] && [ -d results-analyzer ]; then
    python_prepare || ivs_log "the analyzer's venv could not be set up: the Python tests will try again after the Java tests"
  fi
  if step "start MariaDB + MongoDB stand-in + PostgreSQL + Cassandra + Prometheus + exporters" ivs_start_servers && java_tests; then
    java_status=OK
  fi
fi

# The Python tests start their own private servers: the Java tests' ones (Cassandra's JVM above all) would only
# take CPU from the analyzer's real-server tests, which judge where a host's CPU went.
if [ "$run_python" -eq 1 ] && [ "$ivs_servers_started" -eq 1 ] && [ "$keep_servers" -eq 0 ]; then
  step "stop the Java tests' servers" ivs_stop_servers || java_status=FAILED
fi

if [ "$run_python" -eq 1 ]; then
  if [ ! -d results-analyzer ]; then
    ivs_log "no results-analyzer/ yet: no Python tests to run"
    python_status=SKIPPED
  elif python_tests; then
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
