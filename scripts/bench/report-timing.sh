#!/usr/bin/env bash
# Times `python -m ivs_analyzer report` (the whole command, imports included) on two synthetic result folders
# of realistic size: a 1-hour run at 1 s windows (4 phases, 5 transaction types, ~100 monitor columns) and a
# 100-epoch, 4-mode experiment with per-phase sub-run folders. The goal is under 10 s each on the project's
# 2-core test machine; the figures depend on the machine's load, printed alongside.
# Usage: scripts/bench/report-timing.sh [WORK_DIR]   (default: a temporary folder, removed afterwards)
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=.cache/venv
if [[ ! -x "$VENV/bin/python" ]]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q -e 'results-analyzer[test]'
fi
WORK="${1:-}"
if [[ -z "$WORK" ]]; then
    WORK="$(mktemp -d)"
    trap 'rm -rf "$WORK"' EXIT
fi
"$VENV/bin/python" - "$WORK" <<'PY'
import os, resource, subprocess, sys, time
from pathlib import Path
sys.path.insert(0, "results-analyzer/tests")
import synth_cases

work = Path(sys.argv[1])
cases = [("1-hour run, 1 s windows, ~100 monitor columns", synth_cases.write_long_run, work / "run-1h"),
         ("100-epoch, 4-mode experiment, per-phase folders", synth_cases.write_big_experiment, work / "exp-100")]
limit = 10.0
print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
worst = 0.0
for label, write, path in cases:
    if not (path / "summary.json").exists() and not (path / "epochs.csv").exists():
        t0 = time.perf_counter()
        write(path)
        print(f"synthesised {label} in {time.perf_counter() - t0:.1f} s")
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ivs_analyzer", "report", str(path), "-o", str(work / ("out-" + path.name))],
                   check=True, stdout=subprocess.DEVNULL)
    took = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    worst = max(worst, took)
    # CPU time is what the report costs; wall time also waits for the other jobs on a shared machine
    print(f"report {label}: {took:.1f} s wall, {cpu:.1f} s CPU")
print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
print(f"condition: each report under {limit:.0f} s -> {'met' if worst < limit else 'NOT met'} (slowest {worst:.1f} s)")
PY
