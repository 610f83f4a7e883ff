"""The report a results folder gets (`report`): report.html (page.py) for a run or an experiment (with the figure
book), a trials folder (trial 1's, with the trials' means) or a tenants folder (tenants.py); `compare` overlays
runs or experiments, or gives the sweep report (sweep.py) for sweep folders. PNGs sit next to report.html."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ..detect.outliers import run_excursions
from ..detect.series import ChangeParams
from ..explain.changes import find_changes
from ..explain.epochs import analyse_epochs
from ..explain.findings import experiment_findings, run_findings
from ..explain.longtxn import old_idle_transaction
from ..explain.ranking import rank_findings, run_ranking
from ..explain.server_work import server_work
from ..explain.waits import strongest
from ..load.activity import describe_snapshot, load_activity, nearest_snapshot, snapshots_between
from ..load.results import AnalyzerError, Experiment, Run, load_any
from ..load.sweeps import is_sweep_folder
from ..load.tenants import is_tenants_folder
from . import charts, figure_book, finding_charts, page, sweep, tenants

# Charts drawn for findings at most: the first screen stays short, and each chart costs drawing time.
MAX_FINDING_CHARTS = 6

CHANGE_METHOD = (
    "PELT (l2 cost) on the per-window ALL-type throughput and log p99 of each phase, "
    "measured windows only; penalty = {pf} × σ² × ln(n) with σ the robust noise estimate from "
    "first differences; segments ≥ {ms} windows; changes under {mr:.0%} relative are dropped. "
    "Metrics ranked by their own break at the change (a line plus a step fitted over up to {cw} windows "
    "either side, in units of the fit's noise; 3 or more to be listed); those that keep their amount per "
    "operation while throughput moved are listed as following it."
)


# categories from the client's lost or refused connections (explain/restart.py, explain/connections.py)
CONNECTION_CATEGORIES = ("server-restart", "connection-limit")
# a setting changed in the step's context (explain/setting_change.py): only a wait with a named holder replaces it
SETTING_CHANGE = "setting-change"


def attach_activity(found: list[dict], activity: list[dict], start_ms: float, window_ms: float) -> None:
    """Gives each step or episode the server snapshots the run took around it (within the episode's length and
    three windows either side of its start: the client's online detector may fire a few windows before or after
    the change point the analyzer places), oldest first: their evidence names the blocker. findings.json keeps
    them all (`activities`) and the one nearest the step (`activity`). When sessions waited in one of them
    (waits.wait_cause: whatever the kind of wait), that wait and its holder are the finding's `wait` and
    `category`, and its title names them; the counters stay in the evidence. A snapshot whose only finding is a
    backlog of request stages (waits.py: category "backlog") does not replace a category the counters gave, and
    no wait replaces the client's own evidence of lost or refused connections (server-restart, connection-limit:
    a wait makes operations slow, it does not end their sessions). A transaction open with no statement running
    since before the step (explain/longtxn.py) is the cause (`long-transaction`, its connection the blocker) of a
    change for the worse, unless the server went away, when no session waits - or when the waits name no holder
    (the server's own contention: WAL writes, I/O) while the counters show the versions it keeps piling up (the
    finding's `version_backlog`): that is the extra work they wait on. A wait a session holds (a lock with its
    holder) still wins. Other sessions running heavy statements of their own (explain/server_work.py) are the
    cause (`server-work`, the longest-running one the blocker) of a change for the worse without a wait whose
    category was none, `buffer-miss`, or `long-transaction` from the counters alone (no old transaction in the
    snapshots: the heavy statements are what holds the versions back). A setting changed in the step's context
    (`setting-change`) is replaced only by a lock wait whose holder is named; any other snapshot cause stays in its
    title as "meanwhile"."""
    for f in found:
        if f["kind"] not in ("step", "episode") or not activity:
            continue
        reach = (f.get("duration_ms") or 0) + 3 * window_ms
        entries = snapshots_between(activity, f["time_ms"] - reach, f["time_ms"] + reach)
        if entries:
            f["activity"] = nearest_snapshot(entries, f["time_ms"])
            f["activities"] = entries
            f["evidence"] = [s for e in entries for s in describe_snapshot(e, start_ms)] + f["evidence"]
            cause = strongest(entries)
            if f.get("category") != "server-restart" and f.get("worse", True) and \
                    (cause is None or (cause.get("blocker") is None and f.get("version_backlog"))):
                old = _old_transaction(entries, f["time_ms"], window_ms)
                if old is not None and cause is not None:
                    old["text"] += f"; meanwhile {cause['text']}"
                cause = old or cause
            # other sessions' heavy statements (explain/server_work.py): a change for the worse with no wait and
            # no category, or only buffer misses (their scans are why the cache misses), is the server's
            # capacity taken by other work inside it; the machine and the engine's own write pressure stay
            # (waits that name no holder - the heavy sessions' own I/O, the server's contention - stay as "meanwhile")
            # - and so is a version backlog the counters alone called a long transaction when the snapshots show
            # no old transaction (the cause above did not find one) but heavy statements: a statement running for
            # seconds holds old row versions as an open transaction does, and the snapshot names it
            if f.get("worse", True) and f.get("category") in (None, "buffer-miss", "long-transaction") and \
                    (cause is None or (cause.get("blocker") is None and cause["category"] != "backlog")):
                work = server_work(entries, f.get("cpu"))
                if work is not None and cause is not None:
                    work["text"] += f"; meanwhile {cause['text']}"
                cause = work or cause
            # queued request stages alone ("backlog": Cassandra's request pools) name no cause: a category the
            # counters gave (write pressure, a restart, the CPU) stays, the snapshot is in the evidence
            if cause is not None and f.get("category") == SETTING_CHANGE and \
                    not (cause["category"] == "lock-wait" and cause.get("blocker") is not None):
                f["title"] += f"; meanwhile {cause['text']}"
                continue
            if cause is not None and not (cause["category"] == "backlog" and f.get("category")) \
                    and f.get("category") not in CONNECTION_CATEGORIES:
                f["wait"], f["category"] = cause, cause["category"]
                headline = f.get("headline") or ""
                f["title"] = f"{headline}: {cause['text']}" if headline else cause["text"]


def _old_transaction(entries: list[dict], change_ms: float, window_ms: float) -> dict | None:
    """The oldest idle transaction open since before the change in any of the step's snapshots, or None."""
    found = [c for c in (old_idle_transaction(e.get("snapshot") or {}, float(e["time_ms"]), change_ms, window_ms)
                         for e in entries) if c]
    return max(found, key=lambda c: c["blocker"]["seconds"]) if found else None


def _terminals(summary: dict) -> int | None:
    n = summary.get("terminals")
    return int(n) if isinstance(n, (int, float)) and n > 0 else None


def report_run(run: Run, out: Path, params: ChangeParams | None = None) -> Path:
    params = params or ChangeParams()
    out = page.prepare_out(out)
    changes = find_changes(run, params)
    (out / "changes.json").write_text(json.dumps(changes, indent=2), encoding="utf-8")
    found = run_findings(changes, run_excursions(run, params), run.start_ms, run.window_ms)
    attach_activity(found, load_activity(run.path), run.start_ms, run.window_ms)
    # the report's order is the work each finding lost, most first: its first finding is its answer
    found = rank_findings(found, *run_ranking(run), _terminals(run.summary))
    for i, f in enumerate(found[:MAX_FINDING_CHARTS]):
        if f["kind"] in ("step", "episode"):
            f["chart"] = finding_charts.run_finding_chart(run, f, out, i, 3 * params.context_windows)
        elif f["kind"] == "outliers":
            f["chart"] = finding_charts.excursions_chart(run, f, out, i)
    page.write_findings(out, found)
    chart_list = charts.run_charts(run, out, changes)
    phase_rows, type_rows = page.phase_tables(run)
    view_changes = []
    for c in changes:
        c2 = dict(c)
        c2["time_label"] = f"t = {(c['time_ms'] - run.start_ms) / 1000.0:.0f} s ({c['time_ms']} ms)"
        view_changes.append(c2)
    s = run.summary
    db = s.get("database") or {}
    return page.render(
        out,
        title=f"{s.get('benchmark', 'run')} on {run.label}",
        subtitle=f"{run.path.name} · {db.get('version', '')} · terminals {s.get('terminals', '')} · "
                 f"window {page.num(run.window_ms / 1000)} s · seed {s.get('randomSeed', '')}",
        warnings=page.warnings_of(s),
        phase_rows=phase_rows, type_rows=type_rows, charts=chart_list,
        show_changes=True, changes=view_changes, findings=found,
        change_method=CHANGE_METHOD.format(pf=params.penalty_factor, ms=params.min_size,
                                           mr=params.min_relative_change, cw=params.context_windows),
    )


EPOCH_TABLE_COLUMNS = ["epoch", "mode", "records", "value_avg", "value_max", "extend_throughput",
                       "extend_lat_avg_us", "run_throughput", "run_lat_avg_us", "run_lat_p99_us"]


def report_experiment(exp: Experiment, out: Path, params: ChangeParams | None = None,
                      trials: pd.DataFrame | None = None) -> Path:
    out = page.prepare_out(out)
    chart_list = charts.epoch_charts(exp, out)
    analysis = analyse_epochs(exp, params)
    # The figure book (figures.html): the paper's figures 1-17 from this run, each with its claim and test; a
    # "not reproduced" quotes the per-epoch monitor metrics (analysis["metrics"], cached per mode).
    figure_book.write(exp.epochs, exp.config, out, trials, exp.label, exp.latency_by_size,
                      monitor=analysis["metrics"])
    epoch_changes = analysis["steps"]
    # "windows" stays empty: the per-window detection applies to the sub-run folders (report them on
    # their own); "epochs" holds the steps across epochs, "outliers" the epochs that left their level and
    # came back, "periods" the stretches of epochs that did.
    (out / "changes.json").write_text(json.dumps({"windows": [], "epochs": epoch_changes,
                                                  "outliers": analysis["outliers"],
                                                  "periods": analysis["periods"]}, indent=2), encoding="utf-8")
    found = experiment_findings(analysis)
    for i, f in enumerate(found[:MAX_FINDING_CHARTS]):
        if f["kind"] in ("step", "outliers"):
            mode = f.get("mode", "main").split("/")[0]
            metrics = analysis["metrics"](mode) if f.get("cause") else None
            f["chart"] = finding_charts.epoch_finding_chart(exp, f, metrics, out, i)
    page.write_findings(out, found)
    rows = exp.epochs.sort_values(["epoch", "mode"]).to_dict("records")
    subruns, warnings = [], []
    for sub in exp.subruns:
        p = ((sub.summary or {}).get("phases") or [{}])[0] if sub.summary else {}
        rt = p.get("responseTimeUs") or {}
        subruns.append({"epoch": sub.epoch, "mode": sub.mode, "phase": sub.phase,
                        "folder": str(sub.path.relative_to(exp.path)),
                        "throughput": p.get("throughput"), "avg": rt.get("avg"), "p99": rt.get("p99")})
        if sub.summary:
            warnings += page.warnings_of(sub.summary, f"{sub.path.relative_to(exp.path)}: ")
    return page.render(
        out,
        title=f"YCSB-IVS experiment on {exp.label}",
        subtitle=f"{exp.path.name} · {exp.epochs['epoch'].nunique()} epochs · modes: "
                 f"{', '.join(sorted(exp.epochs['mode'].unique()))}",
        warnings=warnings, charts=chart_list, epoch_rows=rows, epoch_columns=EPOCH_TABLE_COLUMNS,
        subruns=subruns, show_changes=False, show_epoch_changes=True, epoch_changes=epoch_changes,
        findings=found,
    )


def report(path: Path, out: Path | None = None, params: ChangeParams | None = None) -> Path:
    path = Path(path)
    if (path / "trials.csv").is_file():
        # A trials folder: the report and figure book of trial 1, with the trials' means for Fig 16.
        first = sorted(p for p in path.iterdir() if (p / "epochs.csv").is_file())[0]
        trials = pd.read_csv(path / "trials.csv")
        return report_experiment(load_any(first), Path(out) if out else path, params, trials)
    out = Path(out) if out else Path(path)
    if is_tenants_folder(path):
        return tenants.report(path, out)
    item = load_any(path)
    if isinstance(item, Experiment):
        return report_experiment(item, out, params)
    return report_run(item, out, params)


def compare(paths: list[Path], out: Path) -> Path:
    """Runs and experiments overlaid in report.html; sweep folders (all of them) give the sweep report."""
    paths = [Path(p) for p in paths]
    for p in paths:
        if not p.is_dir():
            raise AnalyzerError(f"results directory not found: {p}")
    sweeps = [p for p in paths if is_sweep_folder(p)]
    if sweeps and len(sweeps) == len(paths):
        return sweep.report(paths, Path(out))
    if sweeps:
        others = [p for p in paths if p not in sweeps]
        raise AnalyzerError("compare: cannot mix sweep folders (" + ", ".join(map(str, sweeps)) + ") with run or"
                            " experiment folders (" + ", ".join(map(str, others)) + "); give only sweeps or none")
    items = [load_any(p) for p in paths]
    out = page.prepare_out(out)
    runs = [x for x in items if isinstance(x, Run)]
    exps = [x for x in items if isinstance(x, Experiment)]
    chart_list, phase_rows, warnings = [], [], []
    if runs:
        chart_list += charts.compare_run_charts(runs, out)
        for i, run in enumerate(runs):
            rows, _ = page.phase_tables(run, label_prefix=f"{charts.run_name(runs, i)}: ")
            phase_rows += rows
            warnings += page.warnings_of(run.summary, f"{run.path.name}: ")
    if exps:
        chart_list += charts.compare_experiment_charts(exps, out)
    labels = [charts.run_name(runs, i) for i in range(len(runs))] + \
             [charts.run_name(exps, i) for i in range(len(exps))]
    return page.render(out, title="Comparison: " + " vs ".join(labels),
                   subtitle=" · ".join(str(p) for p in paths), warnings=warnings,
                   charts=chart_list, phase_rows=phase_rows, show_changes=False)
