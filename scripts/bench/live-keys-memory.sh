#!/usr/bin/env bash
# Memory per live key of a section's live-key set (random/LiveKeys): at LIVE live keys, in three histories
# (loaded; inserted into an empty section; twice as many loaded and half deleted), the bytes its arrays hold
# and the heap in use after a full collection, per live key. One JVM, serial collector, a few seconds.
#
#   scripts/bench/live-keys-memory.sh
#
# Environment: LIVE [1000000] live keys.
set -euo pipefail
IVS_LOG_TAG=bench
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

bench_build
bench_header "live-keys-memory: bytes per live key of a section's live-key set"
IVS_BENCH_JVM_OPTS="${IVS_BENCH_JVM_OPTS:--XX:+UseSerialGC -Xmx512m}" bench_java LiveKeysMemoryBench "${LIVE:-1000000}"
