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
