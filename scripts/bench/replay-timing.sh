#!/usr/bin/env bash
# Replay timing error: a paced run traced on SQLite, replayed with --timing recorded on a fresh SQLite and on
# the private MariaDB (InnoDB); prints each replay's start lateness (actual - intended start, p50/p99/max per
# phase) and whether its read digest equals the recorded one.
#
#   scripts/bench/replay-timing.sh
#
# Environment (defaults in brackets): RATE [500] ops/s of the recorded run, regular arrivals (on a busy box the
# private MariaDB, which syncs every commit, could not keep 1000 ops/s of 50:50 reads and extends: the lateness
# then measures its capacity, not the replay's timing); TERMINALS [1];
# WARM_SECONDS [5] length of the first paced phase (phase 0: the replaying JVM warms up in it);
# SECONDS_PER_RUN [25] length of the second (phase 1: the figure); RECORDS [1000]; WEIGHTS [50,50]
# ReadRecord,ExtendRecord, uniform keys. With more than one terminal the extends of one terminal can change what
# another reads, and the digests may then differ legitimately (docs/trace.md, "Concurrency").
#
# Method: the real command line throughout. 1. `--create --load --execute --trace` on SQLite (embedded) records
# the stream; each operation's offset is its intended start. 2. `replay --timing recorded --create --load` on a
# fresh SQLite file, then on the private MariaDB: each operation starts at its recorded offset, and the replay
# reports how late the starts were (a late operation is not skipped; lateness accumulates only when the
# database cannot keep the recorded pace). The load average is printed before each replay.
set -euo pipefail
IVS_LOG_TAG=bench
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

RATE=${RATE:-500}; TERMINALS=${TERMINALS:-1}; WARM_SECONDS=${WARM_SECONDS:-5}; SECONDS_PER_RUN=${SECONDS_PER_RUN:-25}
RECORDS=${RECORDS:-1000}; WEIGHTS=${WEIGHTS:-50,50}
bench_build
bench_mariadb
bench_header "replay-timing: $RATE ops/s ReadRecord,ExtendRecord $WEIGHTS (uniform), $TERMINALS terminal(s), traced on SQLite; replayed with --timing recorded on a fresh SQLite and on MariaDB $MARIADB_VERSION InnoDB (private server, stock settings)"

works="$(bench_work warm "time:$WARM_SECONDS" "$RATE" regular "$WEIGHTS" uniform)"$'\n'
works+="$(bench_work paced "time:$SECONDS_PER_RUN" "$RATE" regular "$WEIGHTS" uniform)"
rm -rf "$BENCH_WORK/replay-timing"
mkdir -p "$BENCH_WORK/replay-timing"
dir="$BENCH_WORK/replay-timing"
cfg="$dir/record-sqlite.xml"
bench_config "$cfg" SQLITE "jdbc:sqlite:$dir/record.db" "" usertable "$RECORDS" "$TERMINALS" 1 "$works"
bench_show_config "$cfg"
trace="$dir/run.trace.gz"
echo "# record: java -jar target/benchbase.jar -b ycsbivs -c record-sqlite.xml --create --load --execute --trace run.trace.gz"
java -jar target/benchbase.jar -b ycsbivs -c "$cfg" --create --load --execute --trace "$trace" -d "$dir/results" \
  >"$dir/record.log" 2>&1 || { cat "$dir/record.log" >&2; ivs_die "the recorded run failed"; }
echo "# trace: $(du -k "$trace" | cut -f1) KiB"

replay() {
  local label=$1 rcfg=$2 code=0
  echo
  echo "## replay on $label: load avg $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# java -jar target/benchbase.jar replay --trace run.trace.gz -c $(basename "$rcfg") --create --load --timing recorded"
  java -jar target/benchbase.jar replay --trace "$trace" -c "$rcfg" --create --load --timing recorded \
    -d "$dir/replays-$label" >"$dir/replay-$label.log" 2>&1 || code=$?
  grep -E '^(Replaying|start lateness|digests)' "$dir/replay-$label.log" || true
  grep -E '^latency_us' "$dir"/replays-"$label"/replay_*/replay-summary.txt 2>/dev/null | sed 's/^[^:]*://' || true
  echo "exit=$code"
  [ "$code" -le 1 ] || { cat "$dir/replay-$label.log" >&2; ivs_die "replay on $label failed"; }
}
rcfg="$dir/replay-sqlite.xml"
bench_config "$rcfg" SQLITE "jdbc:sqlite:$dir/replay.db" "" usertable "$RECORDS" "$TERMINALS" 1 "$works"
replay sqlite "$rcfg"
rcfg="$dir/replay-mariadb.xml"
bench_config "$rcfg" MARIADB "$IVS_MARIADB_URL" InnoDB usertable "$RECORDS" "$TERMINALS" 2 "$works"
replay mariadb "$rcfg"
