"""The drift check's table (scripts/bench/lib/drift_table.py) on synthetic runs with a known answer: a ratio
found where it was put, conditions that agree when they share it, and disagree when the loaded one is bent."""
import sys
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts" / "bench" / "lib"))
import drift_table as drift  # noqa: E402

sys.path.pop(0)


def _run(folder: Path, ratio: float, seed: int, epochs: int = 30, rounds: int = 4) -> None:
    """epochs.csv and slices.csv of a main/clean run: clean's latency grows over the epochs with AR(1) noise;
    main's is `ratio` times clean's, each slice with its own noise."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True)
    rows, slices, level = [], [], 0.0
    for e in range(1, epochs + 1):
        level = 0.6 * level + rng.normal(0, 0.05)
        base = 100 * (1 + e / 20) * np.exp(level)
        lat = {"main": [], "clean": []}
        for r in range(1, rounds + 1):
            for mode, k in (("main", ratio), ("clean", 1.0)):
                v = base * k * np.exp(rng.normal(0, 0.03))
                lat[mode].append(v)
                slices.append({"epoch": e, "round": r, "mode": mode, "run_lat_avg_us": v})
        for mode in lat:
            rows.append({"epoch": e, "mode": mode, "run_lat_avg_us": float(np.mean(lat[mode]))})
    pd.DataFrame(rows).to_csv(folder / "epochs.csv", index=False)
    pd.DataFrame(slices).to_csv(folder / "slices.csv", index=False)


def test_the_ratio_put_in_is_found_by_both_estimates(tmp_path):
    _run(tmp_path / "idle", 1.10, seed=1)
    e = drift.epoch_ratio(pd.read_csv(tmp_path / "idle" / "epochs.csv"), "main", "clean")
    s = drift.slice_ratio(pd.read_csv(tmp_path / "idle" / "slices.csv"), "main", "clean")
    for r in (e, s):
        assert np.exp(r["low"]) < 1.10 < np.exp(r["high"]), r
        assert abs(np.exp(r["estimate"]) - 1.10) < 0.02, r


def test_conditions_agree_on_one_ratio_and_not_on_a_bent_one(tmp_path):
    _run(tmp_path / "same" / "idle", 1.05, seed=2)
    _run(tmp_path / "same" / "loaded", 1.05, seed=3)
    _run(tmp_path / "bent" / "idle", 1.05, seed=4)
    _run(tmp_path / "bent" / "loaded", 1.38, seed=5)
    same = drift.table(tmp_path / "same", ["main", "clean"], "cmd")
    bent = drift.table(tmp_path / "bent", ["main", "clean"], "cmd")
    assert "| main/clean | slices |" in same and "| yes |" in same and "| no |" not in same, same
    assert "| no |" in bent and "| yes |" not in bent, bent


def test_a_missing_condition_is_said_not_compared(tmp_path):
    _run(tmp_path / "idle", 1.0, seed=6)
    text = drift.table(tmp_path, ["main", "clean"], "cmd")
    assert "| loaded | - | not run |" in text
    assert "agree" in text and "| main/clean | epochs |" not in text
