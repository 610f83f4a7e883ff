"""Mode ratios of one experiment per block of epochs, beside the state each mode's run phase started from.

For docs/repro ("main/clean per 20 epochs with intervals"). The blocks are fixed before the data: epochs 1-20,
21-40, ... (--block N). Per block and pair of modes (num/den), the geometric mean of the per-epoch run-phase latency
ratios with its HAC 95 % interval and effective sample size (explain/verdicts.paired, the figure book's method),
from epochs.csv, and, for a run made in slices (slices.csv), from adjacent slices as well (drift_table.slice_ratio:
per epoch the mean log ratio of the two modes' slices of one round). The intervals are a description per block;
the verdicts are the figure book's (verdicts.md).

Beside them, per block and mode, medians over the block's epochs of what says where the reads were answered:
- MyRocks: the share of point reads the memtable answered (the monitor's Rocksdb_memtable_hit / (hit + miss)), and
  from engine_state.csv the run phase's starting state: memtable entries (the whole instance: with slices, a fresh
  instance holds every fresh mode's table), L0 files and the mode's table's SST entries;
- InnoDB: buffer pool misses per run operation (the monitor's Innodb_buffer_pool_reads per operation).

Usage: ratio_blocks.py FOLDER [--block N] [--pairs NUM/DEN,...]   (writes FOLDER/blocks.md and prints it)
Default pairs: main over every other mode, then clean/average-baseline.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from ivs_analyzer.explain import verdicts

sys.path.insert(0, str(Path(__file__).resolve().parent))
import drift_table  # noqa: E402

sys.path.pop(0)

MODE_ORDER = ("main", "clean", "average-baseline", "spread-baseline", "main-maintained")
# engine_state.csv names shown per mode, with their column titles
STATE = (("rocksdb.memtable_entries", "memtable entries at start"), ("rocksdb.L0_files", "L0 files at start"),
         ("rocksdb.table_sst_entries", "table's SST entries at start"))


def default_pairs(modes: list[str]) -> list[tuple[str, str]]:
    present = [m for m in MODE_ORDER if m in modes] + sorted(m for m in modes if m not in MODE_ORDER)
    pairs = [("main", m) for m in present if m != "main"] if "main" in present else []
    if "clean" in present and "average-baseline" in present:
        pairs.append(("clean", "average-baseline"))
    return pairs


def blocks(epochs: list[int], size: int) -> list[tuple[int, int]]:
    """(first, last) of every block of `size` epochs that holds at least one of `epochs`: 1-size, size+1-2size, ..."""
    if not epochs:
        return []
    out, first = [], 1
    while first <= max(epochs):
        last = first + size - 1
        if any(first <= e <= last for e in epochs):
            out.append((first, last))
        first = last + 1
    return out


def _fmt(r: dict | None) -> str:
    if r is None:
        return "-"
    return (f"{math.exp(r['estimate']):.3f} ({math.exp(r['low']):.3f}-{math.exp(r['high']):.3f}), "
            f"n {r['n']}, n_eff {r['n_eff']:.0f}")


def memtable_share(monitor: pd.DataFrame | None, mode: str) -> pd.Series:
    """Per epoch the mode's share of point reads answered by its memtable, or an empty series."""
    if monitor is None:
        return pd.Series(dtype=float)
    rows = monitor[monitor["mode"] == mode].set_index("epoch")
    hit, miss = "db.Rocksdb_memtable_hit/op", "db.Rocksdb_memtable_miss/op"
    if hit not in rows or miss not in rows:
        return pd.Series(dtype=float)
    h, m = rows[hit].astype(float), rows[miss].astype(float)
    total = h + m
    return (h / total.where(total > 0)).dropna()


def pool_misses(monitor: pd.DataFrame | None, mode: str) -> pd.Series:
    col = "db.Innodb_buffer_pool_reads/op"
    if monitor is None or col not in monitor:
        return pd.Series(dtype=float)
    rows = monitor[monitor["mode"] == mode].set_index("epoch")
    return rows[col].astype(float).dropna()


def _median(s: pd.Series, first: int, last: int, digits: int) -> str:
    s = s[(s.index >= first) & (s.index <= last)]
    if s.empty:
        return "-"
    v = float(np.median(s.to_numpy(float)))
    return f"{v:.{digits}f}" if digits else f"{v:,.0f}"


def table(folder: Path, size: int, pairs: list[tuple[str, str]] | None) -> str:
    epochs = pd.read_csv(folder / "epochs.csv")
    slices = pd.read_csv(folder / "slices.csv") if (folder / "slices.csv").is_file() else None
    monitor = pd.read_csv(folder / "monitor_epochs.csv") if (folder / "monitor_epochs.csv").is_file() else None
    state = pd.read_csv(folder / "engine_state.csv") if (folder / "engine_state.csv").is_file() else None
    modes = list(dict.fromkeys(epochs["mode"]))
    pairs = pairs or default_pairs(modes)
    for num, den in pairs:
        for m in (num, den):
            if m not in modes:
                raise ValueError(f"--pairs: mode '{m}' has no rows in {folder / 'epochs.csv'} "
                                 f"(modes: {', '.join(modes)})")
    spans = blocks(sorted(int(e) for e in epochs["epoch"].unique()), size)
    lines = [f"# Mode ratios per {size} epochs: {folder.name}", "",
             f"Made by `scripts/bench/lib/ratio_blocks.py` ({'--block ' + str(size)}) from `epochs.csv`"
             + (", `slices.csv`" if slices is not None else "") + (", `monitor_epochs.csv`" if monitor is not None
                                                                    else "")
             + (" and `engine_state.csv`" if state is not None else "")
             + ". Each ratio: the geometric mean of the per-epoch run-phase latency ratios with its HAC 95 % "
             "interval (the figure book's method), n epochs and the effective sample size. A description per "
             "block; the verdicts are in verdicts.md.", "",
             "| epochs | ratio | from epochs.csv | from adjacent slices |", "|---|---|---|---|"]
    for first, last in spans:
        rows = epochs[(epochs["epoch"] >= first) & (epochs["epoch"] <= last)]
        srows = None if slices is None else slices[(slices["epoch"] >= first) & (slices["epoch"] <= last)]
        for num, den in pairs:
            e = drift_table.epoch_ratio(rows, num, den)
            s = drift_table.slice_ratio(srows, num, den) if srows is not None and not srows.empty else None
            lines.append(f"| {first}-{last} | {num}/{den} | {_fmt(e)} | {_fmt(s) if slices is not None else 'no slices'} |")
    # Where the reads were answered, per mode.
    shown = [m for m in MODE_ORDER if m in modes] + [m for m in modes if m not in MODE_ORDER]
    columns: list[tuple[str, callable]] = []
    if any(not memtable_share(monitor, m).empty for m in shown):
        columns.append(("memtable share of point reads", lambda m, a, b: _median(memtable_share(monitor, m), a, b, 2)))
    if state is not None and not state.empty:
        for name, title in STATE:
            if (state["name"] == name).any():
                def per(m, a, b, name=name):
                    rows = state[(state["mode"] == m) & (state["name"] == name)].set_index("epoch")["value"]
                    return _median(rows.astype(float), a, b, 0)
                columns.append((title, per))
    if any((pool_misses(monitor, m) > 0).any() for m in shown):  # InnoDB's counters read 0 on a MyRocks table
        columns.append(("buffer pool misses per operation", lambda m, a, b: _median(pool_misses(monitor, m), a, b, 3)))
    if columns:
        lines += ["", "Where the reads were answered: per block, medians over its epochs.", "",
                  "| epochs | mode | " + " | ".join(t for t, _ in columns) + " |",
                  "|---|---|" + "---|" * len(columns)]
        for first, last in spans:
            for m in shown:
                lines.append(f"| {first}-{last} | {m} | " + " | ".join(f(m, first, last) for _, f in columns) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="ratio_blocks.py", description=__doc__.strip().splitlines()[0])
    p.add_argument("folder", type=Path)
    p.add_argument("--block", type=int, default=20)
    p.add_argument("--pairs", default="")
    a = p.parse_args(argv)
    if a.block < 4:
        print(f"ratio_blocks.py: --block {a.block}: at least 4 epochs (an interval needs 4)", file=sys.stderr)
        return 2
    if not (a.folder / "epochs.csv").is_file():
        print(f"ratio_blocks.py: {a.folder}: no epochs.csv (an experiment's folder or a docs/repro one)",
              file=sys.stderr)
        return 2
    pairs = None
    if a.pairs:
        pairs = []
        for item in a.pairs.split(","):
            num, sep, den = item.partition("/")
            if not sep or not num or not den:
                print(f"ratio_blocks.py: --pairs '{item}': NUM/DEN, e.g. main/clean", file=sys.stderr)
                return 2
            pairs.append((num, den))
    try:
        text = table(a.folder, a.block, pairs)
    except ValueError as e:
        print(f"ratio_blocks.py: {e}", file=sys.stderr)
        return 2
    (a.folder / "blocks.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
