"""Verdicts a researcher can weigh: each stated test of the figure book as an effect with a 95 % confidence interval
that respects the dependence between neighbouring epochs, the effective sample size beside n, the smallest effect
the run could have detected (80 % power, alpha 0.05) and a verdict by the one decision rule of
docs/experiments.md, "How a verdict is decided" (stated there; `judge` applies it).

One estimator for every per-epoch statistic (`hac`): a least-squares fit of the per-epoch series on a design fixed
before the data (a constant for a mean or a geometric mean ratio; a line for a trend; a line and a quadratic term
for a curvature; a line with a change of slope at the paper's knee epoch; a local line with a step at the paper's
step epoch), with a heteroskedasticity and autocorrelation consistent (HAC, Newey-West: Bartlett kernel) standard
error after AR(1) prewhitening (Andrews and Monahan 1992; `hac`, a few lines of numpy: statsmodels has no
prewhitening; tests/test_repro.py checks it against statsmodels' HAC and a moving-block bootstrap). Its bandwidth is
chosen from the data: Andrews' (1991) AR(1) plug-in rule, the lag-1 autocorrelation corrected for its small-sample
bias. The interval uses fixed-b critical values (Kiefer and Vogelsang 2005, Bartlett kernel: the wider the bandwidth
relative to n, the wider the interval) plus the t distribution's small-sample excess, so a short, strongly
autocorrelated series is not overconfident. The effective sample size n_eff = n x (the variance an
independent-epochs fit would give / the HAC variance). How well the intervals and verdicts hold their error rates
on series with a known answer: docs/calibration.md (scripts/bench/verdict-calibration.sh).
A deterministic computation: the same epochs.csv always gives the same report.

`evidence`: what the monitor recorded for the modes or epochs a "not reproduced" verdict is about (buffer-pool
reads, rows and bytes read per operation, RocksDB compaction and SST figures, page splits), from the run's own
monitor.csv summarized per epoch and mode (epochs.monitor_per_epoch).
"""
from __future__ import annotations

import math
import re
from functools import lru_cache
from statistics import NormalDist

import numpy as np
import pandas as pd

ALPHA = 0.05
POWER = 0.80
EQUIVALENCE = 0.05  # equality claims between modes: the geometric mean ratio within 1/1.05 .. 1.05
Z_POWER = NormalDist().inv_cdf(POWER)
# The verdicts a test or a figure can get (docs/experiments.md, "How a verdict is decided").
REPRODUCED, NOT_REPRODUCED, INCONCLUSIVE = "reproduced", "not reproduced", "inconclusive"
NO_DATA, NOT_APPLICABLE, CHECK = "no data", "not applicable", "check"
# Lag-1 autocorrelation is clipped here before the bandwidth rule (a unit root has no finite bandwidth).
MAX_RHO = 0.97


def _fixed_b(b: float, two_sided_95: bool) -> float:
    """Kiefer-Vogelsang (2005) fixed-b critical value of the Bartlett-kernel HAC t statistic at b = bandwidth / n:
    the 0.975 quantile (two-sided 95 %) or the 0.95 quantile (one-sided 95 %, the 90 % interval of a TOST)."""
    if two_sided_95:
        return 1.96 + 2.9694 * b + 0.4160 * b * b - 0.5324 * b ** 3
    return 1.6449 + 2.1859 * b + 0.3142 * b * b - 0.3427 * b ** 3


def lag1(u: np.ndarray) -> float:
    """The residuals' lag-1 autocorrelation with the first-order small-sample bias correction of an AR(1)
    estimate ((1 + 3 rho) / n, Kendall), clipped to +-MAX_RHO."""
    u = np.asarray(u, float) - np.mean(u)
    n, den = len(u), float(u @ u)
    if n < 4 or den == 0:
        return 0.0
    r = float(u[1:] @ u[:-1]) / den
    r += (1 + 3 * r) / n
    return float(np.clip(r, -MAX_RHO, MAX_RHO))


def bandwidth(u: np.ndarray) -> float:
    """Andrews' (1991) AR(1) plug-in bandwidth of the Bartlett kernel: 1.1447 (a n)^(1/3), a = 4 r^2 /
    ((1 - r)^2 (1 + r)^2), r = lag1(u); at least 1 (no autocorrelation: the plain variance), at most n / 2."""
    n, r = len(u), lag1(u)
    a = 4 * r * r / ((1 - r) ** 2 * (1 + r) ** 2)
    return float(min(max(1.0, 1.1447 * (a * n) ** (1 / 3)), n / 2))


@lru_cache(maxsize=None)
def t_quantile(q: float, df: int) -> float:
    """The t distribution's q quantile with df degrees of freedom: scipy's stdtrit, which scipy.stats.t.ppf calls
    (the same numbers, without importing scipy.stats: a second of a report's start). Cached: a calibration asks for
    the same few thousands of times."""
    from scipy.special import stdtrit

    return float(stdtrit(df, q))


def hac(X: np.ndarray, y: np.ndarray, contrast) -> dict:
    """The least-squares estimate of contrast . beta (y on the columns of X) with its HAC interval (see the module
    doc): estimate, low/high (95 %), low90/high90, se, n, n_eff, lags, rho, detectable.

    The long-run variance of the scores g_t = x_t u_t is estimated after AR(1) prewhitening (Andrews and Monahan
    1992: e_t = g_t - r g_(t-1) with r = lag1(u), then recoloured by 1 / (1 - r)^2), with Bartlett weights
    1 - j / S over the lags below the data-chosen bandwidth S (`bandwidth` of the prewhitened contrast scores)."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    c = np.asarray(contrast, float)
    n, k = X.shape
    xtx_inv = np.linalg.pinv(X.T @ X)
    beta = xtx_inv @ X.T @ y
    u = y - X @ beta
    r = lag1(u)
    g = X * u[:, None]
    e = g[1:] - r * g[:-1]
    S = bandwidth(e @ (xtx_inv @ c))
    lags = max(0, int(math.ceil(S)) - 1)
    omega = e.T @ e
    for j in range(1, lags + 1):
        gamma = e[j:].T @ e[:-j]
        omega += (1 - j / (lags + 1)) * (gamma + gamma.T)
    omega = omega * (n / max(len(e), 1)) / (1 - r) ** 2
    var = float(c @ xtx_inv @ omega @ xtx_inv @ c)
    iid = float(u @ u) / max(n - k, 1) * float(c @ xtx_inv @ c)  # the variance if the epochs were independent
    est, se = float(c @ beta), math.sqrt(max(var, 0.0))
    b, df = (lags + 1) / n, max(n - k, 1)
    cv95 = _fixed_b(b, True) + t_quantile(0.975, df) - 1.959964
    cv90 = _fixed_b(b, False) + t_quantile(0.95, df) - 1.644854
    n_eff = float(n * iid / var) if var > 0 else float(n)
    return {"estimate": est, "low": est - cv95 * se, "high": est + cv95 * se, "low90": est - cv90 * se,
            "high90": est + cv90 * se, "se": se, "n": int(n), "n_eff": n_eff, "lags": lags, "rho": r,
            "detectable": (cv95 + Z_POWER) * se,
            "method": f"HAC, AR(1) prewhitened (lag-1 r {r:.2f}), Bartlett {lags} lags from the data; {n} epochs,"
                      f" n_eff {n_eff:.0f}"}


def _clean(x, y, log: bool) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = np.isfinite(x) & np.isfinite(y) & ((y > 0) if log else True)
    order = np.argsort(x[ok], kind="stable")
    return x[ok][order], (np.log(y[ok]) if log else y[ok])[order]


def _done(out: dict, log: bool, what: str) -> dict:
    out.update(log=log, method=f"{what}: {out['method']}")
    return out


def trend(x, y, log: bool = True) -> dict | None:
    """The fitted change of y over the run (x's first to last value) from a straight line in x (of log y when
    `log`: a relative change, e.g. 0.5 = +50 %), with its HAC interval. None below 4 points."""
    x, y = _clean(x, y, log)
    if len(x) < 4 or np.ptp(x) == 0:
        return None
    span = float(np.ptp(x))
    return _done(hac(np.column_stack([np.ones(len(x)), x - x.mean()]), y, [0.0, span]), log, "line")


def convexity(x, y) -> dict | None:
    """The quadratic coefficient of y against x, both scaled to [0, 1] by the observed ranges (> 0 superlinear;
    the curve leaves the straight line by |c|/4 of y's range at the middle), with its HAC interval."""
    x, y = _clean(x, y, False)
    if len(x) < 5 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    xs, ys = (x - x.min()) / np.ptp(x), (y - y.min()) / np.ptp(y)
    return _done(hac(np.column_stack([np.ones(len(xs)), xs, xs * xs]), ys, [0.0, 0.0, 1.0]), False, "quadratic")


def hinge(x, y, knee: float, part: float, min_points: int = 4) -> dict | None:
    """A continuous two-line fit y = a + b x + c max(0, x - knee) with the knee at a given epoch (the paper's, never
    chosen from the series): the effect is c - part * b for part > 0 (the slope after exceeds (1 + part) times the
    slope before when > 0: "steeper after") and c + |part| b for part < 0 (the slope after is below (1 - |part|)
    times the slope before when < 0: "flatter after"). None without min_points epochs each side of the knee."""
    x, y = _clean(x, y, False)
    if (x <= knee).sum() < min_points or (x > knee).sum() < min_points:
        return None
    X = np.column_stack([np.ones(len(x)), x - knee, np.maximum(0.0, x - knee)])
    out = _done(hac(X, y, [0.0, -part if part > 0 else abs(part), 1.0]), False, f"two lines, knee at epoch {knee:g}")
    slopes = np.linalg.lstsq(X, y, rcond=None)[0]
    out.update(knee=float(knee), slope_before=float(slopes[1]), slope_after=float(slopes[1] + slopes[2]))
    return out


def level_shift(x, y, at: float, width: int = 10) -> dict | None:
    """The step of log y at epoch `at` (the paper's, never chosen from the series) against a local line through up
    to `width` epochs either side: log y = a + b (x - at) + c [x >= at]; c with its HAC interval. None without 4
    epochs each side."""
    x, y = _clean(x, y, True)
    keep = (x >= at - width) & (x < at + width)
    x, y = x[keep], y[keep]
    if (x < at).sum() < 4 or (x >= at).sum() < 4:
        return None
    X = np.column_stack([np.ones(len(x)), x - at, (x >= at).astype(float)])
    return _done(hac(X, y, [0.0, 0.0, 1.0]), True, f"local line with a step at epoch {at:g}")


def series_mean(values) -> dict | None:
    """The mean of a per-epoch series (in epoch order; of a 0/1 indicator: the share of epochs where it holds) with
    its HAC interval."""
    z = np.asarray(values, float)
    z = z[np.isfinite(z)]
    if len(z) < 4:
        return None
    if np.ptp(z) == 0:
        m = float(z[0])
        return {"estimate": m, "low": m, "high": m, "low90": m, "high90": m, "se": 0.0, "n": len(z),
                "n_eff": float(len(z)), "lags": 0, "rho": 0.0, "detectable": 0.0, "log": False,
                "method": f"mean: every one of {len(z)} epochs the same"}
    return _done(hac(np.ones((len(z), 1)), z, [1.0]), False, "mean")


def log_ratios(num: pd.Series, den: pd.Series) -> pd.Series:
    """log(num / den) epoch by epoch (Series indexed by epoch) on the epochs where both are positive."""
    both = num.index.intersection(den.index)
    a, b = num[both].astype(float), den[both].astype(float)
    ok = np.isfinite(a) & np.isfinite(b) & (a > 0) & (b > 0)
    return np.log(a[ok] / b[ok]).sort_index()


def paired(num: pd.Series, den: pd.Series) -> dict | None:
    """num/den epoch by epoch: the mean per-epoch log ratio (the log of the geometric mean ratio) with its HAC
    interval (the 90 % one is what an equality claim's two one-sided tests are judged on). None below 4 epochs."""
    d = log_ratios(num, den).to_numpy()
    if len(d) < 4:
        return None
    out = series_mean(d)
    out["method"] = out["method"].replace("mean", "per-epoch log ratio", 1)
    out["log"] = True
    return out


def judge(effect: dict | None, claim: str, null: float = 0.0, counts: float = 0.0) -> str:
    """The decision rule (docs/experiments.md, "How a verdict is decided"). claim "greater": the effect exceeds
    `counts` (the smallest effect that counts: a margin, or the paper's stated magnitude); "less" mirrors it;
    "equal": the effect lies within null +- counts (two one-sided tests: the 90 % interval inside). No effect:
    no data."""
    if effect is None or not (np.isfinite(effect["low"]) and np.isfinite(effect["high"])):
        return NO_DATA
    lo, hi = effect["low"], effect["high"]
    if claim == "greater":
        return REPRODUCED if lo > counts else NOT_REPRODUCED if hi <= counts else INCONCLUSIVE
    if claim == "less":
        return REPRODUCED if hi < counts else NOT_REPRODUCED if lo >= counts else INCONCLUSIVE
    if null - counts < effect["low90"] and effect["high90"] < null + counts:
        return REPRODUCED
    return NOT_REPRODUCED if lo >= null + counts or hi <= null - counts else INCONCLUSIVE


def combine(tests: list[dict]) -> str:
    """A figure's verdict: the conjunction of its counted tests (a test with role "direction" is reported beside a
    magnitude and not counted): not reproduced if any is, else no data if any has none, else reproduced if all
    are, else inconclusive. All not applicable: not applicable."""
    verdicts = [t["verdict"] for t in tests if t.get("role") != "direction"]
    if not verdicts:
        return NO_DATA
    if all(x == NOT_APPLICABLE for x in verdicts):
        return NOT_APPLICABLE
    if NOT_REPRODUCED in verdicts:
        return NOT_REPRODUCED
    if NO_DATA in verdicts:
        return NO_DATA
    return REPRODUCED if all(x == REPRODUCED for x in verdicts) else INCONCLUSIVE


def show(v: float, unit: str) -> str:
    if not np.isfinite(v):
        return "n/a"
    if unit == "%":
        return f"{math.expm1(v) * 100:+.1f} %"
    if unit == "ratio":
        return f"{math.exp(v):.3f}"
    if unit == "share":
        return f"{v:.0%}"
    return f"{v:+.3g}{(' ' + unit) if unit else ''}"


def make(name: str, what: str, effect: dict | None, claim: str, null: float, counts: float, unit: str,
         role: str = "claim") -> dict:
    """One test of a figure: the claim, the effect with its interval, n and n_eff, the detectable effect and the
    verdict (`judge`). Values are kept on the test's own scale (log for % and ratio units), shown through `show`.
    role "direction": reported beside a magnitude claim, not counted in the figure's verdict."""
    verdict = judge(effect, claim, null, counts)
    out = {"test": name, "effect": what, "claim": claim, "null": null, "counts": counts, "unit": unit,
           "verdict": verdict, "evidence": "", "role": role}
    if effect is None:
        out.update(estimate=None, low=None, high=None, se=None, detectable=None, method="too few epochs", n=0,
                   n_eff=0)
        out["text"] = f"{name}: this run has too few epochs of {what} for an interval: {verdict}"
        return out
    mde = effect["detectable"]
    out.update({k: effect[k] for k in ("estimate", "low", "high", "low90", "high90", "se", "method", "n", "n_eff")},
               detectable=mde)
    if claim != "equal":
        ref = f"counts beyond {show(counts, unit)}"
    else:
        ref = (f"equal to {show(null, unit)} within " if null else "equal within ") + \
            ("+-" + f"{math.expm1(counts) * 100:.0f} %" if unit in ("%", "ratio") else f"+-{counts:g}")
        ref += f" (90 % CI {show(effect['low90'], unit)} .. {show(effect['high90'], unit)})"
    # The detectable effect in the claimed direction (a fall for "less"; on a log scale -mde is a fall by
    # 1 - exp(-mde)); an equality claim's is a difference either way.
    shown = show(-mde if claim == "less" else mde, "%" if unit == "ratio" else unit)
    if claim == "equal":
        shown = "+-" + shown.lstrip("+")
    out["text"] = (f"{name}: {what} {show(effect['estimate'], unit)} (95 % CI {show(effect['low'], unit)} .. "
                   f"{show(effect['high'], unit)}; n {effect['n']}, n_eff {effect['n_eff']:.0f}; {ref}; detectable "
                   f"{shown} at 80 % power): {verdict}")
    return out


# What the monitor recorded that says what the platform did: per-operation reads and bytes, RocksDB compaction and
# SST figures, page splits (names as epochs.summarize_monitor writes them: "<metric>/op" for counters and rates).
EVIDENCE = [re.compile(p, re.I) for p in (
    r"^db\.Innodb_buffer_pool_reads/op$", r"^db\.Innodb_buffer_pool_read_requests/op$",
    r"^db\.Innodb_pages_read/op$", r"^db\.Innodb_data_read/op$", r"^db\.Rows_read/op$", r"^db\.Bytes_sent/op$",
    r"^db\.Rocksdb_(block_cache_miss|block_cache_data_miss|bytes_read)/op$", r"^db\.Rocksdb_.*compact.*/op$",
    r"^db\..*sst.*$", r"^db\..*split.*$", r"^db\.pg_stat_database\.(blks_read|blks_hit|tup_returned)/op$",
    r"^db\..*(bytesRead|bytes_read|pages_read|docsExamined|keysExamined).*/op$", r"^os\.disk\.read_bytes_ps/op$")]


def _evidence_columns(frames: list[pd.DataFrame]) -> list[str]:
    cols = [c for c in frames[0].columns if all(c in f.columns for f in frames[1:])]
    return [c for c in cols if any(p.search(c) for p in EVIDENCE)]


def _fmt(v: float) -> str:
    return f"{v:.3g}"


def evidence(metrics: dict[str, pd.DataFrame], epochs: list, top: int = 4) -> str:
    """For two modes ({mode: per-epoch metrics}): each evidence metric's median over `epochs` in both, the `top`
    that differ most by ratio. For one mode: its median over the first and the last fifth of `epochs`."""
    frames = [f for f in metrics.values() if f is not None and not f.empty]
    if len(frames) != len(metrics) or not frames:
        return ""
    idx = [float(e) for e in epochs]
    rows = []
    if len(metrics) == 2:
        (ma, fa), (mb, fb) = metrics.items()
        for c in _evidence_columns([fa, fb]):
            a, b = fa[c].reindex(idx).median(), fb[c].reindex(idx).median()
            if np.isfinite(a) and np.isfinite(b) and (a > 0 or b > 0):
                rows.append((abs(math.log((a + 1e-12) / (b + 1e-12))), f"{c} {ma} {_fmt(a)}, {mb} {_fmt(b)}"))
        where = f"median over epochs {int(min(idx))}-{int(max(idx))}" if idx else ""
    else:
        ((mode, f),) = metrics.items()
        fifth = max(1, len(idx) // 5)
        first, last = idx[:fifth], idx[-fifth:]
        for c in _evidence_columns([f]):
            a, b = f[c].reindex(first).median(), f[c].reindex(last).median()
            if np.isfinite(a) and np.isfinite(b) and (a > 0 or b > 0):
                rows.append((abs(math.log((b + 1e-12) / (a + 1e-12))), f"{c} {_fmt(a)} -> {_fmt(b)}"))
        where = f"{mode}, median of the first and the last fifth of the epochs"
    if not rows:
        return ""
    rows.sort(key=lambda r: -r[0])
    return f"monitor ({where}): " + "; ".join(r[1] for r in rows[:top])
