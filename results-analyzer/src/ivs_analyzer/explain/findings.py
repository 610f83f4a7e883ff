"""The first screen of a report: what changed and why, in a few sentences a DBA can act on.

A finding is {"kind", "title", "evidence": [sentences], "cause": metric name or None, "chart": {...}}; kinds:
``step`` (a lasting change), ``episode`` (a change that came back: a stall, a hog), ``outliers`` (single
windows or epochs off their level and back - not steps), ``period`` (a stretch of epochs that came back),
``trend`` (per-epoch series that rise or fall gradually, with their slope), ``none`` (nothing to report). Changes at the same moment in throughput and p99 are one finding.
"""
from __future__ import annotations

from .connections import describe_refused
from .cpu import describe_cpu, from_outside, steal_note
from .disk import describe_disk, freed_by_other, iowait_explains, taken_by_other
from .restart import describe_gone, describe_lost

FOLLOWS_SHOWN = 6


def _n(v: float) -> str:
    a = abs(v)
    if a >= 1e6:
        return f"{v:,.3g}"
    return f"{v:,.0f}" if a >= 100 else f"{v:,.2f}" if a >= 1 else f"{v:.3g}"


def _pct(rel: float) -> str:
    return f"{100 * rel:+.0f}%"


UNITS = {"throughput": "ops/s", "p99": "µs", "run_lat_avg_us": "µs", "run_lat_p99_us": "µs",
         "run_throughput": "ops/s", "run_lat_avg_ratio": ""}


def _metric_sentence(m: dict) -> str:
    s = f"{m['name']} {_n(m['before'])} → {_n(m['after'])} ({m['score']:.0f}× its noise)"
    if m.get("same"):
        s += f", moved with {', '.join(m['same'][:4])}" + (f" (+{len(m['same']) - 4})" if len(m["same"]) > 4 else "")
    return s


def _follows_sentence(follows: list[str]) -> str:
    shown = ", ".join(follows[:FOLLOWS_SHOWN]) + (f" (+{len(follows) - FOLLOWS_SHOWN} more)"
                                                  if len(follows) > FOLLOWS_SHOWN else "")
    return f"effects, not causes (moved with throughput, same amount per operation over any baseline): {shown}"


def _machine(cpu: dict | None, disk: dict | None) -> str | None:
    """What the machine did at that moment when another process took (or gave back) the host's CPU or took its
    disk, else None (idle
    CPU lost to iowait for a disk another process took is the disk's, not the CPU's)."""
    parts = []
    if taken_by_other(disk) or freed_by_other(disk):
        # the disk first: when another process took it (or gave it back), it is the category (_category), its CPU
        # the disk's cost
        verb = "taken by" if taken_by_other(disk) else "given back by"
        parts.append(f"host disk {verb} another process ({disk['host_before'] / 1e6:,.0f} → "
                     f"{disk['host_after'] / 1e6:,.0f} MB/s, the database server's own "
                     f"{disk['server_before'] / 1e6:,.0f} → {disk['server_after'] / 1e6:,.0f} MB/s)")
    if from_outside(cpu) and not iowait_explains(disk, cpu):
        parts.append(f"host CPU taken by {cpu['taken_by']} (idle {cpu['host_idle_before']:.0f} → "
                     f"{cpu['host_idle_after']:.0f} %{steal_note(cpu, cpu['taken_by'])})")
    if cpu and cpu.get("freed_by"):
        parts.append(f"host CPU given back by {cpu['freed_by']} (idle {cpu['host_idle_before']:.0f} → "
                     f"{cpu['host_idle_after']:.0f} %{steal_note(cpu, cpu['freed_by'])})")
    return "; ".join(parts) or None


def _cause_text(metrics: list[dict], cpu: dict | None, disk: dict | None = None) -> tuple[str | None, str]:
    """(cause metric, short 'why' for the title). What the machine did (the host's CPU or disk taken by another
    process, or the CPU by the server or the client) leads the title unless a database counter ranks first:
    then the counter is the why (a held lock stalls the server whoever takes the idle CPU meanwhile) and the
    machine follows it. Trivial counter moves never rank (metrics.trivial_amount)."""
    taken = _machine(cpu, disk)
    if taken is None and cpu and cpu.get("taken_by") not in (None, "freed"):
        taken = f"host CPU taken by {cpu['taken_by']} (idle {cpu['host_idle_before']:.0f} → {cpu['host_idle_after']:.0f} %)"
    if metrics and (taken is None or metrics[0]["name"].startswith("db.")):
        m = metrics[0]
        why = f"{m['name']} {_n(m['before'])} → {_n(m['after'])}"
        return m["name"], why + (f"; meanwhile {taken}" if taken else "")
    if taken:
        fallback = ("os.cpu.idle_pct" if not (taken_by_other(disk) or freed_by_other(disk)) and cpu
                    and (cpu.get("taken_by") not in (None, "freed") or cpu.get("freed_by")) else "os.disk.write_bytes_ps")
        return (metrics[0]["name"] if metrics else fallback), taken
    return None, "no recorded metric broke its own trend at that moment"


def _has_other_cause(change: dict, cpu: dict | None) -> bool:
    """Whether the cause search found something to say besides the write pressure (a ranked metric, the CPU)."""
    return bool(change["metrics"]) or bool(cpu and cpu.get("taken_by") not in (None, "freed"))


def _category(gone: dict | None, cpu: dict | None, pressure: dict | None = None, disk: dict | None = None,
              backlog: dict | None = None, worse: bool = True, refused: dict | None = None,
              lost: dict | None = None, settings: dict | None = None) -> str | None:
    """A step's cause category from the client's, the server's counters' (write pressure: explain/pressure.py)
    and the host's evidence (docs/diagnosis.md), in that order: a server that went away explains everything
    after it, and the engine's own flush/stall counters say why writes slowed whoever took the host's CPU
    meanwhile (`pressure` is that write pressure, or without it the buffer misses of explain/misses.py).
    cpu-contention and io-contention by another process are the machine, not the database; when both, the disk
    decides (a disk hog takes the host's idle time as iowait or as the CPU its I/O costs; a CPU burner writes
    nothing). The server's
    wait evidence, when its snapshot has some, overrides it (report/folders.py attach_activity)."""
    if gone:
        return "server-restart"
    if refused:
        return "connection-limit"   # the server stayed up and refused sessions (explain/connections.py)
    if lost:
        return "server-restart"     # the server ended the sessions but stayed up: the title says which
    if settings:
        return "setting-change"     # a setting changed in the context (explain/setting_change.py)
    if pressure:
        return pressure["category"]
    if taken_by_other(disk) or freed_by_other(disk):
        # another process's disk traffic (begun or ended), whatever its CPU did: a writer at hundreds of MB/s spends CPU on it (the
        # held-out H7's 1 MB O_DIRECT writer took the host from 33 to 5 % idle with little iowait), while a CPU
        # burner writes nothing, so the disk is the cause and the CPU its cost
        return "io-contention"
    if from_outside(cpu) or (cpu and cpu.get("freed_by")):
        return "cpu-contention"   # another process or the hypervisor (explain/cpu.py)
    # versions kept for an old snapshot (explain/longtxn.py): after the machine, which can starve purge too
    return "long-transaction" if backlog and worse else None


def _worse(group: list[dict]) -> bool:
    """Whether the change is for the worse: p99 up or throughput down (a version backlog cannot explain less)."""
    return any((d["series"] == "throughput") == (d["relative_change"] < 0) for d in group)


def run_findings(changes: list[dict], excursions: list[dict], start_ms: float, window_ms: float) -> list[dict]:
    """Findings of a run from find_changes (changes) and its short excursions (see report.run_excursions). A step
    or episode has a `category` when its evidence says one (server gone, host CPU taken by another process)."""
    out: list[dict] = []
    used: set[int] = set()
    for i, c in enumerate(changes):
        if i in used:
            continue
        group = [c] + [d for j, d in enumerate(changes) if j != i and j not in used and d["phase"] == c["phase"]
                       and abs(d["time_ms"] - c["time_ms"]) <= 2 * window_ms]
        used.update(changes.index(d) for d in group)
        # the change that ends an episode is part of that episode's finding
        for d in group:
            if d.get("duration_ms"):
                end = d["time_ms"] + d["duration_ms"]
                used.update(j for j, e in enumerate(changes)
                            if e["phase"] == d["phase"] and abs(e["time_ms"] - end) <= 2 * window_ms)
        lead = max(group, key=lambda d: max([m["score"] for m in d["metrics"]], default=0.0))
        cpu = next((d["cpu"] for d in group if d.get("cpu")), None)
        disk = next((d["disk"] for d in group if d.get("disk")), None)
        cause, why = _cause_text(lead["metrics"], cpu, disk)
        gone = next((d["server_gone"] for d in group if d.get("server_gone")), None)
        pressure = next((d["pressure"] for d in group if d.get("pressure")), None)
        backlog = next((d["version_backlog"] for d in group if d.get("version_backlog")), None)
        # the server's own counters say why: write pressure first, then reads gone to storage (explain/misses.py).
        # Both rules hold when their counters went up at the change, which can only explain a change for the
        # worse: a p99 fall or a throughput rise that coincides with them is not given their category.
        misses = next((d["misses"] for d in group if d.get("misses")), None)
        worse = _worse(group)
        counted = (pressure or misses) if worse else None
        refused = None if gone else next((d["refused"] for d in group if d.get("refused")), None)
        lost = None if gone or refused else next((d["lost"] for d in group if d.get("lost")), None)
        settings = None if gone or refused or lost else next((d["settings"] for d in group if d.get("settings")),
                                                             None)
        if gone:
            why = describe_gone(gone)
        elif refused:
            cause = (refused["sessions"] or refused["refused"])[0][0]
            why = describe_refused(refused)
        elif lost:
            why = describe_lost(lost)
        elif settings:
            # what the new value did (the counters' category, the machine) follows as "meanwhile"; the chart
            # keeps the counter that shows it
            cause = counted["signals"][0]["name"] if counted else cause
            then = counted["text"] if counted else (why if _has_other_cause(lead, cpu) else None)
            why = settings["text"] + (f"; meanwhile {then}" if then else "")
        elif counted:
            cause = counted["signals"][0]["name"]
            why = counted["text"] + (f"; meanwhile {why}" if _has_other_cause(lead, cpu) else "")
        elif backlog and _category(None, cpu, None, disk, backlog, worse) == "long-transaction":
            cause, why = backlog["signals"][0]["name"], backlog["text"]
        moves = " and ".join(f"{d['series']} {_pct(d['relative_change'])} ({_n(d['before'])} → {_n(d['after'])} "
                             f"{UNITS[d['series']]})" for d in group)
        duration = next((d["duration_ms"] for d in group if d.get("duration_ms")), None)
        when = f"at t = {(c['time_ms'] - start_ms) / 1000:.0f} s (phase {c['phase']})"
        if duration:
            when += f" for {duration / 1000:.0f} s, then back"
        evidence = [_metric_sentence(m) for m in lead["metrics"]]
        if gone:
            evidence.insert(0, describe_gone(gone))
        elif refused:
            evidence.insert(0, describe_refused(refused))
        elif lost:
            evidence.insert(0, describe_lost(lost))
        elif settings:
            evidence.insert(0, settings["text"])
            if counted:
                evidence.insert(1, f"meanwhile: {counted['text']}")
        elif counted:
            evidence.insert(0, counted["text"])
        elif pressure or misses:
            evidence.append(f"meanwhile (not a cause of a change for the better): {(pressure or misses)['text']}")
        if backlog:
            evidence.insert(0 if cause == backlog["signals"][0]["name"] else len(evidence), backlog["text"])
        if cpu:
            evidence.append(describe_cpu(cpu))
        if disk:
            evidence.append(describe_disk(disk))
        follows = sorted({f for d in group for f in d["follows"]})
        if follows:
            evidence.append(_follows_sentence(follows))
        out.append({"kind": "episode" if duration else "step", "title": f"{moves} {when}: {why}",
                    "headline": f"{moves} {when}",
                    "evidence": evidence, "cause": cause, "time_ms": c["time_ms"], "phase": c["phase"],
                    "duration_ms": duration, "series": [d["series"] for d in group], "follows": follows,
                    "cpu": cpu, "disk": disk, "pressure": pressure, "misses": misses, "version_backlog": backlog,
                    "refused": refused, "lost": lost, "worse": worse, "settings": settings,
                    "category": _category(gone, cpu, counted, disk, backlog, worse, refused, lost, settings)})
    # an excursion inside (or at the edges of) a step or an episode is part of that finding
    spans = [(f["phase"], f["time_ms"] - 2 * window_ms, f["time_ms"] + (f["duration_ms"] or 0) + 2 * window_ms)
             for f in out]
    excursions = [x for x in excursions if not any(p == x["phase"] and lo <= x["time_ms"] <= hi for p, lo, hi in spans)]
    if excursions:
        ev = []
        for x in excursions:
            s = (f"t = {(x['time_ms'] - start_ms) / 1000:.0f} s (phase {x['phase']}): {x['series']} "
                 f"{_pct(x['relative_change'])} for {x['windows']} window{'s' if x['windows'] > 1 else ''}")
            host = _host_sentence(x.get("host") or {})
            ev.append(s + (f"; {host}" if host else ""))
        out.append({"kind": "outliers", "title": f"{len(excursions)} short excursion(s) that came back: outliers, "
                    "not steps", "evidence": ev, "cause": None, "windows": excursions})
    if not out:
        out.append({"kind": "none", "title": "No step change and no outlier in the measured windows",
                    "evidence": [], "cause": None})
    return out


def _trend_text(t: dict) -> str:
    unit = UNITS.get(t["series"], "")
    return (f"{t['mode']} {t['series']} {t['slope_per_epoch']:+.3g} {unit} per epoch ({_n(t['from'])} → "
            f"{_n(t['to'])} {unit} over epochs {t['first_epoch']}–{t['last_epoch']}, {_pct(t['relative_change'])})")


def _host_sentence(host: dict) -> str:
    parts = []
    for col, label in (("os.cpu.idle_pct", "host CPU idle"), ("proc.cpu_pct", "database server CPU"),
                       ("client.cpu_pct", "client CPU")):
        if col in host:
            parts.append(f"{label} {host[col]:.0f} % (typical {host[col + '.typical']:.0f} %)")
    return ", ".join(parts)


def experiment_findings(analysis: dict) -> list[dict]:
    """Findings of an experiment from epochs.analyse_epochs."""
    out = []
    for c in analysis["steps"]:
        cause, why = _cause_text(c["metrics"], None)
        unit = UNITS.get(c["series"], "")
        evidence = [_metric_sentence(m) for m in c["metrics"]]
        evidence.append(f"holds: observed median {_n(c['observed_before'])} → {_n(c['observed_after'])} {unit} "
                        f"over up to 4 epochs either side, every one of 3 epochs either side on its own level")
        if c.get("follows"):
            evidence.append(_follows_sentence(c["follows"]))
        out.append({"kind": "step", "cause": cause, "mode": c["mode"], "series": c["series"], "epoch": c["epoch"],
                    "follows": c.get("follows", []),
                    "title": f"{c['mode']} {c['series']} {_pct(c['relative_change'])} from epoch {c['epoch']}: {why}",
                    "evidence": evidence})
    if not analysis["steps"]:
        out.append({"kind": "none", "title": "No step across epochs", "cause": None, "evidence": [
            "no per-epoch series changed level for 3 epochs or more beyond its own noise"]})
    trends = analysis.get("trends", [])
    if trends:
        shown = sorted(trends, key=lambda t: -abs(t["relative_change"]))
        lead = shown[0]
        out.append({"kind": "trend", "cause": None, "trends": trends,
                    "title": f"{_trend_text(lead)}: a gradual trend, not a step"
                             + (f" (and {len(trends) - 1} more series)" if len(trends) > 1 else ""),
                    "evidence": [_trend_text(t) for t in shown]})
    for p in analysis.get("periods", []):
        out.append({"kind": "period", "cause": None, "mode": p["mode"], "series": p["series"],
                    "title": f"{p['mode']} {p['series']}: epochs {p['from_epoch']}–{p['to_epoch'] - 1} ran at "
                             f"{_n(p['during'])} instead of {_n(p['before'])}, then came back: a disturbed period, "
                             "not a step", "evidence": []})
    if analysis["outliers"]:
        epochs = [o["epoch"] for o in analysis["outliers"]]
        evidence = []
        for o in analysis["outliers"]:
            by_series: dict[str, list[float]] = {}
            for s in o["series"]:
                by_series.setdefault(s["series"], []).append(s["relative_change"])
            moves = "; ".join(f"{name} {_pct(min(r))}" + (f" to {_pct(max(r))}" if len(r) > 1 else "")
                              for name, r in by_series.items())
            host = _host_sentence(o["host"])
            evidence.append(f"epoch {o['epoch']} ({len(o['modes'])} of 4 modes): {moves}" + (f"; {host}" if host else ""))
        out.append({"kind": "outliers", "cause": None, "epochs": epochs, "evidence": evidence,
                    "title": f"Epoch{'s' if len(epochs) > 1 else ''} {', '.join(map(str, epochs))} left "
                             "their level and came back: outliers, not steps (often the machine)"})
    return out
