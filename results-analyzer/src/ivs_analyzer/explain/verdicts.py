"""Verdicts a researcher can weigh: each stated test of the figure book as an effect size with a 95 % confidence
interval, the smallest effect the run could have detected (80 % power, alpha 0.05) and a three-way verdict.

Two kinds of interval:
  * a series trend (latency against epoch, against data volume, a change of slope, a share of epochs): a moving
    block bootstrap over epochs (`moving_blocks`: blocks of ceil(n^(1/3)) consecutive epochs, so the
    autocorrelation of neighbouring epochs is kept), of the residuals around the fitted curve with the epochs
    held fixed, the statistic recomputed in each of REPLICATES replicates, percentile interval; seeded (SEED), so
    the same epochs.csv always gives the same report;
  * two modes compared epoch by epoch (`paired`): the per-epoch log ratio, its mean (the log of the geometric mean
    ratio) with the closed-form paired t interval; an equality claim by two one-sided tests (TOST) against
    +-EQUIVALENCE.

The verdict (`judge`) of a claim that an effect is above `null` ("greater"; "less" mirrors it), given the
smallest effect that counts for the claim, `counts`:
  reproduced      the interval lies wholly beyond null, in the claimed direction;
  not reproduced  the interval lies wholly short of `counts` (this run rules out an effect of the size the claim
                  needs, or shows the opposite);
  inconclusive    otherwise: the run is too short or too noisy to tell (the detectable effect says how large an
                  effect it could have seen).
An equality claim is reproduced when the TOST rejects a difference beyond the margin at alpha (the 90 % interval
lies inside +-margin), not reproduced when the 95 % interval lies wholly outside the margin, else inconclusive.

`evidence`: what the monitor recorded for the modes or epochs a "not reproduced" verdict is about (buffer-pool
reads, rows and bytes read per operation, RocksDB compaction and SST figures, page splits), from the run's own
monitor.csv summarized per epoch and mode (epochs.monitor_per_epoch).
"""
from __future__ import annotations

import math
import re
from statistics import NormalDist

import numpy as np
import pandas as pd

ALPHA = 0.05
POWER = 0.80
SEED = 23
REPLICATES = 2000
EQUIVALENCE = 0.05  # equality claims between modes: the geometric mean ratio within 1/1.05 .. 1.05
# (z_{1-alpha/2} + z_{power}) standard errors: the smallest effect a test at ALPHA finds with POWER (2.80).
DETECTABLE_SE = NormalDist().inv_cdf(1 - ALPHA / 2) + NormalDist().inv_cdf(POWER)


def block_length(n: int) -> int:
    return max(1, math.ceil(n ** (1 / 3)))


def moving_blocks(n: int, replicates: int = REPLICATES, seed: int = SEED) -> np.ndarray:
    """(replicates, n) indices: each row n epochs made of blocks of block_length(n) consecutive epochs, each block
    starting at a uniformly drawn epoch (0 .. n - length), cut to n."""
    length = block_length(n)
    rng = np.random.default_rng(seed)
    blocks = math.ceil(n / length)
    starts = rng.integers(0, n - length + 1, size=(replicates, blocks))
    idx = (starts[:, :, None] + np.arange(length)[None, None, :]).reshape(replicates, -1)
    return idx[:, :n]


def _clean(x, y, log: bool) -> tuple[np.ndarray, np.ndarray]:
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = np.isfinite(x) & np.isfinite(y) & ((y > 0) if log else True)
    order = np.argsort(x[ok], kind="stable")
    return x[ok][order], (np.log(y[ok]) if log else y[ok])[order]


def _residual_replicates(fitted: np.ndarray, y: np.ndarray, seed: int) -> np.ndarray:
    """(REPLICATES, n) series: the fitted curve plus moving-block resampled, centred residuals."""
    r = y - fitted
    r = r - r.mean()
    return fitted[None, :] + r[moving_blocks(len(y), seed=seed)]


def _interval(estimate: float, boot: np.ndarray) -> dict:
    boot = boot[np.isfinite(boot)]
    q = np.quantile(boot, [ALPHA / 2, 1 - ALPHA / 2, ALPHA, 1 - ALPHA]) if len(boot) else [np.nan] * 4
    se = float(np.std(boot, ddof=1)) if len(boot) > 1 else float("nan")
    # low90/high90: the interval an equality claim is judged on (the bootstrap form of two one-sided tests)
    return {"estimate": float(estimate), "low": float(q[0]), "high": float(q[1]), "low90": float(q[2]),
            "high90": float(q[3]), "se": se}


def trend(x, y, log: bool = True, seed: int = SEED) -> dict | None:
    """The fitted change of y over the run (x's first to last value) from a straight line in x (of log y when
    `log`: a relative change, e.g. 0.5 = +50 %), with its moving-block bootstrap interval. None below 4 points."""
    x, y = _clean(x, y, log)
    if len(x) < 4 or np.ptp(x) == 0:
        return None
    xc = x - x.mean()
    sxx = float(xc @ xc)
    slope = float(xc @ (y - y.mean())) / sxx
    fitted = y.mean() + slope * xc
    boot = _residual_replicates(fitted, y, seed)
    slopes = (boot - boot.mean(axis=1, keepdims=True)) @ xc / sxx
    span = float(np.ptp(x))
    out = _interval(slope * span, slopes * span)
    out.update(n=len(x), method=f"moving-block bootstrap over {len(x)} epochs (blocks of {block_length(len(x))},"
               f" {REPLICATES} replicates, seed {SEED})", log=log)
    return out


def convexity(x, y, seed: int = SEED) -> dict | None:
    """The quadratic coefficient of y against x, both scaled to [0, 1] by the observed ranges (> 0 superlinear;
    the curve leaves the straight line by |c|/4 of y's range at the middle), with its bootstrap interval."""
    x, y = _clean(x, y, False)
    if len(x) < 5 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    xs, ys = (x - x.min()) / np.ptp(x), (y - y.min()) / np.ptp(y)
    coef = np.polyfit(xs, ys, 2)
    boot = _residual_replicates(np.polyval(coef, xs), ys, seed)
    out = _interval(coef[0], np.polyfit(xs, boot.T, 2)[0])
    out.update(n=len(x), method=f"moving-block bootstrap over {len(x)} points (blocks of {block_length(len(x))},"
               f" {REPLICATES} replicates, seed {SEED})", log=False)
    return out


def hinge(x, y, min_points: int = 4, seed: int = SEED) -> dict | None:
    """A continuous two-line fit y = a + b x + c max(0, x - k): c is the change of slope at the knee k (per epoch,
    in y's units), b the slope before. The knee is the least-squares one among the epochs leaving min_points each
    side, chosen again in every bootstrap replicate, so the interval carries the uncertainty of where it is."""
    x, y = _clean(x, y, False)
    n = len(x)
    if n < 2 * min_points + 1:
        return None
    knees = x[min_points - 1:n - min_points]
    qs, rs = [], []  # per knee: the design's QR factors
    for k in knees:
        q, r = np.linalg.qr(np.column_stack([np.ones(n), x, np.maximum(0.0, x - k)]))
        qs.append(q)
        rs.append(r)
    rs = np.stack(rs)
    flat = np.stack(qs).transpose(1, 0, 2).reshape(n, -1)  # (n, K * 3): every knee's orthonormal basis

    def fit(ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """ys (m, n) -> (knee index, coefficients (m, 3)) of the best knee per row."""
        proj = (ys @ flat).reshape(len(ys), len(knees), 3)  # (m, K, 3)
        best = np.argmax(np.sum(proj ** 2, axis=2), axis=1)  # least residual = most explained
        coef = np.linalg.solve(rs[best], proj[np.arange(len(ys)), best][..., None])[..., 0]
        return best, coef

    best, coef = fit(y[None, :])
    k, (a, b, c) = float(knees[best[0]]), coef[0]
    fitted = a + b * x + c * np.maximum(0.0, x - k)
    _, boot = fit(_residual_replicates(fitted, y, seed))
    out = _interval(c, boot[:, 2])
    out.update(n=n, knee=k, slope_before=float(b), method=f"moving-block bootstrap over {n} epochs (blocks of "
               f"{block_length(n)}, {REPLICATES} replicates, seed {SEED}), knee re-fitted in each", log=False)
    return out


def block_mean(values, seed: int = SEED) -> dict | None:
    """The mean of a per-epoch series (in epoch order; of a 0/1 indicator: the share of epochs where it holds), with
    its moving-block bootstrap interval."""
    z = np.asarray(values, float)
    z = z[np.isfinite(z)]
    if len(z) < 4:
        return None
    out = _interval(z.mean(), z[moving_blocks(len(z), seed=seed)].mean(axis=1))
    out.update(n=len(z), method=f"moving-block bootstrap over {len(z)} epochs (blocks of {block_length(len(z))},"
               f" {REPLICATES} replicates, seed {SEED})", log=False)
    return out


def paired(num: pd.Series, den: pd.Series, margin: float | None = None) -> dict | None:
    """num/den epoch by epoch (Series indexed by epoch): the mean per-epoch log ratio (log of the geometric mean
    ratio) with the paired t interval; the detectable effect from the t test's power at the observed spread; with
    `margin`, the TOST p-value against a geometric mean ratio outside 1/(1+margin) .. 1+margin."""
    from statsmodels.stats.power import TTestPower
    from statsmodels.stats.weightstats import DescrStatsW

    both = num.index.intersection(den.index)
    a, b = num[both].to_numpy(float), den[both].to_numpy(float)
    ok = np.isfinite(a) & np.isfinite(b) & (a > 0) & (b > 0)
    d = np.log(a[ok] / b[ok])
    n = len(d)
    if n < 3:
        return None
    stats = DescrStatsW(d)
    lo, hi = stats.tconfint_mean(ALPHA)
    sd = float(np.std(d, ddof=1))
    out = {"estimate": float(d.mean()), "low": float(lo), "high": float(hi), "se": sd / math.sqrt(n), "n": n,
           "log": True, "method": f"paired t over {n} epochs (per-epoch log ratio)"}
    d_std = TTestPower().solve_power(effect_size=None, nobs=n, alpha=ALPHA, power=POWER, alternative="two-sided")
    out["detectable"] = float(d_std) * sd
    if margin is not None:
        m = math.log1p(margin)
        out["tost_p"] = float(stats.ttost_mean(-m, m)[0]) if sd > 0 else float(abs(d.mean()) >= m)
        lo90, hi90 = stats.tconfint_mean(2 * ALPHA) if sd > 0 else (d.mean(), d.mean())
        out["low90"], out["high90"] = float(lo90), float(hi90)
    return out


def level_shift(y, at: int, width: int = 4) -> dict | None:
    """Mean log y of up to `width` epochs from index `at` minus that of up to `width` before it, with the Welch
    interval. The position is chosen on the data, so the interval is conditional on it."""
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

    y = np.asarray(y, float)
    before, after = y[max(0, at - width):at], y[at:at + width]
    before, after = before[np.isfinite(before) & (before > 0)], after[np.isfinite(after) & (after > 0)]
    if len(before) < 2 or len(after) < 2:
        return None
    la, lb = np.log(after), np.log(before)
    est = float(la.mean() - lb.mean())
    se = math.sqrt(la.var(ddof=1) / len(la) + lb.var(ddof=1) / len(lb))
    lo, hi = (est, est) if se == 0 else CompareMeans(DescrStatsW(la), DescrStatsW(lb)).tconfint_diff(
        alpha=ALPHA, usevar="unequal")
    return {"estimate": est, "low": float(lo), "high": float(hi), "se": se, "n": len(la) + len(lb), "log": True,
            "method": f"Welch t, {len(lb)} epochs before against {len(la)} from the step (position taken from the"
                      " data: conditional interval)"}


def judge(effect: dict | None, claim: str, null: float = 0.0, counts: float = 0.0) -> str:
    """reproduced / not reproduced / inconclusive (see the module doc); claim is greater, less or equal (then
    `counts` is the margin, on the effect's scale)."""
    if effect is None or not np.isfinite(effect["low"]) or not np.isfinite(effect["high"]):
        return "inconclusive"
    lo, hi = effect["low"], effect["high"]
    if claim == "greater":
        return "reproduced" if lo > null else "not reproduced" if hi < counts else "inconclusive"
    if claim == "less":
        return "reproduced" if hi < null else "not reproduced" if lo > counts else "inconclusive"
    inside = effect.get("tost_p", 1.0) < ALPHA if "tost_p" in effect else \
        -counts < effect.get("low90", np.nan) and effect.get("high90", np.nan) < counts
    if inside:
        return "reproduced"
    return "not reproduced" if lo > counts or hi < -counts else "inconclusive"


def combine(verdicts: list[str]) -> str:
    """A figure's claim is the conjunction of its tests."""
    if not verdicts:
        return "inconclusive"
    if "not reproduced" in verdicts:
        return "not reproduced"
    return "reproduced" if all(v == "reproduced" for v in verdicts) else "inconclusive"


def detectable(effect: dict) -> float:
    """The smallest effect this run could have detected: a test at ALPHA finds it with POWER."""
    return effect.get("detectable", DETECTABLE_SE * effect["se"])


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


def make(name: str, what: str, effect: dict | None, claim: str, null: float, counts: float, unit: str) -> dict:
    """One test of a figure: the claim, the effect with its interval, the detectable effect and the verdict.
    Values are kept on the test's own scale (log for % and ratio units) and shown through `show`."""
    verdict = judge(effect, claim, null, counts)
    out = {"test": name, "effect": what, "claim": claim, "null": null, "counts": counts, "unit": unit,
           "verdict": verdict, "evidence": ""}
    if effect is None:
        out.update(estimate=None, low=None, high=None, detectable=None, method="too few epochs", n=0)
        out["text"] = f"{name}: too few epochs for an interval: inconclusive"
        return out
    mde = detectable(effect)
    out.update({k: effect[k] for k in ("estimate", "low", "high", "method", "n")}, detectable=mde)
    if "tost_p" in effect:
        out["tost_p"] = effect["tost_p"]
    if claim != "equal":
        ref = (f"counts from {show(counts, unit)}" if counts != null else "any effect that way counts" if null == 0
               else f"against {show(null, unit)}")
    else:
        ref = "equal within +-" + (f"{math.expm1(counts) * 100:.0f} %" if unit in ("%", "ratio") else f"{counts:g}")
        ref += (f" (TOST p = {effect['tost_p']:.3g})" if "tost_p" in effect else
                f" (90 % CI {show(effect['low90'], unit)} .. {show(effect['high90'], unit)})")
    # The detectable effect in the claimed direction (a fall for "less"; on a log scale -mde is a fall by
    # 1 - exp(-mde)); an equality claim's is a difference either way.
    shown = show(-mde if claim == "less" else mde, "%" if unit == "ratio" else unit)
    if claim == "equal":
        shown = "+-" + shown.lstrip("+")
    out["text"] = (f"{name}: {what} {show(effect['estimate'], unit)} (95 % CI {show(effect['low'], unit)} .. "
                   f"{show(effect['high'], unit)}; {ref}; detectable {shown} at 80 % power): {verdict}")
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
