"""The figure book's stated tests against hand-worked numbers, and the book on a small synthetic experiment."""
import json

import numpy as np
import pandas as pd

from ivs_analyzer.explain import figure_tests as t
from ivs_analyzer.report import figure_book


def test_ratio_holds_counts_the_share_of_epochs():
    # 1.10, 1.00, 1.20, 1.06: three of four above 1.05
    ok, share = t.ratio_holds(np.array([110, 100, 120, 106]), np.array([100, 100, 100, 100]), 1.05)
    assert ok and share == 0.75
    ok, share = t.ratio_holds(np.array([100, 100]), np.array([100, 100]), 1.05)
    assert not ok and share == 0.0


def test_within_ten_percent_of_the_first_epoch():
    assert t.within(np.array([95, 109, 111, 80]), 100, 0.10) == 0.5


def test_a_held_level_change_is_a_jump_a_single_spike_is_not():
    y = np.array([10, 10, 10, 20, 20, 20, 20])
    assert t.jumps(y) == [3]
    spike = np.array([10, 10, 30, 10, 10])
    assert t.jumps(spike) == []


def test_slope_change_without_a_jump_is_found_and_a_straight_line_is_not():
    x = np.arange(1, 21, dtype=float)
    # slope 1 up to x = 10, then slope 5, continuous at the knee
    y = np.where(x <= 10, x, 10 + 5 * (x - 10))
    found = t.slope_change(x, y)
    assert found is not None
    assert abs(found["slope_before"] - 1) < 0.01 and abs(found["slope_after"] - 5) < 0.01
    assert found["at"] == 11
    assert t.slope_change(x, 3 * x + 2) is None
    # a jump of +40 at x = 11 with equal slopes is a jump, not a slope change
    assert t.slope_change(x, x + np.where(x > 10, 40, 0)) is None


def test_linear_fit_and_convexity():
    x = np.array([1.0, 2, 3, 4])
    slope, intercept, r = t.linear_fit(x, 2 * x + 1)
    assert abs(slope - 2) < 1e-9 and abs(intercept - 1) < 1e-9 and abs(r - 1) < 1e-9
    assert t.convexity(x, x ** 2) > 0
    assert t.convexity(x, np.sqrt(x)) < 0


def synthetic(epochs=10, mixed=False, exponential=False):
    """Four modes' epochs without noise; latency linear in the epoch, or with `exponential` growing 10 % an epoch
    (a straight line in log latency: a log-linear trend fits it exactly)."""
    rows = []
    for ep in range(1, epochs + 1):
        volume = 1e6 * (1 + ep)
        base = 100 * 1.1 ** ep if exponential else 100 + 10 * ep
        for mode, lat in (("main", 1.3 * base), ("clean", 1.28 * base), ("average-baseline", base),
                          ("spread-baseline", 50)):
            r = {"epoch": ep, "mode": mode, "data_bytes": volume, "run_lat_avg_us": lat, "run_lat_p50_us": lat,
                 "run_lat_p99_us": 3 * lat, "run_throughput": 1e6 / lat, "extend_throughput": 1000 - 10 * ep
                 if mode == "main" else np.nan, "extend_skipped": 0 if mode == "main" else np.nan,
                 "record_min": 1000, "record_p50": 1000 * 1.1 ** ep, "record_p99": 1000 * 1.5 ** ep,
                 "record_max": 1000 * 1.2 ** ep, "record_avg": 1000 + 200 * ep, "records_at_cap": 0}
            if mixed:
                r.update(run_read_lat_avg_us=lat, run_update_lat_avg_us=2 * lat, run_read_lat_p99_us=3 * lat,
                         run_update_lat_p99_us=6 * lat)
            rows.append(r)
    return pd.DataFrame(rows)


def test_the_book_has_seventeen_sections_and_says_which_need_other_data(tmp_path):
    config = {"spec": {"extendDistribution": "zipfian", "runWeights": {"ReadRecord": 100.0}}}
    sections = figure_book.write(synthetic(), config, tmp_path)
    assert [s["figure"] for s in sections] == list(range(1, 18))
    by = {s["figure"]: s for s in sections}
    # main 30 % and clean 28 % slower than average-baseline in every epoch: Fig 5 (zipfian) reproduced
    assert by[5]["verdict"] == "reproduced"
    # spread-baseline throughput constant; average-baseline latency exactly linear in volume
    assert by[4]["verdict"] == "reproduced"
    assert by[1]["verdict"] == "check: holds"  # the workload's own sizes: a check, not a reproduction
    # a read-only run has no mixed-run data and no trials: said, not drawn
    for n in (6, 7, 11, 12, 16):
        assert by[n]["verdict"] == "no data" and by[n]["chart"] is None and by[n]["needs"]
    for s in sections:
        if s["chart"]:
            assert (tmp_path / s["chart"]).is_file()
    assert "no data: needs a mixed" in (tmp_path / "figures.md").read_text()
    assert json.loads((tmp_path / "figures.json").read_text())[0]["figure"] == 1
    assert (tmp_path / "figures" / "latency_vs_record_size.png").is_file()


def test_a_mixed_run_with_trials_draws_figures_6_and_16(tmp_path):
    config = {"spec": {"extendDistribution": "uniform", "runWeights": {"ReadRecord": 50.0, "UpdateRecord": 50.0}}}
    trials = pd.DataFrame([{"epoch": ep, "mode": "main", "trials": 3, "run_lat_avg_us_mean": 100 * 1.1 ** ep,
                            "run_lat_avg_us_sd": 5 * 1.1 ** ep, "run_read_lat_avg_us_mean": 100 * 1.1 ** ep,
                            "run_read_lat_avg_us_sd": 5 * 1.1 ** ep, "run_update_lat_avg_us_mean": 200 * 1.1 ** ep,
                            "run_update_lat_avg_us_sd": 8} for ep in range(1, 9)])
    sections = figure_book.write(synthetic(8, mixed=True, exponential=True), config, tmp_path, trials)
    by = {s["figure"]: s for s in sections}
    assert by[6]["verdict"] == "reproduced"
    assert by[7]["verdict"] == "no data"  # zipfian extends needed
    assert by[16]["verdict"] == "reproduced" and "trials = 3" in by[16]["detail"]


def test_figures_that_share_a_chart_each_get_the_chart_they_would_draw_alone(tmp_path):
    # Figs 3, 5, 9, 13 and 15 all show latency and throughput per epoch, 4, 8 and 14 the baselines: drawn once and
    # copied; each copy must be the figure as drawn on its own.
    config = {"spec": {"extendDistribution": "zipfian", "runWeights": {"ReadRecord": 100.0}}}
    sections = {s["figure"]: s for s in figure_book.write(synthetic(), config, tmp_path / "book")}
    baselines = {"modes": figure_book.MODES[2:], "x": "data_bytes"}
    for n, kwargs in ((15, {}), (14, baselines)):
        alone = figure_book.Book(synthetic(), config, tmp_path / f"alone{n}")
        chart = alone.latency_throughput(n, **kwargs)
        assert sections[n]["chart"] == chart == f"figures/fig{n:02d}.png"
        assert (tmp_path / "book" / chart).read_bytes() == (tmp_path / f"alone{n}" / chart).read_bytes()
    assert (tmp_path / "book/figures/fig03.png").read_bytes() != (tmp_path / "book/figures/fig04.png").read_bytes()
