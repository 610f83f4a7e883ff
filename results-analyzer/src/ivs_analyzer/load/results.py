"""Loading of ivsbench result folders (see docs/results-format.md, the contract).

Two kinds of folders exist:
  * a run folder: summary.json, samples.csv, optional monitor.csv;
  * an experiment folder: epochs.csv, optional value_sizes.csv and latency_by_size.csv, and one sub-folder per
    epoch x mode x phase (``epoch-003/main/run/``) each holding a run folder's files.
Every problem a user can cause (wrong path, truncated file, bad column) becomes an
AnalyzerError whose message names the file and column, so the CLI can print one line.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd


class AnalyzerError(Exception):
    """A user-facing problem with the input; the CLI prints it and exits with 2."""


SAMPLE_COLUMNS = [
    "time_ms", "window_ms", "phase", "type", "ok", "skipped", "aborted", "error", "missed",
    "throughput", "goodput", "lat_avg_us", "lat_p50_us", "lat_p95_us", "lat_p99_us",
    "lat_max_us", "svc_avg_us", "svc_p99_us",
]
# Columns that must hold a value on every row; the latency ones are empty when count is 0.
SAMPLE_REQUIRED_VALUES = ["time_ms", "window_ms", "phase", "type"]

MONITOR_KEY_COLUMNS = ["time_ms", "interval_ms", "phase", "source"]

EPOCH_COLUMNS = [
    "epoch", "mode", "records", "data_bytes", "value_min", "value_avg", "value_p50", "value_p99",
    "value_max", "extend_ops", "extend_skipped", "extend_throughput", "extend_lat_avg_us",
    "extend_lat_p99_us", "run_ops", "run_throughput", "run_lat_avg_us", "run_lat_p50_us",
    "run_lat_p99_us", "snapshot_ms", "restore_ms",
]
VALUE_SIZE_COLUMNS = ["epoch", "bucket_lo", "bucket_hi", "count"]
# An experiment's latency_by_size.csv (bucket_lo/bucket_hi empty: operations of unknown size).
LATENCY_BY_SIZE_COLUMNS = ["epoch", "mode", "phase", "type", "bucket_lo", "bucket_hi", "count", "lat_avg_us",
                           "lat_p50_us", "lat_p90_us", "lat_p99_us", "lat_max_us"]
MODES = ["main", "clean", "average-baseline", "spread-baseline"]
# The compact form of an experiment (report/compact.py): per-epoch monitor summaries and the label.
MONITOR_EPOCHS_FILE = "monitor_epochs.csv"
COMPACT_FILE = "compact.json"


@dataclass
class Run:
    path: Path
    summary: dict
    samples: pd.DataFrame
    monitor: pd.DataFrame | None
    environment: dict | None = None
    # settings.csv: the configured rate and mix per window, written only when a phase ramps.
    settings: pd.DataFrame | None = None
    # setting-changes.csv: the server's settings that changed while the run went on (None: not watched).
    setting_changes: pd.DataFrame | None = None

    @property
    def cores(self) -> int | None:
        """The database host's processors (environment.json os.processors), for CPU attribution."""
        n = ((self.environment or {}).get("os") or {}).get("processors")
        return int(n) if isinstance(n, (int, float)) and n > 0 else None

    @property
    def label(self) -> str:
        return run_label(self.summary, self.path)

    @property
    def phases(self) -> list[dict]:
        return list(self.summary.get("phases") or [])

    @property
    def start_ms(self) -> float:
        start = self.summary.get("startMs")
        if start is None and len(self.samples):
            start = float(self.samples["time_ms"].min())
        return float(start or 0)

    @property
    def window_ms(self) -> float:
        if len(self.samples):
            return float(self.samples["window_ms"].median())
        return float(self.summary.get("windowSeconds", 1)) * 1000.0

    def phase(self, index: int) -> dict:
        for p in self.phases:
            if p.get("index") == index:
                return p
        return {"index": index, "name": f"phase{index}"}

    def metric_frame(self) -> pd.DataFrame | None:
        """Monitor metrics, one row per interval start (rows of several sources merged)."""
        if self.monitor is None or self.monitor.empty:
            return None
        metrics = [c for c in self.monitor.columns if c not in MONITOR_KEY_COLUMNS]
        if not metrics:
            return None
        # local and agent sources may each write a row for the same interval with different
        # columns filled; averaging over non-empty cells merges them into one row.
        frame = self.monitor.groupby("time_ms", sort=True)[metrics].mean()
        return frame


@dataclass
class SubRun:
    epoch: int
    mode: str
    phase: str
    path: Path
    summary: dict | None


@dataclass
class Experiment:
    path: Path
    epochs: pd.DataFrame
    value_sizes: pd.DataFrame | None
    config: dict | None
    subruns: list[SubRun] = field(default_factory=list)
    latency_by_size: pd.DataFrame | None = None
    # A compact experiment folder (``ivs_analyzer compact``) has no epoch sub-folders: monitor_epochs.csv holds
    # the per-epoch monitor summary of each mode's run phase, compact.json the run's label.
    monitor_epochs: pd.DataFrame | None = None
    compact: dict | None = None

    def run_slices(self, mode: str | None = None) -> dict[tuple[int, str], list[SubRun]]:
        """Each epoch's run phase per mode: (epoch, mode) -> its sub-runs with a summary, in order - the one
        ``run`` folder, or the slices ``run-01``, ``run-02``, ... of a run made with experiment/slices (their
        operations and monitor windows together are the mode's run phase)."""
        out: dict[tuple[int, str], list[SubRun]] = {}
        for sub in self.subruns:
            if (mode is None or sub.mode == mode) and sub.summary is not None and _RUN_PHASE.match(sub.phase):
                out.setdefault((sub.epoch, sub.mode), []).append(sub)
        for subs in out.values():
            subs.sort(key=lambda s: s.phase)
        return out

    @property
    def label(self) -> str:
        for sub in self.subruns:
            if sub.summary:
                return run_label(sub.summary, self.path)
        if self.compact and self.compact.get("label"):
            return str(self.compact["label"])
        return self.path.name


def run_label(summary: dict, path: Path) -> str:
    db = summary.get("database") or {}
    product, engine = db.get("product"), db.get("engine")
    if product and engine and engine.lower() != str(product).lower():
        return f"{product}/{engine}"
    return product or engine or path.name


def _read_json(path: Path) -> dict:
    try:
        with path.open(encoding="utf-8") as f:
            data = json.load(f)
    except json.JSONDecodeError as e:
        raise AnalyzerError(f"{path}: malformed JSON ({e.msg} at line {e.lineno})") from e
    if not isinstance(data, dict):
        raise AnalyzerError(f"{path}: expected a JSON object")
    return data


def read_csv(path: Path, required: list[str], numeric: list[str],
              not_null: list[str] = ()) -> pd.DataFrame:
    try:
        # The numeric columns parsed as floats straight away (the same numbers as parsing integers and converting
        # them, without converting ~100 monitor columns one by one). A cell that is no number makes this fail; the
        # general read below then names it.
        return _checked(pd.read_csv(path, keep_default_na=False, na_values=[""], low_memory=False,
                                    dtype=dict.fromkeys(numeric, np.float64)), path, required, numeric, not_null)
    except ValueError:
        pass
    try:
        # Only empty cells are missing values: "NA" or "nan" in a numeric column is an error, not a gap.
        df = pd.read_csv(path, keep_default_na=False, na_values=[""], low_memory=False)
    except pd.errors.EmptyDataError as e:
        raise AnalyzerError(f"{path}: empty file (no header)") from e
    except pd.errors.ParserError as e:
        raise AnalyzerError(f"{path}: malformed CSV ({str(e).strip()})") from e
    return _checked(df, path, required, numeric, not_null)


def _checked(df: pd.DataFrame, path: Path, required: list[str], numeric: list[str], not_null) -> pd.DataFrame:
    df.columns = [str(c).strip() for c in df.columns]
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise AnalyzerError(f"{path}: missing column {missing[0]!r} (header: {','.join(df.columns)})")
    # Columns pandas already parsed as numbers are made float in one call (a monitor has ~100 of them; one
    # assignment per column was most of the time spent loading 100 sub-runs), the others checked cell by cell.
    dtypes = df.dtypes
    present = [c for c in dict.fromkeys(numeric) if c in df.columns]
    parsed = {c for c in present if pd.api.types.is_numeric_dtype(dtypes[c])}
    to_float = {c: float for c in parsed if dtypes[c] != np.float64}
    if to_float:
        df = df.astype(to_float)
    for col in present:
        if col in parsed:
            continue
        # Parsed as text: find the bad cell to report it by column and row.
        text = df[col].astype(str).str.strip().where(df[col].notna(), "")
        values = pd.to_numeric(text.where(text != "", None), errors="coerce")
        bad = values.isna() & (text != "")
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise AnalyzerError(
                f"{path}: column {col!r} has non-numeric value {text.iloc[row]!r} "
                f"(data row {row + 1})")
        df[col] = values.astype(float)
    for col in not_null:
        if col in df.columns and df[col].isna().any():
            row = int(np.flatnonzero(df[col].isna().to_numpy())[0])
            raise AnalyzerError(f"{path}: column {col!r} is empty (data row {row + 1})")
    # pandas keeps each column read in a block of its own; one deep copy puts the floats in one block, so that a
    # reduction over a hundred monitor columns is one call, not one per column.
    return df.copy()


def load_samples(path: Path) -> pd.DataFrame:
    numeric = [c for c in SAMPLE_COLUMNS if c != "type"]
    df = read_csv(path, SAMPLE_COLUMNS, numeric, not_null=[c for c in SAMPLE_REQUIRED_VALUES if c != "type"])
    df["type"] = df["type"].where(df["type"].notna(), "").astype(str).str.strip()
    if (df["type"] == "").any():
        raise AnalyzerError(f"{path}: column 'type' is empty on some row")
    df["phase"] = df["phase"].astype(int)
    return df.sort_values(["phase", "time_ms", "type"], kind="stable").reset_index(drop=True)


SETTINGS_COLUMNS = ["time_ms", "window_ms", "phase", "measured_ms", "ramp_fraction", "rate", "weights"]


def load_settings(path: Path) -> pd.DataFrame:
    df = read_csv(path, SETTINGS_COLUMNS, ["time_ms", "window_ms", "phase", "measured_ms", "ramp_fraction", "rate"],
                   not_null=["time_ms", "phase"])
    df["phase"] = df["phase"].astype(int)
    return df.sort_values(["phase", "time_ms"], kind="stable").reset_index(drop=True)


SETTING_CHANGE_COLUMNS = ["time_ms", "since_ms", "name", "old_value", "new_value"]


def load_setting_changes(path: Path) -> pd.DataFrame:
    """setting-changes.csv (docs/results-format.md): one row per server setting whose value changed between two
    of the monitor's reads; values stay text (an empty cell: the setting was not there)."""
    df = read_csv(path, SETTING_CHANGE_COLUMNS, ["time_ms", "since_ms"], not_null=["time_ms", "since_ms", "name"])
    for c in ("name", "old_value", "new_value"):
        df[c] = df[c].map(lambda v: "" if pd.isna(v) else str(v))
    return df.sort_values("time_ms", kind="stable").reset_index(drop=True)


def load_monitor(path: Path) -> pd.DataFrame:
    with path.open(encoding="utf-8") as f:
        header = [c.strip() for c in f.readline().rstrip("\r\n").split(",")]
    metrics = [c for c in header if c not in MONITOR_KEY_COLUMNS]
    df = read_csv(path, MONITOR_KEY_COLUMNS, ["time_ms", "interval_ms", "phase"] + metrics,
                   not_null=["time_ms"])
    return df.sort_values("time_ms", kind="stable").reset_index(drop=True)


def load_run(path: Path) -> Run:
    path = Path(path)
    if not path.is_dir():
        raise AnalyzerError(f"results directory not found: {path}")
    summary_path = path / "summary.json"
    if not summary_path.is_file():
        raise AnalyzerError(f"{path}: no summary.json (not an ivsbench run folder)")
    summary = _read_json(summary_path)
    samples_path = path / "samples.csv"
    if samples_path.is_file():
        samples = load_samples(samples_path)
    else:
        raise AnalyzerError(f"{path}: no samples.csv")
    monitor_path = path / "monitor.csv"
    monitor = load_monitor(monitor_path) if monitor_path.is_file() else None
    env_path = path / "environment.json"
    environment = _read_json(env_path) if env_path.is_file() else None
    settings_path = path / "settings.csv"
    settings = load_settings(settings_path) if settings_path.is_file() else None
    changes_path = path / "setting-changes.csv"
    setting_changes = load_setting_changes(changes_path) if changes_path.is_file() else None
    return Run(path=path, summary=summary, samples=samples, monitor=monitor, environment=environment,
               settings=settings, setting_changes=setting_changes)


_EPOCH_DIR = re.compile(r"^epoch-(\d+)$")
# A run phase's folder: ``run``, or one of its slices ``run-01``, ``run-02``, ... (experiment/slices).
_RUN_PHASE = re.compile(r"^run(-\d+)?$")


def _find_subruns(path: Path) -> list[SubRun]:
    subs: list[SubRun] = []
    for epoch_dir in sorted(path.iterdir()):
        m = _EPOCH_DIR.match(epoch_dir.name)
        if not m or not epoch_dir.is_dir():
            continue
        for mode_dir in sorted(p for p in epoch_dir.iterdir() if p.is_dir()):
            for phase_dir in sorted(p for p in mode_dir.iterdir() if p.is_dir()):
                summary_path = phase_dir / "summary.json"
                summary = _read_json(summary_path) if summary_path.is_file() else None
                subs.append(SubRun(int(m.group(1)), mode_dir.name, phase_dir.name, phase_dir, summary))
    return subs


def load_experiment(path: Path) -> Experiment:
    path = Path(path)
    if not path.is_dir():
        raise AnalyzerError(f"results directory not found: {path}")
    epochs_path = path / "epochs.csv"
    if not epochs_path.is_file():
        raise AnalyzerError(f"{path}: no epochs.csv (not an experiment folder)")
    numeric = [c for c in EPOCH_COLUMNS if c != "mode"]
    epochs = read_csv(epochs_path, EPOCH_COLUMNS, numeric, not_null=["epoch"])
    epochs["epoch"] = epochs["epoch"].astype(int)
    epochs["mode"] = epochs["mode"].where(epochs["mode"].notna(), "").astype(str).str.strip()
    epochs = epochs.sort_values(["mode", "epoch"], kind="stable").reset_index(drop=True)
    vs_path = path / "value_sizes.csv"
    value_sizes = None
    if vs_path.is_file():
        value_sizes = read_csv(vs_path, VALUE_SIZE_COLUMNS, VALUE_SIZE_COLUMNS,
                                not_null=VALUE_SIZE_COLUMNS)
        value_sizes["epoch"] = value_sizes["epoch"].astype(int)
    by_size_path = path / "latency_by_size.csv"
    by_size = None
    if by_size_path.is_file():
        text = ["mode", "phase", "type"]
        by_size = read_csv(by_size_path, LATENCY_BY_SIZE_COLUMNS,
                            [c for c in LATENCY_BY_SIZE_COLUMNS if c not in text], not_null=["epoch", "count"])
        for c in text:
            by_size[c] = by_size[c].astype(str)
    exp_json = path / "experiment.json"
    config = _read_json(exp_json) if exp_json.is_file() else None
    monitor_epochs = None
    if (path / MONITOR_EPOCHS_FILE).is_file():
        with open(path / MONITOR_EPOCHS_FILE, encoding="utf-8") as f:
            header = [c.strip() for c in f.readline().strip().split(",")]
        monitor_epochs = read_csv(path / MONITOR_EPOCHS_FILE, ["epoch", "mode"], [c for c in header if c != "mode"],
                                  not_null=["epoch", "mode"])
        monitor_epochs["epoch"] = monitor_epochs["epoch"].astype(int)
        monitor_epochs["mode"] = monitor_epochs["mode"].astype(str)
    compact = _read_json(path / COMPACT_FILE) if (path / COMPACT_FILE).is_file() else None
    return Experiment(path=path, epochs=epochs, value_sizes=value_sizes, config=config,
                      subruns=_find_subruns(path), latency_by_size=by_size, monitor_epochs=monitor_epochs,
                      compact=compact)


def load_any(path: Path) -> Run | Experiment:
    """An experiment if the folder has epochs.csv, otherwise a run."""
    path = Path(path)
    if not path.is_dir():
        raise AnalyzerError(f"results directory not found: {path}")
    if (path / "epochs.csv").is_file():
        return load_experiment(path)
    return load_run(path)
