"""Sweep folders (a config's ``<sweep>``): ``sweep.csv``, one row per (terminals, count, trial) point; several
folders, one per database, are read into one frame."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from .results import AnalyzerError


REQUIRED = ("target_type", "terminals", "count", "trial", "runtime_ms", "throughput", "interrupted")


def is_sweep_folder(path: Path) -> bool:
    """A sweep folder holds sweep.csv (its points' own results folders sit beside it)."""
    return (Path(path) / "sweep.csv").is_file()


def load_sweeps(dirs: list[Path]) -> pd.DataFrame:
    """The finished rows of every folder's sweep.csv, with ``database`` (the target type) and ``sweep`` (folder)."""
    frames = []
    for d in dirs:
        csv = d / "sweep.csv"
        if not csv.is_file():
            raise AnalyzerError(f"{d}: no sweep.csv (not a sweep folder: run a config with a <sweep> section)")
        df = pd.read_csv(csv)
        missing = [c for c in REQUIRED if c not in df.columns]
        if missing:
            raise AnalyzerError(f"{csv}: missing column(s) {', '.join(missing)}")
        # An interrupted point measured a shorter run than asked for: its runtime is not comparable.
        df = df[~df["interrupted"].astype(str).str.lower().eq("true")].copy()
        df["database"] = df["target_type"].astype(str)
        df["sweep"] = d.name
        df["count"] = df["count"].fillna(0).astype("int64")
        frames.append(df)
    data = pd.concat(frames, ignore_index=True)
    if data.empty:
        raise AnalyzerError("no finished sweep points in " + ", ".join(str(d) for d in dirs))
    return data
