"""A finding's cause from the server's wait evidence (waits.py), on snapshots recorded from the real servers
(tests/data/activity, written by the Java *ActivityIntegrationTest classes with -Divs.activity.record) and on
one made-up wait kind: the title names the wait and the holder whatever the lock."""
import json
from pathlib import Path

import synth_cases
from ivs_analyzer.cli import main
from ivs_analyzer.explain.waits import wait_cause
from ivs_analyzer.load.results import load_run

DATA = Path(__file__).parent / "data" / "activity"


def _snap(name):
    return json.loads((DATA / f"{name}.json").read_text())


def _ids(snap, key, field, where):
    return [r[field] for r in snap[key] if where(r)]


def test_mariadb_lock_tables_names_the_metadata_lock_and_its_holder():
    snap = _snap("mariadb-lock-tables")
    holder = _ids(snap, "metadataLocks", "threadId", lambda r: r["lockMode"] == "MDL_SHARED_NO_READ_WRITE")[0]
    c = wait_cause(snap)
    assert c["category"] == "lock-wait" and c["wait"] == "table metadata lock"
    assert c["blocker"]["id"] == holder and not c["inferred"]
    assert c["text"].startswith(f"1 of 2 sessions waiting for table metadata lock held by connection {holder}: "
                                "LOCK TABLES ivsbench.activity_mdl WRITE, 0 s old at the snapshot"), c["text"]


def test_mariadb_global_read_lock_is_named_by_the_same_rule():
    snap = _snap("mariadb-flush-tables-with-read-lock")
    holder = _ids(snap, "metadataLocks", "threadId", lambda r: r["lockMode"].startswith("MDL_BACKUP_FTWRL"))[0]
    c = wait_cause(snap)
    assert c["wait"] == "backup lock" and c["blocker"]["id"] == holder
    assert f"held by connection {holder}: FLUSH TABLES WITH READ LOCK" in c["text"], c["text"]


def test_postgres_table_and_row_locks_name_the_blocking_pid_and_its_statement():
    snap = _snap("postgres-lock-table-access-exclusive")
    holder = _ids(snap, "sessions", "pid", lambda s: s["state"] == "idle in transaction")[0]
    c = wait_cause(snap)
    assert (c["category"], c["wait"], c["blocker"]["id"]) == ("lock-wait", "a relation lock", holder)
    assert (f"1 of 2 sessions waiting for a relation lock held by pid {holder} (idle in transaction): LOCK TABLE "
            "activity_pg IN ACCESS EXCLUSIVE MODE (holds AccessExclusiveLock on activity_pg)") in c["text"], c["text"]
    snap = _snap("postgres-row-lock")
    holder = _ids(snap, "sessions", "pid", lambda s: s["state"] == "idle in transaction")[0]
    c = wait_cause(snap)
    assert c["wait"] == "a transactionid lock" and c["blocker"]["id"] == holder
    assert "FOR UPDATE (holds ExclusiveLock on transaction" in c["text"], c["text"]
    # the statement shown took the lock itself (LOCK TABLE), and a row lock is its own transaction's: no more said
    assert "taken earlier" not in c["text"] and "taken earlier" not in wait_cause(
        _snap("postgres-lock-table-access-exclusive"))["text"]


HELD_OUT = Path(__file__).resolve().parents[2] / "docs" / "diagnosis-runs" / "heldout-20261202T193626Z"


def test_a_postgres_lock_taken_before_the_statement_shown_is_said_to_be_so_with_the_commands_that_take_it():
    # held-out H1 (docs/diagnosis.md), as recorded: BEGIN; ALTER TABLE ... ADD COLUMN; SELECT pg_sleep(10) in one
    # transaction. pg_stat_activity shows the pg_sleep; the AccessExclusiveLock came from the ALTER TABLE before it.
    line = next((HELD_OUT / "sH1").glob("results/*/activity.jsonl")).read_text().splitlines()[0]
    snap = json.loads(line)["snapshot"]
    c = wait_cause(snap)
    assert c["blocker"]["statement"] == (
        "SELECT pg_sleep(10); (holds AccessExclusiveLock on diag_sh1, taken earlier in its transaction: SELECT "
        "takes no AccessExclusiveLock; ALTER TABLE, DROP TABLE, TRUNCATE, REINDEX, CLUSTER, VACUUM FULL, "
        "REFRESH MATERIALIZED VIEW or LOCK TABLE do)"), c["blocker"]["statement"]
    # the same lock held by the statement running now: nothing said of an earlier one
    holder = c["blocker"]["id"]
    for s in snap["sessions"]:
        if s["pid"] == holder:
            s["query"] = "ALTER TABLE diag_sh1 ADD COLUMN h1 int"
    assert wait_cause(snap)["blocker"]["statement"] == (
        "ALTER TABLE diag_sh1 ADD COLUMN h1 int (holds AccessExclusiveLock on diag_sh1)")


def test_cassandra_with_nothing_queued_has_no_wait_and_a_backlog_is_named_by_its_stage():
    snap = _snap("cassandra")
    assert wait_cause(snap) is None  # an idle test server: counters stay the evidence
    for p in snap["threadPools"]:
        if p["name"] == "MemtableFlushWriter":
            p["pending_tasks"], p["blocked_tasks"] = 7, 2
    c = wait_cause(snap)
    assert c["category"] == "flush-pressure" and "MemtableFlushWriter: 7 pending, 2 blocked" in c["text"]


def test_a_wait_kind_never_shown_is_named_in_the_servers_own_words():
    snap = {"processlist": [{"id": 5, "command": "Query", "state": "Waiting for frobnication lock", "timeSeconds": 3,
                             "info": "UPDATE t SET a = 1"} for _ in range(3)]
            + [{"id": 9, "command": "Sleep", "state": "", "timeSeconds": 12, "info": None}],
            "lockWaits": [], "metadataLocks": [{"threadId": 9, "lockMode": "MDL_FROB", "lockType": "Frobnication lock",
                                                 "schema": "db", "table": "t"}]}
    for i, p in enumerate(snap["processlist"][:3]):
        p["id"] = 20 + i
    c = wait_cause(snap)
    assert c["text"] == ("3 of 4 sessions waiting for frobnication lock held by connection 9: MDL_FROB "
                         "(Frobnication lock on db.t), 12 s old at the snapshot"), c["text"]
    # without the plugin's view the holder is inferred (the oldest session that does not wait) and says so
    del snap["metadataLocks"]
    c = wait_cause(snap)
    assert c["blocker"]["id"] == 9 and c["inferred"] and "(inferred: no lock holder view)" in c["text"]


def test_a_lock_no_view_names_the_holder_of_is_inferred_from_the_process_list():
    # MyRocks row locks: the waiters say "Waiting for row lock"; METADATA_LOCK_INFO (present) lists only the
    # waiters' own shared metadata locks and INNODB_LOCK_WAITS knows nothing of RocksDB. The holder is inferred:
    # a session that does not wait and runs a statement beats an older idle one.
    waiters = [{"id": 20 + i, "command": "Query", "state": "Waiting for row lock", "timeSeconds": 2,
                "info": "UPDATE t SET v = ? WHERE k = ?"} for i in range(4)]
    snap = {"processlist": waiters + [
        {"id": 7, "command": "Sleep", "state": "", "timeSeconds": 300, "info": None},
        {"id": 31, "command": "Query", "state": "User sleep", "timeSeconds": 5, "info": "DO SLEEP(8)"}],
        "lockWaits": [], "transactions": [],
        "metadataLocks": [{"threadId": w["id"], "lockMode": "MDL_SHARED_WRITE", "lockType": "Table metadata lock",
                           "schema": "db", "table": "t"} for w in waiters]}
    c = wait_cause(snap)
    assert (c["category"], c["wait"], c["waiting"], c["blocker"]["id"]) == ("lock-wait", "row lock", 4, 31), c
    assert c["inferred"] and "held by connection 31 (inferred: no lock holder view): DO SLEEP(8)" in c["text"]
    # a session with an open transaction (INNODB_TRX) is the likelier holder still
    snap["transactions"] = [{"trxId": "9", "threadId": 7}]
    assert wait_cause(snap)["blocker"]["id"] == 7


def test_a_run_whose_snapshot_shows_the_metadata_lock_gets_it_in_the_title(tmp_path):
    """The issue's case: every terminal waits for a table metadata lock; the title named Threads_running."""
    run = synth_cases.write_lock_run(tmp_path / "mdl")
    loaded = load_run(run)
    step_ms = int(loaded.start_ms + 151 * loaded.window_ms)
    snap = _snap("mariadb-lock-tables")
    waiter = next(p for p in snap["processlist"] if p["state"])
    holder = next(p for p in snap["processlist"] if not p["state"])
    snap["processlist"] = [holder] + [{**waiter, "id": 100 + i} for i in range(4)]
    line = {"time_ms": step_ms + 1000, "window_ms": step_ms, "phase": 0, "trigger": "throughput", "snapshot": snap}
    (run / "activity.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["report", str(run), "-o", str(out)]) == 0
    first = json.loads((out / "findings.json").read_text())[0]
    assert first["kind"] == "episode" and first["category"] == "lock-wait", first["title"]
    assert first["title"].endswith(f": 4 of 5 sessions waiting for table metadata lock held by connection "
                                   f"{holder['id']}: LOCK TABLES ivsbench.activity_mdl WRITE, 0 s old at the snapshot"), first["title"]
    assert "for 8 s, then back" in first["title"]
