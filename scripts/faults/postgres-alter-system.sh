#!/usr/bin/env bash
# Fault injector: a DBA changes settings of the running PostgreSQL (ALTER SYSTEM SET ...; SELECT pg_reload_conf()),
# keeps them SECONDS, then resets them (ALTER SYSTEM RESET; reload: the configuration file's values again).
#
#   scripts/faults/postgres-alter-system.sh ADMIN_URL SECONDS NAME=VALUE...
#
# ADMIN_URL: a libpq URL of a superuser (ALTER SYSTEM needs one; scripts/postgres.sh's is postgres). Prints
# "NAME OLD -> NEW" for each setting (one line) once the server reloaded, and returns when they are reset
# (docs/diagnosis.md, scenario 22 and held-out H6: `setting-change`). Only settings a reload applies take effect.
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 3 ] || { echo "usage: $0 ADMIN_URL SECONDS NAME=VALUE..." >&2; exit 2; }
url=$1 seconds=$2
shift 2
fault_pg_url "$url"
fault_seconds "$seconds"
fault_settings "$@"
fault_psql
sql() { psql "$url" -X -q -t -A -v ON_ERROR_STOP=1 -c "$1"; }

said=() names=()
for s in "$@"; do
  name=${s%%=*} value=${s#*=}
  old=$(sql "SHOW $name")
  sql "ALTER SYSTEM SET $name = '$value'"
  said+=("$name $old -> $value") names+=("$name")
done
sql "SELECT pg_reload_conf()" >/dev/null
(IFS=';'; echo "${said[*]}" | sed 's/;/; /g')
sleep "$seconds"
for name in "${names[@]}"; do sql "ALTER SYSTEM RESET $name"; done
sql "SELECT pg_reload_conf()" >/dev/null
