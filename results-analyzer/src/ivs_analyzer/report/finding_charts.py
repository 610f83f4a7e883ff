"""One chart per finding: the client series around the moment and the evidence metric on the same axis.

Each function returns {"file", "title", "data"} where data = {"x_label", "x", "panels": [{"y_label",
"series": {name: [values]}, "marks": [x...]}]}: what the PNG draws, so tests can check the chart's content
instead of its pixels (findings.json carries it too).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .charts import plt, save_figure
from ..explain.cpu import CLIENT_CPU, HOST_IDLE, SERVER_CPU
from ..load.results import MODES, Experiment, Run

MARGIN = 3  # context windows either side of the finding's moment, as a multiple of params.context_windows


def _draw(data: dict, out: Path, name: str, title: str) -> dict:
    panels = data["panels"]
    fig, axes = plt.subplots(len(panels), 1, figsize=(11, 1.9 * len(panels) + 0.8), sharex=True, squeeze=False)
    x = np.asarray(data["x"], dtype=float)
    for ax, panel in zip(axes[:, 0], panels):
        for label, ys in panel["series"].items():
            ax.plot(x, np.asarray(ys, dtype=float), lw=1.1, marker="o" if len(x) <= 120 else None, ms=2,
                    label=label)
        for m in panel.get("marks", []):
            ax.axvline(m, color="tab:orange", lw=1.2, alpha=0.8)
        if panel.get("log"):
            ax.set_yscale("log")
        ax.set_ylabel(panel["y_label"], fontsize=8)
        if panel["series"]:
            ax.legend(loc="upper right", fontsize=7, ncol=min(len(panel["series"]), 4))
    axes[0, 0].set_title(title, fontsize=10)
    axes[-1, 0].set_xlabel(data["x_label"])
    return {"file": save_figure(fig, out, name), "title": title, "data": data}


def _lists(values) -> list:
    return [None if v is None or (isinstance(v, float) and np.isnan(v)) else float(v) for v in values]


def run_finding_chart(run: Run, finding: dict, out: Path, index: int, span_windows: int) -> dict | None:
    """Throughput and p99 around a step or episode, the cause metric, and host / server / client CPU."""
    s = run.samples
    rows = s[(s["type"] == "ALL") & (s["phase"] == finding["phase"])].sort_values("time_ms")
    window_ms = run.window_ms
    lo = finding["time_ms"] - span_windows * window_ms
    hi = finding["time_ms"] + (finding.get("duration_ms") or 0) + span_windows * window_ms
    rows = rows[(rows["time_ms"] >= lo) & (rows["time_ms"] < hi)]
    if rows.empty:
        return None
    times = rows["time_ms"].to_numpy(dtype=float)
    x = (times - run.start_ms) / 1000.0
    marks = [(finding["time_ms"] - run.start_ms) / 1000.0]
    if finding.get("duration_ms"):
        marks.append(marks[0] + finding["duration_ms"] / 1000.0)
    panels = [{"y_label": "ops/s", "series": {"throughput": _lists(rows["throughput"])}, "marks": marks},
              {"y_label": "p99 (µs)", "series": {"p99": _lists(rows["lat_p99_us"])}, "marks": marks, "log": True}]
    metrics = run.metric_frame()
    if metrics is not None:
        m = metrics.reindex(times)
        if finding.get("cause") and finding["cause"] in m.columns:
            panels.append({"y_label": finding["cause"], "series": {finding["cause"]: _lists(m[finding["cause"]])},
                           "marks": marks})
        cpu = {}
        if HOST_IDLE in m.columns:
            cpu["host busy (% of all cores)"] = _lists(100.0 - m[HOST_IDLE])
        for col, label in ((SERVER_CPU, "database server (% of a core)"), (CLIENT_CPU, "client (% of a core)")):
            if col in m.columns:
                cpu[label] = _lists(m[col])
        if cpu:
            panels.append({"y_label": "CPU %", "series": cpu, "marks": marks})
    data = {"x_label": "time since run start (s)", "x": _lists(x), "panels": panels}
    return _draw(data, out, f"finding-{index}.png", finding["title"][:110])


def excursions_chart(run: Run, finding: dict, out: Path, index: int) -> dict | None:
    """The whole run's throughput and p99 with the excursions marked."""
    s = run.samples
    rows = s[s["type"] == "ALL"].sort_values("time_ms")
    if rows.empty:
        return None
    x = (rows["time_ms"].to_numpy(dtype=float) - run.start_ms) / 1000.0
    marks = [(w["time_ms"] - run.start_ms) / 1000.0 for w in finding["windows"]]
    panels = [{"y_label": "ops/s", "series": {"throughput": _lists(rows["throughput"])}, "marks": marks},
              {"y_label": "p99 (µs)", "series": {"p99": _lists(rows["lat_p99_us"])}, "marks": marks, "log": True}]
    data = {"x_label": "time since run start (s)", "x": _lists(x), "panels": panels}
    return _draw(data, out, f"finding-{index}.png", "Short excursions (orange): outliers, not steps")


def epoch_finding_chart(exp: Experiment, finding: dict, metrics: pd.DataFrame | None, out: Path,
                        index: int) -> dict | None:
    """Per-epoch series of every mode (a step: its mode's series and its cause metric) with the epochs marked."""
    e = exp.epochs
    epochs = sorted(e["epoch"].unique())
    if finding["kind"] == "step" and finding["series"] in e.columns:
        column, modes = finding["series"], [finding["mode"]]
        marks = [finding["epoch"]]
    else:
        column, modes = "run_lat_avg_us", [m for m in MODES if m in set(e["mode"])]
        marks = finding.get("epochs") or ([finding["epoch"]] if "epoch" in finding else [])
    series = {}
    for mode in modes:
        rows = e[e["mode"] == mode].set_index("epoch")[column].reindex(epochs)
        series[mode] = _lists(rows)
    panels = [{"y_label": column, "series": series, "marks": marks}]
    if finding.get("cause") and metrics is not None and finding["cause"] in metrics.columns:
        panels.append({"y_label": finding["cause"], "marks": marks, "series": {
            finding["cause"]: _lists(metrics[finding["cause"]].reindex([float(x) for x in epochs]))}})
    data = {"x_label": "epoch", "x": [float(x) for x in epochs], "panels": panels}
    return _draw(data, out, f"finding-{index}.png", finding["title"][:110])
