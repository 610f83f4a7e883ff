"""End to end on a real MariaDB: the data outgrows the buffer pool at a known moment, and the report must
say so.

The test starts its own private MariaDB (scripts/mariadb.sh, 64 MB buffer pool), runs the real
target/benchbase.jar with a read-only ycsbivs phase (a fixed 3,000 reads/s) over a table that fits the pool,
and halfway through shrinks the pool to 8 MB (SET GLOBAL innodb_buffer_pool_size): from that second the
table no longer fits. Its 220 records have 20 fields of 1,000 bytes: InnoDB keeps about 13 of them on
overflow pages of their own, so a read that misses the pool reads about 14 pages, not one.
Then:
- monitor.csv rows share the samples.csv windows, and proc.* watches the test's own server (its pid file):
  the monitor's proc.cpu_pct over the windows around a span accounts for at least half the CPU time the
  test itself read from /proc/<pid>/stat for that server over that span;
- the premises, each checked on what this run measured and failing with the premise it names: the table
  fitted the pool before (smaller than it, and no more pages read before the shrink than the pool holds),
  the pool shrank below the table (db.Innodb_buffer_pool_pages_total against the table's own pages), every
  window after it missed the pool at least as often as a uniform read of a table that big must, and throughput
  fell by a quarter or more across the shrink (the step to explain; other load on the box can hide it) from
  a level with no step of its own in the analyzer's ten context windows before it;
- the analyzer's CLI (`report`) finds that throughput drop within two windows of the shrink, and its
  changes.json top 5 (the default, what report.html shows) names the buffer pool reads and a disk read
  metric.
No assertion is a bound on wall time, on CPU or on a count of windows: the thresholds are derived from
the sizes and levels this run measured.

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

# A private server started, create + load + a 30 s phase, the report: about 100 s on a saturated box.
pytestmark = pytest.mark.timeout(360)


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


def _cpu_ticks(pid: int) -> int:
    """utime + stime of the process and its waited-for children, in clock ticks (/proc/<pid>/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) "; fields[0] is the state (field 3)
    return sum(int(v) for v in fields[11:15])  # fields 14-17: utime, stime, cutime, cstime


def _sql(server: dict, query: str) -> list[list[str]]:
    out = subprocess.run(["mariadb", f"--defaults-file={server['IVS_MARIADB_DEFAULTS']}", "-uroot", "-N", "-B",
                          "-e", query], capture_output=True, text=True, timeout=60, check=True)
    return [line.split("\t") for line in out.stdout.splitlines()]


def test_buffer_pool_outgrown_mid_phase_is_explained(tmp_path, small_pool_server):
    url = small_pool_server["IVS_MARIADB_URL"]
    pid = int(Path(small_pool_server["IVS_MARIADB_PIDFILE"]).read_text().strip())
    config = tmp_path / "cfg.xml"
    config.write_text(
        "<parameters><type>MARIADB</type>"
        f"<url>{url}</url><username>ivs</username><passwordEnv>IVS_TEST_PW</passwordEnv>"
        # proc.* must watch this test's server: by name (the default) the monitor would take the lowest-pid
        # mariadbd on the host, which is any other server running there.
        f"<monitor><pidFile>{small_pool_server['IVS_MARIADB_PIDFILE']}</pidFile></monitor>"
        "<terminals>1</terminals><randomSeed>1</randomSeed><recordcount>220</recordcount>"
        "<fieldcount>20</fieldcount><fieldlength>1000</fieldlength>"
        "<table>pool_shrink</table><engine>InnoDB</engine>"
        "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
        # The step must not depend on the box's speed. With 30,000 records of 1 KB (one page read per miss) and a
        # fixed 8,000/s, a fast CI box still reached 6,350/s after the shrink (a step of 21 %, under the quarter the
        # premise asks), while this box reached only 6.7 k/s before it; closed loop made the level before too noisy
        # to place the step. Records whose fields sit on overflow pages make a miss cost about 14 page reads
        # against one read's transfer: one terminal reaches 6-9 k/s with the table in the pool and 0.6-1 k/s after
        # the shrink (idle box, closed loop, 2026-12-03), so a fixed 3,000/s is under the first even when other
        # load halves it and 3 x over the second.
        "<works><work><warmup>4</warmup><time>26</time><rate>3000</rate><weights>100</weights>"
        "<distribution>uniform</distribution></work></works></parameters>")
    results = tmp_path / "results"
    proc = subprocess.Popen(
        ["java", "-jar", str(JAR), "-b", "ycsbivs", "-c", str(config), "--create", "--load", "--execute",
         "-d", str(results)],
        env=dict(os.environ, IVS_TEST_PW=small_pool_server["IVS_MARIADB_PASSWORD"]),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # The server's CPU time as this test reads it (epoch ms, ticks): at the first measured window and at the
    # shrink. The monitor must account for it (it watches the pid file's process, not some other mariadbd).
    cpu_read = []
    try:
        # Wait for 10 measured windows with the table in the pool, then take the pool away.
        deadline = time.time() + 120
        shrink_ms = None
        while time.time() < deadline and proc.poll() is None:
            dirs = list(results.glob("ycsbivs_*")) if results.exists() else []
            rows = [r for r in _all_rows(dirs[0] / "samples.csv") if float(r["throughput"] or 0) > 0] if dirs else []
            if rows and not cpu_read:
                cpu_read.append((int(time.time() * 1000), _cpu_ticks(pid)))
            if len(rows) >= 10:
                # On a busy machine the client may take seconds to start: the shrink happened somewhere
                # between these two instants, and "before" must end before the first.
                issued_ms = int(time.time() * 1000)
                cpu_read.append((issued_ms, _cpu_ticks(pid)))
                _sql(small_pool_server, "SET GLOBAL innodb_buffer_pool_size = 8388608")
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
    # has its length, so the analyzer can put them side by side without resampling. (How many rows there are
    # is the box's business: a monitor tick that came late after a stall covers the windows it skipped.)
    window_starts = {int(r["time_ms"]): int(r["window_ms"]) for r in samples if r["phase"] == "0"}
    measured = [r for r in all_monitor
                if phase["measuredStartMs"] <= int(r["time_ms"]) and int(r["time_ms"]) + int(r["interval_ms"]) <= phase["endMs"]]
    assert measured, f"no monitor row inside the measured phase: {[r['time_ms'] for r in all_monitor]}"
    misaligned = [(r["time_ms"], r["interval_ms"]) for r in measured if window_starts.get(int(r["time_ms"])) != int(r["interval_ms"])]
    assert not misaligned, f"monitor rows not on a samples.csv window: {misaligned[:5]} (windows {sorted(window_starts)[:5]}...)"
    starts = [int(r["time_ms"]) for r in measured]
    assert len(set(starts)) == len(starts), f"a window with two monitor rows: {starts}"
    assert all(r["phase"] == "0" for r in measured), [r["phase"] for r in measured]

    # proc.* is this server: the CPU time the test read from its /proc/<pid>/stat between its two reads lies in
    # the monitor rows from the window before the first read to the window after the second; those rows must
    # hold at least half of it (the half is room for where a tick fell inside its window, not a CPU bound: a
    # monitor watching an idle other process, or none, shows about 0).
    (t0, ticks0), (t1, ticks1) = cpu_read
    server_s = (ticks1 - ticks0) / os.sysconf("SC_CLK_TCK")
    around = [r for r in all_monitor
              if t0 - 2 * int(r["interval_ms"]) < int(r["time_ms"]) <= t1 + int(r["interval_ms"])]
    empty = [r["time_ms"] for r in around if not r["proc.cpu_pct"]]
    assert not empty, f"monitor rows without proc.cpu_pct: {empty}"
    monitor_s = sum(float(r["proc.cpu_pct"]) / 100 * int(r["interval_ms"]) / 1000 for r in around)
    assert server_s > 0, f"premise unmet: the server used no CPU while it answered queries ({ticks0} -> {ticks1} ticks)"
    assert monitor_s >= 0.5 * server_s, \
        f"proc.cpu_pct holds {monitor_s:.2f} CPU s where the server (pid {pid}) used {server_s:.2f} s: another process?"

    # The premises of the step, on what this run measured. Buffer pool reads per query, not per second: on a
    # shared machine other load can slow the client to a few queries in a window.
    def num(r, column):
        return float(r[column]) if r[column] else float("nan")

    def reads_per_query(r):
        return num(r, "db.Innodb_buffer_pool_reads") / max(1.0, num(r, "db.Com_select"))
    before = [r for r in all_monitor if int(r["time_ms"]) + int(r["interval_ms"]) <= issued_ms]
    after = [r for r in measured if int(r["time_ms"]) > shrink_ms + 2000]
    assert before and after, "monitor rows on both sides of the shrink"
    schema = url.rsplit("/", 1)[1]
    _sql(small_pool_server, f"ANALYZE TABLE {schema}.pool_shrink")
    (table_bytes,), = _sql(small_pool_server, "SELECT data_length FROM information_schema.TABLES"
                                              f" WHERE table_schema = '{schema}' AND table_name = 'pool_shrink'")
    table_pages = int(table_bytes) // 16384
    pool_before = {num(r, "db.Innodb_buffer_pool_pages_total") for r in before}
    pool_after = {num(r, "db.Innodb_buffer_pool_pages_total") for r in after}
    reads_before = sum(num(r, "db.Innodb_buffer_pool_reads") for r in before)
    # A table smaller than the pool, and no more pages read before the shrink than the pool holds: had a page
    # been evicted and read again, the uniform reads would have read thousands (the same reads miss about 14
    # pages per query after the shrink). (Free pages prove nothing: InnoDB keeps some free by evicting.)
    assert len(pool_before) == 1 and table_pages < max(pool_before) and reads_before <= max(pool_before), \
        (f"premise unmet: the table ({table_pages} pages) never fitted the pool ({pool_before} pages, "
         f"{reads_before:.0f} pages read before the shrink)")
    assert len(pool_after) == 1 and max(pool_after) < table_pages, \
        (f"premise unmet: the pool ({pool_before} -> {pool_after} pages) did not shrink below the table "
         f"({table_pages} pages)")
    # Uniform point reads of a table that big, with at most the whole (shrunk) pool holding its pages: at least
    # 1 - pool/table of them miss in expectation; 0.9 of that leaves room for a window's binomial spread.
    floor = 0.9 * (1 - max(pool_after) / table_pages)
    missing = [reads_per_query(r) for r in after]
    assert min(missing) >= floor, \
        f"premise unmet: the working set never exceeded the buffer pool: reads per query {missing}, floor {floor:.2f}"
    # The step to explain: throughput (samples.csv, the client's own count) down by a quarter or more, from a
    # level that did not step by half as much on its own in the analyzer's context windows before the shrink
    # (else other load made a step there, and those windows hold two levels). Medians of five windows (the
    # analyzer's min_size), so that one window another job slowed is not taken for a level.
    tput_before = [float(r["throughput"]) for r in samples
                   if r["phase"] == "0" and r["throughput"] and int(r["time_ms"]) + int(r["window_ms"]) <= issued_ms]
    tput_after = [float(r["throughput"]) for r in samples if r["phase"] == "0" and r["throughput"]
                  and int(r["time_ms"]) > shrink_ms + 2000 and int(r["time_ms"]) + int(r["window_ms"]) <= phase["endMs"]]
    median_before = sorted(tput_before)[len(tput_before) // 2]
    median_after = sorted(tput_after)[len(tput_after) // 2]
    assert median_after <= 0.75 * median_before, \
        (f"premise unmet: throughput did not step at the shrink ({median_before:.0f} -> {median_after:.0f} ops/s "
         "median): other load on the box hid what the pool's misses cost")
    context = tput_before[-10:]  # the analyzer's context_windows
    first, last = sorted(context[:-5]), sorted(context[-5:])
    own_step = abs(first[len(first) // 2] - last[len(last) // 2])
    assert own_step < 0.5 * (median_before - median_after), \
        (f"premise unmet: throughput stepped by {own_step:.0f} ops/s before the shrink ({context}), not much less than "
         f"at it ({median_before:.0f} -> {median_after:.0f}): other load on the box made a step of its own")

    print(f"premises: server CPU {server_s:.2f} s, monitor {monitor_s:.2f} s; table {table_pages} pages, pool "
          f"{pool_before} -> {pool_after}; reads per query after >= {floor:.2f}: {min(missing):.2f}; throughput "
          f"{median_before:.0f} -> {median_after:.0f}, own step before {own_step:.0f}")  # shown with -s

    # The analyzer's CLI, as a user runs it: a throughput drop at the shrink, explained by reads.
    out = tmp_path / "report"
    cli = subprocess.run([sys.executable, "-m", "ivs_analyzer", "report", str(run_dir), "-o", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert cli.returncode == 0, cli.stderr
    changes = json.loads((out / "changes.json").read_text())
    # at least half the drop the premise measured, so a small wobble near the shrink is not taken for it. A step (a
    # lasting level), not a severe episode: the resize itself stalls the server for a window or two, and such an
    # episode, judged on one window after it, may be the change nearest the shrink (on a busy box it was, with no
    # metric listed) while the level the reads explain is the step beside it.
    fell = 1 - median_after / median_before
    near = [c for c in changes if c["series"] == "throughput" and issued_ms - 3000 <= c["time_ms"] <= shrink_ms + 3000]
    drops = [c for c in near if not c.get("severe") and c["relative_change"] <= -0.5 * fell]
    brief = json.dumps([{k: c[k] for k in ("time_ms", "relative_change", "before", "after")}
                        | {"severe": bool(c.get("severe")), "metrics": [m["name"] for m in c["metrics"]]}
                        for c in near], indent=1)
    assert drops, f"no throughput step at the shrink ({issued_ms}-{shrink_ms} ms); changes near it: {brief}"
    drop = min(drops, key=lambda c: abs(c["time_ms"] - shrink_ms))
    top = drop["metrics"]
    assert len(top) <= 5, "changes.json lists the default top 5"
    # A place in the top 5 holds one metric and those that moved with it window by window (`same`).
    places = [[m["name"], *m["same"]] for m in top]
    shown = json.dumps([(p, m["score"]) for p, m in zip(places, top)], indent=1) + f"\nchanges near the shrink: {brief}"

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
