"""The scoring of the fault corpus, exactly as docs/diagnosis.md ("How the corpus is scored") defines it.

Pure functions over a report's findings.json, the fault's window and the scenario's expected categories: no
server, no analyzer run (diagnosis_accuracy.py runs those and calls these; tests/test_diagnosis_score.py holds
them to committed findings fixtures with known answers).

* The **answer** of a run is the report's **first** step or episode, in the report's order (findings.json's
  order: the analyzer ranks them by work lost, explain/ranking.py) - what a DBA reads first. The scorer does not
  look for the finding nearest the known fault.
* A finding is **at the fault** when it starts between BEFORE_MS before the injection and AFTER_MS after the
  injection ended; otherwise it is **away**.
* **accuracy** = fault runs whose answer is at the fault with an expected category / fault runs.
* A **database category** is any category but the machine's (cpu-contention, io-contention: another process).
  **precision** = findings with a database category that are at the fault with an expected category / all
  findings with a database category, in fault and no-fault runs alike.
* **false alarms** = findings with a database category away from any fault (every one in a no-fault run), per
  hour of measured run time; the figure is taken on the no-fault runs and says how many minutes are behind it
  (at least MIN_NOFAULT_MINUTES are needed before it is a figure to rely on).
* Intervals are Wilson 95 % score intervals for the shares, and the exact (Garwood) 95 % Poisson interval for
  the false alarms per hour (statsmodels): a count of events in a measured time.
"""
from __future__ import annotations

import math
from collections import OrderedDict

BEFORE_MS = 3000
AFTER_MS = 20000
MACHINE = ("cpu-contention", "io-contention")
RANKED_KINDS = ("step", "episode")
MIN_NOFAULT_MINUTES = 30
Z95 = 1.959964


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of k successes in n trials (None when n is 0)."""
    if n <= 0:
        return None
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def poisson_interval(k: int, alpha: float = 0.05) -> tuple[float, float]:
    """The exact (Garwood) two-sided 1 - alpha interval of a Poisson mean given k events (lower 0 when k is 0):
    statsmodels' confint_poisson, method "exact-c". Imported here, not at the top: diagnosis_accuracy.py's --list
    runs this module under the system's Python, without the analyzer's venv."""
    from statsmodels.stats.rates import confint_poisson

    lower, upper = confint_poisson(k, 1.0, method="exact-c", alpha=alpha)
    return float(lower), float(upper)


def is_database(category: str | None) -> bool:
    return bool(category) and category not in MACHINE and category != "none"


def at_fault(f: dict, fault_ms: list | tuple | None) -> bool:
    if not fault_ms:
        return False
    start, end = fault_ms
    return start - BEFORE_MS <= f["time_ms"] <= end + AFTER_MS


def ranked(findings: list[dict]) -> list[dict]:
    """The report's steps and episodes in its order."""
    return [f for f in findings if f.get("kind") in RANKED_KINDS]


def answer(findings: list[dict]) -> dict | None:
    """The report's first step or episode: its answer."""
    found = ranked(findings)
    return found[0] if found else None


def score_run(findings: list[dict], fault_ms, expected: tuple[str, ...], no_fault: bool,
              holder: str | None = None, needs_holder: bool = False) -> dict:
    """One run's score. fault_ms: [injection start, injection end] (ms since the epoch) or None; expected: the
    scenario's categories (any one is right); no_fault: a run without a database fault (N1-N3: every finding
    with a database category is a false alarm). Returns {"answer": text, "right": bool | None (None for a
    no-fault run), "at_fault": bool, "holder_named": bool | None, "db_findings", "db_right", "false_alarms",
    "title", "false_titles"}."""
    first = answer(findings)
    window = None if no_fault else fault_ms
    steps = ranked(findings)
    db = [f for f in steps if is_database(f.get("category"))]
    db_right = [f for f in db if at_fault(f, window) and f.get("category") in expected]
    false = [f for f in db if not at_fault(f, window)]
    out = {"db_findings": len(db), "db_right": len(db_right), "false_alarms": len(false),
           "false_titles": [f["title"] for f in false], "title": first["title"] if first else None,
           "holder_named": None}
    if first is None:
        out.update(answer="(no finding)", at_fault=False, right=None if no_fault else False,
                   holder_named=False if needs_holder and not no_fault else None)
        return out
    near = at_fault(first, window)
    category = first.get("category") or f"(effect: {first.get('cause') or 'no cause'})"
    out["at_fault"] = near
    out["answer"] = category if near or no_fault else f"{category}, away from the fault"
    out["right"] = None if no_fault else bool(near and first.get("category") in expected)
    if needs_holder and not no_fault:
        blocker = (first.get("wait") or {}).get("blocker") or {}
        # an injector of several sessions (server-work) prints their ids on its first line: any of them is named
        out["holder_named"] = bool(out["right"] and holder is not None and str(blocker.get("id")) in str(holder).split())
    return out


def _pct(k: int, n: int) -> str:
    ci = wilson(k, n)
    return "-" if ci is None else f"{k}/{n} ({ci[0]:.0%}-{ci[1]:.0%})"


def summarize(rows: list[dict]) -> dict:
    """Per scenario, per expected category and overall, from rows of score_run's output plus "scenario",
    "expected" (text, categories split by " / "), "no_fault" and "run_s" (measured seconds). Rows without a
    score ("right" missing: the run or the injector failed) are listed as failed runs, not scored."""
    scored = [r for r in rows if "right" in r]
    per: OrderedDict[str, dict] = OrderedDict()
    for r in rows:
        s = per.setdefault(r["scenario"], {"scenario": r["scenario"], "expected": r["expected"], "runs": 0,
                                           "failed_runs": 0, "right": 0, "holders": 0, "holder_runs": 0,
                                           "false_alarms": 0, "run_s": 0.0, "no_fault": r.get("no_fault", False),
                                           "answers": []})
        if "right" not in r:
            s["failed_runs"] += 1
            continue
        s["runs"] += 1
        s["right"] += bool(r["right"])
        s["false_alarms"] += r["false_alarms"]
        s["run_s"] += float(r.get("run_s") or 0)
        s["answers"].append(r["answer"])
        if r.get("holder_named") is not None:
            s["holder_runs"] += 1
            s["holders"] += bool(r["holder_named"])
    faults = [r for r in scored if not r["no_fault"]]
    by_category: OrderedDict[str, list[int]] = OrderedDict()
    for r in faults:
        c = by_category.setdefault(r["expected"], [0, 0])
        c[0] += bool(r["right"])
        c[1] += 1
    db = sum(r["db_findings"] for r in scored)
    db_right = sum(r["db_right"] for r in scored)
    nofault = [r for r in scored if r["no_fault"]]
    nofault_s = sum(float(r.get("run_s") or 0) for r in nofault)
    nofault_alarms = sum(r["false_alarms"] for r in nofault)
    all_s = sum(float(r.get("run_s") or 0) for r in scored)
    return {"scenarios": list(per.values()),
            "accuracy": (sum(bool(r["right"]) for r in faults), len(faults)),
            "categories": {c: tuple(v) for c, v in by_category.items()},
            "precision": (db_right, db),
            "nofault_false_alarms": nofault_alarms, "nofault_minutes": nofault_s / 60.0,
            "nofault_per_hour": nofault_alarms / (nofault_s / 3600.0) if nofault_s else None,
            "false_alarms": sum(r["false_alarms"] for r in scored), "minutes": all_s / 60.0,
            "per_hour": sum(r["false_alarms"] for r in scored) / (all_s / 3600.0) if all_s else None}


def table(summary: dict) -> str:
    """The accuracy table of docs/diagnosis.md as markdown: per scenario, then per category and overall."""
    out = ["| # | Expected | Runs | First answer right (Wilson 95 %) | Holder named | False alarms | Answers |",
           "|---|---|---|---|---|---|---|"]
    for s in summary["scenarios"]:
        right = "-" if s["no_fault"] else _pct(s["right"], s["runs"])
        holders = f"{s['holders']}/{s['holder_runs']}" if s["holder_runs"] else "-"
        runs = f"{s['runs']}" + (f" (+{s['failed_runs']} failed)" if s["failed_runs"] else "")
        answers = "; ".join(s["answers"]) or "-"
        out.append(f"| {s['scenario']} | `{s['expected']}` | {runs} | {right} | {holders} | {s['false_alarms']} "
                   f"| {answers} |")
    out += ["", "| Category | First answer right (Wilson 95 %) |", "|---|---|"]
    for c, (k, n) in summary["categories"].items():
        out.append(f"| `{c}` | {_pct(k, n)} |")
    k, n = summary["accuracy"]
    out.append(f"| **overall** | **{_pct(k, n)}** |")
    pk, pn = summary["precision"]
    out.append("")
    out.append(f"Precision (findings with a database category at the fault and right / all with a database "
               f"category): {_pct(pk, pn)}.")
    minutes = summary["nofault_minutes"]
    if summary["nofault_per_hour"] is None:
        out.append("False alarms per hour on the no-fault runs: no no-fault run scored.")
    else:
        note = "" if minutes >= MIN_NOFAULT_MINUTES else \
            f"; fewer than {MIN_NOFAULT_MINUTES} minutes: not yet a figure to rely on"
        lo, hi = (x / (minutes / 60.0) for x in poisson_interval(summary["nofault_false_alarms"]))
        out.append(f"False alarms per hour on the no-fault runs: {summary['nofault_per_hour']:.1f} "
                   f"(exact Poisson 95 % {lo:.1f}-{hi:.1f}; {summary['nofault_false_alarms']} in {minutes:.1f} "
                   f"minutes of no-fault runs{note}).")
    if summary["per_hour"] is not None:
        out.append(f"False alarms over all runs (database category away from any fault): "
                   f"{summary['false_alarms']} in {summary['minutes']:.1f} minutes, "
                   f"{summary['per_hour']:.1f} per hour.")
    return "\n".join(out)
