"""PNG charts (matplotlib, Agg backend: the analyzer runs on headless machines and in CI)."""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.colors import LogNorm  # noqa: E402

from ..load.results import MODES, Experiment, Run  # noqa: E402

DPI = 100
MODE_STYLE = {
    "main": dict(color="tab:red", marker="o"),
    "clean": dict(color="tab:blue", marker="s"),
    "average-baseline": dict(color="tab:green", marker="^"),
    "spread-baseline": dict(color="tab:purple", marker="v"),
}


def _legend(ax, **kw) -> None:
    # An empty run (header-only samples.csv) has nothing labelled; skip instead of warning.
    if ax.get_legend_handles_labels()[0]:
        ax.legend(**kw)


def save_figure(fig, out: Path, name: str) -> str:
    fig.savefig(out / name, dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return name


_save = save_figure


def _seconds(run: Run, time_ms) -> np.ndarray:
    return (np.asarray(time_ms, dtype=float) - run.start_ms) / 1000.0


def _mark_phases(ax, run: Run, label: bool = False) -> None:
    """Shade warmups grey and draw a line at each phase start, so steps can be read against them."""
    for p in run.phases:
        start, measured, end = p.get("startMs"), p.get("measuredStartMs"), p.get("endMs")
        if start is None:
            continue
        s = (start - run.start_ms) / 1000.0
        ax.axvline(s, color="black", lw=0.8, ls="--", alpha=0.6)
        if measured is not None and measured > start:
            ax.axvspan(s, (measured - run.start_ms) / 1000.0, color="grey", alpha=0.15, lw=0)
        if label:
            ax.text(s, 1.0, f" {p.get('name', p.get('index'))}", transform=ax.get_xaxis_transform(),
                    va="bottom", ha="left", fontsize=8)
        if end is not None:
            ax.axvline((end - run.start_ms) / 1000.0, color="black", lw=0.5, ls=":", alpha=0.4)


def _all_rows(run: Run) -> pd.DataFrame:
    s = run.samples
    return s[s["type"] == "ALL"].sort_values("time_ms")


def _ramped_phases(run: Run) -> set[int]:
    s = getattr(run, "settings", None)
    return set() if s is None else {int(x) for x in s.loc[s["rate"].notna(), "phase"].unique()}


def _target_steps(run: Run):
    xs, ys = [], []
    ramped = _ramped_phases(run)
    for p in run.phases:
        if p.get("index") in ramped:
            continue  # its configured rate changes per window: drawn from settings.csv instead
        rate = p.get("rate") or {}
        if rate.get("kind") == "open" and rate.get("target") is not None and p.get("startMs") is not None:
            end = p.get("endMs") or run.summary.get("endMs") or p["startMs"]
            xs.append(((p["startMs"] - run.start_ms) / 1000.0, (end - run.start_ms) / 1000.0))
            ys.append(float(rate["target"]))
    return xs, ys


def _plot_throughput(ax, run: Run, changes: list[dict] | None = None) -> None:
    rows = _all_rows(run)
    for phase, grp in rows.groupby("phase"):
        x = _seconds(run, grp["time_ms"])
        ax.plot(x, grp["throughput"], color="tab:blue", lw=1,
                label="throughput" if phase == rows["phase"].min() else None)
        ax.plot(x, grp["goodput"], color="tab:green", lw=0.8, alpha=0.7,
                label="goodput" if phase == rows["phase"].min() else None)
        if grp["missed"].fillna(0).sum() > 0:
            ax.plot(x, grp["missed"] * 1000.0 / grp["window_ms"], color="tab:red", lw=0.8,
                    label="missed/s" if phase == rows["phase"].min() else None)
    steps = list(zip(*_target_steps(run)))
    for i, (span, target) in enumerate(steps):
        ax.hlines(target, span[0], span[1], colors="black", lw=1.2, ls="-.",
                  label="target rate" if i == 0 else None)
    settings = getattr(run, "settings", None)
    if settings is not None:
        configured = settings[settings["rate"].notna() & settings["phase"].isin(_ramped_phases(run))]
        for j, (_, grp) in enumerate(configured.groupby("phase")):
            ax.step(_seconds(run, grp["time_ms"]), grp["rate"], where="post", color="black", lw=1.2, ls="-.",
                    label="target rate" if j == 0 and not steps else None)
    for c in changes or []:
        if c["series"] == "throughput":
            ax.axvline(_seconds(run, c["time_ms"]), color="tab:orange", lw=1.5, alpha=0.8)
    ax.set_ylabel("ops/s")
    ax.set_ylim(bottom=0)
    _legend(ax, loc="upper right", fontsize=8)


def _plot_latency(ax, run: Run, changes: list[dict] | None = None) -> None:
    rows = _all_rows(run)
    for col, color in (("lat_p50_us", "tab:green"), ("lat_p95_us", "tab:orange"), ("lat_p99_us", "tab:red")):
        first = True
        for _, grp in rows.groupby("phase"):
            ax.plot(_seconds(run, grp["time_ms"]), grp[col], color=color, lw=1,
                    label=col.replace("lat_", "").replace("_us", "") if first else None)
            first = False
    for c in changes or []:
        if c["series"] == "p99":
            ax.axvline(_seconds(run, c["time_ms"]), color="tab:orange", lw=1.5, alpha=0.8)
    if rows[["lat_p50_us", "lat_p99_us"]].notna().any().any() and (rows["lat_p50_us"] > 0).any():
        ax.set_yscale("log")
    ax.set_ylabel("response time (µs)")
    _legend(ax, loc="upper right", fontsize=8)


def throughput_chart(run: Run, out: Path, changes=None) -> str:
    fig, ax = plt.subplots(figsize=(11, 3.6))
    _plot_throughput(ax, run, changes)
    _mark_phases(ax, run, label=True)
    ax.set_xlabel("time since run start (s)")
    ax.set_title("Throughput vs target rate (grey = warmup, orange = detected step)", fontsize=10, pad=14)
    return _save(fig, out, "throughput.png")


def latency_chart(run: Run, out: Path, changes=None) -> str:
    fig, ax = plt.subplots(figsize=(11, 3.6))
    _plot_latency(ax, run, changes)
    _mark_phases(ax, run, label=True)
    ax.set_xlabel("time since run start (s)")
    ax.set_title("Response time percentiles per window", fontsize=10, pad=14)
    return _save(fig, out, "latency.png")


def types_chart(run: Run, out: Path) -> str | None:
    s = run.samples
    types = sorted(t for t in s["type"].unique() if t != "ALL")
    if not types:
        return None
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(11, 6), sharex=True)
    cmap = plt.get_cmap("tab10")
    for i, ty in enumerate(types):
        rows = s[s["type"] == ty]
        for j, (_, grp) in enumerate(rows.groupby("phase")):
            x = _seconds(run, grp["time_ms"])
            ax1.plot(x, grp["throughput"], color=cmap(i % 10), lw=1, label=ty if j == 0 else None)
            ax2.plot(x, grp["lat_p99_us"], color=cmap(i % 10), lw=1, label=ty if j == 0 else None)
    for ax in (ax1, ax2):
        _mark_phases(ax, run)
    ax1.set_ylabel("ops/s")
    ax1.set_ylim(bottom=0)
    ax2.set_ylabel("p99 (µs)")
    if (s["lat_p99_us"] > 0).any():
        ax2.set_yscale("log")
    _legend(ax1, loc="upper right", fontsize=8, ncol=min(len(types), 6))
    ax1.set_title("Per transaction type: throughput and p99", fontsize=10)
    ax2.set_xlabel("time since run start (s)")
    return _save(fig, out, "types.png")


def _varying(frame: pd.DataFrame, cols: list[str]) -> list[str]:
    keep = []
    for c in cols:
        v = frame[c].dropna()
        if len(v) > 1 and float(v.max()) != float(v.min()):
            keep.append(c)
    return keep


def _cv(series: pd.Series) -> float:
    v = series.dropna()
    if len(v) < 2:
        return 0.0
    return float(v.std()) / max(abs(float(v.mean())), 1e-9)


def resource_chart(run: Run, out: Path, changes=None, max_db_panels: int = 6) -> tuple[str, list] | None:
    """Client panels on top, then CPU / disk / memory / process / varying db counters, one time axis.
    Returns (file, [(panel title, metric names)])."""
    metrics = run.metric_frame()
    if metrics is None:
        return None
    cols = list(metrics.columns)
    groups: list[tuple[str, list[str]]] = []
    cpu = _varying(metrics, [c for c in cols if c.startswith("os.cpu.")] + (["proc.cpu_pct"] if "proc.cpu_pct" in cols else []))
    if cpu:
        groups.append(("CPU (%)", cpu))
    disk_total = [c for c in cols if c.startswith("os.disk.") and c.count(".") == 2 and c.endswith("bytes_ps")]
    disk = _varying(metrics, disk_total + [c for c in ("proc.read_bytes_ps", "proc.write_bytes_ps") if c in cols])
    if disk:
        groups.append(("disk (bytes/s)", disk))
    mem = _varying(metrics, [c for c in cols if c.startswith("os.mem.")] + (["proc.rss_bytes"] if "proc.rss_bytes" in cols else []))
    if mem:
        groups.append(("memory (bytes)", mem))
    # db counters: only those that move, most variable first, each in its own panel because
    # their scales differ by orders of magnitude.
    flagged = {m["name"] for c in changes or [] for m in c["metrics"][:2]}  # the first suspects get a panel
    db = _varying(metrics, [c for c in cols if c.startswith("db.")])
    db.sort(key=lambda c: (c not in flagged, -_cv(metrics[c])))
    for c in db[:max_db_panels]:
        groups.append((c, [c]))
    n = 2 + len(groups)
    fig, axes = plt.subplots(n, 1, figsize=(11, 1.9 * n + 0.6), sharex=True)
    _plot_throughput(axes[0], run, changes)
    axes[0].set_title("Client throughput and latency with resource / database metrics (same time axis)", fontsize=10)
    _plot_latency(axes[1], run, changes)
    x = _seconds(run, metrics.index.to_numpy())
    for ax, (title, names) in zip(axes[2:], groups):
        for name in names:
            ax.plot(x, metrics[name].to_numpy(dtype=float), lw=1, label=name)
        ax.set_ylabel(title if len(names) > 1 else "", fontsize=8)
        _legend(ax, loc="upper right", fontsize=7, ncol=min(len(names), 4))
        for c in changes or []:
            ax.axvline(_seconds(run, c["time_ms"]), color="tab:orange", lw=1.2, alpha=0.6)
    for ax in axes:
        _mark_phases(ax, run)
    axes[-1].set_xlabel("time since run start (s)")
    return _save(fig, out, "resources.png"), groups


def run_charts(run: Run, out: Path, changes=None) -> list[dict]:
    charts = [
        {"file": throughput_chart(run, out, changes), "title": "Throughput vs target rate"},
        {"file": latency_chart(run, out, changes), "title": "Latency percentiles"},
    ]
    t = types_chart(run, out)
    if t:
        charts.append({"file": t, "title": "Per transaction type"})
    r = resource_chart(run, out, changes)
    if r:
        charts.append({"file": r[0], "title": "Resources and database metrics",
                       "panels": [{"title": t, "series": names} for t, names in r[1]]})
    return charts


# ---------------------------------------------------------------- experiments (paper's charts)

def _per_mode(ax, epochs: pd.DataFrame, column: str, ylabel: str, log: bool = False) -> bool:
    drawn = False
    for mode in MODES + sorted(set(epochs["mode"]) - set(MODES)):
        rows = epochs[epochs["mode"] == mode].dropna(subset=[column])
        if rows.empty:
            continue
        ax.plot(rows["epoch"], rows[column], label=mode, lw=1.2, ms=3,
                **MODE_STYLE.get(mode, {}))
        drawn = True
    ax.set_ylabel(ylabel)
    ax.set_xlabel("epoch")
    if log and drawn:
        ax.set_yscale("log")
    if drawn:
        _legend(ax, fontsize=8)
    return drawn


def epoch_charts(exp: Experiment, out: Path) -> list[dict]:
    e = exp.epochs
    charts = []
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4))
    _per_mode(a1, e, "run_lat_avg_us", "average latency (µs)")
    a1.set_title("Run phase: average latency per epoch", fontsize=10)
    _per_mode(a2, e, "run_throughput", "ops/s")
    a2.set_ylim(bottom=0)
    a2.set_title("Run phase: throughput per epoch", fontsize=10)
    charts.append({"file": _save(fig, out, "epoch_run.png"), "title": "Run phase per epoch, four modes"})

    fig, ax = plt.subplots(figsize=(12, 3.6))
    _per_mode(ax, e, "run_lat_p99_us", "p99 latency (µs)")
    ax.set_title("Run phase: p99 latency per epoch", fontsize=10)
    charts.append({"file": _save(fig, out, "epoch_p99.png"), "title": "Run phase p99 per epoch"})

    # Figure 1: value-size distribution of the main database per epoch.
    main = e[e["mode"] == "main"].dropna(subset=["value_p50"])
    if main.empty:
        main = e.dropna(subset=["value_p50"]).drop_duplicates("epoch")
    if not main.empty:
        fig, ax = plt.subplots(figsize=(12, 4))
        x = main["epoch"].to_numpy()
        ax.fill_between(x, main["value_min"], main["value_max"], color="tab:blue", alpha=0.12, label="min–max")
        ax.fill_between(x, main["value_p50"], main["value_p99"], color="tab:blue", alpha=0.3, label="p50–p99")
        ax.plot(x, main["value_p50"], color="tab:blue", lw=1.2, label="p50")
        ax.plot(x, main["value_avg"], color="black", lw=1, ls="--", label="average")
        ax.plot(x, main["value_max"], color="tab:red", lw=1.2, label="max")
        ax.set_yscale("log")
        ax.set_xlabel("epoch")
        ax.set_ylabel("field value size (bytes)")
        ax.set_title("Value size distribution per epoch (main database)", fontsize=10)
        _legend(ax, fontsize=8, loc="upper left")
        charts.append({"file": _save(fig, out, "value_sizes.png"), "title": "Value size distribution per epoch"})

    vs = exp.value_sizes
    if vs is not None and not vs.empty:
        counts = vs.groupby(["bucket_lo", "epoch"])["count"].sum().unstack(fill_value=0).sort_index()
        # Empty buckets may be left out of the file; fill the log2 ladder (and missing epochs)
        # so each row / column of the mesh spans exactly its own bucket / epoch.
        lo_min = max(float(vs["bucket_lo"].min()), 1.0)
        hi_max = float(vs["bucket_hi"].max())
        ladder = [lo_min]
        while ladder[-1] * 2 < hi_max:
            ladder.append(ladder[-1] * 2)
        all_epochs = np.arange(int(vs["epoch"].min()), int(vs["epoch"].max()) + 1)
        counts.index = counts.index.astype(float).map(lambda v: max(v, 1.0))
        counts = counts.groupby(level=0).sum()
        counts = counts.reindex(sorted(set(ladder) | set(counts.index)), fill_value=0)
        counts = counts.reindex(columns=all_epochs, fill_value=0)
        frac = counts / counts.sum(axis=0).replace(0, np.nan)
        epochs_idx = frac.columns.to_numpy()
        lows = frac.index.to_numpy(dtype=float)
        y_edges = np.append(lows, max(hi_max, lows[-1] * 2))
        x_edges = np.append(epochs_idx - 0.5, epochs_idx[-1] + 0.5)
        data = np.ma.masked_where(~(frac.to_numpy() > 0), frac.to_numpy())
        fig, ax = plt.subplots(figsize=(12, 4))
        vmin = float(data.min()) if data.count() else 1e-6
        mesh = ax.pcolormesh(x_edges, np.maximum(y_edges, 1), data, cmap="viridis",
                             norm=LogNorm(vmin=max(vmin, 1e-6), vmax=1.0), shading="flat")
        ax.set_yscale("log", base=2)
        ax.set_xlabel("epoch")
        ax.set_ylabel("field value size bucket (bytes)")
        ax.set_title("Share of values per log2 size bucket and epoch", fontsize=10)
        fig.colorbar(mesh, ax=ax, label="fraction of values")
        charts.append({"file": _save(fig, out, "value_sizes_heatmap.png"), "title": "Value size histogram per epoch"})

    ext = e[e["mode"] == "main"].dropna(subset=["extend_throughput"])
    if not ext.empty:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4))
        a1.plot(ext["epoch"], ext["extend_throughput"], color="tab:red", marker="o", ms=3)
        a1.set_ylabel("extend ops/s")
        a1.set_xlabel("epoch")
        a1.set_ylim(bottom=0)
        a1.set_title("Extend phase throughput per epoch", fontsize=10)
        a2.plot(ext["epoch"], ext["extend_lat_avg_us"], color="tab:red", marker="o", ms=3, label="average")
        if ext["extend_lat_p99_us"].notna().any():
            a2.plot(ext["epoch"], ext["extend_lat_p99_us"], color="tab:orange", marker="^", ms=3, label="p99")
        a2.set_ylabel("extend latency (µs)")
        a2.set_xlabel("epoch")
        _legend(a2, fontsize=8)
        a2.set_title("Extend phase latency per epoch", fontsize=10)
        charts.append({"file": _save(fig, out, "extend.png"), "title": "Extend performance per epoch"})
    return charts


# ---------------------------------------------------------------- compare

def compare_run_charts(runs: list[Run], out: Path) -> list[dict]:
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(11, 7), sharex=True)
    cmap = plt.get_cmap("tab10")
    for i, run in enumerate(runs):
        rows = _all_rows(run)
        for j, (_, grp) in enumerate(rows.groupby("phase")):
            x = _seconds(run, grp["time_ms"])
            a1.plot(x, grp["throughput"], color=cmap(i % 10), lw=1, label=run_name(runs, i) if j == 0 else None)
            a2.plot(x, grp["lat_p99_us"], color=cmap(i % 10), lw=1, label=run_name(runs, i) if j == 0 else None)
    a1.set_ylabel("ops/s")
    a1.set_ylim(bottom=0)
    _legend(a1, fontsize=8)
    a1.set_title("Throughput (all types), time since each run's start", fontsize=10)
    a2.set_ylabel("p99 (µs)")
    a2.set_yscale("log")
    a2.set_xlabel("time since run start (s)")
    a2.set_title("p99 response time", fontsize=10)
    return [{"file": _save(fig, out, "compare_runs.png"), "title": "Runs overlaid"}]


def run_name(items, i) -> str:
    """Labels from the database product/engine; the folder name breaks ties."""
    labels = [x.label for x in items]
    if labels.count(labels[i]) > 1:
        return f"{labels[i]} ({items[i].path.name})"
    return labels[i]


def compare_experiment_charts(exps: list[Experiment], out: Path) -> list[dict]:
    cmap = plt.get_cmap("tab10")
    specs = [
        ("run_lat_avg_us", "average latency (µs)", "Run phase average latency (main mode)"),
        ("run_throughput", "ops/s", "Run phase throughput (main mode)"),
        ("extend_throughput", "extend ops/s", "Extend throughput"),
        ("extend_lat_avg_us", "extend latency (µs)", "Extend average latency"),
    ]
    fig, axes = plt.subplots(2, 2, figsize=(12, 7))
    for ax, (col, ylabel, title) in zip(axes.flat, specs):
        for i, exp in enumerate(exps):
            rows = exp.epochs[exp.epochs["mode"] == "main"].dropna(subset=[col])
            ax.plot(rows["epoch"], rows[col], color=cmap(i % 10), marker="o", ms=3, lw=1.2,
                    label=run_name(exps, i))
        ax.set_title(title, fontsize=10)
        ax.set_ylabel(ylabel)
        ax.set_xlabel("epoch")
        _legend(ax, fontsize=8)
    fig.tight_layout()
    return [{"file": _save(fig, out, "compare_epochs.png"), "title": "Experiments overlaid (main mode)"}]
