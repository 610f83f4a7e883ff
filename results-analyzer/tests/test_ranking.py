"""The report's order (explain/ranking.py): steps and episodes by the work the benchmark lost to each, most first,
so the first finding is the report's answer (docs/diagnosis.md, "The report's order")."""
import numpy as np
import pandas as pd

from ivs_analyzer.explain.ranking import rank_findings, work_lost

T0 = 1_000_000_000_000


def _rows(n=60, ok=1000.0, lat=1000.0):
    """A phase's ALL-type windows of 1 s: n windows of `ok` operations at `lat` µs mean latency."""
    return pd.DataFrame({"time_ms": T0 + 1000.0 * np.arange(n), "window_ms": 1000.0, "ok": ok, "lat_avg_us": lat,
                         "missed": 0.0, "error": 0.0})


def _finding(t_s, kind="step", duration_s=None, title=""):
    return {"kind": kind, "phase": 0, "time_ms": T0 + 1000.0 * t_s, "title": title or f"at {t_s}",
            "duration_ms": duration_s * 1000.0 if duration_s else None, "evidence": []}


def _rank(rows, found, terminals=4):
    return rank_findings(found, lambda p: rows, lambda p, r: float(r["time_ms"].max() + 1000.0), terminals)


def test_work_lost_is_extra_waiting_plus_the_operations_not_done_at_a_terminal_share_each():
    rows = _rows()
    rows.loc[20:24, "lat_avg_us"] = 3000.0      # 5 windows, 2 ms more on 1000 operations each: 10 s of waiting
    rows.loc[22:24, "ok"] = 600.0               # of them 3 windows 400 operations short (1,200, 4 ms each)
    rows.loc[22:24, "lat_avg_us"] = 3000.0
    w = work_lost(rows, T0 + 20_000, T0 + 25_000, terminals=4)
    assert w["windows"] == 5 and w["lost_operations"] == 1200.0
    assert abs(w["extra_wait_s"] - (2 * 0.002 * 1000 + 3 * 0.002 * 600)) < 1e-9
    assert abs(w["seconds"] - (w["extra_wait_s"] + 1200 * 4 * 1.0 / 1000)) < 1e-9


def test_failures_and_missed_arrivals_count_once_with_the_shortfall():
    rows = _rows()
    rows.loc[30:31, "ok"] = 900.0
    rows.loc[30:31, "error"] = 50.0             # 100 short, 50 of them failed: 100 lost, not 150
    rows.loc[32, "missed"] = 80.0               # 80 arrivals missed while 1000 completed: 80 lost
    w = work_lost(rows, T0 + 30_000, T0 + 33_000, terminals=4)
    assert (w["lost_operations"], w["failed_operations"]) == (280.0, 100.0)


def test_the_finding_that_lost_most_comes_first_not_the_earliest():
    rows = _rows()
    rows.loc[10:11, "lat_avg_us"] = 1500.0      # early: a small rise, back at 12
    rows.loc[12:, "lat_avg_us"] = 1000.0
    rows.loc[30:39, "ok"] = 150.0               # later: throughput cut for 10 s
    found = [_finding(10, "episode", 2, "small"), _finding(30, "episode", 10, "big"),
             {"kind": "outliers", "title": "outliers", "evidence": []}]
    ranked = _rank(rows, found)
    assert [f["title"] for f in ranked] == ["big", "small", "outliers"]
    assert ranked[0]["work_lost"]["seconds"] > ranked[1]["work_lost"]["seconds"] > 0
    assert ranked[0]["evidence"][-1].startswith("work lost (the report's order): ")


def test_a_change_for_the_better_loses_nothing_and_follows_every_change_for_the_worse():
    rows = _rows()
    rows.loc[15:, "lat_avg_us"] = 500.0         # better from 15 on
    rows.loc[40:44, "lat_avg_us"] = 900.0       # worse against its own (better) baseline, 5 windows
    found = [_finding(15, title="better"), _finding(40, "episode", 5, "worse")]
    ranked = _rank(rows, found)
    assert [f["title"] for f in ranked] == ["worse", "better"]
    assert ranked[1]["work_lost"]["seconds"] == 0.0


def test_a_step_spans_to_the_next_finding_of_its_phase_and_ties_keep_the_order_found():
    rows = _rows()
    rows.loc[20:, "ok"] = 500.0                 # a lasting step at 20 ...
    rows.loc[40:, "ok"] = 1000.0                # ... until the next step, back, at 40
    ranked = _rank(rows, [_finding(20, title="down"), _finding(40, title="up"), _finding(50, title="flat")])
    assert ranked[0]["title"] == "down" and ranked[0]["work_lost"]["windows"] == 20
    assert ranked[0]["work_lost"]["lost_operations"] == 20 * 500.0
    assert [f["title"] for f in ranked[1:]] == ["up", "flat"]   # both 0: as found


def test_no_step_leaves_the_findings_as_they_were():
    found = [{"kind": "none", "title": "No step change and no outlier in the measured windows", "evidence": []}]
    assert _rank(_rows(), found) == found


def test_the_report_lists_the_costlier_later_step_first(tmp_path):
    """End to end (the CLI on a synthetic run): throughput 1000 → 850 ops/s at window 40, then p99 x10 (and the
    mean latency with it) at window 200. Found in time and series order the throughput step is first; the p99
    step lost more (1.8 ms more on ~850 operations for 100 windows against 150 operations short for 160), so
    the report's first finding is the p99 step."""
    import json

    import synth
    from ivs_analyzer.cli import main

    run = synth.write_run(tmp_path / "run", step_at=40, tput_after=850.0, p99_step_at=200, p99_factor=10.0,
                          late_step_at=None)
    assert main(["report", str(run), "-o", str(tmp_path / "out")]) == 0
    found = [f for f in json.loads((tmp_path / "out" / "findings.json").read_text()) if f["kind"] == "step"]
    assert [f["series"] for f in found] == [["p99"], ["throughput"]], [f["title"] for f in found]
    assert found[0]["time_ms"] > found[1]["time_ms"]
    assert found[0]["work_lost"]["seconds"] > found[1]["work_lost"]["seconds"] > 0
