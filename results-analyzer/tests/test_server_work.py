"""`server-work` (explain/server_work.py, given by report/folders.attach_activity): the server's capacity taken by
other sessions' heavy statements inside it, named from the step's activity snapshots - on synthetic snapshots in
the servers' own shapes (tests/data/activity/ holds real ones)."""
from ivs_analyzer.explain.server_work import other_sessions, server_work, shape
from ivs_analyzer.report.folders import attach_activity

T = 1_800_000_000_000
SERVER_CPU = {"taken_by": "the database server"}


def _maria(pid, seconds, info, state="Executing", user="ivs", command="Query"):
    return {"id": pid, "user": user, "db": "ivsbench", "command": command, "timeSeconds": seconds, "state": state,
            "info": info, "progress": 0.0}


def _pg(pid, seconds, query, state="active", wait_type=None, wait=None, blocked=()):
    return {"pid": pid, "user": "ivs", "application": "PostgreSQL JDBC Driver", "state": state,
            "waitEventType": wait_type, "waitEvent": wait, "blockedBy": list(blocked), "query": query,
            "xactSeconds": seconds, "querySeconds": seconds, "stateSeconds": seconds, "holdsSnapshot": False}


BENCH = [_maria(10 + i, 0, f"SELECT * FROM usertable WHERE ycsb_key = 'user{i}'", "Sending data") for i in range(3)]
HEAVY = [_maria(41, 12, "SELECT k, SUM(LENGTH(field0)) FROM usertable a JOIN usertable b USING (k) GROUP BY k",
                user="report"),
         _maria(42, 5, "SELECT COUNT(*) FROM usertable WHERE field3 LIKE '%x%'", user="report"),
         _maria(43, 3, "SELECT COUNT(*) FROM usertable WHERE field3 LIKE '%y%'", user="report")]


def _finding(category=None, worse=True, cpu=SERVER_CPU):
    return {"kind": "step", "time_ms": T, "duration_ms": None, "headline": "p99 +400% at t = 30 s (phase 0)",
            "title": "p99 +400% at t = 30 s (phase 0): no recorded metric broke its own trend at that moment",
            "evidence": [], "category": category, "worse": worse, "cpu": cpu}


def _attach(finding, snapshot):
    attach_activity([finding], [{"time_ms": T + 500, "snapshot": snapshot}], T - 30_000, 1000.0)
    return finding


def test_other_sessions_heavy_statements_are_named_longest_first_with_the_server_cpu():
    f = _attach(_finding(), {"processlist": BENCH + HEAVY})
    assert f["category"] == "server-work", f["title"]
    assert [s["id"] for s in f["wait"]["sessions"]] == [41, 42, 43] and f["wait"]["blocker"]["id"] == 41
    assert "server capacity taken by other work inside it (host CPU taken by the database server): 3 other " \
           "session(s) running long statements: connection 41 (user report, 12 s, Executing): SELECT k, SUM(" \
           in f["title"], f["title"]


def test_postgres_heavy_query_replaces_buffer_misses_and_keeps_its_io_wait_as_meanwhile():
    snap = {"sessions": [_pg(7, 0, "SELECT * FROM usertable WHERE ycsb_key = $1"),
                         _pg(9, 8, "SELECT md5(string_agg(field0, '')) FROM usertable", wait_type="IO",
                             wait="DataFileRead")]}
    f = _attach(_finding("buffer-miss"), snap)
    assert f["category"] == "server-work", f["title"]
    assert "pid 9 (user ivs, 8 s, IO: DataFileRead): SELECT md5(" in f["title"]
    assert "; meanwhile 1 of 2 sessions waiting for IO: DataFileRead" in f["title"], f["title"]


def test_a_lock_wait_with_its_holder_wins():
    snap = {"sessions": [_pg(5, 9, "LOCK TABLE usertable IN ACCESS EXCLUSIVE MODE", state="idle in transaction",
                             wait_type="Client", wait="ClientRead"),
                         _pg(6, 4, "UPDATE usertable SET field0 = 'x' WHERE ycsb_key = 'user1'", wait_type="Lock",
                             wait="relation", blocked=[5]),
                         _pg(9, 8, "SELECT count(*) FROM usertable a, usertable b")]}
    f = _attach(_finding(), snap)
    assert f["category"] == "lock-wait" and f["wait"]["blocker"]["id"] == 5, f["title"]


def test_the_machine_and_write_pressure_keep_their_category():
    other = {"taken_by": "another process"}
    assert _attach(_finding("cpu-contention", cpu=other), {"processlist": BENCH + HEAVY})["category"] == \
        "cpu-contention"
    assert server_work([{"snapshot": {"processlist": HEAVY}}], other) is None
    assert _attach(_finding("flush-pressure"), {"processlist": BENCH + HEAVY})["category"] == "flush-pressure"


def test_a_change_for_the_better_gets_no_cause_from_other_work():
    f = _attach(_finding(worse=False), {"processlist": BENCH + HEAVY})
    assert f["category"] is None and "wait" not in f


def test_sleeping_waiting_idle_and_the_benchmarks_own_slow_statements_are_not_other_work():
    snap = {"processlist": BENCH + [
        _maria(50, 8, "DO SLEEP(8)", state="User sleep"),
        _maria(51, 6, "SELECT * FROM usertable WHERE ycsb_key = 'user77'", state="Waiting for table metadata lock"),
        _maria(52, 30, None, state="", command="Sleep"),
        _maria(53, 99, None, state="InnoDB purge worker", user="system user", command="Daemon"),
        # a terminal's read that took 2 s while the others' reads of the same shape take none: starved, not other
        _maria(54, 2, "SELECT * FROM usertable WHERE ycsb_key = 'user99'", state="Sending data")]}
    assert other_sessions(snap) == []
    pg = {"sessions": [_pg(1, 9, "SELECT pg_sleep(8)", wait_type="Timeout", wait="PgSleep"),
                       _pg(2, 20, "SELECT 1", state="idle in transaction", wait_type="Client", wait="ClientRead"),
                       _pg(3, 5, "UPDATE usertable SET field0 = $1", wait_type="Lock", wait="transactionid",
                           blocked=[2])]}
    assert other_sessions(pg) == []
    # without the waiter (which makes it a lock wait), nothing in the snapshot names a cause
    snap["processlist"] = [p for p in snap["processlist"] if p["id"] != 51]
    f = _attach(_finding(), snap)
    assert f["category"] is None, f["title"]


def test_a_statement_shape_hides_its_literals():
    assert shape("SELECT * FROM t WHERE k = 'user1' AND n = 42") == shape("select *  from t where k = 'o''x' "
                                                                          "and n = 7.5")


BACKLOG = {"metric": "db.pg_stat_user_tables.n_dead_tup", "per_interval": 81.0}


def _backlog_finding():
    f = _finding("long-transaction")
    f["version_backlog"] = BACKLOG
    return f


def test_a_version_backlog_from_the_counters_alone_gives_way_to_the_heavy_statements_holding_it():
    """A long statement holds old row versions back as an open transaction does: with no transaction open since
    before the step in the snapshot, the heavy sessions it names are the cause (development scenario 20)."""
    md5 = "SELECT count(*) FROM generate_series(1, 1000000000) g WHERE md5(g::text) LIKE 'abc%'"
    snap = {"sessions": [_pg(7, 0, "SELECT * FROM usertable WHERE ycsb_key = $1")]
            + [_pg(20 + i, 6 + i, md5) for i in range(4)]}
    f = _attach(_backlog_finding(), snap)
    assert f["category"] == "server-work", f["title"]
    assert f["wait"]["blocker"]["id"] == 23 and len(f["wait"]["sessions"]) == 4, f["wait"]
    f = _attach(_finding("long-transaction"), {"processlist": BENCH + HEAVY})
    assert f["category"] == "server-work" and f["wait"]["blocker"]["id"] == 41, f["title"]


def test_a_transaction_open_since_before_the_step_still_wins_over_heavy_statements():
    snap = {"sessions": [_pg(5, 20, "UPDATE usertable SET field0 = $1 WHERE ycsb_key = $2",
                             state="idle in transaction", wait_type="Client", wait="ClientRead")]
            + [_pg(20 + i, 6, "SELECT count(*) FROM usertable a, usertable b") for i in range(2)]}
    snap["sessions"][0]["holdsSnapshot"] = True
    f = _attach(_backlog_finding(), snap)
    assert f["category"] == "long-transaction" and f["wait"]["blocker"]["id"] == 5, f["title"]


def test_a_version_backlog_without_heavy_statements_keeps_the_counters_category():
    f = _attach(_backlog_finding(), {"sessions": [_pg(7, 0, "SELECT * FROM usertable WHERE ycsb_key = $1")]})
    assert f["category"] == "long-transaction" and "wait" not in f, f
