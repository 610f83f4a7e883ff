"""Step changes across epochs (epochs.py) on synthetic experiments whose modes ramp with the epochs, as
latency does when values grow: only injected steps may be reported, not the trend."""
import json

import numpy as np
import pandas as pd

import synth
from ivs_analyzer.cli import main
from ivs_analyzer.explain.epochs import find_epoch_changes
from ivs_analyzer.load.results import load_experiment

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


def test_a_cold_first_epoch_then_flat_is_no_step():
    # Seen on a real SQLite experiment: epoch 1 slow (cold), then flat with noise. A line through the first
    # 3 epochs extended to the 4th claimed a +32% "step" the observed values never made.
    from ivs_analyzer.detect.series import ChangeParams
    from ivs_analyzer.detect.epoch_steps import changes_in as _changes_in, epoch_params
    values = [14.35, 9.86, 9.38, 9.26, 9.77, 9.38, 9.29, 9.41, 9.52, 9.33, 9.61, 9.45, 9.30, 9.48]
    series = pd.Series(values, index=range(1, len(values) + 1), dtype=float)
    assert _changes_in(series, True, epoch_params(ChangeParams()))[0] == []


def test_a_metric_that_only_grows_with_the_epochs_is_not_a_cause():
    # data_bytes grows by the same amount every epoch: its before and after levels differ at any epoch, but
    # it has no break of its own; the metric that jumps at the step is the one listed.
    from ivs_analyzer.detect.series import ChangeParams
    from ivs_analyzer.detect.epoch_steps import epoch_params
    from ivs_analyzer.explain.epochs import rank_epoch_metrics
    rng = np.random.default_rng(7)
    epochs = np.arange(1, 21, dtype=float)
    frame = pd.DataFrame({
        "data_bytes": 1_000_000 + 100_000 * epochs,
        "db.Innodb_buffer_pool_reads": np.where(epochs >= 12, 500.0, 20.0) + rng.normal(0, 3, len(epochs)),
        "os.cpu.idle_pct": 50 + rng.normal(0, 1, len(epochs)),
    }, index=epochs)
    ranked, _ = rank_epoch_metrics(frame, 12, epoch_params(ChangeParams()))
    assert [m["name"] for m in ranked] == ["db.Innodb_buffer_pool_reads"]
    assert ranked[0]["before"] < 30 < 400 < ranked[0]["after"]
    assert rank_epoch_metrics(frame, 6, epoch_params(ChangeParams()))[0] == [], "no metric breaks at epoch 6"
