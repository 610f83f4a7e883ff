"""Known answers for the verdicts and the per-epoch step detector: synthetic 100-epoch experiments shaped like
docs/repro/innodb-lightweight-zipfian (four modes, a smooth common growth of latency, AR(1) noise in log latency per
mode) with a known truth - no effect, main slower than clean from epoch 20, a step in every mode at epoch 50 - run
through the figure book's verdict functions with the book's own parameters (explain/verdicts.py) and through the
per-epoch step detection of changes.json (detect/epoch_steps.changes_in). No charts are drawn.

Used by scripts/bench/verdict-calibration.sh (at least 200 seeds per condition; its table is docs/calibration.md)
and, on fewer seeds, by tests/test_verdicts.py. `naive_slower` is the method the issue replaced (a paired t that
takes the epochs as independent): the suite shows that the calibration check fails on it.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..detect.epoch_steps import DIVERGENCES, MODE_SERIES, changes_in, epoch_params
from ..detect.series import ChangeParams
from . import verdicts as v

MODES = ["main", "clean", "average-baseline", "spread-baseline"]
EPOCHS = 100
LATE = list(range(21, EPOCHS + 1))  # the figure book's epochs after the first fifth
ABOVE = math.log1p(0.05)
STEP = math.log1p(0.25)
MAX_FALSE_RATE = 0.05  # a difference test's false-positive rate under no effect, at most
MAX_WILSON_UPPER = 0.08  # ... with the upper end of its Wilson 95 % interval below this
MAX_STEP_SHARE = 0.10  # the share of no-effect experiments with any false epoch step, at most


def ar1(rng: np.random.Generator, n: int, rho: float, sd: float) -> np.ndarray:
    """A stationary AR(1) series of n points with marginal standard deviation sd."""
    e = np.empty(n)
    e[0] = rng.normal(0.0, sd)
    innov = rng.normal(0.0, sd * math.sqrt(1 - rho * rho), n)
    for i in range(1, n):
        e[i] = rho * e[i - 1] + innov[i]
    return e


def experiment(seed: int, rho: float, sd: float = 0.07, main_effect: float = 0.0, step: float = 0.0,
               step_at: int = 50) -> pd.DataFrame:
    """epochs.csv-like rows: every mode's average latency 100 µs x (1 + 0.05 epoch) (a smooth growth to 6x, as the
    InnoDB zipfian run's +464 %) times exp(its own AR(1) noise); main times exp(main_effect) from epoch 20; every
    mode times exp(step) from step_at. p99 3x the average with its own noise; throughput 1e6 / average."""
    rng = np.random.default_rng(seed)
    ep = np.arange(1, EPOCHS + 1)
    base = np.log(100.0 * (1 + 0.05 * ep)) + np.where(ep >= step_at, step, 0.0)
    rows = []
    for mode in MODES:
        lat = np.exp(base + ar1(rng, EPOCHS, rho, sd) + (np.where(ep >= 20, main_effect, 0.0) if mode == "main"
                                                         else 0.0))
        p99 = 3 * lat * np.exp(ar1(rng, EPOCHS, rho, sd))
        rows.append(pd.DataFrame({"epoch": ep, "mode": mode, "run_lat_avg_us": lat, "run_lat_p99_us": p99,
                                  "run_throughput": 1e6 / lat, "data_bytes": 1e6 * (1 + ep)}))
    return pd.concat(rows, ignore_index=True)


def split(e: pd.DataFrame | dict) -> dict:
    """{(mode, column): the column indexed by epoch} of one experiment, taken apart once (every function here
    accepts either form; the suite's calibration splits each experiment once for all its checks)."""
    if isinstance(e, dict):
        return e
    out = {}
    for mode, rows in e.groupby("mode", sort=False):
        rows = rows.set_index("epoch")
        for column in rows.columns:
            if column != "mode":
                out[(mode, column)] = rows[column].astype(float).sort_index()
    return out


def _col(e: pd.DataFrame | dict, mode: str, column: str = "run_lat_avg_us") -> pd.Series:
    if isinstance(e, dict):
        return e[(mode, column)]
    return e[e["mode"] == mode].set_index("epoch")[column].astype(float).sort_index()


def _main_clean(e: dict) -> dict | None:
    """main/clean over the late epochs (verdicts.paired), fitted once per split experiment and kept in it: the
    Fig 15b direction, the Fig 9 equality and the interval check all judge this one fit."""
    key = ("main/clean", "paired over LATE")
    if key not in e:
        e[key] = v.paired(_col(e, "main").reindex(LATE), _col(e, "clean").reindex(LATE))
    return e[key]


def tests(e: pd.DataFrame | dict) -> dict[str, str]:
    """The figure book's verdicts on these epochs, each test with the book's parameters: the paired differences
    (Figs 5, 10, 15b), the equality (Fig 9 main = clean), the knees at the paper's epochs (Fig 9: 40, flatter;
    Fig 15a: 20, steeper) and the steps at the paper's epochs (Fig 10a: 50 and 70, each mode). main/clean is
    fitted once and judged for both claims, as the figure book would."""
    e = split(e)
    lat = {m: _col(e, m) for m in MODES}
    late = {m: lat[m].reindex(LATE) for m in MODES}
    out = {}
    main_clean = _main_clean(e)
    for num, den, name in (("main", "average-baseline", "main slower than average-baseline (Figs 5, 10)"),
                           ("clean", "average-baseline", "clean slower than average-baseline (Figs 5, 10)"),
                           ("main", "clean", "main slower than clean (Fig 15b direction)")):
        effect = main_clean if (num, den) == ("main", "clean") else v.paired(late[num], late[den])
        out[name] = v.judge(effect, "greater", 0.0, ABOVE)
    out["main = clean (Fig 9), not reproduced"] = v.judge(main_clean, "equal", 0.0, ABOVE)
    x, y = lat["main"].index.to_numpy(float), lat["main"].to_numpy()
    out["flatter after epoch 40 (Fig 9)"] = v.judge(v.hinge(x, y, 40, -1 / 3), "less", 0.0, 0.0)
    out["steeper after epoch 20 (Fig 15a)"] = v.judge(v.hinge(x, y, 20, 0.5), "greater", 0.0, 0.0)
    for at in (50, 70):
        steps = [v.judge(v.level_shift(lat[m].index.to_numpy(float), lat[m].to_numpy(), at), "greater", 0.0, STEP)
                 for m in MODES[:3]]
        out[f"step at epoch {at}, any of 3 modes (Fig 10a)"] = (
            v.REPRODUCED if v.REPRODUCED in steps else v.INCONCLUSIVE)
    return out


def naive_slower(e: pd.DataFrame | dict, margin: float = 0.0) -> bool:
    """The replaced method: main slower than clean by a paired t over the late epochs taken as independent, its
    interval beyond `margin`."""
    e = split(e)
    d = v.log_ratios(_col(e, "main").reindex(LATE), _col(e, "clean").reindex(LATE)).to_numpy()
    half = v.t_quantile(0.975, len(d) - 1) * d.std(ddof=1) / math.sqrt(len(d))
    return bool(d.mean() - half > margin)


def hac_beyond(e: pd.DataFrame | dict, margin: float = 0.0) -> bool:
    """The same question by the verdicts' HAC interval."""
    effect = _main_clean(split(e))
    return bool(effect["low"] > margin)


def epoch_steps(e: pd.DataFrame | dict, columns=tuple(MODE_SERIES)) -> list[dict]:
    """The steps changes.json would list for these epochs: every mode's series of detect/epoch_steps.MODE_SERIES
    (or those of `columns`) and the divergences, through changes_in with the report's parameters (14 series)."""
    e = split(e)
    params = epoch_params(ChangeParams())
    found = []
    for mode in MODES:
        for column, log_scale in ((c, MODE_SERIES[c]) for c in columns):
            steps, *_ = changes_in(_col(e, mode, column), log_scale, params)
            found += [{"mode": mode, "series": column, **s} for s in steps]
    for num, den in DIVERGENCES:
        steps, *_ = changes_in(_col(e, num) / _col(e, den), True, params)
        found += [{"mode": f"{num}/{den}", "series": "run_lat_avg_ratio", **s} for s in steps]
    return found


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score 95 % interval of a proportion k / n."""
    if n == 0:
        return float("nan"), float("nan")
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def run(seeds: int, rhos=(0.3, 0.6, 0.85), sd: float = 0.07, first_seed: int = 0) -> list[dict]:
    """Rows of the calibration table: per condition and test, the share of seeds where the test said reproduced
    (under no effect: a false positive) with its Wilson interval, n = seeds; the share of no-effect experiments
    with any epoch step; the naive and the HAC method's margin-0 rates; the power rows."""
    rows = []

    def add(condition, test, hits, n=seeds, kind="false positive"):
        lo, hi = wilson(hits, n)
        rows.append({"condition": condition, "test": test, "kind": kind, "n": n, "hits": hits, "rate": hits / n,
                     "wilson_low": lo, "wilson_high": hi})

    for rho in rhos:
        cond = f"no effect, AR(1) rho {rho}, sd {sd}"
        counts: dict[str, int] = {}
        any_step = naive = hac0 = 0
        for s in range(first_seed, first_seed + seeds):
            e = split(experiment(s, rho, sd))
            for name, verdict in tests(e).items():
                bad = verdict == v.NOT_REPRODUCED if "not reproduced" in name else verdict == v.REPRODUCED
                counts[name] = counts.get(name, 0) + int(bad)
            any_step += int(bool(epoch_steps(e)))
            naive += int(naive_slower(e))
            hac0 += int(hac_beyond(e))
        for name, k in counts.items():
            add(cond, name, k)
        add(cond, "main/clean interval above 1 (no margin), HAC", hac0, kind="interval")
        add(cond, "main/clean interval above 1 (no margin), paired t (independent epochs)", naive, kind="interval")
        add(cond, "any false epoch step (changes.json, 14 series)", any_step, kind="epoch steps")
    for effect in (0.10, 0.20):
        for rho in (0.6,):
            found = sum(tests(experiment(s, rho, sd, main_effect=math.log1p(effect)))[
                "main slower than clean (Fig 15b direction)"] == v.REPRODUCED
                for s in range(first_seed, first_seed + seeds))
            add(f"main {effect:.0%} slower than clean from epoch 20, rho {rho}, sd {sd}",
                "main slower than clean (Fig 15b direction)", found, kind="power")
    hit = steps_near = 0
    for s in range(first_seed, first_seed + seeds):
        e = split(experiment(s, 0.6, sd, step=math.log1p(0.4)))
        hit += int(tests(e)["step at epoch 50, any of 3 modes (Fig 10a)"] == v.REPRODUCED)
        steps_near += int(any(abs(x["epoch"] - 50) <= 2 for x in epoch_steps(e)))
    add(f"+40 % step in every mode at epoch 50, rho 0.6, sd {sd}", "step at epoch 50 (Fig 10a)", hit, kind="power")
    add(f"+40 % step in every mode at epoch 50, rho 0.6, sd {sd}", "epoch step found within 2 epochs of 50",
        steps_near, kind="power")
    return rows


def failures(rows: list[dict]) -> list[str]:
    """What breaks the calibration: a false-positive rate above MAX_FALSE_RATE or its Wilson upper end at
    MAX_WILSON_UPPER or above (checked at 200 seeds or more; below that the rate alone), a margin-0 interval
    rate above MAX_FALSE_RATE, a false-epoch-step share above MAX_STEP_SHARE."""
    out = []
    for r in rows:
        if r["kind"] in ("false positive", "interval"):
            if r["rate"] > MAX_FALSE_RATE or (r["n"] >= 200 and r["wilson_high"] >= MAX_WILSON_UPPER):
                out.append(f"{r['condition']}: {r['test']}: {r['hits']}/{r['n']}")
        elif r["kind"] == "epoch steps" and r["rate"] > MAX_STEP_SHARE:
            out.append(f"{r['condition']}: {r['test']}: {r['hits']}/{r['n']}")
    return out


def table(rows: list[dict]) -> str:
    """The rows as a markdown table."""
    lines = ["| condition | test | kind | n | reproduced / found | rate | Wilson 95 % |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['condition']} | {r['test']} | {r['kind']} | {r['n']} | {r['hits']} | {r['rate']:.1%} |"
                     f" {r['wilson_low']:.1%} .. {r['wilson_high']:.1%} |")
    return "\n".join(lines) + "\n"
