"""Latency against record size: the exponent fit on known power laws, and the figure book's use of
latency_by_size.csv (synthetic files; expectations computed here, not by the code under test)."""
import csv
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import synth
from ivs_analyzer.cli import main
from ivs_analyzer.explain import size_latency
from ivs_analyzer.load.results import AnalyzerError, load_experiment
from ivs_analyzer.report import figure_book
from test_figure_book import synthetic

HEADER = ["epoch", "mode", "phase", "type", "bucket_lo", "bucket_hi", "count", "lat_avg_us", "lat_p50_us",
          "lat_p90_us", "lat_p99_us", "lat_max_us"]


def rows_of(points):
    """points: (epoch, mode, phase, type, bucket_lo, count, mean latency); bucket_lo None = unknown size."""
    out = []
    for epoch, mode, phase, type_, lo, count, lat in points:
        hi = None if lo is None else (1 if lo == 0 else 2 * lo)
        out.append({"epoch": epoch, "mode": mode, "phase": phase, "type": type_, "bucket_lo": lo, "bucket_hi": hi,
                    "count": count, "lat_avg_us": lat, "lat_p50_us": lat, "lat_p90_us": lat, "lat_p99_us": lat,
                    "lat_max_us": lat})
    return pd.DataFrame(out, columns=HEADER).astype({"bucket_lo": float, "bucket_hi": float})


def power_law(mode, b, c=2.0, ks=range(6, 21), epoch=1, count=100):
    """Buckets [2^k, 2^(k+1)) whose mean latency is exactly c * middle^b, middle = 2^k * sqrt(2)."""
    return [(epoch, mode, "run", "ReadRecord", 2 ** k, count, c * (2 ** k * math.sqrt(2)) ** b) for k in ks]


@pytest.mark.parametrize("b", [0.5, 1.0, 1.7])
def test_a_known_power_law_gives_its_exponent_with_a_zero_width_interval(b):
    fit = size_latency.exponents(rows_of(power_law("main", b)))[0]
    assert fit["exponent"] == pytest.approx(b, abs=1e-9)
    assert fit["ci_low"] == pytest.approx(b, abs=1e-6) and fit["ci_high"] == pytest.approx(b, abs=1e-6)
    assert fit["points"] == 15 and fit["operations"] == 1500
    assert math.exp(fit["intercept"]) == pytest.approx(2.0)


def test_counts_weight_the_fit_and_the_interval_is_the_regressions():
    # Four buckets off any one power law: the weighted slope and its t interval by the textbook formulas.
    lows = np.array([64, 256, 1024, 4096], float)
    counts = np.array([1000, 10, 10, 1000], float)
    lat = np.array([10.0, 40.0, 30.0, 90.0])
    points = [(1, "main", "run", "ReadRecord", int(lo), int(n), v) for lo, n, v in zip(lows, counts, lat)]
    fit = size_latency.exponents(rows_of(points))[0]
    x, y, w = np.log(lows * math.sqrt(2)), np.log(lat), counts
    xm, ym = np.average(x, weights=w), np.average(y, weights=w)
    sxx = np.sum(w * (x - xm) ** 2)
    b = np.sum(w * (x - xm) * (y - ym)) / sxx
    resid = y - (ym + b * (x - xm))
    se = math.sqrt(np.sum(w * resid ** 2) / (len(x) - 2) / sxx)
    half = stats.t.ppf(0.975, len(x) - 2) * se
    assert fit["exponent"] == pytest.approx(b, rel=1e-9)
    assert fit["ci_low"] == pytest.approx(b - half, rel=1e-9)
    assert fit["ci_high"] == pytest.approx(b + half, rel=1e-9)
    unweighted = np.polyfit(x, y, 1)[0]
    assert abs(fit["exponent"] - unweighted) > 0.05  # the weights changed the answer


def test_unknown_and_empty_sizes_are_left_out_and_one_size_has_no_exponent():
    points = power_law("main", 1.0, ks=[10]) + [(1, "main", "run", "ReadRecord", None, 50, 999.0),
                                               (1, "main", "run", "ReadRecord", 0, 50, 1.0)]
    fit = size_latency.exponents(rows_of(points))[0]
    assert fit["points"] == 1 and math.isnan(fit["exponent"]) and math.isnan(fit["ci_low"])
    assert size_latency.words(fit) == "b: too few sizes"
    two = size_latency.exponents(rows_of(power_law("main", 1.0, ks=[10, 11])))[0]
    assert two["exponent"] == pytest.approx(1.0) and math.isnan(two["ci_low"])  # no residual freedom


def test_each_mode_phase_and_type_gets_its_own_fit_over_all_epochs():
    points = (power_law("main", 1.2, epoch=1, ks=range(6, 10)) + power_law("main", 1.2, epoch=2, ks=range(10, 14))
              + power_law("average-baseline", 0.4) + [(1, "main", "extend", "ExtendRecord", 2 ** k, 10, 5.0 * 2 ** k)
                                                      for k in range(8, 12)])
    fits = {(f["mode"], f["phase"], f["type"]): f for f in size_latency.exponents(rows_of(points))}
    assert set(fits) == {("main", "run", "ReadRecord"), ("average-baseline", "run", "ReadRecord"),
                         ("main", "extend", "ExtendRecord")}
    assert fits[("main", "run", "ReadRecord")]["exponent"] == pytest.approx(1.2)
    assert fits[("main", "run", "ReadRecord")]["points"] == 8
    assert fits[("average-baseline", "run", "ReadRecord")]["exponent"] == pytest.approx(0.4)
    assert fits[("main", "extend", "ExtendRecord")]["exponent"] == pytest.approx(1.0)


def write_csv(path, frame):
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEADER)
        for r in frame.itertuples(index=False):
            w.writerow(["" if (isinstance(v, float) and math.isnan(v)) else
                        (int(v) if isinstance(v, float) and v.is_integer() and c in ("bucket_lo", "bucket_hi")
                         else v) for c, v in zip(HEADER, r)])


def test_the_report_draws_the_figure_and_lists_each_modes_exponent(tmp_path):
    exp = synth.write_experiment(tmp_path / "e", epochs=6)
    frame = rows_of(power_law("main", 1.0) + power_law("average-baseline", 0.5)
                    + [(1, "main", "run", "ScanRecord", None, 7, 50.0)])
    write_csv(exp / "latency_by_size.csv", frame)
    loaded = load_experiment(exp).latency_by_size
    assert len(loaded) == len(frame) and loaded["bucket_lo"].isna().sum() == 1
    out = tmp_path / "out"
    assert main(["report", str(exp), "-o", str(out)]) == 0
    md = (out / "figures.md").read_text()
    assert "| main | run | ReadRecord | 1.000 | [1.000, 1.000] | 15 | 1500 |" in md
    assert "| average-baseline | run | ReadRecord | 0.500 | [0.500, 0.500] | 15 | 1500 |" in md
    assert "ScanRecord" not in md  # no operation of known size: no fit
    assert (out / "figures" / "latency_vs_record_size.png").is_file()
    assert "exponent b" in (out / "figures.html").read_text()


def test_without_the_file_the_book_keeps_the_epoch_average_chart(tmp_path):
    sections = figure_book.write(synthetic(), None, tmp_path)
    assert sections and (tmp_path / "figures" / "latency_vs_record_size.png").is_file()
    assert "exponent" not in (tmp_path / "figures.md").read_text()


def test_a_bad_cell_names_the_file_and_column(tmp_path):
    exp = synth.write_experiment(tmp_path / "e", epochs=3)
    (exp / "latency_by_size.csv").write_text(",".join(HEADER) + "\n1,main,run,ReadRecord,64,128,many,1,1,1,1,1\n")
    with pytest.raises(AnalyzerError, match="latency_by_size.csv.*count"):
        load_experiment(exp)
