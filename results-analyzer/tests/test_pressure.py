"""Write pressure from the server's own counters (explain/pressure.py) and the category it gives a step
(explain/findings.py), on hand-built monitor frames: 20 one-second intervals, the change at interval 10."""
import numpy as np
import pandas as pd

from ivs_analyzer.explain.findings import run_findings
from ivs_analyzer.explain.pressure import write_pressure

T0 = 1_000_000
BEFORE = np.array([i < 10 for i in range(20)])
AFTER = ~BEFORE


def _frame(**cols) -> pd.DataFrame:
    """Columns given as (value before, value after) or a full list of 20; a host CPU column always."""
    data = {"os.cpu.idle_pct": [50.0] * 20}
    for name, v in cols.items():
        data["db." + name.replace("__", ".")] = v if isinstance(v, list) else [v[0]] * 10 + [v[1]] * 10
    return pd.DataFrame(data, index=[T0 + 1000.0 * i for i in range(20)])


def test_innodb_free_page_waits_are_flush_pressure():
    p = write_pressure(_frame(Innodb_buffer_pool_wait_free=(0.0, 3.0), Innodb_log_waits=(0.0, 0.0)), BEFORE, AFTER)
    assert p["category"] == "flush-pressure"
    assert [s["name"] for s in p["signals"]] == ["db.Innodb_buffer_pool_wait_free"]
    assert "Innodb_buffer_pool_wait_free 0 → 3 per interval" in p["text"]


def test_checkpoint_age_near_its_limit_is_flush_pressure_and_a_high_but_steady_share_is_not():
    # 6 MB of 8 MB (75 %) after, 1 MB (12.5 %) before: the redo must be flushed before it can be reused
    p = write_pressure(_frame(Innodb_checkpoint_age=(1e6, 6e6), Innodb_checkpoint_max_age=(8e6, 8e6)), BEFORE, AFTER)
    assert p["category"] == "flush-pressure" and p["signals"][0]["kind"] == "fill"
    assert "Innodb_checkpoint_age 12 → 75 % of the checkpoint age limit" in p["text"], p["text"]
    # the same level on both sides: already there before the change, not what changed at it
    assert write_pressure(_frame(Innodb_checkpoint_age=(6e6, 6.5e6), Innodb_checkpoint_max_age=(8e6, 8e6)),
                          BEFORE, AFTER) is None
    # the age doubled but stays far from the limit (a big redo log): no pressure
    assert write_pressure(_frame(Innodb_checkpoint_age=(1e6, 2e6), Innodb_checkpoint_max_age=(80e6, 80e6)),
                          BEFORE, AFTER) is None


def test_myrocks_stall_counters_are_a_write_stall():
    p = write_pressure(_frame(Rocksdb_stall_micros=(0.0, 250_000.0), Rocksdb_stall_total_slowdowns=(0.0, 40.0),
                              Rocksdb_rows_inserted=(100.0, 900.0)), BEFORE, AFTER)
    assert p["category"] == "write-stall"
    assert sorted(s["name"] for s in p["signals"]) == ["db.Rocksdb_stall_micros", "db.Rocksdb_stall_total_slowdowns"]


def test_cassandra_flush_queue_is_flush_pressure_and_a_compaction_queue_makes_it_a_write_stall():
    pending = [0.0] * 10 + [0.0, 2.0, 3.0, 1.0, 2.0, 0.0, 1.0, 2.0, 1.0, 0.0]  # mean 1.2 after, 0 before
    p = write_pressure(_frame(thread_pools__MemtableFlushWriter__pending_tasks=pending), BEFORE, AFTER)
    assert p["category"] == "flush-pressure"
    assert "thread_pools.MemtableFlushWriter.pending_tasks 0 → 1.2 (mean)" in p["text"], p["text"]
    p = write_pressure(_frame(thread_pools__MemtableFlushWriter__pending_tasks=pending,
                              thread_pools__CompactionExecutor__pending_tasks=(0.0, 4.0)), BEFORE, AFTER)
    assert p["category"] == "write-stall"
    assert p["signals"][0]["name"] == "db.thread_pools.CompactionExecutor.pending_tasks"


def test_queues_and_waits_that_did_not_rise_or_stay_tiny_are_no_pressure():
    frame = _frame(thread_pools__CompactionExecutor__pending_tasks=(3.0, 4.0),   # already queued before: x1.33
                   thread_pools__MemtableFlushWriter__pending_tasks=(0.0, 0.2),  # never a whole task queued
                   Innodb_log_waits=(2.0, 3.0),                                   # waits, but not twice as many
                   Innodb_buffer_pool_reads=(0.0, 500.0),                         # not a write-pressure counter
                   thread_pools__MutationStage__pending_tasks=(0.0, 50.0))        # requests queued: any cause
    assert write_pressure(frame, BEFORE, AFTER) is None


def _change(**extra):
    return {"phase": 0, "series": "throughput", "time_ms": T0 + 10000, "before": 1000.0, "after": 300.0,
            "relative_change": -0.7, "duration_ms": 8000, "metrics": [], "follows": [], "cpu": None, **extra}


CPU_TAKEN = {"host_idle_before": 60.0, "host_idle_after": 5.0, "cores": 2, "server_cpu_before": 50.0,
             "server_cpu_after": 40.0, "client_cpu_before": 20.0, "client_cpu_after": 15.0,
             "host_cores_delta": 1.1, "other_cores_delta": 1.1, "taken_by": "another process"}


def test_write_pressure_names_the_category_before_the_cpu_another_process_took():
    pressure = write_pressure(_frame(Rocksdb_stall_micros=(0.0, 1e6)), BEFORE, AFTER)
    f = run_findings([_change(pressure=pressure, cpu=CPU_TAKEN)], [], T0, 1000)[0]
    assert f["category"] == "write-stall", f
    assert f["cause"] == "db.Rocksdb_stall_micros"
    assert "write stall" in f["title"] and "meanwhile host CPU taken by another process" in f["title"], f["title"]
    # a server that went away still comes first
    gone = {"unread_intervals": 3, "first_unread_ms": T0 + 10000, "errors": 44}
    f = run_findings([_change(pressure=pressure, server_gone=gone)], [], T0, 1000)[0]
    assert f["category"] == "server-restart"
    # without pressure the CPU rule stands as before
    f = run_findings([_change(pressure=None, cpu=CPU_TAKEN)], [], T0, 1000)[0]
    assert f["category"] == "cpu-contention"


def test_a_checkpoint_age_already_at_its_limit_is_flush_pressure_when_the_redo_written_rose():
    # a small redo log: the age sits at 94 % of its limit under the steady load, and the redo written per
    # interval went from 1.5 MB to 9 MB at the change (the limit then holds writers until pages are flushed)
    frame = _frame(Innodb_checkpoint_age=(2.5e6, 2.5e6), Innodb_checkpoint_max_age=(2.68e6, 2.68e6),
                   Innodb_os_log_written=(1.5e6, 9e6))
    p = write_pressure(frame, BEFORE, AFTER)
    assert p["category"] == "flush-pressure"
    assert p["signals"][0]["fed"] == {"name": "db.Innodb_os_log_written", "before": 1.5e6, "after": 9e6}
    assert "93 → 93 % of the checkpoint age limit while db.Innodb_os_log_written went 1,500,000 → 9,000,000" \
        in p["text"], p["text"]
    # at the limit with the same redo rate: nothing changed at the step
    frame = _frame(Innodb_checkpoint_age=(2.5e6, 2.5e6), Innodb_checkpoint_max_age=(2.68e6, 2.68e6),
                   Innodb_os_log_written=(1.5e6, 1.8e6))
    assert write_pressure(frame, BEFORE, AFTER) is None
