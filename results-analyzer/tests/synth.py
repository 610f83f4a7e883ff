"""Writers for synthetic result folders that follow docs/results-format.md exactly."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np

from ivs_analyzer.load.results import EPOCH_COLUMNS, MODES, SAMPLE_COLUMNS

START_MS = 1_763_842_000_000
WINDOW_MS = 1000
STEP_METRIC = "db.Innodb_buffer_pool_reads"
LATE_METRIC = "db.Innodb_row_lock_waits"
NOISE_METRICS = [
    "os.cpu.usr_pct", "os.cpu.sys_pct", "os.cpu.iowait_pct", "os.cpu.idle_pct",
    "os.mem.used_bytes", "os.disk.read_bytes_ps", "os.disk.write_bytes_ps", "os.disk.read_ops_ps",
    "os.net.lo.rx_bytes_ps", "proc.cpu_pct", "proc.rss_bytes", "proc.threads",
    "db.Com_select", "db.Innodb_buffer_pool_pages_free", "db.Threads_connected",
]


def _stats(rng, n_ok, lat_scale):
    if n_ok <= 0:
        return {k: "" for k in ("avg", "p50", "p95", "p99", "max")}
    return {
        "avg": round(lat_scale * 1.1, 1),
        "p50": int(lat_scale),
        "p95": int(lat_scale * 1.8),
        "p99": int(lat_scale * 2.5 * rng.lognormal(0, 0.05)),
        "max": int(lat_scale * 6),
    }


def write_run(path: Path, *, windows: int = 300, step_at: int | None = 150,
              tput_before: float = 1000.0, tput_after: float = 600.0,
              p99_step_at: int | None = None, p99_factor: float = 3.0,
              late_step_at: int | None = 40, noise: float = 0.02, seed: int = 1,
              product: str = "MariaDB", engine: str = "InnoDB",
              types: tuple[str, ...] = ("READ", "UPDATE"), with_monitor: bool = True,
              warmup_windows: int = 5, step_metric_offset: float = 0.0, start_ms: int = START_MS) -> Path:
    """One phase of `windows` measured windows (plus a warmup) with optional steps, starting at start_ms.

    step_metric_offset raises STEP_METRIC for the whole run (an experiment's per-epoch step)."""
    rng = np.random.default_rng(seed)
    path.mkdir(parents=True, exist_ok=True)
    phase_start = start_ms
    measured_start = phase_start + warmup_windows * WINDOW_MS
    end = measured_start + windows * WINDOW_MS
    tput = np.full(windows, tput_before)
    if step_at is not None:
        tput[step_at:] = tput_after
    tput = tput * (1 + noise * rng.standard_normal(windows))
    lat = np.full(windows, 200.0)
    if p99_step_at is not None:
        lat[p99_step_at:] *= p99_factor

    rows = []
    total_ops = 0
    for w in range(-warmup_windows, windows):
        t = measured_start + w * WINDOW_MS
        if w < 0:  # warmup: the windows exist but hold no measured operation
            per_type = {ty: 0 for ty in types}
            scale = 200.0
        else:
            n = int(round(tput[w]))
            shares = np.full(len(types), n // len(types))
            shares[0] += n - shares.sum()
            per_type = dict(zip(types, shares.tolist()))
            scale = lat[w]
        all_ok = 0
        for ty, ok in per_type.items():
            st = _stats(rng, ok, scale)
            rows.append([t, WINDOW_MS, 0, ty, ok, 0, 0, 0, 0, ok, ok, st["avg"], st["p50"],
                         st["p95"], st["p99"], st["max"], st["avg"], st["p99"]])
            all_ok += ok
        st = _stats(rng, all_ok, scale)
        rows.append([t, WINDOW_MS, 0, "ALL", all_ok, 0, 0, 0, 0, all_ok, all_ok, st["avg"],
                     st["p50"], st["p95"], st["p99"], st["max"], st["avg"], st["p99"]])
        total_ops += all_ok if w >= 0 else 0
    with (path / "samples.csv").open("w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(SAMPLE_COLUMNS)
        wr.writerows(rows)

    if with_monitor:
        cols = ["time_ms", "interval_ms", "phase", "source"] + NOISE_METRICS + [STEP_METRIC, LATE_METRIC]
        with (path / "monitor.csv").open("w", newline="") as f:
            wr = csv.writer(f)
            wr.writerow(cols)
            for w in range(-warmup_windows, windows):
                t = measured_start + w * WINDOW_MS
                vals = [round(50 + 5 * rng.standard_normal(), 3) for _ in NOISE_METRICS]
                step = 20 + step_metric_offset + 2 * rng.standard_normal()
                if step_at is not None and w >= step_at:
                    step += 400
                late = 5 + rng.standard_normal()
                if late_step_at is not None and w >= late_step_at:
                    late += 50
                wr.writerow([t, WINDOW_MS, 0, "local"] + vals + [round(step, 3), round(late, 3)])

    def stats_obj(scale):
        return {"avg": scale * 1.1, "stddev": scale * 0.2, "p50": scale, "p90": scale * 1.6,
                "p95": scale * 1.8, "p99": scale * 2.5, "p999": scale * 4, "max": scale * 6}

    measured_s = windows * WINDOW_MS / 1000
    phase = {
        "index": 0, "name": "phase0", "startMs": phase_start, "measuredStartMs": measured_start,
        "endMs": end, "measuredSeconds": measured_s,
        "rate": {"kind": "open", "target": tput_before, "arrival": "regular"},
        "activeTerminals": 4, "warmupOperations": 5000, "missed": 0, "operations": total_ops,
        "throughput": total_ops / measured_s, "goodput": total_ops / measured_s,
        "counts": {"ok": total_ops, "skipped": 0, "aborted": 0, "error": 0},
        "responseTimeUs": stats_obj(200.0), "serviceTimeUs": stats_obj(190.0),
        "bytesRead": total_ops * 1000, "bytesWritten": 0,
        "transactions": {
            ty: {"operations": total_ops // len(types), "throughput": total_ops / len(types) / measured_s,
                 "goodput": total_ops / len(types) / measured_s,
                 "counts": {"ok": total_ops // len(types), "skipped": 0, "aborted": 0, "error": 0},
                 "responseTimeUs": stats_obj(200.0), "serviceTimeUs": stats_obj(190.0),
                 "bytesRead": 0, "bytesWritten": 0, "errors": {}}
            for ty in types
        },
    }
    summary = {
        "tool": {"name": "ivsbench", "version": "0.1.0"}, "benchmark": "ycsbivs",
        "complete": True, "interrupted": False,
        "database": {"type": "MARIADB", "product": product, "version": "10.11.6", "engine": engine},
        "configDigest": "sha256:00", "randomSeed": 42, "terminals": 4, "windowSeconds": 1,
        "startMs": phase_start, "endMs": end, "phases": [phase],
    }
    (path / "summary.json").write_text(json.dumps(summary, indent=2))
    return path


def write_experiment(path: Path, *, epochs: int = 12, seed: int = 3, slope: float = 10.0,
                     noise: float = 3.0, main_step_at: int | None = None, main_step_factor: float = 1.5,
                     with_monitor: bool = False, engine: str = "InnoDB") -> Path:
    """Four modes, run latency 150 + slope*e*(1 + 0.3*mode index) µs plus N(0, noise) per epoch, on MariaDB with
    `engine` (the experiment's label: the figure book judges the paper's claims about that platform).

    main_step_at: main's run latency is multiplied by main_step_factor from that epoch on (the other
    modes do not move), and with_monitor main's run sub-runs get a monitor.csv whose STEP_METRIC rises
    by 400 per interval from the same epoch.
    """
    rng = np.random.default_rng(seed)
    path.mkdir(parents=True, exist_ok=True)
    rows = []
    for mode_i, mode in enumerate(MODES):
        for e in range(epochs):
            avg = 1000 + 100 * e
            lat = 150 + slope * e * (1 + mode_i * 0.3) + rng.normal(0, noise)
            stepped = mode == "main" and main_step_at is not None and e >= main_step_at
            if stepped:
                lat *= main_step_factor
            ext = mode == "main"
            builds = mode != "main"
            rows.append([
                e, mode, 10000, 10000 * avg, 1000, avg, avg * 0.9, avg * 3, avg * 5,
                10000 if ext else "", 0 if ext else "", round(900 - 20 * e, 1) if ext else "",
                round(300 + 15 * e, 1) if ext else "", round(900 + 40 * e, 1) if ext else "",
                100000, round(1e6 / lat, 1), round(lat, 1), round(lat * 0.9, 1), round(lat * 3, 1),
                1234 if builds else "", 567 if builds else "",
            ])
            sub = path / f"epoch-{e:03d}" / mode / "run"
            write_run(sub, windows=30, step_at=None, late_step_at=None,
                      with_monitor=with_monitor and mode == "main",
                      step_metric_offset=400.0 if stepped else 0.0,
                      seed=seed + e * 10 + mode_i, warmup_windows=1, engine=engine)
    with (path / "epochs.csv").open("w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(EPOCH_COLUMNS)
        wr.writerows(rows)
    with (path / "value_sizes.csv").open("w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["epoch", "bucket_lo", "bucket_hi", "count"])
        for e in range(epochs):
            for k in range(10, 10 + 1 + e // 2):
                wr.writerow([e, 2 ** k, 2 ** (k + 1), max(1, int(10000 / (1 + (k - 10) ** 2)))])
    (path / "experiment.json").write_text(json.dumps({"epochs": epochs, "completedEpochs": epochs}))
    return path


def write_two_phase_run(path: Path, *, seed: int = 4) -> Path:
    """Phase 0 at 1000/s flat, phase 1 at 500/s with a step down at its window 60.

    Also adds `agent` rows (same intervals, another metric) to exercise source merging, and an
    empty `phase` cell between the phases.
    """
    a = write_run(path / "_p0", windows=120, step_at=None, late_step_at=None, seed=seed)
    b = write_run(path / "_p1", windows=120, step_at=60, tput_before=500.0, tput_after=250.0,
                  late_step_at=None, seed=seed + 1)
    shift = (120 + 5) * WINDOW_MS + 2 * WINDOW_MS  # a two-window gap between phases
    path.mkdir(parents=True, exist_ok=True)

    def rows(p):
        with (p / "samples.csv").open() as f:
            return list(csv.reader(f))

    out = rows(a)
    for r in rows(b)[1:]:
        r[0] = str(int(r[0]) + shift)
        r[2] = "1"
        out.append(r)
    with (path / "samples.csv").open("w", newline="") as f:
        csv.writer(f).writerows(out)

    def mon(p):
        with (p / "monitor.csv").open() as f:
            return list(csv.reader(f))

    m0, m1 = mon(a), mon(b)
    header = m0[0] + ["os.disk.sda.read_bytes_ps"]
    body = [r + [""] for r in m0[1:]]
    gap_t = int(m0[-1][0]) + WINDOW_MS
    body.append([str(gap_t), str(WINDOW_MS), "", "local"] + ["1"] * (len(header) - 5) + [""])
    for r in m1[1:]:
        r[0] = str(int(r[0]) + shift)
        r[2] = "1"
        body.append(r + [""])
        agent = [r[0], r[1], r[2], "agent"] + [""] * (len(header) - 5) + ["123"]
        body.append(agent)
    with (path / "monitor.csv").open("w", newline="") as f:
        csv.writer(f).writerows([header] + body)

    s0 = json.loads((a / "summary.json").read_text())
    s1 = json.loads((b / "summary.json").read_text())
    p1 = s1["phases"][0]
    for k in ("startMs", "measuredStartMs", "endMs"):
        p1[k] += shift
    p1["index"], p1["name"] = 1, "phase1"
    p1["rate"] = {"kind": "unlimited"}
    s0["phases"].append(p1)
    s0["endMs"] = p1["endMs"]
    (path / "summary.json").write_text(json.dumps(s0, indent=2))
    return path
