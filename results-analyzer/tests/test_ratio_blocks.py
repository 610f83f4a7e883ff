"""The per-block mode ratios of docs/repro (scripts/bench/lib/ratio_blocks.py) on a synthetic run with a known
answer: each block's ratio found where it was put, from epochs.csv and from adjacent slices, and each mode's
starting state and memtable share given per block as the medians that were put there."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "bench" / "lib" / "ratio_blocks.py"
sys.path.insert(0, str(SCRIPT.parent))
import ratio_blocks  # noqa: E402

sys.path.pop(0)

RATIOS = {1: 1.20, 2: 1.00}  # main/clean in epochs 1-20 and 21-40


def _run(folder: Path, epochs: int = 40, rounds: int = 4, seed: int = 3) -> None:
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    rows, slices, monitor, state, level = [], [], [], [], 0.0
    for e in range(1, epochs + 1):
        ratio = RATIOS[(e - 1) // 20 + 1]
        level = 0.5 * level + rng.normal(0, 0.04)
        base = 100 * (1 + e / 20) * np.exp(level)
        lat = {"main": [], "clean": []}
        for r in range(1, rounds + 1):
            for mode, k in (("main", ratio), ("clean", 1.0)):
                v = base * k * np.exp(rng.normal(0, 0.02))
                lat[mode].append(v)
                slices.append({"epoch": e, "round": r, "mode": mode, "run_lat_avg_us": v})
        for mode in lat:
            rows.append({"epoch": e, "mode": mode, "run_lat_avg_us": float(np.mean(lat[mode]))})
            # clean answers every read from its memtable in the first block, a quarter of them in the second
            share = 1.0 if mode == "clean" and e <= 20 else 0.25 if mode == "clean" else 0.1
            monitor.append({"epoch": e, "mode": mode, "db.Rocksdb_memtable_hit/op": share,
                            "db.Rocksdb_memtable_miss/op": 1 - share})
            state.append({"epoch": e, "mode": mode, "name": "rocksdb.L0_files", "value": 0 if mode == "clean" else 2 * e})
    pd.DataFrame(rows).to_csv(folder / "epochs.csv", index=False)
    pd.DataFrame(slices).to_csv(folder / "slices.csv", index=False)
    pd.DataFrame(monitor).to_csv(folder / "monitor_epochs.csv", index=False)
    pd.DataFrame(state).to_csv(folder / "engine_state.csv", index=False)


def _cells(text: str, first: str, second: str) -> list[str]:
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) > 2 and cells[0] == first and cells[1] == second:
            return cells
    raise AssertionError(f"no row {first} | {second} in:\n{text}")


def _interval(cell: str) -> tuple[float, float, float]:
    est, rest = cell.split(" (", 1)
    low, high = rest.split(")", 1)[0].split("-")
    return float(est), float(low), float(high)


def test_each_block_gives_the_ratio_put_in_it_from_epochs_and_from_slices(tmp_path):
    _run(tmp_path)
    text = ratio_blocks.table(tmp_path, 20, None)
    for (first, last), ratio in zip(((1, 20), (21, 40)), RATIOS.values()):
        cells = _cells(text, f"{first}-{last}", "main/clean")
        for cell in cells[2:4]:
            est, low, high = _interval(cell)
            assert low < ratio < high, (first, cell)
            assert abs(est - ratio) < 0.03, (first, cell)
            assert "n 20" in cell, cell


def test_where_the_reads_were_answered_is_the_median_put_in_each_block(tmp_path):
    _run(tmp_path)
    text = ratio_blocks.table(tmp_path, 20, None)
    assert _cells(text, "1-20", "clean")[2] == "1.00"
    assert _cells(text, "21-40", "clean")[2] == "0.25"
    assert _cells(text, "21-40", "main")[2] == "0.10"
    assert _cells(text, "1-20", "main")[3] == "21"  # L0 files: the median of 2, 4, ..., 40
    assert _cells(text, "21-40", "clean")[3] == "0"


def test_blocks_are_fixed_from_epoch_one_whatever_the_data():
    assert ratio_blocks.blocks(list(range(1, 101)), 20) == [(1, 20), (21, 40), (41, 60), (61, 80), (81, 100)]
    assert ratio_blocks.blocks(list(range(1, 13)), 20) == [(1, 20)]
    assert ratio_blocks.blocks([5, 45], 20) == [(1, 20), (41, 60)]


def test_default_pairs_put_main_over_every_other_mode_then_clean_over_average():
    assert ratio_blocks.default_pairs(["main", "clean", "average-baseline", "spread-baseline"]) == [
        ("main", "clean"), ("main", "average-baseline"), ("main", "spread-baseline"), ("clean", "average-baseline")]
    assert ratio_blocks.default_pairs(["clean", "main"]) == [("main", "clean")]


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    _run(tmp_path / "run")
    for args, names in ((["--block", "2"], "--block 2"), (["--pairs", "main"], "--pairs 'main'"),
                        (["--pairs", "main/nosuch"], "nosuch")):
        out = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "run"), *args], capture_output=True,
                             text=True, env={"PYTHONPATH": str(REPO / "results-analyzer" / "src"), "PATH": ""})
        assert out.returncode == 2, (args, out.stderr)
        assert names in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert not (tmp_path / "run" / "blocks.md").exists()
    out = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "empty")], capture_output=True, text=True,
                         env={"PYTHONPATH": str(REPO / "results-analyzer" / "src"), "PATH": ""})
    assert out.returncode == 2 and "no epochs.csv" in out.stderr, out.stderr
