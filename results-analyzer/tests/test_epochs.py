"""Step changes across epochs (epochs.py) on synthetic experiments whose modes ramp with the epochs, as
latency does when values grow: only injected steps may be reported, not the trend."""
import json

import synth
from ivs_analyzer.cli import main
from ivs_analyzer.epochs import find_epoch_changes
from ivs_analyzer.load import load_experiment

STEP = 12


def _of(changes, mode, series):
    return [c for c in changes if c["mode"] == mode and c["series"] == series]


def test_main_latency_step_found_and_explained_by_the_stepped_metric(tmp_path):
    exp = load_experiment(synth.write_experiment(tmp_path / "e", epochs=20, main_step_at=STEP,
                                                 with_monitor=True))
    changes = find_epoch_changes(exp)
    lat = _of(changes, "main", "run_lat_avg_us")
    assert len(lat) == 1, changes
    c = lat[0]
    assert abs(c["epoch"] - STEP) <= 1
    assert 0.35 < c["relative_change"] < 0.65  # injected x1.5 on top of the trend
    top = c["metrics"][0]
    assert top["name"] == synth.STEP_METRIC
    assert top["after"] - top["before"] > 300  # +400 per interval injected
    # its per-operation form carries the same signal and is grouped under it, not given a second place
    assert synth.STEP_METRIC + "/op" in top["same"]
    # the other modes ramp without a step
    assert not [c for c in changes if c["mode"] in ("clean", "average-baseline", "spread-baseline")], changes


def test_flat_noisy_epochs_have_no_step(tmp_path):
    exp = load_experiment(synth.write_experiment(tmp_path / "flat", epochs=30, slope=0.0, noise=4.0))
    assert find_epoch_changes(exp) == []


def test_steady_trend_is_not_a_step(tmp_path):
    """Latency growing every epoch (and throughput falling like its inverse) is what YCSB-IVS expects."""
    exp = load_experiment(synth.write_experiment(tmp_path / "ramp", epochs=40, slope=10.0))
    assert find_epoch_changes(exp) == []


def test_main_leaving_clean_is_a_divergence_step(tmp_path):
    exp = load_experiment(synth.write_experiment(tmp_path / "div", epochs=20, main_step_at=STEP))
    changes = find_epoch_changes(exp)
    div = _of(changes, "main/clean", "run_lat_avg_ratio")
    assert len(div) == 1 and abs(div[0]["epoch"] - STEP) <= 1, changes
    assert div[0]["after"] > div[0]["before"]
    # clean did not move relative to average-baseline
    assert not _of(changes, "clean/average-baseline", "run_lat_avg_ratio")


def test_short_experiment_reports_nothing(tmp_path):
    """5 epochs cannot hold two 3-epoch segments: no detection rather than a guess."""
    exp = load_experiment(synth.write_experiment(tmp_path / "short", epochs=5, main_step_at=3))
    assert find_epoch_changes(exp) == []


def test_report_writes_epoch_steps(tmp_path):
    exp = synth.write_experiment(tmp_path / "e", epochs=20, main_step_at=STEP, with_monitor=True)
    out = tmp_path / "out"
    assert main(["report", str(exp), "-o", str(out)]) == 0
    data = json.loads((out / "changes.json").read_text())
    assert data["windows"] == []
    assert {c["mode"] for c in data["epochs"]} == {"main", "main/clean"}
    html = (out / "report.html").read_text()
    assert "Step changes across epochs" in html and synth.STEP_METRIC in html
