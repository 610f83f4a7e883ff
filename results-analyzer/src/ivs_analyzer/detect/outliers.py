"""Outliers: a point (an epoch, a few windows) that leaves its level and comes back is not a step.

Seen on real machines that switch between two speeds: single epochs run twice as fast in every mode, and
the per-epoch step detector, fitting lines through a few epochs, reported "steps" there. Outliers are found
first, listed on their own with the host's condition at that moment, and left out of the step detection.

A point is an outlier when it lies beyond *both* neighbouring levels in the same direction - the median of up
to `SIDE` points before it and the median of up to `SIDE` points after it - by more than `OUTLIER_SIGMAS`
times the series' noise (`robust_sigma`, from first differences, which a few outliers hardly move) and by the
minimum relative change. Beyond both sides is what separates it from a step (a step's first point sits at
the new level, the level after it) and from a trend (a point on a trend lies between its neighbours).
Medians of 3 points either side tolerate a second outlier next to the first, so a run of up to two outlying
epochs is still found.
"""
from __future__ import annotations

import numpy as np

from .series import phase_series, robust_sigma

OUTLIER_SIGMAS = 4.0
SIDE = 3


def _relative(gap: float, base: float, log_scale: bool) -> float:
    return float(np.expm1(gap)) if log_scale else gap / max(abs(base), 1e-9)


def _side_medians(signal: np.ndarray, side: int) -> tuple[list[float], list[float]]:
    """For every point i, the median of up to `side` points before it and of up to `side` points after it (nan
    where there are none): full windows in one vectorised median, the shorter ones at the ends one by one (the
    same numbers as a median per point)."""
    n = len(signal)
    full = np.median(np.lib.stride_tricks.sliding_window_view(signal, side), axis=1) if n >= side else np.empty(0)
    left, right = [float("nan")] * n, [float("nan")] * n
    for i in range(1, n):
        left[i] = float(full[i - side]) if i >= side else float(np.median(signal[:i]))
    for i in range(n - 1):
        right[i] = float(full[i + 1]) if i + 1 + side <= n else float(np.median(signal[i + 1:]))
    return left, right


def find_outliers(values: np.ndarray, log_scale: bool, min_relative_change: float,
                  side: int = SIDE) -> list[dict]:
    """Outlying points of a series: [{"index", "expected", "relative_change"}] (expected = the mean of the two
    side medians, in the series' units)."""
    values = np.asarray(values, dtype=float)
    n = len(values)
    if n < 2 * side + 1:
        return []
    signal = np.log(np.maximum(values, 1e-9)) if log_scale else values
    sigma = max(robust_sigma(signal), 0.01 if log_scale else 0.01 * abs(float(np.median(signal))), 1e-12)
    left_med, right_med = _side_medians(signal, side)
    out = []
    for i in range(1, n - 1):  # the first and last points have one side only: a step cannot be told from an outlier
        lm, rm = left_med[i], right_med[i]
        dl, dr = signal[i] - lm, signal[i] - rm
        if np.sign(dl) != np.sign(dr):
            continue
        gap = dl if abs(dl) < abs(dr) else dr   # the smaller departure must pass
        expected = (lm + rm) / 2.0
        rel = _relative(signal[i] - expected, expected, log_scale)
        if abs(gap) > OUTLIER_SIGMAS * sigma and abs(_relative(gap, signal[i] - gap, log_scale)) >= min_relative_change:
            out.append({"index": i, "expected": float(np.exp(expected)) if log_scale else expected,
                        "relative_change": rel})
    return out


def window_excursions(values: np.ndarray, log_scale: bool, min_relative_change: float, max_len: int,
                      limit: int = 10) -> list[dict]:
    """Short excursions in a window series (at most `max_len` consecutive windows, fewer than the shortest
    step segment): [{"start", "end", "expected", "relative_change"}], largest first, at most `limit`.
    Neighbour levels are medians of `2 * max_len - 1` windows either side so the rest of the excursion cannot
    be their median."""
    points = find_outliers(values, log_scale, min_relative_change, side=2 * max_len - 1)
    groups: list[dict] = []
    for p in points:
        if groups and p["index"] == groups[-1]["end"] and p["index"] - groups[-1]["start"] < max_len:
            g = groups[-1]
            g["end"] = p["index"] + 1
            if abs(p["relative_change"]) > abs(g["relative_change"]):
                g["relative_change"], g["expected"] = p["relative_change"], p["expected"]
        else:
            groups.append({"start": p["index"], "end": p["index"] + 1, "expected": p["expected"],
                           "relative_change": p["relative_change"]})
    groups.sort(key=lambda g: -abs(g["relative_change"]))
    return groups[:limit]


def split_severe(values: np.ndarray, excursions: list[dict], series: str, params) -> tuple[list[dict], list[dict]]:
    """(small, severe) excursions of a window series. Severity, not duration, decides what is explained: an
    excursion whose mean is ``params.severe_p99_ratio`` times (p99) or at most ``params.severe_throughput_ratio``
    of (throughput) the median of the ``params.severe_history`` windows before it is severe (a stall, a disk
    hog: an episode with a cause search, explain/changes.py); the rest are outliers. Each severe one gets
    ``baseline`` (that median). An excursion with fewer than 3 windows before it has no history: small."""
    values = np.asarray(values, dtype=float)
    small, severe = [], []
    for g in excursions:
        history = values[max(0, g["start"] - params.severe_history):g["start"]]
        history = history[~np.isnan(history)]
        level = float(np.mean(values[g["start"]:g["end"]]))
        base = float(np.median(history)) if len(history) >= 3 else float("nan")
        if series == "p99":
            hit = base > 0 and level >= params.severe_p99_ratio * base
        else:
            hit = base > 0 and level <= params.severe_throughput_ratio * base
        (severe if hit else small).append({**g, "baseline": base} if hit else g)
    return small, severe


# The host's condition beside a finding (here and in explain.epochs): host idle CPU, the server's and the client's.
HOST_COLUMNS = ["os.cpu.idle_pct", "proc.cpu_pct", "client.cpu_pct"]


def run_excursions(run, params, limit: int = 10) -> list[dict]:
    """Short excursions of each phase's throughput and p99 (fewer windows than a step segment) that are not severe
    (`split_severe`: those are episodes with a cause search), largest first, each with the host's condition then: {"<column>": mean over the excursion, "<column>.typical": median
    over the phase} for the host idle CPU, the server's and the client's CPU."""
    metrics = run.metric_frame()
    out = []
    for phase in sorted(run.samples["phase"].unique()):
        rows = phase_series(run, int(phase))
        if len(rows) < 2 * params.min_size + 1:
            continue
        window_ms = float(rows["window_ms"].median())
        times = rows["time_ms"].to_numpy(dtype=float)
        for name, values, log_scale in (("throughput", rows["throughput"].fillna(0.0).to_numpy(), False),
                                        ("p99", rows["lat_p99_us"].ffill().bfill().to_numpy(), True)):
            if np.isnan(values).all():
                continue
            found = window_excursions(values, log_scale, params.min_relative_change, params.min_size - 1, limit)
            for g in split_severe(values, found, name, params)[0]:
                t0, t1 = times[g["start"]], times[g["end"] - 1] + window_ms
                host = {}
                if metrics is not None:
                    idx = metrics.index.to_numpy(dtype=float)
                    inside, phase_rows = (idx >= t0) & (idx < t1), (idx >= times[0]) & (idx < times[-1] + window_ms)
                    for col in HOST_COLUMNS:
                        if col in metrics.columns and inside.any():
                            v = metrics[col].to_numpy(dtype=float)
                            if not np.isnan(v[inside]).all():
                                host[col] = float(np.nanmean(v[inside]))
                                host[col + ".typical"] = float(np.nanmedian(v[phase_rows]))
                out.append({"phase": int(phase), "series": name, "time_ms": int(t0), "windows": g["end"] - g["start"],
                            "value": float(np.mean(values[g["start"]:g["end"]])), "expected": g["expected"],
                            "relative_change": g["relative_change"], "host": host})
    out.sort(key=lambda x: -abs(x["relative_change"]))
    return out[:limit]
