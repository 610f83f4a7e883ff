"""Whether the server went away at a change: the client's own evidence, not a metric that moved.

While a server is down or restarting, the monitor cannot read its counters (every ``db.*`` cell of those
intervals is empty: monitor/DbCounterSampler leaves a failed read empty, and a counter that went backwards
after a restart is empty for its interval too) and the client's operations fail (samples.csv ``error``). Both
at once, after intervals whose counters were read, is the sign that the server went away; a slow server still
answers its monitor, and failed operations alone can be the benchmark's own errors.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

DB_PREFIX = "db."


def server_gone(samples: pd.DataFrame, metrics: pd.DataFrame | None, mtimes: np.ndarray, lo: float, t: float,
                hi: float, phase: int | None = None) -> dict | None:
    """{"unread_intervals", "first_unread_ms", "errors"} when in [t, hi) the monitor read none of the server's
    counters for one interval or more and operations failed, while in [lo, t) it read them; else None."""
    if metrics is None or metrics.empty:
        return None
    cols = [c for c in metrics.columns if c.startswith(DB_PREFIX)]
    if not cols:
        return None
    read = metrics[cols].notna().any(axis=1).to_numpy()
    before, after = (mtimes >= lo) & (mtimes < t), (mtimes >= t) & (mtimes < hi)
    if not read[before].any():
        return None
    unread = after & ~read
    if not unread.any():
        return None
    rows = samples[(samples["type"] == "ALL") & (samples["time_ms"] >= lo) & (samples["time_ms"] < hi)]
    if phase is not None:
        rows = rows[rows["phase"] == phase]
    errors = int(pd.to_numeric(rows["error"], errors="coerce").fillna(0).sum()) if "error" in rows else 0
    if errors == 0:
        return None
    return {"unread_intervals": int(unread.sum()), "first_unread_ms": float(mtimes[unread][0]), "errors": errors}


def describe_gone(gone: dict) -> str:
    n = gone["unread_intervals"]
    return (f"the server went away: the monitor could not read its counters for {n} interval{'s' if n > 1 else ''} "
            f"and {gone['errors']:,} operations failed (a restart or a crash; the client's log has the errors)")
