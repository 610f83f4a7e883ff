"""scripts/lib/box_sampler.py (box.log of scripts/repro.sh) on synthetic process tables with known answers."""
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts" / "lib"))
import box_sampler as box  # noqa: E402

sys.path.pop(0)

T = box.TICKS


def test_the_run_is_its_root_and_every_descendant():
    procs = {1: ("init", 0, 0), 10: ("bash", 1, 0), 11: ("java", 10, 0), 12: ("tee", 10, 0), 13: ("jit", 11, 0),
             20: ("burner", 1, 0)}
    assert box.descendants(10, procs) == {10, 11, 12, 13}


def test_cpu_over_the_interval_is_split_into_own_and_others():
    before = {11: ("java", 10, 5 * T), 20: ("burner", 1, 100 * T), 30: ("cc1", 1, 0)}
    # over 10 s: java used 5 s (50 %), the burner 2 s (20 %), a process that started meanwhile 1 s (10 %), one that
    # ended is not counted, and a pid reused by another program counts from zero
    after = {11: ("java", 10, 10 * T), 20: ("burner", 1, 102 * T), 40: ("make", 1, 1 * T), 30: ("other", 1, 3 * T)}
    before[50] = ("kworker/u8:2", 2, 0)
    after[50] = ("kworker/u8:2", 2, 4 * T)  # a kernel thread: 40 %, neither own nor another process
    others, own, by, kernel = box.split(before, after, {11}, 10.0, box.kernel_threads(after))
    assert round(own, 6) == 50.0
    assert round(others, 6) == 60.0
    assert round(kernel, 6) == 40.0
    assert [(n, round(c, 6)) for n, _, c in by] == [("other", 30.0), ("burner", 20.0), ("make", 10.0)]
    line = box.line("0.5 0.4 0.3", others, own, by, kernel)
    assert " 0.5 0.4 0.3 others=60.0 own=50.0 kernel=40.0 top: other:30:30; burner:20:20; make:40:10" in line


def test_a_process_naming_a_state_folder_is_the_runs(tmp_path):
    import subprocess
    import sys as _sys
    mark = str(tmp_path / "state" / "fresh")
    p = subprocess.Popen([_sys.executable, "-c", "import time; time.sleep(30)", f"--defaults-file={mark}/my.cnf"])
    try:
        procs = box.snapshot()
        assert p.pid in box.server_pids([mark], procs)
        assert p.pid not in box.server_pids([str(tmp_path / "other")], procs)
    finally:
        p.kill()
        p.wait()


def test_steal_is_read_from_the_aggregate_cpu_line_and_printed_in_one_core_percent():
    stat = ("cpu  100 0 50 9000 20 0 5 321 0 0\n"
            "cpu0 50 0 25 4500 10 0 2 160 0 0\n"
            "intr 12345\n")
    assert box.steal_ticks(stat) == 321
    assert box.steal_ticks("cpu  100 0 50 9000\n") is None  # a kernel without the steal column
    assert box.steal_ticks("intr 1\n") is None
    # 5 s of steal over a 10-s interval is half a core
    steal = 100.0 * ((321 + 5 * T) - 321) / T / 10.0
    line = box.line("0.1 0.1 0.1", 0.4, 30.0, [], 8.0, steal)
    assert " others=0.4 own=30.0 kernel=8.0 steal=50.0 top: " in line
    assert "steal=" not in box.line("0.1 0.1 0.1", 0.4, 30.0, [], 8.0)


def test_a_kernel_thread_that_renamed_itself_counts_only_the_interval():
    # kworkers name the work queue they serve, so the name changes between snapshots; the pid is the same thread
    before = {2: ("kthreadd", 0, 0), 60: ("kworker/u4:2-events_unbound", 2, 500 * T)}
    after = {2: ("kthreadd", 0, 0), 60: ("kworker/u4:2-flush-8:0", 2, 501 * T)}
    _, _, _, kernel = box.split(before, after, set(), 10.0, box.kernel_threads(after))
    assert round(kernel, 6) == 10.0  # 1 s of 10, not its 501 s of life
    # a user process whose pid now names another program is still counted from zero (a reused pid)
    before2 = {70: ("bash", 1, 500 * T)}
    after2 = {70: ("python3", 1, 2 * T)}
    others, _, _, _ = box.split(before2, after2, set(), 10.0, set())
    assert round(others, 6) == 20.0
