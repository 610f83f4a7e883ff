"""The flake hunt's verdict (scripts/bench/lib/flake_report.py) on Surefire reports written here: a failing test
is named with its count, and a hunt that ran nothing - no report, a class missing, Maven failing with no test
failed (the offline build of a new machine did that for three runs) - is no pass, never "no test failed"."""
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts" / "bench" / "lib"))
import flake_report  # noqa: E402

sys.path.pop(0)


def _report(run: Path, cls: str, cases: dict, rc: int = 0) -> Path:
    """A TEST-<cls>.xml in `run` with one testcase per name; a case whose value is a message failed."""
    run.mkdir(parents=True, exist_ok=True)
    body = "".join(f'<testcase classname="{cls}" name="{name}">'
                   + (f'<failure message="{msg}"/>' if msg else "") + "</testcase>"
                   for name, msg in cases.items())
    (run / f"TEST-{cls}.xml").write_text(f'<testsuite name="{cls}">{body}</testsuite>')
    (run / "mvn-exit").write_text(f"{rc}\n")
    return run


def _classes(tmp_path: Path, *names: str) -> str:
    f = tmp_path / "classes.txt"
    f.write_text("\n".join(names) + "\n")
    return str(f)


def test_all_passed_is_a_pass(tmp_path, capsys):
    runs = [_report(tmp_path / f"run{k}", "org.x.ATest", {"a": None, "b": None}) for k in (1, 2)]
    assert flake_report.main(["--classes", _classes(tmp_path, "ATest"), "2", *map(str, runs)]) == 0
    assert "no test failed" in capsys.readouterr().out


def test_a_test_failing_in_one_run_is_named_with_its_count(tmp_path, capsys):
    r1 = _report(tmp_path / "run1", "org.x.ATest", {"a": None}, rc=0)
    r2 = _report(tmp_path / "run2", "org.x.ATest", {"a": "port in use"}, rc=1)
    assert flake_report.main(["--classes", _classes(tmp_path, "ATest"), "2", str(r1), str(r2)]) == 1
    out = capsys.readouterr().out
    assert "org.x.ATest#a: failed in 1 of 2 run(s)" in out and "port in use" in out
    assert "no test failed" not in out


def test_runs_without_reports_are_no_pass(tmp_path, capsys):
    runs = [tmp_path / f"run{k}" for k in (1, 2, 3)]
    for r in runs:
        r.mkdir()
        (r / "mvn-exit").write_text("1\n")
    assert flake_report.main(["--classes", _classes(tmp_path, "ATest"), "3", *map(str, runs)]) == 1
    out = capsys.readouterr().out
    assert out.count(": not a pass: ") == 6   # each run: Maven failed, and the class has no report
    assert "\nno test failed\n" not in out


def test_maven_failing_with_every_reported_test_passed_is_no_pass(tmp_path, capsys):
    run = _report(tmp_path / "run1", "org.x.ATest", {"a": None}, rc=1)
    assert flake_report.main(["1", str(run)]) == 1
    assert "run 1: not a pass: mvn exited 1 with no failing test" in capsys.readouterr().out


def test_a_class_missing_from_one_run_is_named(tmp_path, capsys):
    r1 = _report(tmp_path / "run1", "org.x.ATest", {"a": None})
    _report(r1, "org.x.BTest", {"b": None})
    r2 = _report(tmp_path / "run2", "org.x.ATest", {"a": None})
    assert flake_report.main(["--classes", _classes(tmp_path, "ATest", "BTest"), "2", str(r1), str(r2)]) == 1
    out = capsys.readouterr().out
    assert "run 2: not a pass: 1 of 2 class(es) have no report: BTest" in out
    assert "run 1: not a pass" not in out
