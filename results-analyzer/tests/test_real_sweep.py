"""End to end: the real target/benchbase.jar sweeps SQLite and a private MariaDB (1, 2, 4 threads x 2 trials,
data re-loaded before each trial), and `ivs_analyzer sweep` over both folders gives the two-way ANOVA table.

Needs Java, target/benchbase.jar and MariaDB installed (scripts/test.sh provides all three). Without them it
fails, unless IVS_ALLOW_SKIP=1 asks for a skip (tests/skip_policy.py).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

import skip_policy
from ivs_analyzer.cli import main

REPO = Path(__file__).resolve().parents[2]
JAR = REPO / "target" / "benchbase.jar"
SCRIPT = REPO / "scripts" / "mariadb.sh"
PRESET = REPO / "config" / "sweeps" / "ycsb_a_sqlite_quick.xml"
SWEEP = ("<sweep><terminals>1,2,4</terminals><counts>500</counts><trials>2</trials>"
         "<reload>true</reload></sweep>")
# A private server started, two sweeps of 6 trials (each a new JVM), the sweep report: 72 s on a saturated box.
pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def mariadb(tmp_path):
    skip_policy.require(JAR.exists(), f"{JAR} missing (mvn -DskipTests package)")
    skip_policy.require(shutil.which("mariadbd") is not None or Path("/usr/sbin/mariadbd").exists(),
                        "MariaDB not installed")
    skip_policy.require(shutil.which("java") is not None, "java not installed")
    env = dict(os.environ, IVS_STATE_DIR=str(tmp_path / "mariadb"))
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


def sweep(config: Path, results: Path, env: dict | None = None) -> Path:
    out = subprocess.run(["java", "-jar", str(JAR), "-b", "ycsbivs", "-c", str(config), "--create", "--load",
                          "--execute", "-d", str(results)], capture_output=True, text=True, timeout=600,
                         env=env, cwd=results.parent)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    (folder,) = list(results.iterdir())
    return folder


def test_sqlite_and_mariadb_sweeps_give_the_two_way_table(tmp_path, mariadb):
    text = PRESET.read_text()
    text = re.sub(r"<recordcount>\d+</recordcount>", "<recordcount>500</recordcount>", text)
    text = re.sub(r"<sweep>[\s\S]*</sweep>", SWEEP, text)
    sqlite = tmp_path / "sqlite.xml"
    sqlite.write_text(text.replace("results/ycsb_a_sqlite_quick.db", str(tmp_path / "s.db")))
    maria = tmp_path / "maria.xml"
    maria.write_text(text.replace("<type>SQLITE</type>", "<type>MARIADB</type><username>"
                                  + mariadb.get("IVS_MARIADB_USER", "ivs")
                                  + "</username><passwordEnv>IVS_MARIADB_PASSWORD</passwordEnv>")
                     .replace("jdbc:sqlite:results/ycsb_a_sqlite_quick.db", mariadb["IVS_MARIADB_URL"]))
    env = dict(os.environ, IVS_MARIADB_PASSWORD=mariadb.get("IVS_MARIADB_PASSWORD", "ivs"))
    a = sweep(sqlite, tmp_path / "ra")
    b = sweep(maria, tmp_path / "rb", env)
    for folder, database in ((a, "SQLITE"), (b, "MARIADB")):
        rows = pd.read_csv(folder / "sweep.csv")
        assert len(rows) == 6 and set(rows["target_type"]) == {database}
        assert rows["operations"].tolist() == [500] * 6
        assert (folder / "t4-n500-trial2" / "summary.json").is_file()

    out = tmp_path / "report"
    assert main(["sweep", str(a), str(b), "-o", str(out)]) == 0
    report = (out / "sweep-report.md").read_text()
    assert "Two-way ANOVA with interaction" in report
    table = pd.read_csv(out / "anova.csv")
    assert table["model"].tolist() == ["categorical"] * 4 + ["numeric"] * 4
    for model, dfs in (("categorical", [1, 2, 2, 6]), ("numeric", [1, 1, 1, 8])):
        anova = table[table["model"] == model]
        assert anova["source"].tolist() == ["database", "threads", "database:threads", "Residual"]
        # 2 databases x 3 thread counts x 2 trials: df 1, 2, 2 and 12 - 6 = 6 left for the residual; threads as a
        # number takes 1 df and its interaction 1, leaving 12 - 4 = 8.
        assert anova["df"].tolist() == dfs
        assert anova["SS"].notna().all() and anova["F"].iloc[:3].notna().all()
    assert "Lack of fit of the straight line" in report
    assert "Reading (alpha = 0.05)" in report
