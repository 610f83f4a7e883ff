#!/usr/bin/env bash
# Fault injector: a write burst from a second ivsbench process into a server a benchmark is running on.
#
#   scripts/faults/write-burst.sh CONFIG
#
# CONFIG: an ivsbench ycsbivs config for the burst (its connection, a write-only mix such as ExtendRecord alone,
# many terminals, closed loop or a high rate, and the burst's length as the phase's <time>) on the table the
# benchmark already loaded: the burst only executes (no create, no load). The password comes from the
# environment variable the config's <passwordEnv> names. Prints the burst process's pid on the first line (the
# culprit: another client), returns when it has ended. Writes beyond what flushing and compaction keep up
# with are scenarios 14 (InnoDB), 15 (MyRocks) and 16 (Cassandra) of docs/diagnosis.md.
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 1 ] || { echo "usage: $0 CONFIG" >&2; exit 2; }
config=$1
fault_file config "$config"
jar="$IVS_REPO_ROOT/target/benchbase.jar"
[ -f "$jar" ] || ivs_die "target/benchbase.jar is missing (mvn -DskipTests package)"
command -v java >/dev/null || ivs_die "java is not installed"

results=$(mktemp -d "${TMPDIR:-/tmp}/ivs-write-burst.XXXXXX")
trap 'rm -rf "$results"' EXIT
java -jar "$jar" -b ycsbivs -c "$config" --execute -d "$results" >"$results/log" 2>&1 &
pid=$!
echo "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" -eq 0 ] || { tail -n 5 "$results/log" >&2; exit "$rc"; }
