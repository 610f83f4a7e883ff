#!/usr/bin/env bash
# Pacing of the open-loop schedule at 1k, 5k and 20k ops/s, regular and poisson arrivals,
# on a no-op terminal and on MariaDB InnoDB point reads.
#
#   scripts/bench/rate-accuracy.sh
#
# Environment: SECONDS_PER_PHASE [4], ROUNDS [2], TERMINALS [2], RATES ["1000 5000 20000"],
#              TARGETS ["noop mariadb"] (mariadb: the private server, InnoDB, 1000 records, uniform reads).
#
# Method: PhaseBench runs one JVM per target; after a 2 s warm-up phase at 5000 ops/s (excluded), one time
# phase per (rate, arrival), rounds alternating through all of them. Printed per phase: target rate, measured
# operations / measured seconds (equal to the target by construction when arrivals are regular and none is
# missed, so not a pacing figure), the start lag's p50/p99/max (actual - intended start: how late the
# schedule ran; this is the pacing figure), missed arrivals (an arrival more than maxlateness (1 s) late for
# a free terminal, or still waiting at the deadline: counted, never dropped silently), p99 response time
# (from the intended start) vs p99 service time (from the actual start): their gap is queueing/scheduling delay.
# Last, WakeupLagBench: lateness and CPU cost of Clock.SYSTEM.sleepUntil for waits of 50 us .. 5 ms.
set -euo pipefail
IVS_LOG_TAG=bench
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

S=${SECONDS_PER_PHASE:-4}; ROUNDS=${ROUNDS:-2}; TERMINALS=${TERMINALS:-2}; RATES=${RATES:-1000 5000 20000}
TARGETS=${TARGETS:-noop mariadb}
bench_build
works="$(bench_work warm time:2 5000 regular 100,0 uniform 0)"$'\n'
for r in $(seq 1 "$ROUNDS"); do
  for rate in $RATES; do
    for arrival in regular poisson; do
      works+="$(bench_work "r$r-$((rate / 1000))k-$arrival" "time:$S" "$rate" "$arrival" 100,0 uniform)"$'\n'
    done
  done
done
for t in $TARGETS; do
  case "$t" in
    noop)
      bench_header "rate-accuracy: open loop on a no-op terminal, $TERMINALS terminals"
      cfg="$BENCH_WORK/rate-noop.xml"
      bench_config "$cfg" SQLITE "jdbc:sqlite:$BENCH_WORK/unused.db" "" usertable 1000 "$TERMINALS" 1 "$works"
      bench_show_config "$cfg"
      bench_java PhaseBench -c "$cfg" --noop --label noop ;;
    mariadb)
      bench_mariadb
      bench_header "rate-accuracy: open loop, MariaDB $MARIADB_VERSION InnoDB point reads (1000 records, uniform), $TERMINALS terminals"
      cfg="$BENCH_WORK/rate-mariadb.xml"
      bench_config "$cfg" MARIADB "$IVS_MARIADB_URL" InnoDB usertable_rate 1000 "$TERMINALS" 2 "$works"
      bench_show_config "$cfg"
      bench_java PhaseBench -c "$cfg" --create --load --server-pid "$MARIADB_PID" --label innodb ;;
    *) ivs_die "unknown target $t (noop, mariadb)" ;;
  esac
done
echo
echo "# wake-up lag: how late the engine's Clock.sleepUntil returns (the floor under open-loop response times)"
echo "# and its CPU per wait, vs one plain parkNanos and vs park-then-spin (a candidate fix); timer slack of this shell: $(cat /proc/self/timerslack_ns 2>/dev/null || echo ?) ns"
bench_java WakeupLagBench 2000
