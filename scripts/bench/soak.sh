#!/usr/bin/env bash
# Constant memory over a long fixed-rate run: the client JVM's RSS (and heap in use) at 1/30, 1/3 and the end
# of an N-minute phase, plus once a minute; then the phase's achieved rate, missed arrivals and p99.
#
#   scripts/bench/soak.sh [minutes=30]
#
# Environment: RATE [2000] ops/s of uniform ReadRecord, regular arrivals; TARGET [sqlite] (sqlite: embedded,
# no server; mariadb: the private server, InnoDB); RECORDS [1000]; TERMINALS [1];
# SOAK_JAVA_OPTS [none]: JVM options (the default heap is the JVM's own: 1/4 of RAM).
#
# Method: the real command line (java -jar target/benchbase.jar --create --load --execute) with one time
# phase of N minutes; every 5 s the script reads VmRSS from /proc/<java pid>/status and, when jcmd is
# available, the heap in use (GC.heap_info). Memory that does not grow between the 1/3 and the end sample
# is what "constant memory" means here (the JVM's heap may still grow until its collector settles: compare
# heap-used after GC, not only RSS).
set -euo pipefail
IVS_LOG_TAG=bench
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

MINUTES=${1:-30}; RATE=${RATE:-2000}; TARGET=${TARGET:-sqlite}; RECORDS=${RECORDS:-1000}; TERMINALS=${TERMINALS:-1}
SECONDS_TOTAL=$(( MINUTES * 60 ))
bench_build
works="$(bench_work soak "time:$SECONDS_TOTAL" "$RATE" regular 100,0 uniform)"
cfg="$BENCH_WORK/soak.xml"
case "$TARGET" in
  sqlite) rm -f "$BENCH_WORK/soak.db"*
          bench_config "$cfg" SQLITE "jdbc:sqlite:$BENCH_WORK/soak.db" "" usertable "$RECORDS" "$TERMINALS" 1 "$works"
          what="SQLite (embedded)" ;;
  mariadb) bench_mariadb
           bench_config "$cfg" MARIADB "$IVS_MARIADB_URL" InnoDB usertable_soak "$RECORDS" "$TERMINALS" 2 "$works"
           what="MariaDB $MARIADB_VERSION InnoDB" ;;
  *) ivs_die "TARGET must be sqlite or mariadb" ;;
esac
bench_header "soak: $MINUTES min at $RATE ops/s uniform reads on $what, $TERMINALS terminal(s), JVM options: ${SOAK_JAVA_OPTS:-defaults}"
bench_show_config "$cfg"

log="$BENCH_WORK/soak.log"
# shellcheck disable=SC2086
java ${SOAK_JAVA_OPTS:-} -jar target/benchbase.jar -b ycsbivs -c "$cfg" --create=true --load=true --execute=true \
  -d "$BENCH_WORK/soak-results" >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; bench_cleanup' EXIT

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0; }
heap() {
  command -v jcmd >/dev/null 2>&1 || { echo "-"; return; }
  jcmd "$pid" GC.heap_info 2>/dev/null | awk '/total/ && /used/ {for (i=1;i<=NF;i++) if ($i=="used") {print $(i+1); exit}}'
}
# With -XX:NativeMemoryTracking=summary in SOAK_JAVA_OPTS: the JVM's committed memory by NMT (total, Java heap)
# to tell heap growth from native growth (metaspace, code cache, threads, GC, malloc by the JDBC driver...).
nmt() {
  case "${SOAK_JAVA_OPTS:-}" in *NativeMemoryTracking=*) ;; *) echo "-"; return ;; esac
  jcmd "$pid" VM.native_memory summary 2>/dev/null | awk '
    /^Total:/ {for (i=1;i<=NF;i++) if ($i ~ /^committed=/) {sub("committed=","",$i); sub(",","",$i); tot=$i}}
    /Java Heap \(/ {getline; for (i=1;i<=NF;i++) if ($i ~ /^committed=/) {sub("committed=","",$i); sub("\\)","",$i); heap=$i}}
    /- *Other \(|- *Internal \(/ {for (i=1;i<=NF;i++) if ($i ~ /committed=/) {x=$i; sub(".*committed=","",x); sub("\\)","",x); oth=x}}
    END {printf "%s/%s", tot, heap}'
}
# Checkpoints (seconds after the phase starts): 1/30, 1/3, and 5 s before the end.
c1=$(( SECONDS_TOTAL / 30 )); c2=$(( SECONDS_TOTAL / 3 )); c3=$(( SECONDS_TOTAL - 5 ))
# The phase starts when the console prints the results folder (load done).
while ! grep -q '^Results:' "$log" 2>/dev/null; do
  ivs_pid_alive "$pid" || { cat "$log" >&2; ivs_die "benchbase exited before the run started"; }
  sleep 0.2
done
t0=$(date +%s)
printf '%-10s %-9s %10s %12s %26s\n' checkpoint elapsed_s RSS_MB heap_used NMT_committed/heap
next_minute=60; done1=; done2=; done3=
while ivs_pid_alive "$pid"; do
  el=$(( $(date +%s) - t0 ))
  mark=
  if [ -z "$done1" ] && [ "$el" -ge "$c1" ]; then mark="1/30"; done1=1
  elif [ -z "$done2" ] && [ "$el" -ge "$c2" ]; then mark="1/3"; done2=1
  elif [ -z "$done3" ] && [ "$el" -ge "$c3" ]; then mark="end"; done3=1
  elif [ "$el" -ge "$next_minute" ]; then mark="minute"; fi
  if [ -n "$mark" ]; then
    printf '%-10s %-9s %10.1f %12s %26s\n' "$mark" "$el" "$(echo "$(rss_kb) / 1024" | bc -l)" "$(heap)" "$(nmt)"
    [ "$el" -ge "$next_minute" ] && next_minute=$(( (el / 60 + 1) * 60 ))
  fi
  sleep 1
done
wait "$pid" || true
trap bench_cleanup EXIT
dir=$(sed -n 's/^Results: //p' "$log" | tail -n1)
echo "# results folder: $dir"
python3 - "$dir/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for p in s.get("phases", []):
    rt, st = p.get("responseTimeUs") or {}, p.get("serviceTimeUs") or {}
    print(f"phase {p.get('name')}: throughput {p.get('throughput', 0):.1f} ops/s, missed {p.get('missed')}, "
          f"p99 response {rt.get('p99')} us, p99 service {st.get('p99')} us, max response {rt.get('max')} us")
PY
