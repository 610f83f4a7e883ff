"""Latency against record size from latency_by_size.csv (docs/results-format.md): each operation's response time
was recorded in the log2 bucket of the size of the value it touched, so the cost of size is read from single
operations, not from epoch averages. The exponent b of latency ~ size^b is the slope of log latency against log
size, fitted by weighted least squares over the buckets (each bucket's mean latency at the bucket's geometric
middle, weighted by its operation count: a bucket mean's variance falls as 1/count), with the regression's 95 %
confidence interval. b = 1 is linear (the paper's MongoDB), b < 1 sublinear (InnoDB), b > 1 superlinear (MyRocks).
"""
from __future__ import annotations

import html
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

FILE = "latency_by_size.csv"
ROW_COLUMNS = ["type", "bucket_lo", "bucket_hi", "count", "lat_avg_us", "lat_p50_us", "lat_p90_us", "lat_p99_us",
               "lat_max_us"]
NUMERIC = ["bucket_lo", "bucket_hi", "count", "lat_avg_us", "lat_p50_us", "lat_p90_us", "lat_p99_us", "lat_max_us"]
MODES = ["main", "clean", "average-baseline", "spread-baseline"]
COLORS = {"main": "tab:red", "clean": "tab:blue", "average-baseline": "tab:green", "spread-baseline": "tab:gray"}


def sized(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows of known, non-zero size, with `size`: the bucket's geometric middle (bytes)."""
    d = rows[rows["bucket_lo"].notna() & (rows["bucket_lo"] >= 1) & (rows["count"] > 0)
             & (rows["lat_avg_us"] > 0)].copy()
    d["size"] = np.sqrt(d["bucket_lo"].astype(float) * d["bucket_hi"].astype(float))
    return d


def fit_exponent(size, latency, count) -> dict:
    """b, its 95 % interval and the points behind it for latency ~ size^b, weighted by count. nan when fewer than
    two distinct sizes (and an interval of nan with only two: no residual degree of freedom)."""
    x = np.log(np.asarray(size, float))
    y = np.log(np.asarray(latency, float))
    w = np.asarray(count, float)
    ok = np.isfinite(x) & np.isfinite(y) & (w > 0)
    x, y, w = x[ok], y[ok], w[ok]
    out = {"exponent": math.nan, "intercept": math.nan, "ci_low": math.nan, "ci_high": math.nan,
           "points": int(len(x)), "operations": int(w.sum())}
    if len(np.unique(x)) < 2:
        return out
    import statsmodels.api as sm  # imported here: only experiments with sizes need it

    model = sm.WLS(y, sm.add_constant(x), weights=w).fit()
    out["intercept"], out["exponent"] = float(model.params[0]), float(model.params[1])
    if len(x) > 2:
        lo, hi = model.conf_int(0.05)[1]
        out["ci_low"], out["ci_high"] = float(lo), float(hi)
    return out


def exponents(rows: pd.DataFrame) -> list[dict]:
    """One fit per mode x phase x type of an experiment's rows (every epoch's buckets are points of it), or per
    phase x type of a run's."""
    d = sized(rows)
    keys = [k for k in ("mode", "phase", "type") if k in d.columns]
    fits = []
    for key, g in d.groupby(keys, sort=False):
        key = key if isinstance(key, tuple) else (key,)
        fit = fit_exponent(g["size"], g["lat_avg_us"], g["count"])
        fits.append({**dict(zip(keys, key)), **fit})
    order = {m: i for i, m in enumerate(MODES)}
    return sorted(fits, key=lambda f: (str(f.get("phase")), str(f["type"]), order.get(f.get("mode"), 99)))


def words(fit: dict) -> str:
    """'b = 0.52 [0.47, 0.57]' (or what is missing)."""
    if not math.isfinite(fit["exponent"]):
        return "b: too few sizes"
    ci = f" [{fit['ci_low']:.2f}, {fit['ci_high']:.2f}]" if math.isfinite(fit["ci_low"]) else ""
    return f"b = {fit['exponent']:.2f}{ci}"


def draw(rows: pd.DataFrame, file: Path) -> list[dict]:
    """Draws latency against record size, log-log, one panel per phase x type, one colour per mode (a point per
    epoch x bucket, its area by operations) with each mode's fitted line; returns the fits."""
    d = sized(rows)
    fits = exponents(rows)
    panels = list(dict.fromkeys(zip(d["phase"].astype(str), d["type"]))) if len(d) else []
    fig, axes = plt.subplots(1, max(1, len(panels)), figsize=(4.6 * max(1, len(panels)), 3.4), squeeze=False)
    if not panels:
        axes[0][0].text(0.5, 0.5, "no operation of known size", ha="center", va="center",
                        transform=axes[0][0].transAxes)
    for a, (phase, type_) in zip(axes[0], panels):
        p = d[(d["phase"].astype(str) == phase) & (d["type"] == type_)]
        has_modes = "mode" in p.columns
        for mode in (MODES if has_modes else [None]):
            g = p[p["mode"] == mode] if has_modes else p
            if g.empty:
                continue
            fit = next(f for f in fits if f.get("mode") == mode and str(f["phase"]) == phase
                       and f["type"] == type_) if has_modes else \
                next(f for f in fits if str(f["phase"]) == phase and f["type"] == type_)
            color = COLORS.get(mode, "tab:purple")
            area = 8 + 60 * g["count"] / max(1.0, float(p["count"].max()))
            a.scatter(g["size"], g["lat_avg_us"], s=area, color=color, alpha=0.5,
                      label=f"{mode + ': ' if mode else ''}{words(fit)}")
            if math.isfinite(fit["exponent"]):
                xs = np.geomspace(g["size"].min(), g["size"].max(), 20)
                a.plot(xs, np.exp(fit["intercept"] + fit["exponent"] * np.log(xs)), color=color, linewidth=1)
        a.set_xscale("log")
        a.set_yscale("log")
        a.set_title(f"{phase}: {type_}", fontsize=9)
        a.set_xlabel("record size (bytes, bucket middle)")
        a.set_ylabel("mean latency (µs)")
        a.legend(fontsize=7)
    Path(file).parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(file, dpi=80)
    plt.close(fig)
    return fits


HEAD = ["mode", "phase", "type", "exponent b", "95 % interval", "points", "operations"]


def _cells(fits: list[dict]) -> list[list[str]]:
    return [[str(f.get("mode", "")), str(f["phase"]), str(f["type"]),
             f"{f['exponent']:.3f}" if math.isfinite(f["exponent"]) else "-",
             f"[{f['ci_low']:.3f}, {f['ci_high']:.3f}]" if math.isfinite(f["ci_low"]) else "-",
             str(f["points"]), str(f["operations"])] for f in fits]


def markdown(fits: list[dict]) -> list[str]:
    """The fits as a markdown table after a blank line and a title; nothing when there are none."""
    if not fits:
        return []
    return (["", "Latency against record size (latency ~ size^b, from latency_by_size.csv):", "",
             "| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
            + ["| " + " | ".join(r) + " |" for r in _cells(fits)])


def html_table(fits: list[dict]) -> str:
    """The fits as an HTML paragraph and table; empty when there are none."""
    if not fits:
        return ""
    return ("<p>Each operation's response time by the log2 bucket of the size it touched (latency_by_size.csv);"
            " b is the slope of log mean latency against log size (bucket middle), weighted by operations, with its"
            " 95 % regression interval: 1 linear, below 1 sublinear, above 1 superlinear.</p><table><tr>"
            + "".join(f"<th>{html.escape(c)}</th>" for c in HEAD) + "</tr>"
            + "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in _cells(fits))
            + "</table>")
