#!/usr/bin/env bash
# ReadRecord vs ExtendRecord on the private MariaDB, InnoDB and RocksDB, and the private PostgreSQL: throughput,
# client CPU per operation (the benchmark JVM, all threads, and its terminal thread alone) and server CPU per
# operation (mariadbd; PostgreSQL's postmaster with its backends).
#
#   scripts/bench/read-extend.sh
#
# Environment (defaults in brackets): RECORDS [1000] records loaded; READS [20000] reads per read phase;
# EXTENDS [5000] extends per extend phase; ROUNDS [3] read+extend rounds per engine in one JVM;
# PASSES [1] times the InnoDB, RocksDB, PostgreSQL sequence is repeated (targets alternate between passes);
# TARGETS [InnoDB RocksDB PostgreSQL] the targets of each pass, in order;
# EXTEND_DIST [zipfian] key distribution of the extends (reads are uniform, as in the paper).
#
# Method: one JVM per engine and pass (PhaseBench) runs, after a load and a 2 s warm-up phase (reads and
# extends 50:50, excluded from figures), the phases read, extend, read, extend, ... through the real engine,
# 1 terminal, closed loop (rate unlimited), fixed counts. CPU time per phase = delta of the JVM's process CPU
# time (OperatingSystemMXBean) and of the server's utime+stime (/proc/PID/stat, 10 ms ticks; for PostgreSQL the
# postmaster's own, its exited children's and its live backends') between phase
# starts, divided by the phase's operations. No baseline subtraction is needed: the deltas are taken inside
# one running JVM, so JVM start-up, class loading and the load are outside every phase.
set -euo pipefail
IVS_LOG_TAG=bench
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench.sh"

RECORDS=${RECORDS:-1000}; READS=${READS:-20000}; EXTENDS=${EXTENDS:-5000}; ROUNDS=${ROUNDS:-3}; PASSES=${PASSES:-1}
EXTEND_DIST=${EXTEND_DIST:-zipfian}
TARGETS=${TARGETS:-InnoDB RocksDB PostgreSQL}

bench_build
bench_mariadb
case " $TARGETS " in *" PostgreSQL "*) bench_postgres ;; esac
bench_header "read-extend: ReadRecord vs ExtendRecord, 1 terminal, closed loop; MariaDB $MARIADB_VERSION (private server, stock settings, buffer pool ${IVS_MARIADB_BUFFER_POOL:-128M})${POSTGRES_VERSION:+; PostgreSQL $POSTGRES_VERSION (private server, stock settings, shared_buffers ${IVS_POSTGRES_SHARED_BUFFERS:-128MB}, READ COMMITTED)}"
echo "# records=$RECORDS reads/phase=$READS extends/phase=$EXTENDS rounds=$ROUNDS passes=$PASSES extend distribution=$EXTEND_DIST extendmethod=client"
echo "# columns: ops/s measured; p50/p99 service and response time; cliCPU/op = benchmark JVM CPU (all threads) per op;"
echo "#          trmCPU/op = terminal thread only; srvCPU/op = server CPU per op (mariadbd; postgres with its backends)"

for pass in $(seq 1 "$PASSES"); do
  for engine in $TARGETS; do
    table="usertable_$(echo "$engine" | tr 'A-Z' 'a-z')"
    works="$(bench_work jit-warmup time:2 unlimited regular 50,50 uniform 0)"$'\n'
    for r in $(seq 1 "$ROUNDS"); do
      works+="$(bench_work "read-r$r" "count:$READS" unlimited regular 100,0 uniform)"$'\n'
      works+="$(bench_work "extend-r$r" "count:$EXTENDS" unlimited regular 0,100 "$EXTEND_DIST")"$'\n'
    done
    cfg="$BENCH_WORK/read-extend-$engine.xml"
    if [ "$engine" = PostgreSQL ]; then
      bench_config "$cfg" POSTGRESQL "$IVS_POSTGRES_URL" "" "$table" "$RECORDS" 1 2 "$works"
      pid=$POSTGRES_PID
    else
      bench_config "$cfg" MARIADB "$IVS_MARIADB_URL" "$engine" "$table" "$RECORDS" 1 2 "$works"
      pid=$MARIADB_PID
    fi
    [ "$pass" = 1 ] && [ "$engine" = InnoDB ] && bench_show_config "$cfg"
    # Each pass starts from a freshly loaded table so the values have the same sizes in every pass.
    bench_java PhaseBench -c "$cfg" --create --load --server-pid "$pid" --label "$engine"
  done
done
