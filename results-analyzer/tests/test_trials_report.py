"""`report` on a trials folder (experiment/trials > 1): the report and figure book of trial 1, with Fig 16
drawn from trials.csv's means and standard deviations (docs/results-format.md, "Experiments")."""
import csv
import json

import synth
from ivs_analyzer.cli import main

# trials.csv's metrics, in the order the benchmark writes them (TrialsCsv.METRICS).
METRICS = ["data_bytes", "run_throughput", "run_lat_avg_us", "run_lat_p99_us", "run_read_throughput",
           "run_read_lat_avg_us", "run_read_lat_p99_us", "run_update_throughput", "run_update_lat_avg_us",
           "run_update_lat_p99_us", "extend_throughput", "extend_lat_avg_us", "extend_skipped"]


def _write_trials_csv(path, epochs):
    """Two trials of a mixed run: main's mean latency 100 x 1.1^e µs (a straight line in log latency, which the
    figure book's log-linear trend fits exactly) with an sd of a tenth of it (CV 0.10),
    READ the same, UPDATE twice it; other modes and metrics left empty, as for types that did not run."""
    header = ["epoch", "mode", "trials"] + [f"{m}_{s}" for m in METRICS for s in ("mean", "sd", "min", "max")]
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for e in range(epochs):
            lat = 100 * 1.1 ** e
            cells = {"epoch": e, "mode": "main", "trials": 2,
                     "run_lat_avg_us_mean": lat, "run_lat_avg_us_sd": lat / 10,
                     "run_read_lat_avg_us_mean": lat, "run_read_lat_avg_us_sd": lat / 10,
                     "run_update_lat_avg_us_mean": 2 * lat, "run_update_lat_avg_us_sd": lat / 5}
            w.writerow([cells.get(c, "") for c in header])


def test_a_trials_folder_reports_trial_one_and_draws_fig_16_from_the_means(tmp_path):
    folder = tmp_path / "ycsbivs-trials_2026-01-01_00-00-00"
    # MyRocks: Fig 16 is the paper's MyRocks figure (on another platform it is not applicable)
    first = synth.write_experiment(folder / "ycsbivs-experiment_2026-01-01_00-00-01", epochs=12, seed=3,
                                   engine="RocksDB")
    synth.write_experiment(folder / "ycsbivs-experiment_2026-01-01_00-10-00", epochs=8, seed=4)
    _write_trials_csv(folder / "trials.csv", 12)

    assert main(["report", str(folder)]) == 0
    html = (folder / "report.html").read_text()
    # trial 1's experiment (12 epochs), not trial 2's (8)
    assert first.name in html and "12 epochs" in html

    by = {s["figure"]: s for s in json.loads((folder / "figures.json").read_text())}
    fig16 = by[16]
    # From trials.csv: READ mean 10 % up an epoch (r of a straight line 0.99), sd / mean = 0.10, 2 trials. The
    # experiments' own epochs.csv have no trials, so without trials.csv Fig 16 would say "no data".
    assert fig16["verdict"] == "reproduced", fig16
    assert fig16["detail"].endswith("; r = 0.99, median CV = 0.10, trials = 2")
    assert [x["verdict"] for x in fig16["tests"]] == ["reproduced", "reproduced"]
    assert (folder / fig16["chart"]).is_file()
