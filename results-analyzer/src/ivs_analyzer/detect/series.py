"""What the detectors share: their parameters (`ChangeParams`, also the command line's options), the robust
noise estimate, local lines either side of a change, and a phase's measured windows (`phase_series`)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..load.results import Run


@dataclass
class ChangeParams:
    penalty_factor: float = 3.0
    min_size: int = 5
    min_relative_change: float = 0.10
    context_windows: int = 10
    top_metrics: int = 5
    min_points: int = 20
    same_signal_r: float = 0.98
    # A metric is listed as a possible cause only when its own break at the step is this many noise units.
    min_score: float = 3.0
    # ln(n) in the penalty uses at least this n (see the module doc: short per-epoch series).
    penalty_min_n: int = 0
    # A short excursion this large against the median of the `severe_history` windows before it is an episode
    # explained like a step, not an outlier: p99 this many times its level, or throughput at this share or less.
    severe_p99_ratio: float = 10.0
    severe_throughput_ratio: float = 0.5
    severe_history: int = 30


def robust_sigma(values: np.ndarray) -> float:
    """Noise level from first differences, insensitive to a few level shifts."""
    if len(values) < 3:
        return float(np.std(values)) if len(values) else 0.0
    d = np.diff(values)
    mad = np.median(np.abs(d - np.median(d)))
    return float(1.4826 * mad / math.sqrt(2.0))


def line_fit(signal: np.ndarray, start: int, end: int) -> tuple[float, float]:
    """(intercept, slope) of the least-squares line through signal[start:end] against the index."""
    x = np.arange(start, end, dtype=float)
    slope, intercept = np.polyfit(x, signal[start:end], 1)
    return float(intercept), float(slope)


def local_lines(signal: np.ndarray, edges: list[int], k: int, horizon: int):
    """Lines (intercept, slope) through the last `horizon` points before edges[k] and the first `horizon`
    points from it, each within its own segment. Local, so a curved trend (latency grows like the values,
    throughput like their inverse) does not look like a change just because a long segment is not straight."""
    x = edges[k]
    before = line_fit(signal, max(edges[k - 1], x - horizon), x)
    after = line_fit(signal, x, min(edges[k + 1], x + horizon))
    return before, after


def trend_departure(signal: np.ndarray, edges: list[int], k: int, horizon: int,
                    log_scale: bool) -> float:
    """Signed relative jump at edges[k]: the new segment's local line there against the previous segment's
    local line extended one point. Lines are fitted over up to `horizon` points either side; evaluating
    only at the change keeps the extrapolation short (a 3-point line extended further is mostly noise), so
    a trend that goes on, curved or not, is not a change. A change of slope without a jump is therefore
    not counted here (see the README)."""
    (b0, b1), (a0, a1) = local_lines(signal, edges, k, horizon)
    x = float(edges[k])
    gap = (a0 + a1 * x) - (b0 + b1 * x)
    return float(np.expm1(gap)) if log_scale else float(gap / max(abs(b0 + b1 * x), 1e-9))


def phase_series(run: Run, phase_index: int) -> pd.DataFrame:
    """ALL-type rows of one phase, restricted to windows fully inside the measured interval.

    Partial windows at the start and end of a phase show artificially low throughput; keeping
    them would make every phase boundary look like a step.
    """
    s = run.samples
    rows = s[(s["phase"] == phase_index) & (s["type"] == "ALL")].copy()
    if rows.empty:
        return rows
    ph = run.phase(phase_index)
    start = ph.get("measuredStartMs")
    end = ph.get("endMs")
    if start is not None:
        rows = rows[rows["time_ms"] >= float(start)]
    if end is not None:
        rows = rows[rows["time_ms"] + rows["window_ms"] <= float(end)]
    return rows.sort_values("time_ms").reset_index(drop=True)
