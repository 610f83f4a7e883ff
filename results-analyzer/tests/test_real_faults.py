"""Fault scenarios of docs/diagnosis.md injected into a real server while ivsbench runs, then diagnosed.

Each test starts its own private server, runs the real target/benchbase.jar with a rate-limited read/extend
phase (4 terminals, monitor on, so the client takes step snapshots), injects the fault with its
scripts/faults/ injector once the phase has run 10 measured windows, runs the analyzer's CLI, and judges the
report as a DBA reads it: its FIRST finding (the report ranks them by work lost) must be at the fault (from 3 s
before the injection to 20 s after it ended, as scripts/bench/lib/diagnosis_score.py defines it for the corpus)
with the expected category and the blocker the injector reported (its connection id or pid), not metric names.

- scenario 2, MariaDB InnoDB: LOCK TABLES <table> WRITE held 8 s (scripts/faults/mariadb-table-lock.sh);
- scenario 5, PostgreSQL: LOCK TABLE <table> IN ACCESS EXCLUSIVE MODE held 8 s
  (scripts/faults/postgres-table-lock.sh);
- scenario 3, MyRocks: another session locks every row (SELECT ... FOR UPDATE) for 8 s
  (scripts/faults/mariadb-row-lock.sh). No view names a MyRocks row lock's holder (INNODB_LOCK_WAITS is
  InnoDB's, METADATA_LOCK_INFO holds metadata locks): the report must still name it, inferred from the process
  list;
- scenario 16, Cassandra: a write burst (a second ivsbench process, 8 closed-loop extend terminals, 15 s;
  scripts/faults/write-burst.sh) on a node with a small memtable space and throttled compaction (the settings
  of scripts/bench/lib/diagnosis_accuracy.py): judged on what changed at the burst - the node's pending flush
  tasks (the monitor's `MemtableFlushWriter.pending_tasks`) rising across a finding at the burst - not on a
  compaction that runs all the time, before the burst too. When the move it caused reads as worse, that finding
  is write pressure (`flush-pressure` or `write-stall`) and the report's first; when it reads as better, the
  pressure is evidence only ("meanwhile") and nothing blames the database for the improvement.

The whole corpus (more scenarios per server) runs in scripts/bench/diagnosis-accuracy.sh, not here.

Needs Java, target/benchbase.jar, MariaDB and PostgreSQL installed, and Maven for Cassandra (scripts/cassandra.sh
fetches it); without them it fails unless IVS_ALLOW_SKIP=1 (tests/skip_policy.py).
"""
from __future__ import annotations

import csv
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import skip_policy
from test_real_diagnosis import JAR, _measured_windows, server  # noqa: F401  (server: the MariaDB fixture)

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts" / "bench" / "lib"))
import diagnosis_score as score  # noqa: E402  (the corpus's definitions: the report's answer, at the fault)

sys.path.pop(0)
FAULTS = REPO / "scripts" / "faults"
POSTGRES = REPO / "scripts" / "postgres.sh"
CASSANDRA = REPO / "scripts" / "cassandra.sh"
HOLD_SECONDS = 8
TABLE = "diagnosis"


def _inject(argv: list[str], env: dict | None = None) -> tuple[int, int, int]:
    """Runs an injector; returns (the holder's id from its first line, start ms, end ms)."""
    start = int(time.time() * 1000)
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    holder = int(proc.stdout.readline().strip())
    _, err = proc.communicate(timeout=HOLD_SECONDS + 60)
    assert proc.returncode == 0, err
    return holder, start, int(time.time() * 1000)


def _mariadb_connection(server: dict, engine: str) -> str:
    return (f"<type>MARIADB</type><url>{server['IVS_MARIADB_URL']}</url><username>ivs</username>"
            f"<monitor><pidFile>{server['IVS_MARIADB_PIDFILE']}</pidFile></monitor><engine>{engine}</engine>")


def _config(connection: str, password: str | None, terminals: int, work: str) -> str:
    pw = "<passwordEnv>IVS_TEST_PW</passwordEnv>" if password is not None else ""
    return (f"<parameters>{connection}{pw}<terminals>{terminals}</terminals><randomSeed>7</randomSeed>"
            f"<recordcount>2000</recordcount><table>{TABLE}</table>"
            "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
            "<transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes>"
            f"<works>{work}</works></parameters>")


def _run(tmp_path: Path, connection: str, password: str | None, inject) -> tuple[Path, tuple[int, int, int]]:
    config = tmp_path / "cfg.xml"
    config.write_text(_config(connection, password, 4,
                              "<work><warmup>3</warmup><time>40</time><rate>1000</rate><weights>70,30</weights>"
                              "<distribution>uniform</distribution></work>"))
    results = tmp_path / "results"
    proc = subprocess.Popen(
        ["java", "-jar", str(JAR), "-b", "ycsbivs", "-c", str(config), "--create", "--load", "--execute",
         "-d", str(results)], env=dict(os.environ, IVS_TEST_PW=password or ""),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    fault = None
    try:
        deadline = time.time() + 180
        while time.time() < deadline and proc.poll() is None:
            if _measured_windows(results) >= 10:
                fault = inject()
                break
            time.sleep(0.2)
        output, _ = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, output
    assert fault is not None, "the run never reached 10 measured windows: " + output
    return next(results.glob("ycsbivs_*")), fault


def _monitor_max(run_dir: Path, column: str, start_ms: int, end_ms: int) -> float:
    """The largest value of a monitor.csv column in the rows from start_ms to end_ms (0 when none has one)."""
    with (run_dir / "monitor.csv").open() as f:
        values = [float(r[column]) for r in csv.DictReader(f)
                  if r.get(column) and start_ms <= int(r["time_ms"]) <= end_ms]
    return max(values, default=0.0)


def _findings(tmp_path: Path, run_dir: Path) -> list[dict]:
    out = tmp_path / "report"
    cli = subprocess.run([sys.executable, "-m", "ivs_analyzer", "report", str(run_dir), "-o", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert cli.returncode == 0, cli.stderr
    return json.loads((out / "findings.json").read_text())


def _shown(findings: list[dict]) -> str:
    return json.dumps([{k: f.get(k) for k in ("kind", "title", "time_ms", "category", "worse")}
                       | {"work_lost_s": (f.get("work_lost") or {}).get("seconds")} for f in findings], indent=1)


def _finding(tmp_path: Path, run_dir: Path, start: int, end: int) -> dict:
    """The report's first finding (its answer, in the report's order), which must be at the fault."""
    findings = _findings(tmp_path, run_dir)
    first = score.answer(findings)
    assert first is not None and score.at_fault(first, [start, end]), \
        f"fault {start}-{end} ms; the report's first finding is not at it:\n{_shown(findings)}"
    print(first["title"])  # shown with -s, and on a failure
    return first


def test_mariadb_lock_tables_write_is_a_lock_wait_named_with_its_holder(tmp_path, server):  # noqa: F811
    def inject():
        return _inject(["bash", str(FAULTS / "mariadb-table-lock.sh"), server["IVS_MARIADB_DEFAULTS"],
                        server["IVS_MARIADB_URL"].rsplit("/", 1)[1], TABLE, str(HOLD_SECONDS)])

    connection = _mariadb_connection(server, "InnoDB")
    run_dir, (holder, start, end) = _run(tmp_path, connection, server["IVS_MARIADB_PASSWORD"], inject)
    f = _finding(tmp_path, run_dir, start, end)
    assert f["category"] == "lock-wait", f["title"]
    assert f["wait"]["wait"] == "table metadata lock" and f["wait"]["blocker"]["id"] == holder, f["wait"]
    assert f"held by connection {holder}: " in f["title"] and "LOCK TABLES" in f["title"], f["title"]


def test_myrocks_row_lock_is_a_lock_wait_named_with_its_holder(tmp_path, server):  # noqa: F811
    def inject():
        return _inject(["bash", str(FAULTS / "mariadb-row-lock.sh"), server["IVS_MARIADB_DEFAULTS"],
                        server["IVS_MARIADB_URL"].rsplit("/", 1)[1], TABLE, str(HOLD_SECONDS)])

    connection = _mariadb_connection(server, "RocksDB")
    run_dir, (holder, start, end) = _run(tmp_path, connection, server["IVS_MARIADB_PASSWORD"], inject)
    f = _finding(tmp_path, run_dir, start, end)
    assert f["category"] == "lock-wait", f["title"]
    assert "row lock" in f["wait"]["wait"] and f["wait"]["blocker"]["id"] == holder, f["wait"]
    assert f"held by connection {holder}" in f["title"], f["title"]


@pytest.fixture
def postgres():
    skip_policy.require(JAR.exists(), f"{JAR} missing (mvn -DskipTests package)")
    skip_policy.require(Path("/usr/lib/postgresql/15/bin/postgres").exists(), "PostgreSQL 15 not installed")
    skip_policy.require(shutil.which("psql") is not None, "psql not installed")
    # the server's own user must reach its state directory: not below a root-only pytest tmp dir
    state = Path(tempfile.mkdtemp(prefix="ivs-pg-fault-", dir="/var/tmp"))
    state.chmod(0o755)
    env = dict(os.environ, IVS_STATE_DIR=str(state / "pg"))
    out = subprocess.run(["bash", str(POSTGRES), "start"], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    found = {}
    for line in out.stdout.splitlines():
        if line.startswith("export "):
            key, _, value = line[len("export "):].partition("=")
            found[key] = value.strip("'\"")
    try:
        yield found
    finally:
        subprocess.run(["bash", str(POSTGRES), "stop"], env=env, capture_output=True, timeout=120)
        shutil.rmtree(state, ignore_errors=True)


def test_postgres_access_exclusive_lock_is_a_lock_wait_named_with_its_holder(tmp_path, postgres):
    jdbc = postgres["IVS_POSTGRES_URL"]
    libpq = "postgresql://ivs@" + jdbc.split("//", 1)[1]

    def inject():
        return _inject(["bash", str(FAULTS / "postgres-table-lock.sh"), libpq, TABLE, str(HOLD_SECONDS)],
                       env=dict(os.environ, PGPASSWORD=postgres["IVS_POSTGRES_PASSWORD"]))

    connection = (f"<type>POSTGRESQL</type><url>{jdbc}</url><username>ivs</username>"
                  f"<monitor><pidFile>{postgres['IVS_POSTGRES_PIDFILE']}</pidFile></monitor>")
    run_dir, (holder, start, end) = _run(tmp_path, connection, postgres["IVS_POSTGRES_PASSWORD"], inject)
    f = _finding(tmp_path, run_dir, start, end)
    assert f["category"] == "lock-wait", f["title"]
    assert f["wait"]["wait"] == "a relation lock" and f["wait"]["blocker"]["id"] == holder, f["wait"]
    assert f"held by pid {holder}" in f["title"] and f"AccessExclusiveLock on {TABLE}" in f["title"], f["title"]


def _accuracy_settings(sid: str) -> str:
    """The server settings scripts/bench/lib/diagnosis_accuracy.py gives a scenario (one place for them)."""
    sys.path.insert(0, str(REPO / "scripts" / "bench" / "lib"))
    try:
        import diagnosis_accuracy
    finally:
        sys.path.pop(0)
    return diagnosis_accuracy.PRIVATE[sid][3]


@pytest.fixture
def cassandra_small_memtables():
    """A private one-node Cassandra of its own (temporary state; the jars shared with the default instance's
    .cache/cassandra/lib, fetched there when missing) with scenario 16's small memtable space."""
    skip_policy.require(JAR.exists(), f"{JAR} missing (mvn -DskipTests package)")
    skip_policy.require(shutil.which("java") is not None and shutil.which("mvn") is not None,
                        "Java and Maven are needed to fetch and run Cassandra (scripts/cassandra.sh)")
    state = Path(tempfile.mkdtemp(prefix="ivs-cassandra-fault-"))
    env = dict(os.environ, IVS_CASSANDRA_STATE_DIR=str(state),
               IVS_CASSANDRA_LIB_DIR=str(REPO / ".cache" / "cassandra" / "lib"),
               IVS_CASSANDRA_SETTINGS=_accuracy_settings("16"))
    out = subprocess.run(["bash", str(CASSANDRA), "start"], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    found = {}
    for line in out.stdout.splitlines():
        if line.startswith("export "):  # printf %q quoting: the URL's "?" comes as "\?"
            key, _, value = line[len("export "):].partition("=")
            found[key] = shlex.split(value)[0]
    try:
        yield found
    finally:
        subprocess.run(["bash", str(CASSANDRA), "stop"], env=env, capture_output=True, timeout=120)
        shutil.rmtree(state, ignore_errors=True)


def test_cassandra_write_burst_is_write_pressure_from_its_own_thread_pools(tmp_path, cassandra_small_memtables):
    c = cassandra_small_memtables
    connection = (f"<type>CASSANDRA</type><url>{c['IVS_CASSANDRA_URL']}</url>"
                  f"<monitor><pidFile>{c['IVS_CASSANDRA_PIDFILE']}</pidFile></monitor>")
    burst = tmp_path / "burst.xml"
    burst.write_text(_config(connection, None, 8,
                             "<work><warmup>0</warmup><time>15</time><rate>unlimited</rate><weights>0,100</weights>"
                             "<distribution>uniform</distribution></work>"))

    def inject():
        return _inject(["bash", str(FAULTS / "write-burst.sh"), str(burst)])

    run_dir, (_, start, end) = _run(tmp_path, connection, None, inject)
    # The premise, from the node's own thread-pool counters: the burst made write pressure (a flush queued). On a
    # box too slow for the burst to outrun the flush writer nothing changes at the burst, and nothing is there to
    # diagnose: fail naming that, not the diagnosis.
    pending = _monitor_max(run_dir, "db.thread_pools.MemtableFlushWriter.pending_tasks", start, end + 20_000)
    assert pending > 0, (f"premise unmet: the write burst queued no memtable flush on the node "
                         f"(MemtableFlushWriter.pending_tasks at most {pending} from the burst to 20 s after it)")
    findings = _findings(tmp_path, run_dir)
    shown = _shown(findings)
    at_burst = [f for f in score.ranked(findings) if score.at_fault(f, [start, end])]
    assert at_burst, shown
    # what changed at the burst: the node's pending flush tasks rose across the finding (the monitor's
    # thread_pools counters, explain/pressure.py) - not a compaction snapshot, which every step of this node has
    flushing = [f for f in at_burst if any("MemtableFlushWriter" in s["name"] and "pending" in s["name"]
                                           for s in (f.get("pressure") or {}).get("signals", []))]
    assert flushing, shown
    f = flushing[0]  # in the report's order
    print(f["title"])
    first = score.answer(findings)
    if f["worse"]:
        assert f["category"] in ("flush-pressure", "write-stall"), shown
        assert first is f, shown  # the report's answer is the burst's write pressure
    else:
        # an improvement is given no database cause; the pressure stays in its evidence
        assert not score.is_database(f.get("category")), shown
        assert any(e.startswith("meanwhile (not a cause of a change for the better)") for e in f["evidence"]), shown
        assert not score.is_database(first.get("category")) or first is f, shown
    # and nothing at the burst blames another database cause
    others = [g for g in at_burst if score.is_database(g.get("category"))
              and g["category"] not in ("flush-pressure", "write-stall")]
    assert not others, shown
