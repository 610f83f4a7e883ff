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


def test_default_pairs_with_main_maintained_add_it_against_clean():
    assert ratio_blocks.default_pairs(["main", "clean", "main-maintained"]) == [
        ("main", "clean"), ("main", "main-maintained"), ("main-maintained", "clean")]
    assert ratio_blocks.default_pairs(["main", "main-maintained"]) == [("main", "main-maintained")]


def _maintenance(folder: Path, epochs: int = 40) -> None:
    """maintenance.csv as mode main-maintained writes it on MyRocks: per epoch the copy's and the compaction's
    milliseconds, then a row per figure, before and after (a level absent on one side left empty)."""
    rows = []
    for e in range(1, epochs + 1):
        head = {"epoch": e, "copy_ms": 1000 + 20 * e, "maintenance_ms": 500 if e <= 20 else 800,
                "statement": "SET GLOBAL rocksdb_compact_cf = 'default'"}
        for name, before, after in (("rocksdb.table_sst_entries", 1000 + e, 1000), ("rocksdb.L0_files", e % 3 + 1, None),
                                    ("rocksdb.L0_bytes", 300.0, None), ("rocksdb.L1_bytes", None, 1000.0 * e),
                                    ("rocksdb.L2_bytes", 200.0, None)):
            rows.append({**head, "name": name, "before": before, "after": after})
    pd.DataFrame(rows).to_csv(folder / "maintenance.csv", index=False)


def test_the_maintenance_cost_is_the_median_put_in_each_block(tmp_path):
    _run(tmp_path)
    _maintenance(tmp_path)
    text = ratio_blocks.table(tmp_path, 20, None)
    assert "rocksdb_compact_cf" in text
    header = next(line for line in text.splitlines() if line.startswith("| epochs | epochs with maintenance"))
    titles = [c.strip() for c in header.strip("|").split("|")]
    first, second = _cells(text, "1-20", "20"), _cells(text, "21-40", "20")
    col = {t: i for i, t in enumerate(titles)}
    # copy: median of 1020, 1040, ..., 1400 ms = 1210 ms, then 1610 ms; compaction 0.5 s, then 0.8 s
    assert first[col["copy s"]] == "1.2" and second[col["copy s"]] == "1.6"
    assert first[col["maintenance s"]] == "0.5" and second[col["maintenance s"]] == "0.8"
    assert first[col["main's extend phase s"]] == "-", "the synthetic epochs.csv has no extend phase"
    # entries: median of 1001..1020 before is 1010.5 (printed whole), all 1000 after
    assert first[col["table's SST entries"]] in ("1,010 -> 1,000", "1,011 -> 1,000")
    # L0 empty after a full compaction (absent after = 0); SST bytes: 500 before, 1000 e after (median e 10.5)
    assert first[col["L0 files"]].endswith("-> 0")
    assert first[col["SST bytes, all levels"]] == "500 -> 10,500"
    assert second[col["SST bytes, all levels"]] == "500 -> 30,500"


def test_the_maintenance_is_set_beside_mains_extend_phase(tmp_path):
    _run(tmp_path)
    _maintenance(tmp_path)
    epochs = pd.read_csv(tmp_path / "epochs.csv")
    main = epochs["mode"] == "main"
    # 10,000 extends at 1,000/s in epochs 1-20 (10 s), at 500/s after (20 s); clean has none
    epochs["extend_ops"] = np.where(main, 10_000, np.nan)
    epochs["extend_throughput"] = np.where(main, np.where(epochs["epoch"] <= 20, 1000.0, 500.0), np.nan)
    epochs.to_csv(tmp_path / "epochs.csv", index=False)
    text = ratio_blocks.table(tmp_path, 20, None)
    header = next(line for line in text.splitlines() if line.startswith("| epochs | epochs with maintenance"))
    col = {t.strip(): i for i, t in enumerate(header.strip("|").split("|"))}
    assert _cells(text, "1-20", "20")[col["main's extend phase s"]] == "10.0"
    assert _cells(text, "21-40", "20")[col["main's extend phase s"]] == "20.0"


def test_no_maintenance_table_without_maintenance_csv(tmp_path):
    _run(tmp_path)
    assert "What the maintenance cost" not in ratio_blocks.table(tmp_path, 20, None)
