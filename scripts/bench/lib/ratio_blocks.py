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

For a run with mode main-maintained (maintenance.csv), per block what the maintenance cost, medians over the block's
epochs: the physical copy's seconds (the experiment's apparatus: a real deployment maintains in place), the
reorganization's seconds beside main's extend phase's (its extends over their throughput, epochs.csv), and the
table's physical figures before and after it (MyRocks: SST files and entries of
the table, SST bytes of every level; InnoDB: data_length and data_free).

Usage: ratio_blocks.py FOLDER [--block N] [--pairs NUM/DEN,...]   (writes FOLDER/blocks.md and prints it)
Default pairs: main over every other mode, then clean/average-baseline and main-maintained/clean.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from ivs_analyzer.explain import regimes

sys.path.insert(0, str(Path(__file__).resolve().parent))
import drift_table  # noqa: E402

sys.path.pop(0)

MEMTABLE = next(c for c in regimes.COUNTERS if isinstance(c, regimes.MemtableShare))
POOL = next(c for c in regimes.COUNTERS if isinstance(c, regimes.PoolMisses))
MODE_ORDER = ("main", "clean", "average-baseline", "spread-baseline", "main-maintained")
# engine_state.csv names shown per mode, with their column titles
STATE = (("rocksdb.memtable_entries", "memtable entries at start"), ("rocksdb.L0_files", "L0 files at start"),
         ("rocksdb.table_sst_entries", "table's SST entries at start"))


def default_pairs(modes: list[str]) -> list[tuple[str, str]]:
    present = [m for m in MODE_ORDER if m in modes] + sorted(m for m in modes if m not in MODE_ORDER)
    pairs = [("main", m) for m in present if m != "main"] if "main" in present else []
    if "clean" in present and "average-baseline" in present:
        pairs.append(("clean", "average-baseline"))
    if "clean" in present and "main-maintained" in present:
        # did the maintenance bring main to a history-free copy?
        pairs.append(("main-maintained", "clean"))
    return pairs


# maintenance.csv names shown per block (before -> after the reorganization), with their titles; "SST bytes" is
# the sum of the levels' bytes (rocksdb.L<k>_bytes)
MAINTENANCE = (("rocksdb.table_sst_files", "table's SST files"), ("rocksdb.table_sst_entries", "table's SST entries"),
               ("sst_bytes", "SST bytes, all levels"), ("rocksdb.L0_files", "L0 files"),
               ("table.data_length", "data_length"), ("table.data_free", "data_free"))


def maintenance_table(folder: Path, epochs: pd.DataFrame, spans: list[tuple[int, int]]) -> list[str]:
    """Per block, medians over its epochs of maintenance.csv: the copy's and the reorganization's seconds beside
    main's extend phase (from the run's `epochs`, epochs.csv), and each physical figure before -> after. Empty when
    the run had no main-maintained mode."""
    file = folder / "maintenance.csv"
    if not file.is_file():
        return []
    m = pd.read_csv(file)
    if m.empty:
        return []
    levels = m[m["name"].str.fullmatch(r"rocksdb\.L\d+_bytes")]
    if not levels.empty:
        # a level absent before or after holds nothing then
        sums = levels.fillna({"before": 0.0, "after": 0.0}).groupby("epoch")[["before", "after"]].sum().reset_index()
        sums["name"] = "sst_bytes"
        m = pd.concat([m, sums], ignore_index=True)
    times = m.groupby("epoch")[["copy_ms", "maintenance_ms"]].first()
    # what the maintenance weighs against: main's extend phase of the epoch (its extends / their throughput)
    extends = pd.Series(dtype=float)
    if {"extend_ops", "extend_throughput"} <= set(epochs.columns):
        main = epochs[(epochs["mode"] == "main") & (epochs["extend_throughput"].astype(float) > 0)]
        extends = pd.Series((main["extend_ops"].astype(float) / main["extend_throughput"].astype(float)).to_numpy(),
                            index=main["epoch"].astype(int))
    shown = [(n, t) for n, t in MAINTENANCE if (m["name"] == n).any()]
    statement = str(m["statement"].dropna().iloc[0]) if m["statement"].notna().any() else "-"
    lines = ["", f"What the maintenance cost (mode main-maintained, `{statement}` on a physical copy of main): per "
             "block, medians over its epochs of maintenance.csv; a figure before -> after the reorganization.", "",
             "| epochs | epochs with maintenance | copy s | maintenance s | main's extend phase s | "
             + " | ".join(t for _, t in shown) + " |", "|---|---|---|---|---|" + "---|" * len(shown)]
    # each figure's before and after per epoch; a level figure absent on one side: the level was empty then
    figures = {}
    for name, _ in shown:
        rows = m[m["name"] == name].set_index("epoch")
        level = name.startswith("rocksdb.L")
        figures[name] = [rows[side].fillna(0.0) if level else rows[side] for side in ("before", "after")]
    for first, last in spans:
        epochs_in = ((times.index >= first) & (times.index <= last)).sum()
        if not epochs_in:
            continue
        cells = [f"{_median(before, first, last, 0)} -> {_median(after, first, last, 0)}"
                 for before, after in figures.values()]
        lines.append(f"| {first}-{last} | {epochs_in} | {_median(times['copy_ms'] / 1000.0, first, last, 1)} | "
                     f"{_median(times['maintenance_ms'] / 1000.0, first, last, 1)} | "
                     f"{_median(extends, first, last, 1)} | " + " | ".join(cells) + " |")
    return lines


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


def _counter(counter: regimes.Counter, monitor: pd.DataFrame | None, mode: str) -> pd.Series:
    """A regimes counter (the figure book's own reading of the monitor) per epoch for one mode, or empty."""
    if monitor is None:
        return pd.Series(dtype=float)
    return counter.series(monitor[monitor["mode"] == mode].set_index("epoch"), None)


def _median(s: pd.Series, first: int, last: int, digits: int) -> str:
    """The median of the series' values in epochs first..last (its index), missing values left out; "-" for none."""
    s = s[(s.index >= first) & (s.index <= last)].dropna()
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
             f"Made by `scripts/bench/lib/ratio_blocks.py` (--block {size}) from `epochs.csv`"
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
            lines.append(f"| {first}-{last} | {num}/{den} | {drift_table.fmt(e)} | {drift_table.fmt(s) if slices is not None else 'no slices'} |")
    # Where the reads were answered, per mode: each column a series per mode, read once.
    shown = [m for m in MODE_ORDER if m in modes] + [m for m in modes if m not in MODE_ORDER]
    columns: list[tuple[str, dict[str, pd.Series], int]] = []
    share = {m: _counter(MEMTABLE, monitor, m) for m in shown}
    if any(not s.empty for s in share.values()):
        columns.append(("memtable share of point reads", share, 2))
    if state is not None and not state.empty:
        for name, title in STATE:
            rows = state[state["name"] == name]
            if not rows.empty:
                columns.append((title, {m: rows[rows["mode"] == m].set_index("epoch")["value"].astype(float)
                                        for m in shown}, 0))
    misses = {m: _counter(POOL, monitor, m) for m in shown}
    if any((s > 0).any() for s in misses.values()):  # InnoDB's counters read 0 on a MyRocks table
        columns.append(("buffer pool misses per operation", misses, 3))
    if columns:
        lines += ["", "Where the reads were answered: per block, medians over its epochs.", "",
                  "| epochs | mode | " + " | ".join(t for t, _, _ in columns) + " |",
                  "|---|---|" + "---|" * len(columns)]
        for first, last in spans:
            for m in shown:
                lines.append(f"| {first}-{last} | {m} | "
                             + " | ".join(_median(s[m], first, last, d) for _, s, d in columns) + " |")
    lines += maintenance_table(folder, epochs, spans)
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
