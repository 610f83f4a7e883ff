"""The drift check's table (scripts/bench/drift-check.sh): per condition (idle, loaded) the mode ratios of one
shortened setting, and whether the two conditions agree.

A ratio is num/den's run-phase mean latency, epoch by epoch, summarised as the geometric mean of the per-epoch
ratios with its HAC 95 % interval (explain/verdicts.paired: the figure book's own method). Two estimates:
*epochs* from epochs.csv (each mode's slices added up), *slices* from slices.csv (per epoch the mean over rounds
of log(num slice r / den slice r), the two slices of one round being adjacent in time). The conditions agree
when the interval of loaded/idle holds 1: the difference of the two log estimates, its 95 % half-width the root of
the sum of the two intervals' squared half-widths (the runs are independent; each half-width with its own
fixed-b critical value, so the combination is at least as wide as a normal one on the two standard errors).

Usage: drift_table.py WORK_DIR NUM,DEN[,...] COMMAND   (ratios: each later mode over the first: main/clean ...)
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from ivs_analyzer.explain import verdicts

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "lib"))
import box_summary  # noqa: E402  (scripts/lib: repro.sh's quiet rule)

sys.path.pop(0)

CONDITIONS = ("idle", "loaded")


def epoch_ratio(epochs: pd.DataFrame, num: str, den: str) -> dict | None:
    """num/den from epochs.csv's run_lat_avg_us: verdicts.paired (log units, HAC)."""
    def series(mode: str) -> pd.Series:
        rows = epochs[epochs["mode"] == mode]
        return pd.Series(rows["run_lat_avg_us"].astype(float).to_numpy(), index=rows["epoch"].astype(int))
    return verdicts.paired(series(num), series(den))


def slice_ratio(slices: pd.DataFrame, num: str, den: str) -> dict | None:
    """num/den from adjacent slices: per epoch the mean over rounds of log(num_r / den_r), then its HAC mean."""
    a = slices[slices["mode"] == num].set_index(["epoch", "round"])["run_lat_avg_us"].astype(float)
    b = slices[slices["mode"] == den].set_index(["epoch", "round"])["run_lat_avg_us"].astype(float)
    both = a.index.intersection(b.index)
    logs = np.log(a[both] / b[both])
    per_epoch = logs.groupby(level="epoch").mean().sort_index()
    out = verdicts.series_mean(per_epoch.to_numpy())
    if out is not None:
        out["method"] = "per-epoch mean log ratio of adjacent slices"
    return out


def quotient(idle: dict | None, loaded: dict | None) -> tuple[float, float, float] | None:
    """loaded/idle with its 95 % interval, from two independent log-unit estimates with their intervals."""
    if idle is None or loaded is None:
        return None
    d = loaded["estimate"] - idle["estimate"]
    half = math.hypot((idle["high"] - idle["low"]) / 2, (loaded["high"] - loaded["low"]) / 2)
    return math.exp(d), math.exp(d - half), math.exp(d + half)


def fmt(r: dict | None) -> str:
    """An estimate in log units as its ratio with the 95 % interval, n and the effective sample size."""
    if r is None:
        return "-"
    return (f"{math.exp(r['estimate']):.3f} ({math.exp(r['low']):.3f}-{math.exp(r['high']):.3f}), "
            f"n {r['n']}, n_eff {r['n_eff']:.0f}")


IDLE_LOAD = 1.5  # without the others' figure (box.log before box_sampler.py): the run's own ~1 core plus half a core


def _box(folder: Path) -> str:
    run = folder / "run.json"
    if not run.is_file():
        return "-"
    j = json.loads(run.read_text(encoding="utf-8"))
    b = j.get("box", {})
    others = b.get("others_cpu_pct_median")
    # repro.sh's quiet rule (scripts/lib/box_summary.py): the others' CPU and the hypervisor's steal, each at most
    # 10 % of a core at the median
    why = box_summary.not_quiet(b) if others is not None else (
        [f"1-min load median {b.get('load1_median')}"] if (b.get("load1_median") or 0) > IDLE_LOAD else [])
    busy = folder.name == "idle" and bool(why)
    if busy:
        print(f"warning: the idle condition was not idle ({'; '.join(why)}): run it again alone (--only idle)",
              file=sys.stderr)
    steal = b.get("steal_cpu_pct_median")
    return (f"{j.get('seconds', '?')} s; load (1 min) median {b.get('load1_median')}, max {b.get('load1_max')} "
            f"on {b.get('cores')} cores; other processes {others} % of a core (median)"
            + (f"; steal {steal} % of a core (median)" if steal is not None else "")
            + (" - NOT IDLE" if busy else ""))


def table(work: Path, modes: list[str], command: str) -> str:
    lines = ["# Drift check", "", f"Command: `{command}`", "",
             "| condition | ratio | from epochs.csv | from adjacent slices | run (duration; box) |",
             "|---|---|---|---|---|"]
    found: dict[tuple[str, str, str], dict | None] = {}
    for cond in CONDITIONS:
        folder = work / cond
        if not (folder / "epochs.csv").is_file():
            lines.append(f"| {cond} | - | not run | - | - |")
            continue
        epochs = pd.read_csv(folder / "epochs.csv")
        slices = pd.read_csv(folder / "slices.csv") if (folder / "slices.csv").is_file() else None
        for other in modes[1:]:
            e = epoch_ratio(epochs, modes[0], other)
            s = slice_ratio(slices, modes[0], other) if slices is not None else None
            found[(cond, other, "epochs")] = e
            found[(cond, other, "slices")] = s
            lines.append(f"| {cond} | {modes[0]}/{other} | {fmt(e)} | {fmt(s)} | {_box(folder)} |")
    lines += ["", "| ratio | estimate | loaded/idle (95 %) | agree (interval holds 1) |", "|---|---|---|---|"]
    for other in modes[1:]:
        for kind in ("epochs", "slices"):
            q = quotient(found.get(("idle", other, kind)), found.get(("loaded", other, kind)))
            if q is None:
                continue
            lines.append(f"| {modes[0]}/{other} | {kind} | {q[0]:.3f} ({q[1]:.3f}-{q[2]:.3f}) | "
                         f"{'yes' if q[1] <= 1 <= q[2] else 'no'} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    work, modes, command = Path(argv[0]), argv[1].split(","), argv[2]
    text = table(work, modes, command)
    (work / "drift.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
