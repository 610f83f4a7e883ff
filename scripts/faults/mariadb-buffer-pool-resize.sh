#!/usr/bin/env bash
# Fault injector (held-out H5): a DBA shrinks InnoDB's buffer pool of the running server (SET GLOBAL
# innodb_buffer_pool_size = BYTES), keeps it SECONDS, and gives it its old size back.
#
#   scripts/faults/mariadb-buffer-pool-resize.sh DEFAULTS_FILE BYTES SECONDS
#
# The server resizes in the background (MariaDB 10.11.19 to any size: its innodb_buffer_pool_chunk_size is
# deprecated, with no effect; older servers resize in whole chunks of it). Prints
# "innodb_buffer_pool_size OLD -> NEW" on the first line once the server
# reports the resize done (or after SECONDS, whichever first), and returns when the old size is set again
# (docs/diagnosis.md, "The held-out set").
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 3 ] || { echo "usage: $0 DEFAULTS_FILE BYTES SECONDS" >&2; exit 2; }
defaults=$1 bytes=$2 seconds=$3
fault_file "defaults file" "$defaults"
[[ "$bytes" =~ ^[0-9]+$ ]] && [ "$bytes" -ge 5242880 ] || { echo "bytes: not a size of 5 MB or more: $bytes" >&2; exit 2; }
fault_seconds "$seconds"
client="$(fault_mariadb_client)"
sql() { "$client" --defaults-file="$defaults" -uroot -N -B -e "$1"; }

old=$(sql "SELECT @@GLOBAL.innodb_buffer_pool_size")
sql "SET GLOBAL innodb_buffer_pool_size = $bytes"
end=$((SECONDS + seconds))
until [ "$(sql "SELECT @@GLOBAL.innodb_buffer_pool_size")" -le "$bytes" ] || [ "$SECONDS" -ge "$end" ]; do sleep 0.2; done
echo "innodb_buffer_pool_size $old -> $(sql "SELECT @@GLOBAL.innodb_buffer_pool_size")"
while [ "$SECONDS" -lt "$end" ]; do sleep 0.2; done
sql "SET GLOBAL innodb_buffer_pool_size = $old"
