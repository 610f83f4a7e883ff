"""Step changes across the epochs of a YCSB-IVS experiment (their explanation: explain/epochs.py).

The per-window detector (steps.py) sees one phase; the paper's effects show across epochs: a mode's
run-phase latency that starts to degrade faster after some number of extension cycles, main-run
leaving clean-run (history effect), clean-run leaving average-baseline (non-uniform sizes effect).

Series (one value per epoch, from epochs.csv):
  * per mode: ``run_lat_avg_us``, ``run_lat_p99_us`` and ``run_throughput``, all on a log scale (their noise
    is multiplicative: proportional to the level);
  * divergence: ``run_lat_avg_us`` of main / clean and of clean / average-baseline, on the epochs both
    modes have (log scale: a ratio's noise is multiplicative).

Detection is steps.detect_steps with ``trend=True`` (one line per segment: the series grow with the
value sizes, a steady trend is not a step) and the per-epoch parameters of `epoch_params`; a step it finds
is kept only when the observed values confirm it (`_confirmed`: the medians of up to 4 epochs either side
moved the same way, by the minimum relative change and by more than 5 times the series' own noise), since lines
through a few noisy epochs can jump where the data did not. The noise (`level_noise`) is the larger of the
epoch-to-epoch noise and the spread of the level itself from one stretch of epochs to the next: on a shared box
neighbouring epochs are correlated (lag-1 autocorrelation 0.4-0.9 in the committed runs), and their first
differences then understate how far the level wanders on its own. With the epoch-to-epoch noise alone, 85-100 % of
synthetic no-effect experiments got at least one false step; the calibration (explain/calibration.py,
docs/calibration.md) states the share now.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from ..load.results import Experiment
from .outliers import find_outliers
from .series import ChangeParams, local_lines, robust_sigma, trend_departure
from .steps import detect_steps


# column -> analysed on log scale (throughput too: its noise is proportional to its level, as latency's)
MODE_SERIES = {"run_lat_avg_us": True, "run_lat_p99_us": True, "run_throughput": True}


# (numerator, denominator): a step in main/clean is the history effect appearing, in
# clean/average-baseline the non-uniform sizes effect.
DIVERGENCES = [("main", "clean"), ("clean", "average-baseline")]


def epoch_params(base: ChangeParams) -> ChangeParams:
    """Window parameters adapted to series of 5 to 100 points.

    min_size 3: a segment's line needs 3 epochs to have a residual (a 2-epoch segment fits any step
    exactly), so the shortest series with a change has 7 epochs (min_points). context 5 epochs either side
    for ranking and for measuring a departure from the trend. penalty_min_n 20: see steps.py."""
    return replace(base, min_size=3, min_points=7, context_windows=5, penalty_min_n=20)


# Observed-level check (see `observed_levels`): epochs either side, and the noise multiple a shift must pass.
LEVEL_EPOCHS = 4


NOISE_MULTIPLE = 3.0


# A step of the series themselves must pass this many times their `level_noise` (observed levels and against the
# trend): with 3, 25-55 % of synthetic no-effect experiments (AR(1) noise, rho 0.3-0.85) got a false step in one
# of their 14 series; docs/calibration.md gives the share at 5 and the power for a +40 % step.
STEP_NOISE_MULTIPLE = 5.0


# A step must hold for this many epochs either side (see `_holds`): one or two epochs off their level and
# back is what a machine switching speed produces (an outlier); three in a row on the new level is a level.
HOLD_EPOCHS = 3


def observed_levels(values: np.ndarray, x: int) -> tuple[float, float]:
    """Medians of up to LEVEL_EPOCHS observed points before index x and from x on.

    The departure of fitted lines alone is not enough on 5 to 100 noisy points: a line through 3 or 4
    epochs, one of them a cold first epoch, extends far off the data, and a jump between two lines is then
    claimed where the observed values did not move. A step must also show in the observed values."""
    return float(np.median(values[max(0, x - LEVEL_EPOCHS):x])), float(np.median(values[x:x + LEVEL_EPOCHS]))


# Below this many epochs the level's wander is not estimated (the epoch-to-epoch noise alone, as before): a real
# step moves the gaps within LEVEL_EPOCHS of it, and in a short series those are too many of them
# (tests/test_epoch_trend.py's 40-epoch series with a x1.3 step at epoch 24 lost its step).
LEVEL_NOISE_MIN_EPOCHS = 50


def level_noise(signal: np.ndarray) -> float:
    """The series' noise for the step checks: the larger of robust_sigma (first differences) and the robust spread
    (1.4826 x MAD) of the differences between the medians of LEVEL_EPOCHS epochs after and before each epoch (the
    level's own wander; the MAD takes out the trend's typical rise and a few real steps)."""
    signal = np.asarray(signal, float)
    if len(signal) < LEVEL_NOISE_MIN_EPOCHS:
        return robust_sigma(signal)
    medians = np.median(np.lib.stride_tricks.sliding_window_view(signal, LEVEL_EPOCHS), axis=1)
    gaps = medians[LEVEL_EPOCHS:] - medians[:-LEVEL_EPOCHS]  # the LEVEL_EPOCHS after epoch i minus those before
    spread = 1.4826 * float(np.median(np.abs(gaps - np.median(gaps))))
    return max(robust_sigma(signal), spread)


def _confirmed(levels: tuple[float, float], sigma: float, departure: float, log_scale: bool,
               params: ChangeParams) -> bool:
    """The observed medians moved the same way as the lines' departure, by the minimum relative change and
    by more than STEP_NOISE_MULTIPLE times the series' noise `sigma` (`level_noise`)."""
    before, after = levels
    gap = after - before
    relative = float(np.expm1(gap)) if log_scale else gap / max(abs(before), 1e-9)
    return (np.sign(relative) == np.sign(departure) and abs(relative) >= params.min_relative_change
            and abs(gap) > STEP_NOISE_MULTIPLE * sigma)


def against_trend(signal: np.ndarray, edges: list[int], k: int) -> tuple[float, float, float]:
    """(c, a, b): the step c at x = edges[k] against the series' own trend, over the two segments either side.
    The slope b is the median of the slopes between pairs of epochs on the same side (Theil-Sen, pooled: no
    pair crosses the step, so the step does not tilt it); c is the median of the detrended epochs after x
    minus the median of those before, a the latter. Medians over whole segments: three noisy epochs high in a
    gradual rise move neither the slope nor c, a real step keeps c."""
    lo, x, hi = edges[k - 1], edges[k], edges[k + 1]
    slopes = []
    for start, end in ((lo, x), (x, hi)):
        i = np.arange(start, end)
        if len(i) >= 2:
            p, q = np.triu_indices(len(i), 1)
            slopes.append((signal[start:end][q] - signal[start:end][p]) / (q - p))
    b = float(np.median(np.concatenate(slopes))) if slopes else 0.0
    detrended = signal[lo:hi] - b * np.arange(lo, hi)
    before, after = float(np.median(detrended[:x - lo])), float(np.median(detrended[x - lo:]))
    return after - before, before, b


def _beyond_trend(signal: np.ndarray, edges: list[int], k: int, sigma: float, departure: float, log_scale: bool,
                  params: ChangeParams) -> bool:
    """The step differs from the series' own trend (`against_trend`) by the minimum relative change and by more
    than STEP_NOISE_MULTIPLE times the series' noise `sigma` (`level_noise`), the same way as the lines' departure, and holds:
    each of the HOLD_EPOCHS epochs from it lies past half the step above the shared-slope line (below for a
    fall), each of the HOLD_EPOCHS epochs before it short of that."""
    c, a, b = against_trend(signal, edges, k)
    x = edges[k]
    base = a + b * x
    relative = float(np.expm1(c)) if log_scale else c / max(abs(base), 1e-9)
    if np.sign(c) != np.sign(departure) or abs(relative) < params.min_relative_change \
            or abs(c) <= STEP_NOISE_MULTIPLE * sigma:
        return False
    for i in range(max(edges[k - 1], x - HOLD_EPOCHS), min(edges[k + 1], x + HOLD_EPOCHS)):
        past = np.sign(c) * (signal[i] - (a + b * i)) > abs(c) / 2
        if past != (i >= x):
            return False
    return True


def series_trend(series: pd.Series, log_scale: bool, params: ChangeParams) -> dict | None:
    """The series' trend when it has one: a least-squares line through all its epochs (outliers left out by the
    caller) that moves by the minimum relative change or more from its first to its last epoch, and by more
    than NOISE_MULTIPLE times the epoch-to-epoch noise. The slope is in the series' units per epoch."""
    if len(series) < params.min_points:
        return None
    idx = series.index.to_numpy(dtype=float)
    values = series.to_numpy(dtype=float)
    slope, intercept = np.polyfit(idx, values, 1)
    start, end = intercept + slope * idx[0], intercept + slope * idx[-1]
    signal = np.log(np.maximum(values, 1e-9)) if log_scale else values
    rise = (np.log(max(end, 1e-9)) - np.log(max(start, 1e-9))) if log_scale else end - start
    if start <= 0 and log_scale:
        return None
    relative = (end - start) / max(abs(start), 1e-9)
    if abs(relative) < params.min_relative_change or abs(rise) <= NOISE_MULTIPLE * robust_sigma(signal):
        return None
    return {"slope_per_epoch": float(slope), "from": float(start), "to": float(end), "relative_change": relative,
            "first_epoch": int(idx[0]), "last_epoch": int(idx[-1])}


def mode_series(exp: Experiment, mode: str, column: str) -> pd.Series:
    rows = exp.epochs[exp.epochs["mode"] == mode].dropna(subset=[column])
    return pd.Series(rows[column].to_numpy(dtype=float), index=rows["epoch"].to_numpy(dtype=int)).sort_index()


def divergence_series(exp: Experiment, num: str, den: str) -> pd.Series:
    """Average latency of `num` / `den` on the epochs where both are positive."""
    a, b = mode_series(exp, num, "run_lat_avg_us"), mode_series(exp, den, "run_lat_avg_us")
    both = a.index.intersection(b.index)
    ratio = a[both] / b[both]
    return ratio[(a[both] > 0) & (b[both] > 0)]


def _describe(series: pd.Series, bkps: list[int], k: int, log_scale: bool, horizon: int) -> dict:
    """Before/after at the step epoch (the local line before it extended to it, the local line after it
    there), each line's slope per epoch, and `departure`: the signed gap the size filter used."""
    values = series.to_numpy(dtype=float)
    signal = np.log(values) if log_scale else values
    edges = [0] + bkps + [len(values)]
    (b0, b1), (a0, a1) = local_lines(signal, edges, k, horizon)
    x = edges[k]
    before, after = b0 + b1 * x, a0 + a1 * x
    slope_b, slope_a = b1, a1
    if log_scale:  # slopes as µs per epoch around the step, not log units
        slope_b = float(np.exp(before) - np.exp(before - b1))
        slope_a = float(np.exp(after + a1) - np.exp(after))
        before, after = float(np.exp(before)), float(np.exp(after))
    return {"epoch": int(series.index[x]), "before": float(before), "after": float(after),
            "relative_change": (after - before) / max(abs(before), 1e-9),
            "departure": trend_departure(signal, edges, k, horizon, log_scale),
            "slope_before": float(slope_b), "slope_after": float(slope_a)}


def _holds(signal: np.ndarray, edges: list[int], k: int, horizon: int) -> bool:
    """The step holds: each of the HOLD_EPOCHS epochs from it is closer to the new segment's local line than to
    the old one extended, and each of the HOLD_EPOCHS epochs before it closer to the old line."""
    (b0, b1), (a0, a1) = local_lines(signal, edges, k, horizon)
    x = edges[k]
    for i in range(max(0, x - HOLD_EPOCHS), min(len(signal), x + HOLD_EPOCHS)):
        d_old, d_new = abs(signal[i] - (b0 + b1 * i)), abs(signal[i] - (a0 + a1 * i))
        if (i >= x) != (d_new < d_old):
            return False
    return True


def changes_in(series: pd.Series, log_scale: bool, params: ChangeParams) -> tuple[list, list, list, dict | None]:
    """(steps, outliers, periods, trend) of one per-epoch series; outliers are left out before looking for
    steps. A step must pass the lines' departure, the observed levels, its holding for HOLD_EPOCHS either side,
    and the check against the series' own trend (`_beyond_trend`). The trend (`series_trend`) is reported when
    the series has no step: a gradual rise is a trend with its slope, not a step."""
    if log_scale:
        series = series[series > 0]
    found = find_outliers(series.to_numpy(dtype=float), log_scale, params.min_relative_change)
    outliers = [{"epoch": int(series.index[o["index"]]), "value": float(series.iloc[o["index"]]),
                 "expected": o["expected"], "relative_change": o["relative_change"]} for o in found]
    series = series.drop(series.index[[o["index"] for o in found]])
    values = series.to_numpy(dtype=float)
    signal = np.log(np.maximum(values, 1e-9)) if log_scale else values
    sigma = level_noise(signal)
    # PELT's penalty scales with the squared epoch-to-epoch noise (steps.penalty); correlated epochs gain more from
    # a spurious segment than independent ones, so it is raised by (level noise / epoch-to-epoch noise)^2.
    inflation = (sigma / max(robust_sigma(signal), 1e-12)) ** 2 if len(signal) > 2 else 1.0
    bkps = detect_steps(values, replace(params, penalty_factor=params.penalty_factor * max(1.0, inflation)),
                        log_scale=log_scale, trend=True)
    out = []
    edges = [0] + bkps + [len(values)]
    for k in range(1, len(bkps) + 1):
        change = _describe(series, bkps, k, log_scale, params.context_windows)
        levels = observed_levels(signal, bkps[k - 1])
        if (_confirmed(levels, sigma, change["departure"], log_scale, params)
                and _holds(signal, edges, k, params.context_windows)
                and _beyond_trend(signal, edges, k, sigma, change["departure"], log_scale, params)):
            before, after = np.exp(levels) if log_scale else levels
            change["observed_before"], change["observed_after"] = float(before), float(after)
            out.append(change)
    steps, periods = _split_periods(out)
    trend = series_trend(series, log_scale, params) if not steps else None
    return steps, outliers, periods, trend


def _split_periods(steps: list[dict]) -> tuple[list[dict], list[dict]]:
    """(steps, periods): two consecutive steps where the second comes back nearer the level before the first
    than the level between them (by ratio) bound a disturbed period, not two steps. On a shared machine a
    stretch of slow epochs that ends is the machine, not a lasting change in the database."""
    kept, periods, i = [], [], 0
    while i < len(steps):
        a = steps[i]
        b = steps[i + 1] if i + 1 < len(steps) else None
        if b is not None and min(a["observed_before"], a["observed_after"], b["observed_after"]) > 0 and \
                abs(np.log(b["observed_after"] / a["observed_before"])) < abs(np.log(b["observed_after"] / a["observed_after"])):
            periods.append({"from_epoch": a["epoch"], "to_epoch": b["epoch"], "before": a["observed_before"],
                            "during": a["observed_after"]})
            i += 2
        else:
            kept.append(a)
            i += 1
    return kept, periods
