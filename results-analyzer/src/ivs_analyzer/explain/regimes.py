"""Regimes: the stretches of epochs in which the platform worked the same way, found from the run's own counters,
never from the latency series being judged - and each difference claim of the figure book given per regime.

A pooled geometric mean over epochs 21-100 can hide what happened: on InnoDB the table outgrows the buffer pool at
a different epoch in each mode, on MyRocks a mode's reads move from the memtable to the SST files when its restored
copy stops answering from memory. Each counter below has a stated level; a mode enters a new state at the first
epoch from which the counter stays on the other side of the level for HOLD epochs in a row (a single epoch across
the level is not a regime). A comparison of two modes has a regime boundary wherever either mode's state changes;
the claim is then judged on each regime's epochs alone with the same HAC interval and decision rule
(explain/verdicts.py), and the trend of the per-epoch ratio within the regime is given with its interval (a
description: the paper states no margin for it). The regimes are reported beside the pooled test, which alone is
counted in the figure's verdict (docs/experiments.md, "How a verdict is decided").

A run whose counters never cross a level has one regime: the detector finds nothing where nothing changed.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from . import verdicts as v

HOLD = 3  # epochs in a row on the new side of a level before a mode is in a new state
MIN_EPOCHS = 8  # a regime shorter than this gets no interval (too few epochs): reported with its n only


@dataclass(frozen=True)
class Counter:
    """A per-epoch counter with a stated level: `high` names the state at or above the level, `low` below it."""
    name: str
    level: float
    high: str
    low: str

    def series(self, monitor: pd.DataFrame | None, epochs: pd.DataFrame) -> pd.Series:
        """The counter per epoch (index: epoch as float) from the mode's monitor summary or its epochs.csv rows."""
        return pd.Series(dtype=float)


class PoolMisses(Counter):
    def series(self, monitor, epochs):
        col = "db.Innodb_buffer_pool_reads/op"
        return _float(monitor[col]) if monitor is not None and col in monitor else pd.Series(dtype=float)


class MemtableShare(Counter):
    def series(self, monitor, epochs):
        hit, miss = "db.Rocksdb_memtable_hit/op", "db.Rocksdb_memtable_miss/op"
        if monitor is None or hit not in monitor or miss not in monitor:
            return pd.Series(dtype=float)
        h, m = _float(monitor[hit]), _float(monitor[miss])
        total = h + m
        return (h / total.where(total > 0)).dropna()


class AtCap(Counter):
    def series(self, monitor, epochs):
        if "records_at_cap" not in epochs:
            return pd.Series(dtype=float)
        return _float(epochs.set_index("epoch")["records_at_cap"])


COUNTERS = [
    PoolMisses("InnoDB buffer pool misses per run operation", 0.25, "reads miss the buffer pool: the table outgrew it",
               "reads served from the buffer pool"),
    MemtableShare("share of point reads answered by the memtable", 0.5, "reads answered from the memtable",
                  "reads go to the SST files, L0 and below"),
    AtCap("records at the value cap", 1.0, "records at the cap, their extends skipped", "no record at the cap"),
]


def _float(s: pd.Series) -> pd.Series:
    s = pd.to_numeric(s, errors="coerce").dropna()
    s.index = s.index.astype(float)
    return s.sort_index()


def changes(values: pd.Series, level: float, hold: int = HOLD) -> list[tuple[float, bool]]:
    """(epoch, state after) for every change of state of a per-epoch counter: the state (values >= level) starts as
    the first `hold` epochs' majority and changes at the first epoch from which `hold` epochs in a row are on the
    other side. Fewer than 2 x hold epochs: none."""
    values = values.dropna().sort_index()
    if len(values) < 2 * hold:
        return []
    high = (values.to_numpy(float) >= level)
    epochs = values.index.to_numpy(float)
    state = bool(high[:hold].sum() * 2 > hold)
    out = []
    for i in range(1, len(high) - hold + 1):
        if all(high[i:i + hold] != state):
            state = not state
            out.append((float(epochs[i]), state))
    return out


def boundaries(monitor_of, epochs: pd.DataFrame, modes: list[str]) -> list[dict]:
    """Every state change of every counter in `modes`: {"epoch", "mode", "counter", "level", "state"} by epoch.
    `monitor_of(mode)`: the mode's per-epoch monitor summary (epochs.monitor_per_epoch) or None."""
    out = []
    for mode in modes:
        monitor = monitor_of(mode) if monitor_of is not None else None
        rows = epochs[epochs["mode"] == mode]
        for c in COUNTERS:
            for epoch, high in changes(c.series(monitor, rows), c.level):
                out.append({"epoch": epoch, "mode": mode, "counter": c.name, "level": c.level,
                            "side": ">=" if high else "<", "state": c.high if high else c.low,
                            "before": c.low if high else c.high})
    return sorted(out, key=lambda b: (b["epoch"], b["mode"], b["counter"]))


def segments(epochs: list, found: list[dict]) -> list[dict]:
    """The stretches of `epochs` between the boundaries that fall inside them: {"epochs": [...]}. No boundary
    inside: one segment; "at": the epoch whose states name it. A stretch shorter than HOLD epochs (two modes
    changing a few epochs apart) joins the next one, named by the states after both changes; a short last stretch
    joins the one before."""
    epochs = sorted(float(e) for e in epochs)
    if not epochs:
        return []
    cuts = sorted({b["epoch"] for b in found if epochs[0] < b["epoch"] <= epochs[-1]})
    parts, edges = [], [epochs[0]] + cuts + [float("inf")]
    for lo, hi in zip(edges[:-1], edges[1:]):
        part = [e for e in epochs if lo <= e < hi]
        if part:
            parts.append(part)
    out: list[dict] = []
    for part in parts:
        if out and len(out[-1]["epochs"]) < HOLD:  # too short: one regime from the later change
            out[-1] = {"epochs": out[-1]["epochs"] + part, "at": part[0]}
        else:
            out.append({"epochs": part, "at": part[0]})
    if len(out) > 1 and len(out[-1]["epochs"]) < HOLD:  # a short stretch at the end joins the one before
        last = out.pop()
        out[-1]["epochs"] += last["epochs"]
    return out


def in_force(found: list[dict], modes: list[str], epoch: float) -> str:
    """Each of `modes`' states at `epoch` for the counters that change somewhere in the run (the last change at or
    before the epoch, else the state before the first change), with the epoch it began."""
    out = []
    for mode in modes:
        for counter in dict.fromkeys(b["counter"] for b in found if b["mode"] == mode):
            mine = [b for b in found if b["mode"] == mode and b["counter"] == counter]
            past = [b for b in mine if b["epoch"] <= epoch]
            if past:
                b = past[-1]
                out.append(f"{mode}: {b['state']} ({counter} {b['side']} {b['level']:g} from epoch {int(b['epoch'])})")
            else:
                out.append(f"{mode}: {mine[0]['before']} (until epoch {int(mine[0]['epoch'])})")
    return "; ".join(out) or "no counter changed"


def _span(part: list) -> str:
    return f"{int(part[0])}-{int(part[-1])}"


def per_regime(num: pd.Series, den: pd.Series, found: list[dict], claim: str, null: float, counts: float,
               unit: str) -> list[dict]:
    """A paired claim (num/den epoch by epoch, on the epochs both have) per regime: for each segment its epochs,
    what opened it, the effect with its HAC interval, n and n_eff and the verdict (verdicts.make), and the trend of
    the ratio within it (verdicts.trend of num/den: its fitted change over the segment, 95 % interval). Segments
    shorter than MIN_EPOCHS: no interval."""
    common = num.index.intersection(den.index)
    out = []
    for seg in segments(list(common), found):
        part = seg["epochs"]
        a, b = num.reindex(part), den.reindex(part)
        opened = in_force(found, [str(num.name), str(den.name)], seg["at"])
        effect = v.paired(a, b) if len(part) >= MIN_EPOCHS else None
        row = v.make(f"epochs {_span(part)}", f"geometric mean {num.name}/{den.name}", effect, claim, null, counts,
                     unit, role="regime")
        ratio = (a / b).dropna()
        tr = v.trend(ratio.index.to_numpy(float), ratio.to_numpy(float)) if len(part) >= MIN_EPOCHS else None
        row.update(epochs=_span(part), opened_by=opened, n_epochs=len(part), trend=None, trend_text="-")
        if tr is not None:
            row["trend"] = {k: tr[k] for k in ("estimate", "low", "high", "n", "n_eff")}
            row["trend_text"] = (f"{v.show(tr['estimate'], '%')} (95 % CI {v.show(tr['low'], '%')} .. "
                                 f"{v.show(tr['high'], '%')})")
        out.append(row)
    return out


def words(rows: list[dict]) -> str:
    """The regime rows of one test in one line (figures.md, the detail of a section)."""
    return " | ".join(f"regime {r['epochs']} ({r['opened_by']}): {r['text'].split(': ', 1)[-1]}; the ratio's trend"
                      f" within it {r['trend_text']}" for r in rows)


def describe(found: list[dict]) -> list[str]:
    """The boundaries in words, one per line."""
    return [f"epoch {int(b['epoch'])}: {b['mode']}: {b['state']} ({b['counter']} {b['side']} {b['level']:g} for"
            f" {HOLD} epochs in a row)" for b in found]
