"""The hypervisor's CPU steal in the runs of a diagnosis-accuracy folder (docs/diagnosis.md, "The no-fault runs,
repeated"): per run, in results.json's order, the scenario, the median and the maximum of monitor.csv's
os.cpu.steal_pct over the run's windows, and who the first answer's title says took or gave back the host's CPU
(another process, the hypervisor, the client or the server; "(meanwhile)" when a database counter leads the title
and the CPU follows it); then the range of the maxima and those counts per scenario. Run it on a folder rescored
by a later analyzer (diagnosis-accuracy.sh --rescore on a copy) to see what a rule change did to the same runs.
Standard library only.

Usage: steal_summary.py FOLDER   (a folder with results.json whose run_dir entries are relative to the project root)
"""
from __future__ import annotations

import collections
import csv
import json
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
WHO = re.compile(r"host CPU (taken by|given back by) (another process(?: or the client)?|the hypervisor|the client|"
                 r"the database server)")


def cpu_answer(title: str) -> str | None:
    """Who the title says took (or gave back) the host's CPU, e.g. "taken by the hypervisor", with " (meanwhile)"
    when it follows a database counter; None when the title says nothing of the CPU."""
    lead, _, meanwhile = title.partition("meanwhile")
    for part, suffix in ((lead, ""), (meanwhile, " (meanwhile)")):
        m = WHO.search(part)
        if m:
            return f"{m.group(1)} {m.group(2)}{suffix}"
    return None


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not (Path(argv[0]) / "results.json").is_file():
        print(f"steal_summary.py: not a folder with results.json: {argv[0] if argv else ''}", file=sys.stderr)
        return 2
    maxima, counts = [], collections.Counter()
    for r in json.loads((Path(argv[0]) / "results.json").read_text(encoding="utf-8")):
        with open(ROOT / r["run_dir"] / "monitor.csv", newline="", encoding="utf-8") as f:
            steal = [float(x["os.cpu.steal_pct"]) for x in csv.DictReader(f) if x.get("os.cpu.steal_pct")]
        who = cpu_answer(r.get("title") or "")  # a run with no finding has no title
        maxima.append(max(steal))
        counts[(r["scenario"], f"name the host CPU {who}" if who else "name no CPU")] += 1
        print(f"{r['scenario']} {r['started']} steal median {statistics.median(steal):.0f} % max {max(steal):.0f} %"
              f"{f'  first answer: host CPU {who}' if who else ''}")
    print(f"steal maximum per run: {min(maxima):.0f}-{max(maxima):.0f} % over {len(maxima)} runs")
    for (scenario, who), n in sorted(counts.items()):
        print(f"{scenario} first answers that {who}: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
