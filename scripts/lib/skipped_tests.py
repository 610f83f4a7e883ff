#!/usr/bin/env python3
"""Lists the skipped tests in JUnit XML reports and fails when there is any (scripts/test.sh).

    skipped_tests.py LABEL REPORT...

REPORT is a surefire reports folder (its TEST-*.xml files are read) or one XML file (pytest --junitxml).
A test counts as skipped when its <testcase> holds a <skipped> element: surefire writes one for @Disabled
tests and failed assumptions (TestServers' IVS_ALLOW_SKIP skips among them), pytest for pytest.skip and
skip marks. An expected failure (pytest's xfail, also written as <skipped>) is not a skip and is left out.

Exit status: 0 when nothing was skipped; 1 when something was (each printed as "LABEL skipped: test: why");
2 when there is no report to read (the tests did not run, so nothing can be said).
"""
from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def report_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            files.extend(sorted(p.glob("TEST-*.xml")))
        elif p.is_file():
            files.append(p)
    return files


def skipped(files: list[Path]) -> tuple[int, list[str]]:
    """The number of test cases read and one line per skipped one."""
    cases = 0
    lines: list[str] = []
    for f in files:
        for case in ET.parse(f).getroot().iter("testcase"):
            cases += 1
            for s in case.findall("skipped"):
                if s.get("type") == "pytest.xfail":
                    continue
                why = (s.get("message") or s.text or "").strip().splitlines()
                name = f"{case.get('classname', '')}#{case.get('name', '')}".lstrip("#")
                lines.append(f"{name}: {why[0] if why else 'no reason given'}")
    return cases, lines


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print("usage: skipped_tests.py LABEL REPORT...", file=sys.stderr)
        return 2
    label = argv[1]
    files = report_files(argv[2:])
    if not files:
        print(f"{label}: no test report in {' '.join(argv[2:])}", file=sys.stderr)
        return 2
    cases, lines = skipped(files)
    for line in lines:
        print(f"{label} skipped: {line}")
    print(f"{label}: {cases} tests in {len(files)} report(s), {len(lines)} skipped")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
