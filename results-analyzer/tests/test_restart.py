"""The server went away (explain/restart.py) and the categories a step gets without a wait snapshot
(explain/findings.py): from the client's and the host's evidence, computed here from hand-built frames."""
import numpy as np
import pandas as pd

from ivs_analyzer.explain.findings import run_findings
from ivs_analyzer.explain.restart import lost_connections, server_gone, sessions_lost

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
    # read again from window 13 on: back 3 s after the first unread interval
    assert gone == {"unread_intervals": 3, "first_unread_ms": T0 + 10000, "errors": 44, "back_ms": 3000.0}


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


def _summary(lost_per_type: list[int], other: int = 0) -> dict:
    """A summary.json with one phase whose transaction types recorded these lost connections (and other errors)."""
    types = {f"T{i}": {"errors": {"connection lost": n, **({"database error": other} if i == 0 and other else {})}}
             for i, n in enumerate(lost_per_type)}
    return {"phases": [{"index": 0, "transactions": types}]}


def test_lost_connections_are_counted_from_the_phases_error_records():
    assert lost_connections(_summary([1, 3], other=7), 0) == 4      # "database error" is not a lost connection
    assert lost_connections(_summary([1, 3]), 1) == 0                # no such phase
    assert lost_connections(None, None) == 0


def test_sessions_lost_while_the_monitor_read_the_server_every_interval():
    samples, metrics, times = _frames(unread=[], errors={10: 4})
    lost = sessions_lost(samples, metrics, times, T0, T0 + 10000, T0 + 20000, lost_in_phase=4)
    assert lost == {"errors": 4, "lost_in_phase": 4}
    # the same failures recorded as database errors, not lost connections: the benchmark's own
    assert sessions_lost(samples, metrics, times, T0, T0 + 10000, T0 + 20000, lost_in_phase=0) is None
    assert sessions_lost(samples, metrics, times, T0, T0 + 10000, T0 + 20000, lost_in_phase=3) is None
    # the monitor could not read the server: it went away (server_gone), not sessions lost with it up
    samples, metrics, times = _frames(unread=[10, 11], errors={10: 4})
    assert sessions_lost(samples, metrics, times, T0, T0 + 10000, T0 + 20000, lost_in_phase=4) is None


def test_a_server_gone_and_back_says_it_restarted_and_sessions_lost_say_the_server_stayed_up():
    gone = {"unread_intervals": 3, "first_unread_ms": T0 + 10000, "errors": 44, "back_ms": 3000.0}
    f = run_findings([_change(server_gone=gone)], [], T0, 1000)[0]
    assert f["category"] == "server-restart" and "the whole server restarted" in f["title"], f["title"]
    f = run_findings([_change(lost={"errors": 4, "lost_in_phase": 4})], [], T0, 1000)[0]
    assert f["category"] == "server-restart" and "while the server stayed up" in f["title"], f["title"]
