"""The steps and episodes of a run's windows (detect/steps.py) with their cause search: for each the monitor metrics
ranked by their own break at it (metrics.rank_window_metrics: causes, ``follows``, ``same``) and who took the
host's CPU (cpu.attribute_cpu). The module doc of detect/steps.py says how the context windows are chosen."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..detect.series import ChangeParams
from ..detect.steps import Context, find_steps
from ..load.results import Run
from .connections import connections_refused, max_connections
from .cpu import CLIENT_CPU, HOST_IDLE, SERVER_CPU, STEAL, attribute_cpu
from .disk import HOST_DISK, IOWAIT, SERVER_DISK, attribute_disk
from .longtxn import version_backlog
from .metrics import rank_window_metrics
from .misses import buffer_misses
from .pressure import write_pressure
from .restart import lost_connections, server_gone, sessions_lost
from .setting_change import PLACEMENT, settings_changed


def find_changes(run: Run, params: ChangeParams | None = None) -> list[dict]:
    """Every step and severe episode of the run's phases (detect.steps.find_steps), each with its cause search:
    {..., "metrics": ranked, "follows": effects, "cpu": who took the host's CPU, "disk": who took its disk
    (disk.py), "server_gone": restart.py's evidence or None, "pressure": pressure.py's write pressure or None,
    "version_backlog": longtxn.py's versions kept for an old snapshot or None, "misses": misses.py's buffer misses
    or None, "refused": connections.py's connection-limit evidence or None, "lost": restart.sessions_lost or None,
    "settings": setting_change.py's settings changed in the context or None}."""
    params = params or ChangeParams()
    metrics = run.metric_frame()
    mtimes = metrics.index.to_numpy(dtype=float) if metrics is not None else np.array([])
    return [{**step, **_explained(run, metrics, mtimes, params, ctx)} for step, ctx in find_steps(run, params)]


def _explained(run: Run, metrics, mtimes: np.ndarray, params: ChangeParams, ctx: Context) -> dict:
    """The cause search of a change at window b = ctx.at with windows [first, b) before it and [b, end) after it:
    {"metrics": ranked, "follows": effects, "cpu": who took the host's CPU, "disk": who took its disk}."""
    times, tput_values, window_ms = ctx.times, ctx.throughput, ctx.window_ms
    first, b, end, min_rows = ctx.first, ctx.at, ctx.end, ctx.min_rows
    lo, t, hi = times[first], times[b], times[end - 1] + window_ms
    tput = (float(np.mean(tput_values[first:b])), float(np.mean(tput_values[b:end])))
    ranked, follows, cpu, gone, disk, pressure, backlog, misses = [], [], None, None, None, None, None, None
    refused, lost = None, None
    if metrics is not None and not metrics.empty:
        before_mask, after_mask = (mtimes >= lo) & (mtimes < t), (mtimes >= t) & (mtimes < hi)
        rate = np.interp(mtimes, times, tput_values, left=np.nan, right=np.nan)
        ranked, follows = rank_window_metrics(metrics, before_mask, after_mask, params, tput, rate, min_rows)
        cpu = attribute_cpu(_means(metrics, before_mask), _means(metrics, after_mask), run.cores)
        disk = attribute_disk(_means(metrics, before_mask, HOST_DISK + SERVER_DISK + (IOWAIT,)),
                              _means(metrics, after_mask, HOST_DISK + SERVER_DISK + (IOWAIT,)))
        gone = server_gone(run.samples, metrics, mtimes, lo, t - window_ms, hi)
        pressure = write_pressure(metrics, before_mask, after_mask)
        interval_s = float(np.median(np.diff(mtimes))) / 1000.0 if len(mtimes) > 1 else window_ms / 1000.0
        backlog = version_backlog(metrics, before_mask, after_mask, max(tput) * interval_s)
        misses = buffer_misses(metrics, before_mask, after_mask, rate * interval_s)
        refused = connections_refused(run.samples, metrics, mtimes, lo, t - window_ms, hi,
                                      max_connections(run.environment))
        lost = sessions_lost(run.samples, metrics, mtimes, lo, t - window_ms, hi, lost_connections(run.summary, None))
    # a setting changed in the context before the change or within PLACEMENT windows after the point the detector
    # placed it at (a change well after the step began cannot be its cause; the point may be placed a few windows
    # early, as report/folders.attach_activity allows for the snapshots); the monitor's record, not a counter
    settings = settings_changed(run.setting_changes, lo, min(hi, t + PLACEMENT * window_ms), run.start_ms)
    return {"metrics": ranked, "follows": follows, "cpu": cpu, "server_gone": gone, "disk": disk,
            "pressure": pressure, "version_backlog": backlog, "misses": misses, "refused": refused, "lost": lost,
            "settings": settings}


def _means(metrics: pd.DataFrame, mask: np.ndarray, names: tuple = (HOST_IDLE, SERVER_CPU, CLIENT_CPU, STEAL)) -> dict:
    cols = [c for c in names if c in metrics.columns]
    return {c: float(np.nanmean(metrics[c].to_numpy(dtype=float)[mask])) if mask.any() else float("nan")
            for c in cols}
