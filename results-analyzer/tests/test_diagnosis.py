"""Diagnoses a DBA can act on, on synthetic folders that mimic cases seen on real machines (synth_cases.py)
and on a real noisy SQLite experiment (data/sqlite_30_epochs)."""
import json
from pathlib import Path

import synth_cases
from ivs_analyzer.cli import main
from ivs_analyzer.explain.changes import find_changes
from ivs_analyzer.explain.epochs import analyse_epochs, find_epoch_changes
from ivs_analyzer.load.results import load_experiment, load_run

# InnoDB's row-lock counters; Threads_running (the sessions piled up behind the lock) is not a cause
LOCK_CAUSES = {"db.Innodb_row_lock_current_waits", "db.Innodb_row_lock_waits", "db.Innodb_row_lock_time"}
EFFECTS = ["db.Innodb_data_writes", "db.Innodb_data_written", "db.Innodb_pages_written", "os.disk.write_bytes_ps",
           "proc.write_bytes_ps", "db.Innodb_history_list_length", "db.Com_select", "proc.cpu_pct"]
REAL = Path(__file__).parent / "data" / "sqlite_30_epochs"


def _listed(change):
    return [n for m in change["metrics"] for n in [m["name"], *m["same"]]]


def test_row_lock_stall_ranks_a_lock_counter_first_and_volumes_follow(tmp_path):
    run = load_run(synth_cases.write_lock_run(tmp_path / "lock"))
    tput = [c for c in find_changes(run) if c["series"] == "throughput"]
    drop = tput[0]
    assert drop["after"] < 0.01 * drop["before"], tput
    assert drop["duration_ms"] == 8000  # the stall, then back
    assert drop["metrics"][0]["name"] in LOCK_CAUSES, drop["metrics"]
    for effect in EFFECTS:
        assert effect in drop["follows"], effect
        assert effect not in _listed(drop), effect
    # cached memory grows all the time: never offered as a cause
    assert "os.mem.cached_bytes" not in _listed(drop) + drop["follows"]


def test_row_lock_report_first_finding_names_the_lock(tmp_path):
    run = synth_cases.write_lock_run(tmp_path / "lock")
    out = tmp_path / "out"
    assert main(["report", str(run), "-o", str(out)]) == 0
    findings = json.loads((out / "findings.json").read_text())
    first = findings[0]
    assert first["kind"] == "episode" and first["cause"] in LOCK_CAUSES, first
    assert "for 8 s, then back" in first["title"]
    assert any(e.startswith("effects, not causes") for e in first["evidence"])
    assert {"db.Innodb_data_writes", "db.Innodb_history_list_length"} <= set(first["follows"])
    # the chart behind the finding: throughput falls to ~0 inside the marked span, the cause panel rises
    panels = {name: (p, ys) for p in first["chart"]["data"]["panels"] for name, ys in p["series"].items()}
    x = first["chart"]["data"]["x"]
    start, end = panels["throughput"][0]["marks"]
    inside = [y for t, y in zip(x, panels["throughput"][1]) if start <= t < end]
    outside = [y for t, y in zip(x, panels["throughput"][1]) if t < start]
    assert len(inside) == 8 and max(inside) < 10 < 1000 < min(outside)
    cause = panels[first["cause"]][1]
    assert max(cause) > 0 and cause[0] == 0
    html = (out / "report.html").read_text()
    assert html.index("What changed and why") < html.index("<h2>Charts</h2>") < html.index("<h2>Tables</h2>")
    assert f'src="{first["chart"]["file"]}"' in html and (out / first["chart"]["file"]).stat().st_size > 1000


def test_cpu_hog_is_host_cpu_taken_by_another_process(tmp_path):
    run = synth_cases.write_cpu_hog_run(tmp_path / "hog")
    p99 = [c for c in find_changes(load_run(run)) if c["series"] == "p99"][0]
    assert p99["after"] > 3 * p99["before"]
    assert p99["metrics"][0]["name"] in {"os.cpu.idle_pct", "os.cpu.usr_pct"}
    cpu = p99["cpu"]
    assert cpu["taken_by"] == "another process"
    assert cpu["other_cores_delta"] > 1.0  # of the 2 cores, more than one went elsewhere
    out = tmp_path / "out"
    assert main(["report", str(run), "-o", str(out)]) == 0
    first = json.loads((out / "findings.json").read_text())[0]
    assert "host CPU taken by another process" in first["title"], first
    assert first["cpu"]["taken_by"] == "another process", first["cpu"]  # findings.json keeps the attribution
    labels = [n for p in first["chart"]["data"]["panels"] for n in p["series"]]
    assert {"host busy (% of all cores)", "database server (% of a core)", "client (% of a core)"} <= set(labels)


def test_cpu_hog_without_the_clients_cpu_says_so(tmp_path):
    run = load_run(synth_cases.write_cpu_hog_run(tmp_path / "hog", client_cpu=False))
    p99 = [c for c in find_changes(run) if c["series"] == "p99"][0]
    assert p99["cpu"]["taken_by"] == "another process or the client"


def test_cpu_taken_as_steal_is_the_hypervisors_not_another_processs(tmp_path):
    # The hypervisor's other tenants take the cores: the steal rises, no process on the box shows the CPU.
    run = synth_cases.write_cpu_hog_run(tmp_path / "steal", steal=True)
    p99 = [c for c in find_changes(load_run(run)) if c["series"] == "p99"][0]
    assert p99["after"] > 3 * p99["before"]
    cpu = p99["cpu"]
    assert cpu["taken_by"] == "the hypervisor", cpu
    assert cpu["steal_before"] < 2 and cpu["steal_after"] > 60, cpu
    out = tmp_path / "out"
    assert main(["report", str(run), "-o", str(out)]) == 0
    first = json.loads((out / "findings.json").read_text())[0]
    assert first["category"] == "cpu-contention", first  # the machine, as another process would be
    assert "host CPU taken by the hypervisor" in first["title"], first
    assert "another process" not in first["title"], first
    assert any("other virtual machines" in e for e in first["evidence"]), first["evidence"]


def test_steal_decides_between_the_hypervisor_and_another_process_by_half_of_what_neither_process_took():
    from ivs_analyzer.explain.cpu import attribute_cpu, describe_cpu, from_outside
    # 2 cores, idle 90 -> 50 %: 0.8 cores lost, the server and the client gained 0.1 between them, 0.7 went
    # elsewhere (35 points of the host)
    before = {"os.cpu.idle_pct": 90.0, "proc.cpu_pct": 20.0, "client.cpu_pct": 10.0}
    after = {"os.cpu.idle_pct": 50.0, "proc.cpu_pct": 25.0, "client.cpu_pct": 15.0}

    def taken(steal_before, steal_after, cores=2):
        b = dict(before, **{"os.cpu.steal_pct": steal_before}) if steal_before is not None else before
        a = dict(after, **{"os.cpu.steal_pct": steal_after}) if steal_after is not None else after
        return attribute_cpu(b, a, cores)
    assert taken(1.0, 19.0)["taken_by"] == "the hypervisor"       # 18 points of the 35: half or more
    assert taken(1.0, 18.0)["taken_by"] == "another process"      # 17 of 35: less than half
    assert taken(None, None)["taken_by"] == "another process"     # no steal column (a bare-metal host)
    assert taken(20.0, 5.0)["taken_by"] == "another process"      # steal fell: not what took the CPU
    # without the core count, the idle points that went to neither process are all 40 lost
    assert taken(0.0, 20.0, None)["taken_by"] == "the hypervisor"
    assert taken(0.0, 19.0, None)["taken_by"] == "another process"
    cpu = taken(1.0, 30.0)
    assert from_outside(cpu) and "steal 1 → 30 % of the host" in describe_cpu(cpu), describe_cpu(cpu)
    # given back: idle 50 -> 90 % with neither process dropping, the steal falling by 20 of the 40 points
    freed = attribute_cpu(dict(after, **{"os.cpu.steal_pct": 25.0}), dict(before, **{"os.cpu.steal_pct": 5.0}), 2)
    assert freed["taken_by"] == "freed" and freed["freed_by"] == "the hypervisor", freed
    freed = attribute_cpu(dict(after, **{"os.cpu.steal_pct": 25.0}), dict(before, **{"os.cpu.steal_pct": 6.0}), 2)
    assert freed["freed_by"] == "another process", freed


def test_noisy_epochs_with_three_fast_ones_have_no_step_and_list_them(tmp_path):
    exp = load_experiment(synth_cases.write_noisy_experiment(tmp_path / "noisy", fast=(9, 21, 30)))
    analysis = analyse_epochs(exp)
    assert analysis["steps"] == [], [(c["mode"], c["series"], c["epoch"]) for c in analysis["steps"]]
    assert [o["epoch"] for o in analysis["outliers"]] == [9, 21, 30]
    for o in analysis["outliers"]:
        assert len(o["modes"]) == 4  # every mode ran faster: the machine, not a mode
        assert "client.cpu_pct" in o["host"] and "os.cpu.idle_pct" in o["host"]
    out = tmp_path / "out"
    assert main(["report", str(tmp_path / "noisy"), "-o", str(out)]) == 0
    findings = json.loads((out / "findings.json").read_text())
    assert [f["kind"] for f in findings] == ["none", "outliers"]
    chart = findings[1]["chart"]["data"]["panels"][0]
    assert chart["marks"] == [9, 21, 30] and set(chart["series"]) == {"main", "clean", "average-baseline",
                                                                      "spread-baseline"}
    assert json.loads((out / "changes.json").read_text())["epochs"] == []


def test_a_step_that_holds_is_still_found_among_noise_and_outliers(tmp_path):
    exp = load_experiment(synth_cases.write_noisy_experiment(tmp_path / "step", fast=(9,), step_at=24))
    steps = [c for c in find_epoch_changes(exp) if c["mode"] == "main" and c["series"] == "run_lat_avg_us"]
    assert len(steps) == 1 and abs(steps[0]["epoch"] - 24) <= 1, steps
    assert steps[0]["metrics"][0]["name"].startswith("db.Innodb_buffer_pool_reads")
    assert "os.mem.cached_bytes" not in _listed(steps[0])


def test_two_fast_epochs_in_a_row_are_outliers_not_a_step(tmp_path):
    exp = load_experiment(synth_cases.write_noisy_experiment(tmp_path / "two", fast=(20, 21)))
    analysis = analyse_epochs(exp)
    assert analysis["steps"] == []
    assert [o["epoch"] for o in analysis["outliers"]] == [20, 21]


def test_real_noisy_sqlite_experiment_has_no_step_in_average_latency():
    """30 epochs on SQLite recorded on the shared 2-core machine while other jobs ran: single epochs up to 6x
    slower. No mode's average latency has a step; those epochs are outliers. (Its p99, in whole µs, really rises
    as the values grow, and may be reported.)"""
    analysis = analyse_epochs(load_experiment(REAL))
    assert not [c for c in analysis["steps"] if c["series"] in ("run_lat_avg_us", "run_throughput")], \
        [(c["mode"], c["series"], c["epoch"]) for c in analysis["steps"]]
    slow = {o["epoch"] for o in analysis["outliers"]
            if any(s["series"] == "run_lat_avg_us" and s["relative_change"] > 1 for s in o["series"])}
    assert {13, 17, 20} <= slow, slow  # main 51.6 µs at 13, clean 90.2 µs at 17, 44-52 µs at 20 (others ~10)


def test_row_lock_finding_names_the_blocking_transaction_from_the_runs_snapshot(tmp_path):
    run = synth_cases.write_lock_run(tmp_path / "lock")
    loaded = load_run(run)
    step_ms = int(loaded.start_ms + 151 * loaded.window_ms)  # the client's detector fires a window into the stall
    blocker = {"trxId": "421", "threadId": 77, "query": None, "state": "RUNNING", "runSeconds": 2, "rowsLocked": 1000}
    waits = [{"waiting": {"trxId": str(500 + i), "threadId": 10 + i, "query": "SELECT ...", "waitSeconds": 1},
              "blocking": blocker} for i in range(4)]
    lines = [{"time_ms": step_ms + 1000, "window_ms": step_ms, "phase": 0, "trigger": "throughput 3.0 vs 1500",
              "snapshot": {"processlist": [], "lockWaits": waits}},
             # another snapshot far from the step: not paired with it
             {"time_ms": int(loaded.start_ms) + 10_000, "window_ms": int(loaded.start_ms) + 9_000, "phase": 0,
              "trigger": "p99", "snapshot": {"processlist": [{"command": "Query", "state": "Sending data"}]}}]
    (run / "activity.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["report", str(run), "-o", str(out)]) == 0
    first = json.loads((out / "findings.json").read_text())[0]
    assert first["kind"] == "episode" and first["cause"] in LOCK_CAUSES, first
    assert first["activity"]["window_ms"] == step_ms
    assert first["evidence"][0].startswith("server snapshot at t = 152 s: transaction 421 on connection 77 blocks"
                                           " 4 waiting transaction(s)"), first["evidence"]
    assert "idle in its transaction" in first["evidence"][0]
    assert "transaction 421 on connection 77" in (out / "report.html").read_text()


def test_a_lock_counter_leads_the_sessions_it_blocked_and_a_baseline_volume_follows():
    """As on a busy machine: the held lock's stall (7 windows at 0) runs into a slow recovery, so the lock
    counter is 4 for part of the windows after the change only, while Threads_running (the sessions piled up
    behind it, one of them arriving late) sits at 6 throughout: its own break is the cleaner one. Rows_sent
    carries the monitor's own ~670 rows/s besides ~1 row per operation, so it is not constant per
    operation. The lock counter leads; Threads_running comes after it; Rows_sent follows throughput."""
    import numpy as np
    import pandas as pd

    from ivs_analyzer.detect.series import ChangeParams
    from ivs_analyzer.explain.metrics import rank_window_metrics

    rng = np.random.default_rng(3)
    rate = np.concatenate([1000 + 60 * rng.standard_normal(10), np.zeros(7), [300.0, 350.0, 420.0]])
    after = np.arange(20) >= 10
    metrics = pd.DataFrame({
        "db.Threads_running": np.where(after, 6.0, 2.0),
        "db.Innodb_row_lock_current_waits": np.concatenate([np.zeros(10), np.full(7, 4.0), np.zeros(3)]),
        "db.Rows_sent": 670 + rate + 5 * rng.standard_normal(20),
    }, index=1_000_000 + 1000 * np.arange(20))
    tput = (float(rate[~after].mean()), float(rate[after].mean()))
    listed, follows = rank_window_metrics(metrics, ~after, after, ChangeParams(), tput, rate)
    names = [m["name"] for m in listed]
    assert names[0] == "db.Innodb_row_lock_current_waits", listed
    assert "db.Threads_running" in names[1:] + listed[0]["same"], listed
    assert "db.Rows_sent" in follows and "db.Rows_sent" not in names, (listed, follows)


def test_a_database_counter_ranked_first_leads_the_title_even_when_other_work_took_the_cpu():
    from ivs_analyzer.explain.findings import _cause_text
    lock = {"name": "db.Innodb_row_lock_current_waits", "before": 0.0, "after": 4.0, "score": 50.0, "same": []}
    idle = {"name": "os.cpu.idle_pct", "before": 60.0, "after": 5.0, "score": 40.0, "same": []}
    cpu = {"taken_by": "another process", "host_idle_before": 60.0, "host_idle_after": 5.0}
    cause, why = _cause_text([lock, idle], cpu)
    assert cause == "db.Innodb_row_lock_current_waits"
    assert why.startswith("db.Innodb_row_lock_current_waits 0 → 4.00;"), why
    assert why.endswith("meanwhile host CPU taken by another process (idle 60 → 5 %)"), why
    # a host metric ranked first: where the CPU went is the why
    cause, why = _cause_text([idle, lock], cpu)
    assert cause == "os.cpu.idle_pct" and why == "host CPU taken by another process (idle 60 → 5 %)", why
    assert _cause_text([lock], None)[1] == "db.Innodb_row_lock_current_waits 0 → 4.00"


def test_cpu_time_that_falls_with_throughput_follows_and_cpu_that_rises_against_it_does_not():
    from ivs_analyzer.explain.metrics import follows_throughput
    # a held lock: throughput 1000 -> 140, the host's user CPU 5.4 -> 3.2 % (less work done; not in proportion,
    # other processes keep their share): an effect
    assert follows_throughput("os.cpu.usr_pct", 5.41, 3.16, (1000.0, 140.0), 0.3)
    assert follows_throughput("os.cpu.idle_pct", 80.0, 90.0, (1000.0, 140.0), 0.3)  # busy 20 -> 10
    # a hog: busy CPU up while throughput falls: a candidate cause
    assert not follows_throughput("os.cpu.usr_pct", 5.0, 60.0, (1000.0, 140.0), 0.3)
    assert not follows_throughput("os.cpu.idle_pct", 80.0, 5.0, (1000.0, 140.0), 0.3)
    # not a CPU time share: the same numbers are judged per operation (3.16 / 140 is far above 5.41 / 1000)
    assert not follows_throughput("db.Innodb_row_lock_time", 5.41, 3.16, (1000.0, 140.0), 0.3)


def test_without_the_servers_cpu_a_finding_says_cpu_attribution_is_off():
    # An exporter-fed monitor without process-exporter leaves proc.cpu_pct out (docs/monitor-exporters.md).
    from ivs_analyzer.explain.cpu import attribute_cpu, describe_cpu
    cpu = attribute_cpu({"os.cpu.idle_pct": 80.0, "client.cpu_pct": 10.0},
                        {"os.cpu.idle_pct": 40.0, "client.cpu_pct": 12.0}, 2)
    assert cpu["server_cpu_before"] is None and cpu["taken_by"] == "another process"
    assert "CPU attribution to the server is off" in describe_cpu(cpu)
