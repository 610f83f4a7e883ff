"""End to end on a real MariaDB: two disturbances a DBA meets, and what the report must say about them.

Each test starts its own private MariaDB (scripts/mariadb.sh), runs the real target/benchbase.jar with a
rate-limited read/extend phase (4 terminals, 70:30 ReadRecord/ExtendRecord), disturbs the server once the
phase has run 10 measured windows, then runs the analyzer's CLI (`report`) on the results folder:

- a held row lock: another connection locks every row (SELECT ... FOR UPDATE) and keeps its transaction
  open for 8 s. The report's finding for the stall must name a lock counter as the cause and, from the
  client's server snapshot (activity.jsonl), the blocking transaction on that very connection.
- a CPU hog: busy processes that are neither the server nor the client (eight per core), for 20 s. The report
  must attribute the host CPU to another process (the finding's `cpu.taken_by`, not the fallback "another
  process or the client"), and what it puts on that other process (`cpu.other_cores_delta`) must be CPU the
  hogs used: at most 1.25 x their own CPU time over their span (wait4's rusage), in cores. Other steady load
  on the box (a burner at half duty, say) is in the windows before and after the hog alike: it moves neither.
  One premise remains, measured first and named when it fails: the analyzer attributes only a move of host idle
  CPU of at least MIN_IDLE_POINTS, and a hog can only take idle CPU that is there. The test waits (from the
  phase's 10th measured window, for up to 20 more) for a mean of 1.5 x MIN_IDLE_POINTS of host idle CPU over
  three 1-s reads before it starts the hog, and checks in monitor.csv that the idle CPU was still there right
  before it; if not, other work saturated the host and the test fails saying so (a skip under
  IVS_ALLOW_SKIP=1).

Needs Java, target/benchbase.jar and MariaDB installed (scripts/test.sh provides them). Without them it
fails, unless IVS_ALLOW_SKIP=1 asks for a skip (tests/skip_policy.py).
"""
from __future__ import annotations

import csv
import json
import os
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
# InnoDB's row-lock counters. Threads_running is not among them: sessions pile up whenever operations take
# longer, whatever the reason, so it says that the server is blocked, not why.
# Busy processes per core for the CPU hog: several, so that the server's and the client's threads wait for a
# core far longer than the latency noise other work on a shared host causes. Beside a burner at half duty (the
# suite's background-load check) four per core for 15 s raised p99 too little above the burner's own noise for a
# step to be found, twice in the suite (2026-12-02: only the p99 fall after the hog); eight for 20 s was found in
# three runs of three beside it.
HOGS_PER_CORE = 8
HOG_SECONDS = 20
# ... and at a higher priority than the server and the client (_hog_priority): a host whose CPU another process
# really takes, not one where the scheduler still favours the waking server.
HOG_NICE = -10
CORES = os.cpu_count() or 2
# The hog's premise: host idle CPU before it, this many times the analyzer's MIN_IDLE_POINTS (the least move of
# host idle it attributes); the hogs take all of it, so the analyzer sees idle fall by at least that much.
IDLE_MARGIN = 1.5
# The analyzer's "another process" share may exceed the hogs' own measured cores by this factor (its windows and
# the hogs' span are not the same seconds).
HOG_SHARE_SLACK = 1.25

# Each test: a private server started, create + load + a 40-55 s phase (and up to 20 s more waiting for idle CPU),
# the report: about 170 s on a saturated box.
pytestmark = pytest.mark.timeout(600)


@pytest.fixture
def server(tmp_path):
    skip_policy.require(JAR.exists(), f"{JAR} missing (mvn -DskipTests package)")
    skip_policy.require(shutil.which("mariadbd") is not None or Path("/usr/sbin/mariadbd").exists(),
                        "MariaDB not installed")
    skip_policy.require(shutil.which("java") is not None, "java not installed")
    env = dict(os.environ, IVS_STATE_DIR=str(tmp_path / "mariadb"))
    out = subprocess.run(["bash", str(SCRIPT), "start"], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    found = {}
    for line in out.stdout.splitlines():
        if line.startswith("export "):
            key, _, value = line[len("export "):].partition("=")
            found[key] = value.strip("'\"")
    try:
        yield found
    finally:
        subprocess.run(["bash", str(SCRIPT), "stop"], env=env, capture_output=True, timeout=120)


def _measured_windows(results: Path) -> int:
    dirs = list(results.glob("ycsbivs_*")) if results.exists() else []
    if not dirs or not (dirs[0] / "samples.csv").exists():
        return 0
    with (dirs[0] / "samples.csv").open() as f:
        return sum(1 for r in csv.DictReader(f) if r["type"] == "ALL" and float(r["throughput"] or 0) > 0)


def _host_idle_pct(seconds: float = 1.0) -> float:
    """The host's idle CPU over `seconds`, in % of all cores, from /proc/stat (as the monitor's
    os.cpu.idle_pct: the idle field over user, nice, system, idle, iowait, irq, softirq, steal)."""
    def ticks():
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:9]]
        return fields[3], sum(fields)
    idle0, total0 = ticks()
    time.sleep(seconds)
    idle1, total1 = ticks()
    return 100.0 * (idle1 - idle0) / max(total1 - total0, 1)


def _run_with_disturbance(tmp_path: Path, srv: dict, disturb, seconds: int, ready=None,
                          ready_windows: int = 0, weights: str = "70,30") -> tuple[Path, int, int]:
    """Runs the phase; after 10 measured windows calls disturb() (which returns when the disturbance is over);
    returns the results folder and the disturbance's start and end (epoch ms). With `ready`, the
    disturbance waits until ready() is true, for at most `ready_windows` more measured windows; it is then
    not started (start_ms stays None, and the caller decides)."""
    config = tmp_path / "cfg.xml"
    config.write_text(
        "<parameters><type>MARIADB</type>"
        f"<url>{srv['IVS_MARIADB_URL']}</url><username>ivs</username><passwordEnv>IVS_TEST_PW</passwordEnv>"
        f"<monitor><pidFile>{srv['IVS_MARIADB_PIDFILE']}</pidFile></monitor>"
        "<terminals>4</terminals><randomSeed>7</randomSeed><recordcount>2000</recordcount>"
        "<table>diagnosis</table><engine>InnoDB</engine>"
        "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype>"
        "<transactiontype><name>ExtendRecord</name></transactiontype></transactiontypes>"
        f"<works><work><warmup>3</warmup><time>{seconds}</time><rate>1000</rate><weights>{weights}</weights>"
        "<distribution>uniform</distribution></work></works></parameters>")
    results = tmp_path / "results"
    proc = subprocess.Popen(
        ["java", "-jar", str(JAR), "-b", "ycsbivs", "-c", str(config), "--create", "--load", "--execute",
         "-d", str(results)],
        env=dict(os.environ, IVS_TEST_PW=srv["IVS_MARIADB_PASSWORD"]),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    start_ms = end_ms = None
    try:
        deadline = time.time() + 180
        while time.time() < deadline and proc.poll() is None:
            windows = _measured_windows(results)
            if windows >= 10 + ready_windows and ready is not None:
                break  # never ready
            if windows >= 10 and (ready is None or ready()):
                start_ms = int(time.time() * 1000)
                disturb()
                end_ms = int(time.time() * 1000)
                break
            time.sleep(0.2)
        output, _ = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, output
    if ready is None:
        assert start_ms is not None, "the run never reached 10 measured windows: " + output
    return next(results.glob("ycsbivs_*")), start_ms, end_ms


def _report(tmp_path: Path, run_dir: Path) -> list[dict]:
    out = tmp_path / "report"
    cli = subprocess.run([sys.executable, "-m", "ivs_analyzer", "report", str(run_dir), "-o", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert cli.returncode == 0, cli.stderr
    return json.loads((out / "findings.json").read_text())


def test_a_held_row_lock_is_named_with_its_blocking_transaction(tmp_path, server):
    mariadb = ["mariadb", f"--defaults-file={server['IVS_MARIADB_DEFAULTS']}", "-uroot", "-N", "-B",
               server["IVS_MARIADB_URL"].rsplit("/", 1)[1]]
    holder = {}

    def hold_locks():
        # One session: its connection id, every row locked, 8 s with the transaction open.
        out = subprocess.run(mariadb + ["-e", "SELECT CONNECTION_ID(); BEGIN; SELECT COUNT(*) FROM diagnosis"
                                              " FOR UPDATE; DO SLEEP(8); COMMIT;"],
                             capture_output=True, text=True, timeout=60, check=True)
        holder["id"] = int(out.stdout.split()[0])

    run_dir, start_ms, end_ms = _run_with_disturbance(tmp_path, server, hold_locks, 40)
    activity = [json.loads(line) for line in (run_dir / "activity.jsonl").read_text().splitlines() if line.strip()]
    blockers = {w["blocking"]["threadId"] for a in activity for w in a["snapshot"].get("lockWaits", [])}
    assert holder["id"] in blockers, (holder, activity)

    findings = _report(tmp_path, run_dir)
    stall = [f for f in findings if f["kind"] in ("step", "episode") and "throughput" in f["series"]
             and start_ms - 3000 <= f["time_ms"] <= end_ms]
    assert stall, json.dumps(findings, indent=1)[:3000]
    f = stall[0]
    # The category and the named blocker, from the server's own wait evidence - not the rank of a counter: on a
    # shared box the disk's own swings can move more than the row-lock counters in the same seconds (a CI run saw
    # os.cpu.iowait_pct ranked above Innodb_row_lock_waits while the title named the lock and its holder rightly).
    assert f["category"] == "lock-wait", json.dumps(f, indent=1)[:3000]
    assert f"row lock held by connection {holder['id']}" in f["title"], f["title"]
    assert any(f"on connection {holder['id']} blocks" in e for e in f["evidence"]), f["evidence"]


def _p99_and_idle(run_dir: Path, start_ms: int) -> list[tuple[int, float, float | None]]:
    """(seconds from the disturbance's start, p99 in ms, host idle %) of each measured window: what a failure shows."""
    with (run_dir / "monitor.csv").open() as f:
        idle = {int(r["time_ms"]): float(r["os.cpu.idle_pct"]) for r in csv.DictReader(f) if r["os.cpu.idle_pct"]}
    with (run_dir / "samples.csv").open() as f:
        return [(round((int(r["time_ms"]) - start_ms) / 1000), round(float(r["lat_p99_us"]) / 1000, 1),
                 idle.get(int(r["time_ms"]))) for r in csv.DictReader(f)
                if r["type"] == "ALL" and r["phase"] == "0" and r["lat_p99_us"]]


def _hog_priority() -> None:
    """In each hog before it starts: nice HOG_NICE when allowed (root; scripts/test.sh runs as root in CI), else as
    it is. At nice 0 the kernel lets a thread that mostly sleeps (the server's, the client's) run first when it
    wakes, so busy loops raise p99 only after seconds, if at all: beside a burner at half duty p99 stayed at its
    8-21 ms for the hog's first 10 s (reads only; the clean-clone suite's failure at c11e1e8 and 3 runs of 3
    beside the burner after it)."""
    try:
        os.nice(HOG_NICE)
    except PermissionError:
        pass


def _wait_for_hogs(hogs: list[subprocess.Popen]) -> float:
    """Reaps the hogs; returns the CPU time they used (user + system, s), from the kernel's own accounting of
    each (wait4's rusage)."""
    used = 0.0
    for h in hogs:
        _, status, usage = os.wait4(h.pid, 0)
        h.returncode = os.waitstatus_to_exitcode(status)
        used += usage.ru_utime + usage.ru_stime
    return used


def test_a_cpu_hog_is_host_cpu_taken_by_another_process(tmp_path, server):
    from ivs_analyzer.explain.cpu import MIN_IDLE_POINTS
    needed = IDLE_MARGIN * MIN_IDLE_POINTS
    seen = []
    hog_cores = []

    def idle_enough():  # a mean over three 1-s reads: a busy box's idle CPU comes and goes within a second
        seen.append(round(_host_idle_pct(), 1))
        return len(seen) >= 3 and sum(seen[-3:]) / 3 >= needed

    def hog():
        started = time.monotonic()
        hogs = [subprocess.Popen([sys.executable, "-c", f"import time\nend = time.time() + {HOG_SECONDS}\n"
                                  "while time.time() < end: pass"], preexec_fn=_hog_priority)
                for _ in range(HOGS_PER_CORE * CORES)]
        used = _wait_for_hogs(hogs)
        hog_cores.append(used / (time.monotonic() - started))

    # Reads only (ReadRecord 100, ExtendRecord 0), so that no flushing moves p99 beside the hog's own rise. With the
    # lock test's 30 % extends, beside a burner at half duty, p99 before the hog swung between 6 and 60 ms for the
    # run's first 30-50 s and fell to 2-8 ms later at the same host idle; the hogs, at nice 0 then, lifted p99 no
    # higher than those swings, and the steps found were its fall at the hog's end or a late rise no metric
    # explained (the clean-clone suite at c11e1e8). Reads only and hogs at HOG_NICE: p99 rose 8-30 x at the hog's
    # start, read as "host CPU taken by another process", in 3 runs of 3 beside the burner.
    run_dir, start_ms, end_ms = _run_with_disturbance(tmp_path, server, hog, 55, ready=idle_enough,
                                                      ready_windows=20, weights="100,0")
    # The premise, measured before the hog and again in what the run recorded: idle CPU for the hog to take.
    if start_ms is None:
        skip_policy.missing(f"premise not met: idle host CPU for the hog to take. The host never had {needed:.0f} % "
                            f"idle CPU over 3 s in 20 s of the phase (1-s reads: {seen}); other work saturated it, "
                            "and a hog cannot be seen taking CPU that is not idle")
    with next(run_dir.glob("monitor.csv")).open() as f:
        idle_before = [float(r["os.cpu.idle_pct"]) for r in csv.DictReader(f)
                       if r["os.cpu.idle_pct"] and start_ms - 4000 <= int(r["time_ms"]) < start_ms]
    if not idle_before or sum(idle_before) / len(idle_before) < MIN_IDLE_POINTS:
        skip_policy.missing(f"premise not met: idle host CPU for the hog to take. The monitor saw {idle_before} % "
                            f"host idle CPU right before the hog (the test's own reads: {seen}): other work took "
                            f"it, so the hog had less than the analyzer's {MIN_IDLE_POINTS:.0f} points of idle CPU "
                            "to take")
    findings = _report(tmp_path, run_dir)
    during = [f for f in findings if f["kind"] in ("step", "episode") and start_ms - 3000 <= f["time_ms"] <= end_ms]
    assert during, (f"no step or episode during the hog ({start_ms}-{end_ms} ms); p99 (ms) and host idle (%) by "
                    f"window, from its start: {_p99_and_idle(run_dir, start_ms)}\n" + json.dumps(findings, indent=1)[:3000])
    taken = [f for f in during if (f.get("cpu") or {}).get("taken_by") == "another process"]
    assert taken, (json.dumps([{"title": f["title"], "cpu": f.get("cpu")} for f in during], indent=1)
                   + f"\np99 (ms) and host idle (%) by window, from the hog's start: {_p99_and_idle(run_dir, start_ms)}")
    f = taken[0]
    assert "host CPU taken by another process (idle" in f["title"], f["title"]
    cpu = f["cpu"]
    assert cpu["other_cores_delta"] >= 0.5 * cpu["host_cores_delta"] > 0, cpu
    # Relative, whatever else the box ran: what the analyzer put on "another process" is CPU the hogs really
    # used (their own CPU time over the hog's span, in cores), not CPU that the server, the client or a change
    # of the box's other load took.
    assert cpu["other_cores_delta"] <= HOG_SHARE_SLACK * hog_cores[0], (cpu, f"hogs: {hog_cores[0]:.2f} cores")
