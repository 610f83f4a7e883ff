"""scripts/lib/box_summary.py (run.json's box and the quiet rule of scripts/repro.sh) on box.log lines written here,
with the medians worked out by hand: a run is quiet when both the other processes and the hypervisor's steal stayed
at or under 10 % of a core at the median."""
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts" / "lib"))
import box_summary  # noqa: E402

sys.path.pop(0)
sys.path.insert(0, str(REPO / "scripts" / "bench" / "lib"))
import drift_table  # noqa: E402

sys.path.pop(0)


def _line(minute: int, load: float, others: float, steal: float | None = None, kernel: float = 0.3) -> str:
    stolen = "" if steal is None else f" steal={steal}"
    return (f"2026-12-03T12:{minute:02d}:00Z {load} 1.00 1.00 others={others} own=95.0 kernel={kernel}{stolen} "
            f"top: bash:10:{others}")


def test_a_run_with_little_steal_and_no_other_process_is_quiet():
    # others 0.2, 0.5, 0.4 -> median 0.4; steal 2, 9, 4 -> median 4
    lines = [_line(0, 1.2, 0.2, 2.0), _line(1, 1.4, 0.5, 9.0), _line(2, 1.3, 0.4, 4.0)]
    box = box_summary.summarize(lines, 2)
    assert box["others_cpu_pct_median"] == 0.4 and box["steal_cpu_pct_median"] == 4.0
    assert box["steal_cpu_pct_max"] == 9.0 and box["load1_median"] == 1.3 and box["load1_max"] == 1.4
    assert box["quiet"] is True and box["not_quiet"] == [] and box["steal_judged"] is True


def test_the_hypervisors_steal_alone_makes_a_run_not_quiet():
    # no process beside the run (others 0.3 at the median), but the host took 24 % of a core at the median: the
    # no-fault runs' N2 condition (docs/diagnosis.md), which the others' figure alone called quiet
    lines = [_line(0, 1.5, 0.3, 20.0), _line(1, 1.6, 0.2, 24.0), _line(2, 1.5, 0.4, 31.0)]
    box = box_summary.summarize(lines, 2)
    assert box["quiet"] is False
    assert box["not_quiet"] == ["the hypervisor's steal took 24 % of a core at the median"]


def test_both_causes_are_named_and_the_bar_is_at_most_ten_percent():
    lines = [_line(0, 3.0, 40.0, 15.0), _line(1, 3.1, 60.0, 12.0)]  # medians: others 50, steal 13.5
    assert box_summary.summarize(lines, 2)["not_quiet"] == [
        "other processes used 50 % of a core at the median", "the hypervisor's steal took 14 % of a core at the median"]
    at_the_bar = [_line(0, 1.0, 10.0, 10.0)]
    assert box_summary.summarize(at_the_bar, 2)["quiet"] is True
    just_over = [_line(0, 1.0, 10.0, 10.1)]
    assert box_summary.summarize(just_over, 2)["quiet"] is False


def test_lines_from_before_steal_was_recorded_are_judged_on_the_others_alone():
    lines = [_line(0, 1.2, 0.2), _line(1, 1.4, 0.5)]
    box = box_summary.summarize(lines, 2)
    assert box["steal_cpu_pct_median"] is None and box["steal_judged"] is False and box["quiet"] is True
    busy = [_line(0, 2.2, 30.0), _line(1, 2.4, 50.0)]
    assert box_summary.summarize(busy, 2)["not_quiet"] == ["other processes used 40 % of a core at the median"]


def test_a_log_without_the_others_figure_is_not_judged():
    # box.log before box_sampler.py: load averages only
    lines = ["2026-11-20T10:00:00Z 1.10 1.00 0.90", "2026-11-20T10:00:30Z 1.30 1.00 0.90"]
    box = box_summary.summarize(lines, 2)
    assert box["quiet"] is None and box["load1_median"] == 1.2 and box["samples"] == 2


def test_the_drift_checks_idle_condition_is_not_idle_when_the_hypervisor_took_the_cpu(tmp_path, capsys):
    for name, steal in (("idle", 30.0), ("loaded", 30.0)):
        folder = tmp_path / name
        folder.mkdir()
        box = box_summary.summarize([_line(0, 1.2, 0.3, steal), _line(1, 1.2, 0.3, steal)], 2)
        (folder / "run.json").write_text(json.dumps({"seconds": 900, "box": box}), encoding="utf-8")
    assert drift_table._box(tmp_path / "idle").endswith("steal 30.0 % of a core (median) - NOT IDLE")
    assert "the hypervisor's steal took 30 % of a core at the median" in capsys.readouterr().err
    # the loaded condition is meant to be busy: its box is described, never judged
    assert not drift_table._box(tmp_path / "loaded").endswith("NOT IDLE")


def test_the_summary_line_states_the_medians_and_the_verdict(tmp_path, capsys):
    log = tmp_path / "box.log"
    log.write_text("\n".join([_line(0, 1.2, 0.2, 2.0), _line(1, 1.4, 0.6, 30.0), _line(2, 1.3, 0.4, 20.0)]) + "\n")
    assert box_summary.main([str(log)]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("Box: 3 samples; load (1 min) median 1.3, max 1.4 on "), line
    assert ("other processes 0.4 % of a core at the median (max 0.6); the hypervisor's steal 20 % of a core at the "
            "median (max 30); NOT QUIET: the hypervisor's steal took 20 % of a core at the median: run it again "
            "alone") in line, line
    assert box_summary.main([]) == 2
