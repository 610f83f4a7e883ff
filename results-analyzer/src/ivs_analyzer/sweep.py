"""Thread sweeps (a config's ``<sweep>``): runtime against terminals per database, and a two-way ANOVA.

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

from pathlib import Path

import pandas as pd

from .load import AnalyzerError

ALPHA = 0.05
MODELS = ("categorical", "numeric")
REQUIRED = ("target_type", "terminals", "count", "trial", "runtime_ms", "throughput", "interrupted")


def is_sweep_folder(path: Path) -> bool:
    """A sweep folder holds sweep.csv (its points' own results folders sit beside it)."""
    return (Path(path) / "sweep.csv").is_file()


def load_sweeps(dirs: list[Path]) -> pd.DataFrame:
    """The finished rows of every folder's sweep.csv, with ``database`` (the target type) and ``sweep`` (folder)."""
    frames = []
    for d in dirs:
        csv = d / "sweep.csv"
        if not csv.is_file():
            raise AnalyzerError(f"{d}: no sweep.csv (not a sweep folder: run a config with a <sweep> section)")
        df = pd.read_csv(csv)
        missing = [c for c in REQUIRED if c not in df.columns]
        if missing:
            raise AnalyzerError(f"{csv}: missing column(s) {', '.join(missing)}")
        # An interrupted point measured a shorter run than asked for: its runtime is not comparable.
        df = df[~df["interrupted"].astype(str).str.lower().eq("true")].copy()
        df["database"] = df["target_type"].astype(str)
        df["sweep"] = d.name
        df["count"] = df["count"].fillna(0).astype("int64")
        frames.append(df)
    data = pd.concat(frames, ignore_index=True)
    if data.empty:
        raise AnalyzerError("no finished sweep points in " + ", ".join(str(d) for d in dirs))
    return data


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


def plot(summary: pd.DataFrame, count: int, path: Path) -> None:
    """Runtime against threads, one line per database, bars from the fastest to the slowest trial."""
    from .charts import plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for database, rows in summary[summary["count"] == count].groupby("database"):
        rows = rows.sort_values("terminals")
        err = [rows["mean"] - rows["min"], rows["max"] - rows["mean"]]
        ax.errorbar(rows["terminals"], rows["mean"], yerr=err, marker="o", capsize=3, label=database)
    ax.set_xscale("log", base=2)
    # Plain thread counts on the axis (1, 2, 4 ... rather than powers of two).
    ticks = sorted(summary["terminals"].unique())
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.minorticks_off()
    ax.set_xlabel("threads (terminals)")
    ax.set_ylabel("total runtime (ms)")
    ax.set_title(f"{count:,} operations: mean runtime, bars min..max over trials")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def default_out(dirs: list[Path]) -> Path:
    """Where `sweep` writes without -o: ``sweep-report`` beside the first sweep folder (in its parent), as
    `report` writes into the run's own folder, not into the current directory."""
    return dirs[0].resolve().parent / "sweep-report"


def report(dirs: list[Path], out: Path) -> Path:
    """Writes runtime charts, anova.csv and sweep-report.md into ``out``; returns the report's path."""
    data = load_sweeps(dirs)
    out.mkdir(parents=True, exist_ok=True)
    summary = spread(data)
    summary.to_csv(out / "runtime.csv", index=False)
    lines = ["# Sweep report", "", "Sweeps: " + ", ".join(d.name for d in dirs), "",
             "Total runtime = the measured phase's time from its measured start to the completion that reached its"
             " count (sweep.csv runtime_ms).", ""]
    tables = []
    for count in sorted(summary["count"].unique()):
        chart = f"runtime_n{count}.png"
        plot(summary, count, out / chart)
        lines += [f"## {count:,} operations", "", f"![runtime vs threads]({chart})", ""]
        # The unit in the header: runtime.csv keeps plain column names for scripts.
        shown = summary[summary["count"] == count].drop(columns="count")
        lines += _markdown(shown.rename(columns={"mean": "mean ms", "min": "min ms", "max": "max ms"}),
                           floats="{:.1f}")
        try:
            table = anova(data[data["count"] == count])
        except AnalyzerError as e:
            lines += ["", f"No ANOVA: {e}", ""]
            continue
        numeric = anova(data[data["count"] == count], model="numeric")
        tables += [table.assign(count=count, model="categorical"), numeric.assign(count=count, model="numeric")]
        two_way = "database" in table.index and "threads" in table.index
        lines += ["", "Two-way ANOVA with interaction (type II), runtime ~ database * threads:" if two_way
                  else "One-way ANOVA (one database or one thread count in these sweeps):", ""]
        lines += _markdown(table.reset_index(names="source"), floats="{:.4g}")
        lines += ["", "The same with threads as a number (1 degree of freedom, the NoSQL-runtime paper's Table 9), "
                  "runtime ~ database * threads (numeric):", ""]
        lines += _markdown(numeric.reset_index(names="source"), floats="{:.4g}")
        lines += ["", f"Reading (alpha = {ALPHA}), of the categorical model:", ""]
        lines += ["- " + s for s in reading(table)] + ["", _which_model(lack_of_fit(data[data["count"] == count])), ""]
    if tables:
        pd.concat(tables).reset_index(names="source").to_csv(out / "anova.csv", index=False)
    path = out / "sweep-report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _which_model(lof: dict | None) -> str:
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


def _markdown(df: pd.DataFrame, floats: str) -> list[str]:
    def cell(v: object) -> str:
        if isinstance(v, float):
            return "" if pd.isna(v) else floats.format(v)
        return str(v)

    rows = ["| " + " | ".join(str(c) for c in df.columns) + " |", "|" + "---|" * len(df.columns)]
    for _, r in df.iterrows():
        rows.append("| " + " | ".join(cell(v) for v in r.tolist()) + " |")
    return rows
