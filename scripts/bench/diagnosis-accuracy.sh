#!/usr/bin/env bash
# The fault corpus of docs/diagnosis.md run end to end on the private servers, and the analyzer's accuracy:
#
#   scripts/bench/diagnosis-accuracy.sh [--runs N] [SCENARIO...]
#                                                         (default: all: 1-15 17 18 18b 19-22 N1-N3, then 16; each
#                                                         scenario N times, default 1 - the table wants 3 or more)
#   scripts/bench/diagnosis-accuracy.sh --rescore DIR     the analyzer again on an earlier run's folders (DIR:
#                                                         its .cache/bench/diagnosis-<time>/), no server needed
#   scripts/bench/diagnosis-accuracy.sh --list            the development corpus's scenarios, each with its
#                                                         expected category and injector command; nothing run
#   scripts/bench/diagnosis-accuracy.sh --held-out --list the held-out set (scripts/bench/lib/heldout.tsv) likewise,
#                                                         with each scenario's expected evidence (--dry-run: the same)
#   scripts/bench/diagnosis-accuracy.sh --held-out [--runs N] [H1...H8]
#                                                         the held-out set alone, scored apart in its own folder
#                                                         (.cache/bench/diagnosis-heldout-<time>/); refused (exit 2)
#                                                         until heldout.tsv's "# frozen:" line names the commit
#                                                         that froze the rules
#
# Scenarios 19-22 (scripts/bench/lib/diagnosis_inside.py) are the causes inside the server: other sessions' heavy
# statements (19 MariaDB, 20 PostgreSQL: `server-work`) and a setting changed mid-run (21 MariaDB on an instance
# of its own started with innodb_flush_log_at_trx_commit=0, 22 PostgreSQL: `setting-change`).
#
# Builds target/benchbase.jar and the analyzer's venv, starts the private MariaDB (InnoDB and MyRocks) and
# PostgreSQL (each stopped again at the end unless it was running); the write-burst scenarios 14, 15 and 16 run
# on an instance of their own started with the scenario's settings (a small redo log, small MyRocks write
# buffers, a small Cassandra memtable space; diagnosis_accuracy.py PRIVATE, state in .cache/bench/server-s<N>/),
# and so do 10 and 11 (a 16 MB buffer pool under a 250-500 MB table, 11 with O_DIRECT and a disk hog that writes
# ~1 GB/s for 10 s: diagnosis_cache.py), and 13 (a MariaDB with max_connections 10, the least);
# Cassandra's only once the others are done. Then per scenario it runs ivsbench with the
# monitor on, injects the fault with scripts/faults/ after 15 measured windows, runs the analyzer's report and
# prints a row per run: the report's first answer, right or wrong, holder named, false alarms; at the end the
# accuracy table of docs/diagnosis.md (scripts/bench/lib/diagnosis_score.py), also written to accuracy.md in the
# work and results folder, .cache/bench/diagnosis-<time>/, beside box.log and box.md (the box's condition and the
# quiet verdict).
# About 1.5 min per scenario (the no-fault runs and 8, 9 - a 50 s idle transaction in 90 s - 2 min), ~36 min
# in all. The CPU scenarios take the host's cores for 10 s (12: two
# burners as docs/diagnosis.md says; 12b: four per core, as tests/test_real_diagnosis.py's hog); the
# write bursts (14-16) run a second ivsbench process, 8 closed-loop terminals for 15 s. The no-fault runs
# measure 90 s: N1 steady, N2 with growing values, N3 with CPU burners (2 per core) for 45 s of it.
set -euo pipefail
# shellcheck source=lib/bench.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

if [ "${1:-}" = --rescore ]; then
  [ $# -eq 2 ] && [ -f "$2/results.json" ] || { echo "--rescore: not an earlier run's folder: ${2:-}" >&2; exit 2; }
  ivs_setup_venv >&2 || ivs_die "the analyzer venv could not be set up (.cache/venv)"
  exec "$IVS_VENV/bin/python" scripts/bench/lib/diagnosis_accuracy.py --rescore "$2"
fi
held=()
if [ "${1:-}" = --held-out ]; then held=(--held-out); shift; fi
if [ "${1:-}" = --list ] || [ "${1:-}" = --dry-run ]; then
  [ $# -eq 1 ] || { echo "${1}: takes no scenarios: ${2:-}" >&2; exit 2; }
  # the standard library only: no analyzer, no venv, no server
  exec python3 scripts/bench/lib/diagnosis_accuracy.py "${held[@]}" --list
fi
runs=()
if [ "${1:-}" = --runs ]; then
  case "${2:-}" in ''|*[!0-9]*|0) echo "--runs: not a number of runs: ${2:-}" >&2; exit 2 ;; esac
  runs=(--runs "$2"); shift 2
fi
if [ "${#held[@]}" -gt 0 ]; then
  for s in "$@"; do
    case "$s" in H1|H2|H3|H4|H5|H6|H7|H8) ;;
      *) echo "scenario: unknown: $s (held-out: H1 H2 H3 H4 H5 H6 H7 H8)" >&2; exit 2 ;; esac
  done
  grep -Eq '^# frozen: [0-9a-f]{7,40}$' scripts/bench/lib/heldout.tsv || {
    echo "--held-out: the rules are not frozen yet (scripts/bench/lib/heldout.tsv's '# frozen:' line names no commit)" >&2
    exit 2; }
  if [ $# -eq 0 ]; then set -- H1 H2 H3 H4 H5 H6 H7 H8; fi
else
  for s in "$@"; do
    case "$s" in 1|2|3|4|5|6|7|8|9|10|11|12|12b|13|14|15|16|17|18|18b|19|20|21|22|N1|N2|N3) ;;
      *) echo "scenario: unknown: $s (known: 1 2 3 4 5 6 7 8 9 10 11 12 12b 13 14 15 16 17 18 18b 19 20 21 22 N1 N2 N3)" >&2
         exit 2 ;; esac
  done
  if [ $# -eq 0 ]; then set -- 1 2 3 4 5 6 7 8 9 10 11 12 12b 13 14 15 17 18 18b 19 20 21 22 N1 N2 N3 16; fi
fi
others=() cassandra=0
for s in "$@"; do if [ "$s" = 16 ]; then cassandra=1; else others+=("$s"); fi; done
bench_header "diagnosis accuracy: the fault corpus of docs/diagnosis.md"
if [ ! -f target/benchbase.jar ]; then bench_build >&2; fi
# (called in a condition: its digest pipeline meets a missing setup file, which pipefail would make fatal)
ivs_setup_venv >&2 || ivs_die "the analyzer venv could not be set up (.cache/venv)"
bench_mariadb
bench_postgres
export IVS_MARIADB_STATE="$BENCH_MARIADB_STATE"
export IVS_POSTGRES_STATE="$BENCH_POSTGRES_STATE"
export IVS_POSTGRES_PIDFILE
out="$BENCH_WORK/diagnosis-${held:+heldout-}$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
echo "# work and results folders: $out"
echo "# servers: MariaDB $MARIADB_VERSION (InnoDB, MyRocks), PostgreSQL $POSTGRES_VERSION"
# The box's condition over the whole corpus, every 30 s (scripts/lib/box_sampler.py: load, the CPU of processes
# outside it - its own are this script's descendants and the servers under .cache/ - the kernel's threads, the
# hypervisor's steal) into box.log; at the end its summary and verdict (scripts/lib/box_summary.py, the quiet
# rule of scripts/repro.sh) into box.md. A corpus that was not quiet is run again, not explained.
python3 scripts/lib/box_sampler.py 30 $$ "$IVS_CACHE_DIR" >"$out/box.log" 2>&1 &
sampler=$!   # it also ends by itself with this script (its ROOT_PID)
if [ "${#others[@]}" -gt 0 ]; then
  "$IVS_VENV/bin/python" scripts/bench/lib/diagnosis_accuracy.py "${held[@]}" "${runs[@]}" "$out" "${others[@]}"
fi
if [ "$cassandra" -eq 1 ]; then
  # scenario 16 starts (and stops) a node of its own with a small memtable space (diagnosis_accuracy.py PRIVATE)
  echo "# Cassandra ${IVS_CASSANDRA_VERSION:-5.0.9} for scenario 16 (a node of its own)"
  "$IVS_VENV/bin/python" scripts/bench/lib/diagnosis_accuracy.py "${runs[@]}" "$out" 16
fi
kill "$sampler" 2>/dev/null || true
python3 scripts/lib/box_summary.py "$out/box.log" | tee "$out/box.md"
echo "# $(bench_condition) (after)"
