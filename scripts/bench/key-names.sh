#!/usr/bin/env bash
# What naming a key costs: ns per key on one thread for YCSB's key names (the reference: what every operation
# paid before key shapes), the default shape every operation now goes through, and the <keys> shapes
# (zero-padded ordered numbers, composite prefixes, padding to a drawn length), alternating in one JVM.
#
#   scripts/bench/key-names.sh
#
# Environment: ROUNDS [3], NAMES [2000000] per namer and round.
# Prints every round's rows, then the median per namer and its ratio to the reference.
set -euo pipefail
IVS_LOG_TAG=bench
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

bench_build
bench_header "key-names: ns per key name, per key shape"
out="$BENCH_WORK/key-names.txt"
bench_java KeyNameBench "${ROUNDS:-3}" "${NAMES:-2000000}" | tee "$out"
echo
echo "# median ns/key per namer; ratio = median / median of the reference"
bench_medians "$out" "reference: KeyNames.key (hashed)" ns
