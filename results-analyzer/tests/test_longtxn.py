"""A long transaction holding back purge / vacuum (explain/longtxn.py): the idle old transaction named from a step
snapshot, the version backlog from the counters, and the category each gives a finding (explain/findings.py,
report/folders.attach_activity). Hand-written snapshots and monitor frames; the change at t = 100 s."""
import numpy as np
import pandas as pd

from ivs_analyzer.explain.findings import run_findings
from ivs_analyzer.explain.longtxn import old_idle_transaction, version_backlog
from ivs_analyzer.report.folders import attach_activity

CHANGE_MS = 100_000


def _mariadb(age_s: int, command: str = "Sleep") -> dict:
    """Four benchmark sessions (one inside a short transaction) and connection 31 with an old transaction."""
    procs = [{"id": i, "command": "Query" if i % 2 else "Sleep", "timeSeconds": 0, "state": "", "info": None}
             for i in (11, 12, 13, 14)]
    procs.append({"id": 31, "command": command, "timeSeconds": age_s - 1, "state": "", "info": None})
    trx = [{"trxId": "421", "threadId": 31, "state": "RUNNING", "runSeconds": age_s, "rowsLocked": 0, "query": None},
           {"trxId": "9001", "threadId": 12, "state": "RUNNING", "runSeconds": 0, "rowsLocked": 1, "query": None}]
    return {"processlist": procs, "lockWaits": [], "metadataLocks": [], "transactions": trx}


def _postgres(age_s: float, state: str = "idle in transaction", holds: bool = True) -> dict:
    bench = [{"pid": 700 + i, "state": "idle in transaction", "waitEventType": "Client", "waitEvent": "ClientRead",
              "blockedBy": [], "query": "SELECT ...", "xactSeconds": 0, "stateSeconds": 0, "holdsSnapshot": False}
             for i in range(4)]
    old = {"pid": 4242, "state": state, "waitEventType": "Client", "waitEvent": "ClientRead", "blockedBy": [],
           "query": "SELECT pg_backend_pid() FROM ...", "xactSeconds": age_s, "stateSeconds": age_s,
           "holdsSnapshot": holds}
    return {"sessions": bench + [old], "locks": []}


def test_mariadb_names_the_sleeping_connection_whose_transaction_began_before_the_change():
    # snapshot 4 s after the change: a transaction 30 s old began long before it; the benchmark's own
    # transaction (0 s, connection 12, sleeping between its statements) is not one
    c = old_idle_transaction(_mariadb(30), CHANGE_MS + 4_000, CHANGE_MS, 1_000)
    assert c["category"] == "long-transaction" and c["waiting"] == 0 and c["sessions"] == 5
    assert c["blocker"]["id"] == 31 and c["blocker"]["seconds"] == 30
    assert "connection 31 (transaction 421) has held a transaction open for 30 s" in c["text"], c["text"]
    # began after the change (3 s old, snapshot 4 s after it): not its cause
    assert old_idle_transaction(_mariadb(3), CHANGE_MS + 4_000, CHANGE_MS, 1_000) is None
    # running a statement: not idle (a long statement is another story)
    assert old_idle_transaction(_mariadb(30, command="Query"), CHANGE_MS + 4_000, CHANGE_MS, 1_000) is None


def test_postgres_names_the_idle_in_transaction_pid_that_holds_a_snapshot():
    c = old_idle_transaction(_postgres(42.5), CHANGE_MS + 2_000, CHANGE_MS, 1_000)
    assert c["blocker"]["id"] == 4242 and c["blocker"]["seconds"] == 42.5
    assert "pid 4242 (idle in transaction) has held a transaction open for 42 s" in c["text"], c["text"]
    # a snapshot taken before the change (the client's detector fired early): still at least one window old
    assert old_idle_transaction(_postgres(0.4), CHANGE_MS - 2_000, CHANGE_MS, 1_000) is None
    # no backend_xmin: it holds back no horizon; an idle session outside a transaction holds nothing
    assert old_idle_transaction(_postgres(42.5, holds=False), CHANGE_MS + 2_000, CHANGE_MS, 1_000) is None
    assert old_idle_transaction(_postgres(42.5, state="idle"), CHANGE_MS + 2_000, CHANGE_MS, 1_000) is None


def test_a_snapshot_without_waits_gives_the_finding_the_old_transaction_and_a_wait_still_wins():
    entry = {"time_ms": CHANGE_MS + 3_000, "window_ms": CHANGE_MS + 2_000, "phase": 0, "trigger": "p99",
             "snapshot": _postgres(40.0)}
    f = {"kind": "step", "time_ms": CHANGE_MS, "evidence": [], "category": None, "headline": "p99 +300%",
         "title": "p99 +300%: no recorded metric broke its own trend at that moment"}
    attach_activity([f], [entry], 0, 1_000)
    assert f["category"] == "long-transaction" and f["wait"]["blocker"]["id"] == 4242
    assert f["title"].startswith("p99 +300%: long transaction: pid 4242"), f["title"]
    # the same idle holder with sessions waiting for its lock: a lock wait (waits.py), not this rule
    locked = _postgres(40.0)
    locked["sessions"][0].update(waitEventType="Lock", waitEvent="transactionid", blockedBy=[4242], state="active")
    g = {"kind": "step", "time_ms": CHANGE_MS, "evidence": [], "category": None, "headline": "h", "title": "h"}
    attach_activity([g], [dict(entry, snapshot=locked)], 0, 1_000)
    assert g["category"] == "lock-wait"
    # a server that went away keeps its category: its sessions' ages say nothing about the restart
    h = {"kind": "step", "time_ms": CHANGE_MS, "evidence": [], "category": "server-restart", "headline": "h",
         "title": "h: the server went away"}
    attach_activity([h], [entry], 0, 1_000)
    assert h["category"] == "server-restart" and "wait" not in h
    # sessions waiting with no holder named (the server's own WAL contention) while the dead tuples keep piling
    # up: the old transaction is the extra work they wait on; without the growing backlog the wait stays
    wal = _postgres(40.0)
    for s in wal["sessions"][:2]:
        s.update(state="active", waitEventType="LWLock", waitEvent="WALWrite")
    backlog = {"signals": [{"name": "db.pg_stat_user_tables.n_dead_tup"}], "text": "..."}
    m = {"kind": "step", "time_ms": CHANGE_MS, "evidence": [], "category": None, "headline": "h", "title": "h",
         "version_backlog": backlog}
    attach_activity([m], [dict(entry, snapshot=wal)], 0, 1_000)
    assert m["category"] == "long-transaction" and m["wait"]["blocker"]["id"] == 4242
    assert m["title"].endswith("; meanwhile 2 of 5 sessions waiting for LWLock: WALWrite"), m["title"]
    n = {"kind": "step", "time_ms": CHANGE_MS, "evidence": [], "category": None, "headline": "h", "title": "h"}
    attach_activity([n], [dict(entry, snapshot=wal)], 0, 1_000)
    assert n["category"] == "lock-wait" and n["wait"]["wait"] == "LWLock: WALWrite"
    # a wait whose holder the server names stays a lock wait, backlog or not
    o = {"kind": "step", "time_ms": CHANGE_MS, "evidence": [], "category": None, "headline": "h", "title": "h",
         "version_backlog": backlog}
    attach_activity([o], [dict(entry, snapshot=locked)], 0, 1_000)
    assert o["category"] == "lock-wait" and o["wait"]["blocker"]["id"] == 4242
    # a change for the better is not blamed on it
    k = {"kind": "step", "time_ms": CHANGE_MS, "evidence": [], "category": None, "headline": "h", "title": "h",
         "worse": False}
    attach_activity([k], [entry], 0, 1_000)
    assert k["category"] is None and "wait" not in k


T0 = 1_000_000
BEFORE = np.array([i < 10 for i in range(20)])
AFTER = ~BEFORE


def _frame(col: str, values: list) -> pd.DataFrame:
    return pd.DataFrame({"os.cpu.idle_pct": [50.0] * 20, "db." + col: values},
                        index=[T0 + 1000.0 * i for i in range(20)])


def test_a_history_list_that_rose_and_kept_rising_is_a_backlog_and_a_steady_or_tiny_one_is_not():
    # purge keeps up before (300-320 undo logs, mean 309), then stops: +500 per interval after the change
    rising = [300.0 + (i % 3) * 10 for i in range(10)] + [300.0 + 500 * (i + 1) for i in range(10)]
    b = version_backlog(_frame("Innodb_history_list_length", rising), BEFORE, AFTER, ops_per_interval=1000)
    assert b is not None and b["signals"][0]["name"] == "db.Innodb_history_list_length"
    assert b["signals"][0]["before"] == np.mean(rising[:10]) and b["signals"][0]["last"] == 5300.0
    assert "db.Innodb_history_list_length 309 → 3,050 (mean), 5,300 at the end, +500 per interval" in b["text"], \
        b["text"]
    # already growing before the change (the transaction opened earlier; the reads slowed later): still held back
    through = [300.0 + 500 * i for i in range(20)]
    assert version_backlog(_frame("Innodb_history_list_length", through), BEFORE, AFTER, 1000) is not None
    # purge keeping up: the level goes up and down around its lag, higher after but not growing
    sawtooth = [300.0] * 10 + [800.0, 1500.0, 700.0, 1600.0, 900.0, 1400.0, 600.0, 1700.0, 800.0, 1500.0]
    assert version_backlog(_frame("Innodb_history_list_length", sawtooth), BEFORE, AFTER, 1000) is None
    # up once at the change and then flat (a burst that purge absorbed): not growing through the after side
    flat = [300.0] * 10 + [2000.0] * 10
    assert version_backlog(_frame("Innodb_history_list_length", flat), BEFORE, AFTER, 1000) is None
    # a rise of a few versions against 1,000 operations an interval is trivial
    tiny = [2.0] * 10 + [2.0 + i for i in range(10)]
    assert version_backlog(_frame("Innodb_history_list_length", tiny), BEFORE, AFTER, 1000) is None
    # PostgreSQL's dead tuples of a table are the same family; another level is not
    dead = [100.0] * 10 + [100.0 + 400 * (i + 1) for i in range(10)]
    assert version_backlog(_frame("pg_stat_user_tables.n_dead_tup", dead), BEFORE, AFTER, 1000) is not None
    assert version_backlog(_frame("Innodb_buffer_pool_pages_dirty", rising), BEFORE, AFTER, 1000) is None


def _change(**extra):
    return {"phase": 0, "series": "p99", "time_ms": T0 + 10000, "before": 1000.0, "after": 4000.0,
            "relative_change": 3.0, "duration_ms": None, "metrics": [], "follows": [], "cpu": None, **extra}


def test_the_backlog_makes_a_step_long_transaction_after_the_machine_and_write_pressure():
    rising = [300.0] * 10 + [300.0 + 500 * (i + 1) for i in range(10)]
    backlog = version_backlog(_frame("Innodb_history_list_length", rising), BEFORE, AFTER, 1000)
    f = run_findings([_change(version_backlog=backlog)], [], T0, 1000)[0]
    assert f["category"] == "long-transaction" and f["cause"] == "db.Innodb_history_list_length"
    assert "long transaction: row versions kept for an old snapshot" in f["title"], f["title"]
    # another process took the host's CPU meanwhile (purge starves too): the machine's category
    cpu = {"host_idle_before": 60.0, "host_idle_after": 5.0, "cores": 2, "server_cpu_before": 50.0,
           "server_cpu_after": 40.0, "client_cpu_before": 20.0, "client_cpu_after": 15.0,
           "host_cores_delta": 1.1, "other_cores_delta": 1.1, "taken_by": "another process"}
    assert run_findings([_change(version_backlog=backlog, cpu=cpu)], [], T0, 1000)[0]["category"] == "cpu-contention"
    # a change for the better (p99 down) is not blamed on it
    better = _change(version_backlog=backlog, relative_change=-0.6, before=4000.0, after=1600.0)
    f = run_findings([better], [], T0, 1000)[0]
    assert f["category"] is None and f["worse"] is False
    # nor on a throughput rise; a throughput fall is
    up = _change(version_backlog=backlog, series="throughput", relative_change=0.3, before=700.0, after=910.0)
    assert run_findings([up], [], T0, 1000)[0]["category"] is None
    down = _change(version_backlog=backlog, series="throughput", relative_change=-0.3, before=1000.0, after=700.0)
    assert run_findings([down], [], T0, 1000)[0]["category"] == "long-transaction"
    # without the backlog nothing says long-transaction
    assert run_findings([_change()], [], T0, 1000)[0]["category"] is None
