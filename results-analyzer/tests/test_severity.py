"""Severity, not duration, decides what is explained: a short excursion that is large (p99 x10 and more, or
throughput halved, against the median of the 30 windows before it) is an episode with the same cause search as
a step; "outlier" is kept for what is small (outliers.split_severe, changes.find_changes)."""
import json

import numpy as np

import synth_cases
from ivs_analyzer.cli import main
from ivs_analyzer.detect.outliers import split_severe, window_excursions
from ivs_analyzer.detect.series import ChangeParams
from ivs_analyzer.explain.changes import find_changes
from ivs_analyzer.load.results import load_run
from test_outliers import _run_with_one_dip

PARAMS = ChangeParams()


def _split(values, series):
    found = window_excursions(values, series == "p99", PARAMS.min_relative_change, PARAMS.min_size - 1)
    small, severe = split_severe(values, found, series, PARAMS)
    return [(g["start"], g["end"]) for g in small], [(g["start"], g["end"], g["baseline"]) for g in severe]


def test_throughput_halved_for_two_windows_is_severe_and_a_little_more_is_an_outlier():
    for level, expected in ((500.0, ([], [(40, 42, 1000.0)])), (400.0, ([], [(40, 42, 1000.0)])),
                            (501.0, ([(40, 42)], [])), (700.0, ([(40, 42)], []))):
        values = np.full(80, 1000.0)
        values[40:42] = level
        assert _split(values, "throughput") == expected, level


def test_p99_ten_times_for_two_windows_is_severe_and_a_little_less_is_an_outlier():
    for level, expected in ((9000.0, ([], [(40, 42, 900.0)])), (294_300.0, ([], [(40, 42, 900.0)])),
                            (8999.0, ([(40, 42)], []))):
        values = np.full(80, 900.0)
        values[40:42] = level
        assert _split(values, "p99") == expected, level


def test_the_level_is_the_median_of_the_30_windows_before_not_of_the_whole_series():
    """60 windows at 100 µs, then 40 at 1000 µs: an excursion to 2000 µs at window 95 is 20 times the series'
    median but twice its last 30 windows' median: an outlier. To 10,000 µs it is severe against 1000 µs."""
    values = np.concatenate([np.full(60, 100.0), np.full(40, 1000.0)])
    values[95] = 2000.0
    found = [{"start": 95, "end": 96, "expected": 1000.0, "relative_change": 1.0}]
    small, severe = split_severe(values, found, "p99", PARAMS)
    assert (len(small), severe) == (1, [])
    values[95] = 10_000.0
    small, severe = split_severe(values, found, "p99", PARAMS)
    assert small == [] and severe[0]["baseline"] == 1000.0


def test_a_disk_hog_of_two_windows_is_an_episode_explained_by_the_disk_not_an_outlier(tmp_path):
    run = synth_cases.write_disk_hog_run(tmp_path / "hog")
    loaded = load_run(run)
    t_hog = int(loaded.start_ms + (5 + 160) * 1000)  # 5 warmup windows, then the 160th measured window
    p99 = [c for c in find_changes(loaded) if c["series"] == "p99"]
    assert [(c["time_ms"], c["duration_ms"], c.get("severe")) for c in p99] == [(t_hog, 2000.0, True)], p99
    assert p99[0]["relative_change"] > 100
    listed = [n for m in p99[0]["metrics"] for n in [m["name"], *m["same"]]]
    assert {"os.cpu.iowait_pct", "os.disk.io_ms_ps", "os.disk.write_bytes_ps"} & set(listed), listed
    assert "proc.write_bytes_ps" not in listed  # the server's own writes did not move

    out = tmp_path / "out"
    assert main(["report", str(run), "-o", str(out)]) == 0
    findings = json.loads((out / "findings.json").read_text())
    assert findings[0]["kind"] == "episode" and findings[0]["time_ms"] == t_hog, [f["title"] for f in findings]
    assert "for 2 s, then back" in findings[0]["title"] and findings[0]["cause"] is not None
    # the hog's windows are not also listed as an outlier
    assert not any(f["kind"] == "outliers" and any(w["time_ms"] == t_hog for w in f["windows"]) for f in findings)


def test_a_one_window_dip_to_30_percent_is_an_episode_with_the_host_cpu_taken(tmp_path):
    path, t_dip = _run_with_one_dip(tmp_path / "dip", share=0.3)
    out = tmp_path / "out"
    assert main(["report", str(path), "-o", str(out)]) == 0
    findings = json.loads((out / "findings.json").read_text())
    assert [f["kind"] for f in findings] == ["episode"], [f["title"] for f in findings]
    f = findings[0]
    assert f["time_ms"] == t_dip and f["duration_ms"] == 1000.0
    assert f["cpu"]["taken_by"] not in (None, "freed") and "host CPU taken by" in f["title"], f["title"]
