"""Thread sweeps (a config's ``<sweep>``, load/sweeps.py): a two-way ANOVA of runtime against database and threads.

A sweep folder holds ``sweep.csv``, one row per (terminals, count, trial) point. Several folders, one per
database, are read together; the ANOVA asks whether the database, the number of threads (terminals) and their
interaction explain the spread of the total runtime, separately for each operation count (runtime grows with
the count by construction, so mixing counts would only measure that).

Two models of threads (MODELS): "categorical", one level per thread count (runtime ~ C(database) * C(threads)),
which assumes nothing about how runtime changes with threads; and "numeric", the thread count as a number with one
degree of freedom (runtime ~ C(database) * threads), as the NoSQL-runtime paper's Table 9 has it, which tests only
a straight line in the thread count. The report's reading uses the categorical model; `lack_of_fit` says how far
the straight line misses the thread counts' own means.
"""
from __future__ import annotations

import pandas as pd

from ..load.results import AnalyzerError


ALPHA = 0.05


MODELS = ("categorical", "numeric")


def _frame(data: pd.DataFrame, response: str) -> pd.DataFrame:
    return pd.DataFrame({"runtime": data[response].astype(float), "database": data["database"].astype(str),
                         "threads": data["terminals"].astype(int)})


def _formula(frame: pd.DataFrame, model: str) -> str:
    threads = "C(threads)" if model == "categorical" else "threads"
    terms = [t for t, n in (("C(database)", frame["database"].nunique()), (threads, frame["threads"].nunique()))
             if n > 1]
    return "runtime ~ " + " * ".join(terms)


def anova(data: pd.DataFrame, response: str = "runtime_ms", model: str = "categorical") -> pd.DataFrame:
    """Two-way ANOVA with interaction (type II sums of squares) of ``response`` on database and threads, threads
    as a factor (model "categorical") or as a number with one degree of freedom ("numeric").

    With one database the database factor has one level and drops out: the table is then the one-way ANOVA on
    threads. Needs at least two levels of threads and, for the interaction, more than one trial per cell.
    """
    from statsmodels.formula.api import ols
    from statsmodels.stats.anova import anova_lm

    if model not in MODELS:
        raise ValueError(f"model must be one of {MODELS}, not {model!r}")
    frame = _frame(data, response)
    databases = frame["database"].nunique()
    threads = frame["threads"].nunique()
    if threads < 2 and databases < 2:
        raise AnalyzerError("the ANOVA needs at least two thread counts or two databases (got one point each)")
    per_cell = frame.groupby(["database", "threads"]).size()
    if per_cell.min() < 2:
        raise AnalyzerError("the ANOVA needs at least 2 trials per (database, threads) cell; "
                            f"the fewest are {per_cell.min()} ({per_cell.idxmin()})")
    table = anova_lm(ols(_formula(frame, model), data=frame).fit(), typ=2)
    table = table.rename(columns={"sum_sq": "SS", "PR(>F)": "p"})
    table.index = [_term_name(i) for i in table.index]
    return table[["SS", "df", "F", "p"]]


def lack_of_fit(data: pd.DataFrame, response: str = "runtime_ms") -> dict | None:
    """The numeric model against the categorical one it is nested in: the F test of the thread counts' means (per
    database) about each database's straight line in threads. None with fewer than 3 thread counts (then the two
    models are the same fit)."""
    from statsmodels.formula.api import ols
    from statsmodels.stats.anova import anova_lm

    frame = _frame(data, response)
    if frame["threads"].nunique() < 3:
        return None
    fits = [ols(_formula(frame, m), data=frame).fit() for m in ("numeric", "categorical")]
    row = anova_lm(*fits).iloc[1]
    return {"SS": float(row["ss_diff"]), "df": float(row["df_diff"]), "F": float(row["F"]),
            "p": float(row["Pr(>F)"]), "df_resid": float(fits[1].df_resid)}


def _term_name(term: str) -> str:
    return term.replace("C(database)", "database").replace("C(threads)", "threads")


def reading(table: pd.DataFrame, alpha: float = ALPHA) -> list[str]:
    """The table in plain words: which factors are significant at ``alpha``."""
    lines = []
    meaning = {"database": "the database", "threads": "the number of threads",
               "database:threads": "the interaction (the effect of threads differs between databases)"}
    for term, row in table.iterrows():
        if term == "Residual":
            continue
        what = meaning.get(term, term)
        if pd.isna(row["p"]):
            lines.append(f"{what}: no test (F undefined)")
        elif row["p"] < alpha:
            lines.append(f"{what}: significant at {alpha} (F = {row['F']:.2f}, p = {row['p']:.3g})")
        else:
            lines.append(f"{what}: not significant at {alpha} (F = {row['F']:.2f}, p = {row['p']:.3g})")
    return lines


def spread(data: pd.DataFrame, response: str = "runtime_ms") -> pd.DataFrame:
    """Mean, min and max of ``response`` over the trials of each (database, count, threads)."""
    g = data.groupby(["database", "count", "terminals"])[response]
    return g.agg(mean="mean", min="min", max="max", trials="size").reset_index()


def which_model(lof: dict | None) -> str:
    """Why the reading uses the categorical model, with the numeric model's lack of fit."""
    why = ("The reading uses the categorical model: it takes each thread count's mean as it is, where the numeric"
           " model fits one straight line in the thread count and its threads F tests only that line's slope;"
           " runtime against threads is rarely a straight line (it falls roughly as 1/threads until the server"
           " saturates), so the numeric F-values can miss an effect of threads or mistake its shape.")
    if lof is None:
        return why + " With two thread counts the two models are the same fit."
    verdict = "misses" if lof["p"] < ALPHA else "does not significantly miss"
    return (why + f" Lack of fit of the straight line (numeric against categorical): F = {lof['F']:.2f} on"
            f" ({lof['df']:g}, {lof['df_resid']:g}) df, p = {lof['p']:.3g}: the line {verdict} the thread counts'"
            f" means at {ALPHA}.")
