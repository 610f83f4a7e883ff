#!/usr/bin/env python3
"""Reads the Surefire XML reports of several test runs and prints every test that failed at least once.

    flake_report.py [--classes FILE] N RUN_DIR... [--suite SUITE_DIR]

Each RUN_DIR holds the TEST-*.xml files of one run of the server-backed classes (and, when flakes.sh wrote it,
`mvn-exit`: Maven's exit status); SUITE_DIR those of the whole suite's run. A test is named class#method; its
failure or error message (first line, the first one seen) is printed with how many of the N runs it failed in,
and whether it failed in the suite run. FILE lists the classes every run should have run, one a line (simple or
fully qualified names). A run is no pass when it failed a test, when Maven exited non-zero although no test in
its reports failed (the build, a plugin, a killed fork), or when a class of FILE has no report in it (it never
ran): a hunt that ran nothing must not say that nothing failed. Exit status 1 when any run is no pass, else 0.
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


def run_problems(report_dir, run, classes):
    """What makes a run with no failing test no pass: Maven's non-zero exit, classes without a report."""
    problems = []
    exit_file = Path(report_dir) / "mvn-exit"
    rc = exit_file.read_text().strip() if exit_file.exists() else "0"
    if rc != "0" and all(m is None for m in run.values()):
        problems.append(f"mvn exited {rc} with no failing test in its {len(run)} test report(s)")
    reported = {name.split("#", 1)[0] for name in run}
    missing = [c for c in classes
               if not any(r == c or r.endswith("." + c) or c.endswith("." + r) for r in reported)]
    if missing:
        shown = ", ".join(missing[:5]) + (f" (+{len(missing) - 5} more)" if len(missing) > 5 else "")
        problems.append(f"{len(missing)} of {len(classes)} class(es) have no report: {shown}")
    return problems


def main(argv):
    args = list(argv)
    classes = []
    if args[:1] == ["--classes"]:
        classes = [c.strip() for c in Path(args[1]).read_text().split() if c.strip()]
        args = args[2:]
    n = int(args[0])
    args = args[1:]
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
    problems = [(f"run {k}", p) for k, (d, run) in enumerate(zip(args, runs), 1)
                for p in run_problems(d, run, classes)]
    if suite_out is not None:
        problems += [("suite", p) for p in run_problems(suite, suite_out, [])]
    for where, p in problems:
        print(f"{where}: not a pass: {p}")
    if not failed and not problems:
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
    if not failed:
        print("no test failed in the reports, but the hunt is not a pass (above)")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
