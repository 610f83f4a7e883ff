#!/usr/bin/env bash
# Interference between two tenants on one private MariaDB, through the real command line: the sample
# config/tenants/reads.xml (200 uniform reads/s, open loop, 45 s) and config/tenants/extends.xml (idle 15 s, a
# closed-loop EXTEND storm of 4 terminals appending 20 kB each for 15 s, idle 15 s), run together by
# `benchbase.jar tenants`. Prints, per round, the reads tenant's median window p99 in its solo windows (no other
# tenant completed an operation in the window) and in the overlapping ones, and their ratio.
#
#   scripts/bench/tenants.sh
#
# Environment: ROUNDS [2].
#
# Method: each round re-creates and re-loads both tenants' tables (tenant_reads, tenant_extends), then runs both
# at once; the figures come from the round's tenants.csv (ALL rows of the reads tenant with operations, split by
# active_tenants), the same split as the analyzer's interference.csv. Solo and overlapping windows are measured
# in the same run, minutes apart at most, so the box's condition is the same for both.
set -euo pipefail
IVS_LOG_TAG=bench
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

ROUNDS=${ROUNDS:-2}
bench_build
bench_mariadb
bench_header "tenants: config/tenants/reads.xml + extends.xml on MariaDB ${MARIADB_VERSION:-n/a} (private, stock settings)"
for f in reads extends; do
  sed -e "s|jdbc:mariadb://127.0.0.1:3306/ivsbench|$IVS_MARIADB_URL|" config/tenants/$f.xml >"$BENCH_WORK/tenants-$f.xml"
done
printf '%-6s %12s %15s %14s %17s %8s %12s\n' round solo_windows overlap_windows solo_p99_ms overlap_p99_ms ratio spread_ms
for r in $(seq 1 "$ROUNDS"); do
  out="$BENCH_WORK/tenants-results"
  rm -rf "$out"
  java -jar target/benchbase.jar tenants "reads:ycsbivs:$BENCH_WORK/tenants-reads.xml" \
    "extends:ycsbivs:$BENCH_WORK/tenants-extends.xml" --create --load --execute -d "$out" >"$BENCH_WORK/tenants.out" 2>&1 \
    || { cat "$BENCH_WORK/tenants.out" >&2; ivs_die "the tenants run failed"; }
  dir=$(ls -d "$out"/tenants_*)
  python3 - "$dir" "$r" <<'PY'
import csv, json, statistics, sys
d, r = sys.argv[1], sys.argv[2]
solo, both = [], []
for row in csv.DictReader(open(f"{d}/tenants.csv")):
    ops = sum(int(row[c]) for c in ("ok", "skipped", "aborted", "error"))
    if row["tenant"] != "reads" or ops == 0 or float(row["measured_ms"]) == 0:
        continue
    (solo if row["active_tenants"] == "1" else both).append(float(row["lat_p99_us"]) / 1000)
spread = json.load(open(f"{d}/tenants.json")).get("startSpreadMs", "-")
s, b = statistics.median(solo), statistics.median(both)
print(f"{r:<6} {len(solo):>12} {len(both):>15} {s:>14.1f} {b:>17.1f} {b / s:>8.2f} {spread:>12}")
PY
done
