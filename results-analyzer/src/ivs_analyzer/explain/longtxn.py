"""A long transaction holding back purge / vacuum: `long-transaction`, from the step snapshot and the counters.

An old transaction that stays open blocks nobody: no session waits for it, so waits.py finds nothing. Its cost
comes as row versions the server must keep for its snapshot (InnoDB cannot purge the undo of anything committed
after it; PostgreSQL cannot prune or vacuum tuples that died after it), so versions pile up on the rows being
updated and every read of them walks longer version chains. Two kinds of evidence, both the server's own:

* **the snapshot** (report/folders.py attach_activity, when no session waits): a session with a transaction
  open and **no statement running** whose transaction began **before the change** (its age at the snapshot
  reaches back to the change's start, and is at least one window: no operation of the benchmark is idle inside
  its transaction that long). MariaDB: a transaction of ``information_schema.INNODB_TRX`` (``transactions``)
  whose connection is ``Sleep`` in the process list; PostgreSQL: a session ``idle in transaction`` whose
  ``backend_xmin`` is set (``holdsSnapshot``: it holds back the horizon), aged by ``xact_start``. The oldest such
  transaction is the holder, named by its connection id / pid.
* **the counters** (explain/changes.py): a level of versions kept for old snapshots that kept growing after the
  change: InnoDB ``Innodb_history_list_length`` (undo logs not yet purged), PostgreSQL ``n_dead_tup`` of the
  tables (``pg_stat_user_tables.n_dead_tup``), whatever the server. Purge / vacuum that keeps up holds such a
  level around its own lag, up and down; one that is held back lets it grow with every update. It holds when
  the level rose from interval to interval in at least ``GROWING`` of the intervals after the change, by no
  trivial amount on average (at least 1 per 100 operations of an interval), and its mean after is above its
  mean before. It may have grown before the change too (the versions pile up from the transaction's start;
  the reads slow down once the chains are long).

Both describe a cost that makes operations slower: only a change for the worse (p99 up, throughput down) is
given the category (explain/findings.py, report/folders.py).
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

GROWING = 0.75        # share of the intervals after the change in which the level rose
TRIVIAL_PER_OP = 0.01  # a rise below 1 version per 100 operations per interval is no backlog
BACKLOGS = [r"Innodb_history_list_length", r"pg_stat_user_tables\.(\w+\.)?n_dead_tup"]
PREFIX = "db."


def old_idle_transaction(snapshot: dict, snapshot_ms: float, change_ms: float, window_ms: float) -> dict | None:
    """The oldest transaction of a step snapshot that is open with no statement running and began before the
    change (module doc), as a cause {"category", "wait", "waiting", "sessions", "blocker", "inferred", "text"};
    None without one. Waiting sessions are not looked at here: a wait is waits.py's cause."""
    snapshot = snapshot or {}
    since_s = max(window_ms, snapshot_ms - change_ms) / 1000.0
    found = []
    if "transactions" in snapshot or "processlist" in snapshot:
        sessions = {p.get("id"): p for p in snapshot.get("processlist") or []}
        for t in snapshot.get("transactions") or []:
            p = sessions.get(t.get("threadId"))
            age = t.get("runSeconds")
            if p is None or (p.get("command") or "") != "Sleep" or not isinstance(age, (int, float)):
                continue
            if age >= since_s:
                found.append({"id": t.get("threadId"), "who": f"connection {t.get('threadId')} (transaction "
                              f"{t.get('trxId')})", "statement": "idle in its transaction (no statement running)",
                              "seconds": age, "idleSeconds": p.get("timeSeconds")})
        total = len(sessions)
    else:
        sessions = snapshot.get("sessions") or []
        for s in sessions:
            age = s.get("xactSeconds")
            if not (s.get("state") or "").startswith("idle in transaction") or s.get("holdsSnapshot") is False \
                    or not isinstance(age, (int, float)):
                continue
            if age >= since_s:
                found.append({"id": s.get("pid"), "who": f"pid {s.get('pid')} ({s.get('state')})",
                              "statement": f"last statement: {s.get('query') or '?'}", "seconds": age,
                              "idleSeconds": s.get("stateSeconds")})
        total = len(sessions)
    if not found:
        return None
    holder = max(found, key=lambda b: b["seconds"])
    c = {"category": "long-transaction", "wait": "nothing (an open transaction holds back purge / vacuum)",
         "waiting": 0, "sessions": total, "blocker": holder, "inferred": False}
    c["text"] = (f"long transaction: {holder['who']} has held a transaction open for {holder['seconds']:.0f} s "
                 f"(since before the change), {holder['statement']}: the row versions written since its "
                 "snapshot cannot be purged")
    return c


def _mean(v: np.ndarray) -> float:
    v = v[~np.isnan(v)]
    return float(v.mean()) if len(v) else float("nan")


def version_backlog(metrics: pd.DataFrame, before: np.ndarray, after: np.ndarray,
                    ops_per_interval: float) -> dict | None:
    """{"signals": [{"name", "before", "after", "last", "per_interval"}], "text"} when a level of the BACKLOGS
    family kept growing after the change (module doc), else None. ops_per_interval: the operations of one monitor
    interval (the larger side's), for the trivial-amount rule."""
    if metrics is None or metrics.empty or not before.any() or after.sum() < 3:
        return None
    signals = []
    for col in metrics.columns:
        name = col[len(PREFIX):] if col.startswith(PREFIX) else None
        if name is None or not any(re.fullmatch(p, name, re.IGNORECASE) for p in BACKLOGS):
            continue
        values = metrics[col].to_numpy(dtype=float)
        b, a = _mean(values[before]), _mean(values[after])
        if np.isnan(a) or np.isnan(b):
            continue
        tail = values[after]
        tail = tail[~np.isnan(tail)]
        if len(tail) < 3:
            continue
        steps = np.diff(tail)
        rising = float(np.mean(steps > 0))
        per_interval = float(tail[-1] - tail[0]) / (len(tail) - 1)
        if rising >= GROWING and per_interval >= TRIVIAL_PER_OP * ops_per_interval and a > b:
            signals.append({"name": col, "before": b, "after": a, "last": float(tail[-1]),
                            "per_interval": per_interval})
    if not signals:
        return None
    signals.sort(key=lambda s: -s["per_interval"])
    return {"signals": signals, "text": describe_backlog(signals)}


def describe_backlog(signals: list[dict]) -> str:
    parts = "; ".join(f"{s['name']} {s['before']:,.0f} → {s['after']:,.0f} (mean), {s['last']:,.0f} at the end, "
                      f"+{s['per_interval']:,.0f} per interval"
                      for s in signals[:3])
    return ("long transaction: row versions kept for an old snapshot piled up, purge / vacuum held back "
            f"({parts})")
