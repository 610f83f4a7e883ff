"""The stated tests of the figure book: each takes this run's per-epoch numbers and says whether a claim of the
YCSB-IVS paper holds, with the numbers that decided it. Pure functions over arrays, unit-tested by hand."""
from __future__ import annotations

import numpy as np


def ratio_holds(num: np.ndarray, den: np.ndarray, above: float, share: float = 0.5) -> tuple[bool, float]:
    """True when num/den > above in more than `share` of the epochs where both exist; returns the share."""
    num, den = np.asarray(num, float), np.asarray(den, float)
    ok = np.isfinite(num) & np.isfinite(den) & (den > 0)
    if not ok.any():
        return False, float("nan")
    frac = float(np.mean(num[ok] / den[ok] > above))
    return frac > share, frac


def within(values: np.ndarray, reference: float, tolerance: float) -> float:
    """The share of values within ±tolerance (relative) of reference."""
    v = np.asarray(values, float)
    v = v[np.isfinite(v)]
    if len(v) == 0 or not reference:
        return float("nan")
    return float(np.mean(np.abs(v / reference - 1) <= tolerance))


def linear_fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """slope, intercept and Pearson r of y against x (nan when fewer than 3 points)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if len(x) < 3 or np.ptp(x) == 0:
        return float("nan"), float("nan"), float("nan")
    slope, intercept = np.polyfit(x, y, 1)
    r = float(np.corrcoef(x, y)[0, 1]) if np.ptp(y) > 0 else 0.0
    return float(slope), float(intercept), r


def jumps(y: np.ndarray, relative: float = 0.25) -> list[int]:
    """Indices i where y steps by more than `relative` from y[i-1] and stays there (y[i+1] is nearer y[i] than
    y[i-1]): a level change, not a one-epoch outlier. The last point counts when it is the step."""
    y = np.asarray(y, float)
    out = []
    for i in range(1, len(y)):
        a, b = y[i - 1], y[i]
        if not (np.isfinite(a) and np.isfinite(b)) or a <= 0:
            continue
        if abs(b / a - 1) <= relative:
            continue
        if i + 1 < len(y) and np.isfinite(y[i + 1]) and abs(y[i + 1] - b) >= abs(y[i + 1] - a):
            continue
        # the level before must have held too: a return from a one-epoch outlier is no step
        if i >= 2 and np.isfinite(y[i - 2]) and abs(y[i - 2] - a) >= abs(y[i - 2] - b):
            continue
        out.append(i)
    return out


def slope_change(x: np.ndarray, y: np.ndarray, min_points: int = 4, factor: float = 1.5) -> dict | None:
    """One breakpoint of a continuous-looking two-line fit: the split (at least min_points each side) with the
    least squared error. A slope change is reported when the two slopes differ by `factor` (or change sign),
    the split halves the error of one line, and the lines meet at the split within 10 % of
    y's range (no jump)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    n = len(x)
    if n < 2 * min_points:
        return None

    def sse(xs, ys):
        c = np.polyfit(xs, ys, 1)
        return float(np.sum((np.polyval(c, xs) - ys) ** 2)), c

    one, _ = sse(x, y)
    best = None
    for k in range(min_points, n - min_points + 1):
        e1, c1 = sse(x[:k], y[:k])
        e2, c2 = sse(x[k:], y[k:])
        if best is None or e1 + e2 < best[0]:
            best = (e1 + e2, k, c1, c2)
    err, k, c1, c2 = best
    at = (x[k - 1] + x[k]) / 2
    left, right = np.polyval(c1, at), np.polyval(c2, at)
    scale = max(float(np.ptp(y)), 1e-12)
    s1, s2 = float(c1[0]), float(c2[0])
    differ = (s1 * s2 < 0) or (min(abs(s1), abs(s2)) > 0 and max(abs(s1), abs(s2)) / min(abs(s1), abs(s2)) >= factor) \
        or (min(abs(s1), abs(s2)) == 0 and max(abs(s1), abs(s2)) > 0)
    continuous = abs(left - right) / scale <= 0.10
    better = one > 0 and err <= 0.5 * one
    if differ and continuous and better:
        return {"at": float(x[k]), "slope_before": s1, "slope_after": s2}
    return None


def convexity(x: np.ndarray, y: np.ndarray) -> float:
    """The quadratic coefficient of y against x scaled to y's range over x's range: > 0 superlinear."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if len(x) < 4 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    xs = (x - x.min()) / np.ptp(x)
    ys = (y - y.min()) / np.ptp(y)
    return float(np.polyfit(xs, ys, 2)[0])


def slope_words(found: dict | None) -> str:
    """A slope change found by slope_change, in words."""
    if not found:
        return "no slope change found"
    return (f"slope change at epoch {found['at']:g}: {found['slope_before']:.1f} -> {found['slope_after']:.1f}"
            " µs per epoch")
