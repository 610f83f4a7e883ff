"""Server capacity taken by other work inside the server (`server-work`, docs/diagnosis.md): other sessions'
heavy statements running while the benchmark's operations slowed, named from the step's activity snapshots.

The benchmark's own statements run for milliseconds; a statement the snapshot shows running for MIN_SECONDS or
more, not waiting for a lock, not sleeping and not idle, is other work the server is doing for someone else -
a report, a scan, a batch job - and it takes the server's own CPU and I/O, which the host's attribution
(explain/cpu.py) then calls "the database server". The rule reads the snapshot's own fields, not a list of
statements:

* MariaDB / MyRocks (`processlist`): a session whose command is not `Sleep` (nor a server thread: `Daemon`,
  `Binlog Dump`, `Killed`, user `system user` / `event_scheduler`), running its statement (`info`) for
  `timeSeconds` >= MIN_SECONDS, in a state that is not a wait ("Waiting for ...", "User sleep");
* PostgreSQL (`sessions`): state `active`, `querySeconds` >= MIN_SECONDS, not blocked (`blockedBy` empty) and
  not waiting on a lock, a timeout (`pg_sleep`), the client or for activity (an idle background process).

A slow statement of the benchmark's own is not other work: a long-running statement whose shape (its text with
literals and numbers as "?") another session of the same snapshot runs in less than MIN_SECONDS is one of the
terminals' operations, starved like the rest, and is left out.

It names the sessions (id or pid, user, seconds, statement), the longest first. report/folders.attach_activity
gives a change for the worse this category when no session waits on a lock with a holder, the client's
evidence (a server gone, connections refused or lost) is not there, and another process did not take the
host's CPU (the machine): it replaces no category or `buffer-miss` (other sessions' scans are why the cache
misses) or a `long-transaction` the counters alone gave (a version backlog - InnoDB's history list, PostgreSQL's
dead tuples - with no transaction open since before the step in the snapshots: a statement running for seconds
holds old versions back as an open transaction does, and the snapshot names it), and leaves the engine's write
pressure (its own account of why writes slowed) in place.
"""
from __future__ import annotations

import re

from .cpu import from_outside

MIN_SECONDS = 1.0
SERVER_THREADS = ("sleep", "daemon", "binlog dump", "killed")
SERVER_USERS = ("system user", "event_scheduler")
PG_NOT_WORKING = ("Lock", "Timeout", "Client", "Activity")
NAMED = 3


def _mariadb(p: dict) -> dict | None:
    state = (p.get("state") or "").lower()
    if (p.get("command") or "").lower() in SERVER_THREADS or (p.get("user") or "").lower() in SERVER_USERS:
        return None
    if not p.get("info") or float(p.get("timeSeconds") or 0) < MIN_SECONDS:
        return None
    if state.startswith("waiting for") or state == "user sleep":
        return None
    return {"id": p.get("id"), "user": p.get("user"), "seconds": float(p.get("timeSeconds") or 0),
            "statement": p["info"], "state": p.get("state") or p.get("command"), "kind": "connection"}


def _postgres(s: dict) -> dict | None:
    if s.get("state") != "active" or not s.get("query") or float(s.get("querySeconds") or 0) < MIN_SECONDS:
        return None
    if s.get("blockedBy") or s.get("waitEventType") in PG_NOT_WORKING:
        return None
    wait = f"{s.get('waitEventType')}: {s.get('waitEvent')}" if s.get("waitEventType") else "on CPU"
    return {"id": s.get("pid"), "user": s.get("user"), "seconds": float(s.get("querySeconds") or 0),
            "statement": s["query"], "state": wait, "kind": "pid"}


def shape(statement: str | None) -> str:
    """A statement with its literals and numbers as "?", whitespace collapsed, lower case."""
    text = re.sub(r"'(?:[^']|'')*'|\b\d+(?:\.\d+)?\b", "?", statement or "")
    return " ".join(text.split()).lower()


def other_sessions(snapshot: dict) -> list[dict]:
    """The sessions of one activity snapshot running heavy statements of their own (see the module doc)."""
    found = [_mariadb(p) for p in snapshot.get("processlist") or []]
    found += [_postgres(s) for s in snapshot.get("sessions") or []]
    short = {shape(p.get("info")) for p in snapshot.get("processlist") or []
             if p.get("info") and float(p.get("timeSeconds") or 0) < MIN_SECONDS}
    short |= {shape(s.get("query")) for s in snapshot.get("sessions") or []
              if s.get("state") == "active" and s.get("query") and float(s.get("querySeconds") or 0) < MIN_SECONDS}
    return [f for f in found if f and shape(f["statement"]) not in short]


def server_work(entries: list[dict], cpu: dict | None) -> dict | None:
    """The `server-work` cause from a step's snapshots (activity entries: {"time_ms", "snapshot"}), or None:
    {"category", "sessions" (longest first, each once), "blocker" (the longest), "text"}."""
    if from_outside(cpu):
        return None
    by_id: dict = {}
    for e in entries:
        for s in other_sessions(e.get("snapshot") or {}):
            key = (s["kind"], s["id"])
            if key not in by_id or s["seconds"] > by_id[key]["seconds"]:
                by_id[key] = s
    if not by_id:
        return None
    sessions = sorted(by_id.values(), key=lambda s: -s["seconds"])
    named = "; ".join(f"{s['kind']} {s['id']} (user {s['user']}, {s['seconds']:.0f} s, {s['state']}): "
                      f"{' '.join(str(s['statement']).split())[:200]}" for s in sessions[:NAMED])
    more = f"; and {len(sessions) - NAMED} more" if len(sessions) > NAMED else ""
    host = " (host CPU taken by the database server)" if cpu and cpu.get("taken_by") == "the database server" else ""
    text = (f"server capacity taken by other work inside it{host}: {len(sessions)} other session(s) running "
            f"long statements: {named}{more}")
    b = sessions[0]
    return {"category": "server-work", "sessions": sessions, "waiting": 0, "wait": "other sessions' work",
            "blocker": {"id": b["id"], "kind": b["kind"], "user": b["user"], "seconds": b["seconds"],
                        "query": b["statement"]}, "text": text}
