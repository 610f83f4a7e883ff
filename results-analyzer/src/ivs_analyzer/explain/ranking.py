"""The order of a run's findings: by the work the benchmark lost to each, most first (docs/diagnosis.md, "The
report's order"). The report's first finding is its answer, so the order is a stated severity, not the time or
the series a change was found in.

A step's or an episode's **work lost**, in seconds of the terminals' time, over its span (an episode: its
windows; a step: from its change to the next step or episode of the same phase, or the phase's end), against
the baseline of the up to BASELINE_WINDOWS measured windows before it (their medians; a change in the phase's
first window is measured against the phase's median):

* extra waiting: per window, (mean latency - the baseline's) x the operations completed in it, when positive -
  extra latency times the operations it affected;
* operations lost: per window, the larger of the completed operations short of the baseline's and the missed
  arrivals plus failed operations above the baseline's (so an operation that failed is not counted twice), each
  costing one operation's share of the terminals' time at the baseline (terminals x window / completed
  operations per window).

work lost = extra waiting + operations lost x that share. A change for the better loses nothing (0): it ranks
after every change for the worse. Ties keep the order the findings were found in (time within a phase). The
outliers and "nothing changed" findings follow the steps and episodes.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..detect.series import phase_series

BASELINE_WINDOWS = 10
RANKED_KINDS = ("step", "episode")


def _span_end(f: dict, others: list[dict], phase_end_ms: float) -> float:
    if f.get("duration_ms"):
        return f["time_ms"] + f["duration_ms"]
    later = [o["time_ms"] for o in others if o is not f and o["phase"] == f["phase"] and o["time_ms"] > f["time_ms"]]
    return min(later, default=phase_end_ms)


def work_lost(rows: pd.DataFrame, start_ms: float, end_ms: float, terminals: int | None) -> dict:
    """The work lost over windows [start_ms, end_ms) of one phase's ALL-type rows (detect.series.phase_series),
    against the windows before start_ms. Returns {"seconds", "extra_wait_s", "lost_operations",
    "failed_operations", "windows"}."""
    t = rows["time_ms"].to_numpy(dtype=float)
    ok = rows["ok"].to_numpy(dtype=float)
    lat = rows["lat_avg_us"].to_numpy(dtype=float)
    bad = rows["missed"].to_numpy(dtype=float) + rows["error"].to_numpy(dtype=float)
    before = np.flatnonzero(t < start_ms)[-BASELINE_WINDOWS:]
    base = before if len(before) else np.arange(len(t))
    span = np.flatnonzero((t >= start_ms) & (t < end_ms))
    base_ok = float(np.median(ok[base])) if len(base) else 0.0
    base_bad = float(np.median(bad[base])) if len(base) else 0.0
    base_lat = float(np.nanmedian(lat[base])) if len(base) and np.isfinite(lat[base]).any() else float("nan")
    extra = np.nan_to_num((lat[span] - base_lat) * ok[span], nan=0.0).clip(min=0.0) / 1e6
    lost = np.maximum.reduce([base_ok - ok[span], bad[span] - base_bad, np.zeros(len(span))]) if len(span) else \
        np.zeros(0)
    window_s = float(np.median(rows["window_ms"].to_numpy(dtype=float))) / 1000.0 if len(rows) else 1.0
    if base_ok > 0 and terminals:
        share = terminals * window_s / base_ok
    else:
        share = base_lat / 1e6 if np.isfinite(base_lat) else 0.0
    extra_s, lost_ops = float(extra.sum()), float(lost.sum())
    return {"seconds": extra_s + lost_ops * share, "extra_wait_s": extra_s, "lost_operations": lost_ops,
            "failed_operations": float(rows["error"].to_numpy(dtype=float)[span].sum()), "windows": int(len(span))}


def describe_work_lost(w: dict) -> str:
    return (f"work lost (the report's order): {w['seconds']:,.1f} s of the terminals' time - extra waiting "
            f"{w['extra_wait_s']:,.1f} s, {w['lost_operations']:,.0f} operations not done or failed "
            f"({w['failed_operations']:,.0f} failed) over {w['windows']} window{'s' if w['windows'] != 1 else ''}")


def rank_findings(found: list[dict], phase_rows, phase_end_ms, terminals: int | None) -> list[dict]:
    """Gives each step or episode its `work_lost` (and a line of evidence saying it) and returns the findings in
    the report's order: steps and episodes by work lost, most first (ties: as found), then the others.
    phase_rows(phase) -> that phase's ALL-type measured rows; phase_end_ms(phase) -> its end."""
    ranked = [f for f in found if f["kind"] in RANKED_KINDS]
    for f in ranked:
        rows = phase_rows(f["phase"])
        if rows is None or rows.empty:
            w = {"seconds": 0.0, "extra_wait_s": 0.0, "lost_operations": 0.0, "failed_operations": 0.0,
                 "windows": 0}
        else:
            w = work_lost(rows, f["time_ms"], _span_end(f, ranked, phase_end_ms(f["phase"], rows)), terminals)
        f["work_lost"] = w
        f["evidence"] = list(f.get("evidence") or []) + [describe_work_lost(w)]
    order = sorted(range(len(ranked)), key=lambda i: (-ranked[i]["work_lost"]["seconds"], i))
    return [ranked[i] for i in order] + [f for f in found if f["kind"] not in RANKED_KINDS]


def run_ranking(run) -> tuple:
    """The phase_rows and phase_end_ms callables of rank_findings for a loaded run (load.results.Run)."""
    cache: dict[int, pd.DataFrame] = {}

    def rows(phase: int) -> pd.DataFrame:
        if phase not in cache:
            cache[phase] = phase_series(run, phase)
        return cache[phase]

    def end(phase: int, r: pd.DataFrame) -> float:
        e = run.phase(phase).get("endMs")
        if e is not None:
            return float(e)
        return float(r["time_ms"].max() + r["window_ms"].max()) if len(r) else float("inf")

    return rows, end
