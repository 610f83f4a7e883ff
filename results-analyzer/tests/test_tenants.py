"""The tenants report: a tenants folder (tenants.csv + tenants.json + one run folder per tenant) as written by
``benchbase.jar tenants``, here synthesised with known p99s so the solo/overlap split can be checked exactly."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pandas as pd
import pytest

import synth
from ivs_analyzer.cli import main
from ivs_analyzer.explain import interference
from ivs_analyzer.load import tenants

# The header TenantTimeline.java writes.
HEADER = ("time_ms,window_ms,tenant,phase,ok,skipped,aborted,error,missed,throughput,goodput,lat_avg_us,lat_p50_us,"
          "lat_p95_us,lat_p99_us,lat_max_us,measured_ms,active_tenants").split(",")
T0 = 1_700_000_000_000


def _write(path: Path, drop_column: str | None = None) -> Path:
    """reads: 10 windows, p99 1 ms alone, 4 ms in windows 4..6 where heavy runs; heavy idles otherwise."""
    path.mkdir(parents=True)
    synth.write_run(path / "reads", windows=10, step_at=None, late_step_at=None)
    synth.write_run(path / "heavy", windows=10, step_at=None, late_step_at=None)
    rows = []
    for i in range(10):
        busy = 4 <= i <= 6
        t = T0 + i * 1000
        rows.append({"tenant": "reads", "phase": 0, "ok": 100, "lat_p99_us": 4000 if busy else 1000, "time_ms": t,
                     "throughput": 100.0, "active_tenants": 2 if busy else 1})
        rows.append({"tenant": "heavy", "phase": 1 if busy else 0, "ok": 500 if busy else 0,
                     "lat_p99_us": 9000 if busy else "", "time_ms": t, "throughput": 500.0 if busy else 0.0,
                     "active_tenants": 2 if busy else 1})
    with (path / "tenants.csv").open("w", newline="") as f:
        cols = [c for c in HEADER if c != drop_column]
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            full = {c: 0 for c in HEADER} | {"window_ms": 1000, "measured_ms": 1000, "lat_avg_us": "",
                                              "lat_p50_us": "", "lat_p95_us": "", "lat_max_us": ""} | r
            w.writerow(full)
    (path / "tenants.json").write_text(json.dumps({
        "windowSeconds": 1, "startSpreadMs": 3,
        "tenants": [{"name": "reads", "folder": "reads", "failed": False},
                    {"name": "heavy", "folder": "heavy", "failed": False}]}))
    return path


def test_solo_and_overlapping_windows_are_split_per_tenant(tmp_path):
    df = tenants.load_timeline(_write(tmp_path / "t"))
    table = interference.interference(df).set_index("tenant")
    assert table.loc["reads", "solo_windows"] == 7
    assert table.loc["reads", "overlap_windows"] == 3
    assert table.loc["reads", "solo_p99_median_us"] == 1000
    assert table.loc["reads", "overlap_p99_median_us"] == 4000
    assert table.loc["reads", "p99_ratio"] == 4.0
    # heavy's idle windows hold no operations: it has no solo windows, only the overlapping ones.
    assert table.loc["heavy", "solo_windows"] == 0 and table.loc["heavy", "overlap_windows"] == 3


def test_report_recognises_a_tenants_folder(tmp_path):
    folder = _write(tmp_path / "t")
    assert main(["report", str(folder)]) == 0
    html = (folder / "report.html").read_text(encoding="utf-8")
    assert "Tenants: reads, heavy" in html
    assert "reads: median window p99 4.0 ms while another tenant ran, 1.0 ms alone (x4.00)" in html
    assert (folder / "tenants_timeline.png").stat().st_size > 0
    assert "tenants_timeline.png" in html
    assert "reads: " in html and "heavy: " in html  # each tenant's phases in the summary table
    got = pd.read_csv(folder / "interference.csv")
    assert list(got["tenant"]) == ["reads", "heavy"]


def test_a_run_folder_is_not_taken_for_tenants(tmp_path):
    run = synth.write_run(tmp_path / "run", windows=10, step_at=None, late_step_at=None)
    assert not tenants.is_tenants_folder(run)


@pytest.mark.parametrize("column", ["active_tenants", "lat_p99_us"])
def test_a_timeline_without_a_needed_column_is_one_error_line(tmp_path, capsys, column):
    folder = _write(tmp_path / "t", drop_column=column)
    assert main(["report", str(folder)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and column in err, err
