"""activity.jsonl: loading the step snapshots and finding the one nearest a step."""
import json

import pytest

from ivs_analyzer.load.activity import load_activity, nearest_snapshot, snapshots_between
from ivs_analyzer.load.results import AnalyzerError


def _entry(window_ms, blocker):
    return {"time_ms": window_ms + 1010, "window_ms": window_ms, "phase": 0, "trigger": "throughput 0.0",
            "snapshot": {"lockWaits": [{"blocking": {"threadId": blocker}}]}}


def _write(folder, lines):
    folder.mkdir(exist_ok=True)
    (folder / "activity.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return folder


def test_the_snapshot_nearest_the_step_is_returned(tmp_path):
    run = _write(tmp_path / "run", [json.dumps(_entry(100_000, 7)), json.dumps(_entry(160_000, 9))])
    assert nearest_snapshot(run, 101_000)["snapshot"]["lockWaits"][0]["blocking"]["threadId"] == 7
    assert nearest_snapshot(run, 150_000)["snapshot"]["lockWaits"][0]["blocking"]["threadId"] == 9
    # 130,000 is 30,000 from both: the earlier one wins
    assert nearest_snapshot(run, 130_000)["window_ms"] == 100_000


def test_too_far_or_no_file_gives_none(tmp_path):
    run = _write(tmp_path / "run", [json.dumps(_entry(100_000, 7))])
    assert nearest_snapshot(run, 200_000, max_distance_ms=10_000) is None
    assert nearest_snapshot(run, 105_000, max_distance_ms=10_000)["window_ms"] == 100_000
    assert nearest_snapshot(tmp_path / "empty", 100_000) is None
    assert load_activity(tmp_path / "empty") == []


def test_entries_are_sorted_and_a_cut_last_line_is_dropped(tmp_path):
    run = _write(tmp_path / "run", [json.dumps(_entry(160_000, 9)), json.dumps(_entry(100_000, 7)),
                                    '{"time_ms": 2000, "snap'])
    assert [e["window_ms"] for e in load_activity(run)] == [100_000, 160_000]
    assert len(load_activity(run / "activity.jsonl")) == 2


def test_a_broken_line_in_the_middle_is_an_error_naming_it(tmp_path):
    run = _write(tmp_path / "run", [json.dumps(_entry(100_000, 7)), "not json", json.dumps(_entry(160_000, 9))])
    with pytest.raises(AnalyzerError, match="line 2"):
        load_activity(run)


def test_a_stall_right_after_a_latency_wobble_keeps_both_snapshots(tmp_path):
    # The client snapshots a p99 wobble (no lock waits yet) and, a window later, the stall (the blocker): the
    # finding at the stall gets both, so its evidence names the blocker even though the wobble's is as near.
    from ivs_analyzer.report.folders import attach_activity
    wobble = {"time_ms": 99_010, "window_ms": 98_000, "phase": 0, "trigger": "p99_us 2145.0",
              "snapshot": {"processlist": [], "lockWaits": []}}
    stall = _entry(102_000, 41)
    far = _entry(200_000, 99)
    assert [e["window_ms"] for e in snapshots_between([wobble, stall, far], 97_000, 105_000)] == [98_000, 102_000]
    finding = {"kind": "episode", "time_ms": 100_000, "duration_ms": 9_000, "evidence": ["db.x 0 → 1"]}
    attach_activity([finding], [wobble, stall, far], 90_000, 1_000)
    assert [e["window_ms"] for e in finding["activities"]] == [98_000, 102_000]
    assert any("on connection 41 blocks" in e for e in finding["evidence"]), finding["evidence"]
    assert finding["evidence"][-1] == "db.x 0 → 1"


def test_a_backlog_of_request_stages_in_the_snapshot_keeps_the_category_the_counters_gave():
    from ivs_analyzer.report.folders import attach_activity
    pools = [{"name": "Native-Transport-Requests", "pending_tasks": 12, "blocked_tasks": 0},
             {"name": "MemtableFlushWriter", "pending_tasks": 0, "blocked_tasks": 0}]
    entry = {"time_ms": 100_500, "window_ms": 100_000, "phase": 0, "trigger": "p99_us 9000.0",
             "snapshot": {"threadPools": pools, "sstableTasks": []}}
    stalled = {"kind": "step", "time_ms": 100_000, "evidence": [], "category": "write-stall", "headline": "h",
               "title": "h: write stall: ..."}
    attach_activity([stalled], [entry], 90_000, 1_000)
    assert stalled["category"] == "write-stall" and stalled["title"] == "h: write stall: ..." and "wait" not in stalled
    # without a category from the counters the backlog is the finding's wait, as before
    plain = {"kind": "step", "time_ms": 100_000, "evidence": [], "category": None, "headline": "h", "title": "h"}
    attach_activity([plain], [entry], 90_000, 1_000)
    assert plain["category"] == "backlog" and "Native-Transport-Requests: 12 pending" in plain["title"]
    # a flush queue in the snapshot is the server's own wait evidence: it overrides the counters
    pools[1]["pending_tasks"] = 3
    attach_activity([stalled], [entry], 90_000, 1_000)
    assert stalled["category"] == "flush-pressure", stalled["title"]


def test_a_wait_in_the_snapshot_does_not_replace_lost_or_refused_connections():
    # one session waiting on WAL sync while the benchmark's sessions were being terminated: the wait is in the
    # evidence, the category stays the one from the client's lost connections
    from ivs_analyzer.report.folders import attach_activity
    entry = _entry(100_000, 41)
    for category in ("server-restart", "connection-limit"):
        lost = {"kind": "step", "time_ms": 100_000, "evidence": [], "category": category, "headline": "h",
                "title": "h: sessions lost"}
        attach_activity([lost], [entry], 90_000, 1_000)
        assert lost["category"] == category and lost["title"] == "h: sessions lost" and "wait" not in lost
        assert any("on connection 41 blocks" in e for e in lost["evidence"]), lost["evidence"]
