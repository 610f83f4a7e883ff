"""End to end on a real MariaDB: the data outgrows the buffer pool at a known moment, and the report must
say so.

The test starts its own private MariaDB (scripts/mariadb.sh, 64 MB buffer pool), runs the real
target/benchbase.jar with a read-only ycsbivs phase over a table that fits the pool, and halfway through
shrinks the pool to 8 MB (SET GLOBAL innodb_buffer_pool_size): from that second the table no longer fits.
Then:
- monitor.csv shows db.Innodb_buffer_pool_reads near zero per query before and about one per query after;
- monitor.csv rows share the samples.csv windows, and proc.* watches the test's own server (its pid file);
- the analyzer's CLI (`report`) finds a throughput drop within two windows of the shrink, and its
  changes.json top 5 (the default, what report.html shows) names the buffer pool reads and a disk read
  metric.

Needs Java, target/benchbase.jar and MariaDB installed (scripts/test.sh provides all three). Without them
it fails, unless IVS_ALLOW_SKIP=1 asks for a skip (tests/skip_policy.py).
"""
from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import skip_policy


REPO = Path(__file__).resolve().parents[2]
JAR = REPO / "target" / "benchbase.jar"
SCRIPT = REPO / "scripts" / "mariadb.sh"

# Reads from storage, by the disk (total or one device) or by the server process. Write counters and buffer
# pool requests (hits included) are not evidence that the table left the pool.
DISK_READ = re.compile(r"os\.disk\.([^.]+\.)?read_(bytes|ops)_ps|proc\.read_bytes_ps")


@pytest.fixture
def small_pool_server(tmp_path):
    skip_policy.require(JAR.exists(), f"{JAR} missing (mvn -DskipTests package)")
    skip_policy.require(shutil.which("mariadbd") is not None or Path("/usr/sbin/mariadbd").exists(), "MariaDB not installed")
    skip_policy.require(shutil.which("java") is not None, "java not installed")
    state = tmp_path / "mariadb"
    env = dict(os.environ, IVS_STATE_DIR=str(state), IVS_MARIADB_BUFFER_POOL="64M")
    out = subprocess.run(["bash", str(SCRIPT), "start"], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    server = {}
    for line in out.stdout.splitlines():
        if line.startswith("export "):
            key, _, value = line[len("export "):].partition("=")
            server[key] = value.strip("'\"")
    try:
        yield server
    finally:
        subprocess.run(["bash", str(SCRIPT), "stop"], env=env, capture_output=True, timeout=120)


def _all_rows(samples: Path) -> list[dict]:
    if not samples.exists():
        return []
    with samples.open() as f:
        return [r for r in csv.DictReader(f) if r["type"] == "ALL"]


def test_buffer_pool_outgrown_mid_phase_is_explained(tmp_path, small_pool_server):
    url = small_pool_server["IVS_MARIADB_URL"]
    config = tmp_path / "cfg.xml"
    config.write_text(
        "<parameters><type>MARIADB</type>"
        f"<url>{url}</url><username>ivs</username><passwordEnv>IVS_TEST_PW</passwordEnv>"
        # proc.* must watch this test's server: by name (the default) the monitor would take the lowest-pid
        # mariadbd on the host, which is any other server running there.
        f"<monitor><pidFile>{small_pool_server['IVS_MARIADB_PIDFILE']}</pidFile></monitor>"
        "<terminals>1</terminals><randomSeed>1</randomSeed><recordcount>30000</recordcount>"
        "<table>pool_shrink</table><engine>InnoDB</engine>"
        "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
        "<works><work><warmup>4</warmup><time>26</time><rate>unlimited</rate><weights>100</weights>"
        "<distribution>uniform</distribution></work></works></parameters>")
    results = tmp_path / "results"
    proc = subprocess.Popen(
        ["java", "-jar", str(JAR), "-b", "ycsbivs", "-c", str(config), "--create", "--load", "--execute",
         "-d", str(results)],
        env=dict(os.environ, IVS_TEST_PW=small_pool_server["IVS_MARIADB_PASSWORD"]),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        # Wait for 10 measured windows with the table in the pool, then take the pool away.
        deadline = time.time() + 120
        shrink_ms = None
        while time.time() < deadline and proc.poll() is None:
            dirs = list(results.glob("ycsbivs_*")) if results.exists() else []
            rows = [r for r in _all_rows(dirs[0] / "samples.csv") if float(r["throughput"] or 0) > 0] if dirs else []
            if len(rows) >= 10:
                # On a busy machine the client may take seconds to start: the shrink happened somewhere
                # between these two instants, and "before" must end before the first.
                issued_ms = int(time.time() * 1000)
                subprocess.run(["mariadb", f"--defaults-file={small_pool_server['IVS_MARIADB_DEFAULTS']}", "-uroot",
                                "-e", "SET GLOBAL innodb_buffer_pool_size = 8388608"], check=True, timeout=60)
                shrink_ms = int(time.time() * 1000)
                break
            time.sleep(0.2)
        output, _ = proc.communicate(timeout=180)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, output
    assert shrink_ms is not None, "the run never reached 10 measured windows: " + output
    run_dir = next(results.glob("ycsbivs_*"))

    samples = _all_rows(run_dir / "samples.csv")
    summary = json.loads((run_dir / "summary.json").read_text())
    phase = summary["phases"][0]
    with (run_dir / "monitor.csv").open() as f:
        all_monitor = [r for r in csv.DictReader(f)]

    # Same windows: every monitor row inside the measured phase starts where a samples.csv window starts, and
    # has its length, so the analyzer can put them side by side without resampling.
    window_starts = {int(r["time_ms"]): int(r["window_ms"]) for r in samples if r["phase"] == "0"}
    measured = [r for r in all_monitor
                if phase["measuredStartMs"] <= int(r["time_ms"]) and int(r["time_ms"]) + int(r["interval_ms"]) <= phase["endMs"]]
    assert len(measured) >= 20, f"{len(measured)} monitor rows in a 26 s measured phase"
    misaligned = [(r["time_ms"], r["interval_ms"]) for r in measured if window_starts.get(int(r["time_ms"])) != int(r["interval_ms"])]
    assert not misaligned, f"monitor rows not on a samples.csv window: {misaligned[:5]} (windows {sorted(window_starts)[:5]}...)"
    assert all(r["phase"] == "0" for r in measured), [r["phase"] for r in measured]
    # The server answers queries all phase long, so it uses CPU in (nearly) every window; a process that
    # is not the server (another mariadbd, or none) shows 0 or empty cells.
    busy = [r for r in measured if r["proc.cpu_pct"] and float(r["proc.cpu_pct"]) > 0]
    assert len(busy) >= 0.8 * len(measured), [r["proc.cpu_pct"] for r in measured]

    # monitor.csv: buffer pool reads rise once the table no longer fits. Per query, not per second: on a
    # shared machine other load can slow the client to a few queries in a window, and the claim is that
    # (nearly) every query now misses the pool, however many there are.
    def reads_per_query(r):
        return float(r["db.Innodb_buffer_pool_reads"]) / max(1.0, float(r["db.Com_select"]))
    before = [r for r in measured if int(r["time_ms"]) + int(r["interval_ms"]) <= issued_ms]
    after = [r for r in measured if int(r["time_ms"]) > shrink_ms + 2000]
    assert before and after, "monitor rows on both sides of the shrink"
    # The first seconds after the load still warm the pool; the seconds just before the shrink must not read.
    # (InnoDB's background work may read a page now and then: the contrast is what matters.)
    settled = [reads_per_query(r) for r in before[-5:]]
    missing = [reads_per_query(r) for r in after]
    assert min(missing) > 0.5, f"buffer pool reads per query after the shrink: {missing}"
    assert max(settled) * 20 < min(missing), f"the table fitted the pool before the shrink: {settled} vs {missing}"

    # The analyzer's CLI, as a user runs it: a throughput drop at the shrink, explained by reads.
    out = tmp_path / "report"
    cli = subprocess.run([sys.executable, "-m", "ivs_analyzer", "report", str(run_dir), "-o", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert cli.returncode == 0, cli.stderr
    changes = json.loads((out / "changes.json").read_text())
    drops = [c for c in changes if c["series"] == "throughput" and c["relative_change"] < -0.25
             and issued_ms - 3000 <= c["time_ms"] <= shrink_ms + 3000]
    assert drops, json.dumps(changes, indent=1)[:3000]
    drop = min(drops, key=lambda c: abs(c["time_ms"] - shrink_ms))
    top = drop["metrics"]
    assert len(top) <= 5, "changes.json lists the default top 5"
    # A place in the top 5 holds one metric and those that moved with it window by window (`same`).
    places = [[m["name"], *m["same"]] for m in top]
    shown = json.dumps([(p, m["score"]) for p, m in zip(places, top)], indent=1)

    def place_of(pred):
        return next((i for i, names in enumerate(places) if any(pred(n) for n in names)), None)
    reads_at = place_of(lambda n: n == "db.Innodb_buffer_pool_reads")
    assert reads_at is not None, shown
    assert place_of(DISK_READ.fullmatch) is not None, shown
    # Cause before symptom: Com_select counts the client's queries, so it is set apart as following
    # throughput; if a late monitor tick blurred that, it must at least not rank above the reads (on a machine
    # loaded by other jobs its per-window share can swing enough to leave it out of both lists: still not a
    # cause offered before the reads).
    select_at = place_of(lambda n: n == "db.Com_select")
    assert "db.Com_select" in drop["follows"] or select_at is None or reads_at < select_at, \
        (drop["follows"], shown)
