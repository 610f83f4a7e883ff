#!/usr/bin/env python3
"""Prints the server-backed test classes (fully qualified, one a line, sorted) of a source tree.

A test class (a *Test.java file under src/test/java) is server-backed when its source calls one of
TestServers' server methods (missing, which fails or skips a test whose server is not given, and every
TestServers method that reaches it), or calls a test-support method that does: a method of a non-test class under src/test/java whose body calls a server method, found by name
(`Helper.method`, or `new Helper(` when the call is in a constructor or an instance method), repeated until no
new method is found. Bodies are found by indentation (the sources are formatted by spotless: a class's members
start 4 spaces deeper than the class), so this is a source-level rule, not a proof: a test that reaches a
server through a path the rule cannot see is missed, one that calls such a method only for SQLite is included.

    server_tests.py [REPO_ROOT]
"""
import re
import sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
src = root / "src" / "test" / "java"
files = {p: p.read_text(encoding="utf-8") for p in src.rglob("*.java")}
DECL = re.compile(r"^    (?=[\w<@])(?:(?:public|private|protected|static|final|synchronized)\s+)*"
                  r"(?:<[^>]+>\s+)?(?:[\w.<>\[\]?, ]+\s+)?(\w+)\s*\(")


def members(text):
    """(name, is_static, body) of each member declared at 4 spaces in a top-level class."""
    out, name, static, body = [], None, False, []
    for line in text.splitlines():
        m = DECL.match(line)
        if m and not line.lstrip().startswith(("return", "throw", "new ")):
            if name:
                out.append((name, static, "\n".join(body)))
            name, static, body = m.group(1), " static " in f" {line.strip()} ", [line]
        elif name:
            body.append(line)
    if name:
        out.append((name, static, "\n".join(body)))
    return out


# The gate: TestServers.missing (a server's address or pid file is not given) and TestServers' require, which
# calls it. A method that calls the gate, or a method that calls such a method, is a server method.
tokens = {"TestServers.missing("}
servers = members(files[src / "org/ivsbench/testsupport/TestServers.java"])
inside = {"require", "missing"}
grown = True
while grown:
    grown = False
    for name, _, body in servers:
        if name not in inside and any(re.search(rf"(?<![\w.]){n}\(", body) for n in inside):
            inside.add(name)
            tokens.add(f"TestServers.{name}(")
            grown = True
helpers = {p: t for p, t in files.items() if not p.name.endswith("Test.java") and p.name != "TestServers.java"}
own = {}  # per helper class: its server methods, which its other methods may call unqualified
changed = True
while changed:
    changed = False
    for p, text in helpers.items():
        cls = p.stem
        mine = own.setdefault(cls, set())
        for name, static, body in members(text):
            calls_own = any(re.search(rf"(?<![\w.]){n}\(", body) for n in mine - {name})
            if not calls_own and not any(t in body for t in tokens):
                continue
            if name not in mine:
                mine.add(name)
                changed = True
            new = {f"{cls}.{name}("} if static else {f"new {cls}("}
            if name == cls:  # a constructor
                new = {f"new {cls}("}
            if not new <= tokens:
                tokens |= new
                changed = True

found = []
for p, text in files.items():
    if p.name.endswith("Test.java") and any(t in text for t in tokens):
        found.append(".".join(p.relative_to(src).with_suffix("").parts))
print("\n".join(sorted(found)))
