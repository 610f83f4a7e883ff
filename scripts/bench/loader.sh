#!/usr/bin/env bash
# Loader throughput (records/s, MB/s) into MariaDB InnoDB, MariaDB RocksDB and SQLite with 1 and 2 loader
# threads, alternating, through the real command line (--create --load), as users run it.
#
#   scripts/bench/loader.sh
#
# Environment: RECORDS [50000] (1000-byte records: 10 fields x 100 bytes), ROUNDS [2], BATCH [128],
#              TARGETS ["innodb rocksdb sqlite"].
#
# Method: one `java -jar target/benchbase.jar --create=true --load=true` per (round, threads, target), in
# the order round -> threads -> target so every configuration is measured in each round. The figure is the
# loader's own report (records and value bytes over the load's wall time, after --create), so JVM start-up
# and schema creation are excluded. MB = 10^6 bytes of field values (keys and row overhead not counted).
# cliCPU/rec: microseconds of client CPU per record = (user+sys of the --create --load JVM - user+sys of a
# --create-only JVM on the same config) / records (GNU time, 10 ms resolution). srvCPU/rec: mariadbd's
# utime+stime (/proc/PID/stat) over the loading JVM / records (MariaDB only; SQLite runs inside the client).
set -euo pipefail
IVS_LOG_TAG=bench
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

RECORDS=${RECORDS:-50000}; ROUNDS=${ROUNDS:-2}; BENCH_BATCH=${BATCH:-128}; TARGETS=${TARGETS:-innodb rocksdb sqlite}
bench_build
case " $TARGETS " in *" innodb "*|*" rocksdb "*) bench_mariadb ;; esac
bench_header "loader: $RECORDS records of 1000 bytes, batchsize $BENCH_BATCH; MariaDB ${MARIADB_VERSION:-n/a} (private, stock settings, innodb_flush_log_at_trx_commit=1), SQLite (xerial JDBC)"
works="$(bench_work none time:1 unlimited regular 100,0 uniform)"
print_header() { printf '%-6s %-8s %8s %10s %9s %8s %12s %8s %12s %12s\n' round target threads records MB seconds records/s MB/s cliCPU/rec srvCPU/rec; }
# utime+stime seconds of one benchbase JVM (GNU time), its console output kept in loader.out.
cpu_of_jvm() {
  local cfg=$1; shift
  /usr/bin/time -f '%U %S' -o "$BENCH_WORK/loader.time" java -jar target/benchbase.jar -b ycsbivs -c "$cfg" "$@" \
    >"$BENCH_WORK/loader.out" 2>&1
  awk '{print $1 + $2}' "$BENCH_WORK/loader.time"
}
server_ticks() {
  if [ -n "${MARIADB_PID:-}" ]; then awk '{sub(/.*\) /, ""); print $12 + $13}' "/proc/$MARIADB_PID/stat"; else echo 0; fi
}
for r in $(seq 1 "$ROUNDS"); do
  for threads in 1 2; do
    for t in $TARGETS; do
      cfg="$BENCH_WORK/loader-$t-$threads.xml"
      case "$t" in
        innodb) bench_config "$cfg" MARIADB "$IVS_MARIADB_URL" InnoDB usertable_load "$RECORDS" 1 "$threads" "$works" ;;
        rocksdb) bench_config "$cfg" MARIADB "$IVS_MARIADB_URL" RocksDB usertable_load "$RECORDS" 1 "$threads" "$works" ;;
        sqlite) rm -f "$BENCH_WORK/loader.db"*
                bench_config "$cfg" SQLITE "jdbc:sqlite:$BENCH_WORK/loader.db" "" usertable "$RECORDS" 1 "$threads" "$works" ;;
        *) ivs_die "unknown target $t" ;;
      esac
      [ "$r$threads" = 11 ] && [ "$t" = "${TARGETS%% *}" ] && bench_show_config "$cfg" && print_header
      # Client CPU of the load = CPU of a --create --load JVM minus that of a --create-only JVM (start-up,
      # config, connect, DDL); server CPU = mariadbd's utime+stime delta over the --create --load JVM.
      base=$(cpu_of_jvm "$cfg" --create=true)
      s0=$(server_ticks)
      all=$(cpu_of_jvm "$cfg" --create=true --load=true)
      s1=$(server_ticks)
      line=$(tr '\r' '\n' <"$BENCH_WORK/loader.out" | grep '^Loaded' | tail -n1)
      # "Loaded 20,000 records (20.0 MB) in 1.9 s: 10,526 records/s, 10.5 MB/s"
      echo "$line" | tr -d ',' | awk -v r="$r" -v t="$t" -v th="$threads" -v base="$base" -v all="$all" \
        -v srv="$((s1 - s0))" -v server="${MARIADB_PID:+yes}" \
        '{gsub(/[()]/,""); cli=(all-base)*1e6/$2; sv=(t=="sqlite" || server=="") ? "-" : sprintf("%.1f", srv*1e4/$2);
          printf "%-6s %-8s %8s %10s %9s %8s %12s %8s %12.1f %12s\n", r, t, th, $2, $4, $7, $9, $11, cli, sv}'
    done
  done
done
