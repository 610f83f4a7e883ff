"""Step-change detection on the client series, explained by the monitor metrics.

Idea (the trace analyzer of OLTP-Bench): when throughput or p99 latency changes level during a
phase, look at every resource / database metric around the same instant and rank them by how much
they moved. The metric that stepped at the same time is the first suspect.

Detection
---------
PELT (pelt.py: the recursion of ruptures' Pelt, vectorised) with the ``l2`` cost, i.e. changes in the mean of a
piecewise-constant signal.
For the l2 cost the classic penalty (BIC-like) is ``2 * sigma^2 * log(n)``; we use
``penalty_factor * sigma^2 * log(n)`` with ``penalty_factor = 3`` by default, a little stricter than
BIC because benchmark series are not Gaussian (GC pauses, checkpoints give single-window spikes).
``sigma`` is estimated robustly from the first differences (MAD of diff / sqrt(2)): steps and slow
drifts hardly affect the differences, so the estimate is the window-to-window noise, not the step.
A floor of 1% of the series median keeps the penalty from collapsing on an almost flat series
(e.g. an open-loop run that hits its target rate exactly).

The p99 series is analysed on log scale: latency noise is multiplicative and spikes are one-sided,
so the log makes the l2 cost's Gaussian assumption less wrong. Reported values are in microseconds.

``min_size`` (default 5 windows) forbids segments shorter than that, so a spike is not a "step"; and short
excursions (fewer windows than that, beyond both neighbouring levels, then back: outliers.py) are set to
their neighbours' level before the detection, so a one-window dip is not stretched into a five-window step.
They are listed as outliers instead.

Per-epoch series (``epochs.py``) use the same PELT and penalty with two extensions: ``trend=True`` fits a
line per segment (ruptures ``linear`` cost) because those series grow with the value sizes by design and a
piecewise-constant fit would cut a steady trend into stairs; and ``penalty_min_n`` holds ln(n) at its
n = 20 value for short series, where sigma comes from only a few differences and is easily underestimated.
For the window series n >= min_points = 20 always, so neither changes anything there.

Filtering tiny shifts
---------------------
A detected change is kept only if the segment means on both sides differ by at least
``min_relative_change`` (default 0.10 = 10%) of the level before, and their medians too, in the same
direction: a segment whose mean moved for one or two far-off windows (a busy box's spike, the phase's last
windows, where no excursion can be told) keeps its median, so that move is not a step. Changes under the threshold are
removed one by one (weakest first) and the neighbouring segments merged, then re-evaluated.

Explaining
----------
For each kept change the context is up to ``context_windows`` windows (default 10) either side, never across
the neighbouring changes (`find_steps` returns it with each step); explain/changes.py searches the cause there:
explain/metrics.py ranks the monitor metrics by their own break at the change (a line plus a step, so a metric on
its own trend is no cause), sets apart those that follow throughput at a constant amount per operation
(``follows``) and groups copies of one signal (``same``); explain/cpu.py says who took the host's CPU. A change
whose level comes back at the next change gets ``duration_ms`` (an episode: a stall, a hog).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..load.results import Run
from .outliers import split_severe, window_excursions
from .pelt import pelt_l2, pelt_linear
from .series import ChangeParams, phase_series, robust_sigma, trend_departure


def penalty(signal: np.ndarray, params: ChangeParams, log_scale: bool) -> float:
    """PELT penalty: penalty_factor * sigma^2 * ln(max(n, penalty_min_n)) (see the module doc)."""
    sigma = robust_sigma(signal)
    floor = 0.01 * abs(float(np.median(signal))) if not log_scale else 0.01
    sigma = max(sigma, floor, 1e-9)
    n = max(len(signal), params.penalty_min_n)
    return params.penalty_factor * sigma * sigma * math.log(n)


def _level_shift(values: np.ndarray, edges: list[int], k: int) -> float:
    """Relative change between the segments either side of edges[k]: the smaller of the change of their means
    and of their medians, 0 when those two disagree in direction. A segment whose mean moved only because one
    or two of its windows are far off (a spike of the busy box, the last windows of a phase) has its median
    where it was: a move of 1-2 windows is not a lasting change (severe ones are episodes: `without_excursions`)."""
    seg_b, seg_a = values[edges[k - 1]:edges[k]], values[edges[k]:edges[k + 1]]
    mean_b, mean_a = float(np.mean(seg_b)), float(np.mean(seg_a))
    med_b, med_a = float(np.median(seg_b)), float(np.median(seg_a))
    by_mean = (mean_a - mean_b) / max(abs(mean_b), 1e-9)
    by_median = (med_a - med_b) / max(abs(med_b), 1e-9)
    if by_mean * by_median <= 0:
        return 0.0
    return min(abs(by_mean), abs(by_median))


def detect_steps(values: np.ndarray, params: ChangeParams, log_scale: bool = False,
                 trend: bool = False) -> list[int]:
    """Indices i where a new level starts (values[i] is the first point after the change).

    trend=False: piecewise-constant signal (ruptures ``l2``), size of a change = relative difference of the
    segment means. trend=True: piecewise-linear signal (ruptures ``linear`` on [1, index]), size = how far
    the new segment departs from the previous segment's line (`trend_departure`); used for per-epoch
    series, which grow with the value sizes by design, so that a steady trend is not cut into stairs.
    """
    values = np.asarray(values, dtype=float)
    n = len(values)
    min_size = max(params.min_size, 3) if trend else params.min_size  # a line needs 3 points to have a residual
    if n < max(params.min_points, 2 * min_size + 1):
        return []
    signal = np.log(np.maximum(values, 1e-9)) if log_scale else values
    pen = penalty(signal, params, log_scale)
    if trend:
        bkps = [b for b in pelt_linear(signal, pen, min_size) if b < n]
    else:
        bkps = [b for b in pelt_l2(signal, pen, min_size) if b < n]

    # Drop changes under the minimum relative change, weakest first, merging segments.
    while bkps:
        edges = [0] + bkps + [n]
        rels = [abs(trend_departure(signal, edges, k, params.context_windows, log_scale)) if trend
                else _level_shift(values, edges, k) for k in range(1, len(edges) - 1)]
        weakest = int(np.argmin(rels))
        if rels[weakest] >= params.min_relative_change:
            break
        del bkps[weakest]
    return bkps


def _segment_context(edges: list[int], k: int, horizon: int) -> tuple[int, int, int]:
    """(first, step, end) window indices of the context of the change at edges[k]: up to `horizon` windows
    either side, never across the neighbouring changes (an 8-window stall between two changes must not be
    diluted by the windows after it recovered)."""
    b = edges[k]
    return max(edges[k - 1], b - horizon), b, min(edges[k + 1], b + horizon)


def _duration(values: np.ndarray, edges: list[int], k: int, times: np.ndarray, window_ms: float,
              min_relative_change: float) -> float | None:
    """How long the level after edges[k] lasted when the next change brings it back to the level before
    (an episode: a stall, a hog); None when it does not come back in this phase."""
    if k + 1 >= len(edges) - 1:
        return None
    before = float(np.mean(values[edges[k - 1]:edges[k]]))
    back = float(np.mean(values[edges[k + 1]:edges[k + 2]]))
    if abs(back - before) > min_relative_change * max(abs(before), 1e-9):
        return None
    return float(times[edges[k + 1]] - times[edges[k]])


def without_excursions(values: np.ndarray, params: ChangeParams, log_scale: bool,
                       series: str = "throughput") -> tuple[np.ndarray, list[dict]]:
    """(the series with its short excursions set to their neighbours' level, the severe ones among them).

    Short excursions (outliers.window_excursions: fewer windows than a step segment, beyond both neighbouring
    levels, then back) are left out of the step detection, where min_size would otherwise stretch a one-window
    dip into a five-window "episode". The small ones are listed as outliers (outliers.run_excursions); the
    severe ones (outliers.split_severe: p99 x10, throughput halved) are returned to be explained as episodes."""
    out = np.array(values, dtype=float)
    found = window_excursions(out, log_scale, params.min_relative_change, params.min_size - 1, limit=len(out))
    _, severe = split_severe(out, found, series, params)
    for g in found:
        out[g["start"]:g["end"]] = g["expected"]
    return out, sorted(severe, key=lambda g: g["start"])


@dataclass
class Context:
    """Where a step's cause is searched (explain/changes.py): the phase's measured windows (their start times
    and throughput), the windows [first, at) before the step and [at, end) from it, and how few monitor rows
    either side still count (1 for a short severe episode)."""
    times: np.ndarray
    throughput: np.ndarray
    window_ms: float
    first: int
    at: int
    end: int
    min_rows: int = 2


def find_steps(run: Run, params: ChangeParams) -> list[tuple[dict, Context]]:
    """The steps of each phase's throughput and p99 (`detect_steps` after `without_excursions`) and the severe
    short episodes, in phase and series order: ({"phase", "series", "time_ms", "before", "after", ["severe"],
    "relative_change", "duration_ms"}, the context to explain it in)."""
    out: list[tuple[dict, Context]] = []
    for phase_index in sorted(run.samples["phase"].unique()):
        rows = phase_series(run, int(phase_index))
        if rows.empty:
            continue
        window_ms = float(rows["window_ms"].median())
        times = rows["time_ms"].to_numpy(dtype=float)
        tput_values = rows["throughput"].fillna(0.0).to_numpy()
        series = {
            "throughput": (tput_values, False),
            # Empty p99 means no operation finished in that window; carry the neighbour level.
            "p99": (rows["lat_p99_us"].ffill().bfill().to_numpy(), True),
        }
        for name, (values, log_scale) in series.items():
            if np.isnan(values).all():
                continue
            raw = values
            values, severe = without_excursions(values, params, log_scale, name)
            bkps = detect_steps(values, params, log_scale=log_scale)
            edges = [0] + bkps + [len(values)]
            for k, b in enumerate(bkps, start=1):
                before = float(np.mean(values[edges[k - 1]:b]))
                after = float(np.mean(values[b:edges[k + 1]]))
                first, _, end = _segment_context(edges, k, params.context_windows)
                out.append(({"phase": int(phase_index), "series": name, "time_ms": int(times[b]),
                             "before": before, "after": after,
                             "relative_change": (after - before) / max(abs(before), 1e-9),
                             "duration_ms": _duration(values, edges, k, times, window_ms, params.min_relative_change)},
                            Context(times, tput_values, window_ms, first, b, end)))
            for g in severe:
                # a short episode that is large: explained like a step, from its context before to its end
                start, stop = g["start"], g["end"]
                first = max(0, start - params.context_windows)
                after = float(np.mean(raw[start:stop]))
                out.append(({"phase": int(phase_index), "series": name, "time_ms": int(times[start]),
                             "before": g["baseline"], "after": after, "severe": True,
                             "relative_change": (after - g["baseline"]) / max(abs(g["baseline"]), 1e-9),
                             "duration_ms": float(times[stop - 1] + window_ms - times[start])},
                            Context(times, tput_values, window_ms, first, start, stop, min_rows=1)))
    return out
