"""The server went away (explain/restart.py) and the categories a step gets without a wait snapshot
(explain/findings.py): from the client's and the host's evidence, computed here from hand-built frames."""
import numpy as np
import pandas as pd

from ivs_analyzer.explain.findings import run_findings
from ivs_analyzer.explain.restart import server_gone

T0 = 1_000_000


def _frames(unread: list[int], errors: dict[int, int]):
    """20 one-second windows; monitor db.* cells empty in the `unread` ones; errors per window."""
    times = np.array([T0 + 1000 * i for i in range(20)], dtype=float)
    reads = [np.nan if i in unread else 100.0 + i for i in range(20)]
    metrics = pd.DataFrame({"db.Questions": reads, "db.Threads_running": reads,
                            "os.cpu.idle_pct": [50.0] * 20}, index=times)
    samples = pd.DataFrame({"time_ms": times, "type": "ALL", "phase": 0,
                            "error": [errors.get(i, 0) for i in range(20)]})
    return samples, metrics, times


def test_unread_counters_and_failed_operations_after_read_ones_are_the_server_gone():
    samples, metrics, times = _frames(unread=[10, 11, 12], errors={10: 40, 11: 4})
    gone = server_gone(samples, metrics, times, T0, T0 + 9000, T0 + 20000)
    assert gone == {"unread_intervals": 3, "first_unread_ms": T0 + 10000, "errors": 44}


def test_either_sign_alone_is_not_a_restart():
    samples, metrics, times = _frames(unread=[10, 11], errors={})          # monitor read failed, no operation did
    assert server_gone(samples, metrics, times, T0, T0 + 9000, T0 + 20000) is None
    samples, metrics, times = _frames(unread=[], errors={10: 40})          # the benchmark's own errors
    assert server_gone(samples, metrics, times, T0, T0 + 9000, T0 + 20000) is None
    samples, metrics, times = _frames(unread=list(range(20)), errors={10: 40})  # never read: no server counters
    assert server_gone(samples, metrics, times, T0, T0 + 9000, T0 + 20000) is None


def _change(**extra):
    return {"phase": 0, "series": "throughput", "time_ms": T0 + 10000, "before": 1000.0, "after": 10.0,
            "relative_change": -0.99, "duration_ms": 4000, "metrics": [], "follows": [], "cpu": None, **extra}


def test_a_step_gets_its_category_from_a_server_gone_or_the_cpu_another_process_took():
    gone = {"unread_intervals": 3, "first_unread_ms": T0 + 10000, "errors": 44}
    f = run_findings([_change(server_gone=gone)], [], T0, 1000)[0]
    assert f["category"] == "server-restart" and "the server went away" in f["title"], f["title"]
    cpu = {"host_idle_before": 60.0, "host_idle_after": 5.0, "cores": 2, "server_cpu_before": 50.0,
           "server_cpu_after": 40.0, "client_cpu_before": 20.0, "client_cpu_after": 15.0,
           "host_cores_delta": 1.1, "other_cores_delta": 1.1, "taken_by": "another process"}
    f = run_findings([_change(cpu=cpu)], [], T0, 1000)[0]
    assert f["category"] == "cpu-contention" and "host CPU taken by another process" in f["title"], f["title"]
    f = run_findings([_change(cpu=dict(cpu, taken_by="the database server"))], [], T0, 1000)[0]
    assert f["category"] is None
