"""End to end without a server: the real jar's ``tenants`` subcommand runs two SQLite tenants (one reads all the
time, the other idles, works, idles), and the analyzer's ``report`` reads the folder it wrote: both tenants on one
timeline, the first tenant's windows split into solo and overlapping ones. Structure only, no timing bounds.

Needs Java and target/benchbase.jar (scripts/test.sh builds it); without them it fails unless IVS_ALLOW_SKIP=1.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

import skip_policy
from ivs_analyzer.cli import main

REPO = Path(__file__).resolve().parents[2]
JAR = REPO / "target" / "benchbase.jar"
# One JVM running two SQLite tenants for 7 s, then the report: 27 s on a saturated box.
pytestmark = pytest.mark.timeout(120)


def _config(path: Path, db: Path, works: str) -> Path:
    path.write_text(
        f"<parameters><type>SQLITE</type><url>jdbc:sqlite:{db}</url><recordcount>200</recordcount>"
        "<transactiontypes><transactiontype><name>ReadRecord</name></transactiontype></transactiontypes>"
        f"<works>{works}</works><monitor><enabled>false</enabled></monitor></parameters>", encoding="utf-8")
    return path


def test_the_jars_tenants_folder_is_reported_on_one_timeline(tmp_path):
    skip_policy.require(shutil.which("java") is not None, "java not installed")
    skip_policy.require(JAR.exists(), f"{JAR} missing (mvn -DskipTests package)")
    steady = _config(tmp_path / "steady.xml", tmp_path / "steady.db",
                     "<work><time>7</time><rate>50</rate><weights>100</weights></work>")
    burst = _config(tmp_path / "burst.xml", tmp_path / "burst.db",
                    "<work><time>2</time><rate>disabled</rate><weights>100</weights></work>"
                    "<work><time>3</time><rate>100</rate><weights>100</weights></work>"
                    "<work><time>2</time><rate>disabled</rate><weights>100</weights></work>")
    results = tmp_path / "results"
    proc = subprocess.run(["java", "-jar", str(JAR), "tenants", f"steady:ycsbivs:{steady}", f"burst:ycsbivs:{burst}",
                           "--create", "--load", "--execute", "-d", str(results)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (folder,) = list(results.iterdir())
    index = json.loads((folder / "tenants.json").read_text())
    assert [t["name"] for t in index["tenants"]] == ["steady", "burst"]

    assert main(["report", str(folder)]) == 0

    table = pd.read_csv(folder / "interference.csv").set_index("tenant")
    assert table.loc["steady", "solo_windows"] > 0
    assert table.loc["steady", "overlap_windows"] > 0
    assert table.loc["burst", "overlap_windows"] > 0
    assert "Tenants: steady, burst" in (folder / "report.html").read_text(encoding="utf-8")
