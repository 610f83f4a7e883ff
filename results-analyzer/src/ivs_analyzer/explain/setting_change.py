"""A setting changed while the server ran (`setting-change`, docs/diagnosis.md "Causes inside the server"): the
monitor reads the server's settings every interval and records the ones that changed (setting-changes.csv:
the setting, old and new value, between which two reads). Nothing in the counters says a setting moved, only its
consequences (misses after a smaller buffer pool, slower commits after synchronous_commit = on), so the record
itself is the evidence: a step or an episode whose context windows before it (the windows the cause search
compares, detect/steps.py) or its first PLACEMENT windows hold a change gets the category, for the better as
for the worse (a setting can make a server faster as well as slower). A change later in the context is not its
cause (first corpus run of scenario 21: the box's p99 fall 9 s before the SET GLOBAL was given it); the first
windows are allowed because the detector may place a change point a few windows early (scenario 22's first
run: the episode placed 2 s before the reload; the activity snapshots are taken within as many windows).

It ranks after the client's own evidence (a server gone, connections refused or lost: explain/findings.py) and
before the counter categories (write pressure, buffer misses, the machine, old transactions), which stay in the
title as "meanwhile": they are what the new value did. A snapshot's wait replaces it only when it names a holder
(a lock held by a session: report/folders.attach_activity).
"""
from __future__ import annotations

import pandas as pd

NAMED = 3
PLACEMENT = 3   # windows after the placed change point a setting change may still be its cause


def settings_changed(changes: pd.DataFrame | None, lo: float, hi: float, start_ms: float) -> dict | None:
    """The setting changes whose interval (since_ms, time_ms] meets [lo, hi) - the step's context before it and its
    first PLACEMENT windows - or None:
    {"category", "changes": [{"name", "old", "new", "since_ms", "time_ms"}] in time order, "text"}."""
    if changes is None or changes.empty:
        return None
    rows = changes[(changes["time_ms"] >= lo) & (changes["since_ms"] < hi)]
    if rows.empty:
        return None
    found = [{"name": r["name"], "old": r["old_value"], "new": r["new_value"], "since_ms": float(r["since_ms"]),
              "time_ms": float(r["time_ms"])} for r in rows.to_dict("records")]
    return {"category": "setting-change", "changes": found, "text": describe(found, start_ms)}


def _value(v: str) -> str:
    v = " ".join(str(v).split())
    return "(none)" if not v else (v if len(v) <= 60 else v[:57] + "...")


def describe(found: list[dict], start_ms: float) -> str:
    """'a setting changed while the server ran: NAME OLD → NEW between t = A and B s; ...'."""
    parts = []
    for c in found[:NAMED]:
        a, b = (c["since_ms"] - start_ms) / 1000, (c["time_ms"] - start_ms) / 1000
        parts.append(f"{c['name']} {_value(c['old'])} → {_value(c['new'])} between t = {a:.0f} and {b:.0f} s")
    more = f"; and {len(found) - NAMED} more" if len(found) > NAMED else ""
    n = len(found)
    return (f"{'a setting' if n == 1 else f'{n} settings'} changed while the server ran: "
            + "; ".join(parts) + more)
