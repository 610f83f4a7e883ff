"""Latency against record size from latency_by_size.csv (docs/results-format.md): each operation's response time
was recorded in the log2 bucket of the size of the value it touched, so the cost of size is read from single
operations, not from epoch averages. The exponent b of latency ~ size^b is the slope of log latency against log
size, fitted by weighted least squares over the buckets (each bucket's mean latency at the bucket's geometric
middle, weighted by its operation count: a bucket mean's variance falls as 1/count), with the regression's 95 %
confidence interval. b = 1 is linear (the paper's MongoDB), b < 1 sublinear (InnoDB), b > 1 superlinear (MyRocks).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..load.results import MODES


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
