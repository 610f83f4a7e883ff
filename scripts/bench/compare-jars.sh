#!/usr/bin/env bash
# An OLD and a NEW benchbase.jar measured alternately in one run, so both see the same machine condition:
# (a) the engine on a no-op terminal (harness-overhead.sh's phases: closed loop, 1 and 2 terminals) and
# (b) 4-terminal closed-loop ReadRecord on the private MariaDB (InnoDB, uniform keys): throughput and client
# CPU per operation. Prints one row per measured phase and a table of medians with NEW/OLD ratios.
#
#   scripts/bench/compare-jars.sh OLD.jar NEW.jar
#
# Environment (defaults in brackets): ROUNDS [3] rounds, each running both jars (order OLD,NEW then NEW,OLD,
# alternating so neither always goes first); SECONDS_PER_PHASE [3] length of each no-op phase; READ_SECONDS [5]
# length of the read phase; TERMINALS [4] read terminals; RECORDS [1000] records loaded once (by NEW);
# OLD_TEST_CLASSES [target/test-classes] the benchmark programs for OLD: when OLD's API differs from this tree's,
# point it at the compiled test classes of OLD's own tree (`mvn test-compile` there).
# About 25 s per round.
#
# Method: the benchmark program (PhaseBench, from this tree's test classes) runs with the product classes of
# each jar in turn (IVS_BENCH_JAR). Each JVM first runs a 2 s warm-up phase, excluded. cond = the box's CPU
# busy share in the second before that JVM started (idle < 25 % <= busy): a row is only comparable with rows of
# the same cond. cliCPU/op = the JVM's process CPU (all threads) per operation; trmCPU/op = terminal threads
# only (columns found by PhaseBench's header, which differs between versions). A jar whose classes no longer
# match the benchmark program fails its rows with the Java error shown.
set -euo pipefail
IVS_LOG_TAG=bench
[ $# -eq 2 ] || { echo "usage: scripts/bench/compare-jars.sh OLD.jar NEW.jar" >&2; exit 2; }
for jar in "$1" "$2"; do
  [ -f "$jar" ] || { echo "compare-jars: '$jar' is not a file (give two benchbase.jar files)" >&2; exit 2; }
done
OLD_JAR=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
NEW_JAR=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

ROUNDS=${ROUNDS:-3}; S=${SECONDS_PER_PHASE:-3}; READ_S=${READ_SECONDS:-5}; TERMINALS=${TERMINALS:-4}
RECORDS=${RECORDS:-1000}
bench_build
bench_mariadb
bench_header "compare-jars: OLD=$OLD_JAR ($(sha256sum "$OLD_JAR" | cut -c1-12)) NEW=$NEW_JAR ($(sha256sum "$NEW_JAR" | cut -c1-12)); MariaDB $MARIADB_VERSION"

noop_cfg="$BENCH_WORK/compare-noop.xml"
works="$(bench_work jit-warmup time:2 unlimited regular 50,50 uniform 0 2)"$'\n'
works+="$(bench_work noop-1term "time:$S" unlimited regular 50,50 uniform 0 1)"$'\n'
works+="$(bench_work noop-2term "time:$S" unlimited regular 50,50 uniform 0 2)"
# The target is never opened (--noop); the SQLite URL only satisfies the config loader.
bench_config "$noop_cfg" SQLITE "jdbc:sqlite:$BENCH_WORK/unused.db" "" usertable 1000 2 1 "$works"

read_cfg="$BENCH_WORK/compare-read.xml"
works="$(bench_work jit-warmup time:2 unlimited regular 100,0 uniform 0)"$'\n'
works+="$(bench_work "read-${TERMINALS}term" "time:$READ_S" unlimited regular 100,0 uniform 0)"
bench_config "$read_cfg" MARIADB "$IVS_MARIADB_URL" InnoDB usertable_compare "$RECORDS" "$TERMINALS" 2 "$works"
bench_show_config "$read_cfg"
# Loaded once, by NEW: both jars then read the same table.
IVS_BENCH_JAR="$NEW_JAR" bench_java PhaseBench -c "$read_cfg" --create --load --label load >/dev/null

rows="$BENCH_WORK/compare-rows.txt"
: >"$rows"
# run_one JAR NAME: both benchmarks with that jar; appends "round jar cond phase term ops/s cliCPU trmCPU".
run_one() {
  local jar=$1 name=$2 round=$3 cond out classes=target/test-classes
  [ "$name" = OLD ] && classes=${OLD_TEST_CLASSES:-target/test-classes}
  for bench in noop read; do
    cond=$(bench_condition | sed 's/^condition=\([a-z]*\).*/\1/')
    if [ "$bench" = noop ]; then
      out=$(IVS_BENCH_TEST_CLASSES="$classes" IVS_BENCH_JAR="$jar" bench_java PhaseBench -c "$noop_cfg" --noop --label "$name" 2>&1) || true
    else
      out=$(IVS_BENCH_TEST_CLASSES="$classes" IVS_BENCH_JAR="$jar" bench_java PhaseBench -c "$read_cfg" --server-pid "$MARIADB_PID" \
        --label "$name" 2>&1) || true
    fi
    if ! echo "$out" | grep -q "^$name "; then
      echo "# $name ($jar) failed in $bench: $(echo "$out" | grep -m1 -E 'Exception|Error' || echo "$out" | tail -n1)"
      continue
    fi
    echo "$out" | awk -v r="$round" -v c="$cond" -v n="$name" \
      '$1=="label" {for (i = 1; i <= NF; i++) {if ($i == "cliCPU/op") ci = i; if ($i == "trmCPU/op") ti = i}}
       $1==n && $2 != "jit-warmup" {sub("us","",$ci); sub("us","",$ti); print r, n, c, $2, $3, $7, $ci, $ti}' \
      | tee -a "$rows"
  done
}

printf '%s\n' "# round jar cond phase term ops/s cliCPU_us/op trmCPU_us/op"
for r in $(seq 1 "$ROUNDS"); do
  if [ $((r % 2)) -eq 1 ]; then run_one "$OLD_JAR" OLD "$r"; run_one "$NEW_JAR" NEW "$r"
  else run_one "$NEW_JAR" NEW "$r"; run_one "$OLD_JAR" OLD "$r"; fi
done

echo
echo "# medians per phase and condition (n = rounds in that condition); ratio = NEW / OLD"
python3 - "$rows" <<'PY'
import collections, statistics, sys
data = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, jar, cond, phase, term, ops, cli, trm = line.split()
    data[(phase, cond, jar)].append((float(ops), float(cli), float(trm)))
print(f"{'phase':<14} {'cond':<5} {'n':>3} {'OLD ops/s':>11} {'NEW ops/s':>11} {'ratio':>6} "
      f"{'OLD cli/op':>10} {'NEW cli/op':>10} {'ratio':>6} {'OLD trm/op':>10} {'NEW trm/op':>10} {'ratio':>6}")
for phase, cond in sorted({(p, c) for p, c, _ in data}):
    old, new = data.get((phase, cond, "OLD"), []), data.get((phase, cond, "NEW"), [])
    if not old or not new:
        print(f"{phase:<14} {cond:<5}   - only one jar ran in this condition: no comparison")
        continue
    med = lambda rows, i: statistics.median(x[i] for x in rows)
    cells = []
    for i in range(3):
        o, n = med(old, i), med(new, i)
        fmt = "{:>11.0f} {:>11.0f}" if i == 0 else "{:>9.2f}us {:>9.2f}us"
        cells.append(fmt.format(o, n) + f" {n / o:>6.3f}")
    print(f"{phase:<14} {cond:<5} {min(len(old), len(new)):>3} " + " ".join(cells))
PY
