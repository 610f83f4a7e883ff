import json
import re
from pathlib import Path

import synth
from ivs_analyzer.cli import main


def _image_links(html_path: Path) -> list[str]:
    return re.findall(r'<img src="([^"]+)"', html_path.read_text())


def test_report_run(step_run, capsys):
    assert main(["report", str(step_run)]) == 0
    html = step_run / "report.html"
    assert capsys.readouterr().out.strip() == str(html)
    links = _image_links(html)
    assert {"throughput.png", "latency.png", "types.png", "resources.png"} <= set(links)
    for link in links:
        assert not link.startswith("/") and (step_run / link).stat().st_size > 1000
    changes = json.loads((step_run / "changes.json").read_text())
    assert changes[0]["series"] == "throughput"
    # duration_ms and cpu were added (README: additive keys; older readers ignore them)
    assert set(changes[0]) == {"phase", "series", "time_ms", "before", "after", "relative_change", "metrics",
                                "follows", "duration_ms", "cpu"}
    assert set(changes[0]["metrics"][0]) == {"name", "score", "before", "after", "same"}
    text = html.read_text()
    assert "Step changes" in text and synth.STEP_METRIC in text
    # the first finding names the stepped metric, and its chart plots it around the step
    first = json.loads((step_run / "findings.json").read_text())[0]
    assert first["kind"] == "step" and first["cause"] == synth.STEP_METRIC, first
    cause = [p for p in first["chart"]["data"]["panels"] if synth.STEP_METRIC in p["series"]][0]
    ys = cause["series"][synth.STEP_METRIC]
    assert min(ys[-10:]) > 300 > max(ys[:10])  # +400 from the step on
    assert first["chart"]["file"] in links
    # the resources chart gives the first suspect a panel of its own
    resources = _run_charts(step_run)[0]
    assert {"title": synth.STEP_METRIC, "series": [synth.STEP_METRIC]} in resources["panels"]


def _run_charts(path):
    from ivs_analyzer.changes import find_changes
    from ivs_analyzer.charts import run_charts
    from ivs_analyzer.load import load_run
    run = load_run(path)
    return [c for c in run_charts(run, path, find_changes(run)) if c["file"] == "resources.png"]


def test_report_experiment(experiment, tmp_path):
    out = tmp_path / "out"
    assert main(["report", str(experiment), "-o", str(out)]) == 0
    links = _image_links(out / "report.html")
    assert {"epoch_run.png", "epoch_p99.png", "value_sizes.png", "value_sizes_heatmap.png", "extend.png"} <= set(links)
    for link in links:
        assert (out / link).stat().st_size > 1000
    assert "epoch-003/main/run" in (out / "report.html").read_text()
    findings = json.loads((out / "findings.json").read_text())
    assert findings[0]["kind"] == "none"  # a steady ramp of 10 epochs: nothing changed


def test_compare_two_runs(tmp_path):
    a = synth.write_run(tmp_path / "a", product="MariaDB", engine="InnoDB")
    b = synth.write_run(tmp_path / "b", product="MySQL", engine="MyRocks", step_at=None, seed=9)
    out = tmp_path / "cmp"
    assert main(["compare", str(a), str(b), "-o", str(out)]) == 0
    text = (out / "report.html").read_text()
    assert "MariaDB/InnoDB" in text and "MySQL/MyRocks" in text
    for link in _image_links(out / "report.html"):
        assert (out / link).is_file()


def test_compare_experiments(tmp_path):
    a = synth.write_experiment(tmp_path / "e1", epochs=4)
    b = synth.write_experiment(tmp_path / "e2", epochs=4, seed=8)
    out = tmp_path / "cmp"
    assert main(["compare", str(a), str(b), "-o", str(out)]) == 0
    assert (out / "compare_epochs.png").is_file()


def test_report_two_phase_run(tmp_path):
    run = synth.write_two_phase_run(tmp_path / "two")
    out = tmp_path / "out"
    assert main(["report", str(run), "-o", str(out)]) == 0
    text = (out / "report.html").read_text()
    assert "phase0" in text and "phase1" in text and "unlimited" in text
    assert not (run / "report.html").exists()  # -o respected
