#!/usr/bin/env bash
# What a Prometheus scrape of --metrics-listen costs the client: CPU per scrape of the endpoint's threads and of
# the whole JVM, bytes per scrape, for a run of 4 phases x 6 types (the endpoint's real registry, HTTP server and
# exposition; the scraper is an HttpClient in the same JVM); then the cost per operation of the listener call the
# statistics make for it.
#
#   scripts/bench/metrics-scrape.sh
#
# Environment: ROUNDS [3], SCRAPES [200], PHASES [4], TYPES [6].
#
# A run without --metrics-listen makes the same listener call on a no-op listener: compare two builds with
# scripts/bench/compare-jars.sh OLD.jar NEW.jar for what that costs.
set -euo pipefail
IVS_LOG_TAG=bench
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

bench_build
bench_header "metrics-scrape: CPU per scrape of the --metrics-listen endpoint"
bench_java MetricsScrapeBench "${ROUNDS:-3}" "${SCRAPES:-200}" "${PHASES:-4}" "${TYPES:-6}"
