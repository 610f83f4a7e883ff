"""The box's condition over a measurement run, summarised from its box.log lines (scripts/lib/box_sampler.py), and
the rule that says whether the run was quiet enough to keep (scripts/repro.sh's run.json, drift_table.py).

A run is quiet when, at the median over its 30-s intervals, both
  - the processes outside the run (``others=``) used at most QUIET_PCT % of one core, and
  - the hypervisor's steal (``steal=``: time the box's CPUs were ready to run and the host ran another tenant)
    took at most QUIET_PCT % of one core.
One bar for both: a core's time the host gives to its other tenants is lost to the run exactly like a core's time a
process beside it takes, and no process on the box shows it (docs/diagnosis.md: in the no-fault runs the steal's
median over a 90-s run was 12-28 % of the host, i.e. 24-56 % of one core, in 7 of 8 N2 runs, while the processes
outside the run used at most 0.5 %). Steal appears only while the box wants its CPUs, so an idle box shows none;
it is judged over the run, when the run's own processes want them. box.log lines from before the sampler recorded
steal (2026-12-03) have none: such a run is judged on the others alone, and ``steal_judged`` says so.
Standard library only.

Usage: box_summary.py BOX_LOG   (prints one line: the summary and the verdict)
"""
from __future__ import annotations

import os
import statistics
import sys

QUIET_PCT = 10.0  # % of one core, at the median over the run's intervals: others and steal alike


def values(lines: list[str], key: str) -> list[float]:
    """Every line's ``key=<pct>`` (box_sampler.py's fields), in order."""
    return [float(w[len(key) + 1:]) for line in lines for w in line.split() if w.startswith(key + "=")]


def not_quiet(box: dict) -> list[str]:
    """Why a summarised run was not quiet (``summarize``'s dict, or run.json's ``box``): one phrase per cause, the
    empty list when it was quiet or when nothing was recorded to judge."""
    why = []
    others, steal = box.get("others_cpu_pct_median"), box.get("steal_cpu_pct_median")
    if others is not None and others > QUIET_PCT:
        why.append(f"other processes used {others:.0f} % of a core at the median")
    if steal is not None and steal > QUIET_PCT:
        why.append(f"the hypervisor's steal took {steal:.0f} % of a core at the median")
    return why


def summarize(lines: list[str], cores: int | None) -> dict:
    """run.json's ``box``: the 1-min load average's median and maximum, the CPU (% of one core) of the other
    processes, the kernel's threads and the hypervisor's steal at the median (and the maxima of the first and
    the last), and ``quiet``: None when no line carries ``others=`` (nothing to judge), else whether ``not_quiet``
    found no cause; ``not_quiet`` lists the causes."""
    loads = [float(line.split()[1]) for line in lines if len(line.split()) > 1]
    others, kernel, steal = values(lines, "others"), values(lines, "kernel"), values(lines, "steal")
    box = {"cores": cores, "load1_median": round(statistics.median(loads), 2) if loads else None,
           "load1_max": max(loads) if loads else None, "samples": len(loads),
           "others_cpu_pct_median": round(statistics.median(others), 2) if others else None,
           "others_cpu_pct_max": max(others) if others else None,
           "kernel_cpu_pct_median": statistics.median(kernel) if kernel else None,
           "steal_cpu_pct_median": round(statistics.median(steal), 2) if steal else None,
           "steal_cpu_pct_max": max(steal) if steal else None,
           "steal_judged": bool(steal)}
    why = not_quiet(box)
    box["quiet"] = None if not others else not why
    box["not_quiet"] = why
    return box


def describe(box: dict) -> str:
    """One line for a report: the load, the others' and the steal's medians (and maxima) and the verdict."""
    def pct(key: str) -> str:
        med, top = box.get(f"{key}_cpu_pct_median"), box.get(f"{key}_cpu_pct_max")
        return "not recorded" if med is None else f"{med:g} % of a core at the median (max {top:g})"
    verdict = ("quiet: not judged (no others= figure)" if box["quiet"] is None else "quiet" if box["quiet"]
               else "NOT QUIET: " + "; ".join(box["not_quiet"]) + ": run it again alone")
    return (f"Box: {box['samples']} samples; load (1 min) median {box['load1_median']}, max {box['load1_max']} on "
            f"{box['cores']} cores; other processes {pct('others')}; the hypervisor's steal {pct('steal')}; "
            f"{verdict}")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: box_summary.py BOX_LOG   (box_sampler.py's lines; prints the summary line)", file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as f:
        print(describe(summarize(f.read().splitlines(), os.cpu_count())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
