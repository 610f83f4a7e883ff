import csv

import numpy as np
import pandas as pd

import synth
from ivs_analyzer.detect.series import ChangeParams
from ivs_analyzer.explain.changes import find_changes
from ivs_analyzer.load.results import load_run


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


def _add_monitor_columns(run, columns):
    """Appends metric columns to a synthetic monitor.csv; columns maps name -> f(row dict, window index)."""
    with (run / "monitor.csv").open() as f:
        rows = list(csv.DictReader(f))
    header = list(rows[0].keys()) + list(columns)
    for i, r in enumerate(rows):
        for name, f in columns.items():
            r[name] = f(r, i)
    with (run / "monitor.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header)
        w.writeheader()
        w.writerows(rows)


def test_copies_of_one_signal_share_a_place(tmp_path):
    """Four exact copies of the stepped metric (pages vs bytes, a disk total vs its device...) tie with it
    on score; they must be listed as `same` under it, so a distinct, weaker suspect still makes the top 5."""
    run = synth.write_run(tmp_path / "copies", step_at=150, late_step_at=None)
    rng = np.random.default_rng(7)
    step = synth.STEP_METRIC
    warmup = 5  # synth writes 5 warmup rows first; window w of the phase is row w + 5
    copies = {f"db.copy{k}": (lambda r, i, k=k: float(r[step]) * 16384 * k) for k in (1, 2, 3)}
    copies["db.negated"] = lambda r, i: -float(r[step])
    # Steps at the same window with its own noise: moves at the same time, but not the same series.
    copies["db.distinct"] = lambda r, i: 100 + (50 if i - warmup >= 150 else 0) + 15 * rng.standard_normal()
    _add_monitor_columns(run, copies)

    c = [c for c in find_changes(load_run(run)) if c["series"] == "throughput"][0]
    names = [m["name"] for m in c["metrics"]]
    # Only metrics that broke by 3 noise units or more are listed (the noise metrics used to fill the top 5);
    # the copies must still not take the places a distinct signal needs.
    assert len(names) == 2 and len(set(names)) == 2, names
    assert names[0] in {step, *copies} - {"db.distinct"}
    assert set(c["metrics"][0]["same"]) | {names[0]} == {step, "db.copy1", "db.copy2", "db.copy3", "db.negated"}
    assert "db.distinct" in names, names
    assert all(m["same"] == [] for m in c["metrics"][1:]), c["metrics"]


def test_same_signal_needs_correlation_not_equal_steps():
    from ivs_analyzer.explain.metrics import same_signal
    step = np.r_[np.zeros(10), np.ones(10)]
    rng = np.random.default_rng(1)
    assert same_signal(step * 5 + 1, step, 0.98)
    assert same_signal(-step, step, 0.98)
    assert not same_signal(step + 0.5 * rng.standard_normal(20), step, 0.98)
    assert not same_signal(np.ones(20), step, 0.98)          # constant: says nothing
    a = step.copy()
    a[:17] = np.nan                                           # 3 common windows: too few
    assert not same_signal(a, step, 0.98)


def test_server_side_copy_of_the_client_series_is_not_a_suspect(tmp_path):
    """Queries counted by the server (Com_select, bytes sent) move with throughput because they are the
    same operations: they go to `follows`, not to the places meant for possible causes."""
    run = synth.write_run(tmp_path / "follow", step_at=150, late_step_at=None)
    with (run / "samples.csv").open() as f:
        tput = {r["time_ms"]: float(r["throughput"]) for r in csv.DictReader(f) if r["type"] == "ALL"}
    _add_monitor_columns(run, {"db.Questions_follow": lambda r, i: 3 * tput[r["time_ms"]]})

    c = [c for c in find_changes(load_run(run)) if c["series"] == "throughput"][0]
    assert "db.Questions_follow" in c["follows"]
    assert "db.Questions_follow" not in [n for m in c["metrics"] for n in [m["name"], *m["same"]]]
    assert c["metrics"][0]["name"] == synth.STEP_METRIC  # the cause keeps its place


def test_a_counter_whose_amount_per_operation_jumps_is_listed_on_a_busy_machine():
    """A real case (buffer pool shrunk below the table on a busy 2-core box): throughput fell and kept swinging
    1,400-5,100/s, so the buffer pool reads after the step (about one per query) were as noisy as the
    throughput, the client's change point came one window before the reads moved, and their own break stayed
    under 3 noise units. Per operation (0 -> 1 read per query) the break is clear, and it is listed; a gauge
    that merely stays put while throughput falls is not."""
    from ivs_analyzer.detect.series import ChangeParams
    from ivs_analyzer.explain.metrics import rank_window_metrics

    reads = [2, 0, 7, 18, 0, 0, 0, 0, 0, 3517, 3234, 3818, 1517, 2060, 3172, 1809, 1703, 5585]
    rate = [13285, 19468, 24108, 14361, 12523, 20907, 14758, 21713, 9017, 4251, 2979, 3493, 1395, 2037, 2757,
            1622, 1652, 5110]
    rng = np.random.default_rng(3)
    n = len(reads)
    metrics = pd.DataFrame({"db.Innodb_buffer_pool_reads": reads,
                            "os.mem.used_bytes": 4e9 + 1e6 * rng.standard_normal(n)},
                           index=np.arange(n) * 1000.0)
    after = np.arange(n) >= 8
    tput = (float(np.mean(rate[:8])), float(np.mean(rate[8:])))
    listed, _ = rank_window_metrics(metrics, ~after, after, ChangeParams(), tput)
    assert listed == [], "without the client's rate the reads' own break is too noisy to list"
    listed, follows = rank_window_metrics(metrics, ~after, after, ChangeParams(), tput, np.array(rate, float))
    assert [m["name"] for m in listed] == ["db.Innodb_buffer_pool_reads"], listed
    assert "os.mem.used_bytes" not in follows
