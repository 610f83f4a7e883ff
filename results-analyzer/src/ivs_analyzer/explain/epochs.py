"""Step changes across the epochs of a YCSB-IVS experiment (detect/epoch_steps.py), explained by per-epoch
metrics.

Explaining: per epoch, the mode's run sub-run ``monitor.csv`` (for a divergence series: the numerator's,
main for main/clean, clean for clean/average-baseline) is reduced to one value per metric over the measured
windows (`monitor_per_epoch`), joined with that mode's value-size columns of epochs.csv, and ranked by each
metric's own break at the step epoch (`rank_epoch_metrics`): a metric that only grows with the epochs, as
the data volume does, is not a cause. A step with no metric listed is reported as such: nothing recorded
moved with it (on a shared machine, often the machine itself).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..detect.epoch_steps import (DIVERGENCES, MODE_SERIES, NOISE_MULTIPLE, changes_in, divergence_series,
                                  epoch_params, mode_series, observed_levels)
from ..detect.outliers import HOST_COLUMNS
from ..detect.series import ChangeParams, local_lines, phase_series, robust_sigma
from ..load.results import MONITOR_KEY_COLUMNS, AnalyzerError, Experiment, load_run
from .metrics import follows_throughput, on_own_trend, same_signal

VALUE_COLUMNS = ["value_avg", "value_p99", "value_max", "data_bytes"]


def _measured_monitor(run) -> tuple[pd.DataFrame | None, float]:
    """A run's monitor rows of its measured windows (all phases) and the operations of those windows."""
    if run.monitor is None:
        return None, 0.0
    windows = pd.concat([phase_series(run, int(p)) for p in sorted(run.samples["phase"].unique())])
    if windows.empty:
        return None, 0.0
    return run.monitor[run.monitor["time_ms"].isin(windows["time_ms"].astype(float))], float(windows["ok"].sum())


def summarize_monitor(*runs) -> dict[str, float]:
    """One value per metric over the measured windows of all phases of a sub-run (or of the slices of one run
    phase, together): the mean, and for rates/counters the amount per operation ("<name>/op"), since an epoch
    that runs fewer operations does less of everything and per-op amounts are what a cause changes (buffer pool
    reads per read). What adds up: *_ps rates times the interval, db.* counters as they are (deltas per interval,
    docs/results-format.md); a db.* gauge gets a meaningless /op, but it moves with its mean: `same`."""
    parts = [_measured_monitor(r) for r in runs]
    kept = [m for m, _ in parts if m is not None and not m.empty]
    if not kept:
        return {}
    mon = pd.concat(kept, ignore_index=True) if len(kept) > 1 else kept[0]
    ops = sum(n for _, n in parts)
    metrics = [c for c in mon.columns if c not in MONITOR_KEY_COLUMNS]
    if not metrics:
        return {}
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
    for (epoch, _), subs in exp.run_slices(mode).items():
        try:
            per_epoch[epoch] = summarize_monitor(*(load_run(s.path) for s in subs))
        except AnalyzerError:
            continue  # a sub-run without samples.csv cannot be summarized; the step is still reported
    if not per_epoch and exp.monitor_epochs is not None:  # a compact folder: the summaries written beside it
        kept = exp.monitor_epochs[exp.monitor_epochs["mode"] == mode].set_index("epoch")
        per_epoch = {int(e): {k: v for k, v in row.items() if k != "mode" and pd.notna(v)} for e, row in kept.iterrows()}
    frame = pd.DataFrame.from_dict(per_epoch, orient="index")
    rows = exp.epochs[exp.epochs["mode"] == mode].set_index("epoch")
    for col in VALUE_COLUMNS:
        frame = frame.reindex(frame.index.union(rows.index))
        frame[col] = rows[col].reindex(frame.index)
    frame.index = frame.index.astype(float)
    return frame.sort_index()


def rank_epoch_metrics(metrics: pd.DataFrame, epoch: int, params: ChangeParams,
                       throughput: pd.Series | None = None) -> tuple[list[dict], list[str]]:
    """Per-epoch metrics ranked by their own break at `epoch`: the jump between their local lines there
    (as for the series), in units of their own epoch-to-epoch noise, kept only when their observed medians
    moved the same way. A metric that grows steadily with the epochs (data_bytes, value_avg, a counter that
    follows the data volume) has no break and is not offered as a cause, however different its before and
    after levels are. With the mode's per-epoch `throughput`, a metric whose observed levels moved with it at a
    constant amount per operation goes to the second list (`follows`, see metrics.follows_throughput)."""
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
            steps, odd, spans, trend = changes_in(mode_series(exp, mode, column), log_scale, params)
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
            steps, _, spans, _ = changes_in(divergence_series(exp, num, den), True, params)
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
