"""The report page every report shares: report.html rendered from templates/report.html (jinja2), the output
folder, the phase tables and warnings of a run's summary, findings.json."""
from __future__ import annotations

import json
import math
from pathlib import Path

import jinja2

from ..load.results import AnalyzerError, Run


def num(v):
    if v is None or v == "":
        return ""
    if isinstance(v, str):
        return v
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    if math.isnan(f):
        return ""
    if f == int(f) and abs(f) < 1e15:
        return f"{int(f):,}"
    if abs(f) >= 100:
        return f"{f:,.0f}"
    if abs(f) >= 1:
        return f"{f:,.2f}"
    return f"{f:.3g}"


def _env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("ivs_analyzer", "templates"),
                             autoescape=jinja2.select_autoescape(["html"]),
                             undefined=jinja2.ChainableUndefined)
    env.filters["num"] = num
    return env


def _rate(p: dict) -> str:
    rate = p.get("rate") or {}
    kind = rate.get("kind", "")
    if kind == "open":
        return f"open {num(rate.get('target'))}/s {rate.get('arrival', '')}".strip()
    return kind


def _stats_row(obj: dict) -> dict:
    rt = obj.get("responseTimeUs") or {}
    counts = obj.get("counts") or {}
    row = {k: rt.get(k) for k in ("avg", "p50", "p90", "p95", "p99", "p999", "max")}
    row.update({k: counts.get(k) for k in ("ok", "skipped", "aborted", "error")})
    for k in ("operations", "throughput", "goodput", "missed", "measuredSeconds"):
        row[k] = obj.get(k)
    return row


def phase_tables(run: Run, label_prefix: str = "") -> tuple[list[dict], list[dict]]:
    phase_rows, type_rows = [], []
    for p in run.phases:
        name = f"{label_prefix}{p.get('name', p.get('index'))}"
        row = _stats_row(p)
        row.update(label=name, rate=_rate(p))
        phase_rows.append(row)
        for ty, t in sorted((p.get("transactions") or {}).items()):
            trow = _stats_row(t)
            trow.update(phase=name, type=ty)
            type_rows.append(trow)
    return phase_rows, type_rows


def warnings_of(summary: dict, where: str = "") -> list[str]:
    w = []
    if summary.get("complete") is False:
        w.append(f"{where}summary.json says complete=false: the run did not end normally; figures may be partial.")
    if summary.get("interrupted"):
        w.append(f"{where}the run was interrupted.")
    return w


def render(out: Path, **ctx) -> Path:
    ctx.setdefault("warnings", [])
    ctx.setdefault("charts", [])
    html = _env().get_template("report.html").render(**ctx)
    path = out / "report.html"
    path.write_text(html, encoding="utf-8")
    return path


def prepare_out(out: Path) -> Path:
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise AnalyzerError(f"cannot create output directory {out}: {e.strerror}") from e
    return out


def write_findings(out: Path, found: list[dict]) -> None:
    """findings.json: the findings with the data behind each finding's chart."""
    (out / "findings.json").write_text(json.dumps(found, indent=1), encoding="utf-8")
