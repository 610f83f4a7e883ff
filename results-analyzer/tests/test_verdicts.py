"""The figure book's verdicts: effects and intervals recomputed here without the book's code (a closed-form paired
t interval, a plain-loop moving-block bootstrap), verdicts on synthetic epochs with a known effect, pure noise and
an equal pair, a verdict that flips when two modes swap labels, and the monitor's evidence beside a
"not reproduced"."""
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ivs_analyzer.explain import verdicts as v
from ivs_analyzer.report import figure_book

ZIPFIAN = {"spec": {"extendDistribution": "zipfian", "runWeights": {"ReadRecord": 100.0}}}


def epochs(n=30, main=lambda ep: 100.0, clean=None, avg=None, noise=0.05, seed=1):
    """Four modes' rows; each mode's latency = its function of the epoch times lognormal noise (sd `noise`)."""
    rng = np.random.default_rng(seed)
    clean = clean or main
    avg = avg or main
    rows = []
    for ep in range(1, n + 1):
        for mode, f in (("main", main), ("clean", clean), ("average-baseline", avg),
                        ("spread-baseline", lambda e: 50.0)):
            lat = f(ep) * math.exp(rng.normal(0, noise))
            rows.append({"epoch": ep, "mode": mode, "data_bytes": 1e6 * (1 + ep), "run_lat_avg_us": lat,
                         "run_lat_p50_us": lat, "run_lat_p99_us": 3 * lat, "run_throughput": 1e6 / lat,
                         "extend_throughput": 1000.0 if mode == "main" else np.nan,
                         "extend_skipped": 0 if mode == "main" else np.nan})
    return pd.DataFrame(rows)


def book(tmp_path, e, config=ZIPFIAN, monitor=None):
    return {s["figure"]: s for s in figure_book.write(e, config, tmp_path, monitor=monitor)}


def test_fig5_ratio_and_interval_match_a_hand_paired_t(tmp_path):
    e = epochs(main=lambda ep: 120.0, avg=lambda ep: 100.0, noise=0.1)
    section = book(tmp_path, e)[5]
    test = next(x for x in section["tests"] if x["test"] == "main slower")
    # by hand: the epochs after the first fifth (30 // 5 = 6 -> epochs 7..30), log(main / average-baseline)
    late = e[e["epoch"] >= 7]
    d = np.log(late[late["mode"] == "main"]["run_lat_avg_us"].to_numpy()
               / late[late["mode"] == "average-baseline"]["run_lat_avg_us"].to_numpy())
    n = len(d)
    assert n == 24
    half = stats.t.ppf(0.975, n - 1) * d.std(ddof=1) / math.sqrt(n)
    assert test["estimate"] == pytest.approx(d.mean(), rel=1e-9)
    assert (test["low"], test["high"]) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-9)
    # detectable at 80 % power: the noncentral t power of a two-sided one-sample test, solved here by bisection
    sd, crit = d.std(ddof=1), stats.t.ppf(0.975, n - 1)

    def power(delta):
        nc = delta / sd * math.sqrt(n)
        return stats.nct.sf(crit, n - 1, nc) + stats.nct.cdf(-crit, n - 1, nc)

    lo, hi = 0.0, 2.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if power(mid) < 0.8 else (lo, mid)
    assert test["detectable"] == pytest.approx(lo, rel=1e-4)
    # 20 % slower with 10 % noise: the interval lies above 1 -> reproduced
    assert test["low"] > 0 and test["verdict"] == "reproduced"


def plain_loop_block_bootstrap(x, y, replicates, seed):
    """The fitted change of log y over the run and its 95 % percentile interval, one replicate at a time."""
    n = len(y)
    length = math.ceil(n ** (1 / 3))
    blocks = math.ceil(n / length)
    logy = np.log(y)
    slope, intercept = np.polyfit(x, logy, 1)
    fitted = intercept + slope * x
    resid = logy - fitted
    resid = resid - resid.mean()
    starts = np.random.default_rng(seed).integers(0, n - length + 1, size=(replicates, blocks))
    changes = []
    for row in starts:
        idx = []
        for s in row:
            idx.extend(range(s, s + length))
        b = np.polyfit(x, fitted + resid[idx[:n]], 1)[0]
        changes.append(b * (x[-1] - x[0]))
    return slope * (x[-1] - x[0]), np.percentile(changes, [2.5, 97.5]), np.std(changes, ddof=1)


def test_fig3_trend_and_interval_match_a_plain_loop_block_bootstrap(tmp_path):
    e = epochs(n=27, main=lambda ep: 100.0 * 1.03 ** ep, noise=0.1, seed=5)
    section = book(tmp_path, e)[3]
    (test,) = section["tests"]
    m = e[e["mode"] == "main"]
    est, (lo, hi), se = plain_loop_block_bootstrap(m["epoch"].to_numpy(float), m["run_lat_avg_us"].to_numpy(),
                                               v.REPLICATES, v.SEED)
    assert test["estimate"] == pytest.approx(est, rel=1e-9)
    assert (test["low"], test["high"]) == pytest.approx((lo, hi), rel=1e-9)
    # the true change over 26 epochs is 26 * ln(1.03) = 0.769 (+115 %): inside the interval, reproduced
    assert lo < 26 * math.log(1.03) < hi
    assert section["verdict"] == "reproduced"
    # detectable at 80 % power, alpha 0.05: (1.960 + 0.842) bootstrap standard errors
    assert test["detectable"] == pytest.approx((stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) * se, rel=1e-9)


def test_swapping_two_modes_labels_flips_the_verdict(tmp_path):
    e = epochs(main=lambda ep: 120.0, avg=lambda ep: 100.0, noise=0.05)
    assert book(tmp_path / "a", e)[5]["tests"][0]["verdict"] == "reproduced"
    swapped = e.replace({"mode": {"main": "average-baseline", "average-baseline": "main"}})
    test = book(tmp_path / "b", swapped)[5]["tests"][0]
    # main now 1/1.2 of average-baseline: the interval lies wholly below the 5 % that counts
    assert test["high"] < math.log(1.05) and test["verdict"] == "not reproduced"


def test_known_growth_is_reproduced_and_pure_noise_is_not(tmp_path):
    grows = book(tmp_path / "g", epochs(main=lambda ep: 100.0 + 10 * ep, noise=0.05))
    assert grows[3]["verdict"] == "reproduced"
    noise = book(tmp_path / "n", epochs(main=lambda ep: 100.0, noise=0.2, seed=7))
    test = noise[3]["tests"][0]
    assert test["verdict"] in ("inconclusive", "not reproduced")
    # the run says how large a rise it could have seen: a bootstrap standard error times 2.80
    assert np.isfinite(test["detectable"]) and test["detectable"] > 0 and "detectable +" in test["text"]


def test_an_equal_pair_within_the_margin_is_reproduced_and_a_distant_one_is_not(tmp_path):
    # main and clean the same function with 1 % noise: the geometric mean ratio is ~1, its 90 % interval inside +-5 %
    same = book(tmp_path / "s", epochs(main=lambda ep: 100.0 + 5 * ep, noise=0.01))[9]
    test = next(x for x in same["tests"] if x["test"] == "main = clean")
    assert test["verdict"] == "reproduced" and test["tost_p"] < 0.05
    apart = book(tmp_path / "a", epochs(main=lambda ep: 110.0 + 5.5 * ep, clean=lambda ep: 100.0 + 5 * ep,
                                        noise=0.01))[9]
    test = next(x for x in apart["tests"] if x["test"] == "main = clean")
    assert test["low"] > math.log(1.05) and test["verdict"] == "not reproduced"
    assert apart["verdict"] == "not reproduced"


def test_a_not_reproduced_verdict_quotes_the_monitor(tmp_path):
    e = epochs(main=lambda ep: 100.0, avg=lambda ep: 120.0, noise=0.05)
    epochs_index = pd.Index(np.arange(1, 31, dtype=float))

    def monitor(mode):
        reads = 0.5 if mode == "average-baseline" else 0.02
        return pd.DataFrame({"db.Innodb_buffer_pool_reads/op": reads, "db.Rows_read/op": 1.0,
                             "os.cpu.idle_pct": 50.0}, index=epochs_index)

    test = book(tmp_path, e, monitor=monitor)[5]["tests"][0]
    assert test["verdict"] == "not reproduced"
    assert test["evidence"].startswith("monitor (median over epochs 7-30): db.Innodb_buffer_pool_reads/op main 0.02,"
                                       " average-baseline 0.5")
    assert "os.cpu.idle_pct" not in test["evidence"]
    assert "db.Innodb_buffer_pool_reads/op main 0.02" in (tmp_path / "figures.html").read_text()


def test_judge_by_hand():
    e = {"low": 0.1, "high": 0.3}
    assert v.judge(e, "greater", 0, 0.2) == "reproduced"
    assert v.judge({"low": -0.1, "high": 0.1}, "greater", 0, 0.2) == "not reproduced"  # rules out 0.2
    assert v.judge({"low": -0.1, "high": 0.3}, "greater", 0, 0.2) == "inconclusive"
    assert v.judge({"low": -0.3, "high": -0.1}, "less", 0, -0.2) == "reproduced"
    assert v.judge({"low": 0.01, "high": 0.02, "tost_p": 0.01}, "equal", 0, 0.05) == "reproduced"
    assert v.judge({"low": 0.06, "high": 0.09, "tost_p": 0.9}, "equal", 0, 0.05) == "not reproduced"
    assert v.judge({"low": 0.0, "high": 0.09, "tost_p": 0.2}, "equal", 0, 0.05) == "inconclusive"
    assert v.combine(["reproduced", "inconclusive"]) == "inconclusive"
    assert v.combine(["reproduced", "not reproduced", "inconclusive"]) == "not reproduced"


def test_moving_blocks_are_runs_of_consecutive_epochs():
    idx = v.moving_blocks(27, replicates=50, seed=3)
    assert idx.shape == (50, 27) and v.block_length(27) == 3
    for row in idx:
        for b in range(0, 27, 3):
            assert list(row[b:b + 3]) == list(range(row[b], row[b] + 3))
    assert (idx == v.moving_blocks(27, replicates=50, seed=3)).all()


def test_hinge_finds_the_knee_and_the_change_of_slope():
    x = np.arange(1, 31, dtype=float)
    y = np.where(x <= 12, 10 * x, 120 + 4 * (x - 12))  # slope 10, then 4: a change of -6 at epoch 12
    h = v.hinge(x, y)
    assert h["knee"] == 12 and h["slope_before"] == pytest.approx(10)
    assert h["estimate"] == pytest.approx(-6) and h["low"] == pytest.approx(-6) and h["high"] == pytest.approx(-6)
