"""Buffer misses read from the server's own counters: `buffer-miss` without a wait snapshot.

When the working set no longer fits the server's cache, reads the cache served before go to storage (the OS's
page cache, or the disk when the server bypasses it), and each engine counts them. The monitor records these
running totals as the amount per interval (db.* columns of monitor.csv); this rule reads them **per operation**
of the benchmark (the amount per interval over the operations in it), so a move that only follows throughput
is not one. The family, per server, names what the engine counts, never a scenario:

* InnoDB ``Innodb_buffer_pool_reads`` (pages the buffer pool did not have), ``Innodb_pages_read`` and
  ``Innodb_data_reads`` (the page and file reads those took);
* MyRocks ``Rocksdb_block_cache_miss`` and its per-kind ``Rocksdb_block_cache_<kind>_miss`` (data, index,
  filter blocks not in the block cache);
* PostgreSQL ``pg_stat_database.blks_read`` (blocks not in shared buffers).

A signal holds across a change when, per operation,

* the mean after is at least ``RISE`` times the mean before and higher by at least ``MIN_PER_OP`` (one storage
  read per 100 operations: fewer cannot move the p99, the slowest 1 in 100);
* more of them reach storage, not only per operation: the reads per interval rose by at least ``MIN_PER_OP``
  times the operations per interval of the busier side (a stall that cuts the operations - a held lock - makes
  the same few reads weigh more per operation without any more of them);
* and it moved **at** the change, not over the whole context: the rise from the last ``EDGE`` intervals before
  the change to the first ``EDGE`` after it (their medians) is at least ``STEP_SHARE`` of the rise between the
  sides' means. A working set that grows gradually (values that grow with their extends) makes the misses
  climb smoothly: its sides differ, but its edge carries only a small part of that, so a gradual trend is not
  read as a cache that stopped fitting at that moment.

The step's category is then ``buffer-miss`` (explain/findings.py); a wait in the step's server snapshot still
overrides it (report/folders.py attach_activity), and write pressure (explain/pressure.py) ranks before it.
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

RISE = 2.0         # after / before, per operation
MIN_PER_OP = 0.01  # the rise must be at least one storage read per 100 operations
EDGE = 3           # intervals either side of the change whose medians make the edge
STEP_SHARE = 0.5   # the edge must carry at least this share of the rise between the sides' means

# (regex on the column name after "db.", case-insensitive, words); first = the one a finding names first
FAMILY = [
    (r"Innodb_buffer_pool_reads", "buffer pool misses (pages read from storage)"),
    (r"Innodb_pages_read", "pages read"),
    (r"Innodb_data_reads", "data file reads"),
    (r"Rocksdb_block_cache_miss|Rocksdb_block_cache_\w+_miss", "block cache misses"),
    (r"pg_stat_database\.blks_read", "blocks read outside shared buffers"),
]
PREFIX = "db."


def _mean(v: np.ndarray) -> float:
    v = v[np.isfinite(v)]
    return float(v.mean()) if len(v) else float("nan")


def _median(v: np.ndarray) -> float:
    v = v[np.isfinite(v)]
    return float(np.median(v)) if len(v) else float("nan")


def buffer_misses(metrics: pd.DataFrame, before: np.ndarray, after: np.ndarray, ops: np.ndarray) -> dict | None:
    """{"category": "buffer-miss", "signals": [{"name", "before", "after", "words"}], "text"} when a counter of
    the family above rose per operation at the change between the intervals of the `before` and `after` masks;
    `ops` is the benchmark's operations in each interval of `metrics` (NaN where unknown). Else None."""
    if metrics is None or metrics.empty or not before.any() or not after.any():
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        ops = np.where(np.asarray(ops, dtype=float) > 0, np.asarray(ops, dtype=float), np.nan)
    idx_before, idx_after = np.flatnonzero(before), np.flatnonzero(after)
    signals = []
    for rank, (pattern, words) in enumerate(FAMILY):
        for col in metrics.columns:
            if not col.startswith(PREFIX) or not re.fullmatch(pattern, col[len(PREFIX):], re.IGNORECASE):
                continue
            amount = metrics[col].to_numpy(dtype=float)
            per_op = amount / ops
            b, a = _mean(per_op[before]), _mean(per_op[after])
            if not np.isfinite(a) or not np.isfinite(b) or a - b < MIN_PER_OP or a < RISE * b:
                continue
            busier = max(_mean(ops[before]), _mean(ops[after]))
            if not _mean(amount[after]) - _mean(amount[before]) >= MIN_PER_OP * busier:
                continue
            edge = _median(per_op[idx_after[:EDGE]]) - _median(per_op[idx_before[-EDGE:]])
            if not np.isfinite(edge) or edge < STEP_SHARE * (a - b):
                continue
            signals.append({"name": col, "before": b, "after": a, "words": words, "rank": rank})
    if not signals:
        return None
    signals.sort(key=lambda s: (s["rank"], -s["after"]))
    return {"category": "buffer-miss", "signals": signals, "text": describe_misses(signals)}


def _num(v: float) -> str:
    return f"{v:,.2f}" if abs(v) >= 0.1 else f"{v:.3g}"


def _same(a: dict, b: dict) -> bool:
    return all(abs(a[k] - b[k]) <= 0.01 * max(abs(a[k]), abs(b[k]), 1e-9) for k in ("before", "after"))


def describe_misses(signals: list[dict]) -> str:
    """The first three signals, one counting the same as an earlier one (InnoDB's buffer pool misses, pages read
    and data reads are one read each per page here) named beside it."""
    groups: list[list[dict]] = []
    for s in signals:
        g = next((g for g in groups if _same(g[0], s)), None)
        g.append(s) if g else groups.append([s])
    parts = "; ".join(f"{g[0]['name']} {_num(g[0]['before'])} → {_num(g[0]['after'])} per operation"
                      + (f" (as {', '.join(x['name'] for x in g[1:])})" if len(g) > 1 else "") for g in groups[:3])
    return f"buffer misses: reads the cache served before went to storage ({parts})"
