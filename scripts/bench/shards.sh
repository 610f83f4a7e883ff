#!/usr/bin/env bash
# Aggregate throughput of 1, 2 and 4 local driver processes (--shard i/n) against the private MariaDB,
# alternating, through the real command line: each driver runs 4 terminals of closed-loop uniform ReadRecord,
# so n drivers offer 4n terminals; the n results folders are merged (`merge -o OUT DIR...`) and the merged
# summary gives the figures.
#
#   scripts/bench/shards.sh
#
# Environment: RECORDS [10000] (1000-byte records), SECONDS_RUN [10], WARMUP [2], TERMINALS [4] (per driver),
#              ROUNDS [2], DRIVERS ["1 2 4"].
#
# Method: per round, per driver count (in the order of DRIVERS), n JVMs start together and meet at the start
# barrier, run WARMUP s (excluded) and SECONDS_RUN measured seconds, then `merge` adds their results. ops/s is
# the merged phase's throughput (operations / measured seconds); p50/p99 come from the added histograms.
# cliCPU/op: user+sys of all n driver JVMs (GNU time, start-up included) / operations; srvCPU/op: mariadbd's
# utime+stime over the run / operations. On a 2-core box the drivers and the server share the same two cores,
# so adding drivers adds client CPU the server then lacks: aggregate throughput flattens or falls.
set -euo pipefail
IVS_LOG_TAG=bench
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

RECORDS=${RECORDS:-10000}; SECONDS_RUN=${SECONDS_RUN:-10}; WARMUP=${WARMUP:-2}; TERMINALS=${TERMINALS:-4}
ROUNDS=${ROUNDS:-2}; DRIVERS=${DRIVERS:-1 2 4}
ivs_require_java_maven
mvn -B -q -o -DskipTests package >/dev/null 2>&1 || mvn -B -q -DskipTests package >&2
bench_mariadb
bench_header "shards: 1, 2, 4 local drivers x $TERMINALS terminals, closed-loop uniform ReadRecord, $RECORDS records of 1000 bytes, ${SECONDS_RUN} s (+${WARMUP} s warmup); MariaDB ${MARIADB_VERSION:-n/a} (private, InnoDB, 128 MB buffer pool)"
server_ticks() { awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$MARIADB_PID/stat"; }

load_cfg="$BENCH_WORK/shards-load.xml"
bench_config "$load_cfg" MARIADB "$IVS_MARIADB_URL" InnoDB usertable_shards "$RECORDS" 1 2 \
  "$(bench_work none time:1 unlimited regular 100,0 uniform)"
java -jar target/benchbase.jar -b ycsbivs -c "$load_cfg" --create=true --load=true >"$BENCH_WORK/shards-load.out" 2>&1

printf '%-6s %8s %10s %10s %9s %9s %12s %12s\n' round drivers terminals ops/s p50_ms p99_ms cliCPU/op_us srvCPU/op_us
for r in $(seq 1 "$ROUNDS"); do
  for n in $DRIVERS; do
    terms=$((TERMINALS * n))
    cfg="$BENCH_WORK/shards-$n.xml"
    bench_config "$cfg" MARIADB "$IVS_MARIADB_URL" InnoDB usertable_shards "$RECORDS" "$terms" 1 \
      "$(bench_work read "time:$SECONDS_RUN" unlimited regular 100,0 uniform "$WARMUP" "$terms")"
    [ "$r$n" = "1${DRIVERS%% *}" ] && bench_show_config "$cfg"
    out="$BENCH_WORK/shards-run"
    rm -rf "$out"; mkdir -p "$out"
    s0=$(server_ticks)
    pids=()
    for i in $(seq 0 $((n - 1))); do
      /usr/bin/time -f '%U %S' -o "$out/time$i" java -jar target/benchbase.jar -b ycsbivs -c "$cfg" --execute=true \
        --shard "$i/$n" -d "$out/shard$i" >"$out/log$i.out" 2>&1 &
      pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || ivs_die "a driver failed: see $out"; done
    s1=$(server_ticks)
    java -jar target/benchbase.jar merge -o "$out/merged" "$out"/shard[0-9]* >"$out/merge.out" 2>&1 \
      || ivs_die "merge failed: $(cat "$out/merge.out")"
    cpu=$(cat "$out"/time* | awk '{s += $1 + $2} END {print s}')
    python3 - "$out/merged/summary.json" "$r" "$n" "$terms" "$cpu" "$((s1 - s0))" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
p = s["phases"][0]
ops = p["operations"]
r, n, terms, cpu, ticks = sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), int(sys.argv[6])
print("%-6s %8s %10s %10.0f %9.3f %9.3f %12.1f %12.1f" % (
    r, n, terms, p["throughput"], p["responseTimeUs"]["p50"] / 1000, p["responseTimeUs"]["p99"] / 1000,
    cpu * 1e6 / ops, ticks * 1e4 / ops))
PY
  done
done
