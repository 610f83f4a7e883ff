"""The vectorised PELT (pelt.py) must return what ruptures' Pelt returns for the l2 cost."""
import numpy as np
import pytest
import ruptures as rpt

from ivs_analyzer.detect.pelt import pelt_l2


@pytest.mark.parametrize("seed", range(6))
def test_same_breakpoints_as_ruptures(seed):
    rng = np.random.default_rng(seed)
    n = 240
    levels = np.repeat(rng.uniform(500, 1500, 4), n // 4)
    signal = levels + rng.normal(0, 20 + 30 * seed, n)
    signal[rng.integers(0, n, 3)] *= 3  # spikes
    for min_size in (2, 5):
        pen = 3 * 30.0 ** 2 * np.log(n)
        expected = rpt.Pelt(model="l2", min_size=min_size, jump=1).fit(signal.reshape(-1, 1)).predict(pen=pen)
        assert pelt_l2(signal, pen, min_size) == expected


def test_flat_signal_has_one_segment():
    assert pelt_l2(np.full(50, 3.0), 1.0, 5) == [50]


@pytest.mark.parametrize("seed", range(6))
def test_linear_cost_same_breakpoints_as_ruptures(seed):
    """One line per segment (the per-epoch series): ramps with a jump and a change of slope, and spikes."""
    from ivs_analyzer.detect.pelt import pelt_linear
    rng = np.random.default_rng(seed)
    n = 60
    x = np.arange(n, dtype=float)
    signal = 100 + 2 * x + np.where(x >= 25, 40 + 3 * (x - 25), 0) + rng.normal(0, 2 + 2 * seed, n)
    signal[rng.integers(0, n, 2)] += 30
    pen = 3 * 4.0 ** 2 * np.log(n)
    fit_input = np.column_stack([signal, np.ones(n), x])
    expected = rpt.Pelt(model="linear", min_size=3, jump=1).fit(fit_input).predict(pen=pen)
    assert pelt_linear(signal, pen, 3) == expected
