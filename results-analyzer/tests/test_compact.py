"""`ivs_analyzer compact`: the committable form of an experiment gives the same figure book and findings as the
experiment folder it came from, and the per-epoch monitor figures the verdicts quote."""
import json
import shutil

import numpy as np
import pandas as pd
import pytest

from ivs_analyzer import cli
from ivs_analyzer.load.results import AnalyzerError, load_experiment, load_run

from synth import STEP_METRIC, write_experiment


def _exp(tmp_path):
    return write_experiment(tmp_path / "exp", epochs=12, main_step_at=6, with_monitor=True)


def test_the_compact_folder_gives_the_same_figure_book_and_findings(tmp_path):
    exp = _exp(tmp_path)
    assert cli.main(["report", str(exp), "-o", str(tmp_path / "full")]) == 0
    assert cli.main(["compact", str(exp), str(tmp_path / "compact")]) == 0
    compact = tmp_path / "compact"
    assert not list(compact.glob("epoch-*")), "no epoch sub-folders in the compact form"
    for name in ["figures.json", "figures.md", "findings.json", "changes.json"]:
        assert (compact / name).read_bytes() == (tmp_path / "full" / name).read_bytes(), name
    book = json.loads((compact / "figures.json").read_text())
    table = (compact / "verdicts.md").read_text().split("## Per regime")[0]
    assert table.count("\n| ") == sum(max(1, len(f.get("tests") or [])) for f in book) + 1, "a row per test"
    # the step the synthetic monitor carries is named from the compact folder too
    findings = json.loads((compact / "findings.json").read_text())
    assert findings, "the synthetic step at epoch 6 is found"


def test_monitor_epochs_holds_each_run_phase_summary_computed_from_its_own_monitor(tmp_path):
    exp = _exp(tmp_path)
    cli.main(["compact", str(exp), str(tmp_path / "c")])
    kept = pd.read_csv(tmp_path / "c" / "monitor_epochs.csv")
    assert set(kept["mode"]) == {"main"}, "only main's sub-runs have a monitor in the synthetic experiment"
    assert sorted(kept["epoch"]) == list(range(12))
    # independent of the summariser: the mean of the step metric over epoch 3's and epoch 9's monitor rows from
    # the measured start on (the synthetic run's warmup window holds no measured operation)
    for epoch in (3, 9):
        run = load_run(exp / f"epoch-{epoch:03d}" / "main" / "run")
        start = float(run.summary["phases"][0]["measuredStartMs"])
        end = float(run.summary["phases"][0]["endMs"])
        mon = pd.read_csv(exp / f"epoch-{epoch:03d}" / "main" / "run" / "monitor.csv")
        measured = mon[(mon["time_ms"] >= start) & (mon["time_ms"] + 1000 <= end)]
        row = kept[(kept["mode"] == "main") & (kept["epoch"] == epoch)].iloc[0]
        assert row[STEP_METRIC] == pytest.approx(measured[STEP_METRIC].mean(), rel=1e-9)
    loaded = load_experiment(tmp_path / "c")
    assert loaded.label == load_experiment(exp).label
    assert loaded.monitor_epochs is not None and len(loaded.monitor_epochs) == 12


def test_compact_refuses_a_compact_folder_and_its_own_folder(tmp_path, capsys):
    exp = _exp(tmp_path)
    cli.main(["compact", str(exp), str(tmp_path / "c")])
    assert cli.main(["compact", str(tmp_path / "c"), str(tmp_path / "d")]) == 2
    assert "no epoch sub-folders" in capsys.readouterr().err
    assert cli.main(["compact", str(exp), str(exp)]) == 2
    shutil.rmtree(tmp_path / "c")
    with pytest.raises(AnalyzerError):
        load_experiment(tmp_path / "c")


def test_epoch_intervals_hold_each_run_phase_mean_and_its_sampling_interval(tmp_path):
    exp = _exp(tmp_path)
    cli.main(["compact", str(exp), str(tmp_path / "c")])
    kept = pd.read_csv(tmp_path / "c" / "epoch_intervals.csv")
    assert len(kept) == 12 * 4, "one row per epoch and mode"
    summary = json.loads((exp / "epoch-005" / "clean" / "run" / "summary.json").read_text())
    phase = summary["phases"][0]
    n, rt = phase["counts"]["ok"], phase["responseTimeUs"]
    row = kept[(kept["mode"] == "clean") & (kept["epoch"] == 5)].iloc[0]
    assert row["ops"] == n
    assert row["lat_avg_us"] == pytest.approx(rt["avg"], abs=1e-4)
    half = 1.96 * rt["stddev"] / n ** 0.5
    assert row["ci_high_us"] - row["ci_low_us"] == pytest.approx(2 * half, abs=2e-4)


def test_mode_ratios_divide_the_two_modes_means_epoch_by_epoch(tmp_path):
    from ivs_analyzer.report import compact
    exp = _exp(tmp_path)
    cli.main(["compact", str(exp), str(tmp_path / "c")])
    assert (tmp_path / "c" / "mode_ratios.png").is_file()
    intervals = pd.read_csv(tmp_path / "c" / "epoch_intervals.csv")
    ratios = compact.mode_ratios(intervals)
    row = ratios[(ratios["pair"] == "main/clean") & (ratios["epoch"] == 7)].iloc[0]
    main = json.loads((exp / "epoch-007" / "main" / "run" / "summary.json").read_text())["phases"][0]
    clean = json.loads((exp / "epoch-007" / "clean" / "run" / "summary.json").read_text())["phases"][0]
    assert row["ratio"] == pytest.approx(main["responseTimeUs"]["avg"] / clean["responseTimeUs"]["avg"], rel=1e-5)
    assert row["low"] < row["ratio"] < row["high"]


def test_mode_ratios_add_main_maintained_pairs_only_where_the_run_had_that_mode():
    from ivs_analyzer.report import compact

    def intervals(modes: dict[str, float]) -> pd.DataFrame:
        return pd.DataFrame([{"epoch": e, "mode": m, "lat_avg_us": v, "ci_low_us": v * 0.98, "ci_high_us": v * 1.02}
                             for e in (1, 2) for m, v in modes.items()])

    ratios = compact.mode_ratios(intervals({"main": 120.0, "clean": 100.0, "main-maintained": 96.0}))
    assert sorted(set(ratios["pair"])) == ["main-maintained/clean", "main/clean", "main/main-maintained"]
    got = ratios.set_index(["pair", "epoch"])["ratio"]
    assert got[("main/main-maintained", 1)] == pytest.approx(1.25)
    assert got[("main-maintained/clean", 2)] == pytest.approx(0.96)
    ratios = compact.mode_ratios(intervals({"main": 120.0, "clean": 100.0, "average-baseline": 110.0}))
    assert sorted(set(ratios["pair"])) == ["main/average-baseline", "main/clean"]


def test_mode_waits_are_each_modes_recorded_quiescence_wait_in_seconds():
    from ivs_analyzer.report import compact
    epochs = pd.DataFrame({"epoch": [1, 1, 2, 2], "mode": ["main", "clean", "main", "clean"],
                           "quiesce_ms": [1013, None, 60000, 2500],
                           "quiesce_timed_out": ["false", None, "true", "false"]})
    waits = compact.mode_waits(epochs)
    assert waits.to_dict("records") == [
        {"epoch": 1, "mode": "main", "wait_s": 1.013, "timed_out": False},
        {"epoch": 2, "mode": "main", "wait_s": 60.0, "timed_out": True},
        {"epoch": 2, "mode": "clean", "wait_s": 2.5, "timed_out": False}]
    assert compact.mode_waits(epochs.drop(columns=["quiesce_ms", "quiesce_timed_out"])).empty


def test_a_trials_folder_compacts_to_one_folder_per_trial_and_the_trials_figure_book(tmp_path):
    folder = tmp_path / "ycsbivs-trials_2026-01-01_00-00-00"
    write_experiment(folder / "ycsbivs-experiment_2026-01-01_00-00-01", epochs=12, main_step_at=6, with_monitor=True,
                     engine="RocksDB")  # MyRocks: Fig 16 is the paper's MyRocks figure
    write_experiment(folder / "ycsbivs-experiment_2026-01-01_00-10-00", epochs=12, with_monitor=True)
    from test_trials_report import _write_trials_csv
    _write_trials_csv(folder / "trials.csv", 12)
    assert cli.main(["report", str(folder), "-o", str(tmp_path / "full")]) == 0
    assert cli.main(["compact", str(folder), str(tmp_path / "c")]) == 0
    c = tmp_path / "c"
    assert sorted(p.name for p in c.iterdir() if p.is_dir() and p.name.startswith("trial-")) == ["trial-1", "trial-2"]
    assert not list(c.glob("trial-*/epoch-*")), "no epoch sub-folders"
    # trial 1 is the first trial by the folder's start time, as in `report` on the trials folder
    assert (c / "trial-1" / "epochs.csv").read_bytes() == (
        folder / "ycsbivs-experiment_2026-01-01_00-00-01" / "epochs.csv").read_bytes()
    assert (c / "trials.csv").is_file() and (c / "verdicts.md").is_file()
    for name in ["figures.json", "findings.json"]:
        assert (c / name).read_bytes() == (tmp_path / "full" / name).read_bytes(), name
    fig16 = {f["figure"]: f for f in json.loads((c / "figures.json").read_text())}[16]
    assert fig16["verdict"] == "reproduced", "Fig 16 from trials.csv, as on the full trials folder"


def _slice_run_phase(exp, epoch, mode, latencies):
    """Replaces the mode's run folder of one epoch by slices run-01, run-02, ... (as experiment/slices writes them):
    slice k holds its own windows, later in time, a STEP_METRIC level of its own, and as its run phase's
    responseTimeUs the mean and population sd of latencies[k] with len(latencies[k]) operations."""
    from synth import WINDOW_MS, write_run
    base = exp / f"epoch-{epoch:03d}" / mode
    shutil.rmtree(base / "run")
    for k, lat in enumerate(latencies):
        sub = write_run(base / f"run-{k + 1:02d}", windows=20, step_at=None, late_step_at=None, warmup_windows=1,
                        tput_before=800.0 + 300 * k, seed=100 + k, step_metric_offset=250.0 * k,
                        start_ms=1_763_842_000_000 + (k + 1) * 60 * WINDOW_MS)
        summary = json.loads((sub / "summary.json").read_text())
        phase = summary["phases"][0]
        phase["counts"]["ok"] = len(lat)
        phase["responseTimeUs"].update(avg=float(np.mean(lat)), stddev=float(np.std(lat)))
        (sub / "summary.json").write_text(json.dumps(summary))


def test_a_run_phase_made_in_slices_is_summarised_as_one_from_all_its_slices(tmp_path):
    """Known answers for a sliced run phase, computed from the slices' own files, not by the summariser: the
    epoch's operations, mean and sd are those of all slices' operations together, and its monitor summary the mean
    and per-operation amount over all slices' measured windows. Before the slices were pooled, such an epoch had no
    row at all in monitor_epochs.csv or epoch_intervals.csv."""
    exp = _exp(tmp_path)
    rng = np.random.default_rng(7)
    latencies = [rng.lognormal(5.0, 0.4, 3000), rng.lognormal(5.6, 0.3, 1200), rng.lognormal(5.2, 0.5, 2500)]
    for epoch in (4, 8):
        _slice_run_phase(exp, epoch, "main", latencies)
    assert cli.main(["compact", str(exp), str(tmp_path / "c")]) == 0
    intervals = pd.read_csv(tmp_path / "c" / "epoch_intervals.csv")
    monitor = pd.read_csv(tmp_path / "c" / "monitor_epochs.csv")
    everything = np.concatenate(latencies)
    for epoch in (4, 8):
        row = intervals[(intervals["mode"] == "main") & (intervals["epoch"] == epoch)]
        assert len(row) == 1, "one row for the epoch's run phase, not one per slice"
        row = row.iloc[0]
        assert row["ops"] == len(everything)
        # epoch_intervals.csv keeps four decimals
        assert row["lat_avg_us"] == pytest.approx(everything.mean(), abs=1e-4)
        assert row["lat_sd_us"] == pytest.approx(everything.std(), abs=1e-4)
        # the monitor: every slice's measured windows (from its measured start to its end), read from the files
        rows, ops = [], 0.0
        for k in range(len(latencies)):
            sub = exp / f"epoch-{epoch:03d}" / "main" / f"run-{k + 1:02d}"
            phase = json.loads((sub / "summary.json").read_text())["phases"][0]
            start, end = phase["measuredStartMs"], phase["endMs"]
            mon = pd.read_csv(sub / "monitor.csv")
            rows.append(mon[(mon["time_ms"] >= start) & (mon["time_ms"] + mon["interval_ms"] <= end)])
            samples = pd.read_csv(sub / "samples.csv")
            alls = samples[(samples["type"] == "ALL") & (samples["time_ms"] >= start)
                           & (samples["time_ms"] + samples["window_ms"] <= end)]
            ops += alls["ok"].sum()
        measured = pd.concat(rows)
        assert len(measured) == 3 * 20, "every slice's 20 measured windows"
        kept = monitor[(monitor["mode"] == "main") & (monitor["epoch"] == epoch)]
        assert len(kept) == 1
        kept = kept.iloc[0]
        assert kept[STEP_METRIC] == pytest.approx(measured[STEP_METRIC].mean(), rel=1e-9)
        assert kept[f"{STEP_METRIC}/op"] == pytest.approx(measured[STEP_METRIC].sum() / ops, rel=1e-9)
        rate = "os.disk.read_bytes_ps"
        assert kept[f"{rate}/op"] == pytest.approx((measured[rate] * measured["interval_ms"] / 1000).sum() / ops,
                                                   rel=1e-9)
    # an epoch left whole keeps its own summary beside them
    whole = json.loads((exp / "epoch-005" / "main" / "run" / "summary.json").read_text())["phases"][0]
    row = intervals[(intervals["mode"] == "main") & (intervals["epoch"] == 5)].iloc[0]
    assert row["ops"] == whole["counts"]["ok"]
    assert row["lat_avg_us"] == pytest.approx(whole["responseTimeUs"]["avg"], abs=1e-4)
    assert sorted(monitor[monitor["mode"] == "main"]["epoch"]) == list(range(12))
