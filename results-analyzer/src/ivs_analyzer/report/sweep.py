"""The sweep report: runtime against threads per database (runtime_nN.png, runtime.csv) and the ANOVA tables and
their reading (explain/anova.py) per operation count, in sweep-report.md and anova.csv."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..explain.anova import ALPHA, anova, lack_of_fit, reading, spread, which_model
from ..load.results import AnalyzerError
from ..load.sweeps import load_sweeps
from .charts import plt


def plot(summary: pd.DataFrame, count: int, path: Path) -> None:
    """Runtime against threads, one line per database, bars from the fastest to the slowest trial."""
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
        lines += ["- " + s for s in reading(table)] + ["", which_model(lack_of_fit(data[data["count"] == count])), ""]
    if tables:
        pd.concat(tables).reset_index(names="source").to_csv(out / "anova.csv", index=False)
    path = out / "sweep-report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _markdown(df: pd.DataFrame, floats: str) -> list[str]:
    def cell(v: object) -> str:
        if isinstance(v, float):
            return "" if pd.isna(v) else floats.format(v)
        return str(v)

    rows = ["| " + " | ".join(str(c) for c in df.columns) + " |", "|" + "---|" * len(df.columns)]
    for _, r in df.iterrows():
        rows.append("| " + " | ".join(cell(v) for v in r.tolist()) + " |")
    return rows
