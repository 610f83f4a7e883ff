"""The results browser's catalog: every run, experiment, sweep, trial set and tenants folder beneath a results
folder, one summary row each (kind, benchmark, database and version, date, headline numbers, findings count).

A row is cached in ``.ivs-browse.json`` inside its folder, keyed by the name, size and mtime of the files the row
is read from (summary.json, epochs.csv, sweep.csv, trials.csv, tenants.json, findings.json, ...): a rebuild stats
those files and re-reads only the folders whose key changed. Recognised folders are not descended into (an
experiment's epoch sub-runs, a sweep's points, a trial set's experiments and a tenants folder's tenants are part of
their row); any other folder is searched further. A folder that cannot be read becomes a row with ``error`` set."""
from __future__ import annotations

import csv
import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path

from .results import AnalyzerError

CACHE_FILE = ".ivs-browse.json"
CACHE_VERSION = 1
KINDS = ("run", "experiment", "sweep", "trials", "tenants")
_STAMP = re.compile(r"(\d{4}-\d\d-\d\d)_(\d\d)-(\d\d)-(\d\d)")
_EPOCH_DIR = re.compile(r"^epoch-\d+$")


def kind_of(path: Path) -> str | None:
    """The kind of results folder `path` is, or None (then its sub-folders are searched)."""
    if (path / "trials.csv").is_file():
        return "trials"
    if (path / "tenants.csv").is_file() and (path / "tenants.json").is_file():
        return "tenants"
    if (path / "sweep.csv").is_file():
        return "sweep"
    if (path / "epochs.csv").is_file():
        return "experiment"
    if (path / "summary.json").is_file():
        return "run"
    return None


def find_folders(root: Path) -> list[tuple[Path, str]]:
    """(folder, kind) for every results folder beneath root (root included), sorted by path; hidden folders and
    symbolic links are not followed."""
    found: list[tuple[Path, str]] = []
    stack = [root]
    while stack:
        d = stack.pop()
        kind = kind_of(d)
        if kind:
            found.append((d, kind))
            continue
        try:
            entries = list(os.scandir(d))
        except OSError:
            continue
        stack += [Path(e.path) for e in entries
                  if not e.name.startswith(".") and e.is_dir(follow_symlinks=False)]
    return sorted(found, key=lambda x: str(x[0]))


def _first_subrun(exp: Path) -> Path | None:
    """An experiment's first sub-run folder holding a summary.json (its database and start)."""
    try:
        epochs = sorted(e.path for e in os.scandir(exp) if e.is_dir() and _EPOCH_DIR.match(e.name))
    except OSError:
        return None
    for e in epochs[:2]:
        for mode in sorted(Path(e).iterdir()):
            for phase in sorted(p for p in mode.iterdir() if p.is_dir()) if mode.is_dir() else []:
                if (phase / "summary.json").is_file():
                    return phase
    return None


def _trial_experiments(path: Path) -> list[Path]:
    return sorted(p for p in path.iterdir() if p.is_dir() and (p / "epochs.csv").is_file())


def source_files(path: Path, kind: str) -> list[Path]:
    """The files a row is read from: the cache key (a file that is missing now but appears later changes it)."""
    own = {"run": ["summary.json"], "experiment": ["epochs.csv", "experiment.json", "compact.json"],
           "sweep": ["sweep.csv"], "trials": ["trials.csv"], "tenants": ["tenants.json", "tenants.csv"]}[kind]
    files = [path / f for f in own] + [path / "findings.json"]
    if kind == "experiment":
        sub = _first_subrun(path)
        files += [sub / "summary.json"] if sub else []
    elif kind == "trials":
        trials = _trial_experiments(path)
        files += [t / "epochs.csv" for t in trials]
        sub = _first_subrun(trials[0]) if trials else None
        files += [sub / "summary.json"] if sub else []
    elif kind == "sweep":
        files += [p / "summary.json" for p in _sweep_points(path)[:1]]
    elif kind == "tenants":
        files += [p / "summary.json" for p in _tenant_folders(path)[:1]]
    return files


def cache_key(path: Path, files: list[Path]) -> list[list]:
    key = []
    for f in files:
        try:
            st = f.stat()
            key.append([str(f.relative_to(path)), st.st_size, st.st_mtime_ns])
        except OSError:
            key.append([str(f.relative_to(path)), None, None])
    return key


def _json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise AnalyzerError(f"{path}: {e}") from e
    except json.JSONDecodeError as e:
        raise AnalyzerError(f"{path}: malformed JSON ({e.msg} at line {e.lineno})") from e
    if not isinstance(data, dict):
        raise AnalyzerError(f"{path}: expected a JSON object")
    return data


def _csv_rows(path: Path) -> list[dict]:
    try:
        with path.open(encoding="utf-8", newline="") as f:
            return list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise AnalyzerError(f"{path}: {e}") from e


def _num(value) -> float | None:
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if x == x else None


def _date(start_ms, path: Path) -> str:
    """UTC date and time of the start in milliseconds, else of the folder name's stamp, else ''."""
    if isinstance(start_ms, (int, float)) and start_ms > 0:
        return datetime.fromtimestamp(start_ms / 1000, timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    m = _STAMP.search(path.name)
    return f"{m.group(1)} {m.group(2)}:{m.group(3)}:{m.group(4)}" if m else ""


def _database(summary: dict) -> tuple[str, str]:
    """(database label as the reports write it: product, or product/engine; version)."""
    db = summary.get("database") or {}
    product, engine = db.get("product"), db.get("engine")
    label = f"{product}/{engine}" if product and engine and str(engine).lower() != str(product).lower() \
        else (product or engine or db.get("type") or "")
    return str(label), str(db.get("version") or "")


def _run_fields(summary: dict) -> dict:
    """A run's headline: the phase with the most measured operations (its throughput and p99)."""
    phases = [p for p in summary.get("phases") or [] if isinstance(p, dict)]
    main = max(phases, key=lambda p: _num(p.get("operations")) or 0, default={})
    db, version = _database(summary)
    return {"benchmark": str(summary.get("benchmark") or ""), "database": db, "version": version,
            "throughput": _num(main.get("throughput")),
            "p99_us": _num((main.get("responseTimeUs") or {}).get("p99")),
            "phase": str(main.get("name") or ""),
            "complete": summary.get("complete") is not False and not summary.get("interrupted")}


def _epoch_fields(epochs_csv: Path) -> dict:
    """Epochs and modes, and main's last epoch's run throughput and p99 (the experiment's headline numbers)."""
    rows = _csv_rows(epochs_csv)
    epochs = {r.get("epoch") for r in rows if r.get("epoch") not in (None, "")}
    modes = sorted({r.get("mode") for r in rows if r.get("mode")})
    main = [r for r in rows if r.get("mode") == "main" and _num(r.get("epoch")) is not None]
    last = max(main, key=lambda r: _num(r.get("epoch")), default={})
    return {"epochs": len(epochs), "modes": modes, "throughput": _num(last.get("run_throughput")),
            "p99_us": _num(last.get("run_lat_p99_us")), "last_epoch": last.get("epoch")}


def _sweep_points(path: Path) -> list[Path]:
    return sorted(p for p in path.iterdir() if p.is_dir() and (p / "summary.json").is_file())


def _tenant_folders(path: Path) -> list[Path]:
    try:
        index = _json(path / "tenants.json")
    except AnalyzerError:
        return []
    folders = [path / str(t.get("folder") or t.get("name")) for t in index.get("tenants") or []
               if isinstance(t, dict)]
    return [f for f in folders if (f / "summary.json").is_file()]


def summarise(path: Path, kind: str) -> dict:
    """The row of one folder, read from its files (no cache). Raises AnalyzerError on an unreadable file."""
    row: dict = {"kind": kind, "benchmark": "", "database": "", "version": "", "date": "", "throughput": None,
                 "p99_us": None, "headline": "", "findings": None, "error": ""}
    if kind == "run":
        s = _json(path / "summary.json")
        row.update(_run_fields(s))
        row["date"] = _date(s.get("startMs"), path)
        tp, p99 = row["throughput"], row["p99_us"]
        row["headline"] = (f"{tp:,.1f} ops/s" if tp is not None else "no throughput") + \
            (f", p99 {p99:,.0f} µs" if p99 is not None else "") + \
            (f" ({row['phase']})" if row["phase"] else "") + ("" if row["complete"] else ", interrupted")
    elif kind in ("experiment", "trials"):
        exps = [path] if kind == "experiment" else _trial_experiments(path)
        first = exps[0] if exps else None
        f = _epoch_fields(first / "epochs.csv") if first else {"epochs": 0, "modes": [], "throughput": None,
                                                                "p99_us": None, "last_epoch": None}
        sub = _first_subrun(first) if first else None
        s = _json(sub / "summary.json") if sub else {}
        if not s and first and (first / "compact.json").is_file():
            row["database"] = str(_json(first / "compact.json").get("label") or "")
        if s:
            row.update({k: v for k, v in _run_fields(s).items() if k in ("benchmark", "database", "version")})
        row["date"] = _date(s.get("startMs"), path)
        row["epochs"], row["modes"] = f["epochs"], f["modes"]
        row["throughput"], row["p99_us"] = f["throughput"], f["p99_us"]
        headline = f"{f['epochs']} epoch{'s' if f['epochs'] != 1 else ''}, modes: {', '.join(f['modes']) or 'none'}"
        if f["throughput"] is not None:
            headline += f"; main's epoch {f['last_epoch']}: {f['throughput']:,.1f} ops/s"
            headline += f", p99 {f['p99_us']:,.0f} µs" if f["p99_us"] is not None else ""
        row["headline"] = headline
        if kind == "trials":
            row["trials"] = len(exps)
            row["headline"] = f"{len(exps)} trials; trial 1: {row['headline']}"
    elif kind == "sweep":
        rows = _csv_rows(path / "sweep.csv")
        done = [r for r in rows if str(r.get("interrupted", "")).lower() != "true"]
        row["benchmark"] = next((r.get("benchmark") for r in rows if r.get("benchmark")), "")
        row["database"] = next((r.get("target_type") for r in rows if r.get("target_type")), "")
        points = _sweep_points(path)
        if points:
            s = _json(points[0] / "summary.json")
            row["database"], row["version"] = _database(s)
            row["date"] = _date(s.get("startMs"), path)
        else:
            row["date"] = _date(None, path)
        terminals = sorted({int(t) for t in (_num(r.get("terminals")) for r in rows) if t is not None})
        counts = sorted({int(c) for c in (_num(r.get("count")) for r in rows) if c is not None})
        best = max((t for t in (_num(r.get("throughput")) for r in done) if t is not None), default=None)
        row["throughput"] = best
        row["points"] = len(rows)
        row["headline"] = (f"{len(rows)} points ({len(rows) - len(done)} interrupted), terminals "
                           f"{','.join(map(str, terminals))}, counts {','.join(map(str, counts))}"
                           + (f", best {best:,.1f} ops/s" if best is not None else ""))
    elif kind == "tenants":
        index = _json(path / "tenants.json")
        tenants = [t for t in index.get("tenants") or [] if isinstance(t, dict)]
        row["benchmark"] = ",".join(sorted({str(t.get("benchmark")) for t in tenants if t.get("benchmark")}))
        row["database"] = ",".join(sorted({str(t.get("target")) for t in tenants if t.get("target")}))
        folders = _tenant_folders(path)
        start = min((t.get("startMs") for t in tenants if isinstance(t.get("startMs"), (int, float))), default=None)
        if folders:
            s = _json(folders[0] / "summary.json")
            row["database"], row["version"] = _database(s)
            start = start or s.get("startMs")
        row["date"] = _date(start, path)
        failed = sum(1 for t in tenants if t.get("failed"))
        row["tenants"] = len(tenants)
        row["headline"] = f"{len(tenants)} tenants: " + ", ".join(str(t.get("name")) for t in tenants) + \
            (f" ({failed} failed)" if failed else "")
    else:
        raise AnalyzerError(f"{path}: unknown folder kind {kind!r}")
    findings = path / "findings.json"
    if findings.is_file():
        try:
            data = json.loads(findings.read_text(encoding="utf-8"))
            row["findings"] = len(data) if isinstance(data, list) else None
        except (OSError, ValueError):
            row["findings"] = None
    return row


def catalog(root: Path, stats: dict | None = None) -> list[dict]:
    """Every results folder beneath root, one row each (``path``: relative to root, '.' for root itself), from
    the cache where its key still holds. `stats`, when given, counts ``read`` and ``cached`` rows."""
    root = Path(root)
    if not root.is_dir():
        raise AnalyzerError(f"results directory not found: {root}")
    stats = stats if stats is not None else {}
    stats.setdefault("read", 0)
    stats.setdefault("cached", 0)
    rows = []
    for path, kind in find_folders(root):
        try:
            key = cache_key(path, source_files(path, kind))
        except OSError as e:
            key = [[str(e)]]
        row = _cached(path, kind, key)
        if row is None:
            stats["read"] += 1
            try:
                row = summarise(path, kind)
            except (AnalyzerError, OSError) as e:
                row = {"kind": kind, "error": str(e)}
            _store(path, kind, key, row)
        else:
            stats["cached"] += 1
        rel = path.relative_to(root).as_posix() or "."
        rows.append({**row, "path": rel})
    return rows


def _cached(path: Path, kind: str, key: list) -> dict | None:
    try:
        data = json.loads((path / CACHE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != CACHE_VERSION or data.get("kind") != kind \
            or data.get("key") != key or not isinstance(data.get("row"), dict):
        return None
    return data["row"]


def _store(path: Path, kind: str, key: list, row: dict) -> None:
    """Writes the cache beside the folder's files (a read-only folder is simply read again next time)."""
    tmp = path / (CACHE_FILE + ".tmp")
    try:
        tmp.write_text(json.dumps({"version": CACHE_VERSION, "kind": kind, "key": key, "row": row}),
                       encoding="utf-8")
        os.replace(tmp, path / CACHE_FILE)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
