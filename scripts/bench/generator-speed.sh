#!/usr/bin/env bash
# Generator speed: `generate` (the operation stream of a config written to a trace file, no database) on YCSB's
# core workloads A-F, for a fixed operation count each: operations per second and peak memory (maximum resident
# set size), measured with GNU time as the Tectonic paper measured Tectonic, YCSB and KVBench (section 4).
#
#   scripts/bench/generator-speed.sh
#
# Environment (defaults in brackets): OPS [1000000] operations per workload (Tectonic's Fig. 3 generated 1M);
# RECORDS [1000000] records the keys are drawn from (nothing is loaded); ROUNDS [1]; HEAPS ["default -Xmx64m"]
# JVM heap settings run one after the other for each workload: `default` is the JVM's own sizing (what a user gets;
# the JVM grows its heap lazily, so its peak RSS says more about the JVM than about the generator), -Xmx64m shows
# the generator's working set (constant: it holds one terminal's draws and a bounded queue of lines).
#
# The workloads are ycsbivs configs with YCSB's proportions and distributions: A read/update 50:50, B 95:5,
# C read only, D read/insert 95:5 with reads by latest, E scan/insert 95:5 (scan lengths uniform 1..100), F
# read/read-modify-write 50:50; zipfian (YCSB's scrambled zipfian) unless said; 10 fields of 100 bytes, updates
# one field, inserts all ten; one terminal. The file is the gzip trace (fastest compression) in the work folder,
# removed after each run.
#
# YCSB's own generator runs beside it, alternated (for each workload and heap one run of each, every other pair
# starting with YCSB): YCSB 0.17.0's client (site.ycsb:core, fetched with Maven) with the same workload as
# properties (CoreWorkload, the proportions and distributions of YCSB's workloads/workloada..f, recordcount and
# operationcount as above, one thread), and as its database scripts/bench/lib/YcsbFileDb.java (ours, compiled here
# against YCSB's core): every operation as a JSON line with its key, fields and values to a gzip file at the
# fastest level through a 1 MB buffer, as ivsbench writes its trace and as the Tectonic paper adapted YCSB.
# YCSB=no runs ivsbench alone; a core library that cannot be fetched stops the script with that line.
set -euo pipefail
IVS_LOG_TAG=bench
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

OPS=${OPS:-1000000}; RECORDS=${RECORDS:-1000000}; ROUNDS=${ROUNDS:-1}; HEAPS=${HEAPS:-default -Xmx64m}
YCSB=${YCSB:-yes}
case "$YCSB" in yes|no) ;; *) echo "YCSB: yes or no, not '$YCSB'" >&2; exit 2 ;; esac
YCSB_VERSION=0.17.0
[ -x /usr/bin/time ] || ivs_apt_install time
bench_build
bench_header "generator-speed: generate, YCSB A-F, $OPS operations each over $RECORDS records, 1 terminal, heaps: $HEAPS"

dir="$BENCH_WORK/generator-speed"
rm -rf "$dir"; mkdir -p "$dir"

# ycsb_config FILE WEIGHTS DISTRIBUTION: ReadRecord,UpdateRecord,InsertRecord,ScanRecord,ReadModifyWriteRecord
ycsb_config() {
  cat >"$1" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<parameters>
  <type>SQLITE</type>
  <url>jdbc:sqlite:$dir/never-opened.db</url>
  <terminals>1</terminals>
  <randomSeed>42</randomSeed>
  <recordcount>$RECORDS</recordcount>
  <fieldcount>10</fieldcount>
  <fieldlength>100</fieldlength>
  <transactiontypes>
    <transactiontype><name>ReadRecord</name></transactiontype>
    <transactiontype><name>UpdateRecord</name></transactiontype>
    <transactiontype><name>InsertRecord</name></transactiontype>
    <transactiontype><name>ScanRecord</name></transactiontype>
    <transactiontype><name>ReadModifyWriteRecord</name></transactiontype>
  </transactiontypes>
  <works>
    <work><name>run</name><count>$OPS</count><rate>unlimited</rate><weights>$2</weights><distribution>$3</distribution></work>
  </works>
  <monitor><enabled>false</enabled></monitor>
</parameters>
XML
}
declare -A WEIGHTS=([A]=50,50,0,0,0 [B]=95,5,0,0,0 [C]=100,0,0,0,0 [D]=95,0,5,0,0 [E]=0,0,5,95,0 [F]=50,0,0,0,50)
declare -A DIST=([A]=zipfian [B]=zipfian [C]=zipfian [D]=latest [E]=zipfian [F]=zipfian)
for w in A B C D E F; do ycsb_config "$dir/ycsb_$w.xml" "${WEIGHTS[$w]}" "${DIST[$w]}"; done
bench_show_config "$dir/ycsb_A.xml"
echo "# B-F differ in <weights> (ReadRecord,UpdateRecord,InsertRecord,ScanRecord,ReadModifyWriteRecord) and <distribution>:"
for w in B C D E F; do echo "#   $w: ${WEIGHTS[$w]} ${DIST[$w]}"; done

# YCSB's client: its core library's classpath from a throwaway pom, and YcsbFileDb compiled against it.
ycsb_cp=""
if [ "$YCSB" = yes ]; then
  mkdir -p "$dir/ycsb"
  cat >"$dir/ycsb/pom.xml" <<XML
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.bench</groupId><artifactId>ycsb-client</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>site.ycsb</groupId><artifactId>core</artifactId><version>$YCSB_VERSION</version></dependency>
  </dependencies>
</project>
XML
  (cd "$dir/ycsb" && { mvn -B -q -o dependency:build-classpath -Dmdep.outputFile=cp.txt >/dev/null 2>&1 \
      || mvn -B -q dependency:build-classpath -Dmdep.outputFile=cp.txt >&2; }) \
    || ivs_die "YCSB $YCSB_VERSION's core library could not be fetched with Maven (YCSB=no runs ivsbench alone)"
  ycsb_cp=$(cat "$dir/ycsb/cp.txt")
  mkdir -p "$dir/ycsb/classes"
  javac -nowarn -d "$dir/ycsb/classes" -cp "$ycsb_cp" scripts/bench/lib/YcsbFileDb.java \
    || ivs_die "scripts/bench/lib/YcsbFileDb.java did not compile against YCSB $YCSB_VERSION"
  ycsb_cp="$dir/ycsb/classes:$ycsb_cp"
  echo "# YCSB $YCSB_VERSION: java -cp <site.ycsb:core:$YCSB_VERSION and its dependencies, YcsbFileDb> site.ycsb.Client -t" \
    "-db YcsbFileDb -threads 1 -p workload=site.ycsb.workloads.CoreWorkload -p recordcount=$RECORDS" \
    "-p operationcount=$OPS -p filedb.out=ycsb_W.json.gz <the workload's proportions, below>"
fi
# YCSB's workloads a-f as properties (their files are in YCSB's distribution, not in its core library)
declare -A YPROPS=(
  [A]="readproportion=0.5 updateproportion=0.5 scanproportion=0 insertproportion=0 requestdistribution=zipfian"
  [B]="readproportion=0.95 updateproportion=0.05 scanproportion=0 insertproportion=0 requestdistribution=zipfian"
  [C]="readproportion=1 updateproportion=0 scanproportion=0 insertproportion=0 requestdistribution=zipfian"
  [D]="readproportion=0.95 updateproportion=0 scanproportion=0 insertproportion=0.05 requestdistribution=latest"
  [E]="readproportion=0 updateproportion=0 scanproportion=0.95 insertproportion=0.05 requestdistribution=zipfian maxscanlength=100 scanlengthdistribution=uniform"
  [F]="readproportion=0.5 updateproportion=0 scanproportion=0 insertproportion=0 readmodifywriteproportion=0.5 requestdistribution=zipfian")
[ "$YCSB" = yes ] && for w in A B C D E F; do echo "#   YCSB $w: ${YPROPS[$w]}"; done

# time_row ROUND WORKLOAD HEAP GENERATOR OUTFILE GEN_OPS_PER_S: one row from GNU time's $dir/time.txt
time_row() {
  local wall cpu rss mb
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' "$dir/time.txt")
  cpu=$(awk -F': ' '/User time/{u=$2} /System time/{s=$2} END{printf "%.2f", u+s}' "$dir/time.txt")
  rss=$(awk -F': ' '/Maximum resident/{printf "%.0f", $2/1024}' "$dir/time.txt")
  mb=$(du -m "$5" | cut -f1)
  rm -f "$5"
  echo "$1 $2 $3 $OPS $wall $(awk -v o="$OPS" -v s="$wall" 'BEGIN{printf "%.0f", o/s}') ${6:-0} $cpu $rss $mb $4" >>"$rows"
  tail -n1 "$rows"
}

# run_ivsbench ROUND WORKLOAD HEAP / run_ycsb ROUND WORKLOAD HEAP: one run each, a row each
run_ivsbench() {
  local out="$dir/ycsb_$2.trace.gz" gen
  echo "# round $1 $2 $3: load avg $(cut -d' ' -f1-3 /proc/loadavg);" \
    "java ${opts[*]} -jar target/benchbase.jar generate -b ycsbivs -c ycsb_$2.xml -o ycsb_$2.trace.gz"
  /usr/bin/time -v -o "$dir/time.txt" java "${opts[@]}" -jar target/benchbase.jar generate -b ycsbivs \
    -c "$dir/ycsb_$2.xml" -o "$out" >"$dir/gen.log" 2>&1 || { cat "$dir/gen.log" >&2; ivs_die "generate failed"; }
  gen=$(sed -n 's/.*(\([0-9,]*\) ops\/s).*/\1/p' "$dir/gen.log" | tr -d ,)
  time_row "$1" "$2" "$3" ivsbench "$out" "$gen"
}
run_ycsb() {
  local out="$dir/ycsb_$2.json.gz" props=() p gen done_ops
  for p in workload=site.ycsb.workloads.CoreWorkload recordcount="$RECORDS" operationcount="$OPS" \
    filedb.out="$out" ${YPROPS[$2]}; do props+=(-p "$p"); done
  echo "# round $1 $2 $3: load avg $(cut -d' ' -f1-3 /proc/loadavg); YCSB $YCSB_VERSION ${opts[*]}"
  /usr/bin/time -v -o "$dir/time.txt" java "${opts[@]}" -cp "$ycsb_cp" site.ycsb.Client -t -db YcsbFileDb \
    -threads 1 "${props[@]}" >"$dir/ycsb.log" 2>&1 || { cat "$dir/ycsb.log" >&2; ivs_die "YCSB's client failed"; }
  gen=$(awk -F', ' '/^\[OVERALL\], Throughput/{printf "%.0f", $3}' "$dir/ycsb.log")
  # YCSB counts transactions: its run time times its throughput must give OPS (a client that stopped early
  # would look fast)
  done_ops=$(awk -F', ' '/^\[OVERALL\], RunTime/{t=$3} /^\[OVERALL\], Throughput/{r=$3} END{printf "%.0f", t*r/1000}' "$dir/ycsb.log")
  [ "$done_ops" = "$OPS" ] || { cat "$dir/ycsb.log" >&2; ivs_die "YCSB's client did $done_ops operations, not $OPS"; }
  time_row "$1" "$2" "$3" "YCSB-$YCSB_VERSION" "$out" "$gen"
}

rows="$dir/rows.txt"; : >"$rows"
pair=0
for round in $(seq 1 "$ROUNDS"); do
  for w in A B C D E F; do
    for heap in $HEAPS; do
      opts=(); [ "$heap" != default ] && opts=("$heap")
      # alternated: every other pair starts with YCSB, so neither generator always runs on the box the other left
      if [ "$YCSB" = no ]; then run_ivsbench "$round" "$w" "$heap"
      elif [ $((pair % 2)) -eq 0 ]; then run_ivsbench "$round" "$w" "$heap"; run_ycsb "$round" "$w" "$heap"
      else run_ycsb "$round" "$w" "$heap"; run_ivsbench "$round" "$w" "$heap"; fi
      pair=$((pair + 1))
    done
  done
done

echo
echo "| round | workload | heap | generator | operations | wall s (JVM start included) | ops/s over the wall time | ops/s while generating | CPU s (user+sys) | peak RSS MB | file MB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
awk '{printf "| %s | YCSB-%s | %s | %s | %\047d | %s | %\047d | %\047d | %s | %s | %s |\n", $1, $2, $3, $11, $4, $5, $6, $7, $8, $9, $10}' "$rows"
if [ "$YCSB" = yes ]; then
  # ivsbench over YCSB, each pair run one right after the other (same round, workload and heap, the order
  # alternated): the ratios this box can give (absolute figures move with its load); then the medians over the
  # rounds, per workload and heap: what docs/performance.md quotes
  echo
  python3 - "$rows" "$ROUNDS" <<'PY'
import statistics, sys
WALL, GEN, CPU, RSS = 4, 6, 7, 8  # columns of rows.txt
pairs = {}  # (workload, heap) -> round -> {"i": ivsbench row, "y": YCSB row}, in the order run
for line in open(sys.argv[1]):
    f = line.split()
    pairs.setdefault((f[1], f[2]), {}).setdefault(f[0], {})["i" if f[10] == "ivsbench" else "y"] = f
complete = {k: [r for r in rounds.items() if "i" in r[1] and "y" in r[1]] for k, rounds in pairs.items()}
ratio = lambda r, col: float(r["i"][col]) / float(r["y"][col])
print("| round | workload | heap | ops/s while generating, ivsbench / YCSB | wall s, ivsbench / YCSB | CPU s, ivsbench / YCSB | peak RSS, ivsbench / YCSB |")
print("|---|---|---|---|---|---|---|")
for rnd in sorted({n for rounds in complete.values() for n, _ in rounds}, key=int):
    for (w, heap), rounds in complete.items():
        for n, r in rounds:
            if n == rnd:
                print(f"| {n} | YCSB-{w} | {heap} | " + " | ".join(f"{ratio(r, c):.2f}" for c in (GEN, WALL, CPU, RSS)) + " |")
print(f"\nMedians over {sys.argv[2]} round(s):\n")
print("| workload | heap | ivsbench ops/s while generating | YCSB ops/s while generating | ivsbench / YCSB (median of the rounds' ratios) | ivsbench CPU s | YCSB CPU s | ivsbench peak RSS MB | YCSB peak RSS MB |")
print("|---|---|---|---|---|---|---|---|---|")
for (w, heap), rounds in complete.items():
    med = lambda who, col: statistics.median(float(r[who][col]) for _, r in rounds)
    print(f"| YCSB-{w} | {heap} | {med('i', GEN):,.0f} | {med('y', GEN):,.0f} | "
          f"{statistics.median(ratio(r, GEN) for _, r in rounds):.2f} | {med('i', CPU):.2f} | "
          f"{med('y', CPU):.2f} | {med('i', RSS):.0f} | {med('y', RSS):.0f} |")
PY
fi
echo "# $(bench_condition)"
