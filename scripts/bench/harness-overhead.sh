#!/usr/bin/env bash
# What the engine costs by itself: closed-loop throughput of the real WorkloadManager + StatsCollector with a
# terminal that does nothing (no database), 1 and 2 terminals alternating; then the recorder's cost per op.
#
#   scripts/bench/harness-overhead.sh
#
# Environment: SECONDS_PER_PHASE [3], ROUNDS [3].
#
# Method: PhaseBench --noop runs one JVM with terminals=2 and phases that alternate active_terminals 1 and 2
# (closed loop, rate unlimited), after a 2 s warm-up phase. ns/op = 1e9 / (ops/s of the phase): the engine's
# time per operation with everything it does per op (claim from the schedule under its lock, choose the type
# from the terminal's seeded stream, two nanoTime reads, record into the HdrHistogram recorders, in-flight
# accounting). ns/op/terminal = terminals * ns/op: the time one terminal thread spends per op.
# cliCPU/op: JVM CPU (all threads) per op. RecorderCostBench then times PhaseStats.record alone.
set -euo pipefail
IVS_LOG_TAG=bench
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

S=${SECONDS_PER_PHASE:-3}; ROUNDS=${ROUNDS:-3}
bench_build
bench_header "harness-overhead: engine on a no-op terminal, closed loop"
works="$(bench_work jit-warmup time:2 unlimited regular 50,50 uniform 0 2)"$'\n'
for r in $(seq 1 "$ROUNDS"); do
  works+="$(bench_work "r$r-1term" "time:$S" unlimited regular 50,50 uniform 0 1)"$'\n'
  works+="$(bench_work "r$r-2term" "time:$S" unlimited regular 50,50 uniform 0 2)"$'\n'
done
cfg="$BENCH_WORK/harness-overhead.xml"
# The target is never opened (--noop); the SQLite URL only satisfies the config loader.
bench_config "$cfg" SQLITE "jdbc:sqlite:$BENCH_WORK/unused.db" "" usertable 1000 2 1 "$works"
bench_show_config "$cfg"
out=$(bench_java PhaseBench -c "$cfg" --noop --label noop)
echo "$out" | grep '^#'
printf '%-14s %5s %12s %9s %16s %10s\n' phase term ops/s ns/op ns/op/terminal cliCPU/op
echo "$out" | awk '$1=="noop" && $7 != "-" {printf "%-14s %5d %12.0f %9.1f %16.1f %10s\n", $2, $3, $7, 1e9/$7, $3*1e9/$7, $14}'
echo
echo "# recorder cost: PhaseStats.record (+ the Worker's two nanoTime reads), 1 and 2 recording threads"
bench_java RecorderCostBench "$ROUNDS" 2
