#!/usr/bin/env bash
# One CPU burner of scripts/bg-load.sh: spins DUTY % of every PERIOD_MS (on the wall clock) and sleeps the rest,
# and ends by itself after LIFETIME_S. On a box busier than the load it gets less CPU than DUTY: it never
# catches up on periods it fell behind in. EPOCHREALTIME (bash 5) reads the clock without starting a process.
#
#   bash scripts/lib/bg-burner.sh PERIOD_MS DUTY LIFETIME_S
set -u
period_us=$(( $1 * 1000 ))
busy_us=$(( $1 * 10 * $2 ))
now=${EPOCHREALTIME/./}
stop_at=$(( now + $3 * 1000000 ))
start=$now
while [ "$now" -lt "$stop_at" ]; do
  end=$(( start + busy_us ))
  while [ "${EPOCHREALTIME/./}" -lt "$end" ]; do :; done
  start=$(( start + period_us ))
  now=${EPOCHREALTIME/./}
  idle=$(( start - now ))
  if [ "$idle" -gt 0 ]; then
    printf -v pause '%d.%06d' $(( idle / 1000000 )) $(( idle % 1000000 ))
    sleep "$pause"
  else
    start=$now
  fi
  now=${EPOCHREALTIME/./}
done
