#!/usr/bin/env bash
# Fault injector: another session takes FLUSH TABLES WITH READ LOCK and holds it: reads go on, every write
# waits ("Waiting for backup lock" or "Waiting for global read lock", the server's own words).
#
#   scripts/faults/mariadb-global-read-lock.sh DEFAULTS_FILE SECONDS
#
# DEFAULTS_FILE: a client option file reaching the server as root (the private server's my.cnf from
# scripts/mariadb.sh). A wait kind the analyzer's tests were never shown (docs/diagnosis.md, scenario 6).
# Prints the holding session's CONNECTION_ID() on the first line, returns once it has unlocked.
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 2 ] || { echo "usage: $0 DEFAULTS_FILE SECONDS" >&2; exit 2; }
defaults=$1 seconds=$2
fault_file "defaults file" "$defaults"
fault_seconds "$seconds"
client="$(fault_mariadb_client)"

"$client" --defaults-file="$defaults" -uroot -N -B --unbuffered \
  -e "SELECT CONNECTION_ID(); FLUSH TABLES WITH READ LOCK; DO SLEEP($seconds); UNLOCK TABLES;"
