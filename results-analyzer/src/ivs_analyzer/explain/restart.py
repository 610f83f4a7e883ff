"""Whether the server went away at a change: the client's own evidence, not a metric that moved.

While a server is down or restarting, the monitor cannot read its counters (every ``db.*`` cell of those
intervals is empty: monitor/DbCounterSampler leaves a failed read empty, and a counter that went backwards
after a restart is empty for its interval too) and the client's operations fail (samples.csv ``error``). Both
at once, after intervals whose counters were read, is the sign that the server went away; a slow server still
answers its monitor, and failed operations alone can be the benchmark's own errors. This holds for any server
whose counters the monitor reads (MariaDB, PostgreSQL: a fast shutdown ends every session, and a new connection
is refused until the server is back); when the monitor reads the counters again inside the step's context, the
server came back (a restart), else it is still away (a crash or a stop).

The other way the benchmark's sessions can lose their connections is with the server up: their backends
terminated (PostgreSQL ``pg_terminate_backend``) or killed (MariaDB ``KILL CONNECTION``). The monitor's own
connection, when it is lost too, is reopened at once (one new connection and one more try per interval), so its
counters stay read; the failures are the client's error records of kind "connection lost" (summary.json, per
phase and transaction type). ``sessions_lost`` is that evidence: failed operations at the change that the phase's
error records account for as lost connections, while the monitor read the server in every interval.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

DB_PREFIX = "db."


def monitor_reads(metrics: pd.DataFrame | None, mtimes: np.ndarray, lo: float, t: float,
                  hi: float) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(read, before, after): per monitor row whether it read any of the server's ``db.*`` counters, and the rows
    of [lo, t) and of [t, hi). None without such columns, or when the monitor read none of them in [lo, t)."""
    if metrics is None or metrics.empty:
        return None
    cols = [c for c in metrics.columns if c.startswith(DB_PREFIX)]
    if not cols:
        return None
    read = metrics[cols].notna().any(axis=1).to_numpy()
    before, after = (mtimes >= lo) & (mtimes < t), (mtimes >= t) & (mtimes < hi)
    if not read[before].any():
        return None
    return read, before, after


def more_failures(samples: pd.DataFrame, lo: float, t: float, hi: float, phase: int | None) -> int:
    """The failed operations of [t, hi) when there are more than in [lo, t); else 0."""
    errors = failed_operations(samples, t, hi, phase)
    return errors if errors > failed_operations(samples, lo, t, phase) else 0


def server_gone(samples: pd.DataFrame, metrics: pd.DataFrame | None, mtimes: np.ndarray, lo: float, t: float,
                hi: float, phase: int | None = None) -> dict | None:
    """{"unread_intervals", "first_unread_ms", "errors"} when in [t, hi) the monitor read none of the server's
    counters for one interval or more and operations failed, while in [lo, t) it read them; else None."""
    reads = monitor_reads(metrics, mtimes, lo, t, hi)
    if reads is None:
        return None
    read, _, after = reads
    unread = after & ~read
    if not unread.any():
        return None
    errors = failed_operations(samples, lo, hi, phase)
    if errors == 0:
        return None
    gone = {"unread_intervals": int(unread.sum()), "first_unread_ms": float(mtimes[unread][0]), "errors": errors}
    back = after & read & (mtimes > mtimes[unread][-1])
    if back.any():
        gone["back_ms"] = float(mtimes[back][0] - mtimes[unread][0])
    return gone


def describe_gone(gone: dict) -> str:
    n = gone["unread_intervals"]
    back = gone.get("back_ms")
    then = (f"; it answered again {back / 1000:.0f} s later: the whole server restarted (its monitor's new "
            "connections were refused meanwhile, which a terminated session alone does not do)" if back is not None
            else " (a restart or a crash; the client's log has the errors)")
    return (f"the server went away: the monitor could not read its counters for {n} interval{'s' if n > 1 else ''} "
            f"and {gone['errors']:,} operations failed{then}")


CONNECTION_LOST = "connection lost"   # the client's error record of a lost connection (SessionTerminal)


def lost_connections(summary: dict | None, phase: int | None) -> int:
    """How many of the phase's failed operations the client recorded as lost connections (summary.json)."""
    total = 0
    for p in (summary or {}).get("phases") or []:
        if phase is not None and p.get("index") != phase:
            continue
        for tx in (p.get("transactions") or {}).values():
            total += int(((tx or {}).get("errors") or {}).get(CONNECTION_LOST, 0))
    return total


def sessions_lost(samples: pd.DataFrame, metrics: pd.DataFrame | None, mtimes: np.ndarray, lo: float, t: float,
                  hi: float, lost_in_phase: int, phase: int | None = None) -> dict | None:
    """{"errors", "lost_in_phase"} when in [t, hi) operations failed (more than in [lo, t)), the phase's error
    records count at least that many lost connections, and the monitor read the server's counters in every
    interval of [t, hi) and some of [lo, t) (the server stayed up); else None."""
    reads = monitor_reads(metrics, mtimes, lo, t, hi) if lost_in_phase else None
    if reads is None:
        return None
    read, _, after = reads
    if not after.any() or not read[after].all():
        return None
    errors = more_failures(samples, lo, t, hi, phase)
    if errors == 0 or lost_in_phase < errors:
        return None
    return {"errors": errors, "lost_in_phase": lost_in_phase}


def describe_lost(lost: dict) -> str:
    return (f"the benchmark's sessions lost their connections while the server stayed up: {lost['errors']:,} "
            f"operations failed as \"{CONNECTION_LOST}\" and its monitor read it every interval (sessions "
            "terminated or killed, not a restart)")


def failed_operations(samples: pd.DataFrame, lo: float, hi: float, phase: int | None) -> int:
    """Failed operations (samples.csv error, the ALL rows) in windows [lo, hi) of the phase (any phase: None)."""
    rows = samples[(samples["type"] == "ALL") & (samples["time_ms"] >= lo) & (samples["time_ms"] < hi)]
    if phase is not None:
        rows = rows[rows["phase"] == phase]
    return int(pd.to_numeric(rows["error"], errors="coerce").fillna(0).sum()) if "error" in rows else 0
