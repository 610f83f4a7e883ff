"""A merged folder of sharded drivers reads like any other: two real driver processes (target/benchbase.jar
--shard 0/2 and 1/2) on one SQLite file meet at the start barrier, `merge -o OUT DIR...` joins their folders,
and the analyzer's `report` CLI reads the result, its phase carrying both shards' operations.

Needs Java and target/benchbase.jar (scripts/test.sh builds it); without them it fails unless IVS_ALLOW_SKIP=1.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import skip_policy
from ivs_analyzer.load.results import load_run

REPO = Path(__file__).resolve().parents[2]
JAR = REPO / "target" / "benchbase.jar"


def _jar(*args: str, cwd: Path) -> subprocess.Popen:
    """The CLI as its own process; its output goes to a file (a pipe nobody reads could fill and block it)."""
    log = open(cwd / f"java-{len(list(cwd.glob('java-*.log')))}.log", "w")
    proc = subprocess.Popen(["java", "-jar", str(JAR), *args], cwd=cwd, stdout=log, stderr=subprocess.STDOUT)
    proc.log = Path(log.name)
    return proc


def _output(proc: subprocess.Popen) -> str:
    return proc.log.read_text()


def test_report_reads_a_merged_folder(tmp_path):
    skip_policy.require(JAR.exists(), f"{JAR} missing (mvn -DskipTests package)")
    skip_policy.require(shutil.which("java") is not None, "java not installed")
    config = tmp_path / "c.xml"
    config.write_text(f"""<parameters><type>SQLITE</type><url>jdbc:sqlite:{tmp_path / 'db.sqlite'}</url>
<terminals>2</terminals><randomSeed>3</randomSeed><recordcount>200</recordcount>
<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>
<works><work><time>3</time><rate>200</rate><weights>100</weights><active_terminals>2</active_terminals></work></works>
<monitor><enabled>false</enabled></monitor></parameters>""")
    setup = _jar("-b", "ycsbivs", "-c", str(config), "--create", "--load", cwd=tmp_path)
    assert setup.wait(120) == 0, _output(setup)
    shards = [_jar("-b", "ycsbivs", "-c", str(config), "--execute", "--shard", f"{i}/2", "--barrier-timeout",
                   "60", "-d", str(tmp_path / f"shard{i}"), cwd=tmp_path) for i in range(2)]
    try:
        for s in shards:
            assert s.wait(180) == 0, _output(s)
    finally:
        for s in shards:
            if s.poll() is None:
                s.kill()
    merged = tmp_path / "merged"
    merge = _jar("merge", "-o", str(merged), str(tmp_path / "shard0"), str(tmp_path / "shard1"), cwd=tmp_path)
    assert merge.wait(120) == 0, _output(merge)

    summary = json.loads((merged / "summary.json").read_text())
    assert summary["shards"]["merged"] == [0, 1]
    phase = summary["phases"][0]
    assert phase["rate"]["target"] == 200
    assert phase["operations"] + phase["missed"] == 600
    run = load_run(merged)
    assert len(run.phases) == 1

    out = tmp_path / "report"
    cli = subprocess.run([sys.executable, "-m", "ivs_analyzer", "report", str(merged), "-o", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert cli.returncode == 0, cli.stderr
    assert (out / "report.html").exists()
