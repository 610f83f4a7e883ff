"""Sessions lost while the server stayed up, and new connections refused at its limit: `connection-limit`.

A change has this evidence (explain/findings.py gives it the category `connection-limit`) when at it

* operations failed (samples.csv ``error``: the sessions that lost their connection, or whose operation found
  none), more of them after the change than before it, and
* the server **stayed up**: the monitor read its counters in every interval after the change as before (a server
  that went away leaves them unread: explain/restart.py, which ranks first), and
* the server was **at its connection limit**, by either family of its own evidence:
  - **sessions at the limit**: its count of client sessions (MariaDB ``Threads_connected``, PostgreSQL
    ``pg_stat_database.numbackends``, which counts the benchmark database's sessions only) was at
    ``max_connections`` (environment.json records the setting; MariaDB admits one administrator more, PostgreSQL
    refuses an ordinary user ``superuser_reserved_connections`` short of it) in some interval after the change (it may have got there a little before: whatever took
    the connections comes first, the sessions meet the limit when they next need a connection);
  - **refused connections**: a running total of connections the server refused for its limit (MariaDB
    ``Connection_errors_max_connections``) has some after the change, ``RISE`` times the amount before.

Operations that fail while the server answers its monitor and is below its limit are not this: those are the
benchmark's own errors (or sessions killed one by one), which no rule here names.
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .restart import monitor_reads, more_failures

PREFIX = "db."
RISE = 2.0
# the server's count of client sessions now (a level), per server; PostgreSQL's is a column of pg_stat_database
SESSION_GAUGES = r"(?:\w+\.)*(?:Threads_connected|numbackends)"
# running totals of connections refused for the limit
REFUSALS = r"Connection_errors_max_connections"


def max_connections(environment: dict | None) -> float | None:
    """The sessions at which the server starts refusing, as the run recorded its settings (environment.json
    "database"): max_connections, less PostgreSQL's superuser_reserved_connections (an ordinary user is refused
    that many short of it); None when not recorded."""
    db = (environment or {}).get("database") or {}
    try:
        limit = float(db["max_connections"])
    except (KeyError, TypeError, ValueError):
        return None
    try:
        return limit - float(db.get("superuser_reserved_connections") or 0)
    except (TypeError, ValueError):
        return limit


def _cols(metrics: pd.DataFrame, pattern: str) -> list[str]:
    rx = re.compile(pattern, re.IGNORECASE)
    return [c for c in metrics.columns if c.startswith(PREFIX) and rx.fullmatch(c[len(PREFIX):])]


def connections_refused(samples: pd.DataFrame, metrics: pd.DataFrame | None, mtimes: np.ndarray, lo: float,
                        t: float, hi: float, limit: float | None, phase: int | None = None) -> dict | None:
    """{"errors", "limit", "sessions": [(column, peak after)], "refused": [(column, before, after per interval)]}
    when in [t, hi) operations failed (more than in [lo, t)), the monitor read the server's counters in every
    interval of [t, hi) (and some before), and the sessions were at ``limit`` after t or a refusal counter rose;
    else None."""
    reads = monitor_reads(metrics, mtimes, lo, t, hi)
    if reads is None:
        return None
    read, before, after = reads
    if not after.any() or not read[after].all():
        return None   # the server did not answer its monitor: gone, not refusing (restart.py)
    errors = more_failures(samples, lo, t, hi, phase)
    if errors == 0:
        return None
    sessions = []
    if limit:
        for c in _cols(metrics, SESSION_GAUGES):
            v = metrics[c].to_numpy(dtype=float)
            peak_after = np.nanmax(v[after], initial=-np.inf)
            if peak_after >= limit:
                sessions.append((c, float(peak_after)))
    refused = []
    for c in _cols(metrics, REFUSALS):
        v = metrics[c].to_numpy(dtype=float)
        b, a = float(np.nanmean(v[before])) if before.any() else 0.0, float(np.nanmean(v[after]))
        b = 0.0 if np.isnan(b) else b
        if not np.isnan(a) and a > 0 and a >= RISE * b:
            refused.append((c, b, a))
    if not sessions and not refused:
        return None
    return {"errors": errors, "limit": limit, "sessions": sessions, "refused": refused}


def describe_refused(ev: dict) -> str:
    parts = [f"{c} reached {peak:,.0f} (max_connections {ev['limit']:,.0f})" for c, peak in ev["sessions"]]
    parts += [f"{c} {b:,.2g} → {a:,.2g} per interval" for c, b, a in ev["refused"]]
    return (f"connection limit reached: new connections refused ({'; '.join(parts)}) and {ev['errors']:,} "
            "operations failed, while the server stayed up (its monitor read it every interval: not a restart)")
