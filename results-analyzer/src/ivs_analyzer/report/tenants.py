"""Several tenants of one ``tenants`` run on one timeline: tenants.csv (every tenant's ALL windows, with the
number of tenants active in each window) becomes a timeline chart and, per tenant, its windows alone against its
windows while another tenant ran (interference.csv). The files are read by load/tenants.py, the split is
explain/interference.py."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ..explain.interference import findings, interference, windows
from ..load.results import AnalyzerError, load_run
from ..load.tenants import TIMELINE, load_index, load_timeline
from . import page


def timeline_chart(df: pd.DataFrame, out: Path) -> dict:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    w = windows(df)
    start = df["time_ms"].min()
    fig, (ax_t, ax_p) = plt.subplots(2, 1, figsize=(10, 6), sharex=True)
    for tenant in dict.fromkeys(df["tenant"]):
        t = w[w["tenant"] == tenant]
        x = (t["time_ms"] - start) / 1000.0
        ax_t.plot(x, t["throughput"], marker=".", label=tenant)
        ax_p.plot(x, t["lat_p99_us"] / 1000.0, marker=".", label=tenant)
    overlap = sorted(set(w.loc[w["overlap"], "time_ms"]))
    win = df["window_ms"].max() / 1000.0
    for ax in (ax_t, ax_p):
        for t0 in overlap:
            ax.axvspan((t0 - start) / 1000.0, (t0 - start) / 1000.0 + win, color="0.9", zorder=0)
    ax_t.set_ylabel("ops/s")
    ax_p.set_ylabel("p99 ms")
    ax_p.set_yscale("log")
    ax_p.set_xlabel("s since the first window (grey: two or more tenants active)")
    ax_t.legend()
    fig.tight_layout()
    name = "tenants_timeline.png"
    fig.savefig(out / name, dpi=90)
    plt.close(fig)
    return {"file": name, "title": "Tenants on one timeline: throughput and p99 per window"}


def report(path: Path, out: Path) -> Path:
    path, out = Path(path), page.prepare_out(out)
    index = load_index(path)
    df = load_timeline(path)
    if df.empty:
        raise AnalyzerError(f"{path / TIMELINE}: no windows")
    table = interference(df)
    table.to_csv(out / "interference.csv", index=False)
    found = findings(table)
    (out / "findings.json").write_text(json.dumps(found, indent=1), encoding="utf-8")
    charts = [timeline_chart(df, out)]
    phase_rows, warnings = [], []
    for t in index.get("tenants", []):
        sub = path / t["folder"]
        if not (sub / "summary.json").is_file():
            warnings.append(f"tenant {t['name']}: no results (it failed before its first window)")
            continue
        run = load_run(sub)
        rows, _ = page.phase_tables(run, label_prefix=f"{t['name']}: ")
        phase_rows += rows
        warnings += page.warnings_of(run.summary, f"{t['name']}: ")
        if t.get("failed"):
            warnings.append(f"tenant {t['name']} failed; the others were stopped with it")
    spread = index.get("startSpreadMs")
    names = ", ".join(t["name"] for t in index.get("tenants", []))
    return page.render(out, title=f"Tenants: {names}",
                       subtitle=f"{path.name} · window {index.get('windowSeconds', '')} s · first phases began within"
                                f" {spread if spread is not None else '?'} ms of each other",
                       warnings=warnings, charts=charts, phase_rows=phase_rows, findings=found,
                       show_changes=False)
