#!/usr/bin/env bash
# The Cassandra binding against a plain java-driver loop doing the same reads, on the private Cassandra:
# throughput of each, the ratio binding/driver, and client CPU per read.
#
#   scripts/bench/cassandra-binding.sh
#
# Environment (defaults in brackets): RECORDS [10000] records loaded; READS [30000] reads per measured phase;
# TERMINALS [4] terminals of ivsbench = threads of the driver loop; ROUNDS [3] binding+driver rounds.
#
# Method: one load, then ROUNDS rounds alternating the order (binding, driver; then driver, binding; ...), each
# side a fresh JVM that first reads for 2 s (warm-up, excluded) and then does READS point reads, closed loop:
#   binding: PhaseBench runs ycsbivs ReadRecord (readallfields, uniform keys) through the real engine and the
#            Cassandra binding, TERMINALS terminals;
#   driver:  CassandraDriverLoopBench, TERMINALS threads each running session.execute(prepared SELECT * ...
#            WHERE ycsb_key = ?) at consistency ONE over uniform key numbers with YCSB's hashed key names (the
#            same key space), reading every column of the row as the binding does.
# ops/s = reads / time from the phase's start to the last completion; cliCPU/op = the JVM's process CPU (all
# threads) per read; srvCPU/op = the Cassandra JVM's CPU per read. The summary gives the median of each side and
# the ratio of the medians, and the ratio within each round.
set -euo pipefail
IVS_LOG_TAG=bench
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

RECORDS=${RECORDS:-10000}; READS=${READS:-30000}; TERMINALS=${TERMINALS:-4}; ROUNDS=${ROUNDS:-3}

bench_build
bench_cassandra
bench_header "cassandra-binding: ivsbench's Cassandra binding vs a plain java-driver loop, point reads, $TERMINALS terminals/threads, closed loop; Cassandra $CASSANDRA_VERSION (private one-node server, heap ${IVS_CASSANDRA_HEAP:-512m})"
echo "# records=$RECORDS reads/phase=$READS terminals=$TERMINALS rounds=$ROUNDS consistency=ONE readallfields=true keys=uniform"

works="$(bench_work jit-warmup time:2 unlimited regular 100,0 uniform 0)"$'\n'
works+="$(bench_work read "count:$READS" unlimited regular 100,0 uniform)"
cfg="$BENCH_WORK/cassandra-binding.xml"
bench_config "$cfg" CASSANDRA "$IVS_CASSANDRA_URL" "" usertable "$RECORDS" "$TERMINALS" 2 "$works" \
  "<readallfields>true</readallfields>"
bench_show_config "$cfg"

out="$BENCH_WORK/cassandra-binding.out"
: >"$out"
binding() {
  local load=()
  [ "$1" = 1 ] && load=(--create --load)
  bench_java PhaseBench -c "$cfg" "${load[@]}" --server-pid "$CASSANDRA_PID" --label binding | tee -a "$out"
}
driver() {
  bench_java CassandraDriverLoopBench --port "$IVS_CASSANDRA_PORT" --records "$RECORDS" --threads "$TERMINALS" \
    --reads "$READS" --server-pid "$CASSANDRA_PID" --label driver | tee -a "$out"
}
for r in $(seq 1 "$ROUNDS"); do
  echo "# round $r"
  if [ $((r % 2)) = 1 ]; then binding "$r"; driver; else driver; binding "$r"; fi
done

# Rows of the measured phase: label phase term arrival target ops ops/s ... cliCPU/op (16) trmCPU/op srvCPU/op (18).
awk '
  ($1 == "binding" || $1 == "driver") && $2 == "read" {
    n[$1]++; ops[$1, n[$1]] = $7; cpu[$1, n[$1]] = $16 + 0; srv[$1, n[$1]] = $18 + 0
  }
  function median(side, arr,   i, j, t, v, k) {
    k = n[side]; for (i = 1; i <= k; i++) v[i] = arr[side, i]
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
  }
  END {
    printf "# summary (medians over %d rounds)\n", n["binding"]
    printf "%-8s %10s %10s %10s\n", "side", "ops/s", "cliCPU/op", "srvCPU/op"
    printf "%-8s %10.1f %8.1fus %8.1fus\n", "binding", median("binding", ops), median("binding", cpu), median("binding", srv)
    printf "%-8s %10.1f %8.1fus %8.1fus\n", "driver", median("driver", ops), median("driver", cpu), median("driver", srv)
    printf "ratio binding/driver: throughput %.3f, client CPU per read %.2f\n",
      median("binding", ops) / median("driver", ops), median("binding", cpu) / median("driver", cpu)
    printf "per-round throughput ratios:"
    for (i = 1; i <= n["binding"]; i++) printf " %.3f", ops["binding", i] / ops["driver", i]
    printf "\n"
  }' "$out"
