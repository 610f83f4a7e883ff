#!/usr/bin/env bash
# The fault corpus of docs/diagnosis.md run end to end on the private servers, and the analyzer's accuracy:
#
#   scripts/bench/diagnosis-accuracy.sh [SCENARIO...]     (default: all: 1 2 3 4 5 6 7 12 17 N1)
#   scripts/bench/diagnosis-accuracy.sh --rescore DIR     the analyzer again on an earlier run's folders (DIR:
#                                                         its .cache/bench/diagnosis-<time>/), no server needed
#
# Builds target/benchbase.jar and the analyzer's venv, starts the private MariaDB (InnoDB and MyRocks) and
# PostgreSQL (stopped again at the end unless they were running), then per scenario runs ivsbench with the
# monitor on, injects the fault with scripts/faults/ after 15 measured windows, runs the analyzer's report and
# prints a table row: scenario, server, fault, expected cause, top-ranked cause, blocker named (y/n), false
# steps (scripts/bench/lib/diagnosis_accuracy.py). Work and results folders: .cache/bench/diagnosis-<time>/.
# About 1.5 min per scenario, ~15 min in all. The CPU scenario (12) takes the host's two cores for 10 s.
set -euo pipefail
# shellcheck source=lib/bench.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

if [ "${1:-}" = --rescore ]; then
  [ $# -eq 2 ] && [ -f "$2/results.json" ] || { echo "--rescore: not an earlier run's folder: ${2:-}" >&2; exit 2; }
  ivs_setup_venv >&2 || ivs_die "the analyzer venv could not be set up (.cache/venv)"
  exec "$IVS_VENV/bin/python" scripts/bench/lib/diagnosis_accuracy.py --rescore "$2"
fi
for s in "$@"; do
  case "$s" in 1|2|3|4|5|6|7|12|17|N1) ;; *) echo "scenario: unknown: $s (known: 1 2 3 4 5 6 7 12 17 N1)" >&2; exit 2 ;; esac
done
bench_header "diagnosis accuracy: the fault corpus of docs/diagnosis.md"
if [ ! -f target/benchbase.jar ]; then bench_build >&2; fi
# (called in a condition: its digest pipeline meets a missing setup file, which pipefail would make fatal)
ivs_setup_venv >&2 || ivs_die "the analyzer venv could not be set up (.cache/venv)"
bench_mariadb
bench_postgres
export IVS_MARIADB_STATE="$BENCH_MARIADB_STATE"
out="$BENCH_WORK/diagnosis-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
echo "# work and results folders: $out"
echo "# servers: MariaDB $MARIADB_VERSION (InnoDB, MyRocks), PostgreSQL $POSTGRES_VERSION"
"$IVS_VENV/bin/python" scripts/bench/lib/diagnosis_accuracy.py "$out" "$@"
echo "# $(bench_condition) (after)"
