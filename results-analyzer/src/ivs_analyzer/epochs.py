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
value sizes, a steady trend is not a step) and the per-epoch parameters of `epoch_params`.

Explaining: per epoch, the mode's run sub-run ``monitor.csv`` (for a divergence series: the numerator's,
main for main/clean, clean for clean/average-baseline) is reduced to one value per metric over the measured
windows (`monitor_per_epoch`), joined with that mode's value-size columns of epochs.csv, and ranked with
changes.rank_metrics at the step epoch over ``context_windows`` epochs either side (``same`` and, for
throughput, ``follows`` as for windows).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from .changes import ChangeParams, detect_steps, local_lines, phase_series, rank_metrics, trend_departure
from .load import MONITOR_KEY_COLUMNS, AnalyzerError, Experiment, load_run

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


def mode_series(exp: Experiment, mode: str, column: str) -> pd.Series:
    rows = exp.epochs[exp.epochs["mode"] == mode].dropna(subset=[column])
    return pd.Series(rows[column].to_numpy(dtype=float), index=rows["epoch"].to_numpy(dtype=int)).sort_index()


def divergence_series(exp: Experiment, num: str, den: str) -> pd.Series:
    """Average latency of `num` / `den` on the epochs where both are positive."""
    a, b = mode_series(exp, num, "run_lat_avg_us"), mode_series(exp, den, "run_lat_avg_us")
    both = a.index.intersection(b.index)
    ratio = a[both] / b[both]
    return ratio[(a[both] > 0) & (b[both] > 0)]


def _per_op_total(name: str, rows: pd.DataFrame) -> float | None:
    """What the metric adds up to over the rows, or None when a sum means nothing (percentages, gauges).
    db.* counters are deltas per interval (docs/results-format.md); *_ps columns are rates per second."""
    if name.endswith("_ps"):
        return float((rows[name] * rows["interval_ms"] / 1000.0).sum())
    if name.startswith("db."):
        return float(rows[name].sum())  # a db.* gauge gets a meaningless /op, but it moves with its mean: `same`
    return None


def summarize_monitor(run) -> dict[str, float]:
    """One value per metric over the measured windows of all phases of a sub-run: the mean, and for
    rates/counters the amount per operation ("<name>/op"), since an epoch that runs fewer operations
    does less of everything and per-op amounts are what a cause changes (buffer pool reads per read)."""
    if run.monitor is None:
        return {}
    windows = pd.concat([phase_series(run, int(p)) for p in sorted(run.samples["phase"].unique())])
    if windows.empty:
        return {}
    mon = run.monitor[run.monitor["time_ms"].isin(windows["time_ms"].astype(float))]
    metrics = [c for c in mon.columns if c not in MONITOR_KEY_COLUMNS]
    ops = float(windows["ok"].sum())
    out: dict[str, float] = {}
    for name in metrics:
        rows = mon.dropna(subset=[name])
        if rows.empty:
            continue
        # local and agent rows of one interval hold different metrics; dropna keeps each metric's own rows.
        out[name] = float(rows.groupby("time_ms")[name].mean().mean())
        total = _per_op_total(name, rows)
        if total is not None and ops > 0:
            out[name + "/op"] = total / ops
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


def _changes_in(series: pd.Series, log_scale: bool, params: ChangeParams) -> list[dict]:
    if log_scale:
        series = series[series > 0]
    bkps = detect_steps(series.to_numpy(dtype=float), params, log_scale=log_scale, trend=True)
    return [_describe(series, bkps, k, log_scale, params.context_windows) for k in range(1, len(bkps) + 1)]


def _explain(change: dict, metrics: pd.DataFrame, params: ChangeParams, client: pd.Series | None) -> dict:
    ranked, follows = rank_metrics(metrics, float(change["epoch"]), float(params.context_windows), params,
                                   client)
    return {**change, "metrics": ranked, "follows": follows}


def find_epoch_changes(exp: Experiment, base: ChangeParams | None = None) -> list[dict]:
    params = epoch_params(base or ChangeParams())
    modes = sorted(set(exp.epochs["mode"]))
    metric_cache: dict[str, pd.DataFrame] = {}

    def metrics_of(mode: str) -> pd.DataFrame:
        if mode not in metric_cache:
            metric_cache[mode] = monitor_per_epoch(exp, mode)
        return metric_cache[mode]

    out: list[dict] = []
    for mode in modes:
        for column, log_scale in MODE_SERIES.items():
            series = mode_series(exp, mode, column)
            client = series.set_axis(series.index.astype(float)) if column == "run_throughput" else None
            for c in _changes_in(series, log_scale, params):
                out.append(_explain({"mode": mode, "series": column, **c}, metrics_of(mode), params, client))
    for num, den in DIVERGENCES:
        if num in modes and den in modes:
            for c in _changes_in(divergence_series(exp, num, den), True, params):
                out.append(_explain({"mode": f"{num}/{den}", "series": "run_lat_avg_ratio", **c},
                                    metrics_of(num), params, None))
    return out
