"""settings.csv (the configured rate and mix per window of a ramped run) is read and drawn as the target rate."""
import shutil
from pathlib import Path

from ivs_analyzer.cli import main
from ivs_analyzer.load.results import load_run
from ivs_analyzer.report.charts import _ramped_phases, _target_steps

# A real SQLite run of config/workloads/ramp_rate_and_mix.xml: 100 -> 300 ops/s linear, then 300 -> 100 in steps.
RAMP_RUN = Path(__file__).parent / "data" / "ramp_run"


def test_a_ramped_run_has_its_settings_per_window():
    run = load_run(RAMP_RUN)
    assert run.settings is not None
    up = run.settings[(run.settings["phase"] == 0) & (run.settings["measured_ms"] == 1000)]
    rates = list(up["rate"])
    assert rates == sorted(rates) and rates[0] < 120 and rates[-1] > 270
    # ramped phases take their target rate from settings.csv, not the flat summary.json target
    assert _ramped_phases(run) == {0, 1}
    assert _target_steps(run) == ([], [])


def test_a_run_without_settings_keeps_the_flat_target(tmp_path):
    run_dir = tmp_path / "run"
    shutil.copytree(RAMP_RUN, run_dir)
    (run_dir / "settings.csv").unlink()
    run = load_run(run_dir)
    assert run.settings is None and _ramped_phases(run) == set()
    assert _target_steps(run)[1] == [100.0, 300.0]


def test_the_report_of_a_ramped_run(tmp_path):
    run_dir = tmp_path / "run"
    shutil.copytree(RAMP_RUN, run_dir)
    assert main(["report", str(run_dir)]) == 0
    assert (run_dir / "throughput.png").stat().st_size > 1000
