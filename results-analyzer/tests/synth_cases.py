"""Synthetic result folders that mimic cases seen on real machines (docs/results-format.md layout).

* `write_lock_run`: MariaDB InnoDB, 4 terminals, 1,500 ops/s open loop, 70:30 read/extend, monitor at 1 s;
  another transaction holds row locks on every row for 8 s: throughput falls to ~0, arrivals are missed,
  the write volume, the server's CPU and the history list fall with it, the lock counters rise.
* `write_cpu_hog_run`: the same load; two CPU hogs run on the 2-core host for 15 s: host idle 80 → ~0 %,
  p99 rises, throughput holds, neither the server nor the client uses more CPU.
* `write_noisy_experiment`: 40 epochs of 4 modes with no real change, epoch-to-epoch noise, cached memory
  growing all the time, and three epochs that ran ~2x faster in all modes (the machine switched speed).
* `write_long_run` / `write_big_experiment`: realistic sizes for the report timing.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np

from ivs_analyzer.load.results import EPOCH_COLUMNS, MODES, SAMPLE_COLUMNS

START_MS = 1_763_842_000_000
WINDOW_MS = 1000
CORES = 2


def _stats(lat: float) -> dict:
    return {"avg": lat * 1.1, "stddev": lat * 0.3, "p50": lat, "p90": lat * 1.6, "p95": lat * 1.8,
            "p99": lat * 2.5, "p999": lat * 4, "max": lat * 6}


def write_series_run(path: Path, *, tput: np.ndarray, p99: np.ndarray, monitor: dict[str, np.ndarray],
                     types: dict[str, float], phases: list[tuple[str, int]] | None = None, warmup: int = 5,
                     missed: np.ndarray | None = None, seed: int = 1, cores: int | None = CORES) -> Path:
    """A run whose measured windows carry the given ALL-type throughput and p99 per window (split over
    `types` by share), with monitor columns given per window. `phases` = (name, windows) in order; each phase
    starts with `warmup` windows that hold no measured operation (and no monitor row is left out)."""
    rng = np.random.default_rng(seed)
    path.mkdir(parents=True, exist_ok=True)
    phases = phases or [("run", len(tput))]
    rows, mon_rows, summary_phases = [], [], []
    t = START_MS
    w = 0
    names = list(monitor)
    for index, (name, count) in enumerate(phases):
        start = t
        for _ in range(warmup):
            rows.append([t, WINDOW_MS, index, "ALL", 0, 0, 0, 0, 0, 0, 0] + [""] * 7)
            t += WINDOW_MS
        measured = t
        ops = 0
        for _ in range(count):
            n = max(int(round(tput[w])), 0)
            lat = p99[w] / 2.5
            miss = int(missed[w]) if missed is not None else 0
            for ty, share in types.items():
                k = int(round(n * share))
                cells = ([round(lat * 1.1, 1), int(lat), int(lat * 1.8), int(p99[w] * rng.lognormal(0, 0.03)),
                          int(p99[w] * 2), round(lat, 1), int(p99[w])] if k else [""] * 7)
                rows.append([t, WINDOW_MS, index, ty, k, 0, 0, 0, 0, k, k] + cells)
            lat_cells = ([round(lat * 1.1, 1), int(lat), int(lat * 1.8), int(p99[w]), int(p99[w] * 2),
                          round(lat, 1), int(p99[w])] if n else [""] * 7)
            rows.append([t, WINDOW_MS, index, "ALL", n, 0, 0, 0, miss, n, n] + lat_cells)
            mon_rows.append([t, WINDOW_MS, index, "local"] + [_cell(monitor[m][w]) for m in names])
            ops += n
            t += WINDOW_MS
            w += 1
        secs = count * WINDOW_MS / 1000
        summary_phases.append({
            "index": index, "name": name, "startMs": start, "measuredStartMs": measured, "endMs": t,
            "measuredSeconds": secs, "rate": {"kind": "open", "target": 1500, "arrival": "poisson"},
            "activeTerminals": 4, "missed": int(missed.sum()) if missed is not None else 0, "operations": ops,
            "throughput": ops / secs, "goodput": ops / secs,
            "counts": {"ok": ops, "skipped": 0, "aborted": 0, "error": 0},
            "responseTimeUs": _stats(float(np.median(p99)) / 2.5), "serviceTimeUs": _stats(100.0),
            "transactions": {ty: {"operations": int(ops * s), "throughput": ops * s / secs,
                                  "goodput": ops * s / secs,
                                  "counts": {"ok": int(ops * s), "skipped": 0, "aborted": 0, "error": 0},
                                  "responseTimeUs": _stats(100.0), "serviceTimeUs": _stats(90.0)}
                             for ty, s in types.items()},
        })
    with (path / "samples.csv").open("w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(SAMPLE_COLUMNS)
        wr.writerows(rows)
    if names:
        with (path / "monitor.csv").open("w", newline="") as f:
            wr = csv.writer(f)
            wr.writerow(["time_ms", "interval_ms", "phase", "source"] + names)
            wr.writerows(mon_rows)
    summary = {"tool": {"name": "ivsbench", "version": "0.1.0"}, "benchmark": "ycsbivs", "complete": True,
               "interrupted": False,
               "database": {"type": "MARIADB", "product": "MariaDB", "version": "10.11.6", "engine": "InnoDB"},
               "randomSeed": 42, "terminals": 4, "windowSeconds": 1, "startMs": START_MS, "endMs": t,
               "phases": summary_phases}
    (path / "summary.json").write_text(json.dumps(summary))
    if cores:
        (path / "environment.json").write_text(json.dumps({"os": {"processors": cores}}))
    return path


def _cell(v: float) -> str:
    return "" if v is None or np.isnan(v) else f"{v:.6g}"


def _noisy(rng, level, rel, n):
    return np.maximum(np.asarray(level, dtype=float) * (1 + rel * rng.standard_normal(n)), 0.0)


def server_monitor(rng, tput: np.ndarray, write_share: float = 0.3, extra: int = 0,
                   load_ref: float = 1500.0) -> dict[str, np.ndarray]:
    """Monitor columns of a MariaDB host driven by `tput` ops/s: volumes and the server's CPU per operation,
    memory on its own trends, gauges with noise. `extra` adds that many unrelated noisy db.* columns;
    `load_ref` ops/s keep the server 30% busy."""
    n = len(tput)
    cpu_tput = tput * 1500.0 / load_ref
    writes = tput * write_share
    reads = tput - writes
    idx = np.arange(n, dtype=float)
    busy = 8 + 0.02 * cpu_tput                    # % of the host: the server's work plus a little background
    m = {
        "os.cpu.usr_pct": _noisy(rng, busy * 0.7, 0.05, n), "os.cpu.sys_pct": _noisy(rng, busy * 0.3, 0.05, n),
        "os.cpu.iowait_pct": _noisy(rng, 1 + 0.001 * writes, 0.2, n), "os.cpu.steal_pct": np.zeros(n),
        "os.mem.used_bytes": 3.1e9 + 2e4 * idx + 1e6 * rng.standard_normal(n),
        "os.mem.free_bytes": 1.2e9 - 2e5 * idx + 1e6 * rng.standard_normal(n),
        "os.mem.cached_bytes": 2.0e9 + 2e5 * idx + 2e5 * rng.standard_normal(n),   # grows all the time
        "os.mem.available_bytes": 3.0e9 - 1e4 * idx + 1e6 * rng.standard_normal(n),
        "os.disk.read_bytes_ps": _noisy(rng, 200 + 0 * tput, 0.5, n),
        "os.disk.write_bytes_ps": _noisy(rng, 1200 * writes, 0.08, n),
        "os.disk.write_ops_ps": _noisy(rng, 0.6 * writes, 0.08, n),
        "os.disk.io_ms_ps": _noisy(rng, 0.05 * writes, 0.1, n),
        "os.net.lo.rx_bytes_ps": _noisy(rng, 900 * tput, 0.03, n),
        "os.net.lo.tx_bytes_ps": _noisy(rng, 900 * tput, 0.03, n),
        "proc.cpu_pct": _noisy(rng, 0.02 * cpu_tput * CORES * 0.7, 0.05, n),
        "proc.rss_bytes": 1.5e9 + 1e5 * idx, "proc.threads": 40 + np.zeros(n),
        "proc.read_bytes_ps": _noisy(rng, 100 + 0 * tput, 0.5, n),
        "proc.write_bytes_ps": _noisy(rng, 1100 * writes, 0.08, n),
        "db.Com_select": _noisy(rng, reads, 0.03, n), "db.Com_update": _noisy(rng, writes, 0.03, n),
        "db.Questions": _noisy(rng, tput + 1, 0.03, n), "db.Bytes_sent": _noisy(rng, 1100 * tput, 0.03, n),
        "db.Bytes_received": _noisy(rng, 300 * tput, 0.03, n),
        "db.Innodb_data_writes": _noisy(rng, 1.5 * writes, 0.06, n),
        "db.Innodb_data_written": _noisy(rng, 24000 * writes, 0.06, n),
        "db.Innodb_pages_written": _noisy(rng, 1.2 * writes, 0.06, n),
        "db.Innodb_buffer_pool_write_requests": _noisy(rng, 6 * writes, 0.05, n),
        "db.Innodb_buffer_pool_read_requests": _noisy(rng, 12 * tput, 0.05, n),
        "db.Innodb_buffer_pool_reads": _noisy(rng, 1 + 0 * tput, 0.8, n),
        "db.Innodb_os_log_written": _noisy(rng, 900 * writes, 0.06, n),
        "db.Innodb_rows_read": _noisy(rng, reads + writes, 0.03, n),
        "db.Innodb_rows_updated": _noisy(rng, writes, 0.03, n),
        # purge lags the writes by about a second: a backlog proportional to the write rate
        "db.Innodb_history_list_length": _noisy(rng, 0.8 * np.convolve(writes, np.ones(3) / 3, "same"), 0.1, n),
        "db.Innodb_buffer_pool_pages_dirty": _noisy(rng, 2000 + 0 * tput, 0.05, n),
        "db.Innodb_buffer_pool_pages_free": 50000 - 3 * idx + rng.normal(0, 5, n),
        "db.Threads_connected": 5 + np.zeros(n),
        "db.Threads_running": np.maximum(1, np.round(1 + 0.0006 * cpu_tput * rng.random(n))),
        "db.Innodb_row_lock_current_waits": np.zeros(n), "db.Innodb_row_lock_waits": np.zeros(n),
        "db.Innodb_row_lock_time": np.zeros(n),
        "client.cpu_pct": _noisy(rng, 0.012 * cpu_tput, 0.05, n),
    }
    m["os.cpu.idle_pct"] = np.clip(100 - m["os.cpu.usr_pct"] - m["os.cpu.sys_pct"] - m["os.cpu.iowait_pct"], 0, 100)
    for i in range(extra):
        m[f"db.Status_{i:03d}"] = _noisy(rng, 100 + 10 * i + 0 * tput, 0.1, n)
    return m


TYPES = {"ReadRecord": 0.7, "ExtendRecord": 0.3}


def write_lock_run(path: Path, *, windows: int = 300, lock_at: int = 150, lock_windows: int = 8,
                   seed: int = 11) -> Path:
    rng = np.random.default_rng(seed)
    tput = 1500 * (1 + 0.02 * rng.standard_normal(windows))
    lock = slice(lock_at, lock_at + lock_windows)
    tput[lock] = rng.uniform(1, 5, lock_windows)            # every terminal is stuck behind the locks
    missed = np.zeros(windows)
    missed[lock] = 1500 - tput[lock]
    p99 = 900 * rng.lognormal(0, 0.05, windows)
    p99[lock] = 8_000_000 * rng.uniform(0.2, 1.0, lock_windows)  # the few that finish waited seconds
    m = server_monitor(rng, tput)
    m["db.Innodb_row_lock_current_waits"][lock] = 4
    m["db.Innodb_row_lock_waits"][lock_at] = 4
    m["db.Innodb_row_lock_time"][lock_at + lock_windows] = 4 * lock_windows * 1000
    m["db.Threads_running"][lock] = 6                        # 4 waiting + the holder + the monitor
    m["db.Threads_connected"][lock_at - 2:] = 6              # the holder's connection
    return write_series_run(path, tput=tput, p99=p99, monitor=m, types=TYPES, missed=missed, seed=seed)


def write_cpu_hog_run(path: Path, *, windows: int = 300, hog_at: int = 120, hog_windows: int = 15,
                      seed: int = 12, client_cpu: bool = True, steal: bool = False) -> Path:
    """Another process takes both cores for `hog_windows` windows: p99 rises about 4-fold, the host's user CPU to
    97 %, the server gets slightly less. `steal`: the hypervisor takes them instead (a virtual machine's other
    tenants): the steal rises to about 70 % of the host and the user CPU stays where it was, as the no-fault runs
    of docs/diagnosis.md saw it (steal 0-2 -> 22-26 %, no process outside the run busy)."""
    rng = np.random.default_rng(seed)
    tput = 1500 * (1 + 0.02 * rng.standard_normal(windows))
    hog = slice(hog_at, hog_at + hog_windows)
    p99 = 900 * rng.lognormal(0, 0.05, windows)
    p99[hog] *= 4.0 * rng.lognormal(0, 0.1, hog_windows)     # operations wait for a core
    m = server_monitor(rng, tput)
    if steal:
        m["os.cpu.steal_pct"] = np.abs(rng.normal(0.5, 0.3, windows))
        m["os.cpu.steal_pct"][hog] = 70 + rng.normal(0, 2, hog_windows)
    else:
        m["os.cpu.usr_pct"][hog] = 97 + rng.normal(0, 0.5, hog_windows)
        m["os.cpu.sys_pct"][hog] = 2 + rng.normal(0, 0.2, hog_windows)
    m["os.cpu.idle_pct"] = np.clip(100 - m["os.cpu.usr_pct"] - m["os.cpu.sys_pct"] - m["os.cpu.iowait_pct"]
                                   - m["os.cpu.steal_pct"], 0, 100)
    m["proc.cpu_pct"][hog] *= 0.95                           # the server gets slightly less, not more
    if not client_cpu:
        del m["client.cpu_pct"]
    return write_series_run(path, tput=tput, p99=p99, monitor=m, types=TYPES, seed=seed)


def write_disk_hog_run(path: Path, *, windows: int = 300, hog_at: int = 160, hog_windows: int = 2,
                       seed: int = 13, cpu: bool = False) -> Path:
    """Another process writes to the disk at full speed for `hog_windows` windows: p99 rises ~330-fold, the
    host's idle CPU falls from ~81 % to ~40 % (iowait), the disk is busy all the time; the server's own writes
    do not change. Seen on a real machine: filed as an outlier with no cause before severity decided."""
    rng = np.random.default_rng(seed)
    tput = 1500 * (1 + 0.02 * rng.standard_normal(windows))
    hog = slice(hog_at, hog_at + hog_windows)
    tput[hog] *= 0.8
    p99 = 900 * rng.lognormal(0, 0.05, windows)
    p99[hog] = 900 * 327 * rng.lognormal(0, 0.05, hog_windows)
    m = server_monitor(rng, tput)
    if cpu:
        # the writer's CPU, not its wait (the held-out H7's 1 MB O_DIRECT writer: host idle 33 -> 5 %): the user
        # and system CPU take the idle time, iowait barely moves
        m["os.cpu.sys_pct"][hog] = 45 + rng.normal(0, 1, hog_windows)
        m["os.cpu.iowait_pct"][hog] += 3
    else:
        m["os.cpu.iowait_pct"][hog] = 41 + rng.normal(0, 1, hog_windows)
    m["os.cpu.idle_pct"] = np.clip(100 - m["os.cpu.usr_pct"] - m["os.cpu.sys_pct"] - m["os.cpu.iowait_pct"], 0, 100)
    m["os.disk.write_bytes_ps"][hog] = 900e6 * rng.uniform(0.9, 1.0, hog_windows)
    m["os.disk.io_ms_ps"][hog] = 1000.0
    return write_series_run(path, tput=tput, p99=p99, monitor=m, types=TYPES, seed=seed)


def write_noisy_experiment(path: Path, *, epochs: int = 40, fast: tuple[int, ...] = (9, 21, 30), seed: int = 21,
                           step_at: int | None = None, step_factor: float = 1.6, windows: int = 12,
                           extra_columns: int = 0, noise: float = 0.06,
                           latency: dict[str, np.ndarray] | None = None) -> Path:
    """A lightweight zipfian InnoDB experiment with no real change: run latency ~60 µs per mode with `noise`
    epoch-to-epoch, cached memory growing all the time, and the `fast` epochs ~2x faster in all modes with a
    little more running threads. `step_at`: main's latency really rises by `step_factor` from that epoch on,
    with the buffer pool reads per operation (db.Innodb_buffer_pool_reads) stepping up with it. `latency`:
    a mode's run latency per epoch as given (µs), instead of the formula."""
    rng = np.random.default_rng(seed)
    path.mkdir(parents=True, exist_ok=True)
    rows = []
    for mode_i, mode in enumerate(MODES):
        base = 60.0 * (1 + 0.08 * mode_i)
        for e in range(epochs):
            lat = base * (1 + 0.002 * e) * rng.lognormal(0, noise)
            speed = 0.5 if e in fast else 1.0
            stepped = mode == "main" and step_at is not None and e >= step_at
            lat *= speed * (step_factor if stepped else 1.0)
            if latency is not None and mode in latency:
                lat = float(latency[mode][e])
            tput = 4e6 / lat / 4  # 4 terminals, closed loop
            ext = mode == "main"
            avg = 100 + 3 * e
            rows.append([e, mode, 100000, 100000 * avg * 10, 100, avg, avg * 0.9, avg * 4, avg * 9,
                         20000 if ext else "", 0 if ext else "", round(tput * 0.4, 1) if ext else "",
                         round(lat * 2.5, 1) if ext else "", round(lat * 6, 1) if ext else "",
                         200000, round(tput, 1), round(lat, 1), round(lat * 0.9, 1), round(lat * 3.1, 1),
                         1200 if mode != "main" else "", 600 if mode != "main" else ""])
            phases = ["extend", "run"] if mode == "main" else ["load", "run"]
            for phase in phases:
                w = windows
                t = tput * rng.lognormal(0, 0.03, w)
                m = server_monitor(rng, t, extra=extra_columns, load_ref=16000.0)
                m["os.mem.cached_bytes"] = 2.0e9 + 5e7 * (e * len(MODES) + mode_i) + 1e5 * np.arange(w)
                m["db.Threads_running"] = np.round(1 + (0.5 if e in fast else 0.0) + 0.3 * rng.random(w), 1)
                if stepped:
                    m["db.Innodb_buffer_pool_reads"] = _noisy(rng, 0.2 * t, 0.05, w)
                write_series_run(path / f"epoch-{e:03d}" / mode / phase, tput=t,
                                 p99=np.full(w, lat * 3.1) * rng.lognormal(0, 0.03, w), monitor=m,
                                 types={"ReadRecord": 1.0} if phase == "run" else {"ExtendRecord": 1.0},
                                 warmup=1, seed=seed + e, phases=[(phase, w)])
    with (path / "epochs.csv").open("w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(EPOCH_COLUMNS)
        wr.writerows(rows)
    with (path / "value_sizes.csv").open("w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["epoch", "bucket_lo", "bucket_hi", "count"])
        for e in range(epochs):
            for k in range(6, 8 + e // 8):
                wr.writerow([e, 2 ** k, 2 ** (k + 1), max(1, int(100000 / (1 + (k - 6) ** 2)))])
    (path / "experiment.json").write_text(json.dumps({"epochs": epochs, "completedEpochs": epochs}))
    return path


def write_long_run(path: Path, *, hours: float = 1.0, seed: int = 31, columns: int = 100) -> Path:
    """A 1-hour run at 1 s windows: 4 phases (rates 1,000 to 2,500 ops/s), 5 transaction types, a monitor of
    about `columns` columns, a lock stall and a CPU hog somewhere in it."""
    rng = np.random.default_rng(seed)
    n = int(hours * 3600)
    quarter = n // 4
    level = np.repeat([1000.0, 1500.0, 2000.0, 2500.0], quarter)[:n]
    level = np.pad(level, (0, n - len(level)), mode="edge")
    tput = level * (1 + 0.02 * rng.standard_normal(n))
    p99 = 900 * rng.lognormal(0, 0.05, n)
    stall = slice(int(n * 0.3), int(n * 0.3) + 8)
    tput[stall] = rng.uniform(1, 5, 8)
    hog = slice(int(n * 0.6), int(n * 0.6) + 15)
    p99[hog] *= 4
    base = server_monitor(rng, tput)
    m = server_monitor(rng, tput, extra=max(columns - len(base), 0))
    m["db.Innodb_row_lock_current_waits"][stall] = 4
    m["os.cpu.idle_pct"][hog] = 0.5
    phases = [(f"phase{i}", quarter) for i in range(3)] + [("phase3", n - 3 * quarter)]
    types = {"ReadRecord": 0.5, "ScanRecord": 0.1, "UpdateRecord": 0.2, "InsertRecord": 0.1, "ExtendRecord": 0.1}
    return write_series_run(path, tput=tput, p99=p99, monitor=m, types=types, phases=phases, seed=seed)


def write_big_experiment(path: Path, *, epochs: int = 100, seed: int = 41) -> Path:
    """100 epochs x 4 modes with per-phase folders (main: extend + run, the others: load + run), 20 windows
    per sub-run, a monitor of ~100 columns, noise and two fast epochs."""
    return write_noisy_experiment(path, epochs=epochs, fast=(30, 71), seed=seed, windows=20, extra_columns=58)
