"""A ``tenants`` run's folder: tenants.json (the tenants, their folders, how far apart they started) and
tenants.csv (every tenant's ALL windows, with the number of tenants active in each window)."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from .results import AnalyzerError, read_csv

TIMELINE = "tenants.csv"
INDEX = "tenants.json"
REQUIRED = ["time_ms", "window_ms", "tenant", "phase", "ok", "skipped", "aborted", "error", "throughput",
            "lat_p99_us", "measured_ms", "active_tenants"]
NUMERIC = [c for c in REQUIRED if c != "tenant"]


def is_tenants_folder(path: Path) -> bool:
    return (Path(path) / TIMELINE).is_file() and (Path(path) / INDEX).is_file()


def load_index(path: Path) -> dict:
    """tenants.json of the folder."""
    try:
        return json.loads((Path(path) / INDEX).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise AnalyzerError(f"{Path(path) / INDEX}: {e}") from e


def load_timeline(path: Path) -> pd.DataFrame:
    df = read_csv(Path(path) / TIMELINE, REQUIRED, NUMERIC)
    df["tenant"] = df["tenant"].astype(str)
    df["operations"] = df[["ok", "skipped", "aborted", "error"]].sum(axis=1)
    return df
