"""``browse``: one static page (index.html) over every results folder beneath a results folder (load/catalog.py),
with filter, sort and pick-to-compare in the page's own JavaScript (templates/browse.html; nothing fetched).

Compare reports live beside the page in ``compare/<key>/`` (key: compare_key of the picked folders). Without a
server the page links to the report when it exists and otherwise shows the exact ``python -m ivs_analyzer compare``
command that writes it there; ``--serve`` (serve()) runs compare for a picked set on request, serving only
RESULTS_DIR (the page must be inside it) on 127.0.0.1."""
from __future__ import annotations

import html
import json
import os
import shlex
import signal
from datetime import datetime, timezone
from http import HTTPStatus
from http.server import HTTPServer, SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import jinja2

from ..load.catalog import catalog
from ..load.results import AnalyzerError

PAGE = "index.html"
COMPARE_DIR = "compare"
COMPARABLE = ("run", "experiment", "sweep")
PICKED_FILE = "picked.json"
COLUMNS = [("kind", "kind", "text"), ("path", "folder", "text"), ("benchmark", "benchmark", "text"),
           ("database", "database", "text"), ("version", "version", "text"), ("date", "date (UTC)", "text"),
           ("throughput", "throughput ops/s", "num"), ("p99", "p99 µs", "num"), ("headline", "headline", "text"),
           ("findings", "findings", "num")]
SELECT_COLUMNS = [("kind", "kind"), ("benchmark", "benchmark"), ("database", "database"), ("version", "version")]


def compare_key(paths: list[str]) -> str:
    """FNV-1a (32 bits) of the sorted relative paths joined by newlines, UTF-8; the page's compareKey()."""
    h = 0x811C9DC5
    for b in "\n".join(sorted(paths)).encode("utf-8"):
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"


def _fmt(x, digits: int) -> str:
    return "" if x is None else f"{x:,.{digits}f}"


def _link(root: Path, out: Path, rel: str) -> str:
    """The folder's report.html if it has one, else the folder itself, relative to the page."""
    folder = root / rel
    target = folder / "report.html" if (folder / "report.html").is_file() else folder
    return Path(os.path.relpath(target, out)).as_posix()


def _view(root: Path, out: Path, row: dict) -> dict:
    r = {k: row.get(k) for k in ("kind", "path", "benchmark", "database", "version", "date", "headline",
                                 "error")}
    r = {k: ("" if v is None else str(v)) for k, v in r.items()}
    tp, p99, findings = row.get("throughput"), row.get("p99_us"), row.get("findings")
    r.update(throughput_text=_fmt(tp, 1), p99_text=_fmt(p99, 0),
             findings_text="" if findings is None else str(findings), link=_link(root, out, r["path"]))
    r["sort"] = {"kind": r["kind"], "path": r["path"], "benchmark": r["benchmark"], "database": r["database"],
                 "version": r["version"], "date": r["date"], "headline": r["error"] or r["headline"],
                 "throughput": "" if tp is None else repr(float(tp)),
                 "p99": "" if p99 is None else repr(float(p99)), "findings": r["findings_text"]}
    return r


def existing_compares(out: Path) -> list[str]:
    d = out / COMPARE_DIR
    if not d.is_dir():
        return []
    return sorted(p.name for p in d.iterdir() if (p / "report.html").is_file())


def build(root: Path, out: Path | None = None, stats: dict | None = None) -> Path:
    """Writes OUT/index.html (OUT defaults to root) over the catalog of root; returns its path."""
    return _build(root, out, stats)[0]


def _build(root: Path, out: Path | None, stats: dict | None) -> tuple[Path, list[dict]]:
    root = Path(root)
    if not root.is_dir():
        raise AnalyzerError(f"results directory not found: {root}")
    out = Path(out) if out else root
    if out.exists() and not out.is_dir():
        raise AnalyzerError(f"-o {out}: not a folder")
    stats = stats if stats is not None else {}
    rows = catalog(root, stats)
    out.mkdir(parents=True, exist_ok=True)
    views = [_view(root, out, r) for r in rows]
    selects = [{"key": k, "title": t, "values": sorted({v["sort"][k] for v in views})} for k, t in SELECT_COLUMNS]
    data = {"root": str(root.resolve()), "out": str(out.resolve()), "compare_dir": COMPARE_DIR,
            "existing": existing_compares(out)}
    env = jinja2.Environment(loader=jinja2.PackageLoader("ivs_analyzer", "templates"),
                             autoescape=jinja2.select_autoescape(["html"]))
    text = env.get_template("browse.html").render(
        rows=views, columns=[{"key": k, "title": t, "type": ty} for k, t, ty in COLUMNS], select_columns=selects,
        comparable=COMPARABLE, root=str(root), root_name=root.resolve().name, read=stats["read"],
        cached=stats["cached"], built=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        data_json=json.dumps(data).replace("</", "<\\/"))
    page = out / PAGE
    tmp = out / (PAGE + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, page)
    return page, rows


def compare_picked(root: Path, out: Path, picked: list[str], known: set[str]) -> Path:
    """Writes (once) and returns OUT/compare/<key>/report.html for the picked folders (paths relative to root,
    each one of the page's comparable rows)."""
    picked = sorted(dict.fromkeys(picked))
    if len(picked) < 2:
        raise AnalyzerError("compare: pick two or more folders")
    unknown = [p for p in picked if p not in known]
    if unknown:
        raise AnalyzerError(f"compare: {unknown[0]!r} is not a run, experiment or sweep folder of this page")
    target = out / COMPARE_DIR / compare_key(picked)
    report = target / "report.html"
    if not report.is_file():
        from . import folders  # late: pandas and matplotlib are slow to import, and only compare needs them
        path = folders.compare([root / p for p in picked], target)
        report = Path(path)
        (target / PICKED_FILE).write_text(json.dumps(picked), encoding="utf-8")
    return report


def command_for(root: Path, out: Path, picked: list[str]) -> str:
    """The shell command the static page shows for a picked set (as the page's JavaScript writes it)."""
    dirs = [str(root.resolve() / p) if p != "." else str(root.resolve()) for p in picked]
    target = out.resolve() / COMPARE_DIR / compare_key(picked)
    return "python -m ivs_analyzer compare " + " ".join(shlex.quote(d) for d in dirs) + " -o " + \
        shlex.quote(str(target))


def make_server(root: Path, out: Path | None = None, port: int = 8765, host: str = "127.0.0.1") -> HTTPServer:
    """Builds the page and returns an HTTP server (not yet serving) over RESULTS_DIR, which holds the page, and
    answers ``<page folder>/compare?d=REL&d=REL`` by writing the compare report (compare_picked) and redirecting
    to it. ``server.page_url`` is the page's address."""
    root = Path(root).resolve()
    out = (Path(out) if out else root).resolve()
    if not out.is_relative_to(root):
        raise AnalyzerError(f"-o {out}: with --serve the page must be inside RESULTS_DIR {root} "
                            "(the server serves that folder only)")
    _, rows = _build(root, out, None)
    known = {r["path"] for r in rows if r.get("kind") in COMPARABLE and not r.get("error")}
    base = root
    prefix = "/" + "".join(f"{part}/" for part in out.relative_to(base).parts)

    class Handler(SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(base), **kwargs)

        def log_message(self, fmt, *args):  # quiet: the command line printed the address
            pass

        def do_GET(self):
            url = urlsplit(self.path)
            if url.path != prefix + "compare":
                return super().do_GET()
            picked = parse_qs(url.query).get("d", [])
            try:
                report = compare_picked(root, out, picked, known)
            except AnalyzerError as e:
                body = f"<!DOCTYPE html><p>{html.escape(str(e))}</p><p><a href='{PAGE}'>back</a></p>".encode()
                self.send_response(HTTPStatus.BAD_REQUEST)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return None
            self.send_response(HTTPStatus.SEE_OTHER)
            self.send_header("Location", prefix + report.relative_to(out).as_posix())
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None

    server = HTTPServer((host, port), Handler)
    server.page_url = f"http://{host}:{server.server_address[1]}{prefix}{PAGE}"
    return server


def serve(root: Path, out: Path | None, port: int) -> None:
    try:
        server = make_server(root, out, port)
    except OSError as e:
        raise AnalyzerError(f"--port {port}: cannot listen on 127.0.0.1:{port} ({e.strerror or e})") from e
    print(f"serving {server.page_url} (Ctrl-C or SIGTERM stops)", flush=True)

    def stop(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.server_close()
