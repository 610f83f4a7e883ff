"""Which monitor metrics explain a step in a client series: causes first, effects set apart.

A DBA reading "what moved when throughput fell" wants the cause (lock waits, a full buffer pool, another
process on the CPU), not the long list of things that fell because fewer operations ran. Three rules:

* **Own break, not a level difference.** Over the context windows either side of the step, each metric is fitted
  with one line plus a step at the change (``a + b·x + c·[x ≥ t]``, least squares); its score is ``|c|`` in
  units of the fit's residual noise (floored at 1% of its level). A metric that grows on its own trend (cached
  memory, a history counter) has ``c ≈ 0`` however different its means either side are, so it is never
  offered as a cause; a monotone metric whose jump at the step is no bigger than its usual increments is
  left out explicitly too. Scores under ``min_score`` (3 noise units) are not listed at all.
* **Follows throughput.** When throughput moved (by ``min_relative_change`` or more) a metric whose amount per
  operation stays constant across the step moved only because the operations did: write/read volumes, pages
  written, Com_*, bytes sent, the server's CPU, the history list (a backlog proportional to the write rate).
  It goes to ``follows``. Constant per operation means: the side with less throughput is predicted from the
  other side times the throughput ratio, and that prediction explains ``EXPLAINED`` (80%) of the metric's
  move; or the per-operation amounts either side are within 10%. Predicting the low side from the high one
  keeps it meaningful when throughput falls to almost zero. Idle CPU is turned into busy CPU first.
  A metric with a baseline of its own (the monitor's own queries send rows every second, background work
  writes without clients) is not constant per operation, so with the client's throughput per window it also
  follows when a line ``a + b·throughput`` with ``a ≥ 0`` and ``b > 0`` (a baseline plus an amount per
  operation), fitted over the context windows, predicts ``EXPLAINED`` of its move from throughput's move.
  A metric that rises as throughput falls (lock waits, stalls, misses) has ``b < 0`` and never follows.
* **The operations' own count.** When throughput did not move (a p99 step alone), a metric that moved by less
  than ``min_relative_change`` with its amount per operation within 10% either side (rows read per read)
  counts the operations: it follows too (``same_per_operation``).
* **CPU time that moves with throughput is the work done.** Host, server or client CPU shares (busy for idle)
  that fall as throughput falls, or rise as it rises, follow it whatever their proportion (other processes
  keep their share); CPU that rises while throughput falls (a hog) stays a candidate cause.
* **Sessions are the pile-up, not the reason.** Metrics that count what the server's clients have there -
  sessions, running threads, connections and their high-water mark, open tables, the server's threads -
  rise whenever operations take longer (blocked sessions stay, arrivals keep coming) or a session arrives;
  they say that work piled up, not why. They are ranked after every other listed metric, so a wait counter
  that broke at the same moment (row-lock waits during a held lock) leads and the session counts join it.
* **Too small to matter.** A database counter whose move is less than 1 event per 100 operations (per second,
  against the side with fewer operations) is not listed: one table opened in a second of 1,000 operations
  cannot move their p99 (the slowest 1 in 100) or their throughput. A rule on the counter's size relative to
  the operations, not a list of names (``trivial_amount``).
* **One place per signal.** Going down the ranking, a metric that correlates window by window with one
  already listed (``|r| ≥ same_signal_r``) joins that one's ``same`` list.
"""
from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pandas as pd

EXPLAINED = 0.8
# Shares of CPU time (host, database server, client): busy CPU moving the same way as throughput is the work
# done, an effect; moving against it (a hog, a spin) stays a candidate cause.
CPU_TIME = re.compile(r"os\.cpu\.\w+_pct|proc\.cpu_pct|client\.cpu_pct")
PER_OP_TOLERANCE = math.log(1.1)
TREND_JUMP_MULTIPLE = 3.0
# A database counter that moved by fewer events than this per operation is no cause (trivial_amount).
MIN_EVENTS_PER_OP = 0.01
# Counts of what the server's clients have there (see "Sessions are the pile-up" above), by name after the
# "db." / "proc." prefix: MariaDB/MySQL, PostgreSQL (numbackends) and MongoDB (connections.*, globalLock
# active clients) status names, and the server process's thread count.
SESSION_COUNTS = ("Threads_running", "Threads_connected", "Max_used_connections", "Open_tables",
                  "pg_stat_database.numbackends", "connections.current", "globalLock.activeClients.total",
                  "globalLock.activeClients.readers", "globalLock.activeClients.writers")


def is_session_count(name: str) -> bool:
    """True for a metric that counts sessions, threads or open tables (a pile-up, not a reason)."""
    return name == "proc.threads" or name.split(".", 1)[-1] in SESSION_COUNTS


def follows_with_baseline(values: np.ndarray, rate: np.ndarray, before: float, after: float,
                          tput: tuple[float, float]) -> bool:
    """True when a line a + b·rate (a >= 0, b > 0), fitted over the windows with both values, predicts
    EXPLAINED of the metric's move (after - before) from the throughput's move (tput after - before)."""
    ok = ~np.isnan(values) & ~np.isnan(rate)
    if ok.sum() < 5 or np.std(rate[ok]) == 0:
        return False
    b, a = np.polyfit(rate[ok], values[ok], 1)
    move = after - before
    scale = max(abs(before), abs(after))
    if b <= 0 or a < -0.05 * scale or move == 0:
        return False
    return abs(move - b * (tput[1] - tput[0])) <= (1.0 - EXPLAINED) * abs(move)


def step_fit(x: np.ndarray, values: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(step coefficient c, residual sigma) per column of `values` (rows = windows, no NaN), for the model
    a + b·x + c·after."""
    n = len(x)
    design = np.column_stack([np.ones(n), x - x.mean(), after.astype(float)])
    coef, *_ = np.linalg.lstsq(design, values, rcond=None)
    resid = values - design @ coef
    sigma = np.sqrt((resid ** 2).sum(axis=0) / max(n - 3, 1))
    return coef[2], sigma


def on_own_trend(values: np.ndarray, after: np.ndarray) -> bool:
    """A monotone series whose change across the step is no bigger than its usual increments."""
    ok = ~np.isnan(values)
    v, a = values[ok], after[ok]
    if len(v) < 4 or not a.any() or a.all():
        return False
    d = np.diff(v)
    if not ((d >= 0).all() or (d <= 0).all()):
        return False
    k = int(np.argmax(a)) - 1  # the difference across the step
    others = np.abs(np.delete(d, k)) if 0 <= k < len(d) else np.abs(d)
    jump = abs(d[k]) if 0 <= k < len(d) else 0.0
    return jump <= TREND_JUMP_MULTIPLE * float(np.median(others))


def trivial_amount(name: str, before: float, after: float, tput: tuple[float, float] | None) -> bool:
    """True for a database counter whose move is too small for the operations to feel: fewer than
    MIN_EVENTS_PER_OP per operation of the side with fewer operations per second (one table opened in a second
    of 1,000 operations). Whatever a counter counts, what touched fewer than 1 in 100 operations cannot move
    their p99 or their throughput. Only for the server's own metrics (``db.``), whose values count events or
    their sizes; CPU shares and bytes of the host and the processes have units of their own."""
    if tput is None or not name.startswith("db.") or math.isnan(before) or math.isnan(after):
        return False
    return abs(after - before) < MIN_EVENTS_PER_OP * max(min(tput), 1.0)


def same_per_operation(before: float, after: float, tput: tuple[float, float] | None,
                       min_relative_change: float) -> bool:
    """True when throughput did not move (less than min_relative_change), the metric moved by less than that
    too, and its amount per operation is within 10% either side: it counts the operations (rows read per read),
    whose small wobble is no cause of a p99 change that throughput did not share."""
    if tput is None or _throughput_moved(tput, min_relative_change):
        return False
    sb, sa = tput
    if not (before > 0 and after > 0 and sb > 0 and sa > 0):
        return False
    if abs(after - before) >= min_relative_change * max(before, after):
        return False
    return abs(math.log((after / sa) / (before / sb))) < PER_OP_TOLERANCE


def follows_throughput(name: str, before: float, after: float, tput: tuple[float, float] | None,
                       min_relative_change: float) -> bool:
    """True when the metric's move is the throughput's move at a constant amount per operation."""
    if tput is None or not _throughput_moved(tput, min_relative_change):
        return False
    sb, sa = tput
    before, after = _busy(name, before), _busy(name, after)
    move = after - before
    if move == 0:
        return False
    if CPU_TIME.fullmatch(name) and (move > 0) == (sa > sb):
        # CPU time that falls as throughput falls (or rises with it) is the work done, not what limited it.
        return True
    # predict the low-throughput side from the high one (meaningful when throughput falls to ~0)
    if sb >= sa:
        predicted, actual = before * sa / sb, after
    else:
        predicted, actual = after * sb / sa, before
    if abs(actual - predicted) <= (1.0 - EXPLAINED) * abs(move):
        return True
    if before > 0 and after > 0 and sb > 0 and sa > 0:
        return abs(math.log((after / sa) / (before / sb))) < PER_OP_TOLERANCE
    return False


def same_signal(a: np.ndarray, b: np.ndarray, min_r: float, signed: bool = False) -> bool:
    """True when two metrics move together window by window (|Pearson r| >= min_r over the windows both
    have). Fewer than 4 common windows, or a metric constant there, prove nothing: False."""
    ok = ~np.isnan(a) & ~np.isnan(b)
    if ok.sum() < 4:
        return False
    x, y = a[ok], b[ok]
    if np.std(x) == 0 or np.std(y) == 0:
        return False
    r = float(np.corrcoef(x, y)[0, 1])
    return (r if signed else abs(r)) >= min_r


def _shifted(after: np.ndarray, k: int) -> np.ndarray:
    """The after-mask with its first row moved k rows (k = -1: one row earlier; +1: one row later)."""
    first = int(np.argmax(after))
    out = np.zeros_like(after)
    out[min(max(first + k, 1), len(after) - 1):] = True
    return out


def _scores_near(x: np.ndarray, frame: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """As _scores, with each metric's break allowed one row either side of the client's change: the change
    point of a noisy client series and a monitor interval can each be a window off, and a metric that broke
    one window later is the same story, not noise. Per column the shift with the largest |c|/sigma wins. Used
    for the per-operation view only, where the bar is also higher (the amount per operation must have moved
    far more than the throughput did), so the extra freedom does not promote noise."""
    best_c, best_s = _scores(x, frame, after)
    with np.errstate(divide="ignore", invalid="ignore"):
        best = np.nan_to_num(np.abs(best_c) / best_s, nan=-1.0)
    for k in (-1, 1):
        shifted = _shifted(after, k)
        if shifted.sum() < 2 or (~shifted).sum() < 2 or (shifted == after).all():
            continue
        c, sd = _scores(x, frame, shifted)
        with np.errstate(divide="ignore", invalid="ignore"):
            score = np.nan_to_num(np.abs(c) / sd, nan=-1.0)
        better = score > best
        best_c, best_s, best = np.where(better, c, best_c), np.where(better, sd, best_s), np.maximum(best, score)
    return best_c, best_s


def _scores(x: np.ndarray, frame: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Step coefficients and residual sigmas for every column; columns with gaps are fitted on their rows."""
    m = frame.shape[1]
    c, sigma = np.full(m, np.nan), np.full(m, np.nan)
    full = ~np.isnan(frame).any(axis=0)
    if full.any():
        c[full], sigma[full] = step_fit(x, frame[:, full], after)
    for j in np.flatnonzero(~full):
        ok = ~np.isnan(frame[:, j])
        if ok.sum() >= 5 and after[ok].sum() >= 2 and (~after[ok]).sum() >= 2:
            cj, sj = step_fit(x[ok], frame[ok, j:j + 1], after[ok])
            c[j], sigma[j] = cj[0], sj[0]
    return c, sigma


def _per_op_scores(x: np.ndarray, frame: np.ndarray, is_after: np.ndarray, rate: np.ndarray) -> np.ndarray:
    """Step scores of every metric per client operation (metric / throughput, over the windows with
    throughput), for metrics whose amount per operation changed by far more than the throughput did (three
    times its ratio): a gauge that merely stays put while throughput falls changes per operation by exactly
    the throughput's ratio and scores 0 here. 0 where that does not hold."""
    ok = rate > 0
    out = np.zeros(frame.shape[1])
    if ok.sum() < 5 or (ok & is_after).sum() < 2 or (ok & ~is_after).sum() < 2:
        return out
    per_op = frame[ok] / rate[ok][:, None]
    a = is_after[ok]
    rb, ra = float(np.mean(rate[ok][~a])), float(np.mean(rate[ok][a]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=RuntimeWarning)
        mb, ma = np.nanmean(per_op[~a], axis=0), np.nanmean(per_op[a], axis=0)
        tiny = 1e-6 * np.maximum(np.abs(mb), np.abs(ma)) + 1e-12
        moved = np.abs(np.log((np.abs(ma) + tiny) / (np.abs(mb) + tiny)))
    c, sigma = _scores_near(x[ok], per_op, a)
    floor = np.maximum(1e-12, 0.01 * np.maximum(np.abs(mb), np.abs(ma)))
    score = np.nan_to_num(np.abs(c) / np.maximum(sigma, floor))
    far = np.nan_to_num(moved, nan=0.0) >= abs(math.log(ra / rb)) + math.log(3.0)
    out[far] = score[far]
    return out


def rank_window_metrics(metrics: pd.DataFrame, before: np.ndarray, after: np.ndarray, params,
                        tput: tuple[float, float] | None,
                        rate: np.ndarray | None = None, min_rows: int = 2) -> tuple[list[dict], list[str]]:
    """(listed metrics, names that follow throughput) for a step between the `before` and `after` rows of
    `metrics` (boolean masks over its rows); `tput` = client throughput means over the same windows.

    `rate` (optional): the client's throughput per row of `metrics`. A counter whose amount per operation
    jumps (buffer pool reads: none per query, then one) while the operations themselves vary a lot (a busy
    machine) has a noisy level after the step, and its own break can fall under ``min_score``; per operation
    the break is clear. Such a metric is listed when it moved in the step's direction, its amount per
    operation changed by far more than the throughput did, and its break per operation reaches ``min_score``;
    its score is then the per-operation one.

    `min_rows`: monitor rows a metric needs on each side (2; 1 for a one-window episode, whose break is then
    that row against the line through the rows before it)."""
    context = before | after
    if context.sum() < 5 or not before.any() or not after.any():
        return [], []
    frame = metrics.to_numpy(dtype=float)[context]
    is_after = after[context]
    x = metrics.index.to_numpy(dtype=float)[context]
    x = (x - x[0]) / max(float(np.median(np.diff(x))) if len(x) > 1 else 1.0, 1e-9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=RuntimeWarning)  # all-empty columns give NaN, skipped below
        mb = np.nanmean(frame[~is_after], axis=0)
        ma = np.nanmean(frame[is_after], axis=0)
    nb = (~np.isnan(frame[~is_after])).sum(axis=0)
    na = (~np.isnan(frame[is_after])).sum(axis=0)
    c, sigma = _scores(x, frame, is_after)
    floor = np.maximum(1e-9, 0.01 * np.maximum(np.abs(mb), np.abs(ma)))
    score = np.abs(c) / np.maximum(sigma, floor)
    same_direction = np.sign(c) == np.sign(ma - mb)
    candidates = (nb >= 2) & (na >= min_rows) & (score >= params.min_score) & same_direction
    if rate is not None:
        per_op = _per_op_scores(x, frame, is_after, np.asarray(rate, dtype=float)[context])
        by_op = (nb >= 2) & (na >= min_rows) & same_direction & (per_op >= params.min_score)
        score = np.where(by_op & ~candidates, per_op, score)
        candidates = candidates | by_op
    ranked = []
    for j in np.flatnonzero(np.nan_to_num(candidates, nan=0).astype(bool)):
        if on_own_trend(frame[:, j], is_after):
            continue
        if trivial_amount(str(metrics.columns[j]), float(mb[j]), float(ma[j]), tput):
            continue
        entry = {"name": str(metrics.columns[j]), "score": round(float(score[j]), 4),
                 "before": float(mb[j]), "after": float(ma[j]), "same": []}
        ranked.append((entry, frame[:, j]))
    ranked.sort(key=lambda m: (is_session_count(m[0]["name"]), -m[0]["score"], m[0]["name"]))
    listed: list[tuple[dict, np.ndarray]] = []
    follows: list[str] = []
    context_rate = np.asarray(rate, dtype=float)[context] if rate is not None else None
    for entry, values in ranked:
        if follows_throughput(entry["name"], entry["before"], entry["after"], tput, params.min_relative_change) \
                or same_per_operation(entry["before"], entry["after"], tput, params.min_relative_change) \
                or (context_rate is not None and tput is not None
                    and _throughput_moved(tput, params.min_relative_change)
                    and follows_with_baseline(_busy(entry["name"], values), context_rate,
                                              _busy(entry["name"], entry["before"]),
                                              _busy(entry["name"], entry["after"]), tput)):
            follows.append(entry["name"])
            continue
        leader = next((le for le, lv in listed if same_signal(values, lv, params.same_signal_r)), None)
        if leader is not None:
            leader["same"].append(entry["name"])
        elif len(listed) < params.top_metrics:
            listed.append((entry, values))
        # else: a distinct signal below the top N is not reported, but copies of the listed ones further
        # down still join their lists, so the loop goes on.
    return [entry for entry, _ in listed], follows


def _throughput_moved(tput: tuple[float, float], min_relative_change: float) -> bool:
    """True when throughput moved by at least min_relative_change of its larger side."""
    sb, sa = tput
    return max(sb, sa) > 0 and abs(sa - sb) >= min_relative_change * max(sb, sa)


def _busy(name: str, values):
    """Idle CPU as busy CPU (idle falls as the work grows), other metrics as they are; a number or an array."""
    return 100.0 - values if name.endswith("idle_pct") else values
