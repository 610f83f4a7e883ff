"""The box's condition during a measurement run, for box.log (scripts/repro.sh): every INTERVAL seconds one line

    <UTC time> <load1> <load5> <load15> others=<pct> own=<pct> kernel=<pct> steal=<pct> top: <name>:<pid>:<pct>; ... (the three busiest others)

where a process's pct is the CPU it used over the interval in % of one core, read from /proc/<pid>/stat (utime +
stime, so exact over the interval, not `ps`'s lifetime average). *own* is the run's processes: ROOT_PID and its
descendants, and every process whose command line names one of the state folders given (the run's servers, which
detach from the script that starts them: a fresh instance restarts each epoch), with their descendants. *kernel* is
the kernel's own threads (children of kthreadd, pid 2: writeback, block I/O, mostly doing the run's own I/O).
*steal* is the time the machine's CPUs were ready to run but the hypervisor ran something else (/proc/stat's steal
column, all CPUs together): CPU a virtual machine lost to its host's other tenants, which no process here shows
(on an otherwise idle box, the no-fault runs of docs/diagnosis.md saw it reach half a core).
*others* is every other process on the box. A run whose others, or whose steal, are above 10 % of a core at the
median is to be run again (scripts/lib/box_summary.py, docs/repro/README.md). Standard library only.

Usage: box_sampler.py INTERVAL ROOT_PID STATE_DIR...   (lines to stdout until ROOT_PID ends or SIGTERM)
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def read_stat(pid: str) -> tuple[str, int, int, int] | None:
    """(name, parent pid, CPU ticks used, start time in ticks after boot) of a process, or None when it has gone.
    The start time (field 22) tells a process from a later one that reuses its pid; the name does not (a kworker
    renames itself for each work queue it serves, and a process that execs another program keeps its pid and its
    CPU ticks)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = text[text.index("(") + 1:text.rindex(")")]
    rest = text[text.rindex(")") + 2:].split()
    return name, int(rest[1]), int(rest[11]) + int(rest[12]), int(rest[19])


def steal_ticks(stat_text: str) -> int | None:
    """The steal time of all CPUs together, in clock ticks, from /proc/stat's text (its aggregate "cpu" line:
    user nice system idle iowait irq softirq steal ...); None when the kernel gives no steal column."""
    for row in stat_text.splitlines():
        fields = row.split()
        if fields and fields[0] == "cpu":
            return int(fields[8]) if len(fields) > 8 else None
    return None


def read_steal() -> int | None:
    try:
        return steal_ticks(Path("/proc/stat").read_text())
    except OSError:
        return None


def snapshot() -> dict[int, tuple]:
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            s = read_stat(entry)
            if s is not None:
                out[int(entry)] = s
    return out


def descendants(root: int, procs: dict[int, tuple]) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, (_, ppid, *_) in procs.items():
        children.setdefault(ppid, []).append(pid)
    own, todo = set(), [root]
    while todo:
        p = todo.pop()
        if p not in own:
            own.add(p)
            todo.extend(children.get(p, []))
    return own


def server_pids(states: list[str], procs: dict[int, tuple]) -> set[int]:
    """The processes whose command line names one of the state folders (the run's servers)."""
    pids = set()
    marks = [s.encode() for s in states if s]
    for pid in procs:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if any(m in cmdline for m in marks):
            pids.add(pid)
    return pids


def kernel_threads(procs: dict[int, tuple]) -> set[int]:
    """kthreadd (pid 2) and its children: the kernel's own threads."""
    return {pid for pid, (_, ppid, *_) in procs.items() if pid == 2 or ppid == 2}


def split(before: dict, after: dict, own: set[int], seconds: float,
          kernel: set[int] = frozenset()) -> tuple[float, float, list[tuple[str, int, float]], float]:
    """CPU % of one core over the interval: (others, own, the others by process busiest first, kernel threads)."""
    others, mine, by, kern = 0.0, 0.0, [], 0.0
    for pid, (name, _, ticks, start) in after.items():
        prev = before.get(pid)
        # the same process only if it started at the same tick: a reused pid counts from zero
        same = prev is not None and prev[3] == start
        used = ticks - (prev[2] if same else 0)
        pct = 100.0 * used / TICKS / seconds
        if pct <= 0:
            continue
        if pid in own:
            mine += pct
        elif pid in kernel:
            kern += pct
        else:
            others += pct
            by.append((name, pid, pct))
    by.sort(key=lambda t: -t[2])
    return others, mine, by, kern


def line(load: str, others: float, mine: float, by: list, kernel: float = 0.0, steal: float | None = None) -> str:
    top = "; ".join(f"{n}:{p}:{c:.0f}" for n, p, c in by[:3])
    stolen = "" if steal is None else f" steal={steal:.1f}"
    return (f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} {load} others={others:.1f} own={mine:.1f} "
            f"kernel={kernel:.1f}{stolen} top: {top}")


def main(argv: list[str]) -> int:
    if len(argv) < 2 or not argv[0].isdigit() or not argv[1].isdigit():
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    interval, root, states = int(argv[0]), int(argv[1]), argv[2:]
    before, t0, steal0 = snapshot(), time.monotonic(), read_steal()
    while Path(f"/proc/{root}").exists():
        time.sleep(interval)
        after, t1, steal1 = snapshot(), time.monotonic(), read_steal()
        steal = None if steal0 is None or steal1 is None else 100.0 * (steal1 - steal0) / TICKS / (t1 - t0)
        own = {os.getpid()}
        for r in {root} | server_pids(states, after):
            own |= descendants(r, after) | descendants(r, before)  # a server's own children (PostgreSQL's backends)
        others, mine, by, kern = split(before, after, own, t1 - t0, kernel_threads(after))
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
        print(line(load, others, mine, by, kern, steal), flush=True)
        before, t0, steal0 = after, t1, steal1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
