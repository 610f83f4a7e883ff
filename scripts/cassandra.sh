#!/usr/bin/env bash
# A private Apache Cassandra 5.0 (one node on 127.0.0.1), for tests and demos.
#
#   scripts/cassandra.sh install        fetch cassandra-all and its dependencies with Maven into .cache/cassandra/lib
#   scripts/cassandra.sh start          start the node (installing first if needed); prints the env exports
#   scripts/cassandra.sh stop           clean shutdown (SIGTERM; SIGKILL after 60 s)
#   scripts/cassandra.sh status         "running"/"stopped"; exit 0 when running, 3 when not
#   scripts/cassandra.sh env            shell exports: eval "$(scripts/cassandra.sh env)"
#   scripts/cassandra.sh restart-fresh  stop, wipe the data, start (a "fresh instance")
#   scripts/cassandra.sh kill9          SIGKILL the server (fault tests); the next start replays the commit log
#
# Environment:
#   IVS_CASSANDRA_STATE_DIR   state directory (default: <repo>/.cache/cassandra): lib/, conf/, data/, log, pid
#   IVS_CASSANDRA_VERSION     org.apache.cassandra:cassandra-all version (default 5.0.9)
#   IVS_CASSANDRA_HEAP        -Xmx (default 512m)
#   IVS_CASSANDRA_BASE_PORT   first native (CQL) port tried (default 19042); the storage port is the next free one
#   IVS_CASSANDRA_LIB_DIR     where the server's jars are installed (default: <state>/lib); an instance with a
#                             state directory of its own can share the default one's (<repo>/.cache/cassandra/lib)
#   IVS_CASSANDRA_SETTINGS    more cassandra.yaml settings, one top-level `name: value` a line, appended to the
#                             generated file: for a scenario that needs a differently configured node
#                             (docs/diagnosis.md 16: a small memtable space); start it with its own
#                             IVS_CASSANDRA_STATE_DIR so the default node keeps the defaults
#
# The server is the Maven Central artifact run as its own JVM (org.apache.cassandra.service.CassandraDaemon):
# no tarball and no package repository is needed, only Maven. Cassandra 4.1 does not start on Java 17; 5.0
# does with the module flags of its own conf/jvm17-server.options. Configuration choices (the rest is
# Cassandra's default): one token (num_tokens 1: one node, no vnodes to spread), SimpleSnitch, periodic commit
# log sync (Cassandra's default mode), auto_snapshot false (a TRUNCATE or DROP must not leave copies behind on
# a small disk), everything under the state directory, and a ring delay of 1 s with no wait for gossip to
# settle, because a single node has no one to gossip with.
set -euo pipefail
IVS_LOG_TAG=cassandra
# shellcheck source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

STATE_DIR="${IVS_CASSANDRA_STATE_DIR:-$IVS_CACHE_DIR/cassandra}"
VERSION="${IVS_CASSANDRA_VERSION:-5.0.9}"
HEAP="${IVS_CASSANDRA_HEAP:-512m}"
BASE_PORT="${IVS_CASSANDRA_BASE_PORT:-19042}"
SETTINGS="${IVS_CASSANDRA_SETTINGS:-}"
while IFS= read -r setting; do
  [[ -z "$setting" || "$setting" =~ ^[a-z][a-z0-9_]*:\ [^[:cntrl:]]+$ ]] \
    || { echo "IVS_CASSANDRA_SETTINGS: not a 'name: value' line: $setting" >&2; exit 2; }
done <<<"$SETTINGS"
JAMM_VERSION=0.4.0
LIB="${IVS_CASSANDRA_LIB_DIR:-$STATE_DIR/lib}"
CONF="$STATE_DIR/conf"
YAML="$CONF/cassandra.yaml"
DATA="$STATE_DIR/data"
PIDFILE="$STATE_DIR/cassandra.pid"
LOG="$STATE_DIR/cassandra.log"
PORTFILE="$STATE_DIR/native.port"
START_TIMEOUT=120
KEYSPACE=ivsbench
DC=datacenter1

cmd_install() {
  if [ -f "$LIB/cassandra-all-$VERSION.jar" ] && [ -f "$LIB/jamm-$JAMM_VERSION.jar" ]; then
    ivs_log "Cassandra $VERSION already installed in $LIB"
    return 0
  fi
  ivs_require_java_maven
  local pomdir="$STATE_DIR/fetch"
  mkdir -p "$pomdir"
  # A throw-away pom whose only job is to name the server and its agent: Maven resolves the rest.
  cat >"$pomdir/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.ivsbench.local</groupId>
  <artifactId>cassandra-server</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.apache.cassandra</groupId><artifactId>cassandra-all</artifactId><version>$VERSION</version>
    </dependency>
    <dependency>
      <groupId>com.github.jbellis</groupId><artifactId>jamm</artifactId><version>$JAMM_VERSION</version>
    </dependency>
  </dependencies>
</project>
EOF
  rm -rf "$LIB.tmp"
  ivs_log "fetching cassandra-all $VERSION and its dependencies with Maven"
  (cd "$pomdir" && mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.7.1:copy-dependencies \
    -DoutputDirectory="$LIB.tmp" -DincludeScope=runtime) >&2 \
    || ivs_die "mvn dependency:copy-dependencies failed"
  rm -rf "$LIB"
  mv "$LIB.tmp" "$LIB"
  ivs_log "installed $(find "$LIB" -name '*.jar' | wc -l) jars ($(du -sh "$LIB" | cut -f1)) in $LIB"
}

native_port() { [ -f "$PORTFILE" ] && tr -dc '0-9' <"$PORTFILE"; }

# Waits up to $2 seconds for port $1 to be free. A JVM killed with SIGKILL is reported gone (its main thread a
# zombie) a moment before its last threads exit and its sockets close.
wait_port_free() {
  local deadline=$(( $(date +%s) + $2 ))
  until ivs_port_free "$1"; do
    [ "$(date +%s)" -ge "$deadline" ] && return 1
    sleep 0.1
  done
}

server_pid() {
  local pid
  [ -f "$PIDFILE" ] || return 1
  pid=$(tr -dc '0-9' <"$PIDFILE")
  ivs_pid_alive "$pid" || return 1
  # A recycled pid must not be mistaken for our server.
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "-Dcassandra.config=file://$YAML" || return 1
  echo "$pid"
}

write_conf() {
  local native=$1 storage=$2
  mkdir -p "$CONF" "$DATA"
  cat >"$YAML" <<EOF
# Generated by scripts/cassandra.sh; rewritten on every start. One node on 127.0.0.1.
cluster_name: ivsbench
num_tokens: 1
partitioner: org.apache.cassandra.dht.Murmur3Partitioner
endpoint_snitch: SimpleSnitch
listen_address: 127.0.0.1
rpc_address: 127.0.0.1
storage_port: $storage
native_transport_port: $native
seed_provider:
  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
    parameters:
      - seeds: "127.0.0.1:$storage"
data_file_directories:
  - $DATA/data
commitlog_directory: $DATA/commitlog
saved_caches_directory: $DATA/saved_caches
hints_directory: $DATA/hints
cdc_raw_directory: $DATA/cdc_raw
commitlog_sync: periodic
commitlog_sync_period: 10000ms
auto_snapshot: false
authenticator: AllowAllAuthenticator
authorizer: AllowAllAuthorizer
$SETTINGS
EOF
  cat >"$CONF/logback.xml" <<EOF
<configuration>
  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
    <file>$LOG</file>
    <encoder><pattern>%-5level [%thread] %date{ISO8601} %logger{0}: %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="FILE"/></root>
</configuration>
EOF
}

# The module flags of Cassandra's conf/jvm17-server.options (the server reaches into JDK internals).
JVM17_FLAGS=(
  -Djdk.attach.allowAttachSelf=true
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
  --add-exports java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED
  --add-exports java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports java.rmi/sun.rmi.server=ALL-UNNAMED
  --add-exports java.sql/java.sql=ALL-UNNAMED
  --add-exports java.base/java.lang.ref=ALL-UNNAMED
  --add-exports jdk.unsupported/sun.misc=ALL-UNNAMED
  --add-exports jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
  --add-exports jdk.attach/sun.tools.attach=ALL-UNNAMED
  --add-opens java.base/java.lang.module=ALL-UNNAMED
  --add-opens java.base/jdk.internal.loader=ALL-UNNAMED
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens java.base/jdk.internal.reflect=ALL-UNNAMED
  --add-opens java.base/jdk.internal.math=ALL-UNNAMED
  --add-opens java.base/jdk.internal.module=ALL-UNNAMED
  --add-opens java.base/jdk.internal.util.jar=ALL-UNNAMED
  --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens java.base/java.io=ALL-UNNAMED
  --add-opens java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens jdk.compiler/com.sun.tools.javac=ALL-UNNAMED
  --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/java.util=ALL-UNNAMED
  -Dio.netty.tryReflectionSetAccessible=true
)

cmd_env() {
  local port
  port=$(native_port)
  [ -n "$port" ] || ivs_die "no $PORTFILE yet: run scripts/cassandra.sh start"
  printf 'export IVS_CASSANDRA_PORT=%q\n' "$port"
  printf 'export IVS_CASSANDRA_URL=%q\n' "cassandra://127.0.0.1:$port/$KEYSPACE?dc=$DC"
  printf 'export IVS_CASSANDRA_PIDFILE=%q\n' "$PIDFILE"
}

cmd_status() {
  local pid
  if pid=$(server_pid); then
    echo "running (pid $pid, native port $(native_port), state $STATE_DIR)"
    return 0
  fi
  echo "stopped (state $STATE_DIR)"
  return 3
}

cmd_start() {
  local t0 native storage pid deadline offset
  t0=$(ivs_now_ms)
  if server_pid >/dev/null; then
    ivs_log "already running on native port $(native_port)"
    cmd_env
    return 0
  fi
  cmd_install
  mkdir -p "$STATE_DIR"
  rm -f "$PIDFILE"
  # Prefer the port of the last run (stable URLs); move on if something else took it meanwhile.
  native=$(native_port || true)
  if [ -z "$native" ] || ! wait_port_free "$native" 10; then native=$(ivs_find_free_port "$BASE_PORT"); fi
  storage=$(ivs_find_free_port "$((native + 1))")
  write_conf "$native" "$storage"
  echo "$native" >"$PORTFILE"
  offset=$(stat -c %s "$LOG" 2>/dev/null || echo 0)
  # Detached: its own session, so Ctrl-C in the calling shell or the end of a CI step does not reach it.
  setsid nohup java -Xms"$HEAP" -Xmx"$HEAP" -XX:+UseG1GC -Xss256k -XX:+ExitOnOutOfMemoryError \
    "${JVM17_FLAGS[@]}" \
    -javaagent:"$LIB/jamm-$JAMM_VERSION.jar" \
    -Dcassandra.config=file://"$YAML" \
    -Dlogback.configurationFile=file://"$CONF/logback.xml" \
    -Dcassandra.storagedir="$DATA" \
    -Dcassandra.logdir="$STATE_DIR" \
    -Dcassandra.skip_wait_for_gossip_to_settle=0 \
    -Dcassandra.ring_delay_ms=1000 \
    -Dcassandra-foreground=yes \
    -cp "$LIB/*" org.apache.cassandra.service.CassandraDaemon >>"$STATE_DIR/cassandra.out" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PIDFILE"
  deadline=$(( $(date +%s) + START_TIMEOUT ))
  # Ready when the native transport listens: that is the last thing the daemon starts.
  until ivs_port_open "$native"; do
    if ! ivs_pid_alive "$pid"; then
      ivs_log "the server exited during start; last lines of $STATE_DIR/cassandra.out and $LOG:"
      tail -n 20 "$STATE_DIR/cassandra.out" >&2 || true
      tail -c +"$((offset + 1))" "$LOG" 2>/dev/null | grep -E 'ERROR|Exception' | tail -n 20 >&2 || true
      rm -f "$PIDFILE"
      exit 1
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      ivs_log "not ready after ${START_TIMEOUT}s: SIGKILL"
      kill -9 "$pid" 2>/dev/null || true
      rm -f "$PIDFILE"
      exit 1
    fi
    sleep 0.2
  done
  ivs_log "ready on 127.0.0.1:$native (Cassandra $VERSION, pid $pid) in $(( $(ivs_now_ms) - t0 )) ms"
  cmd_env
}

cmd_stop() {
  local pid
  if ! pid=$(server_pid); then
    ivs_log "not running"
    rm -f "$PIDFILE"
    return 0
  fi
  # SIGTERM runs the daemon's shutdown hook (drains the native transport, flushes the commit log).
  kill -TERM "$pid" 2>/dev/null || true
  if ! ivs_wait_pid_exit "$pid" 60; then
    ivs_log "pid $pid still there after 60 s: SIGKILL"
    kill -9 "$pid" 2>/dev/null || true
    ivs_wait_pid_exit "$pid" 10 || ivs_die "pid $pid did not exit"
  fi
  rm -f "$PIDFILE"
  ivs_log "stopped"
}

cmd_kill9() {
  local pid
  pid=$(server_pid) || ivs_die "not running"
  kill -9 "$pid"
  ivs_wait_pid_exit "$pid" 10 || ivs_die "pid $pid survived SIGKILL"
  wait_port_free "$(native_port)" 10 || ivs_die "port $(native_port) still open after SIGKILL of pid $pid"
  ivs_log "killed pid $pid (SIGKILL)"
}

cmd_restart_fresh() {
  cmd_stop
  rm -rf "$DATA"
  cmd_start
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) cmd_env ;;
  restart-fresh) cmd_restart_fresh ;;
  kill9) cmd_kill9 ;;
  *) echo "usage: $0 {install|start|stop|status|env|restart-fresh|kill9}" >&2; exit 2 ;;
esac
