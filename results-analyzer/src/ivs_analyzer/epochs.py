"""Step changes across the epochs of a YCSB-IVS experiment, explained by per-epoch metrics.

The per-window detector (changes.py) sees one phase; the paper's effects show across epochs: a mode's
run-phase latency that starts to degrade faster after some number of extension cycles, main-run
leaving clean-run (history effect), clean-run leaving average-baseline (non-uniform sizes effect).

Series (one value per epoch, from epochs.csv):
  * per mode: ``run_lat_avg_us`` and ``run_lat_p99_us`` (log scale, multiplicative noise, as p99 in
    changes.py) and ``run_throughput`` (as is);
  * divergence: ``run_lat_avg_us`` of main / clean and of clean / average-baseline, on the epochs both
    modes have (log scale: a ratio's noise is multiplicative).

Detection is changes.detect_steps with ``trend=True`` (one line per segment: the series grow with the
value sizes, a steady trend is not a step) and the per-epoch parameters of `epoch_params`; a step it finds
is kept only when the observed values confirm it (`_confirmed`: the medians of up to 4 epochs either side
moved the same way, by the minimum relative change and by more than 3 times the series' own epoch-to-epoch
noise), since lines through a few noisy epochs can jump where the data did not.

Explaining: per epoch, the mode's run sub-run ``monitor.csv`` (for a divergence series: the numerator's,
main for main/clean, clean for clean/average-baseline) is reduced to one value per metric over the measured
windows (`monitor_per_epoch`), joined with that mode's value-size columns of epochs.csv, and ranked by each
metric's own break at the step epoch (`rank_epoch_metrics`): a metric that only grows with the epochs, as
the data volume does, is not a cause. A step with no metric listed is reported as such: nothing recorded
moved with it (on a shared machine, often the machine itself).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from .changes import ChangeParams, detect_steps, local_lines, phase_series, robust_sigma, trend_departure
from .explain import follows_throughput, on_own_trend, same_signal
from .load import MONITOR_KEY_COLUMNS, AnalyzerError, Experiment, load_run
from .outliers import find_outliers

# column -> analysed on log scale
MODE_SERIES = {"run_lat_avg_us": True, "run_lat_p99_us": True, "run_throughput": False}
# (numerator, denominator): a step in main/clean is the history effect appearing, in
# clean/average-baseline the non-uniform sizes effect.
DIVERGENCES = [("main", "clean"), ("clean", "average-baseline")]
VALUE_COLUMNS = ["value_avg", "value_p99", "value_max", "data_bytes"]


def epoch_params(base: ChangeParams) -> ChangeParams:
    """Window parameters adapted to series of 5 to 100 points.

    min_size 3: a segment's line needs 3 epochs to have a residual (a 2-epoch segment fits any step
    exactly), so the shortest series with a change has 7 epochs (min_points). context 5 epochs either side
    for ranking and for measuring a departure from the trend. penalty_min_n 20: see changes.py."""
    return replace(base, min_size=3, min_points=7, context_windows=5, penalty_min_n=20)


# Observed-level check (see `observed_levels`): epochs either side, and the noise multiple a shift must pass.
LEVEL_EPOCHS = 4
NOISE_MULTIPLE = 3.0
# A step must hold for this many epochs either side (see `_holds`): one or two epochs off their level and
# back is what a machine switching speed produces (an outlier); three in a row on the new level is a level.
HOLD_EPOCHS = 3


def observed_levels(values: np.ndarray, x: int) -> tuple[float, float]:
    """Medians of up to LEVEL_EPOCHS observed points before index x and from x on.

    The departure of fitted lines alone is not enough on 5 to 100 noisy points: a line through 3 or 4
    epochs, one of them a cold first epoch, extends far off the data, and a jump between two lines is then
    claimed where the observed values did not move. A step must also show in the observed values."""
    return float(np.median(values[max(0, x - LEVEL_EPOCHS):x])), float(np.median(values[x:x + LEVEL_EPOCHS]))


def _confirmed(levels: tuple[float, float], sigma: float, departure: float, log_scale: bool,
               params: ChangeParams) -> bool:
    """The observed medians moved the same way as the lines' departure, by the minimum relative change and
    by more than NOISE_MULTIPLE times the series' own epoch-to-epoch noise `sigma`."""
    before, after = levels
    gap = after - before
    relative = float(np.expm1(gap)) if log_scale else gap / max(abs(before), 1e-9)
    return (np.sign(relative) == np.sign(departure) and abs(relative) >= params.min_relative_change
            and abs(gap) > NOISE_MULTIPLE * sigma)


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
    than NOISE_MULTIPLE times the epoch-to-epoch noise `sigma`, the same way as the lines' departure, and holds:
    each of the HOLD_EPOCHS epochs from it lies past half the step above the shared-slope line (below for a
    fall), each of the HOLD_EPOCHS epochs before it short of that."""
    c, a, b = against_trend(signal, edges, k)
    x = edges[k]
    base = a + b * x
    relative = float(np.expm1(c)) if log_scale else c / max(abs(base), 1e-9)
    if np.sign(c) != np.sign(departure) or abs(relative) < params.min_relative_change \
            or abs(c) <= NOISE_MULTIPLE * sigma:
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


def summarize_monitor(run) -> dict[str, float]:
    """One value per metric over the measured windows of all phases of a sub-run: the mean, and for
    rates/counters the amount per operation ("<name>/op"), since an epoch that runs fewer operations
    does less of everything and per-op amounts are what a cause changes (buffer pool reads per read).
    What adds up: *_ps rates times the interval, db.* counters as they are (deltas per interval,
    docs/results-format.md); a db.* gauge gets a meaningless /op, but it moves with its mean: `same`."""
    if run.monitor is None:
        return {}
    windows = pd.concat([phase_series(run, int(p)) for p in sorted(run.samples["phase"].unique())])
    if windows.empty:
        return {}
    mon = run.monitor[run.monitor["time_ms"].isin(windows["time_ms"].astype(float))]
    metrics = [c for c in mon.columns if c not in MONITOR_KEY_COLUMNS]
    if mon.empty or not metrics:
        return {}
    ops = float(windows["ok"].sum())
    values = mon[metrics]
    # local and agent rows of one interval hold different metrics: the interval's mean skips empty cells, so
    # each metric is averaged over its own rows; a metric never filled gives NaN and is left out.
    means = values.groupby(mon["time_ms"]).mean().mean()
    rates = [c for c in metrics if c.endswith("_ps")]
    counters = [c for c in metrics if c.startswith("db.") and not c.endswith("_ps")]
    totals = pd.concat([values[rates].mul(mon["interval_ms"] / 1000.0, axis=0).sum(), values[counters].sum()])
    filled = values.notna().any()
    out = {name: float(v) for name, v in means.items() if filled[name]}
    if ops > 0:
        out.update({f"{name}/op": float(v) / ops for name, v in totals.items() if filled[name]})
    return out


def monitor_per_epoch(exp: Experiment, mode: str) -> pd.DataFrame:
    """Rows = epochs, columns = summarized monitor metrics of the mode's run sub-run plus its value sizes."""
    per_epoch: dict[int, dict[str, float]] = {}
    for sub in exp.subruns:
        if sub.mode == mode and sub.phase == "run" and sub.summary is not None:
            try:
                per_epoch[sub.epoch] = summarize_monitor(load_run(sub.path))
            except AnalyzerError:
                continue  # a sub-run without samples.csv cannot be summarized; the step is still reported
    frame = pd.DataFrame.from_dict(per_epoch, orient="index")
    rows = exp.epochs[exp.epochs["mode"] == mode].set_index("epoch")
    for col in VALUE_COLUMNS:
        frame = frame.reindex(frame.index.union(rows.index))
        frame[col] = rows[col].reindex(frame.index)
    frame.index = frame.index.astype(float)
    return frame.sort_index()


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


def _changes_in(series: pd.Series, log_scale: bool, params: ChangeParams) -> tuple[list, list, list, dict | None]:
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
    bkps = detect_steps(values, params, log_scale=log_scale, trend=True)
    signal = np.log(np.maximum(values, 1e-9)) if log_scale else values
    sigma = robust_sigma(signal)
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


def rank_epoch_metrics(metrics: pd.DataFrame, epoch: int, params: ChangeParams,
                       throughput: pd.Series | None = None) -> tuple[list[dict], list[str]]:
    """Per-epoch metrics ranked by their own break at `epoch`: the jump between their local lines there
    (as for the series), in units of their own epoch-to-epoch noise, kept only when their observed medians
    moved the same way. A metric that grows steadily with the epochs (data_bytes, value_avg, a counter that
    follows the data volume) has no break and is not offered as a cause, however different its before and
    after levels are. With the mode's per-epoch `throughput`, a metric whose observed levels moved with it at a
    constant amount per operation goes to the second list (`follows`, see explain.follows_throughput)."""
    tput = None
    if throughput is not None and len(throughput):
        t = throughput.sort_index()
        tput = observed_levels(t.to_numpy(dtype=float), int(np.searchsorted(t.index.to_numpy(dtype=float), epoch)))
    ranked = []
    lo, hi = float(epoch - params.context_windows), float(epoch + params.context_windows)
    context = metrics[(metrics.index >= lo) & (metrics.index < hi)]
    for name in metrics.columns:
        col = metrics[name].dropna()
        idx = col.index.to_numpy(dtype=float)
        values = col.to_numpy(dtype=float)
        x = int(np.searchsorted(idx, float(epoch)))
        if x < 3 or len(values) - x < 3:
            continue
        edges = [0, x, len(values)]
        (b0, b1), (a0, a1) = local_lines(values, edges, 1, params.context_windows)
        jump = (a0 + a1 * x) - (b0 + b1 * x)
        sigma = max(robust_sigma(values), 0.01 * abs(float(np.median(values))), 1e-12)
        before, after = observed_levels(values, x)
        if np.sign(after - before) != np.sign(jump) or abs(jump) <= NOISE_MULTIPLE * sigma:
            continue
        near = (idx >= lo) & (idx < hi)
        if on_own_trend(values[near], idx[near] >= float(epoch)):
            continue  # monotone growth (cached memory, a volume) is never offered as a cause
        ranked.append({"name": name, "score": round(abs(jump) / sigma, 4), "before": before, "after": after,
                       "same": []})
    ranked.sort(key=lambda m: (-m["score"], m["name"]))
    # As for windows: a metric that moves epoch by epoch with one already listed (its /op form, a twin
    # counter) joins that one's `same` list instead of taking a place.
    listed: list[dict] = []
    follows: list[str] = []
    for entry in ranked:
        if follows_throughput(entry["name"], entry["before"], entry["after"], tput, params.min_relative_change):
            follows.append(entry["name"])
            continue
        values = context[entry["name"]].to_numpy(dtype=float)
        leader = next((m for m in listed if same_signal(values, context[m["name"]].to_numpy(dtype=float),
                                                        params.same_signal_r)), None)
        if leader is not None:
            leader["same"].append(entry["name"])
        elif len(listed) < params.top_metrics:
            listed.append(entry)
    return listed, follows


def _explain(change: dict, metrics: pd.DataFrame, params: ChangeParams, throughput: pd.Series | None) -> dict:
    ranked, follows = rank_epoch_metrics(metrics, int(change["epoch"]), params, throughput)
    return {**change, "metrics": ranked, "follows": follows}


def find_epoch_changes(exp: Experiment, base: ChangeParams | None = None) -> list[dict]:
    """The steps across epochs (see `analyse_epochs` for the outliers too)."""
    return analyse_epochs(exp, base)["steps"]


def analyse_epochs(exp: Experiment, base: ChangeParams | None = None) -> dict:
    """{"steps": [...], "outliers": [...], "periods": [...]}: outliers grouped by epoch, each with the series it
    left and the host's condition in that epoch (`host_condition`); periods = disturbed stretches that ended
    (`_split_periods`)."""
    params = epoch_params(base or ChangeParams())
    modes = sorted(set(exp.epochs["mode"]))
    metric_cache: dict[str, pd.DataFrame] = {}

    def metrics_of(mode: str) -> pd.DataFrame:
        if mode not in metric_cache:
            metric_cache[mode] = monitor_per_epoch(exp, mode)
        return metric_cache[mode]

    out: list[dict] = []
    outliers: dict[int, list[dict]] = {}
    periods: list[dict] = []
    trends: list[dict] = []
    for mode in modes:
        for column, log_scale in MODE_SERIES.items():
            steps, odd, spans, trend = _changes_in(mode_series(exp, mode, column), log_scale, params)
            periods += [{"mode": mode, "series": column, **p} for p in spans]
            if trend is not None:
                trends.append({"mode": mode, "series": column, **trend})
            for c in steps:
                out.append(_explain({"mode": mode, "series": column, **c}, metrics_of(mode), params,
                                    mode_series(exp, mode, "run_throughput")))
            for o in odd:
                outliers.setdefault(o["epoch"], []).append({"mode": mode, "series": column, **o})
    for num, den in DIVERGENCES:
        if num in modes and den in modes:
            steps, _, spans, _ = _changes_in(divergence_series(exp, num, den), True, params)
            periods += [{"mode": f"{num}/{den}", "series": "run_lat_avg_ratio", **p} for p in spans]
            for c in steps:
                out.append(_explain({"mode": f"{num}/{den}", "series": "run_lat_avg_ratio", **c},
                                    metrics_of(num), params, mode_series(exp, num, "run_throughput")))
    grouped = []
    for epoch, items in sorted(outliers.items()):
        mode = "main" if any(i["mode"] == "main" for i in items) else items[0]["mode"]
        grouped.append({"epoch": epoch, "series": items, "modes": sorted({i["mode"] for i in items}),
                        "host": host_condition(metrics_of(mode), epoch)})
    # metrics: the per-epoch monitor figures of a mode (cached), for the findings' charts
    return {"steps": out, "outliers": grouped, "periods": periods, "trends": trends, "metrics": metrics_of}


HOST_COLUMNS = ["os.cpu.idle_pct", "proc.cpu_pct", "client.cpu_pct"]


def host_condition(metrics: pd.DataFrame, epoch: int) -> dict:
    """The host CPU idle, the server's and the client's CPU in that epoch against their median over the
    experiment ({"<column>": value, "<column>.typical": median})."""
    out = {}
    for col in HOST_COLUMNS:
        if col in metrics.columns and float(epoch) in metrics.index:
            v = metrics.at[float(epoch), col]
            if not pd.isna(v):
                out[col] = float(v)
                out[col + ".typical"] = float(metrics[col].median())
    return out
