#!/usr/bin/env bash
# Times `python -m ivs_analyzer report` (the whole command, imports included) on two synthetic result folders
# of realistic size: a 1-hour run at 1 s windows (4 phases, 5 transaction types, ~100 monitor columns) and a
# 100-epoch, 4-mode experiment with per-phase sub-run folders. The goal is under 10 s each on the project's
# 2-core test machine; the figures depend on the machine's load, printed alongside.
#
# Usage: scripts/bench/report-timing.sh [--before REF [--rounds N]] [WORK_DIR]
#   WORK_DIR          keeps the synthetic folders for the next call (default: a temporary folder, removed after)
#   --before REF      the analyzer at git commit REF (its results-analyzer/src, exported into WORK_DIR) and the
#                     analyzer of this checkout, alternating (before, after, then after, before, ...) for N
#                     rounds (default 3) on the same folders: medians of wall and CPU time per build, and
#                     after/before of the CPU time per report against the bound 1.15 (CPU time: on a shared
#                     machine the wall time mostly waits for a core)
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV=.cache/venv
BEFORE="" ROUNDS=3
while [[ $# -gt 0 ]]; do
    case "$1" in
        --before) [[ $# -ge 2 && -n "$2" ]] || { echo "--before: missing git commit" >&2; exit 2; }
                  git rev-parse -q --verify "$2^{commit}" >/dev/null \
                      || { echo "--before: not a git commit: $2" >&2; exit 2; }
                  BEFORE="$2"; shift 2 ;;
        --rounds) [[ "${2:-}" =~ ^[1-9][0-9]?$ ]] || { echo "--rounds: not a count of 1-99: ${2:-}" >&2; exit 2; }
                  ROUNDS="$2"; shift 2 ;;
        -*) echo "unknown option: $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
[[ $# -le 1 ]] || { echo "too many arguments: $*" >&2; exit 2; }
if [[ ! -x "$VENV/bin/python" ]]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q -e 'results-analyzer[test]'
fi
WORK="${1:-}"
if [[ -z "$WORK" ]]; then
    WORK="$(mktemp -d)"
    trap 'rm -rf "$WORK"' EXIT
fi
BEFORE_SRC=""
if [[ -n "$BEFORE" ]]; then
    BEFORE_SRC="$WORK/before-$(git rev-parse --short "$BEFORE")"
    rm -rf "$BEFORE_SRC" && mkdir -p "$BEFORE_SRC"
    git archive "$BEFORE" results-analyzer/src | tar -x -C "$BEFORE_SRC"
    BEFORE_SRC="$BEFORE_SRC/results-analyzer/src"
fi
"$VENV/bin/python" - "$WORK" "$BEFORE_SRC" "${BEFORE:-}" "$ROUNDS" <<'PY'
import os, resource, statistics, subprocess, sys, time
from pathlib import Path
sys.path.insert(0, "results-analyzer/tests")
import synth_cases

work, before_src, before_ref, rounds = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
cases = [("1-hour run, 1 s windows, ~100 monitor columns", synth_cases.write_long_run, work / "run-1h"),
         ("100-epoch, 4-mode experiment, per-phase folders", synth_cases.write_big_experiment, work / "exp-100")]
limit, bound = 10.0, 1.15
print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
for label, write, path in cases:
    if not (path / "summary.json").exists() and not (path / "epochs.csv").exists():
        t0 = time.perf_counter()
        write(path)
        print(f"synthesised {label} in {time.perf_counter() - t0:.1f} s")


def timed(path: Path, src: str | None) -> tuple[float, float]:
    """(wall, CPU) seconds of one `report` with the analyzer of this checkout, or the one under src."""
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src  # ahead of the editable install of this checkout
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ivs_analyzer", "report", str(path), "-o", str(work / ("out-" + path.name))],
                   check=True, stdout=subprocess.DEVNULL, env=env)
    took = time.perf_counter() - t0
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return took, (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)


if not before_src:
    worst = 0.0
    for label, _, path in cases:
        took, cpu = timed(path, None)
        worst = max(worst, took)
        # CPU time is what the report costs; wall time also waits for the other jobs on a shared machine
        print(f"report {label}: {took:.1f} s wall, {cpu:.1f} s CPU")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"condition: each report under {limit:.0f} s -> {'met' if worst < limit else 'NOT met'} (slowest {worst:.1f} s)")
    sys.exit(0)

times = {(b, p.name): [] for b in ("before", "after") for _, _, p in cases}
for r in range(rounds):
    order = ("before", "after") if r % 2 == 0 else ("after", "before")
    for label, _, path in cases:
        for build in order:
            took, cpu = timed(path, before_src if build == "before" else None)
            times[(build, path.name)].append((took, cpu))
            print(f"round {r + 1} {build:6} {label}: {took:.1f} s wall, {cpu:.1f} s CPU "
                  f"(load {os.getloadavg()[0]:.2f})", flush=True)
print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
met = True
for label, _, path in cases:
    med = {b: (statistics.median(t for t, _ in times[(b, path.name)]), statistics.median(c for _, c in times[(b, path.name)]))
           for b in ("before", "after")}
    ratio = med["after"][1] / med["before"][1]
    met &= ratio <= bound
    print(f"{label}: before ({before_ref}) {med['before'][0]:.1f} s wall / {med['before'][1]:.1f} s CPU, after "
          f"{med['after'][0]:.1f} s / {med['after'][1]:.1f} s (medians of {rounds}); after/before CPU {ratio:.2f}")
print(f"condition: after/before CPU time <= {bound} for both -> {'met' if met else 'NOT met'}")
PY
