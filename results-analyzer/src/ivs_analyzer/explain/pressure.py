"""Write pressure read from the server's own counters: `flush-pressure` and `write-stall` without a wait snapshot.

When writes come faster than the server can flush or compact, each engine says so in counters of its own, and
the monitor records them (db.* columns of monitor.csv; running totals as the amount per interval, levels as
read). A step gets one of these categories (explain/findings.py) when, across it, a signal of the families
below went up; a wait in the step's server snapshot still overrides it (report/folders.py attach_activity).
The families are per server and name what the engine itself counts, never a scenario:

* **waits** - running totals of times writers waited or were slowed (zero while the engine keeps up): InnoDB
  ``Innodb_buffer_pool_wait_free`` (no clean page: a page had to be flushed first) and ``Innodb_log_waits``
  (the redo log buffer was full); every MyRocks ``Rocksdb_stall_*`` counter (stall time, slowdowns and stops
  for too many memtables, L0 files or pending compaction bytes); Cassandra's ``blocked_tasks_all_time`` of
  the flush and compaction pools. A wait signal holds when the after side has some and at least
  ``RISE`` times the before side's amount per interval.
* **queues** - levels of work queued behind flushing or compaction: Cassandra's ``pending_tasks`` of
  ``MemtableFlushWriter`` and ``CompactionExecutor``. A queue holds when its mean after is ``RISE`` times its
  mean before or more and it reached ``MIN_QUEUED`` tasks.
* **fill** - a level against its limit: InnoDB's checkpoint age against ``Innodb_checkpoint_max_age`` (the redo
  that must be flushed before it can be reused) and dirty pages against the buffer pool's pages. Holds when
  the share is ``FILL`` or more on average after the change and was less before, or when it already was (a
  small redo log sits at its limit under any steady write load) and what fills it - the redo written
  (``Innodb_os_log_written``), the page writes (``Innodb_buffer_pool_write_requests``) - came ``RISE`` times
  faster: at the limit, more writes must wait for the flushing.

Each family has its category: the flush families give ``flush-pressure`` (dirty data must be written before new
writes go on), the stall families ``write-stall`` (the engine slows or stops writes for its compaction
backlog). With signals of both, ``write-stall`` is the category (the stall is what the writers met).
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

RISE = 2.0       # after / before amount (waits, queues)
MIN_QUEUED = 1.0  # a queue must hold at least one task at some interval after the change
FILL = 0.75      # share of the limit (fill)

# (category, regex on the column name after "db.", case-insensitive)
WAITS = [
    ("flush-pressure", r"Innodb_buffer_pool_wait_free|Innodb_log_waits"),
    ("flush-pressure", r"thread_pools\.Memtable\w*\.blocked_tasks_all_time"),
    ("write-stall", r"Rocksdb_stall_\w+"),
    ("write-stall", r"thread_pools\.CompactionExecutor\.blocked_tasks_all_time"),
]
QUEUES = [
    ("flush-pressure", r"thread_pools\.Memtable\w*\.pending_tasks"),
    ("write-stall", r"thread_pools\.CompactionExecutor\.pending_tasks"),
]
# (category, level, its limit, words, the running total of what fills it)
FILLS = [
    ("flush-pressure", "Innodb_checkpoint_age", "Innodb_checkpoint_max_age", "of the checkpoint age limit",
     "Innodb_os_log_written"),
    ("flush-pressure", "Innodb_buffer_pool_pages_dirty", "Innodb_buffer_pool_pages_total", "of the buffer pool dirty",
     "Innodb_buffer_pool_write_requests"),
]
PREFIX = "db."


def _col(metrics: pd.DataFrame, name: str) -> str | None:
    want = (PREFIX + name).lower()
    return next((c for c in metrics.columns if c.lower() == want), None)


def _mean(v: np.ndarray) -> float:
    v = v[~np.isnan(v)]
    return float(v.mean()) if len(v) else float("nan")


def write_pressure(metrics: pd.DataFrame, before: np.ndarray, after: np.ndarray) -> dict | None:
    """{"category", "signals": [{"name", "kind", "before", "after", "category"}], "text"} when a signal of the
    families above went up between the intervals of the `before` and `after` masks; else None."""
    if metrics is None or metrics.empty or not before.any() or not after.any():
        return None
    signals = []
    for col in metrics.columns:
        if not col.startswith(PREFIX):
            continue
        name = col[len(PREFIX):]
        values = metrics[col].to_numpy(dtype=float)
        b, a = _mean(values[before]), _mean(values[after])
        if np.isnan(a):
            continue
        b = 0.0 if np.isnan(b) else b
        for category, pattern in WAITS:
            if re.fullmatch(pattern, name, re.IGNORECASE) and a > 0 and a >= RISE * b:
                signals.append({"name": col, "kind": "waits", "before": b, "after": a, "category": category})
        for category, pattern in QUEUES:
            if re.fullmatch(pattern, name, re.IGNORECASE) and a >= RISE * b and \
                    np.nanmax(values[after]) >= MIN_QUEUED and a > b:
                signals.append({"name": col, "kind": "queues", "before": b, "after": a, "category": category})
    for category, level, limit, what, driver in FILLS:
        lc, mc = _col(metrics, level), _col(metrics, limit)
        if lc is None or mc is None:
            continue
        with np.errstate(divide="ignore", invalid="ignore"):
            share = metrics[lc].to_numpy(dtype=float) / metrics[mc].to_numpy(dtype=float)
        share[~np.isfinite(share)] = np.nan
        b, a = _mean(share[before]), _mean(share[after])
        if np.isnan(a) or a < FILL:
            continue
        dc = _col(metrics, driver)
        fed = None
        if dc is not None:
            db, da = _mean(metrics[dc].to_numpy(dtype=float)[before]), _mean(metrics[dc].to_numpy(dtype=float)[after])
            if not np.isnan(db) and not np.isnan(da) and da >= RISE * db and da > 0:
                fed = {"name": dc, "before": db, "after": da}
        if (np.isnan(b) or b < FILL) or fed:
            signals.append({"name": lc, "kind": "fill", "before": None if np.isnan(b) else b, "after": a,
                            "category": category, "of": what, "fed": fed})
    if not signals:
        return None
    category = "write-stall" if any(s["category"] == "write-stall" for s in signals) else "flush-pressure"
    signals.sort(key=lambda s: (s["category"] != category, ["waits", "fill", "queues"].index(s["kind"])))
    return {"category": category, "signals": signals, "text": describe_pressure(category, signals)}


def _signal_text(s: dict) -> str:
    if s["kind"] == "fill":
        before = "?" if s["before"] is None else f"{100 * s['before']:.0f}"
        text = f"{s['name']} {before} → {100 * s['after']:.0f} % {s['of']}"
        fed = s.get("fed")
        if fed:
            text += f" while {fed['name']} went {_num(fed['before'])} → {_num(fed['after'])} per interval"
        return text
    per = " per interval" if s["kind"] == "waits" else " (mean)"
    return f"{s['name']} {_num(s['before'])} → {_num(s['after'])}{per}"


def _num(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:,.2f}".rstrip("0").rstrip(".") or "0"


def describe_pressure(category: str, signals: list[dict]) -> str:
    head = ("write stall: the engine slowed or stopped writes for its flush/compaction backlog"
            if category == "write-stall" else "flush pressure: dirty data had to be written before new writes")
    return f"{head} ({'; '.join(_signal_text(s) for s in signals[:3])})"
