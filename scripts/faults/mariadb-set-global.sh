#!/usr/bin/env bash
# Fault injector: a DBA changes global settings of the running MariaDB (SET GLOBAL), keeps them SECONDS, and puts
# the old values back.
#
#   scripts/faults/mariadb-set-global.sh DEFAULTS_FILE SECONDS NAME=VALUE...
#
# Prints "NAME OLD -> NEW" for each setting (one line, "; " between them) once they are set, and returns when the
# old values are back (docs/diagnosis.md, scenario 21: `setting-change`).
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 3 ] || { echo "usage: $0 DEFAULTS_FILE SECONDS NAME=VALUE..." >&2; exit 2; }
defaults=$1 seconds=$2
shift 2
fault_file "defaults file" "$defaults"
fault_seconds "$seconds"
fault_settings "$@"
client="$(fault_mariadb_client)"
sql() { "$client" --defaults-file="$defaults" -uroot -N -B -e "$1"; }

set_to=() restore=() said=()
for s in "$@"; do
  name=${s%%=*} value=${s#*=}
  old=$(sql "SELECT @@GLOBAL.$name")
  # a number goes back as a number (MariaDB refuses a quoted value for a numeric variable), text quoted
  if [[ "$old" =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; then back=$old; else back="'$old'"; fi
  set_to+=("SET GLOBAL $name = $value;") restore+=("SET GLOBAL $name = $back;")
  said+=("$name $old -> $value")
done
sql "${set_to[*]}"
(IFS=';'; echo "${said[*]}" | sed 's/;/; /g')
sleep "$seconds"
sql "${restore[*]}"
