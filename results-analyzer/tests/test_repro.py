"""The committed full-length runs (docs/repro/<setting>/, compact folders) as regression fixtures: the figure book
on them gives the committed verdicts; two figures' effects and intervals are recomputed here from epochs.csv alone,
independently of the figure book; and swapping two modes' labels flips a verdict."""
import json
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats

from ivs_analyzer import cli
from ivs_analyzer.load.results import COMPACT_FILE, MONITOR_EPOCHS_FILE
from ivs_analyzer.report import compact

REPRO = Path(__file__).resolve().parents[2] / "docs" / "repro"
SETTINGS = sorted(p for p in REPRO.iterdir() if (p / "compact.json").is_file() or (p / compact.TRIALS_FILE).is_file()
                  ) if REPRO.is_dir() else []


def _trial_one(setting: Path) -> Path:
    """The folder holding the experiment's epochs.csv: the setting's own, or a trials setting's trial 1."""
    return setting / "trial-1" if (setting / compact.TRIALS_FILE).is_file() else setting


def test_there_are_committed_runs():
    assert SETTINGS, f"no committed compact run under {REPRO}"


def _book(folder: Path, out: Path) -> list[dict]:
    assert cli.main(["report", str(folder), "-o", str(out)]) == 0
    return json.loads((out / "figures.json").read_text())


def _copy(setting: Path, tmp: Path) -> Path:
    """The compact folder's inputs only (not its committed outputs)."""
    dst = tmp / setting.name
    dst.mkdir(parents=True)
    if (setting / compact.TRIALS_FILE).is_file():  # a trials setting: trials.csv and each trial's inputs
        shutil.copyfile(setting / compact.TRIALS_FILE, dst / compact.TRIALS_FILE)
        for trial in sorted(setting.glob("trial-*")):
            _copy(trial, dst)
        return dst
    for name in compact.COPIED + [MONITOR_EPOCHS_FILE, COMPACT_FILE]:
        if (setting / name).is_file():
            shutil.copyfile(setting / name, dst / name)
    return dst


@pytest.mark.parametrize("setting", SETTINGS, ids=[s.name for s in SETTINGS])
def test_the_figure_book_gives_the_committed_verdicts(setting, tmp_path):
    committed = json.loads((setting / "figures.json").read_text())
    now = _book(_copy(setting, tmp_path), tmp_path / "out")
    assert [f["figure"] for f in now] == [f["figure"] for f in committed]
    for old, new in zip(committed, now):
        assert new["verdict"] == old["verdict"], f"Fig {old['figure']}: {old['verdict']} -> {new['verdict']}"
        for a, b in zip(old.get("tests") or [], new.get("tests") or []):
            assert (b["test"], b["verdict"]) == (a["test"], a["verdict"])
            for k in ("estimate", "low", "high"):
                if a.get(k) is not None:
                    assert b[k] == pytest.approx(a[k], rel=1e-9, abs=1e-12), (old["figure"], a["test"], k)


def _late_log_ratios(epochs: pd.DataFrame, num: str, den: str) -> np.ndarray:
    """log(num/den) of run_lat_avg_us per epoch over the epochs after the first fifth (the figure book's
    'late' epochs, restated here from the paper's wording: after the early epochs)."""
    all_epochs = sorted(epochs["epoch"].unique())
    late = all_epochs[len(all_epochs) // 5:]
    a = epochs[epochs["mode"] == num].set_index("epoch")["run_lat_avg_us"].reindex(late)
    b = epochs[epochs["mode"] == den].set_index("epoch")["run_lat_avg_us"].reindex(late)
    keep = a.notna() & b.notna() & (a > 0) & (b > 0)
    return np.log(a[keep].to_numpy() / b[keep].to_numpy())


def _paired_t(d: np.ndarray) -> tuple[float, float, float, float]:
    """Mean, 95 % t interval and the smallest effect a two-sided one-sample t test detects with 80 % power."""
    n, mean, sd = len(d), float(d.mean()), float(d.std(ddof=1))
    half = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    crit = stats.t.ppf(0.975, n - 1)

    def power(es):
        nc = es * math.sqrt(n)
        lower = stats.nct.cdf(-crit, n - 1, nc)  # NaN far in the tail, where it is 0
        return stats.nct.sf(crit, n - 1, nc) + (0.0 if math.isnan(lower) else lower) - 0.8

    return mean, mean - half, mean + half, optimize.brentq(power, 1e-6, 10 / math.sqrt(n)) * sd


def _test(book: list[dict], figure: int, name: str) -> dict:
    fig = next(f for f in book if f["figure"] == figure)
    return next(t for t in fig["tests"] if t["test"] == name)


@pytest.mark.parametrize("setting", SETTINGS, ids=[s.name for s in SETTINGS])
def test_two_figures_effects_and_intervals_recomputed_independently(setting):
    epochs = pd.read_csv(_trial_one(setting) / "epochs.csv")
    book = json.loads((setting / "figures.json").read_text())
    # With zipfian extends, Fig 15: main-run against clean-run, the history effect; Fig 10: main against
    # average-baseline (both one-sided). With uniform extends the paper claims equality instead: Fig 9 main = clean,
    # Fig 5 main = average-baseline (the same paired estimate and 95 % interval; the detectable effect of an
    # equivalence test is the figure book's TOST power, not restated here).
    zipfian = any(t["test"] == "main slower" for f in book if f["figure"] == 15 for t in f.get("tests") or [])
    pairs = ([(15, "main slower", "main", "clean"), (10, "main slower", "main", "average-baseline")] if zipfian
             else [(9, "main = clean", "main", "clean"), (5, "main = average-baseline", "main", "average-baseline")])
    modes = set(epochs["mode"])
    pairs = [p for p in pairs if {p[2], p[3]} <= modes]  # a trials setting runs main and clean only
    assert pairs, f"no paired figure test to recompute in {setting.name}"
    for figure, name, num, den in pairs:
        test = _test(book, figure, name)
        mean, low, high, detectable = _paired_t(_late_log_ratios(epochs, num, den))
        assert test["estimate"] == pytest.approx(mean, rel=1e-9)
        assert (test["low"], test["high"]) == (pytest.approx(low, rel=1e-9), pytest.approx(high, rel=1e-9))
        if zipfian:
            assert test["detectable"] == pytest.approx(detectable, rel=1e-4)


def _decided_pair_test(book: list[dict]) -> tuple[int, dict, str, str] | None:
    """The first paired test reproduced on a one-sided claim, and its two modes: its interval lies wholly on the
    claim's side of no difference, so with the modes swapped it lies wholly on the other side, short of the smallest
    effect that counts: not reproduced. (A "not reproduced" need not flip: its interval may hold no difference.)"""
    for fig in book:
        for t in fig.get("tests") or []:
            effect = str(t.get("effect", ""))
            if (str(t.get("method", "")).startswith("paired t") and t.get("claim") in ("greater", "less")
                    and t.get("verdict") == "reproduced" and "geometric mean " in effect):
                num, den = effect.split("geometric mean ", 1)[1].split(" ", 1)[0].split("/")
                return fig["figure"], t, num, den
    return None


# A figure book for every committed setting with a decided paired test: 195 s on a saturated box.
@pytest.mark.timeout(600)
def test_swapping_two_modes_labels_flips_a_verdict(tmp_path):
    flipped_any = False
    for setting in SETTINGS:
        found = _decided_pair_test(json.loads((setting / "figures.json").read_text()))
        if found is None:
            continue
        figure, test, num, den = found
        folder = _copy(setting, tmp_path / setting.name)
        epochs = pd.read_csv(_trial_one(folder) / "epochs.csv")
        epochs["mode"] = epochs["mode"].replace({num: den, den: num})
        epochs.to_csv(_trial_one(folder) / "epochs.csv", index=False)
        swapped = _test(_book(folder, tmp_path / setting.name / "out"), figure, test["test"])
        assert swapped["verdict"] == "not reproduced", (setting.name, figure, swapped["text"])
        assert swapped["estimate"] == pytest.approx(-test["estimate"], rel=1e-9)
        flipped_any = True
    assert flipped_any, "no committed run has a reproduced paired verdict to flip"
