"""Who took the host's disk at a change: the database server or another process (the machine).

monitor.csv has the host's disk traffic summed over its disks (``os.disk.read_bytes_ps``,
``os.disk.write_bytes_ps``) and the database server process's own (``proc.read_bytes_ps``,
``proc.write_bytes_ps``, from /proc/<pid>/io). When the host's disk traffic rose by at least ``MIN_BYTES_PS``
and to at least ``MIN_RATIO`` times its level before, and the server's own traffic explains less than half of
that rise, another process took the disk (a copy, a backup, another benchmark's writes): the machine, not the
database. The same rule as explain/cpu.py for the host's CPU, with bytes for cores, and like it both ways: when the
host's traffic fell by as much (to at most 1/MIN_RATIO of its level before) and the server's own fall explains less
than half of it, another process gave the disk back (a hog's end).
"""
from __future__ import annotations

import math

HOST_DISK = ("os.disk.read_bytes_ps", "os.disk.write_bytes_ps")
SERVER_DISK = ("proc.read_bytes_ps", "proc.write_bytes_ps")
IOWAIT = "os.cpu.iowait_pct"
# the host's disk traffic must rise by this much (bytes per second) and to this multiple of its level before
MIN_BYTES_PS = 20e6
MIN_RATIO = 2.0


def _sum(means: dict, names: tuple[str, ...]) -> float | None:
    vals = [means.get(n) for n in names]
    vals = [float(v) for v in vals if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return sum(vals) if vals else None


def attribute_disk(before: dict, after: dict) -> dict | None:
    """{"host_before", "host_after", "server_before", "server_after", "iowait_before", "iowait_after", "taken_by"}
    (bytes per second, iowait in % of the host; taken_by "another process" or "the database server") when the
    host's disk traffic rose as the module doc says; taken_by "freed" with "freed_by" (the same two) when it fell;
    None when neither or not recorded. Without the server's own I/O recorded, nothing is attributed."""
    hb, ha = _sum(before, HOST_DISK), _sum(after, HOST_DISK)
    sb, sa = _sum(before, SERVER_DISK), _sum(after, SERVER_DISK)
    if hb is None or ha is None or sb is None or sa is None:
        return None
    wb, wa = _sum(before, (IOWAIT,)), _sum(after, (IOWAIT,))
    out = {"host_before": hb, "host_after": ha, "server_before": sb, "server_after": sa,
           "iowait_before": wb, "iowait_after": wa}
    rise = ha - hb
    if rise >= MIN_BYTES_PS and ha >= MIN_RATIO * hb:
        out["taken_by"] = "another process" if max(sa - sb, 0.0) < 0.5 * rise else "the database server"
        return out
    fall = hb - ha
    if fall >= MIN_BYTES_PS and hb >= MIN_RATIO * ha:
        # the same rule backwards: the disk given back ("freed"), by whoever's traffic fell
        out["taken_by"] = "freed"
        out["freed_by"] = "another process" if max(sb - sa, 0.0) < 0.5 * fall else "the database server"
        return out
    return None


def iowait_explains(disk: dict | None, cpu: dict | None) -> bool:
    """True when the host's idle CPU that was lost went to waiting for that disk (iowait rose by at least half
    the fall of idle): a disk hog, which explain/cpu.py alone would read as CPU taken by another process."""
    if not disk or not cpu or disk.get("iowait_before") is None or disk.get("iowait_after") is None:
        return False
    lost = cpu["host_idle_before"] - cpu["host_idle_after"]
    return lost > 0 and disk["iowait_after"] - disk["iowait_before"] >= 0.5 * lost


def taken_by_other(disk: dict | None) -> bool:
    """Whether another process took the host's disk (attribute_disk): the machine, not the database."""
    return bool(disk) and disk.get("taken_by") == "another process"


def freed_by_other(disk: dict | None) -> bool:
    """Whether another process gave the host's disk back (its traffic ended: attribute_disk)."""
    return bool(disk) and disk.get("freed_by") == "another process"


def describe_disk(disk: dict | None) -> str:
    """One sentence for a finding."""
    if not disk:
        return ""
    who = f"given back by {disk['freed_by']}" if disk.get("freed_by") else f"taken by {disk['taken_by']}"
    return (f"host disk {disk['host_before'] / 1e6:,.0f} → {disk['host_after'] / 1e6:,.0f} MB/s read and written: "
            f"{who} (the database server's own I/O {disk['server_before'] / 1e6:,.0f} → "
            f"{disk['server_after'] / 1e6:,.0f} MB/s)")
