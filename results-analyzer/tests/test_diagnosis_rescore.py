"""scripts/bench/lib/diagnosis_accuracy.py --rescore on a copy of a committed run folder: the analyzer's reports are
written into the copy, and the committed runs are left as they were measured (a rescore once rewrote the committed
findings.json files, because the rows name their run folders relative to the project root)."""
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "docs" / "diagnosis-runs" / "nofault-20261203T065057Z"


def _digest(folder: Path) -> dict:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_rescored_copy_writes_its_reports_into_the_copy(tmp_path):
    rows = json.loads((COMMITTED / "results.json").read_text())
    row = next(r for r in rows if Path(r["run_dir"]).parts[-3] == "sN1")
    assert not Path(row["run_dir"]).is_absolute() and row["run_dir"].startswith("docs/")  # as committed
    copy = tmp_path / "copy"
    shutil.copytree(COMMITTED / "sN1", copy / "sN1")
    (copy / "results.json").write_text(json.dumps([row]))
    before = _digest(COMMITTED / "sN1")
    out = subprocess.run([sys.executable, str(REPO / "scripts" / "bench" / "lib" / "diagnosis_accuracy.py"),
                          "--rescore", str(copy)], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert _digest(COMMITTED / "sN1") == before, "the committed run folder was written"
    rescored = json.loads((copy / "results.json").read_text())
    assert rescored[0]["run_dir"].startswith(str(copy)), rescored[0]["run_dir"]
    assert (copy / "sN1" / "report" / "findings.json").is_file()
    assert (copy / "sN1" / "report" / "report.html").is_file()
    assert (copy / "accuracy.md").is_file()
