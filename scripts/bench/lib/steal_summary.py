"""The hypervisor's CPU steal in the runs of a diagnosis-accuracy folder (docs/diagnosis.md, "The no-fault runs,
repeated"): per run, in results.json's order, the scenario, the median and the maximum of monitor.csv's
os.cpu.steal_pct over the run's windows, and whether the first answer's cause (before "meanwhile") is "host CPU
taken by another process"; then the range of the maxima. Standard library only.

Usage: steal_summary.py FOLDER   (a folder with results.json whose run_dir entries are relative to the project root)
"""
from __future__ import annotations

import csv
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not (Path(argv[0]) / "results.json").is_file():
        print(f"steal_summary.py: not a folder with results.json: {argv[0] if argv else ''}", file=sys.stderr)
        return 2
    maxima = []
    for r in json.loads((Path(argv[0]) / "results.json").read_text(encoding="utf-8")):
        with open(ROOT / r["run_dir"] / "monitor.csv", newline="", encoding="utf-8") as f:
            steal = [float(x["os.cpu.steal_pct"]) for x in csv.DictReader(f) if x.get("os.cpu.steal_pct")]
        other = "taken by another process" in r.get("title", "").split("meanwhile")[0]
        maxima.append(max(steal))
        print(f"{r['scenario']} {r['started']} steal median {statistics.median(steal):.0f} % max {max(steal):.0f} %"
              f"{'  first answer: another process' if other else ''}")
    print(f"steal maximum per run: {min(maxima):.0f}-{max(maxima):.0f} % over {len(maxima)} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
