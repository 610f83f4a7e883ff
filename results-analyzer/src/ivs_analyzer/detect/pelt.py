"""PELT for a change in mean (l2 cost) or in a line (linear cost), vectorised with numpy.

ruptures' Pelt evaluates its cost one segment at a time in Python (a variance per candidate segment): on a
900-window phase that is ~400,000 calls per series, about a minute for a 1-hour run. This is the same
recursion (Killick et al. 2012, as ruptures implements it: candidate starts are 0 and every index ≥ min_size,
each new end admits the start end - min_size, pruning keeps a start while its cost ≤ the best + penalty) with
the l2 cost from cumulative sums, all candidate starts of one end at once. tests/test_pelt.py checks that it
returns ruptures' breakpoints. `pelt_linear` does the same for ruptures' ``linear`` cost with the regressors
[1, index] (one line per segment, the per-epoch series): the residual sum of squares of a segment's line from
cumulative sums of x, x², y, xy, y², instead of one least-squares solve per candidate segment.
"""
from __future__ import annotations

import numpy as np


def _cum(v: np.ndarray) -> np.ndarray:
    return np.concatenate([[0.0], np.cumsum(v)])


def pelt_l2(signal: np.ndarray, pen: float, min_size: int) -> list[int]:
    """Breakpoints (segment ends, the last one = len(signal)) minimising the sum of squared deviations from
    each segment's mean plus `pen` per segment, segments at least `min_size` long."""
    x = np.asarray(signal, dtype=float).ravel()
    x = x - x.mean()  # costs do not change; the cumulative sums stay small
    cs, cs2 = _cum(x), _cum(x * x)

    def cost(starts: np.ndarray, end: int) -> np.ndarray:
        sums = cs[end] - cs[starts]
        return (cs2[end] - cs2[starts]) - sums * sums / (end - starts)
    return _pelt(len(x), cost, pen, min_size)


def pelt_linear(signal: np.ndarray, pen: float, min_size: int) -> list[int]:
    """As pelt_l2 with the residual sum of squares of each segment's least-squares line against the index."""
    y = np.asarray(signal, dtype=float).ravel()
    n = len(y)
    x = np.arange(n, dtype=float) - (n - 1) / 2.0
    y = y - y.mean()
    c1, cx, cxx, cy, cxy, cyy = _cum(np.ones(n)), _cum(x), _cum(x * x), _cum(y), _cum(x * y), _cum(y * y)

    def cost(starts: np.ndarray, end: int) -> np.ndarray:
        m, sx, sxx = c1[end] - c1[starts], cx[end] - cx[starts], cxx[end] - cxx[starts]
        sy, sxy, syy = cy[end] - cy[starts], cxy[end] - cxy[starts], cyy[end] - cyy[starts]
        det = m * sxx - sx * sx
        # explained sum of squares of the fit on [1, x]: b' M^-1 b with M = [[m, sx], [sx, sxx]], b = [sy, sxy]
        explained = (sxx * sy * sy - 2 * sx * sy * sxy + m * sxy * sxy) / np.where(det > 0, det, np.inf)
        return np.maximum(syy - np.where(det > 0, explained, sy * sy / m), 0.0)
    return _pelt(n, cost, pen, min_size)


def _pelt(n: int, cost, pen: float, min_size: int) -> list[int]:
    best = np.full(n + 1, np.inf)
    best[0] = 0.0
    last = np.zeros(n + 1, dtype=int)
    admissible = np.zeros(0, dtype=int)
    for end in list(range(min_size, n)) + [n]:
        admissible = np.append(admissible, end - min_size)
        admissible = admissible[(admissible == 0) | (admissible >= min_size)]
        total = best[admissible] + cost(admissible, end) + pen
        k = int(np.argmin(total))
        best[end], last[end] = total[k], admissible[k]
        admissible = admissible[total <= best[end] + pen]
    bkps, t = [], n
    while t > 0:
        bkps.append(t)
        t = last[t]
    return sorted(bkps)
