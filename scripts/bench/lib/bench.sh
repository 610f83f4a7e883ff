# Shared helpers for scripts/bench/*.sh. Source it; do not run it.
# shellcheck shell=bash
IVS_BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=../../lib/common.sh
. "$IVS_BENCH_DIR/../lib/common.sh"
cd "$IVS_REPO_ROOT" || exit 1

BENCH_WORK="${IVS_BENCH_WORK:-$IVS_CACHE_DIR/bench}"
BENCH_MARIADB_STATE="${IVS_STATE_DIR:-$IVS_CACHE_DIR/mariadb}"
BENCH_POSTGRES_STATE="${IVS_POSTGRES_STATE_DIR:-$IVS_CACHE_DIR/postgres}"
mkdir -p "$BENCH_WORK"

# Builds target/benchbase.jar, the benchmark programs (test classes) and the classpath file, offline first.
bench_build() {
  ivs_require_java_maven
  local mvn=(mvn -B -q)
  if ! "${mvn[@]}" -o -DskipTests package >/dev/null 2>&1; then "${mvn[@]}" -DskipTests package >&2; fi
  "${mvn[@]}" -o test-compile >/dev/null 2>&1 || "${mvn[@]}" test-compile >&2
  "${mvn[@]}" -o dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt \
    -Dmdep.includeScope=test >/dev/null 2>&1 \
    || "${mvn[@]}" dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeScope=test >&2
  BENCH_CP="target/test-classes:target/classes:$(cat target/bench-classpath.txt)"
}

# Runs a benchmark program: bench_java ClassName args... With IVS_BENCH_JAR=FILE the product classes come
# from that benchbase.jar (all dependencies inside) instead of target/classes: the benchmark programs of
# this tree measure another build (scripts/bench/compare-jars.sh); IVS_BENCH_TEST_CLASSES=DIR takes the benchmark
# programs from another tree's compiled test classes (for a build whose API this tree's programs no longer fit).
bench_java() {
  local cls=$1 cp=$BENCH_CP; shift
  if [ -n "${IVS_BENCH_JAR:-}" ]; then
    cp="${IVS_BENCH_TEST_CLASSES:-target/test-classes}:$IVS_BENCH_JAR:$(cat target/bench-classpath.txt)"
  fi
  # shellcheck disable=SC2086
  java ${IVS_BENCH_JVM_OPTS:-} -cp "$cp" "org.ivsbench.benchmarks.$cls" "$@"
}

# Servers this script started are stopped when it exits, however it exits (IVS_BENCH_KEEP_SERVER=1 keeps
# them); a server that was already running is left as it was.
BENCH_STARTED_MARIADB=0
BENCH_STARTED_POSTGRES=0
BENCH_STARTED_CASSANDRA=0
bench_cleanup() {
  if [ "$BENCH_STARTED_MARIADB" -eq 1 ] && [ "${IVS_BENCH_KEEP_SERVER:-0}" != 1 ]; then
    IVS_STATE_DIR="$BENCH_MARIADB_STATE" "$IVS_REPO_ROOT/scripts/mariadb.sh" stop >&2 || true
    BENCH_STARTED_MARIADB=0
  fi
  if [ "$BENCH_STARTED_POSTGRES" -eq 1 ] && [ "${IVS_BENCH_KEEP_SERVER:-0}" != 1 ]; then
    IVS_STATE_DIR="$BENCH_POSTGRES_STATE" "$IVS_REPO_ROOT/scripts/postgres.sh" stop >&2 || true
    BENCH_STARTED_POSTGRES=0
  fi
  if [ "$BENCH_STARTED_CASSANDRA" -eq 1 ] && [ "${IVS_BENCH_KEEP_SERVER:-0}" != 1 ]; then
    "$IVS_REPO_ROOT/scripts/cassandra.sh" stop >&2 || true
    BENCH_STARTED_CASSANDRA=0
  fi
}
trap bench_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Installs MariaDB when missing (as scripts/test.sh does; root), starts the private server if needed and
# exports IVS_MARIADB_*; sets MARIADB_PID.
bench_mariadb() {
  "$IVS_REPO_ROOT/scripts/mariadb.sh" install >&2 || ivs_die "MariaDB is not installed (scripts/mariadb.sh install)"
  if ! IVS_STATE_DIR="$BENCH_MARIADB_STATE" "$IVS_REPO_ROOT/scripts/mariadb.sh" status >/dev/null 2>&1; then
    BENCH_STARTED_MARIADB=1
  fi
  IVS_STATE_DIR="$BENCH_MARIADB_STATE" "$IVS_REPO_ROOT/scripts/mariadb.sh" start >/dev/null
  eval "$(IVS_STATE_DIR="$BENCH_MARIADB_STATE" "$IVS_REPO_ROOT/scripts/mariadb.sh" env)"
  MARIADB_PID=$(tr -dc '0-9' <"$IVS_MARIADB_PIDFILE")
  MARIADB_VERSION=$("$(command -v mariadbd || echo /usr/sbin/mariadbd)" --version 2>/dev/null | awk '{print $3}')
}

# Installs PostgreSQL when missing (root), starts the private server if needed and exports IVS_POSTGRES_*; sets
# POSTGRES_PID (the postmaster: PhaseBench adds its backends' CPU) and POSTGRES_VERSION.
bench_postgres() {
  "$IVS_REPO_ROOT/scripts/postgres.sh" install >&2 || ivs_die "PostgreSQL is not installed (scripts/postgres.sh install)"
  if ! IVS_STATE_DIR="$BENCH_POSTGRES_STATE" "$IVS_REPO_ROOT/scripts/postgres.sh" status >/dev/null 2>&1; then
    BENCH_STARTED_POSTGRES=1
  fi
  IVS_STATE_DIR="$BENCH_POSTGRES_STATE" "$IVS_REPO_ROOT/scripts/postgres.sh" start >/dev/null
  eval "$(IVS_STATE_DIR="$BENCH_POSTGRES_STATE" "$IVS_REPO_ROOT/scripts/postgres.sh" env)"
  POSTGRES_PID=$(head -n1 "$IVS_POSTGRES_PIDFILE" | tr -dc '0-9')
  POSTGRES_VERSION=$(/usr/lib/postgresql/15/bin/postgres --version 2>/dev/null | awk '{print $3}')
}

# Starts the private Cassandra if needed (state in IVS_CASSANDRA_STATE_DIR or .cache/cassandra) and exports
# IVS_CASSANDRA_*; sets CASSANDRA_PID and CASSANDRA_VERSION.
bench_cassandra() {
  if ! "$IVS_REPO_ROOT/scripts/cassandra.sh" status >/dev/null 2>&1; then
    BENCH_STARTED_CASSANDRA=1
  fi
  "$IVS_REPO_ROOT/scripts/cassandra.sh" start >/dev/null
  eval "$("$IVS_REPO_ROOT/scripts/cassandra.sh" env)"
  CASSANDRA_PID=$(tr -dc '0-9' <"$IVS_CASSANDRA_PIDFILE")
  CASSANDRA_VERSION=${IVS_CASSANDRA_VERSION:-5.0.9}
}

# Busy/idle condition: CPU busy share of the whole box over 1 s, sampled from /proc/stat before a run.
bench_condition() {
  local a b
  a=($(head -n1 /proc/stat)); sleep 1; b=($(head -n1 /proc/stat))
  local idle=$(( (b[4]+b[5]) - (a[4]+a[5]) )) total=0 i
  for i in 1 2 3 4 5 6 7 8; do total=$(( total + b[i] - a[i] )); done
  local busy=$(( total > 0 ? 100 * (total - idle) / total : 0 ))
  local cond=idle
  [ "$busy" -ge 25 ] && cond=busy
  echo "condition=$cond (box CPU busy ${busy}% in the second before the run, $(nproc) cores, load avg $(cut -d' ' -f1-3 /proc/loadavg))"
}

bench_header() {
  echo "# $1"
  echo "# date=$(date -u +%Y-%m-%dT%H:%M:%SZ) host-kernel=$(uname -r) java=$(java -version 2>&1 | awk -F'"' '/version/{print $2; exit}') commit=$(git rev-parse --short HEAD 2>/dev/null || echo -)"
  echo "# $(bench_condition)"
}

# Writes a ycsbivs config: bench_config FILE TYPE URL ENGINE TABLE RECORDS TERMINALS LOADERS WORKS_XML [extra top-level XML]
bench_config() {
  local file=$1 type=$2 url=$3 engine=$4 table=$5 records=$6 terminals=$7 loaders=$8 works=$9 extra=${10:-}
  local conn="<type>$type</type><url>$url</url>"
  if [ "$type" = MARIADB ]; then
    conn="$conn<username>$IVS_MARIADB_USER</username><passwordEnv>IVS_MARIADB_PASSWORD</passwordEnv>"
  elif [ "$type" = POSTGRESQL ]; then
    conn="$conn<username>$IVS_POSTGRES_USER</username><passwordEnv>IVS_POSTGRES_PASSWORD</passwordEnv>"
  fi
  local engine_xml=""
  [ -n "$engine" ] && engine_xml="<engine>$engine</engine>"
  cat >"$file" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<parameters>
  $conn
  <terminals>$terminals</terminals>
  <loaderThreads>$loaders</loaderThreads>
  <randomSeed>42</randomSeed>
  <batchsize>${BENCH_BATCH:-128}</batchsize>
  <recordcount>$records</recordcount>
  <fieldcount>10</fieldcount>
  <fieldlength>100</fieldlength>
  <extendfieldlength>100</extendfieldlength>
  <maxfieldlength>1600000</maxfieldlength>
  <extendmethod>client</extendmethod>
  $engine_xml
  <table>$table</table>
  $extra
  <transactiontypes>
    <transactiontype><name>ReadRecord</name></transactiontype>
    <transactiontype><name>ExtendRecord</name></transactiontype>
  </transactiontypes>
  <works>
$works
  </works>
  <monitor><enabled>false</enabled></monitor>
</parameters>
XML
}

# One <work> element: bench_work NAME (time:S|count:N) RATE ARRIVAL WEIGHTS DISTRIBUTION [WARMUP] [ACTIVE]
bench_work() {
  local name=$1 len=$2 rate=$3 arrival=$4 weights=$5 dist=$6 warmup=${7:-0} active=${8:-}
  local len_xml
  case "$len" in
    time:*) len_xml="<time>${len#time:}</time>" ;;
    count:*) len_xml="<count>${len#count:}</count>" ;;
  esac
  local arr=""
  [ "$rate" != unlimited ] && arr="<arrival>$arrival</arrival>"
  local act=""
  [ -n "$active" ] && act="<active_terminals>$active</active_terminals>"
  echo "    <work><name>$name</name>$len_xml<warmup>$warmup</warmup><rate>$rate</rate>$arr<weights>$weights</weights><distribution>$dist</distribution>$act</work>"
}

# Prints a config without connection secrets (there are none in it: the password comes from the environment).
bench_show_config() {
  echo "# config ($1):"
  grep -v '^<?xml' "$1" | sed 's/^/#   /'
}

# Prints the median of every row name's values in a benchmark program's output and its ratio to the median of
# the reference row: bench_medians FILE REFERENCE_NAME UNIT. Rows are "ROUND NAME... VALUE"; lines starting with
# '#' or 'round' are headers.
bench_medians() {
  python3 - "$1" "$2" "$3" <<'PY'
import collections, statistics, sys
path, reference, unit = sys.argv[1:4]
rows = collections.defaultdict(list)
for line in open(path):
    if line.startswith("#") or line.startswith("round"):
        continue
    parts = line.split()
    rows[" ".join(parts[1:-1])].append(float(parts[-1]))
ref = statistics.median(rows[reference])
for name, values in rows.items():
    m = statistics.median(values)
    print(f"{name:<50} {m:>8.1f} {unit}  x{m / ref:.2f}")
PY
}
