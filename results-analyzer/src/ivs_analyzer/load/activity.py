"""The server activity snapshots a run took at its detected steps (activity.jsonl, docs/results-format.md).

The client's online detector takes ONE snapshot per step (processlist and lock waits on MariaDB, currentOp on
MongoDB); the report pairs a step the analyzer found with the snapshots taken around it, which is what
names a blocker. Only the standard library: the file is small (one line per step).
"""
from __future__ import annotations

import json
from pathlib import Path

from .results import AnalyzerError

ACTIVITY_FILE = "activity.jsonl"


def load_activity(run: str | Path) -> list[dict]:
    """The snapshots of a run folder (or of an activity.jsonl file itself), oldest first; [] without the file.

    A last line cut short (the run was killed while writing it) is dropped; any other line that is not a JSON
    object is an AnalyzerError naming the file and line.
    """
    path = Path(run)
    if path.is_dir():
        path = path / ACTIVITY_FILE
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    entries = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as e:
            if number == len(lines):
                break
            raise AnalyzerError(f"{path}: line {number} is not JSON ({e.msg})") from e
        if not isinstance(entry, dict) or not isinstance(entry.get("time_ms"), (int, float)):
            raise AnalyzerError(f"{path}: line {number} has no numeric time_ms")
        entries.append(entry)
    entries.sort(key=_when)
    return entries


def _when(entry: dict) -> float:
    """The step's time as samples.csv counts it: the start of the window that completed the step."""
    window = entry.get("window_ms")
    return float(window if isinstance(window, (int, float)) else entry["time_ms"])


def nearest_snapshot(activity: str | Path | list[dict], step_time_ms: float,
                     max_distance_ms: float | None = None) -> dict | None:
    """The entry (time_ms, window_ms, phase, trigger, snapshot) nearest to `step_time_ms` (epoch ms, as
    samples.csv's time_ms), or None when there is none or the nearest lies more than `max_distance_ms` away.
    On a tie the earlier snapshot wins: it was taken closer to the step's start.
    """
    entries = activity if isinstance(activity, list) else load_activity(activity)
    best = None
    for entry in entries:
        distance = abs(_when(entry) - step_time_ms)
        if best is None or distance < best[0]:
            best = (distance, entry)
    if best is None or (max_distance_ms is not None and best[0] > max_distance_ms):
        return None
    return best[1]


def snapshots_between(activity: str | Path | list[dict], from_ms: float, to_ms: float) -> list[dict]:
    """The entries whose step time lies in [from_ms, to_ms], oldest first. A stall right after a latency wobble
    has two snapshots close together (the client takes one for each kind of step), and the blocker may be in
    either, so a finding keeps all of those around it, not only the nearest."""
    entries = activity if isinstance(activity, list) else load_activity(activity)
    return [e for e in entries if from_ms <= _when(e) <= to_ms]


def describe_snapshot(entry: dict, start_ms: float) -> list[str]:
    """Plain sentences for a finding's evidence: who blocked whom (MariaDB lock waits), what ran (sessions that
    were not sleeping, MongoDB operations), and what the server would not say."""
    snap = entry.get("snapshot") or {}
    when = f"server snapshot at t = {(float(entry['time_ms']) - start_ms) / 1000:.0f} s"
    out: list[str] = []
    waits = snap.get("lockWaits") or []
    blockers: dict = {}
    for w in waits:
        b = w.get("blocking") or {}
        key = (b.get("threadId"), b.get("trxId"))
        blockers.setdefault(key, {"blocking": b, "waiting": []})["waiting"].append(w.get("waiting") or {})
    for (thread, trx), g in blockers.items():
        b = g["blocking"]
        query = b.get("query") or "idle in its transaction (no statement running)"
        out.append(f"{when}: transaction {trx} on connection {thread} blocks {len(g['waiting'])} waiting "
                   f"transaction(s); it has run {b.get('runSeconds', '?')} s, holds {b.get('rowsLocked', '?')} "
                   f"row lock(s), state {b.get('state')}, query: {query}")
    busy = [p for p in snap.get("processlist") or [] if (p.get("command") or "").lower() not in ("sleep", "daemon")]
    if busy and not waits:
        states: dict = {}
        for p in busy:
            states[p.get("state") or p.get("command") or "?"] = states.get(p.get("state") or p.get("command") or "?", 0) + 1
        out.append(f"{when}: {len(busy)} active session(s): " + ", ".join(f"{n} {s}" for s, n in
                                                                       sorted(states.items(), key=lambda x: -x[1])))
    ops = snap.get("operations") or []
    if ops:
        locked = sum(1 for o in ops if o.get("waitingForLock"))
        out.append(f"{when}: {len(ops)} active operation(s), {locked} waiting for a lock")
    for key in ("note", "processlistNote", "lockWaitsNote"):
        if snap.get(key):
            out.append(f"{when}: {snap[key]}")
    return out
