"""Buffer misses from the server's own counters (explain/misses.py) and the category they give a step
(explain/findings.py), on hand-built monitor frames: 20 one-second intervals, the change at interval 10, the
benchmark's operations per interval given beside them."""
import numpy as np
import pandas as pd

from ivs_analyzer.explain.findings import run_findings
from ivs_analyzer.explain.misses import buffer_misses
from ivs_analyzer.explain.pressure import write_pressure

T0 = 1_000_000
BEFORE = np.array([i < 10 for i in range(20)])
AFTER = ~BEFORE
OPS = np.full(20, 1000.0)


def _frame(**cols) -> pd.DataFrame:
    """Columns given as (amount per interval before, after) or a full list of 20."""
    data = {"os.cpu.idle_pct": [50.0] * 20}
    for name, v in cols.items():
        data["db." + name.replace("__", ".")] = v if isinstance(v, list) else [v[0]] * 10 + [v[1]] * 10
    return pd.DataFrame(data, index=[T0 + 1000.0 * i for i in range(20)])


def test_innodb_buffer_pool_misses_per_operation_up_at_the_step_are_a_buffer_miss():
    # 2 → 600 pages read from storage per 1,000 operations: 0.002 → 0.6 per operation
    frame = _frame(Innodb_buffer_pool_reads=(2.0, 600.0), Innodb_pages_read=(2.0, 610.0),
                   Innodb_buffer_pool_read_requests=(4000.0, 4100.0))
    m = buffer_misses(frame, BEFORE, AFTER, OPS)
    assert m["category"] == "buffer-miss"
    # the buffer pool's own misses first, then the pages they read; logical requests are not misses
    assert [s["name"] for s in m["signals"]] == ["db.Innodb_buffer_pool_reads", "db.Innodb_pages_read"]
    assert "db.Innodb_buffer_pool_reads 0.002 → 0.60 per operation; db.Innodb_pages_read 0.002 → 0.61" \
        in m["text"], m["text"]
    # counters that count the same reads are named together
    m = buffer_misses(_frame(Innodb_buffer_pool_reads=(2.0, 600.0), Innodb_data_reads=(2.0, 600.0)), BEFORE, AFTER, OPS)
    assert "db.Innodb_buffer_pool_reads 0.002 → 0.60 per operation (as db.Innodb_data_reads))" in m["text"], m["text"]


def test_myrocks_block_cache_and_postgres_blocks_read_are_the_same_family():
    m = buffer_misses(_frame(Rocksdb_block_cache_data_miss=(0.0, 300.0)), BEFORE, AFTER, OPS)
    assert m and m["signals"][0]["name"] == "db.Rocksdb_block_cache_data_miss"
    m = buffer_misses(_frame(pg_stat_database__blks_read=(5.0, 900.0), pg_stat_database__blks_hit=(9e3, 9e3)),
                      BEFORE, AFTER, OPS)
    assert m and [s["name"] for s in m["signals"]] == ["db.pg_stat_database.blks_read"]


def test_misses_that_only_follow_throughput_or_stay_trivial_are_none():
    # twice the misses with twice the operations: the same per operation
    ops = np.array([1000.0] * 10 + [2000.0] * 10)
    assert buffer_misses(_frame(Innodb_buffer_pool_reads=(300.0, 600.0)), BEFORE, AFTER, ops) is None
    # x5, but 0.001 → 0.005 per operation: less than one storage read per 100 operations more
    assert buffer_misses(_frame(Innodb_buffer_pool_reads=(1.0, 5.0)), BEFORE, AFTER, OPS) is None
    # up by 0.1 per operation but from 0.3: x1.33, not twice
    assert buffer_misses(_frame(Innodb_buffer_pool_reads=(300.0, 400.0)), BEFORE, AFTER, OPS) is None


def test_a_stall_that_cuts_the_operations_does_not_make_the_same_reads_a_buffer_miss():
    # a held lock: 1,000 → 5 operations per interval, one storage read per interval throughout: 0.001 → 0.2 per
    # operation, but no more reads reach storage (the rise, 0, is under 1 per 100 of the busier side's 1,000)
    ops = np.array([1000.0] * 10 + [5.0] * 10)
    assert buffer_misses(_frame(Innodb_buffer_pool_reads=(1.0, 1.0)), BEFORE, AFTER, ops) is None
    # the misses of a cache that stopped fitting while throughput fell: 10 → 400 per interval, 1,000 → 500 operations
    ops = np.array([1000.0] * 10 + [500.0] * 10)
    assert buffer_misses(_frame(Innodb_buffer_pool_reads=(10.0, 400.0)), BEFORE, AFTER, ops)["category"] == "buffer-miss"


def test_a_gradual_rise_of_the_misses_is_no_step():
    # a working set growing past the cache: misses climb 0 → 570 per 1,000 operations over the 20 intervals;
    # the sides' means differ (0.135 → 0.435 per operation, x3.2) but the edge at the change (the medians of
    # the 3 intervals either side: 240 → 330) carries 0.09 of their 0.3 per operation, less than half
    ramp = [30.0 * i for i in range(20)]
    assert buffer_misses(_frame(Innodb_buffer_pool_reads=ramp), BEFORE, AFTER, OPS) is None
    # the same rise arriving at the change is one
    step = [30.0 * i / 10 for i in range(10)] + [570.0] * 10
    assert buffer_misses(_frame(Innodb_buffer_pool_reads=step), BEFORE, AFTER, OPS)["category"] == "buffer-miss"


def _change(**extra):
    return {"phase": 0, "series": "p99", "time_ms": T0 + 10000, "before": 900.0, "after": 2500.0,
            "relative_change": 1.78, "duration_ms": None, "metrics": [], "follows": [], "cpu": None, **extra}


def test_a_step_with_buffer_misses_gets_its_category_and_write_pressure_ranks_before_it():
    misses = buffer_misses(_frame(Innodb_buffer_pool_reads=(2.0, 600.0)), BEFORE, AFTER, OPS)
    f = run_findings([_change(misses=misses)], [], T0, 1000)[0]
    assert f["category"] == "buffer-miss" and f["cause"] == "db.Innodb_buffer_pool_reads"
    assert "buffer misses: reads the cache served before went to storage" in f["title"], f["title"]
    pressure = write_pressure(_frame(Innodb_buffer_pool_wait_free=(0.0, 3.0)), BEFORE, AFTER)
    f = run_findings([_change(misses=misses, pressure=pressure)], [], T0, 1000)[0]
    assert f["category"] == "flush-pressure" and f["misses"] is misses
    # a server that went away still comes first
    gone = {"unread_intervals": 3, "first_unread_ms": T0 + 10000, "errors": 44}
    assert run_findings([_change(misses=misses, server_gone=gone)], [], T0, 1000)[0]["category"] == "server-restart"


def test_counted_causes_explain_a_change_for_the_worse_only():
    """Write pressure and buffer misses hold when their counters went up at the change: a p99 fall (the N3 run's
    false step given "flush pressure") or a throughput rise at that moment is not given their category."""
    from ivs_analyzer.explain.findings import run_findings
    t0 = 1_000_000.0
    ev = {"category": "buffer-miss", "text": "buffer misses: reads the cache served before went to storage",
          "signals": [{"name": "db.Innodb_buffer_pool_reads"}]}
    base = {"phase": 0, "time_ms": t0 + 10000, "duration_ms": None, "metrics": [], "follows": [], "cpu": None}
    worse = dict(base, series="p99", before=1000.0, after=4000.0, relative_change=3.0, misses=ev)
    better = dict(base, series="p99", before=4000.0, after=1000.0, relative_change=-0.75, misses=ev)
    rise = dict(base, series="throughput", before=700.0, after=1000.0, relative_change=0.43, pressure=dict(
        ev, category="flush-pressure"))
    assert run_findings([worse], [], t0, 1000)[0]["category"] == "buffer-miss"
    f = run_findings([better], [], t0, 1000)[0]
    assert f["category"] is None and f["cause"] != "db.Innodb_buffer_pool_reads"
    assert any(e.startswith("meanwhile (not a cause") for e in f["evidence"]), f["evidence"]
    assert run_findings([rise], [], t0, 1000)[0]["category"] is None
