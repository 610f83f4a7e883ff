#!/usr/bin/env bash
# Fault injector: a process that is neither the database server nor the client takes the host's disk.
#
#   scripts/faults/disk-hog.sh DIR SECONDS
#
# Writes 1 MB blocks of zeros with O_DIRECT (dd oflag=direct, so the page cache does not absorb them) to a file
# of its own in DIR, over and over, prints the writer's pid on the first line (the culprit a report should point
# to as "another process"), and returns after SECONDS with the file deleted (docs/diagnosis.md, scenario 11).
# DIR should be on the device the database's data directory lives on: that is the disk the hog takes. The
# writer loop is ended by timeout(1) with SIGTERM, so it stops also where the caller runs in the background
# with SIGINT ignored.
set -euo pipefail
IVS_LOG_TAG=fault
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 2 ] || { echo "usage: $0 DIR SECONDS" >&2; exit 2; }
dir=$1 seconds=$2
[ -d "$dir" ] && [ -w "$dir" ] || { echo "dir: not a writable directory: $dir" >&2; exit 2; }
fault_seconds "$seconds"

file="$dir/disk-hog.$$"
trap 'rm -f "$file"' EXIT
# 256 MB per pass, rewritten in place: the file never holds more than that
timeout -s TERM "$seconds" bash -c \
  'while :; do dd if=/dev/zero of="$1" oflag=direct bs=1M count=256 conv=notrunc status=none; done' _ "$file" &
pid=$!
echo "$pid"
rc=0
wait "$pid" || rc=$?
# timeout's own exit code 124 is the normal end
[ "$rc" -eq 0 ] || [ "$rc" -eq 124 ] || exit "$rc"
