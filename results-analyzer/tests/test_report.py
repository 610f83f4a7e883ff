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
    # duration_ms, cpu, disk, server_gone, pressure, version_backlog, misses, refused, lost and settings were added
    # (README: additive keys; older readers ignore them)
    assert set(changes[0]) == {"phase", "series", "time_ms", "before", "after", "relative_change", "metrics",
                                "follows", "duration_ms", "cpu", "disk", "server_gone", "pressure", "version_backlog",
                                "misses", "refused", "lost", "settings"}
    assert changes[0]["settings"] is None  # the synthetic run has no setting-changes.csv
    assert changes[0]["version_backlog"] is None  # nor kept versions for an old snapshot
    assert changes[0]["server_gone"] is None  # the synthetic server never went away
    assert changes[0]["refused"] is None and changes[0]["lost"] is None  # nor refused or lost a connection
    assert changes[0]["pressure"] is None  # nor counted a flush or stall wait
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
    from ivs_analyzer.explain.changes import find_changes
    from ivs_analyzer.report.charts import run_charts
    from ivs_analyzer.load.results import load_run
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


# matplotlib's default colour cycle (tab10): the first item compared is drawn in C0, the second in C1
C0, C1 = (31, 119, 180), (255, 127, 14)


def _colour_pixels(png: Path, colour, rows=slice(None), cols=slice(None)) -> int:
    """How many pixels of the chart (a region of it) have exactly this colour."""
    import matplotlib.image
    import numpy as np
    img = matplotlib.image.imread(png)
    rgb = np.round(img[rows, cols, :3] * 255).astype(int)
    return int((rgb == np.array(colour)).all(axis=-1).sum())


def _table_cells(html: str, label: str) -> list[str]:
    """The cells of the table row whose first cell is `label`."""
    row = re.search(r'<tr><td class="l">' + re.escape(label) + r'</td>(.*?)</tr>', html, re.S)
    assert row, label
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)]


def test_compare_two_runs(tmp_path):
    a = synth.write_run(tmp_path / "a", product="MariaDB", engine="InnoDB")  # 1000 ops/s, 600 from half-way
    b = synth.write_run(tmp_path / "b", product="MySQL", engine="MyRocks", step_at=None, seed=9)  # 1000 ops/s
    out = tmp_path / "cmp"
    assert main(["compare", str(a), str(b), "-o", str(out)]) == 0
    text = (out / "report.html").read_text()
    assert "Comparison: MariaDB/InnoDB vs MySQL/MyRocks" in text
    # the phase table has one row per run, named after it, with that run's own figures
    phase = json.loads((a / "summary.json").read_text())["phases"][0]["name"]
    header = re.findall(r"<th[^>]*>(.*?)</th>", text[text.index("Summary per phase"):])
    col = header.index("throughput") - 1  # the label cell is taken off by _table_cells
    tput = {label: float(_table_cells(text, f"{label}: {phase}")[col].replace(",", ""))
            for label in ("MariaDB/InnoDB", "MySQL/MyRocks")}
    assert abs(tput["MariaDB/InnoDB"] - 800) < 40 and abs(tput["MySQL/MyRocks"] - 1000) < 50, tput
    # one chart: throughput above, p99 below, each run drawn in its own colour in both
    assert _image_links(out / "report.html") == ["compare_runs.png"]
    png = out / "compare_runs.png"
    import matplotlib.image
    height, width = matplotlib.image.imread(png).shape[:2]
    assert height > 300 and width > 500
    for rows in (slice(0, height // 2), slice(height // 2, height)):
        assert _colour_pixels(png, C0, rows) > 100 and _colour_pixels(png, C1, rows) > 100


def test_compare_experiments(tmp_path):
    a = synth.write_experiment(tmp_path / "e1", epochs=4)
    b = synth.write_experiment(tmp_path / "e2", epochs=4, seed=8)
    out = tmp_path / "cmp"
    assert main(["compare", str(a), str(b), "-o", str(out)]) == 0
    text = (out / "report.html").read_text()
    labels = re.search(r"<title>(.*?)</title>", text, re.S).group(1)
    assert "(e1)" in labels and "(e2)" in labels, labels  # same product and engine: told apart by folder
    assert _image_links(out / "report.html") == ["compare_epochs.png"]
    png = out / "compare_epochs.png"
    import matplotlib.image
    height, width = matplotlib.image.imread(png).shape[:2]
    # four panels: run latency and run throughput above (the two experiments differ: both lines drawn), extend
    # throughput and latency below (the synthetic extends are the same in both, so the second experiment's
    # line covers the first's, which shows in the legend only)
    top, bottom = slice(0, height // 2), slice(height // 2, height)
    for cols in (slice(0, width // 2), slice(width // 2, width)):
        assert _colour_pixels(png, C0, top, cols) > 50 and _colour_pixels(png, C1, top, cols) > 50, cols
        assert _colour_pixels(png, C1, bottom, cols) > 50 and _colour_pixels(png, C0, bottom, cols) > 0, cols


def test_report_two_phase_run(tmp_path):
    run = synth.write_two_phase_run(tmp_path / "two")
    out = tmp_path / "out"
    assert main(["report", str(run), "-o", str(out)]) == 0
    text = (out / "report.html").read_text()
    assert "phase0" in text and "phase1" in text and "unlimited" in text
    assert not (run / "report.html").exists()  # -o respected
