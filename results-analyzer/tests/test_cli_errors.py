import synth
from ivs_analyzer.cli import main


def test_missing_dir(tmp_path, capsys):
    missing = tmp_path / "does-not-exist"
    assert main(["report", str(missing)]) == 2
    err = capsys.readouterr().err
    assert str(missing) in err and err.count("\n") == 1


def test_missing_summary(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["report", str(tmp_path / "empty")]) == 2
    assert "summary.json" in capsys.readouterr().err


def test_malformed_csv_names_file_and_column(tmp_path, capsys):
    run = synth.write_run(tmp_path / "bad", windows=30, step_at=None, late_step_at=None)
    lines = (run / "samples.csv").read_text().splitlines()
    cells = lines[10].split(",")
    cells[9] = "fast"  # throughput column
    lines[10] = ",".join(cells)
    (run / "samples.csv").write_text("\n".join(lines) + "\n")
    assert main(["report", str(run)]) == 2
    err = capsys.readouterr().err
    assert "samples.csv" in err and "'throughput'" in err


def test_missing_column(tmp_path, capsys):
    run = synth.write_run(tmp_path / "bad", windows=30, step_at=None, late_step_at=None)
    text = (run / "samples.csv").read_text().replace("lat_p99_us", "p99", 1)
    (run / "samples.csv").write_text(text)
    assert main(["report", str(run)]) == 2
    err = capsys.readouterr().err
    assert "samples.csv" in err and "lat_p99_us" in err


def test_compare_missing_dir(tmp_path, capsys):
    a = synth.write_run(tmp_path / "a", windows=30, step_at=None, late_step_at=None)
    assert main(["compare", str(a), str(tmp_path / "nope"), "-o", str(tmp_path / "o")]) == 2
    assert "nope" in capsys.readouterr().err
