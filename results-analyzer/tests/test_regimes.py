"""Regimes from the run's counters (explain/regimes.py) on synthetic epochs with known boundaries: the boundary found
where the counter crossed its level and held, none where no counter crossed (a latency step alone makes none; a
single epoch across the level makes none), each regime judged by the one decision rule, the figure book's paired
tests carrying their regimes."""
import math

import numpy as np
import pandas as pd
import pytest

from ivs_analyzer.explain import calibration, regimes
from ivs_analyzer.explain import verdicts as v
from ivs_analyzer.report import figure_book

POOL = "db.Innodb_buffer_pool_reads/op"
ZIPFIAN = {"spec": {"extendDistribution": "zipfian", "runWeights": {"ReadRecord": 100.0}}}


def pool_misses(n: int, outgrown_at: int | None, seed: int) -> pd.Series:
    """Buffer pool misses per read per epoch: about 0.01 while the table fits, about 2 (noisy) from `outgrown_at`."""
    rng = np.random.default_rng(seed)
    ep = np.arange(1, n + 1, dtype=float)
    level = np.where(ep >= outgrown_at, 2.0, 0.01) if outgrown_at else np.full(n, 0.01)
    return pd.Series(level * np.exp(rng.normal(0, 0.2, n)), index=ep)


def experiment(main_effect_after: int | None, outgrown_at: dict, seed: int = 3, sd: float = 0.03):
    """(epochs rows, monitor_of): calibration.experiment's four modes (AR(1) noise, rho 0.3), main 20 % slower
    than the others from `main_effect_after` on; each mode's pool misses crossing the level at outgrown_at[mode]."""
    e = calibration.experiment(seed, 0.3, sd=sd)
    if main_effect_after:
        hit = (e["mode"] == "main") & (e["epoch"] >= main_effect_after)
        e.loc[hit, "run_lat_avg_us"] *= 1.2
    e["records_at_cap"] = 0
    frames = {m: pd.DataFrame({POOL: pool_misses(100, outgrown_at.get(m), seed + i)})
              for i, m in enumerate(calibration.MODES)}
    return e, frames.get


def test_a_counter_that_crosses_its_level_and_holds_is_a_boundary_there():
    s = pool_misses(100, 37, seed=1)
    assert regimes.changes(s, 0.25) == [(37.0, True)]
    back = s.copy()
    back[back.index >= 70] = 0.01  # the table fits again (a smaller table after a purge): a second change
    assert regimes.changes(back, 0.25) == [(37.0, True), (70.0, False)]


def test_no_change_no_boundary():
    """The detector can fail: a counter that never crosses its level, a single epoch across it, a counter that is
    high throughout, and a latency step with flat counters all give no regime boundary."""
    assert regimes.changes(pool_misses(100, None, seed=2), 0.25) == []
    spike = pool_misses(100, None, seed=2)
    spike[50.0] = 3.0
    spike[51.0] = 3.0  # two epochs across the level: fewer than HOLD
    assert regimes.changes(spike, 0.25) == []
    assert regimes.changes(pool_misses(100, 1, seed=2), 0.25) == []  # high from the first epoch: one state
    e, monitor_of = experiment(main_effect_after=60, outgrown_at={})
    assert regimes.boundaries(monitor_of, e, calibration.MODES) == []
    main = calibration._col(e, "main").rename("main")
    base = calibration._col(e, "average-baseline").rename("average-baseline")
    rows = regimes.per_regime(main, base, [], "greater", 0.0, math.log1p(0.05), "ratio")
    assert len(rows) == 1 and rows[0]["epochs"] == "1-100"
    pooled = v.paired(main, base)
    assert rows[0]["estimate"] == pytest.approx(pooled["estimate"]) and rows[0]["low"] == pytest.approx(pooled["low"])


def test_each_regime_is_judged_on_its_own_epochs():
    """main 20 % slower than average-baseline only from epoch 60, where main's table outgrows the pool (the
    baseline's did at 20): two regimes inside epochs 21-100, the first not reproduced (no difference), the second
    reproduced, with n, n_eff and the ratio's trend within each."""
    e, monitor_of = experiment(main_effect_after=60, outgrown_at={"main": 60, "average-baseline": 20})
    found = regimes.boundaries(monitor_of, e, ["main", "average-baseline"])
    assert [(b["epoch"], b["mode"]) for b in found] == [(20.0, "average-baseline"), (60.0, "main")]
    late = list(range(21, 101))
    main = calibration._col(e, "main").reindex(late).rename("main")
    base = calibration._col(e, "average-baseline").reindex(late).rename("average-baseline")
    rows = regimes.per_regime(main, base, found, "greater", 0.0, math.log1p(0.05), "ratio")
    assert [r["epochs"] for r in rows] == ["21-59", "60-100"]
    assert [r["verdict"] for r in rows] == [v.NOT_REPRODUCED, v.REPRODUCED]
    assert [r["n"] for r in rows] == [39, 41] and all(0 < r["n_eff"] for r in rows)
    assert math.exp(rows[1]["estimate"]) == pytest.approx(1.2, abs=0.03)
    assert "reads miss the buffer pool" in rows[1]["opened_by"] and "from epoch 60" in rows[1]["opened_by"]
    assert all(r["trend"] is not None and r["trend"]["low"] < r["trend"]["estimate"] < r["trend"]["high"]
               for r in rows)


def test_two_modes_changing_a_few_epochs_apart_make_one_boundary_not_a_one_epoch_regime():
    e, monitor_of = experiment(None, outgrown_at={"main": 40, "clean": 41})
    found = regimes.boundaries(monitor_of, e, ["main", "clean"])
    assert [b["epoch"] for b in found] == [40.0, 41.0]
    segs = regimes.segments(list(range(21, 101)), found)
    assert [(s["epochs"][0], s["epochs"][-1], s["at"]) for s in segs] == [(21, 39, 21), (40, 100, 41)]


def test_memtable_share_and_records_at_the_cap_are_counters_too():
    ep = np.arange(1, 41, dtype=float)
    hit = np.where(ep < 25, 0.99, 0.2)  # reads answered from the memtable until epoch 24, then from L0
    monitor = pd.DataFrame({"db.Rocksdb_memtable_hit/op": hit, "db.Rocksdb_memtable_miss/op": 1 - hit}, index=ep)
    rows = pd.DataFrame({"epoch": ep, "mode": "clean", "records_at_cap": np.where(ep >= 33, 2, 0)})
    found = regimes.boundaries(lambda m: monitor, rows, ["clean"])
    assert [(b["epoch"], b["state"]) for b in found] == [
        (25.0, "reads go to the SST files, L0 and below"), (33.0, "records at the cap, their extends skipped")]


def test_the_figure_books_paired_tests_carry_their_regimes(tmp_path):
    e, monitor_of = experiment(main_effect_after=60, outgrown_at={"main": 60, "average-baseline": 20})
    book = figure_book.Book(e, ZIPFIAN, tmp_path, platform="MariaDB/InnoDB", monitor=monitor_of)
    t = book._paired("main slower", "main", "average-baseline", "greater", math.log1p(0.05), book.late)
    assert [r["epochs"] for r in t["regimes"]] == ["21-59", "60-100"]
    assert t["verdict"] == v.combine([t])  # the regimes are not counted: the pooled test alone decides
    assert "per regime, not counted" in figure_book.regime_detail([t])
    direction = book._paired("d", "main", "average-baseline", "greater", 0.0, book.late, role="direction")
    assert "regimes" not in direction
