#!/usr/bin/env bash
# Fault injector (held-out H8): another session rebuilds the benchmark's table (ALTER TABLE <table>
# ENGINE=<engine>: a copy of the table under its metadata lock), again and again for SECONDS, in one session.
#
#   scripts/faults/mariadb-alter-rebuild.sh DEFAULTS_FILE DATABASE TABLE ENGINE SECONDS
#
# Prints the session's CONNECTION_ID() on the first line, and returns when the last rebuild begun before SECONDS
# passed has ended (docs/diagnosis.md, "The held-out set").
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 5 ] || { echo "usage: $0 DEFAULTS_FILE DATABASE TABLE ENGINE SECONDS" >&2; exit 2; }
defaults=$1 db=$2 table=$3 engine=$4 seconds=$5
fault_file "defaults file" "$defaults"
fault_name database "$db"
fault_name table "$table"
fault_name engine "$engine"
fault_seconds "$seconds"
client="$(fault_mariadb_client)"

# one session driven statement by statement: the next rebuild is sent when the last one answered
coproc MDB { "$client" --defaults-file="$defaults" -uroot -N -B --unbuffered "$db"; }
mdb_pid=$MDB_PID   # bash unsets MDB_PID once the client has exited
echo "SELECT CONNECTION_ID();" >&"${MDB[1]}"
read -r id <&"${MDB[0]}" || ivs_die "the client ended before it gave its connection id"
echo "$id"
end=$((SECONDS + seconds))
while [ "$SECONDS" -lt "$end" ]; do
  echo "ALTER TABLE \`$table\` ENGINE=$engine; SELECT 'rebuilt';" >&"${MDB[1]}"
  read -r _ <&"${MDB[0]}" || ivs_die "ALTER TABLE failed"
done
eval "exec ${MDB[1]}>&-"
wait "$mdb_pid"
