"""The compact form of an experiment, small enough to commit (docs/repro/): ``python -m ivs_analyzer compact EXP OUT``.

Copies the experiment's own summary files (epochs.csv, experiment.json, environment.json, config.xml,
value_sizes.csv, latency_by_size.csv, engine_state.csv, slices.csv and maintenance.csv where the run wrote them), writes epoch_intervals.csv
(each run phase's mean latency with the 95 % interval of that mean from its own operations) and mode_ratios.png (main/clean and main/average-baseline per
epoch with those intervals - and main/main-maintained and main-maintained/clean for a run with that mode - and below them each mode's quiescence wait before its reads), monitor_epochs.csv
(the per-epoch monitor summary of each mode's run phase: explain.epochs.summarize_monitor, the figures the
verdicts and step explanations quote) and compact.json (the run's label and where it came from), then the report
and figure book of the compact folder, and
verdicts.md (one row per figure-book test: effect, interval, detectable effect, verdict). The epoch
sub-folders (per-window samples, latency logs, raw monitor samples) are left out; a report on the compact folder
gives the same figure book as on the full one (tests/test_compact.py). A trials folder becomes one such set of
inputs per trial (`trial-<k>/`) with trials.csv, and the figure book of trial 1 with Fig 16 from the trials.
"""
from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pandas as pd

from ..explain.epochs import monitor_per_epoch
from ..load.results import COMPACT_FILE, MONITOR_EPOCHS_FILE, AnalyzerError, Experiment, load_experiment

INTERVALS_FILE = "epoch_intervals.csv"

COPIED = ["epochs.csv", "experiment.json", "environment.json", "config.xml", "value_sizes.csv",
          "latency_by_size.csv", "engine_state.csv", "slices.csv", "maintenance.csv"]


def monitor_epochs(exp: Experiment) -> pd.DataFrame:
    """One row per mode and epoch: the mode's run-phase monitor summary (value-size columns left to epochs.csv)."""
    frames = []
    for mode in sorted(exp.epochs["mode"].unique()):
        frame = monitor_per_epoch(exp, mode).drop(columns=["value_avg", "value_p99", "value_max", "data_bytes"],
                                                 errors="ignore")
        frame = frame.dropna(how="all")
        if frame.empty:
            continue
        frame.insert(0, "mode", mode)
        frame.index = frame.index.astype(int)
        frame.index.name = "epoch"
        frames.append(frame.reset_index())
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["epoch", "mode"])


def epoch_intervals(exp: Experiment) -> pd.DataFrame:
    """Per epoch and mode: the run phase's operations, mean latency (from the intended start) and the 95 % interval
    of that mean from its own operations (mean +- 1.96 sd / sqrt(n), summary.json's responseTimeUs): how precisely
    one epoch's mean is known if its operations were independent. The box's drift within and across epochs is not
    in it; the figure book's intervals come from the spread across epochs, which holds that drift."""
    rows = []
    for (epoch, mode), subs in exp.run_slices().items():
        # a run made in slices (run-01, run-02, ...): each phase's operations of all slices together - n added,
        # the mean weighted by n, the sd from the slices' own sums of squares about that mean
        parts: dict[str, list[tuple[int, float, float]]] = {}
        for sub in subs:
            for phase in sub.summary.get("phases", []):
                n = int(phase.get("counts", {}).get("ok", 0))
                rt = phase.get("responseTimeUs", {})
                if n > 0 and rt.get("avg") is not None and rt.get("stddev") is not None:
                    parts.setdefault(phase.get("name", ""), []).append((n, float(rt["avg"]), float(rt["stddev"])))
        for name, got in parts.items():
            n = sum(k for k, _, _ in got)
            if n < 2:
                continue
            mean = sum(k * m for k, m, _ in got) / n
            sd = math.sqrt(sum(k * (s * s + (m - mean) ** 2) for k, m, s in got) / n)
            half = 1.96 * sd / math.sqrt(n)
            rows.append({"epoch": epoch, "mode": mode, "phase": name, "ops": n, "lat_avg_us": mean,
                         "lat_sd_us": sd, "ci_low_us": mean - half, "ci_high_us": mean + half})
    cols = ["epoch", "mode", "phase", "ops", "lat_avg_us", "lat_sd_us", "ci_low_us", "ci_high_us"]
    return pd.DataFrame(rows, columns=cols).sort_values(["mode", "epoch"], kind="stable")


RATIOS_FILE = "mode_ratios.png"
# (a pair whose modes the run lacks is left out: main-maintained's pairs only where the run had that mode)
RATIO_PAIRS = [("main", "clean"), ("main", "average-baseline"), ("main", "main-maintained"),
               ("main-maintained", "clean")]


def mode_ratios(intervals: pd.DataFrame) -> pd.DataFrame:
    """Per epoch, main/clean, main/average-baseline, main/main-maintained and main-maintained/clean (those the run's
    modes allow) mean read latency with a 95 % interval from the two means' own intervals (delta method on the log ratio: the two phases' sampling errors only)."""
    rows = []
    by = intervals.set_index(["mode", "epoch"])
    for num, den in RATIO_PAIRS:
        if num not in by.index.get_level_values(0) or den not in by.index.get_level_values(0):
            continue
        a, b = by.loc[num], by.loc[den]
        both = a.index.intersection(b.index)
        for e in both:
            ra, rb = a.loc[e], b.loc[e]
            if not (ra["lat_avg_us"] > 0 and rb["lat_avg_us"] > 0):
                continue
            se = math.hypot((ra["ci_high_us"] - ra["ci_low_us"]) / 3.92 / ra["lat_avg_us"],
                            (rb["ci_high_us"] - rb["ci_low_us"]) / 3.92 / rb["lat_avg_us"])
            r = math.log(ra["lat_avg_us"] / rb["lat_avg_us"])
            rows.append({"pair": f"{num}/{den}", "epoch": int(e), "ratio": math.exp(r),
                         "low": math.exp(r - 1.96 * se), "high": math.exp(r + 1.96 * se)})
    return pd.DataFrame(rows, columns=["pair", "epoch", "ratio", "low", "high"])


def mode_waits(epochs: pd.DataFrame) -> pd.DataFrame:
    """Per epoch and mode, the quiescence wait before the mode's run phase (epochs.csv quiesce_ms, in seconds)
    and whether it timed out; empty for runs made without the wait."""
    cols = ["epoch", "mode", "wait_s", "timed_out"]
    if "quiesce_ms" not in epochs.columns:
        return pd.DataFrame(columns=cols)
    d = epochs[["epoch", "mode", "quiesce_ms"]].dropna(subset=["quiesce_ms"]).copy()
    d["wait_s"] = d["quiesce_ms"].astype(float) / 1000.0
    timed = epochs.loc[d.index, "quiesce_timed_out"] if "quiesce_timed_out" in epochs.columns else False
    d["timed_out"] = pd.Series(timed, index=d.index).astype(str).str.lower().eq("true")
    return d[cols].reset_index(drop=True)


def draw_mode_ratios(ratios: pd.DataFrame, file: Path, waits: pd.DataFrame | None = None) -> bool:
    """One panel per pair: the per-epoch ratio with its interval, and 1 (no difference) dashed; below each, when
    the run recorded them, the quiescence wait before each of the pair's two run phases (a cross: timed out), so
    a ratio that moves with one mode's wait shows it."""
    if ratios.empty:
        return False
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    pairs = list(dict.fromkeys(ratios["pair"]))
    with_waits = waits is not None and not waits.empty
    rows = 2 if with_waits else 1
    fig, axes = plt.subplots(rows, len(pairs), figsize=(5.2 * len(pairs), 3.2 * rows), squeeze=False,
                             sharex="col", gridspec_kw={"height_ratios": [3, 2]} if with_waits else None)
    for col, pair in enumerate(pairs):
        ax = axes[0][col]
        d = ratios[ratios["pair"] == pair].sort_values("epoch")
        ax.fill_between(d["epoch"], d["low"], d["high"], color="tab:blue", alpha=0.25, linewidth=0,
                        label="95 % interval of the epoch's ratio")
        ax.plot(d["epoch"], d["ratio"], color="tab:blue", linewidth=1, label=pair)
        ax.axhline(1.0, color="black", linestyle="--", linewidth=0.8)
        ax.set_ylabel(f"{pair} mean read latency")
        ax.legend(fontsize=7)
        if not with_waits:
            ax.set_xlabel("epoch")
            continue
        wax = axes[1][col]
        for mode, color in zip(pair.split("/"), ("tab:blue", "tab:orange")):
            w = waits[waits["mode"] == mode].sort_values("epoch")
            if w.empty:
                continue
            wax.plot(w["epoch"], w["wait_s"], color=color, linewidth=1, label=f"{mode}: wait before its reads")
            t = w[w["timed_out"]]
            if not t.empty:
                wax.scatter(t["epoch"], t["wait_s"], marker="x", color=color, s=18, label=f"{mode}: timed out")
        wax.set_xlabel("epoch")
        wax.set_ylabel("quiescence wait (s)")
        wax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(file, dpi=90)
    plt.close(fig)
    return True


VERDICTS_FILE = "verdicts.md"


def verdicts_table(book: list[dict], label: str) -> str:
    """figures.json as one markdown row per stated test: Fig, the paper's platform, the test, its effect with the
    95 % interval and the detectable effect (the figure book's own words), the verdict."""
    rows = [f"Figure-book tests of {label}: each effect with its 95 % interval and the smallest effect the run could"
            " have detected (80 % power, alpha 0.05).", "",
            "| Fig | paper platform | test | effect, 95 % CI, detectable | verdict |", "|---|---|---|---|---|"]
    for fig in book:
        tests = fig.get("tests") or []
        if not tests:
            rows.append(f"| {fig['figure']} | {fig.get('paper_platform', '')} | - | {fig.get('needs') or 'no data'} |"
                        f" {fig.get('verdict') or 'no data'} |")
        for t in tests:
            text = str(t.get("text", ""))
            effect = text.split(": ", 1)[1] if ": " in text else text
            effect = effect.rsplit("): ", 1)[0] + ")" if "): " in effect else effect
            rows.append(f"| {fig['figure']} | {fig.get('paper_platform', '')} | {t.get('test', '')} | "
                        f"{effect.replace('|', '/')} | {t.get('verdict', '')} |")
    return "\n".join(rows + regime_rows(book)) + "\n"


REGIMES_TITLE = "Per regime"


def regime_rows(book: list[dict]) -> list[str]:
    """The paired tests that have more than one regime (explain/regimes.py), a row per regime, under their own
    title after the tests' table; nothing when no test has."""
    rows = []
    for fig in book:
        for t in fig.get("tests") or []:
            for r in t.get("regimes") or [] if len(t.get("regimes") or []) > 1 else []:
                text = str(r.get("text", "")).split(": ", 1)[-1]
                effect = text.rsplit("): ", 1)[0] + ")" if "): " in text else text
                rows.append(f"| {fig['figure']} | {t.get('test', '')} | {r['epochs']} | {r['opened_by']} | "
                            f"{effect.replace('|', '/')} | {r.get('trend_text', '-')} | "
                            f"{r['verdict']} (pooled: {t.get('verdict', '')}) |")
    if not rows:
        return []
    return ["", f"## {REGIMES_TITLE}", "",
            "Each paired test again on each regime of the two modes' counters (explain/regimes.py: a stated level on"
            " a stated counter, held 3 epochs; never the latency). Not counted in the figure's verdict.", "",
            "| Fig | test | epochs | state in force | effect, 95 % CI, detectable | trend of the ratio within it |"
            " verdict |", "|---|---|---|---|---|---|---|"] + rows


TRIALS_FILE = "trials.csv"


def _inputs(source: Path, out: Path) -> Experiment:
    """The experiment's compact inputs in `out`: its summary files, monitor_epochs.csv, epoch_intervals.csv,
    mode_ratios.png and compact.json (everything the report on `out` reads)."""
    exp = load_experiment(source)
    if not exp.subruns:
        raise AnalyzerError(f"compact: {source} has no epoch sub-folders (already compact?)")
    out.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        if (source / name).is_file():
            shutil.copyfile(source / name, out / name)
    monitor_epochs(exp).to_csv(out / MONITOR_EPOCHS_FILE, index=False)
    intervals = epoch_intervals(exp)
    intervals.to_csv(out / INTERVALS_FILE, index=False, float_format="%.4f")
    draw_mode_ratios(mode_ratios(intervals), out / RATIOS_FILE, mode_waits(exp.epochs))
    (out / COMPACT_FILE).write_text(json.dumps({"label": exp.label, "source": source.name}, indent=2) + "\n",
                                    encoding="utf-8")
    return exp


def write(source: Path, out: Path) -> Path:
    """The compact form of an experiment folder, or of a trials folder (experiment/trials > 1): there each
    trial's compact inputs go to `trial-<k>/` in the order the trials ran, trials.csv beside them, and the
    report and figure book (trial 1's, with Fig 16 from trials.csv: folders.report) and verdicts.md to `out`."""
    source, out = Path(source), Path(out)
    if source.resolve() == out.resolve():
        raise AnalyzerError(f"compact: the output folder must differ from the experiment folder ({source})")
    if (source / TRIALS_FILE).is_file():
        trials = sorted(p for p in source.iterdir() if (p / "epochs.csv").is_file())
        if not trials:
            raise AnalyzerError(f"compact: the trials folder {source} holds no experiment folder")
        exps = [_inputs(t, out / f"trial-{k}") for k, t in enumerate(trials, 1)]
        shutil.copyfile(source / TRIALS_FILE, out / TRIALS_FILE)
        label = f"{exps[0].label}, {len(exps)} trials"
    else:
        label = _inputs(source, out).label
    from . import folders
    folders.report(out, out)
    book = json.loads((out / "figures.json").read_text(encoding="utf-8"))
    (out / VERDICTS_FILE).write_text(verdicts_table(book, label), encoding="utf-8")
    return out
