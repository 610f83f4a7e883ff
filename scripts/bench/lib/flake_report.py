#!/usr/bin/env python3
"""Reads the Surefire XML reports of several test runs and prints every test that failed at least once.

    flake_report.py N RUN_DIR... [--suite SUITE_DIR]

Each RUN_DIR holds the TEST-*.xml files of one run of the server-backed classes; SUITE_DIR those of the whole
suite's run. A test is named class#method; its failure or error message (first line, the first one seen) is
printed with how many of the N runs it failed in, and whether it failed in the suite run. Exit status 1 when a
test failed, 0 when none did.
"""
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def outcomes(report_dir):
    """{test: message or None} for every test case in the directory's reports (None: passed or skipped)."""
    out = {}
    for f in sorted(Path(report_dir).glob("TEST-*.xml")):
        for case in ET.parse(f).getroot().iter("testcase"):
            name = f"{case.get('classname')}#{case.get('name')}"
            bad = case.find("failure")
            if bad is None:
                bad = case.find("error")
            if bad is None:
                out.setdefault(name, None)
                continue
            text = (bad.get("message") or bad.text or bad.get("type") or "").strip()
            out[name] = f"{bad.tag}: {text.splitlines()[0] if text else '(no message)'}"
    return out


def main(argv):
    n = int(argv[0])
    args = argv[1:]
    suite = None
    if "--suite" in args:
        i = args.index("--suite")
        suite = args[i + 1]
        args = args[:i] + args[i + 2:]
    runs = [outcomes(d) for d in args]
    suite_out = outcomes(suite) if suite else None
    failed = {}
    for run in runs + ([suite_out] if suite_out else []):
        for name, message in run.items():
            if message is not None:
                failed.setdefault(name, message)
    ran = sum(1 for run in runs if run)
    print(f"{len(runs)} run(s) of {len(set().union(*runs)) if runs else 0} test(s) (N={n}, {ran} with reports)"
          + (f"; suite run: {len(suite_out)} test(s)" if suite_out is not None else "; no suite run"))
    if not failed:
        print("no test failed")
        return 0
    for name in sorted(failed):
        times = sum(1 for run in runs if run.get(name) is not None)
        where = f"failed in {times} of {len(runs)} run(s)"
        if suite_out is not None:
            state = suite_out.get(name, "absent")
            where += "; suite: " + ("failed" if state not in (None, "absent") else
                                    "passed" if state is None else "not run")
        print(f"{name}: {where}\n    {failed[name]}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
