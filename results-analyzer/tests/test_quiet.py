"""No false steps, and the machine is not blamed on the database (docs/diagnosis.md, the no-fault runs): a move
of one or two windows is not a lasting change; a database counter that moved by a trivial amount against the
operations is no cause; when another process took the host's disk the finding says the machine."""
import json

import numpy as np
import pandas as pd

import synth_cases
from ivs_analyzer.cli import main
from ivs_analyzer.detect.series import ChangeParams
from ivs_analyzer.detect.steps import detect_steps, without_excursions
from ivs_analyzer.explain.disk import attribute_disk, freed_by_other, taken_by_other
from ivs_analyzer.explain.findings import _category, _machine
from ivs_analyzer.explain.metrics import rank_window_metrics, trivial_amount

PARAMS = ChangeParams()


def _p99_steps(values):
    cleaned, _ = without_excursions(values, PARAMS, True, "p99")
    return detect_steps(cleaned, PARAMS, log_scale=True)


def test_two_far_off_windows_at_the_end_of_a_phase_are_not_a_step():
    """The last windows of a phase have no level after them, so no excursion can be told there; five-window
    segments let PELT put a 'step' before them whose mean the two windows carry. Its median did not move."""
    rng = np.random.default_rng(5)
    values = 10_000 * rng.lognormal(0, 0.1, 80)
    values[-2:] *= 6
    assert _p99_steps(values) == []
    values = 10_000 * rng.lognormal(0, 0.1, 80)
    values[:2] *= 6  # the first seconds after the warmup
    assert _p99_steps(values) == []


def test_a_lasting_p99_step_is_still_a_step_and_so_is_one_of_five_windows_at_the_end():
    rng = np.random.default_rng(6)
    values = 10_000 * rng.lognormal(0, 0.1, 80)
    values[50:] *= 3
    assert _p99_steps(values) == [50]
    values = 10_000 * rng.lognormal(0, 0.1, 80)
    values[-5:] *= 3
    assert _p99_steps(values) == [75]


def test_a_counter_that_moved_by_less_than_one_event_per_100_operations_is_no_cause():
    # 1,000 operations per second either side: 1 more table opened a second is 0.001 per operation; 30 more
    # row-lock waits a second are 0.03 per operation
    assert trivial_amount("db.Opened_tables", 0.0, 1.0, (1000.0, 1000.0))
    assert not trivial_amount("db.Innodb_row_lock_waits", 0.0, 30.0, (1000.0, 1000.0))
    # a stall: 4 waiting sessions against 150 operations a second is 0.027 per operation
    assert not trivial_amount("db.Innodb_row_lock_current_waits", 0.0, 4.0, (1000.0, 150.0))
    # not a database counter: bytes and CPU shares have units of their own
    assert not trivial_amount("os.cpu.idle_pct", 50.0, 50.5, (1000.0, 1000.0))
    assert not trivial_amount("db.Opened_tables", 0.0, 1.0, None)


def test_a_one_table_open_at_a_p99_step_is_not_listed_and_a_real_counter_is():
    n = 20
    rng = np.random.default_rng(7)
    after = np.arange(n) >= 10
    metrics = pd.DataFrame({
        "db.Opened_tables": np.where(after, 1.0, 0.0),
        "db.Innodb_buffer_pool_reads": np.where(after, 300.0, 0.0) + rng.normal(0, 2, n),
    }, index=np.arange(n) * 1000.0)
    listed, _ = rank_window_metrics(metrics, ~after, after, PARAMS, (1000.0, 1000.0))
    assert [m["name"] for m in listed] == ["db.Innodb_buffer_pool_reads"], listed


def test_disk_taken_by_another_process_or_by_the_server():
    quiet = {"os.disk.read_bytes_ps": 1e6, "os.disk.write_bytes_ps": 9e6,
             "proc.read_bytes_ps": 0.5e6, "proc.write_bytes_ps": 3e6}
    other = dict(quiet, **{"os.disk.write_bytes_ps": 400e6})
    assert attribute_disk(quiet, other)["taken_by"] == "another process"
    server = dict(other, **{"proc.write_bytes_ps": 350e6})
    assert attribute_disk(quiet, server)["taken_by"] == "the database server"
    small = dict(quiet, **{"os.disk.write_bytes_ps": 25e6})   # +15 MB/s: under MIN_BYTES_PS
    assert attribute_disk(quiet, small) is None
    assert attribute_disk(quiet, {k: v for k, v in other.items() if not k.startswith("proc.")}) is None


def test_disk_given_back_by_another_process_or_by_the_server():
    # the same rule backwards: a hog's end (held-out H7 run 2's first finding was the end of its writer)
    busy = {"os.disk.read_bytes_ps": 1e6, "os.disk.write_bytes_ps": 400e6,
            "proc.read_bytes_ps": 0.5e6, "proc.write_bytes_ps": 3e6}
    calm = dict(busy, **{"os.disk.write_bytes_ps": 9e6})
    d = attribute_disk(busy, calm)
    assert (d["taken_by"], d["freed_by"]) == ("freed", "another process")
    assert not taken_by_other(d) and freed_by_other(d)
    assert _category(None, None, disk=d) == "io-contention"
    assert _machine(None, d) == ("host disk given back by another process (401 → 10 MB/s, the database server's "
                                 "own 4 → 4 MB/s)")
    server = dict(busy, **{"proc.write_bytes_ps": 350e6})
    assert attribute_disk(server, calm)["freed_by"] == "the database server"
    assert _category(None, None, disk=attribute_disk(server, calm)) is None
    half = dict(busy, **{"os.disk.write_bytes_ps": 250e6})   # -150 MB/s but not to half: not given back
    assert attribute_disk(busy, half) is None


def test_a_disk_hog_episode_says_the_machine_not_the_database(tmp_path):
    run = synth_cases.write_disk_hog_run(tmp_path / "hog")
    out = tmp_path / "out"
    assert main(["report", str(run), "-o", str(out)]) == 0
    f = json.loads((out / "findings.json").read_text())[0]
    assert f["kind"] == "episode" and f["category"] == "io-contention", f["title"]
    assert "host disk taken by another process" in f["title"], f["title"]
    assert not (f["cause"] or "").startswith("db."), f["cause"]


def test_a_disk_hog_that_also_takes_the_cpu_is_the_disk(tmp_path):
    # the held-out H7 before this rule: the writer's CPU (not iowait) took the idle time, and the finding named
    # "host CPU taken by another process" (cpu-contention) first
    run = synth_cases.write_disk_hog_run(tmp_path / "hog", cpu=True)
    out = tmp_path / "out"
    assert main(["report", str(run), "-o", str(out)]) == 0
    f = json.loads((out / "findings.json").read_text())[0]
    assert f["cpu"]["taken_by"] == "another process", f["cpu"]   # the CPU moved too: both are in the evidence
    assert f["category"] == "io-contention", f["title"]
    title = f["title"]
    assert "host disk taken by another process" in title, title
    assert title.index("host disk taken") < title.index("host CPU taken by another process"), title


def test_rows_read_wobbling_with_the_operations_at_a_p99_step_is_an_effect():
    """A real N2 false step: p99 -59% with throughput unchanged, 'caused' by db.Rows_read 1,518 -> 1,486 a
    second: about 2 rows per operation either side, a 2% wobble that only counts the operations. Throughput
    drifts up 4 ops/s a window and falls back 56 at the step (2% of its mean either side): the rows' own
    break (a line plus a step) is clear, so without the rule they would be listed as the cause."""
    n = 20
    rng = np.random.default_rng(8)
    i = np.arange(n)
    after = i >= 10
    rate = np.where(after, 743.0 + 4 * (i - 10), 759.0 + 4 * i) + rng.normal(0, 1, n)
    metrics = pd.DataFrame({"db.Rows_read": 2.0 * rate + rng.normal(0, 0.5, n)}, index=np.arange(n) * 1000.0)
    tput = (float(rate[~after].mean()), float(rate[after].mean()))
    listed, follows = rank_window_metrics(metrics, ~after, after, PARAMS, tput, rate)
    assert listed == [] and follows == ["db.Rows_read"], (listed, follows)


def test_idle_cpu_given_back_by_another_process_is_the_machine():
    """A real N1 false step: p99 -81% as host idle went 3 -> 90 % with the server and the client unchanged: the
    machine's busy spell ended. When the server's own CPU fell by that much, the server gave it back."""
    from ivs_analyzer.explain.cpu import attribute_cpu
    from ivs_analyzer.explain.findings import _category, _cause_text

    before = {"os.cpu.idle_pct": 3.0, "proc.cpu_pct": 18.0, "client.cpu_pct": 11.0}
    after = {"os.cpu.idle_pct": 90.0, "proc.cpu_pct": 17.0, "client.cpu_pct": 10.0}
    cpu = attribute_cpu(before, after, 2)
    assert (cpu["taken_by"], cpu.get("freed_by")) == ("freed", "another process")
    assert _category(None, cpu) == "cpu-contention"
    assert _cause_text([], cpu) == ("os.cpu.idle_pct", "host CPU given back by another process (idle 3 → 90 %)")
    stalled = {"os.cpu.idle_pct": 90.0, "proc.cpu_pct": 2.0, "client.cpu_pct": 1.0}   # 1.74 cores freed, 0.26 by others
    busy = {"os.cpu.idle_pct": 3.0, "proc.cpu_pct": 150.0, "client.cpu_pct": 30.0}
    cpu = attribute_cpu(busy, stalled, 2)
    assert cpu["taken_by"] == "freed" and "freed_by" not in cpu and _category(None, cpu) is None
