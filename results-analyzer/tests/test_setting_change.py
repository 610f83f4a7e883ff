"""`setting-change` (explain/setting_change.py): a server setting changed while the run went on, recorded by the
monitor in setting-changes.csv, is the cause of a step whose context windows hold it - on synthetic run folders
(synth.write_run: throughput 1,000 → 600 ops/s at measured window 150, buffer pool reads up with it)."""
from pathlib import Path

from synth import START_MS, WINDOW_MS, write_run

from ivs_analyzer.explain.changes import find_changes
from ivs_analyzer.explain.findings import _category, run_findings
from ivs_analyzer.load.results import load_run
from ivs_analyzer.report.folders import attach_activity

WARMUP = 5
HEADER = "time_ms,since_ms,name,old_value,new_value\n"


def _at(window: int) -> int:
    """The epoch ms of measured window `window` of synth.write_run."""
    return START_MS + (WARMUP + window) * WINDOW_MS


def _run(tmp_path: Path, rows: list[str] | None) -> list[dict]:
    path = write_run(tmp_path / "run", step_at=150, late_step_at=None)
    if rows is not None:
        (path / "setting-changes.csv").write_text(HEADER + "".join(r + "\n" for r in rows))
    run = load_run(path)
    return [f for f in run_findings(find_changes(run), [], run.start_ms, run.window_ms) if f["kind"] == "step"]


def test_a_setting_changed_at_the_step_is_its_cause_named_old_new_and_when(tmp_path):
    steps = _run(tmp_path, [f"{_at(150) + 300},{_at(149) + 300},innodb_buffer_pool_size,134217728,16777216"])
    assert len(steps) == 1
    f = steps[0]
    assert f["category"] == "setting-change", f["title"]
    assert "a setting changed while the server ran: innodb_buffer_pool_size 134217728 → 16777216 between " \
           "t = 154 and 155 s" in f["title"], f["title"]
    # what the new value did - reads gone to storage - follows as "meanwhile", and its counter is charted
    assert "; meanwhile buffer misses" in f["title"], f["title"]
    assert f["cause"] == "db.Innodb_buffer_pool_reads"
    assert f["evidence"][0].startswith("a setting changed while the server ran")
    assert f["settings"]["changes"][0]["new"] == "16777216"


def test_a_change_seen_two_windows_after_the_placed_change_point_is_still_its_cause(tmp_path):
    # the detector may place a change point a few windows early
    steps = _run(tmp_path, [f"{_at(152)},{_at(151)},innodb_buffer_pool_size,134217728,16777216"])
    assert [f["category"] for f in steps] == ["setting-change"], [f["title"] for f in steps]


def test_a_change_for_the_better_gets_it_too_and_several_are_named(tmp_path):
    path = write_run(tmp_path / "run", step_at=150, tput_before=600.0, tput_after=1000.0, late_step_at=None)
    (path / "setting-changes.csv").write_text(
        HEADER + f"{_at(151)},{_at(150)},synchronous_commit,on,off\n"
        f"{_at(151)},{_at(150)},optimizer_switch,\"a=on,b=off\",\"a=off,b=off\"\n")
    run = load_run(path)
    f = [f for f in run_findings(find_changes(run), [], run.start_ms, run.window_ms) if f["kind"] == "step"][0]
    assert f["category"] == "setting-change", f["title"]
    assert "2 settings changed while the server ran: synchronous_commit on → off between t = 155 and 156 s; " \
           "optimizer_switch a=on,b=off → a=off,b=off between" in f["title"], f["title"]


def test_a_change_outside_the_steps_context_or_none_at_all_is_not_a_cause(tmp_path):
    # a change 60 windows before the step (its context is 10 windows either side) does not fire
    far = _run(tmp_path / "far", [f"{_at(90)},{_at(89)},max_connect_errors,100,107"])
    assert [f["category"] for f in far] == ["buffer-miss"], [f["title"] for f in far]
    assert "setting" not in far[0]["title"]
    # nor one well after the step began (more than 3 windows), though inside its context: a cause comes first
    after = _run(tmp_path / "after", [f"{_at(158)},{_at(157)},max_connect_errors,100,107"])
    assert [f["category"] for f in after] == ["buffer-miss"], [f["title"] for f in after]
    # watched, nothing changed (the header alone), and not watched at all: the counters' category stays
    assert [f["category"] for f in _run(tmp_path / "quiet", [])] == ["buffer-miss"]
    assert [f["category"] for f in _run(tmp_path / "unwatched", None)] == ["buffer-miss"]


def test_it_ranks_after_the_clients_evidence_and_before_the_counters():
    settings = {"category": "setting-change"}
    assert _category({"intervals": 3}, None, settings=settings) == "server-restart"
    assert _category(None, None, refused={"x": 1}, settings=settings) == "connection-limit"
    assert _category(None, None, pressure={"category": "flush-pressure"}, settings=settings) == "setting-change"
    assert _category(None, {"taken_by": "another process"}, settings=settings) == "setting-change"


def _finding():
    t = _at(150)
    return {"kind": "step", "time_ms": t, "duration_ms": None, "headline": "throughput -40% at t = 155 s (phase 0)",
            "title": "throughput -40% at t = 155 s (phase 0): a setting changed while the server ran: x 1 → 2",
            "evidence": [], "category": "setting-change", "worse": True, "cpu": None}


def _maria(pid, seconds, info, state, user="ivs"):
    return {"id": pid, "user": user, "db": "ivsbench", "command": "Query", "timeSeconds": seconds, "state": state,
            "info": info, "progress": 0.0}


def test_only_a_lock_with_its_holder_replaces_it_other_snapshot_causes_follow_as_meanwhile():
    heavy = {"processlist": [_maria(10, 0, "SELECT * FROM usertable WHERE ycsb_key = 'user1'", "Sending data"),
                             _maria(41, 12, "SELECT COUNT(*) FROM usertable a JOIN usertable b", "Executing",
                                    "report")]}
    f = _finding()
    attach_activity([f], [{"time_ms": f["time_ms"] + 500, "snapshot": heavy}], START_MS, 1000.0)
    assert f["category"] == "setting-change", f["title"]
    f = _finding()
    lock = {"processlist": [_maria(10, 3, "UPDATE usertable SET field0 = 'x' WHERE ycsb_key = 'user1'",
                                   "Waiting for table metadata lock"),
                            _maria(17, 5, "LOCK TABLES usertable WRITE", "")],
            "metadataLocks": [{"threadId": 17, "lockMode": "MDL_SHARED_NO_READ_WRITE", "lockType": "Table metadata lock",
                               "tableSchema": "ivsbench", "tableName": "usertable"}]}
    attach_activity([f], [{"time_ms": f["time_ms"] + 500, "snapshot": lock}], START_MS, 1000.0)
    assert f["category"] == "lock-wait", f["title"]


def test_the_file_loads_quoted_values_and_empty_cells(tmp_path):
    path = write_run(tmp_path / "run", step_at=None, late_step_at=None, windows=40)
    (path / "setting-changes.csv").write_text(
        HEADER + f"{_at(20)},{_at(19)},sql_mode,\"A,B\",\n{_at(21)},{_at(20)},plugin_x,,ON\n")
    sc = load_run(path).setting_changes
    assert sc.to_dict("records")[0] == {"time_ms": _at(20), "since_ms": _at(19), "name": "sql_mode",
                                        "old_value": "A,B", "new_value": ""}
    assert sc["old_value"].tolist()[1] == ""
