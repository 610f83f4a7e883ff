#!/usr/bin/env bash
# THE demo command (README): a small YCSB-IVS experiment (all four modes) on the embedded SQLite target,
# then the analyzer's report.
#
#   scripts/demo.sh [extra benchbase.jar options]
#
# Builds target/benchbase.jar when it is missing or older than the sources, runs
#   java -jar target/benchbase.jar -b ycsbivs -c config/experiments/ycsbivs_quick_sqlite.xml \
#        --create=true --load=true --execute=true -d results/
# and `python -m ivs_analyzer report <the new results dir>` in .cache/venv. Prints the results folder and the
# report's path; exits non-zero when either was not written.
# Needs no database server. Environment: IVS_DEMO_CONFIG overrides the config file; IVS_DEMO_RESULTS is the
# folder the run's results folder goes into (default: results/ of the project root; a relative path is taken
# against the working directory the script was started in).
set -euo pipefail
IVS_LOG_TAG=demo
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
RESULTS=results
[ -z "${IVS_DEMO_RESULTS:-}" ] || RESULTS=$(ivs_abs_path "${IVS_DEMO_RESULTS%/}")
cd "$IVS_REPO_ROOT"

CONFIG="${IVS_DEMO_CONFIG:-config/experiments/ycsbivs_quick_sqlite.xml}"
JAR=target/benchbase.jar

ivs_require_java_maven
[ -f "$CONFIG" ] || ivs_die "config $CONFIG not found"

if [ ! -f "$JAR" ] || [ -n "$(find pom.xml src -newer "$JAR" -print -quit 2>/dev/null)" ]; then
  ivs_log "building $JAR"
  # style.color=never: -B alone still prints ANSI reset sequences into the log.
  # jansi.noreset: Debian's Maven 3.8 prints ANSI reset sequences even with -B (style.color=never does not stop them).
  MAVEN_OPTS="${MAVEN_OPTS:-} -Djansi.noreset=true" mvn -B -q -DskipTests package || ivs_die "build failed"
fi

mkdir -p "$RESULTS"
marker=$(mktemp)
trap 'rm -f "$marker"' EXIT
ivs_log "running ycsbivs on $CONFIG"
java -jar "$JAR" -b ycsbivs -c "$CONFIG" --create=true --load=true --execute=true -d "$RESULTS/" "$@" \
  || ivs_die "benchbase.jar failed (exit $?)"

# The run's folder is the newest one created after we started.
run_dir=$(find "$RESULTS" -mindepth 1 -maxdepth 1 -type d -newer "$marker" -printf '%T@ %p\n' 2>/dev/null \
  | sort -rn | head -n 1 | cut -d' ' -f2-)
[ -n "$run_dir" ] || ivs_die "the run wrote no results directory under $RESULTS/"
ivs_log "results: $run_dir"

[ -d results-analyzer ] || ivs_die "no results-analyzer/: no report for $run_dir"
ivs_setup_venv || ivs_die "could not set up the analyzer's Python environment; no report for $run_dir"
ivs_log "writing the report"
"$IVS_VENV/bin/python" -m ivs_analyzer report "$run_dir" || ivs_die "the analyzer failed on $run_dir"
[ -s "$run_dir/report.html" ] || ivs_die "the analyzer wrote no $run_dir/report.html"
ivs_log "report: $run_dir/report.html"
echo "$run_dir"
