"""The analyzer's layout: no import circles, and the layers load -> detect -> explain -> report import only
downwards (a module of a layer imports its own layer and the ones below; the command line sits on top)."""
from pathlib import Path

import ivs_analyzer
from import_graph import cycles, graph, upward

ROOT = Path(ivs_analyzer.__file__).parent
LAYERS = ["load", "detect", "explain", "report"]


def test_no_import_circles():
    assert cycles(graph(ROOT)) == []


def test_layers_import_only_downwards():
    edges = graph(ROOT)
    assert upward(edges, LAYERS, "ivs_analyzer") == []


def test_every_module_sits_in_a_layer():
    """Only the command line is outside the layers: a new module has to say where it belongs."""
    loose = sorted(m for m in graph(ROOT) if m.count(".") == 1 and m.split(".")[1] not in LAYERS)
    assert loose == ["ivs_analyzer.__main__", "ivs_analyzer.cli"]


def _package(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        f = root / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text, encoding="utf-8")
    return root


def test_a_circle_through_a_late_import_is_found(tmp_path):
    pkg = _package(tmp_path / "pkg", {
        "__init__.py": "",
        "a.py": "from .b import f\n",
        "b.py": "def f():\n    from . import a  # late\n    return a\n",
        "c.py": "from .a import f\n",
    })
    assert cycles(graph(pkg)) == [["pkg.a", "pkg.b"]]


def test_an_upward_import_is_found(tmp_path):
    pkg = _package(tmp_path / "pkg", {
        "__init__.py": "", "cli.py": "from .report.page import x\n",
        "load/__init__.py": "", "load/files.py": "from ..detect import steps\n",
        "detect/__init__.py": "", "detect/steps.py": "from ..load.files import y\nimport pkg.cli\n",
        "report/__init__.py": "", "report/page.py": "from ..detect.steps import z\nfrom ..load import files\n",
    })
    edges = graph(pkg)
    assert edges["pkg.load.files"] == {"pkg.detect.steps"}
    assert upward(edges, ["load", "detect", "explain", "report"], "pkg") == [
        "pkg.detect.steps -> pkg.cli", "pkg.load.files -> pkg.detect.steps"]
    # cli -> report.page -> detect.steps -> cli, and detect.steps <-> load.files: one strongly connected set
    assert cycles(edges) == [["pkg.cli", "pkg.detect.steps", "pkg.load.files", "pkg.report.page"]]
