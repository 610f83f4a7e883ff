import synth
from ivs_analyzer.changes import ChangeParams, find_changes
from ivs_analyzer.load import load_run


def _window(change):
    return (change["time_ms"] - synth.START_MS) // synth.WINDOW_MS - 5  # 5 warmup windows


def test_throughput_step_found_and_explained(step_run):
    changes = find_changes(load_run(step_run))
    tput = [c for c in changes if c["series"] == "throughput"]
    assert len(tput) == 1, changes
    c = tput[0]
    assert abs(_window(c) - 150) <= 2
    assert c["before"] > c["after"]
    assert -0.5 < c["relative_change"] < -0.3
    assert c["metrics"][0]["name"] == synth.STEP_METRIC
    assert c["metrics"][0]["after"] > c["metrics"][0]["before"]
    # the metric that stepped far away (window 40) is not a suspect here
    assert synth.LATE_METRIC not in [m["name"] for m in c["metrics"][:2]]
    # no p99 step was injected
    assert not [c for c in changes if c["series"] == "p99"]


def test_flat_noise_has_no_change(flat_run):
    assert find_changes(load_run(flat_run)) == []


def test_p99_step_detected(tmp_path):
    run = synth.write_run(tmp_path / "p99", step_at=None, p99_step_at=100, p99_factor=3.0)
    changes = find_changes(load_run(run))
    assert [c["series"] for c in changes] == ["p99"]
    assert abs(_window(changes[0]) - 100) <= 2
    assert changes[0]["after"] > 2.5 * changes[0]["before"]


def test_small_step_ignored_by_min_relative_change(tmp_path):
    run = load_run(synth.write_run(tmp_path / "small", step_at=150, tput_after=950.0, noise=0.005))
    assert [c for c in find_changes(run) if c["series"] == "throughput"] == []
    loose = ChangeParams(min_relative_change=0.01)
    assert [c for c in find_changes(run, loose) if c["series"] == "throughput"]


def test_two_phases_step_only_where_injected(tmp_path):
    run = load_run(synth.write_two_phase_run(tmp_path / "two"))
    changes = find_changes(run)
    # the 1000 -> 500 drop between phases is a phase boundary, not a step
    assert [(c["phase"], c["series"]) for c in changes] == [(1, "throughput")]
    p1_measured = run.phase(1)["measuredStartMs"]
    assert abs((changes[0]["time_ms"] - p1_measured) / synth.WINDOW_MS - 60) <= 2
    assert changes[0]["metrics"][0]["name"] == synth.STEP_METRIC
    # agent rows merged into the same intervals
    frame = run.metric_frame()
    assert frame["os.disk.sda.read_bytes_ps"].dropna().eq(123).all()
    assert frame[synth.STEP_METRIC].notna().all()
