"""``browse``: the catalog of a results folder (rows = folders, kinds, headline numbers), its per-folder cache (a
changed folder is read again, the others not), the page's URL-driven filters and sort in headless Chromium over
>= 200 generated runs, and ``--serve``'s compare of a picked set."""
from __future__ import annotations

import json
import re
import shutil
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import synth
from ivs_analyzer.cli import main
from ivs_analyzer.load import catalog as cat
from ivs_analyzer.report import browse
from test_browser import _chromium, _run
from test_sweep import write_sweep
from test_tenants import _write as write_tenants

MARIADB_RUNS = 150
POSTGRES_RUNS = 60
ROW = re.compile(r'<tr class="row[^"]*"([^>]*)>')


def _run_folder(path: Path, tput: float, product: str = "MariaDB", engine: str = "InnoDB") -> Path:
    """A 5-window run at exactly `tput` ops/s (no noise): its summary throughput is `tput`."""
    return synth.write_run(path, windows=5, step_at=None, late_step_at=None, noise=0.0, tput_before=tput,
                           with_monitor=False, product=product, engine=engine, warmup_windows=1)


def _tree(root: Path, mariadb: int, postgres: int) -> dict[str, str]:
    """Runs under two hosts' folders plus one of each other kind, a broken run and a compare report (no row).
    Returns {relative path: kind} of the folders that must be rows."""
    kinds = {}
    for i in range(mariadb):
        rel = f"hostA/ycsbivs_2026-01-{1 + i % 28:02d}_00-00-{i % 60:02d}_{i}"
        _run_folder(root / rel, 1000 + i)
        kinds[rel] = "run"
    for i in range(postgres):
        rel = f"hostB/pg/ycsbivs_{i}"
        _run_folder(root / rel, 500 + i, product="PostgreSQL", engine="")
        kinds[rel] = "run"
    synth.write_experiment(root / "exp" / "ycsbivs-experiment_2026-02-01_10-00-00", epochs=2)
    kinds["exp/ycsbivs-experiment_2026-02-01_10-00-00"] = "experiment"
    sweep = write_sweep(root / "sweeps" / "ycsbivs-sweep_1", "MARIADB", {1: (100, 110), 2: (80, 90)})
    _run_folder(sweep / "t1-n1000-trial1", 10)
    kinds["sweeps/ycsbivs-sweep_1"] = "sweep"
    trials = root / "ycsbivs-trials_2026-03-01_00-00-00"
    synth.write_experiment(trials / "ycsbivs-experiment_a", epochs=3, seed=5)
    synth.write_experiment(trials / "ycsbivs-experiment_b", epochs=3, seed=6)
    (trials / "trials.csv").write_text("epoch,mode,trials\n0,main,2\n")
    kinds[trials.name] = "trials"
    write_tenants(root / "tenants_2026-04-01_00-00-00")
    kinds["tenants_2026-04-01_00-00-00"] = "tenants"
    broken = root / "broken_run"
    broken.mkdir()
    (broken / "summary.json").write_text("{not json")
    kinds["broken_run"] = "run"
    (root / "compare-report").mkdir()
    (root / "compare-report" / "report.html").write_text("<html></html>")
    return kinds


@pytest.fixture(scope="module")
def many_template(tmp_path_factory):
    """The >= 200-folder tree, written once per module; no test reads or writes it: each gets its own copy."""
    root = tmp_path_factory.mktemp("results")
    return root, _tree(root, MARIADB_RUNS, POSTGRES_RUNS)


@pytest.fixture
def many(many_template, tmp_path):
    """A copy of the tree for one test: what a test changes (browse caches, rewritten runs) no other test sees."""
    template, kinds = many_template
    root = tmp_path / "results"
    shutil.copytree(template, root)
    return root, dict(kinds)


@pytest.fixture
def small(tmp_path):
    return tmp_path, _tree(tmp_path, 3, 2)


def test_rows_are_the_folders_with_their_kinds(small):
    root, kinds = small
    (root / "hostA" / "ycsbivs_2026-01-01_00-00-00_0" / "findings.json").write_text(json.dumps([{}, {}, {}]))
    rows = {r["path"]: r for r in cat.catalog(root)}
    assert {p: r["kind"] for p, r in rows.items()} == kinds
    run = rows["hostA/ycsbivs_2026-01-02_00-00-01_1"]
    assert run["throughput"] == 1001.0 and run["p99_us"] == 500.0  # synth: p99 = 2.5 x 200 µs
    assert (run["benchmark"], run["database"], run["version"]) == ("ycsbivs", "MariaDB/InnoDB", "10.11.6")
    assert run["date"] == "2025-11-22 20:06:40"  # synth.START_MS
    assert rows["hostA/ycsbivs_2026-01-01_00-00-00_0"]["findings"] == 3 and run["findings"] is None
    assert rows["hostB/pg/ycsbivs_1"]["database"] == "PostgreSQL"
    exp = rows["exp/ycsbivs-experiment_2026-02-01_10-00-00"]
    assert (exp["epochs"], exp["modes"]) == (2, sorted(["main", "clean", "average-baseline", "spread-baseline"]))
    assert exp["database"] == "MariaDB/InnoDB"
    # synth.write_experiment: main's run latency 150 + 10 e µs (+ N(0, 3)), throughput 1e6 / latency, p99 3 x it
    assert 1e6 / exp["throughput"] == pytest.approx(160, abs=12) and exp["p99_us"] == pytest.approx(480, abs=36)
    assert "main's epoch 1: " in exp["headline"]
    assert rows["ycsbivs-trials_2026-03-01_00-00-00"]["trials"] == 2
    assert rows["ycsbivs-trials_2026-03-01_00-00-00"]["epochs"] == 3
    sweep = rows["sweeps/ycsbivs-sweep_1"]
    assert sweep["points"] == 4 and sweep["throughput"] == pytest.approx(1000 / 80 * 1000)
    assert rows["tenants_2026-04-01_00-00-00"]["tenants"] == 2
    assert "malformed JSON" in rows["broken_run"]["error"]


def test_only_changed_folders_are_read_again(small, monkeypatch):
    root, kinds = small
    read = []
    original = cat.summarise
    monkeypatch.setattr(cat, "summarise", lambda path, kind: read.append(path.relative_to(root).as_posix())
                        or original(path, kind))
    cat.catalog(root)
    assert sorted(read) == sorted(kinds)
    assert all((root / p / cat.CACHE_FILE).is_file() for p in kinds)
    read.clear()
    stats = {}
    cat.catalog(root, stats)
    assert read == [] and stats == {"read": 0, "cached": len(kinds)}

    changed = "hostA/ycsbivs_2026-01-03_00-00-02_2"
    _run_folder(root / changed, 4242.0)  # summary.json rewritten: another size
    report = "hostB/pg/ycsbivs_0"
    (root / report / "findings.json").write_text("[{}]")  # a report appeared
    sub = root / "exp/ycsbivs-experiment_2026-02-01_10-00-00/epoch-000/average-baseline/run/summary.json"
    # the experiment's database comes from its first sub-run (as Experiment.label's)
    sub.write_text(sub.read_text().replace('"10.11.6"', '"10.11.7"'))
    rows = {r["path"]: r for r in cat.catalog(root)}
    assert sorted(read) == sorted([changed, report, "exp/ycsbivs-experiment_2026-02-01_10-00-00"])
    assert rows[changed]["throughput"] == 4242.0 and rows[report]["findings"] == 1
    assert rows["exp/ycsbivs-experiment_2026-02-01_10-00-00"]["version"] == "10.11.7"


def test_a_rebuild_of_200_runs_reads_only_what_changed_and_its_time_is_printed(many, capsys):
    root, kinds = many
    for f in root.rglob(cat.CACHE_FILE):
        f.unlink()
    out = root.parent / (root.name + "-page-timing")
    timings = {}
    for label in ("first", "incremental"):
        stats = {}
        t0 = time.perf_counter()
        browse.build(root, out, stats)
        timings[label] = (time.perf_counter() - t0, dict(stats))
    one = root / "hostB/pg/ycsbivs_7"
    _run_folder(one, 777.0, product="PostgreSQL", engine="")
    stats = {}
    t0 = time.perf_counter()
    browse.build(root, out, stats)
    timings["one changed"] = (time.perf_counter() - t0, stats)
    assert timings["first"][1] == {"read": len(kinds), "cached": 0}
    assert timings["incremental"][1] == {"read": 0, "cached": len(kinds)}
    assert stats == {"read": 1, "cached": len(kinds) - 1}
    with capsys.disabled():
        print(f"\nbrowse over {len(kinds)} folders ({MARIADB_RUNS + POSTGRES_RUNS} runs): " + ", ".join(
            f"{k} {t:.2f} s ({s['read']} read)" for k, (t, s) in timings.items()))


def _rows_shown(exe, page: Path, fragment: str) -> tuple[list[str], str]:
    """(data-path of every row the page's script left visible, in order; the dumped DOM) for page#fragment."""
    dom = _run(exe, "--dump-dom", page.resolve().as_uri() + fragment).stdout
    assert 'id="shown"' in dom, dom[:300]
    shown = []
    for attrs in ROW.findall(dom):
        if not re.search(r'\shidden(=|\s|$)', attrs):
            shown.append(re.search(r'data-path="([^"]*)"', attrs).group(1))
    return shown, dom


def test_url_filters_and_sort_in_chromium_over_200_runs(many, tmp_path):
    exe = _chromium()
    root, kinds = many
    page = browse.build(root, tmp_path / "page")
    every, dom = _rows_shown(exe, page, "")
    assert sorted(every) == sorted(kinds)
    assert re.search(rf'data-shown="{len(kinds)}"', dom)
    postgres, dom = _rows_shown(exe, page, "#q=postgresql")
    assert len(postgres) == POSTGRES_RUNS and all(p.startswith("hostB/pg/") for p in postgres)
    assert re.search(rf'data-shown="{POSTGRES_RUNS}"', dom)
    both, _ = _rows_shown(exe, page, "#q=hostA%20ycsbivs_2026-01-05")  # every word must match
    assert sorted(both) == sorted(p for p in kinds if p.startswith("hostA/ycsbivs_2026-01-05_"))
    mariadb, _ = _rows_shown(exe, page, "?kind=run#database=MariaDB%2FInnoDB")
    assert len(mariadb) == MARIADB_RUNS and all(p.startswith("hostA/") for p in mariadb)
    experiments, _ = _rows_shown(exe, page, "#kind=experiment")
    assert experiments == ["exp/ycsbivs-experiment_2026-02-01_10-00-00"]
    fastest, _ = _rows_shown(exe, page, "#kind=run&sort=throughput&desc=1")
    assert fastest[:2] == [f"hostA/ycsbivs_2026-01-{1 + i % 28:02d}_00-00-{i % 60:02d}_{i}"
                           for i in (MARIADB_RUNS - 1, MARIADB_RUNS - 2)]
    assert fastest[-1] == "broken_run"  # no throughput: last either way


def test_picked_rows_give_the_compare_command(small, tmp_path):
    exe = _chromium()
    root, _ = small
    out = tmp_path / "page"
    page = browse.build(root, out)
    picked = ["hostA/ycsbivs_2026-01-01_00-00-00_0", "hostB/pg/ycsbivs_1"]
    _, dom = _rows_shown(exe, page, "#pick=" + "&pick=".join(picked))
    command = re.search(r'<div id="compare-command">([^<]*)</div>', dom).group(1)
    key = browse.compare_key(picked)
    assert command == (f"python -m ivs_analyzer compare {root.resolve()}/{picked[0]} {root.resolve()}/{picked[1]}"
                       f" -o {out.resolve()}/compare/{key}")
    assert command == browse.command_for(root, out, picked)


def test_compare_key_is_fnv1a():
    # FNV-1a 32-bit reference values (the FNV authors' test vectors)
    assert browse.compare_key([""]) == "811c9dc5"
    assert browse.compare_key(["a"]) == "e40c292c"
    assert browse.compare_key(["foobar"]) == "bf9cf968"
    assert browse.compare_key(["b", "a"]) == browse.compare_key(["a", "b"])


def test_serve_writes_the_compare_report_of_a_picked_set(small, tmp_path):
    root, _ = small
    out = tmp_path / "served"
    server = browse.make_server(root, out, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with urllib.request.urlopen(server.page_url, timeout=30) as r:
            assert r.status == 200 and b'id="runs"' in r.read()
        picked = ["hostA/ycsbivs_2026-01-01_00-00-00_0", "hostB/pg/ycsbivs_1"]
        base = server.page_url.rsplit("/", 1)[0]
        with urllib.request.urlopen(f"{base}/compare?d={picked[0]}&d={picked[1]}", timeout=120) as r:
            assert r.status == 200 and r.url.endswith(f"/compare/{browse.compare_key(picked)}/report.html")
            html = r.read().decode()
        assert "Comparison: MariaDB/InnoDB vs PostgreSQL" in html
        assert json.loads((out / "compare" / browse.compare_key(picked) / "picked.json").read_text()) == picked
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(f"{base}/compare?d={picked[0]}&d=../../etc", timeout=30)
        assert e.value.code == 400
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(f"{base}/compare?d={picked[0]}&d=tenants_2026-04-01_00-00-00", timeout=30)
        assert e.value.code == 400
    finally:
        server.shutdown()
        server.server_close()
    # The page rebuilt afterwards links the written report directly.
    browse.build(root, out)
    assert json.loads(re.search(r'id="browse-data"[^>]*>([^<]*)<', (out / "index.html").read_text()).group(1))[
        "existing"] == [browse.compare_key(picked)]


def test_cli_browse_and_its_errors(small, tmp_path, capsys):
    root, kinds = small
    assert main(["browse", str(root)]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == str(root / "index.html")
    assert f"{len(kinds)} folders ({len(kinds)} read, 0 cached)" in err
    for argv, words in ([["browse", str(tmp_path / "missing")], "results directory not found"],
                        [["browse", str(root), "--port", "9000"], "--port 9000: only with --serve"],
                        [["browse", str(root), "--serve", "--port", "70000"], "--port 70000: not a port"],
                        [["browse", str(root), "-o", str(root / "broken_run" / "summary.json")], "not a folder"],
                        [["browse", str(root / "hostB"), "--serve", "--port", "0", "-o", str(root / "elsewhere")],
                         "with --serve the page must be inside RESULTS_DIR"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1, err


def test_a_run_folder_itself_is_one_row(tmp_path):
    run = _run_folder(tmp_path / "ycsbivs_2026-05-01_00-00-00", 321.0)
    rows = cat.catalog(run)
    assert [(r["path"], r["kind"], r["throughput"]) for r in rows] == [(".", "run", 321.0)]
    assert main(["browse", str(run)]) == 0 and 'href="."' in (run / "index.html").read_text()
