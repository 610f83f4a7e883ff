"""Scenarios 10 (buffer-miss) and 11 (io-contention) of docs/diagnosis.md for diagnosis_accuracy.py.

Both run on a private MariaDB instance with a buffer pool (BUFFER_POOL) far smaller than the table: RECORDS rows
of FIELD_COUNT fields of FIELD_BYTES. InnoDB keeps about 8 KB of a row on its clustered index page and moves the
other fields off it, each to a 16 KB page of its own, so one read of a row touches ~31 (10) or ~13 (11) pages:
a read that misses the buffer pool costs tens of storage reads, enough to move the p99 and the throughput of a
1,000 ops/s load on a busy 2-core box. The load is reads only: extends rewrite the off-page fields, and their
new pages churn a small buffer pool by themselves (the hot set of 10 would not stay in it).

* 10: the working set outgrows the buffer pool during the run. The reads start on a hot set (the first
  HOT_SET of the keys: 10 rows, ~310 pages) and a step ramp (config/README.md, "Gradual shifts") widens them
  to every key at STEP_AT measured seconds: from then on nearly every page a read needs misses the pool (seen
  in a run: 13 misses per read on the hot set, 33 after; on the hot set InnoDB still reads part of the off-page
  fields again - most of the pool stays free, Innodb_buffer_pool_pages_free 700-900 of 1,014 - so the hot set
  halves the misses rather than ending them).
  MariaDB 10.11's default innodb_flush_method is O_DIRECT, so the misses reach the disk. No injector: the fault
  is the workload's own step, and the scenario's fault window is that step's moment (fault_window).
* 11: the same with innodb_flush_method=O_DIRECT stated (the page cache does not serve InnoDB's reads) and
  reads over every key from the start (nearly all miss the buffer pool and reach the disk all along); after
  FAULT_AFTER measured windows scripts/faults/disk-hog.sh writes to the disk with O_DIRECT for HOG seconds
  from the scenario's work folder (on the data directory's device).
"""
from __future__ import annotations

import csv
import os
from pathlib import Path

BUFFER_POOL = "16M"    # 1,014 pages of 16 KB
RECORDS = 1000
FIELD_BYTES = 800      # each field moved off the row's page takes a 16 KB page of its own
FIELD_COUNT = {"10": 40, "11": 20}   # pages per row read: ~31 (10), ~13 (11)
HOT_SET = 0.01         # 10 rows, ~310 pages
STEP_AT = 25           # measured seconds before scenario 10's reads widen (the ramp's second and last step)
HOG = 10               # seconds the disk hog of scenario 11 writes
# 11's reads bypass the page cache; IVS_ACC_S11_FLUSH_METHOD=fsync runs it with them in the page cache instead
# (the table is written through it at load and the box has room for it): the contrast docs/diagnosis.md gives
FLUSH_METHOD = os.environ.get("IVS_ACC_S11_FLUSH_METHOD", "O_DIRECT")
WEIGHTS = "100,0"      # reads only: extends rewrite the off-page fields, whose new pages churn the pool

# PRIVATE entries (diagnosis_accuracy.py): the server script's settings for each scenario's own instance
# innodb_old_blocks_time=0: a page read is kept (moved to the pool's young end) on its next access. With the
# default (1000 ms) a page must first outlive a second in the old end (37 % of the pool); a try with it kept the
# load short of its rate before the step (~15 misses per read on the hot set, ~700 of 1,000 ops/s).
SETTINGS = {
    "10": f"innodb_buffer_pool_size={BUFFER_POOL}\ninnodb_old_blocks_time=0",
    "11": f"innodb_buffer_pool_size={BUFFER_POOL}\ninnodb_old_blocks_time=0\ninnodb_flush_method={FLUSH_METHOD}",
}


def _fields(sid: str) -> str:
    return f"<fieldcount>{FIELD_COUNT[sid]}</fieldcount><fieldlength>{FIELD_BYTES}</fieldlength>"


# per scenario: (weights, records, more top-level config elements, the work's key distribution element(s))
LOAD = {
    "10": (WEIGHTS, RECORDS, _fields("10"), f"<distribution>hotspot(set={HOT_SET}, ops=1)</distribution>"
                                            f"<ramp><shape>step</shape><every>{STEP_AT}</every>"
                                            "<distribution>hotspot(set=1, ops=1)</distribution></ramp>"),
    "11": (WEIGHTS, RECORDS, _fields("11"), "<distribution>uniform</distribution>"),
}


def fault_window(run_dir: str, sid: str) -> list[int] | None:
    """Scenario 10's fault window [start, start] in epoch ms: the first measured window's start + STEP_AT s
    (samples.csv: measured windows are those with a throughput); None for other scenarios or without samples."""
    if sid != "10":
        return None
    samples = Path(run_dir) / "samples.csv"
    if not samples.exists():
        return None
    with samples.open() as f:
        starts = [int(r["time_ms"]) for r in csv.DictReader(f) if r["type"] == "ALL" and r["throughput"]]
    return [min(starts) + STEP_AT * 1000] * 2 if starts else None
