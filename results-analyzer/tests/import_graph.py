"""The analyzer's module import graph, read with ast (nothing is imported): which module imports which, also
imports inside functions (a late import hides a circle, it does not remove it). Used by test_layout.py."""
from __future__ import annotations

import ast
from pathlib import Path


def module_name(root: Path, file: Path) -> str:
    """Dotted name of `file` in the package whose folder is `root` (root/a/b.py -> "<root.name>.a.b")."""
    parts = [root.name, *file.relative_to(root).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(current: str, is_package: bool, level: int, module: str | None) -> str:
    """The absolute name a relative `from <level dots><module> import ...` in `current` refers to."""
    base = current.split(".") if is_package else current.split(".")[:-1]
    if level > 1:
        base = base[:len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def graph(root: Path) -> dict[str, set[str]]:
    """{module: the package's own modules it imports}. `from .x import y` counts as importing x.y when x.y is a
    module of the package, else x; only modules of the package under `root` are kept."""
    files = sorted(root.rglob("*.py"))
    names = {module_name(root, f): f for f in files}
    edges: dict[str, set[str]] = {}
    for name, file in names.items():
        out: set[str] = set()
        tree = ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = (_resolve(name, file.name == "__init__.py", node.level, node.module) if node.level
                        else node.module or "")
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in names else base for a in node.names]
            else:
                continue
            for t in targets:
                # `import a.b.c` and `from a.b import c` also run a and a.b: only the deepest own module counts
                # here (package __init__ files that import nothing add no edge either way).
                while t and t not in names:
                    t = t.rpartition(".")[0]
                if t and t != name:
                    out.add(t)
        edges[name] = out
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted; [] when acyclic."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found)


def upward(edges: dict[str, set[str]], layers: list[str], top: str) -> list[str]:
    """Imports against the layer order: `layers` are subpackages of `top` from the bottom up (a layer may import
    its own and lower layers); modules directly in `top` (the command line) sit above every layer. Returns one
    "importer -> imported" line per import that points up, or out of a layer into a top-level module."""
    def rank(module: str) -> int:
        parts = module.split(".")
        if len(parts) > 1 and parts[1] in layers:
            return layers.index(parts[1])
        return len(layers)  # top-level modules and the package itself

    return sorted(f"{a} -> {b}" for a, targets in edges.items() for b in targets if rank(b) > rank(a))
