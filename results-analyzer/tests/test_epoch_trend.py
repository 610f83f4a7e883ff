"""A gradual rise across epochs is a trend with its slope, not a step (epochs._beyond_trend, series_trend).

Seen on a recorded 40-epoch experiment: average-baseline latency rising with noise, 48 ... 62 72 74 70 62 65 ...
77 µs, was reported as a step at epoch 8 (+17.8%) and explained by the host's used memory. Synthesized here
as 40 epochs on the line 48 -> 77 µs with 4% epoch-to-epoch noise and those six values at epochs 7-12."""
import json

import numpy as np
import pytest

import synth_cases
from ivs_analyzer.cli import main
from ivs_analyzer.explain.epochs import analyse_epochs
from ivs_analyzer.load.results import load_experiment

SLOPE = (77 - 48) / 39  # µs per epoch of the line the series was drawn around


def gradual(seed: int, step: float = 1.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    e = np.arange(40)
    lat = (48 + SLOPE * e) * rng.lognormal(0, 0.04, 40)
    lat[0], lat[39] = 48.0, 77.0
    lat[7:13] = [62, 72, 74, 70, 62, 65]
    lat[24:] *= step
    return np.round(lat, 1)


@pytest.mark.parametrize("seed", [1, 3, 7])
def test_a_gradual_rise_with_noise_is_a_trend_with_its_slope_not_a_step(tmp_path, seed):
    path = synth_cases.write_noisy_experiment(tmp_path / "x", fast=(), latency={"average-baseline": gradual(seed)})
    analysis = analyse_epochs(load_experiment(path))
    steps = [(c["mode"], c["series"], c["epoch"]) for c in analysis["steps"]]
    assert steps == [], steps
    trend = [t for t in analysis["trends"] if t["mode"] == "average-baseline" and t["series"] == "run_lat_avg_us"]
    assert len(trend) == 1, analysis["trends"]
    # the least-squares slope through these 40 values, the early noisy high epochs included
    assert abs(trend[0]["slope_per_epoch"] - SLOPE) < 0.25, trend
    assert trend[0]["first_epoch"] == 0 and trend[0]["last_epoch"] == 39
    # the other modes stay level (0.2% per epoch, under the 10% minimum over the run): no trend for them
    assert {t["mode"] for t in analysis["trends"]} == {"average-baseline"}

    out = tmp_path / "out"
    assert main(["report", str(path), "-o", str(out)]) == 0
    findings = json.loads((out / "findings.json").read_text())
    assert [f["kind"] for f in findings] == ["none", "trend"], [f["title"] for f in findings]
    assert "a gradual trend, not a step" in findings[1]["title"]
    assert any(e.startswith("average-baseline run_lat_avg_us +0.") and "µs per epoch" in e
               for e in findings[1]["evidence"]), findings[1]["evidence"]


@pytest.mark.parametrize("seed", [1, 3, 7])
def test_a_real_step_on_the_same_trend_is_still_found(tmp_path, seed):
    """The same series with a lasting x1.3 from epoch 24 on."""
    path = synth_cases.write_noisy_experiment(tmp_path / "x", fast=(),
                                              latency={"average-baseline": gradual(seed, step=1.3)})
    analysis = analyse_epochs(load_experiment(path))
    steps = [(c["series"], c["epoch"]) for c in analysis["steps"] if c["mode"] == "average-baseline"]
    assert ("run_lat_avg_us", 24) in steps and all(e == 24 for _, e in steps), steps
