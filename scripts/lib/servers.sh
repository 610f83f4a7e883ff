# The private servers of the Java tests (MariaDB+MyRocks, Cassandra, the MongoDB stand-in, PostgreSQL, and
# Prometheus, which scrapes a run's --metrics-listen endpoint, and the Prometheus exporters the exporter-fed monitor
# reads), started and stopped as scripts/test.sh does; also used by scripts/bench/flakes.sh. Source it after
# common.sh, from the repository root. ivs_start_servers exports IVS_MARIADB_* / IVS_CASSANDRA_* / IVS_MONGO_* /
# IVS_POSTGRES_* / IVS_PROMETHEUS_* / IVS_*_EXPORTER_URL.
# shellcheck shell=bash

# exporters last: its mysqld and postgres exporters read the private MariaDB and PostgreSQL started before it.
IVS_ALL_SERVERS="mariadb cassandra mongo postgres prometheus exporters"
ivs_servers_started=0

# ivs_start_servers [NAME...]: installs (when missing) and starts the named servers (default: all six, in
# the order above). Sets ivs_servers_started=1 once it tried to start one.
ivs_start_servers() {
  local name out
  for name in ${*:-$IVS_ALL_SERVERS}; do
    case "$name" in
      mariadb)
        scripts/mariadb.sh install || return 1
        ivs_servers_started=1
        out=$(scripts/mariadb.sh start) || return 1 ;;
      cassandra)
        scripts/cassandra.sh install || return 1
        ivs_servers_started=1
        out=$(scripts/cassandra.sh start) || return 1 ;;
      mongo)
        ivs_servers_started=1
        out=$(scripts/mongo-standin.sh start) || return 1 ;;
      postgres)
        scripts/postgres.sh install || return 1
        ivs_servers_started=1
        out=$(scripts/postgres.sh start) || return 1 ;;
      prometheus)
        scripts/prometheus.sh install || return 1
        ivs_servers_started=1
        out=$(scripts/prometheus.sh start) || return 1 ;;
      exporters)
        scripts/exporters.sh install || return 1
        ivs_servers_started=1
        out=$(scripts/exporters.sh start) || return 1 ;;
      *) ivs_log "unknown server: $name (known: $IVS_ALL_SERVERS)"; return 2 ;;
    esac
    eval "$out"
  done
}

# Stops every private server of this checkout; stopping a stopped one is a no-op.
ivs_stop_servers() {
  local rc=0
  scripts/exporters.sh stop || rc=1
  scripts/cassandra.sh stop || rc=1
  scripts/prometheus.sh stop || rc=1
  scripts/postgres.sh stop || rc=1
  scripts/mongo-standin.sh stop || rc=1
  scripts/mariadb.sh stop || rc=1
  return "$rc"
}

# The -D options that hand the servers' addresses to the Java tests (unset ones are empty: such a test fails).
ivs_server_props() {
  printf '%s\n' "-Divs.mariadb.url=${IVS_MARIADB_URL:-}" "-Divs.mongo.url=${IVS_MONGO_URL:-}" \
    "-Divs.postgres.url=${IVS_POSTGRES_URL:-}" "-Divs.postgres.pidfile=${IVS_POSTGRES_PIDFILE:-}" \
    "-Divs.cassandra.url=${IVS_CASSANDRA_URL:-}" "-Divs.prometheus.url=${IVS_PROMETHEUS_URL:-}" \
    "-Divs.prometheus.target=${IVS_PROMETHEUS_TARGET:-}" "-Divs.exporter.node=${IVS_NODE_EXPORTER_URL:-}" \
    "-Divs.exporter.process=${IVS_PROCESS_EXPORTER_URL:-}" "-Divs.exporter.mysqld=${IVS_MYSQLD_EXPORTER_URL:-}" \
    "-Divs.exporter.postgres=${IVS_POSTGRES_EXPORTER_URL:-}" "-Divs.prometheus.sd-dir=${IVS_PROMETHEUS_SD_DIR:-}"
}
