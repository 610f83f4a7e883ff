#!/usr/bin/env bash
# Fault injector: the benchmark's PostgreSQL sessions are terminated (pg_terminate_backend) while the server stays
# up, again and again for a while.
#
#   scripts/faults/postgres-terminate.sh URL TABLE SECONDS
#
# URL: a libpq URL (postgresql://user@host:port/db) whose user may signal the benchmark's backends (the same
# user, a superuser or a member of pg_signal_backend). Every 0.2 s for SECONDS one session terminates every
# client backend whose application_name is "ivsbench" (ivsbench sets it) and whose last statement named TABLE:
# the benchmark's terminals, not its monitor (whose statements read statistics views). Each terminal loses its
# connection and, with reconnectOnConnectionFailure, reconnects (docs/diagnosis.md, scenario 18b: the
# counterpart of a restart, the server up throughout). Prints the terminating session's pg_backend_pid() on the
# first line, the number of backends it terminated on the second.
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 3 ] || { echo "usage: $0 URL TABLE SECONDS" >&2; exit 2; }
url=$1 table=$2 seconds=$3
fault_pg_url "$url"
fault_name table "$table"
fault_seconds "$seconds"
fault_psql

psql "$url" -X -q -t -A -v ON_ERROR_STOP=1 <<SQL
SELECT pg_backend_pid();
CREATE TEMP TABLE terminated (n int);
DO \$\$
DECLARE
  t_end timestamptz := clock_timestamp() + interval '$seconds seconds';
  total int := 0;
  n int;
BEGIN
  WHILE clock_timestamp() < t_end LOOP
    PERFORM pg_stat_clear_snapshot();   -- pg_stat_activity is read once per transaction otherwise
    SELECT count(*) FILTER (WHERE ok) INTO n FROM (
      SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
      WHERE application_name = 'ivsbench' AND backend_type = 'client backend' AND pid <> pg_backend_pid()
        AND query ILIKE '%$table%') t;
    total := total + n;
    PERFORM pg_sleep(0.2);
  END LOOP;
  INSERT INTO terminated VALUES (total);
END
\$\$;
SELECT n FROM terminated;
SQL
