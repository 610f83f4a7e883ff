"""Within-run outliers (outliers.window_excursions, outliers.run_excursions): a single window that leaves its
level and comes back is listed as an outlier with the host's condition at that moment, never as a step."""
import json

import numpy as np
import pandas as pd

import synth
from ivs_analyzer.cli import main
from ivs_analyzer.detect.outliers import run_excursions, window_excursions
from ivs_analyzer.detect.series import ChangeParams
from ivs_analyzer.explain.changes import find_changes
from ivs_analyzer.load.results import load_run

DIP = 120  # the measured window that dips


def _run_with_one_dip(path, share=0.7):
    """300 flat windows at ~1000 ops/s (2% noise); window DIP runs at `share` of it (70%: a small dip, an
    outlier; throughput halved or worse is severe and explained, test_severity.py) while the host's idle CPU
    falls from ~70 % to 3 % and the client's own CPU stays at ~20 % of a core."""
    run = synth.write_run(path, step_at=None, late_step_at=None)
    samples = pd.read_csv(run / "samples.csv")
    t_dip = int(sorted(samples.loc[samples["ok"] > 0, "time_ms"].unique())[DIP])
    at = samples["time_ms"] == t_dip
    for col in ("ok", "throughput", "goodput"):
        samples.loc[at, col] = (samples.loc[at, col] * share).round()
    samples.to_csv(run / "samples.csv", index=False)
    monitor = pd.read_csv(run / "monitor.csv")
    rng = np.random.default_rng(5)
    monitor["os.cpu.idle_pct"] = np.round(70 + 2 * rng.standard_normal(len(monitor)), 2)
    monitor["client.cpu_pct"] = np.round(20 + 1 * rng.standard_normal(len(monitor)), 2)
    monitor.loc[monitor["time_ms"] == t_dip, "os.cpu.idle_pct"] = 3.0
    monitor.to_csv(run / "monitor.csv", index=False)
    return run, t_dip


def test_a_single_window_that_comes_back_is_an_excursion_of_one_window():
    values = np.full(60, 1000.0) + np.random.default_rng(2).normal(0, 20, 60)
    values[30] = 300.0
    found = window_excursions(values, log_scale=False, min_relative_change=0.10, max_len=4)
    assert [(g["start"], g["end"]) for g in found] == [(30, 31)]
    assert abs(found[0]["expected"] - 1000) < 30 and -0.75 < found[0]["relative_change"] < -0.65
    # the same drop that stays is a step, not an excursion
    values[30:] = 300.0 + np.random.default_rng(4).normal(0, 20, 30)
    assert window_excursions(values, log_scale=False, min_relative_change=0.10, max_len=4) == []


def test_a_one_window_dip_is_an_outlier_with_the_host_condition_not_a_step(tmp_path):
    path, t_dip = _run_with_one_dip(tmp_path / "dip")
    run = load_run(path)
    assert [c for c in find_changes(run) if c["series"] == "throughput"] == []
    dips = [x for x in run_excursions(run, ChangeParams()) if x["series"] == "throughput"]
    assert len(dips) == 1, dips
    x = dips[0]
    assert x["time_ms"] == t_dip and x["windows"] == 1 and -0.35 < x["relative_change"] < -0.25
    host = x["host"]
    assert host["os.cpu.idle_pct"] == 3.0 and abs(host["os.cpu.idle_pct.typical"] - 70) < 2
    assert abs(host["client.cpu_pct"] - 20) < 5 and abs(host["client.cpu_pct.typical"] - 20) < 1

    out = tmp_path / "out"
    assert main(["report", str(path), "-o", str(out)]) == 0
    findings = json.loads((out / "findings.json").read_text())
    assert [f["kind"] for f in findings] == ["outliers"], [f["title"] for f in findings]
    evidence = [e for e in findings[0]["evidence"] if "throughput" in e]
    assert len(evidence) == 1 and "for 1 window;" in evidence[0], findings[0]["evidence"]
    assert "host CPU idle 3 % (typical 70 %)" in evidence[0], evidence
