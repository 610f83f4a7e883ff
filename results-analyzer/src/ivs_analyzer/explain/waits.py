"""What the sessions wait on at a step, and who holds it: a finding's cause from the server's own wait evidence.

The client's step snapshot (activity.jsonl) records, in each server's own terms, what every session waits on
and who blocks it. This module reads it without a list of known faults: sessions are grouped by the wait the
server names (a MariaDB process-list state "Waiting for ...", an InnoDB row-lock wait, a PostgreSQL
wait_event_type/wait_event, a Cassandra stage's pending or blocked tasks, a MongoDB operation waiting for a
lock), the largest group is the cause, and its holder is found the same way for every kind of lock:

* MariaDB/MyRocks: InnoDB lock waits name the blocking transaction's connection; for a state "Waiting for X",
  the holder is the session (not itself waiting) holding a metadata lock whose type is X ("table metadata
  lock", "backup lock", ...) in information_schema.METADATA_LOCK_INFO; where no view names it (no plugin, or
  a lock that is no metadata lock, as MyRocks' "Waiting for row lock"), the session that does not wait and has
  an open transaction, else runs a statement, else is the oldest, marked as inferred.
* PostgreSQL: pg_blocking_pids names the holder; pg_locks says which lock it holds on the waiter's relation.
* Cassandra: no session holds anything; the stages with work pending or blocked and the SSTable tasks
  running are the cause (flush-pressure for the memtable flush stages, write-stall for compaction).

Returns None when no session waits: the counters stay the evidence (changes.py, metrics.py).
"""
from __future__ import annotations

from collections import Counter

# What a MariaDB metadata lock mode is taken by, where the mode alone says it (MariaDB's MDL documentation).
MDL_STATEMENTS = {"MDL_SHARED_NO_READ_WRITE": "LOCK TABLES {table} WRITE",
                  "MDL_SHARED_READ_ONLY": "LOCK TABLES {table} READ",
                  "MDL_EXCLUSIVE": "DDL on {table}",
                  "MDL_BACKUP_FTWRL1": "FLUSH TABLES WITH READ LOCK",
                  "MDL_BACKUP_FTWRL2": "FLUSH TABLES WITH READ LOCK"}
# PostgreSQL wait events that are a session with nothing to do, not a wait for something.
PG_IDLE_WAIT_TYPES = {"Client", "Activity", "Timeout", "Extension", None, ""}
# PostgreSQL's table-level lock modes and the commands that take them (PostgreSQL 15 documentation, "Explicit
# Locking", table 13.2); LOCK TABLE takes any mode. A holder whose running statement is none of its mode's commands
# took the lock earlier in its transaction: pg_stat_activity shows only the statement running (or last run).
PG_MODE_COMMANDS = {
    "ShareUpdateExclusiveLock": ("VACUUM", "ANALYZE", "CREATE INDEX CONCURRENTLY", "CREATE STATISTICS", "COMMENT ON",
                                 "REINDEX CONCURRENTLY", "ALTER TABLE", "ALTER INDEX"),
    "ShareLock": ("CREATE INDEX",),
    "ShareRowExclusiveLock": ("CREATE TRIGGER", "ALTER TABLE"),
    "ExclusiveLock": ("REFRESH MATERIALIZED VIEW CONCURRENTLY",),
    "AccessExclusiveLock": ("ALTER TABLE", "DROP TABLE", "TRUNCATE", "REINDEX", "CLUSTER", "VACUUM FULL",
                            "REFRESH MATERIALIZED VIEW"),
}
FLUSH_STAGES = ("MemtableFlushWriter", "MemtablePostFlush", "PerDiskMemtableFlushWriter", "MemtableReclaimMemory")


def wait_cause(snapshot: dict) -> dict | None:
    """{"category", "wait", "waiting", "sessions", "blocker": {...} | None, "inferred", "text"} or None."""
    snapshot = snapshot or {}
    if "processlist" in snapshot or "lockWaits" in snapshot:
        return _mariadb(snapshot)
    if "sessions" in snapshot:
        return _postgres(snapshot)
    if "threadPools" in snapshot:
        return _cassandra(snapshot)
    if "operations" in snapshot:
        return _mongo(snapshot)
    return None


def _seconds(v) -> str:
    """The holder's age (its statement's or transaction's) when the snapshot was taken."""
    return f"{v} s old at the snapshot" if isinstance(v, (int, float)) else "age unknown"


def _text(c: dict) -> str:
    s = f"{c['waiting']} of {c['sessions']} sessions waiting for {c['wait']}"
    b = c.get("blocker")
    if b:
        s += f" held by {b['who']}{' (inferred: no lock holder view)' if c.get('inferred') else ''}: "
        s += f"{b['statement']}, {_seconds(b.get('seconds'))}"
    return s


def _mariadb(snap: dict) -> dict | None:
    sessions = [p for p in snap.get("processlist") or [] if (p.get("command") or "") != "Daemon"]
    total = len(sessions)
    by_id = {p.get("id"): p for p in sessions}
    groups: list[dict] = []
    # InnoDB row-lock waits: the blocking transaction's connection is named by the server
    rows: dict = {}
    for w in snap.get("lockWaits") or []:
        b = w.get("blocking") or {}
        rows.setdefault(b.get("threadId"), {"blocking": b, "waiting": set()})["waiting"].add(
            (w.get("waiting") or {}).get("threadId"))
    for thread, g in rows.items():
        b = g["blocking"]
        statement = b.get("query") or "idle in its transaction (no statement running)"
        groups.append({"category": "lock-wait", "wait": "a row lock", "waiting": len(g["waiting"]),
                       "blocker": {"id": thread, "who": f"connection {thread} (transaction {b.get('trxId')})",
                                   "statement": statement, "seconds": b.get("runSeconds"),
                                   "rowsLocked": b.get("rowsLocked")}, "inferred": False})
    # "Waiting for ..." states: whatever the server calls the wait
    waiting_ids = {p.get("id") for p in sessions if (p.get("state") or "").startswith("Waiting for")}
    states = Counter((p.get("state") or "") for p in sessions if p.get("id") in waiting_ids)
    for state, n in states.items():
        what = state[len("Waiting for "):]
        holder, inferred = _mdl_holder(snap, what, waiting_ids, sessions)
        blocker = None
        if holder is not None:
            lock, thread = holder
            p = by_id.get(thread, {})
            statement = p.get("info") or _mdl_statement(lock) or "idle (no statement running)"
            if lock and p.get("info") and _mdl_statement(lock):
                statement = f"{p['info']} (holds {_mdl_statement(lock)})"
            blocker = {"id": thread, "who": f"connection {thread}", "statement": statement,
                       "seconds": p.get("timeSeconds"), "lockMode": (lock or {}).get("lockMode")}
        groups.append({"category": "lock-wait", "wait": what, "waiting": n, "blocker": blocker, "inferred": inferred})
    if not groups:
        return None
    best = max(groups, key=lambda g: g["waiting"])
    best["sessions"] = max(total, best["waiting"])
    best["text"] = _text(best)
    return best


def _mdl_statement(lock: dict | None) -> str | None:
    if not lock:
        return None
    template = MDL_STATEMENTS.get(lock.get("lockMode") or "")
    table = ".".join(x for x in (lock.get("schema"), lock.get("table")) if x)
    if template:
        return template.format(table=table or "?")
    return f"{lock.get('lockMode')} ({lock.get('lockType')}{' on ' + table if table else ''})"


def _mdl_holder(snap: dict, what: str, waiting: set, sessions: list[dict]):
    """((lock, thread), inferred) of the session holding the kind of lock `what` names. METADATA_LOCK_INFO names
    it when the wait is for a metadata lock; for a wait no view names the holder of (no plugin, or a lock that
    is not a metadata lock: a MyRocks "Waiting for row lock") it is inferred from the process list."""
    locks = snap.get("metadataLocks")
    if locks is not None:
        kind = what.lower()
        held = [lk for lk in locks if lk.get("threadId") not in waiting
                and (lk.get("lockType") or "").lower() in kind]
        if held:
            ages = {p.get("id"): p.get("timeSeconds") or 0 for p in sessions}
            lock = max(held, key=lambda lk: ages.get(lk.get("threadId"), 0))
            return (lock, lock.get("threadId")), False
    others = [p for p in sessions if p.get("id") not in waiting]
    if not others:
        return None, False
    # the likeliest holder: a session with an open transaction, then one running a statement, then the oldest
    in_trx = {t.get("threadId") for t in snap.get("transactions") or []}
    oldest = max(others, key=lambda p: (p.get("id") in in_trx, (p.get("command") or "") != "Sleep",
                                        p.get("timeSeconds") or 0))
    return (None, oldest.get("id")), True


def _postgres(snap: dict) -> dict | None:
    sessions = snap.get("sessions") or []
    by_pid = {s.get("pid"): s for s in sessions}
    waiting = [s for s in sessions if s.get("blockedBy") or s.get("waitEventType") not in PG_IDLE_WAIT_TYPES]
    if not waiting:
        return None
    key = Counter((s.get("waitEventType"), s.get("waitEvent"), (s.get("blockedBy") or [None])[0]) for s in waiting)
    (etype, event, holder), n = key.most_common(1)[0]
    wait = f"a {event} lock" if etype == "Lock" else f"{etype}: {event}"
    category = "lock-wait" if etype in ("Lock", "LWLock", "BufferPin") or holder is not None else \
        "io-contention" if etype == "IO" else "server-wait"
    blocker = None
    if holder is not None:
        h = by_pid.get(holder, {})
        statement = h.get("query") or "?"
        held = _pg_held_lock(snap, holder, [s.get("pid") for s in waiting])
        if held:
            statement += f" (holds {held}{_pg_taken_earlier(h.get('query'), held)})"
        state = h.get("state")
        blocker = {"id": holder, "who": f"pid {holder}" + (f" ({state})" if state else ""), "statement": statement,
                   "seconds": h.get("xactSeconds")}
    c = {"category": category, "wait": wait, "waiting": n, "sessions": len(sessions), "blocker": blocker,
         "inferred": False}
    c["text"] = _text(c)
    return c


def _pg_taken_earlier(query: str | None, held: str) -> str:
    """", taken earlier in its transaction: ..." when the holder's statement cannot have taken a table lock of that
    mode (a SELECT holding an AccessExclusiveLock: an ALTER TABLE before it in the same transaction took it), with
    the commands that take the mode; "" when it can, or when the mode is one that ordinary reads and writes take."""
    mode, _, on = held.partition(" on ")
    commands = PG_MODE_COMMANDS.get(mode)
    if not query or not commands or on.startswith("transaction "):  # a row lock: its own transaction id's lock
        return ""
    verb = query.lstrip(" (").split(None, 1)[0].upper() if query.strip(" (") else ""
    if verb == "LOCK" or verb in {c.split()[0] for c in commands}:
        return ""
    return (f", taken earlier in its transaction: {verb or 'its statement'} takes no {mode}; "
            f"{', '.join(commands)} or LOCK TABLE do")


def _pg_held_lock(snap: dict, holder, waiters: list) -> str | None:
    """The lock the holder has on what a waiter asks for (same relation or transaction id)."""
    locks = snap.get("locks") or []
    wanted = [lk for lk in locks if lk.get("pid") in waiters and not lk.get("granted")]
    for w in wanted:
        for lk in locks:
            if lk.get("pid") == holder and lk.get("granted") and lk.get("lockType") == w.get("lockType") and \
                    (lk.get("relation"), lk.get("transactionId")) == (w.get("relation"), w.get("transactionId")):
                on = lk.get("relation") or f"transaction {lk.get('transactionId')}"
                return f"{lk.get('mode')} on {on}"
    return None


def _cassandra(snap: dict) -> dict | None:
    busy = [p for p in snap.get("threadPools") or []
            if (p.get("pending_tasks") or 0) > 0 or (p.get("blocked_tasks") or 0) > 0]
    tasks = snap.get("sstableTasks") or []
    if not busy and not tasks:
        return None
    busy.sort(key=lambda p: -((p.get("pending_tasks") or 0) + (p.get("blocked_tasks") or 0)))
    names = [p.get("name") or "" for p in busy]
    category = ("flush-pressure" if any(n.startswith(FLUSH_STAGES) for n in names) else
                "write-stall" if any(n == "CompactionExecutor" for n in names) or tasks else "backlog")
    parts = [f"{p.get('name')}: {p.get('pending_tasks') or 0} pending, {p.get('blocked_tasks') or 0} blocked"
             for p in busy[:4]]
    parts += [f"{t.get('kind', 'task').lower()} of {t.get('keyspace_name')}.{t.get('table_name')} running "
              f"({100 * float(t.get('completion_ratio') or 0):.0f} %)" for t in tasks[:3]]
    c = {"category": category, "wait": "; ".join(parts), "waiting": sum((p.get("pending_tasks") or 0)
                                                                       + (p.get("blocked_tasks") or 0) for p in busy),
         "sessions": None, "blocker": None, "inferred": False}
    c["text"] = "server stages backed up: " + c["wait"]
    return c


def _mongo(snap: dict) -> dict | None:
    ops = snap.get("operations") or []
    locked = [o for o in ops if o.get("waitingForLock")]
    if not locked:
        return None
    c = {"category": "lock-wait", "wait": "a lock", "waiting": len(locked), "sessions": len(ops), "blocker": None,
         "inferred": False}
    c["text"] = f"{len(locked)} of {len(ops)} operations waiting for a lock (currentOp names no holder)"
    return c


def strongest(entries: list[dict]) -> dict | None:
    """The wait cause of the snapshot (entries of activity.jsonl) where the most sessions wait; None without."""
    found = [c for c in (wait_cause(e.get("snapshot") or {}) for e in entries) if c]
    return max(found, key=lambda c: c["waiting"]) if found else None
