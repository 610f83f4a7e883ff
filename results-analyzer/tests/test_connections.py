"""Connections refused at the server's limit while it stayed up (explain/connections.py), and the category a step
gets from it (explain/findings.py): hand-built monitor and sample frames with the expected answers written out."""
import numpy as np
import pandas as pd

from ivs_analyzer.explain.connections import connections_refused, max_connections
from ivs_analyzer.explain.findings import run_findings

T0 = 2_000_000
LIMIT = 10.0


def _frames(sessions: list[float], errors: dict[int, int], unread=(), refused: dict[int, float] | None = None,
            gauge: str = "db.Threads_connected"):
    """20 one-second intervals: the session gauge per interval, db.* cells empty in `unread`, errors per window,
    and (when given) a refused-connections counter per interval."""
    times = np.array([T0 + 1000 * i for i in range(20)], dtype=float)
    cols = {gauge: [np.nan if i in unread else float(sessions[i]) for i in range(20)],
            "db.Questions": [np.nan if i in unread else 900.0 for i in range(20)],
            "os.cpu.idle_pct": [50.0] * 20}
    if refused is not None:
        cols["db.Connection_errors_max_connections"] = [np.nan if i in unread else refused.get(i, 0.0)
                                                        for i in range(20)]
    metrics = pd.DataFrame(cols, index=times)
    samples = pd.DataFrame({"time_ms": times, "type": "ALL", "phase": 0,
                            "error": [errors.get(i, 0) for i in range(20)]})
    return samples, metrics, times


# 5 sessions (4 terminals and the monitor) before; 11 from window 10 on: the limit of 10 and one administrator
AT_LIMIT = [5] * 10 + [11] * 6 + [5] * 4


def _refused(samples, metrics, times, limit=LIMIT):
    return connections_refused(samples, metrics, times, T0, T0 + 10000, T0 + 20000, limit)


def test_sessions_at_max_connections_with_failed_operations_while_the_server_answered_are_refusals():
    ev = _refused(*_frames(AT_LIMIT, errors={10: 4, 12: 2}))
    assert ev == {"errors": 6, "limit": 10.0, "sessions": [("db.Threads_connected", 11.0)], "refused": []}


def test_the_limit_reached_a_little_before_the_sessions_failed_still_counts():
    # whatever took the connections came first; the terminals met the limit when they reconnected
    ev = _refused(*_frames([5] * 8 + [11] * 8 + [5] * 4, errors={10: 4}))
    assert ev["sessions"] == [("db.Threads_connected", 11.0)] and ev["errors"] == 4


def test_postgres_backends_at_the_limit_count_the_same():
    ev = _refused(*_frames(AT_LIMIT, errors={11: 3}, gauge="db.pg_stat_database.numbackends"))
    assert ev["sessions"] == [("db.pg_stat_database.numbackends", 11.0)] and ev["errors"] == 3


def test_a_refused_connections_counter_is_evidence_without_the_limit_setting():
    ev = _refused(*_frames([5] * 20, errors={10: 4}, refused={10: 30.0, 11: 12.0}), limit=None)
    assert ev["sessions"] == [] and ev["refused"] == [("db.Connection_errors_max_connections", 0.0, 4.2)]  # 42 over 10 intervals


def test_no_failed_operation_or_no_limit_evidence_is_no_refusal():
    assert _refused(*_frames(AT_LIMIT, errors={})) is None                      # at the limit, nothing failed
    assert _refused(*_frames([5] * 20, errors={10: 4})) is None                 # failed below the limit
    # at the limit all along and failing all along: nothing began at the change
    assert _refused(*_frames([11] * 20, errors={i: 4 for i in range(20)})) is None
    assert _refused(*_frames(AT_LIMIT, errors={10: 4}), limit=None) is None     # limit unknown, no counter


def test_a_server_that_did_not_answer_its_monitor_is_not_refusing():
    # the unread intervals are the server gone (explain/restart.py), not connections refused by a live server
    assert _refused(*_frames(AT_LIMIT, errors={10: 4}, unread=(10, 11))) is None


def test_max_connections_is_read_from_the_runs_environment():
    assert max_connections({"database": {"max_connections": 151}}) == 151.0
    # PostgreSQL records its settings as text, and refuses ordinary users 3 (the reserved ones) short of 100
    assert max_connections({"database": {"max_connections": "100", "superuser_reserved_connections": "3"}}) == 97.0
    assert max_connections({"database": {}}) is None and max_connections(None) is None


def _change(**extra):
    return {"phase": 0, "series": "throughput", "time_ms": T0 + 10000, "before": 1000.0, "after": 40.0,
            "relative_change": -0.96, "duration_ms": 6000, "metrics": [], "follows": [], "cpu": None, **extra}


def test_a_step_with_refusals_is_connection_limit_and_a_server_gone_still_ranks_first():
    ev = {"errors": 6, "limit": 10.0, "sessions": [("db.Threads_connected", 11.0)], "refused": []}
    f = run_findings([_change(refused=ev)], [], T0, 1000)[0]
    assert f["category"] == "connection-limit", f
    assert f["cause"] == "db.Threads_connected"
    assert "connection limit reached" in f["title"] and "not a restart" in f["title"], f["title"]
    gone = {"unread_intervals": 3, "first_unread_ms": T0 + 10000, "errors": 44}
    f = run_findings([_change(refused=ev, server_gone=gone)], [], T0, 1000)[0]
    assert f["category"] == "server-restart"
