"""Tenants' interference: per tenant, its windows alone against its windows while another tenant ran (medians of
the window p99 and throughput), and one finding per tenant."""
from __future__ import annotations

import pandas as pd


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
