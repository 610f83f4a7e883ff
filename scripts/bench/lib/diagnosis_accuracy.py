"""The fault corpus of docs/diagnosis.md run end to end, and the analyzer's answer for each scenario.

Run by scripts/bench/diagnosis-accuracy.sh, which starts the private servers and exports their IVS_MARIADB_* /
IVS_POSTGRES_* variables. For each scenario: ivsbench (target/benchbase.jar) runs ycsbivs read/extend (4
terminals, open loop at 1,000 ops/s, 70:30, 10 s warmup, monitor at 1 s so the client takes step snapshots) on a table of
its own; after FAULT_AFTER measured windows the scenario's injector (scripts/faults/) starts and prints the
holder or culprit; the analyzer's `report` runs on the results folder. The run is scored by diagnosis_score.py,
the definitions of docs/diagnosis.md ("How the corpus is scored"): the answer is the report's FIRST step or
episode (the report orders them by work lost), right when it starts between 3 s before the injection and 20 s
after it ended with the scenario's expected category; findings with a database category away from the fault
(every one in the no-fault runs N1 steady, N2 gradual growth, N3 the box's two speeds) are false alarms.

    python diagnosis_accuracy.py [--runs N] OUT_DIR [SCENARIO...]   (default: every scenario below, once)
    python diagnosis_accuracy.py --rescore OUT_DIR                  (the analyzer again on an earlier run's folders)

Prints one row per run as it ends, then the run list and the accuracy table - per scenario, per category and
overall with Wilson 95 % intervals, precision, false alarms per hour on the no-fault runs - which it also writes
to OUT_DIR/accuracy.md (with the rows an earlier call left in OUT_DIR/results.json, which keeps them all).
"""
from __future__ import annotations

import contextlib
import csv
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import diagnosis_cache as cache
import diagnosis_heldout as heldout
import diagnosis_inside as inside
import diagnosis_score as score
import diagnosis_targets as targets
from diagnosis_targets import FAULTS, REPO, _cassandra, _db, _env, _libpq, _mariadb, _pg_env, _postgres

JAR = REPO / "target" / "benchbase.jar"
FAULT_AFTER = 15      # measured windows before the fault starts
HOLD = 8              # seconds a lock is held
BURN = 10             # seconds the CPU burners run
BURST = 15            # seconds a write burst runs
RUN_SECONDS = 50      # measured seconds of each run (the no-fault runs: NOFAULT_SECONDS)
NOFAULT_SECONDS = 90
NOFAULT_BURN = 45     # N3: seconds the CPU burners run (half the run), from FAULT_AFTER measured windows on
# 8, 9: an idle old snapshot blocks nobody; its cost (versions not purged) grows with the updates to hot rows, so
# it is held longer, under 50:50 read/update (same-size rows: no growth of their own) on 500 zipfian keys.
# (weights, records, extra config, key distribution, measured seconds, the writing transaction type)
LONG_HOLD = 50
LONG_LOAD = {s: ("50,50", 500, "", "zipfian", 90, "UpdateRecord") for s in ("8", "9")}


def _burst(conn_of, table: str, work: Path) -> list:
    """The write burst of scenarios 14-16: ExtendRecord alone, 8 closed-loop terminals, BURST seconds."""
    connection, password = conn_of()
    config = work / "burst.xml"
    config.write_text(_config(connection, password, table, terminals=8, seconds=BURST, warmup=0, rate="",
                              weights="0,100"))
    return [FAULTS / "write-burst.sh", config]


def _config(connection: str, password: str | None, table: str, terminals: int, seconds: int, warmup: int,
            rate: str, weights: str, extra: str = "", records: int = 2000,
            keys: str = "<distribution>uniform</distribution>", writer: str = "ExtendRecord") -> str:
    pw = "<passwordEnv>IVS_ACC_PW</passwordEnv>" if password is not None else ""
    rate_xml = f"<rate>{rate}</rate>" if rate else "<rate>unlimited</rate>"
    return (f"<parameters>{connection}{extra}{pw}"
            f"<terminals>{terminals}</terminals><randomSeed>7</randomSeed><recordcount>{records}</recordcount>"
            f"<table>{table}</table>"
            "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
            f"<transactiontype><name>{writer}</name></transactiontype></transactiontypes>"
            f"<works><work><warmup>{warmup}</warmup><time>{seconds}</time>{rate_xml}<weights>{weights}</weights>"
            f"{keys}</work></works></parameters>")


# id, server, fault, expected category, whether a holder must be named, connection, injector argv (table -> argv)
SCENARIOS = {
    "1": ("MariaDB InnoDB", "SELECT ... FOR UPDATE on every row, 8 s", "lock-wait", True, lambda: _mariadb("InnoDB"),
          lambda t, w: [FAULTS / "mariadb-row-lock.sh", _env("IVS_MARIADB_DEFAULTS"), _db(), t, HOLD], None),
    "2": ("MariaDB InnoDB", "LOCK TABLES ... WRITE, 8 s", "lock-wait", True, lambda: _mariadb("InnoDB"),
          lambda t, w: [FAULTS / "mariadb-table-lock.sh", _env("IVS_MARIADB_DEFAULTS"), _db(), t, HOLD], None),
    "3": ("MyRocks", "SELECT ... FOR UPDATE on every row, 8 s", "lock-wait", True, lambda: _mariadb("RocksDB"),
          lambda t, w: [FAULTS / "mariadb-row-lock.sh", _env("IVS_MARIADB_DEFAULTS"), _db(), t, HOLD], None),
    "4": ("PostgreSQL 15", "SELECT ... FOR UPDATE on every row, 8 s", "lock-wait", True, _postgres,
          lambda t, w: [FAULTS / "postgres-row-lock.sh", _libpq(), t, HOLD], _pg_env),
    "5": ("PostgreSQL 15", "LOCK TABLE ... ACCESS EXCLUSIVE, 8 s", "lock-wait", True, _postgres,
          lambda t, w: [FAULTS / "postgres-table-lock.sh", _libpq(), t, HOLD], _pg_env),
    "6": ("MariaDB InnoDB", "FLUSH TABLES WITH READ LOCK, 8 s", "lock-wait", True, lambda: _mariadb("InnoDB"),
          lambda t, w: [FAULTS / "mariadb-global-read-lock.sh", _env("IVS_MARIADB_DEFAULTS"), HOLD], None),
    "7": ("PostgreSQL 15", "LOCK TABLE ... SHARE, 8 s", "lock-wait", True, _postgres,
          lambda t, w: [FAULTS / "postgres-table-lock.sh", _libpq(), t, HOLD, "SHARE"], _pg_env),
    "10": ("MariaDB InnoDB", f"reads widen from a {cache.HOT_SET:.0%} hot set to all {cache.RECORDS:,} rows "
           f"(buffer pool {cache.BUFFER_POOL})", "buffer-miss", False, lambda: _mariadb("InnoDB"), None, None),
    "11": ("MariaDB InnoDB", f"O_DIRECT writer, {cache.HOG} s (buffer pool {cache.BUFFER_POOL}, reads {cache.FLUSH_METHOD})",
           "io-contention", False, lambda: _mariadb("InnoDB"),
           lambda t, w: [FAULTS / "disk-hog.sh", w, cache.HOG], None),
    "12": ("MariaDB InnoDB", "2 CPU burners, 10 s", "cpu-contention", False, lambda: _mariadb("InnoDB"),
           lambda t, w: [FAULTS / "cpu-burn.sh", BURN, 2], None),
    "12b": ("MariaDB InnoDB", "CPU burners, 4 per core, 10 s", "cpu-contention", False,
            lambda: _mariadb("InnoDB"), lambda t, w: [FAULTS / "cpu-burn.sh", BURN, 4 * (os.cpu_count() or 1)], None),
    # 13: the hog takes every free connection and the terminals' sessions are killed, so they must reconnect
    "13": ("MariaDB InnoDB", "connections taken (max_connections 10), terminals' sessions killed, 8 s",
           "connection-limit", False, lambda: _mariadb("InnoDB"),
           lambda t, w: [FAULTS / "mariadb-connection-hog.sh", _env("IVS_MARIADB_DEFAULTS"), "ivs", t, HOLD], None),
    "14": ("MariaDB InnoDB", "write burst: 8 closed-loop extend terminals, 15 s", "flush-pressure", False,
           lambda: _mariadb("InnoDB"), lambda t, w: _burst(lambda: _mariadb("InnoDB"), t, w), None),
    "15": ("MyRocks", "write burst: 8 closed-loop extend terminals, 15 s", "write-stall", False,
           lambda: _mariadb("RocksDB"), lambda t, w: _burst(lambda: _mariadb("RocksDB"), t, w), None),
    "16": ("Cassandra 5.0", "write burst: 8 closed-loop extend terminals, 15 s", "write-stall / flush-pressure",
           False, _cassandra, lambda t, w: _burst(_cassandra, t, w), None),
    "17": ("MariaDB InnoDB", "server stopped, 3 s down, started", "server-restart", False,
           lambda: _mariadb("InnoDB"),
           lambda t, w: [FAULTS / "mariadb-restart.sh", _env("IVS_MARIADB_STATE"), 3], None),
    "8": ("MariaDB InnoDB", f"idle transaction, consistent snapshot, {LONG_HOLD} s (50:50 read/update, zipfian)",
          "long-transaction", True, lambda: _mariadb("InnoDB"), lambda t, w: [
              FAULTS / "mariadb-long-transaction.sh", _env("IVS_MARIADB_DEFAULTS"), _db(), t, LONG_HOLD], None),
    "9": ("PostgreSQL 15", f"idle REPEATABLE READ transaction, {LONG_HOLD} s (50:50 read/update, zipfian)",
          "long-transaction", True, _postgres,
          lambda t, w: [FAULTS / "postgres-long-transaction.sh", _libpq(), t, LONG_HOLD], _pg_env),
    "18": ("PostgreSQL 15", "server stopped (fast shutdown), 3 s down, started", "server-restart", False, _postgres,
           lambda t, w: [FAULTS / "postgres-restart.sh", _env("IVS_POSTGRES_STATE"), 3], None),
    "18b": ("PostgreSQL 15", "the benchmark's backends terminated every 0.2 s for 8 s, server up", "server-restart",
            False, _postgres, lambda t, w: [FAULTS / "postgres-terminate.sh", _libpq(), t, HOLD], _pg_env),
    "N1": ("MariaDB InnoDB", "none (steady, 90 s)", "none", False, lambda: _mariadb("InnoDB"), None, None),
    "N2": ("MariaDB InnoDB", "none (gradual growth: 500 records, +500 bytes per extend, 90 s)", "none",
           False, lambda: _mariadb("InnoDB"), None, None),
    # the box's two speeds: no database fault; the burners are the machine, whose answer is cpu-contention or none
    "N3": ("MariaDB InnoDB", f"none (box's two speeds: {NOFAULT_BURN} s of CPU burners, 2 per core, in 90 s)",
           "none / cpu-contention", False, lambda: _mariadb("InnoDB"),
           lambda t, w: [FAULTS / "cpu-burn.sh", NOFAULT_BURN, 2 * (os.cpu_count() or 1)], None),
}
SCENARIOS.update(inside.SCENARIOS)   # 19-22: causes inside the server (server-work, setting-change)
# the no-fault runs: every step or episode in them is a false one; a database cause is the worse kind
NO_FAULT = ("N1", "N2", "N3")
# the scenarios whose terminals reconnect after a lost connection (as a DBA's client would)
RECONNECT = ("13", "17", "18", "18b")
# per no-fault scenario: (weights, records, extra config) other than the default 70:30 on 2,000 records
# N2: ~300 extends/s over 500 records grow each by ~30 KB in the run (1 KB loaded): reads return ever larger rows
NOFAULT_LOAD = {"N2": ("70,30", 500, "<extendfieldlength>500</extendfieldlength>")}


# Scenarios that need a differently configured server run on a private instance of their own (its own state
# directory under the bench work folder, started with the settings, stopped after the scenario), so the default
# instances every other scenario and test uses keep the defaults. Values: (server script, state-dir variable,
# settings variable, settings). 14: a small redo log (4 MB instead of 96 MB) and slow background flushing, so
# the checkpoint age reaches its limit during the burst; 15: small MyRocks write buffers (256 KB, two of them)
# and low L0 / pending-compaction limits, so RocksDB slows or stops writes; 16: a small memtable space (2 MiB,
# unslabbed so it counts the bytes written, flushed at a tenth of it, one flush writer) and compaction
# throttled to 1 MiB/s, so flushes queue and SSTables pile up faster than they are compacted during the burst.
PRIVATE = {
    # 10, 11: a buffer pool far smaller than the table (11 with O_DIRECT): diagnosis_cache.py
    **{sid: ("mariadb.sh", "IVS_STATE_DIR", "IVS_MARIADB_SETTINGS", v) for sid, v in cache.SETTINGS.items()},
    "13": ("mariadb.sh", "IVS_STATE_DIR", "IVS_MARIADB_MAX_CONNECTIONS", "10"),   # MariaDB's least
    "14": ("mariadb.sh", "IVS_STATE_DIR", "IVS_MARIADB_SETTINGS",
           "innodb_log_file_size=4M\ninnodb_io_capacity=100\ninnodb_io_capacity_max=200"),
    "15": ("mariadb.sh", "IVS_STATE_DIR", "IVS_MARIADB_SETTINGS",
           "rocksdb_default_cf_options=write_buffer_size=256k;max_write_buffer_number=2;"
           "level0_file_num_compaction_trigger=2;level0_slowdown_writes_trigger=4;level0_stop_writes_trigger=8;"
           "soft_pending_compaction_bytes_limit=1m;hard_pending_compaction_bytes_limit=256m\n"
           "rocksdb_max_background_jobs=2"),
    "16": ("cassandra.sh", "IVS_CASSANDRA_STATE_DIR", "IVS_CASSANDRA_SETTINGS",
           "memtable_allocation_type: unslabbed_heap_buffers\nmemtable_heap_space: 2MiB\n"
           "memtable_cleanup_threshold: 0.1\nmemtable_flush_writers: 1\nconcurrent_compactors: 1\n"
           "compaction_throughput: 1MiB/s"),
    **inside.PRIVATE,
}
# per scenario of diagnosis_inside.py / diagnosis_heldout.py: (weights, records, more config, key elements,
# measured seconds, writer)
OWN_LOAD = dict(inside.LOAD)


def use_held_out() -> None:
    """Adds the held-out set (diagnosis_heldout.py, expectations from heldout.tsv) to the scenarios."""
    SCENARIOS.update(heldout.scenarios())
    PRIVATE.update(heldout.PRIVATE)
    OWN_LOAD.update(heldout.LOAD)


@contextlib.contextmanager
def _private_server(sid: str, out: Path):
    """For a PRIVATE scenario: its own server instance started with the scenario's settings; the server script's
    exports are in os.environ while it runs, and the instance is stopped afterwards."""
    if sid not in PRIVATE:
        yield
        return
    script, state_var, settings_var, settings = PRIVATE[sid]
    env = dict(os.environ, **{state_var: str(out.parent / f"server-s{sid}"), settings_var: settings})
    argv = ["bash", str(REPO / "scripts" / script)]
    started = subprocess.run(argv + ["start"], env=env, capture_output=True, text=True, timeout=600)
    if started.returncode != 0:
        sys.exit(f"scenario {sid}: {script} start failed: {started.stderr.strip()[-500:]}")
    saved = dict(os.environ)
    try:
        for ln in started.stdout.splitlines():
            if ln.startswith("export "):
                name, _, value = ln[len("export "):].partition("=")
                os.environ[name] = shlex.split(value)[0] if value else ""
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)
        subprocess.run(argv + ["stop"], env=env, capture_output=True, text=True, timeout=300)


def _measured_windows(results: Path) -> int:
    dirs = list(results.glob("ycsbivs_*")) if results.exists() else []
    if not dirs or not (dirs[0] / "samples.csv").exists():
        return 0
    with (dirs[0] / "samples.csv").open() as f:
        return sum(1 for r in csv.DictReader(f) if r["type"] == "ALL" and float(r["throughput"] or 0) > 0)


def _inject(argv: list, env: dict | None) -> tuple[str, int, int, str]:
    start = int(time.time() * 1000)
    proc = subprocess.Popen(["bash"] + [str(a) for a in argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    holder = proc.stdout.readline().strip()
    rest, err = proc.communicate(timeout=300)
    end = int(time.time() * 1000)
    return holder, start, end, (err.strip() if proc.returncode else "")


def run_scenario(sid: str, out: Path, repeat: int = 1) -> dict:
    with _private_server(sid, out):
        return _run_scenario(sid, out, repeat)


def _run_scenario(sid: str, out: Path, repeat: int = 1) -> dict:
    server, fault, expected, needs_holder, conn_of, injector, env_of = SCENARIOS[sid]
    work = out / (f"s{sid}" if repeat == 1 else f"s{sid}-run{repeat}")   # each repeat in a folder of its own
    work.mkdir(parents=True, exist_ok=True)
    table = f"diag_s{sid.lower()}"
    connection, password = conn_of()
    seconds = NOFAULT_SECONDS if sid in NO_FAULT else RUN_SECONDS
    weights, records, extra, distribution, seconds, writer = LONG_LOAD.get(
        sid, (*NOFAULT_LOAD.get(sid, ("70,30", 2000, "")), "uniform", seconds, "ExtendRecord"))
    reconnect = "<reconnectOnConnectionFailure>true</reconnectOnConnectionFailure>" if sid in RECONNECT else ""
    weights, records, extra, keys = cache.LOAD.get(
        sid, (weights, records, extra, f"<distribution>{distribution}</distribution>"))
    if sid in OWN_LOAD:
        weights, records, extra, keys, seconds, writer = OWN_LOAD[sid]
    config = work / "cfg.xml"
    config.write_text(_config(connection, password, table, terminals=4, seconds=seconds, warmup=10, rate="1000",
                              weights=weights, extra=reconnect + extra, records=records, keys=keys, writer=writer))
    results = work / "results"
    row = {"scenario": sid, "server": server, "fault": fault, "expected": expected, "no_fault": sid in NO_FAULT,
           "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    log = (work / "ivsbench.log").open("w")
    proc = subprocess.Popen(["java", "-jar", str(JAR), "-b", "ycsbivs", "-c", str(config), "--create", "--load",
                             "--execute", "-d", str(results)], env=dict(os.environ, IVS_ACC_PW=password or ""),
                            stdout=log, stderr=subprocess.STDOUT)
    fault_at = None
    try:
        deadline = time.time() + 240
        while injector is not None and time.time() < deadline and proc.poll() is None:
            if _measured_windows(results) >= FAULT_AFTER:
                burst_env = dict(os.environ, IVS_ACC_PW=password or "")
                fault_at = _inject(injector(table, work), env_of() if env_of else burst_env)
                break
            time.sleep(0.2)
        proc.wait(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
        log.close()
    if proc.returncode != 0 or not list(results.glob("ycsbivs_*")):
        row["answer"] = "(run failed: see ivsbench.log)"
        return row
    if injector is not None and (fault_at is None or fault_at[3]):
        row["answer"] = f"(injector failed: {fault_at[3] if fault_at else 'never started'})"
        return row
    row["run_dir"] = str(next(results.glob("ycsbivs_*")))
    if fault_at is not None:
        row["holder"], row["fault_ms"] = fault_at[0], [fault_at[1], fault_at[2]]
    elif cache.fault_window(row["run_dir"], sid):
        row["fault_ms"] = cache.fault_window(row["run_dir"], sid)   # 10: the workload's own step
    return judge(row)


def _measured_seconds(run_dir: Path) -> float:
    """The run's measured time: its measured windows (ALL rows with operations) times their length."""
    with (run_dir / "samples.csv").open() as f:
        rows = [r for r in csv.DictReader(f) if r["type"] == "ALL" and float(r["throughput"] or 0) > 0]
    return sum(float(r["window_ms"]) for r in rows) / 1000.0


def _analyzer_commit() -> str:
    """HEAD's short commit, "+changes" when the analyzer's own code differs from it (results-analyzer/src: a test
    or a doc edited beside a corpus run does not change the analyzer that scores it)."""
    out = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "results-analyzer/src"],
                           capture_output=True, text=True).stdout.strip()
    return (out.stdout.strip() or "unknown") + ("+changes" if dirty else "")


def judge(row: dict) -> dict:
    """The analyzer's answer for a run: runs `report` on row["run_dir"] and scores its findings.json by the
    definitions of docs/diagnosis.md (diagnosis_score.score_run: the report's first finding is the answer)."""
    sid = row["scenario"]
    needs_holder = SCENARIOS[sid][3]
    row["no_fault"] = sid in NO_FAULT
    report = Path(row["run_dir"]).parents[1] / "report"
    cli = subprocess.run([sys.executable, "-m", "ivs_analyzer", "report", row["run_dir"], "-o", str(report)],
                         capture_output=True, text=True, timeout=600)
    for k in ("right", "at_fault", "holder_named", "db_findings", "db_right", "false_alarms", "title",
              "false_titles"):
        row.pop(k, None)
    if cli.returncode != 0:
        row["answer"] = f"(report failed: {cli.stderr.strip().splitlines()[-1:]})"
        return row
    findings = json.loads((report / "findings.json").read_text())
    row.update(score.score_run(findings, row.get("fault_ms"), tuple(row["expected"].split(" / ")),
                               row["no_fault"], row.get("holder"), needs_holder))
    row["run_s"] = _measured_seconds(Path(row["run_dir"]))
    row["analyzer"] = _analyzer_commit()
    return row


def line(r: dict) -> str:
    right = "-" if r.get("right") is None else ("right" if r["right"] else "wrong")
    holder = "-" if r.get("holder_named") is None else ("y" if r["holder_named"] else "n")
    return (f"| {r['scenario']} | {r.get('started', '-')} | {r['answer']} | {right} | {holder} "
            f"| {r.get('false_alarms', '-')} | {r.get('analyzer', '-')} |")


HEADER = ("| # | Run started (UTC) | First answer | Scored | Holder named | False alarms | Analyzer |\n"
          "|---|---|---|---|---|---|---|")


def main(argv: list[str]) -> int:
    usage = ("usage: diagnosis_accuracy.py [--held-out] [--list] [--runs N] OUT_DIR [SCENARIO...] | "
             "--rescore OUT_DIR")
    held_out = bool(argv) and argv[0] == "--held-out"
    if held_out:
        # the held-out set alone (diagnosis_heldout.py), scored apart, once the rules are frozen
        argv = argv[1:]
        use_held_out()
    dev = [s for s in SCENARIOS if not s.startswith("H")]
    if argv and argv[0] == "--list":
        ids = [s for s in SCENARIOS if s.startswith("H")] if held_out else dev
        evidence = {r["id"]: r["evidence"] for r in heldout.expectations()[1]} if held_out else None
        print(targets.listing(SCENARIOS, ids, evidence))
        return 0
    if not argv:
        print(usage, file=sys.stderr)
        return 2
    if argv[0] == "--rescore":
        # the analyzer again on the results folders of an earlier run (OUT_DIR/results.json): for its changes
        out = Path(argv[1])
        rows = json.loads((out / "results.json").read_text())
        if any(r["scenario"].startswith("H") for r in rows):
            use_held_out()
        for r in rows:
            # the run folders inside OUT_DIR (<scenario-run>/results/ycsbivs_*), wherever the rows say they were
            # written: a copy of a committed folder is rescored in the copy, its reports written there, not into
            # the committed runs
            inside = out / Path(*Path(r["run_dir"]).parts[-3:]) if r.get("run_dir") else None
            if inside is not None and inside.is_dir():
                r["run_dir"] = str(inside)
        rows = [judge(r) if r.get("run_dir") else r for r in rows]
        (out / "results.json").write_text(json.dumps(rows, indent=1))
        summarize(rows, out)
        return 0
    runs = 1
    if argv[0] == "--runs":
        if len(argv) < 3 or not argv[1].isdigit() or int(argv[1]) < 1:
            print(f"--runs: not a number of runs: {argv[1] if len(argv) > 1 else ''}", file=sys.stderr)
            return 2
        runs, argv = int(argv[1]), argv[2:]
    if held_out and not heldout.expectations()[0]:
        print("--held-out: the rules are not frozen yet (scripts/bench/lib/heldout.tsv's '# frozen:' line names no "
              "commit)", file=sys.stderr)
        return 2
    known = [s for s in SCENARIOS if s.startswith("H")] if held_out else dev
    out = Path(argv[0])
    chosen = argv[1:] or known
    bad = [s for s in chosen if s not in known]
    if bad:
        print(f"scenario: unknown: {bad[0]} (known: {' '.join(known)})", file=sys.stderr)
        return 2
    # rows of an earlier call into the same folder stay (the wrapper runs the Cassandra scenario apart)
    rows = json.loads((out / "results.json").read_text()) if (out / "results.json").exists() else []
    print(HEADER, flush=True)
    for n in range(runs):
        for sid in chosen:
            r = run_scenario(sid, out, n + 1)
            rows.append(r)
            print(line(r), flush=True)
            (out / "results.json").write_text(json.dumps(rows, indent=1))
    summarize(rows, out)
    return 0


def summarize(rows: list[dict], out: Path | None = None) -> None:
    """Prints the run list and the accuracy table (diagnosis_score.table) and writes both to OUT_DIR/accuracy.md,
    the form the docs' table is committed in."""
    runs = "\n".join([HEADER] + [line(r) for r in rows])
    text = (f"Runs ({len(rows)}):\n\n{runs}\n\n{score.table(score.summarize(rows))}\n")
    print("\n" + text)
    for r in rows:
        if r.get("title"):
            print(f"- {r['scenario']} (first answer): {r['title']}")
        for t in r.get("false_titles") or []:
            print(f"- {r['scenario']} (false alarm): {t}")
    if out is not None:
        (out / "accuracy.md").write_text(text)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
