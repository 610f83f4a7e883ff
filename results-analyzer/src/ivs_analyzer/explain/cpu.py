"""Who took (or gave back) the host's CPU: the database server, the client, another process, or the hypervisor.

monitor.csv has the host (``os.cpu.idle_pct``, % of all cores), the database server process
(``proc.cpu_pct``, 100 = one core) and, when the client records it, the client's own process
(``client.cpu_pct``, 100 = one core). With the host's core count (environment.json ``os.processors``) the
three are put in cores: what the host lost in idle time and neither process gained went to another process.
Without the core count, "another process" is said when neither process gained a tenth of a core. The other
way round, idle CPU that neither process gave back was given back by another process (``freed_by``): the end
of another process's busy spell, the machine again.

On a virtual machine the CPU can also go to the hypervisor: ``os.cpu.steal_pct`` (% of all cores, like idle) is
the time the machine's CPUs were ready to run while the host ran something else, its other tenants. It takes
idle time as a process would, but no process on the box shows it, so "another process" would send the reader
hunting for one that does not exist. When the steal rose by at least half of what went to neither the server
nor the client, the CPU was taken by the hypervisor (``taken_by`` HYPERVISOR); when it fell by at least half of
the idle time given back, the hypervisor gave it back (``freed_by``). Both are the machine, like another process
(``from_outside``): the category stays cpu-contention. On the no-fault runs of docs/diagnosis.md, with no
process outside the run busier than half a percent of a core, "another process" was the first answer in 8 of 24
runs while the steal's median over a run reached 12-28 %.
"""
from __future__ import annotations

import math

HOST_IDLE = "os.cpu.idle_pct"
SERVER_CPU = "proc.cpu_pct"
CLIENT_CPU = "client.cpu_pct"
STEAL = "os.cpu.steal_pct"
HYPERVISOR = "the hypervisor"
# Host idle must move by at least this many percentage points to be worth attributing.
MIN_IDLE_POINTS = 10.0
# Without a core count, a process "took" CPU when it gained at least this share of one core.
MIN_PROCESS_CORES = 0.1


def _get(means: dict, name: str) -> float | None:
    v = means.get(name)
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


def attribute_cpu(before: dict, after: dict, cores: int | None) -> dict | None:
    """Attribution of a change in host idle CPU between two sets of metric means; None when the host's idle
    time did not move by MIN_IDLE_POINTS or is not recorded."""
    ib, ia = _get(before, HOST_IDLE), _get(after, HOST_IDLE)
    if ib is None or ia is None or abs(ia - ib) < MIN_IDLE_POINTS:
        return None
    sb, sa = _get(before, SERVER_CPU), _get(after, SERVER_CPU)
    cb, ca = _get(before, CLIENT_CPU), _get(after, CLIENT_CPU)
    tb, ta = _get(before, STEAL), _get(after, STEAL)
    steal_points = ta - tb if tb is not None and ta is not None else None
    server = (sa - sb) / 100.0 if sb is not None and sa is not None else None
    client = (ca - cb) / 100.0 if cb is not None and ca is not None else None
    out = {"host_idle_before": ib, "host_idle_after": ia, "cores": cores,
           "server_cpu_before": sb, "server_cpu_after": sa, "client_cpu_before": cb, "client_cpu_after": ca,
           "steal_before": tb, "steal_after": ta,
           "host_cores_delta": None, "other_cores_delta": None, "taken_by": None}
    if ia > ib:
        out["taken_by"] = "freed"  # the host has more idle CPU: nothing took it
        # who gave it back: when neither the server nor the client dropped by half of it, another process did
        # (the machine's busy spell ended, not the database's work)
        drops = max(-(server or 0.0), 0.0) + max(-(client or 0.0), 0.0)
        if server is not None and client is not None:
            freed = (ia - ib) / 100.0 * cores if cores else None
            if (drops < 0.5 * freed) if freed is not None else drops < MIN_PROCESS_CORES:
                hypervisor = steal_points is not None and -steal_points >= 0.5 * (ia - ib)
                out["freed_by"] = HYPERVISOR if hypervisor else "another process"
        return out
    gains = {"the database server": server or 0.0, "the client": client or 0.0}
    if cores:
        host = (ib - ia) / 100.0 * cores
        other = host - max(server or 0.0, 0.0) - max(client or 0.0, 0.0)
        out["host_cores_delta"], out["other_cores_delta"] = host, other
        taken_by_other = other >= 0.5 * host
    else:
        taken_by_other = max(gains.values()) < MIN_PROCESS_CORES
    if taken_by_other:
        # idle points that went to neither process, and how many of them the steal took (both % of all cores)
        unexplained = (out["other_cores_delta"] / cores * 100.0) if cores else (ib - ia)
        if steal_points is not None and steal_points > 0 and steal_points >= 0.5 * unexplained:
            out["taken_by"] = HYPERVISOR
        else:
            out["taken_by"] = "another process" if client is not None else "another process or the client"
    else:
        out["taken_by"] = max(gains, key=gains.get)
    return out


def from_outside(cpu: dict | None) -> bool:
    """Whether the host's CPU went to something outside the run (another process or the hypervisor): the machine,
    not the database."""
    return bool(cpu) and ((cpu.get("taken_by") or "").startswith("another process") or cpu.get("taken_by") == HYPERVISOR)


def steal_text(cpu: dict) -> str:
    """The steal's move, for a finding that names the hypervisor."""
    if cpu.get("steal_before") is None:
        return ""
    return (f"steal {cpu['steal_before']:.0f} → {cpu['steal_after']:.0f} % of the host: its CPUs were ready while the "
            "hypervisor ran other virtual machines")


def steal_note(cpu: dict, who: str | None) -> str:
    """"; <the steal's move>" to end a sentence about the CPU taken or given back by `who`, when that is the
    hypervisor; else ""."""
    return f"; {steal_text(cpu)}" if who == HYPERVISOR and cpu.get("steal_before") is not None else ""


def describe_cpu(cpu: dict | None) -> str:
    """One sentence for a finding."""
    if not cpu:
        return ""
    idle = f"host CPU idle {cpu['host_idle_before']:.0f} → {cpu['host_idle_after']:.0f} %"
    if cpu["taken_by"] == "freed":
        if cpu.get("freed_by"):
            return (f"{idle}: host CPU given back by {cpu['freed_by']} (the host had CPU to spare after the "
                    f"change{steal_note(cpu, cpu['freed_by'])})")
        return f"{idle} (the host had CPU to spare after the change)"
    parts = []
    if cpu["server_cpu_before"] is not None:
        parts.append(f"database server {cpu['server_cpu_before']:.0f} → {cpu['server_cpu_after']:.0f} % of a core")
    else:
        # e.g. a monitor fed by exporters without process-exporter (docs/monitor-exporters.md)
        parts.append("database server CPU not recorded (proc.cpu_pct): CPU attribution to the server is off")
    if cpu["client_cpu_before"] is not None:
        parts.append(f"client {cpu['client_cpu_before']:.0f} → {cpu['client_cpu_after']:.0f} % of a core")
    else:
        parts.append("client CPU not recorded (client.cpu_pct)")
    if cpu["other_cores_delta"] is not None and from_outside(cpu):
        parts.insert(0, f"{cpu['other_cores_delta']:.1f} of {cpu['cores']} cores")
    if cpu["taken_by"] == HYPERVISOR:
        parts.insert(0, steal_text(cpu))
    return f"{idle}: host CPU taken by {cpu['taken_by']} ({'; '.join(parts)})"
