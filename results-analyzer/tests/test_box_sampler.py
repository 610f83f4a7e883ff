"""scripts/lib/box_sampler.py (box.log of scripts/repro.sh) on synthetic process tables with known answers."""
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts" / "lib"))
import box_sampler as box  # noqa: E402

sys.path.pop(0)

T = box.TICKS


def test_the_run_is_its_root_and_every_descendant():
    procs = {1: ("init", 0, 0, 0), 10: ("bash", 1, 0, 5), 11: ("java", 10, 0, 6), 12: ("tee", 10, 0, 6),
             13: ("jit", 11, 0, 7), 20: ("burner", 1, 0, 3)}
    assert box.descendants(10, procs) == {10, 11, 12, 13}


def test_cpu_over_the_interval_is_split_into_own_and_others():
    before = {11: ("java", 10, 5 * T, 100), 20: ("burner", 1, 100 * T, 50), 30: ("cc1", 1, 0, 90)}
    # over 10 s: java used 5 s (50 %), the burner 2 s (20 %), a process that started meanwhile 1 s (10 %), one that
    # ended is not counted, and a pid reused by a process that started later counts from zero
    after = {11: ("java", 10, 10 * T, 100), 20: ("burner", 1, 102 * T, 50), 40: ("make", 1, 1 * T, 700),
             30: ("other", 1, 3 * T, 800)}
    before[50] = ("kworker/u8:2", 2, 0, 10)
    after[50] = ("kworker/u8:2", 2, 4 * T, 10)  # a kernel thread: 40 %, neither own nor another process
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


def test_a_live_process_reads_its_own_start_time_and_cpu(tmp_path):
    import subprocess
    import sys as _sys
    # the start time is /proc/PID/stat's field 22; a name with spaces and parentheses (the name is the file the
    # process was started from, here a link to Python) must not shift the fields after it
    odd = tmp_path / "a (b) c"
    odd.symlink_to(Path(_sys.executable).resolve())
    burn = "import time\nwhile time.process_time() < 0.3: pass\nprint('burnt', flush=True)\ntime.sleep(30)\n"
    p = subprocess.Popen([str(odd), "-c", burn], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "burnt"
        stat = box.read_stat(str(p.pid))
        fields = Path(f"/proc/{p.pid}/stat").read_text().rsplit(")", 1)[1].split()
        assert stat[0] == "a (b) c"
        assert stat[1] == os.getpid()
        assert stat[3] == int(fields[19])  # field 22: fields[0] is field 3, the state
        assert stat[3] >= box.read_stat(str(os.getpid()))[3]  # started after this test's own process
        # the 0.3 s it burned, in ticks; /proc rounds each of user and system time down to a tick
        assert stat[2] >= int(0.3 * T) - 2
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


def test_a_process_is_its_pid_and_start_time_not_its_name():
    # kworkers name the work queue they serve, so the name changes between snapshots; the thread is the same
    before = {2: ("kthreadd", 0, 0, 0), 60: ("kworker/u4:2-events_unbound", 2, 500 * T, 40)}
    after = {2: ("kthreadd", 0, 0, 0), 60: ("kworker/u4:2-flush-8:0", 2, 501 * T, 40)}
    _, _, _, kernel = box.split(before, after, set(), 10.0, box.kernel_threads(after))
    assert round(kernel, 6) == 10.0  # 1 s of 10, not its 501 s of life
    # a shell that exec'd python keeps its pid, start time and CPU ticks: only the interval's 2 s count
    others, _, _, _ = box.split({70: ("bash", 1, 500 * T, 900)}, {70: ("python3", 1, 502 * T, 900)}, set(), 10.0)
    assert round(others, 6) == 20.0
    # a pid reused by a process that started later counts from zero, whatever its name
    others, _, _, _ = box.split({80: ("bash", 1, 500 * T, 900)}, {80: ("bash", 1, 3 * T, 1200)}, set(), 10.0)
    assert round(others, 6) == 30.0
