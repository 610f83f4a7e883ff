"""Several tenants of one ``tenants`` run on one timeline: tenants.csv (every tenant's ALL windows, with the
number of tenants active in each window) becomes a timeline chart and, per tenant, its windows alone against its
windows while another tenant ran (interference.csv)."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from .load import AnalyzerError, _read_csv, load_run

TIMELINE = "tenants.csv"
INDEX = "tenants.json"
REQUIRED = ["time_ms", "window_ms", "tenant", "phase", "ok", "skipped", "aborted", "error", "throughput",
            "lat_p99_us", "measured_ms", "active_tenants"]
NUMERIC = [c for c in REQUIRED if c != "tenant"]


def is_tenants_folder(path: Path) -> bool:
    return (Path(path) / TIMELINE).is_file() and (Path(path) / INDEX).is_file()


def load_timeline(path: Path) -> pd.DataFrame:
    df = _read_csv(Path(path) / TIMELINE, REQUIRED, NUMERIC)
    df["tenant"] = df["tenant"].astype(str)
    df["operations"] = df[["ok", "skipped", "aborted", "error"]].sum(axis=1)
    return df


def windows(df: pd.DataFrame) -> pd.DataFrame:
    """One row per tenant x window in which the tenant completed measured operations (its busiest phase's row
    where two of its phases share the window), with ``overlap`` = another tenant was active in that window."""
    busy = df[(df["operations"] > 0) & (df["measured_ms"] > 0)]
    busy = busy.sort_values("operations", ascending=False).drop_duplicates(["tenant", "time_ms"])
    busy = busy.sort_values(["time_ms", "tenant"]).reset_index(drop=True)
    busy["overlap"] = busy["active_tenants"] >= 2
    return busy


def interference(df: pd.DataFrame) -> pd.DataFrame:
    """Per tenant: how many solo and overlapping windows, and the median of the window p99 and throughput in
    each (medians: one slow window should not decide it)."""
    w = windows(df)
    rows = []
    for tenant in dict.fromkeys(df["tenant"]):
        t = w[w["tenant"] == tenant]
        solo, both = t[~t["overlap"]], t[t["overlap"]]
        solo_p99 = solo["lat_p99_us"].median() if len(solo) else float("nan")
        both_p99 = both["lat_p99_us"].median() if len(both) else float("nan")
        rows.append({
            "tenant": tenant,
            "solo_windows": len(solo),
            "overlap_windows": len(both),
            "solo_p99_median_us": solo_p99,
            "overlap_p99_median_us": both_p99,
            "p99_ratio": both_p99 / solo_p99 if len(solo) and len(both) and solo_p99 > 0 else float("nan"),
            "solo_throughput_median": solo["throughput"].median() if len(solo) else float("nan"),
            "overlap_throughput_median": both["throughput"].median() if len(both) else float("nan"),
        })
    return pd.DataFrame(rows)


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


def _ms(us: float) -> str:
    return "-" if pd.isna(us) else f"{us / 1000.0:.1f} ms"


def findings(table: pd.DataFrame) -> list[dict]:
    found = []
    for r in table.to_dict("records"):
        if r["overlap_windows"] and r["solo_windows"]:
            title = (f"{r['tenant']}: median window p99 {_ms(r['overlap_p99_median_us'])} while another tenant ran,"
                     f" {_ms(r['solo_p99_median_us'])} alone (x{r['p99_ratio']:.2f})")
        elif r["overlap_windows"]:
            title = f"{r['tenant']}: ran only while another tenant ran ({r['overlap_windows']} windows)"
        else:
            title = f"{r['tenant']}: ran alone in all its {r['solo_windows']} windows"
        found.append({"kind": "interference", "title": title, "evidence": [
            f"{r['solo_windows']} solo windows, {r['overlap_windows']} overlapping windows; median throughput"
            f" {r['solo_throughput_median']:.1f} ops/s alone, {r['overlap_throughput_median']:.1f} ops/s overlapped"]})
    return found


def report(path: Path, out: Path) -> Path:
    from . import report as rep

    path, out = Path(path), rep._prepare_out(out)
    try:
        index = json.loads((path / INDEX).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise AnalyzerError(f"{path / INDEX}: {e}") from e
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
        rows, _ = rep.phase_tables(run, label_prefix=f"{t['name']}: ")
        phase_rows += rows
        warnings += rep._warnings(run.summary, f"{t['name']}: ")
        if t.get("failed"):
            warnings.append(f"tenant {t['name']} failed; the others were stopped with it")
    spread = index.get("startSpreadMs")
    names = ", ".join(t["name"] for t in index.get("tenants", []))
    return rep._render(out, title=f"Tenants: {names}",
                       subtitle=f"{path.name} · window {index.get('windowSeconds', '')} s · first phases began within"
                                f" {spread if spread is not None else '?'} ms of each other",
                       warnings=warnings, charts=charts, phase_rows=phase_rows, findings=found,
                       show_changes=False)
