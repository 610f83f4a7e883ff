"""Latency against record size drawn and tabled: latency_by_size.png with each mode's fitted line, and the
exponents table for figures.md / figures.html (the fit: explain/size_latency.py)."""
from __future__ import annotations

import html
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ..explain.size_latency import exponents, sized, words  # noqa: E402
from ..load.results import MODES  # noqa: E402

COLORS = {"main": "tab:red", "clean": "tab:blue", "average-baseline": "tab:green", "spread-baseline": "tab:gray"}


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
