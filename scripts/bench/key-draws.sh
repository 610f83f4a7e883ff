#!/usr/bin/env bash
# What choosing a key costs per distribution expression: ns per draw on one thread for every key chooser a
# terminal can get from an expression, beside the generators the terminal constructed directly before keys
# became expressions (the "reference:" rows), alternating in one JVM so both see the same machine.
#
#   scripts/bench/key-draws.sh
#
# Environment: ROUNDS [3], DRAWS [5000000] per chooser and round, RECORDS [1000000] keys.
# Prints every round's rows, then the median per chooser and its ratio to the YCSB zipfian reference.
set -euo pipefail
IVS_LOG_TAG=bench
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

bench_build
bench_header "key-draws: ns per key draw, per distribution expression"
out="$BENCH_WORK/key-draws.txt"
bench_java KeyDrawBench "${ROUNDS:-3}" "${DRAWS:-5000000}" "${RECORDS:-1000000}" | tee "$out"
echo
echo "# median ns/draw per chooser; ratio = median / median of 'reference: new ScrambledZipfianGenerator'"
bench_medians "$out" "reference: new ScrambledZipfianGenerator" ns
