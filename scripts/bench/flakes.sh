#!/usr/bin/env bash
# A repeatable flake hunt: runs the server-backed test classes N times and the whole suite once, in a clean
# clone of HEAD, and prints every test that failed at least once, with its message and how many runs it failed.
#
#   scripts/bench/flakes.sh [--classes REGEX] [--servers LIST] [--no-suite] N
#
#   N               how many times to run the server-backed classes (a positive integer)
#   --classes REGEX only the server-backed classes whose fully qualified name matches REGEX (grep -E)
#   --servers LIST  comma-separated private servers to start (mariadb,cassandra,mongo,postgres,prometheus,exporters;
#                   default all, as scripts/test.sh starts them); a class whose server is not started fails
#   --no-suite      skip the whole-suite run
#
# Steps: `git clone` of this repository checked out at HEAD (committed work only; the project needs nothing
# beside it) into IVS_FLAKES_DIR (default: a new /tmp/ivs-flakes.* folder); the server-backed classes listed by
# scripts/bench/lib/server_tests.py (rule: scripts/bench/README.md), filtered; the private servers started once
# with the functions scripts/test.sh uses (scripts/lib/servers.sh; state in the clone's .cache/); the jar built;
# N runs of `mvn test -Dtest=<those classes>`; the servers stopped; then `nohup scripts/test.sh &` in the clone
# (a background job of this non-interactive shell, so SIGINT is ignored by inheritance, as in CI) and waited
# for. Each run's Surefire reports are kept under IVS_FLAKES_DIR/reports/; the clone is deleted at the end
# unless IVS_FLAKES_KEEP=1. Exit status: 0 when no test failed, 1 when one did, 2 on bad input.
set -uo pipefail
IVS_LOG_TAG=flakes
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib/common.sh
. "$here/../lib/common.sh"

usage() { sed -n '5,11p' "$0" | sed 's/^# \{0,1\}//' >&2; }
bad() { echo "flakes.sh: $*" >&2; exit 2; }

# The servers scripts/test.sh starts, in its order (exporters read the MariaDB and PostgreSQL started before them).
# shellcheck source=../lib/servers.sh
. "$IVS_REPO_ROOT/scripts/lib/servers.sh"
known=${IVS_ALL_SERVERS// /,}
filter='' servers=$known suite=1 n=''
while [ $# -gt 0 ]; do
  case "$1" in
    --classes) [ $# -ge 2 ] || bad "--classes needs a REGEX"; filter=$2; shift 2 ;;
    --servers) [ $# -ge 2 ] || bad "--servers needs a LIST"; servers=$2; shift 2 ;;
    --no-suite) suite=0; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) bad "unknown option: $1 (use --classes, --servers, --no-suite)" ;;
    *) [ -z "$n" ] || bad "N given twice: '$n' and '$1'"; n=$1; shift ;;
  esac
done
[[ "$n" =~ ^[1-9][0-9]*$ ]] || bad "N: '${n}' is not a positive integer (usage: flakes.sh [--classes REGEX] [--servers LIST] [--no-suite] N)"
for s in ${servers//,/ }; do
  case ",$known," in *",$s,"*) ;; *) bad "--servers: unknown server '$s' (known: $known)" ;; esac
done
if [ -n "$filter" ]; then
  echo | grep -E -- "$filter" >/dev/null 2>&1; [ $? -le 1 ] || bad "--classes: '$filter' is not a valid grep -E pattern"
fi

src_repo="$IVS_REPO_ROOT"
head=$(git -C "$src_repo" rev-parse HEAD) || bad "$src_repo is not a git checkout"
work="${IVS_FLAKES_DIR:-}"
if [ -z "$work" ]; then
  work=$(mktemp -d /tmp/ivs-flakes.XXXXXX)
  # mktemp makes it 0700; the PostgreSQL servers run as their own system user and keep the tests' state folders
  # inside the clone, so every user must be able to pass through it (as through a checkout in a home folder).
  chmod 755 "$work"
else
  [ ! -e "$work" ] || [ -z "$(ls -A "$work" 2>/dev/null)" ] || bad "IVS_FLAKES_DIR: '$work' exists and is not empty"
  mkdir -p "$work"
fi
clone="$work/ivsbench"
reports="$work/reports"
mkdir -p "$reports"

ivs_log "clone of $(git -C "$src_repo" rev-parse --short HEAD) into $clone"
[ -z "$(git -C "$src_repo" status --porcelain --untracked-files=no)" ] \
  || ivs_log "note: $src_repo has uncommitted changes; the clone has HEAD only"
git clone -q --no-checkout "$src_repo" "$clone" || ivs_die "git clone failed"
git -C "$clone" checkout -q --detach "$head" || ivs_die "checkout of $head failed"
cd "$clone" || exit 1
# From here on the clone's own scripts run (their state lives in the clone's .cache/).
IVS_REPO_ROOT="$clone"
IVS_CACHE_DIR="$clone/.cache"
# shellcheck source=../lib/servers.sh
. scripts/lib/servers.sh
unset IVS_ALLOW_SKIP
export MAVEN_OPTS="${MAVEN_OPTS:-} -Djansi.noreset=true"

classes=$(python3 scripts/bench/lib/server_tests.py . | { if [ -n "$filter" ]; then grep -E -- "$filter"; else cat; fi; })
[ -n "$classes" ] || bad "--classes: no server-backed test class matches '$filter' (list: python3 scripts/bench/lib/server_tests.py)"
ivs_log "server-backed classes ($(echo "$classes" | wc -l)): $(echo "$classes" | sed 's/.*\.//' | tr '\n' ' ')"

cleanup() {
  trap - EXIT INT TERM
  [ "$ivs_servers_started" -eq 1 ] && { ivs_stop_servers >/dev/null 2>&1 || ivs_log "stopping the servers failed"; }
  # As root, scripts/postgres.sh keeps its state outside the checkout, named after it: the clone's goes too.
  pg_state=$(ivs_outside_cache_dir postgres "$clone")
  if [ "${IVS_FLAKES_KEEP:-0}" != 1 ] && [ -d "$pg_state" ]; then rm -rf "$pg_state"; fi
  if [ "${IVS_FLAKES_KEEP:-0}" != 1 ]; then rm -rf "$clone"; else ivs_log "kept the clone: $clone"; fi
}
trap cleanup EXIT
trap 'ivs_log "interrupted"; exit 130' INT TERM

ivs_require_java_maven || exit 1
ivs_log "starting the private servers: $servers"
ivs_start_servers ${servers//,/ } || ivs_die "starting the servers failed"
ivs_log "building target/benchbase.jar"
# online: a package with -DskipTests never resolves Surefire's JUnit provider, so an offline probe that builds
# passed while every offline `mvn test` then failed in 5 s with no test run (seen on a new machine)
mvn -B -q -DskipTests package || ivs_die "the build failed"
mapfile -t props < <(ivs_server_props)
tests=$(echo "$classes" | paste -sd, -)
run_dirs=()
for i in $(seq 1 "$n"); do
  t0=$(date +%s)
  rm -rf target/surefire-reports
  mvn -B test -Dtest="$tests" -Dsurefire.failIfNoSpecifiedTests=false "${props[@]}" \
    -Dsurefire.timeout="${IVS_TEST_TIMEOUT:-3600}" >"$reports/run$i.log" 2>&1
  rc=$?
  mkdir -p "$reports/run$i"
  cp target/surefire-reports/TEST-*.xml "$reports/run$i/" 2>/dev/null
  echo "$rc" >"$reports/run$i/mvn-exit"   # flake_report.py: a run that failed with no failing test is no pass
  run_dirs+=("$reports/run$i")
  ivs_log "run $i of $n: mvn exit $rc in $(( $(date +%s) - t0 )) s ($reports/run$i.log)"
done
ivs_stop_servers >/dev/null 2>&1 || ivs_log "stopping the servers failed"
ivs_servers_started=0

suite_args=()
if [ "$suite" -eq 1 ]; then
  t0=$(date +%s)
  ivs_log "the whole suite: nohup scripts/test.sh & (log: $reports/suite.log)"
  nohup scripts/test.sh >"$reports/suite.log" 2>&1 &
  wait $!
  rc=$?
  mkdir -p "$reports/suite"
  cp target/surefire-reports/TEST-*.xml "$reports/suite/" 2>/dev/null
  echo "$rc" >"$reports/suite/mvn-exit"
  ivs_log "suite: exit $rc in $(( $(date +%s) - t0 )) s; its last line: $(tail -n 1 "$reports/suite.log")"
  suite_args=(--suite "$reports/suite")
fi

echo "flake hunt at $(git rev-parse --short HEAD), $n run(s) of $(echo "$classes" | wc -l) class(es)$([ -n "$filter" ] && echo " matching '$filter'"), servers: $servers"
echo "$classes" >"$reports/classes.txt"
python3 scripts/bench/lib/flake_report.py --classes "$reports/classes.txt" "$n" "${run_dirs[@]}" "${suite_args[@]}"
status=$?
echo "reports: $reports"
exit "$status"
