"""Sweeps: sweep.csv folders, the runtime spread, and the two-way ANOVA checked against a hand computation and a textbook example."""
from pathlib import Path

import pandas as pd
import pytest
from scipy import stats

from ivs_analyzer.cli import main
from ivs_analyzer.explain import anova
from ivs_analyzer.load.results import AnalyzerError

HEADER = ("target_type,benchmark,phase,terminals,count,trial,runtime_ms,operations,throughput,goodput,"
          "latency_p50_us,latency_p95_us,latency_p99_us,missed,aborted,errors,interrupted,folder")

# A balanced 2 x 2 design with 2 trials per cell (database X/Y, threads 1/2), small enough to do by hand:
#   cell means X1 = 3, X2 = 7, Y1 = 5, Y2 = 13; grand mean 7
#   database means 5, 9      -> SS_database = 2 trials * 2 threads * ((5-7)^2 + (9-7)^2)   = 32, df 1
#   threads means 4, 10      -> SS_threads  = 2 trials * 2 dbs     * ((4-7)^2 + (10-7)^2)  = 72, df 1
#   cell - row - col + grand = +1, -1, -1, +1 -> SS_interaction = 2 * 4 = 8,                  df 1
#   every trial is 1 from its cell mean      -> SS_residual = 8, df 8 - 4 = 4, MS_residual = 2
#   F = 32/2 = 16, 72/2 = 36, 8/2 = 4 on (1, 4) degrees of freedom.
TEXTBOOK = {("X", 1): (2, 4), ("X", 2): (6, 8), ("Y", 1): (4, 6), ("Y", 2): (12, 14)}


def write_sweep(folder: Path, database: str, runtimes: dict[int, tuple], count: int = 1000,
                extra: list[str] | None = None) -> Path:
    folder.mkdir(parents=True)
    rows = [HEADER]
    for threads, values in runtimes.items():
        for trial, runtime in enumerate(values, start=1):
            rows.append(f"{database},ycsbivs,workload_a,{threads},{count},{trial},{runtime},{count},"
                        f"{count / runtime * 1000},{count / runtime * 1000},10,20,30,0,0,0,false,"
                        f"t{threads}-n{count}-trial{trial}")
    rows += extra or []
    (folder / "sweep.csv").write_text("\n".join(rows) + "\n")
    return folder


def textbook_frame() -> pd.DataFrame:
    rows = [{"database": db, "terminals": t, "runtime_ms": float(v)}
            for (db, t), values in TEXTBOOK.items() for v in values]
    return pd.DataFrame(rows)


def test_two_way_anova_matches_the_hand_computation():
    table = anova.anova(textbook_frame())
    assert list(table.index) == ["database", "threads", "database:threads", "Residual"]
    assert table["SS"].tolist() == pytest.approx([32, 72, 8, 8])
    assert table["df"].tolist() == pytest.approx([1, 1, 1, 4])
    assert table["F"].tolist()[:3] == pytest.approx([16, 36, 4])
    # p = upper tail of F(1, 4); e.g. F = 16 is t = 4 on 4 df, two-sided p = 0.0161.
    assert table["p"].tolist()[:3] == pytest.approx([stats.f.sf(f, 1, 4) for f in (16, 36, 4)])
    assert table["p"].iloc[0] == pytest.approx(0.01613, abs=1e-5)


# Montgomery, Design and Analysis of Experiments, Example 5.1 (the battery design experiment): life in hours of
# three plate materials at three temperatures (15, 70, 125 F), four batteries per cell. The book's ANOVA table:
#   material     SS 10,683.72  df 2   F  7.91  p 0.0020
#   temperature  SS 39,118.72  df 2   F 28.97  p < 0.0001
#   interaction  SS  9,613.78  df 4   F  3.56  p 0.0186
#   error        SS 18,230.75  df 27
# Here material plays the database and temperature the thread count.
BATTERY = {
    ("1", 15): (130, 155, 74, 180), ("1", 70): (34, 40, 80, 75), ("1", 125): (20, 70, 82, 58),
    ("2", 15): (150, 188, 159, 126), ("2", 70): (136, 122, 106, 115), ("2", 125): (25, 70, 58, 45),
    ("3", 15): (138, 110, 168, 160), ("3", 70): (174, 120, 150, 139), ("3", 125): (96, 104, 82, 60),
}


# Threads as a number (the NoSQL-runtime paper's Table 9: 1 degree of freedom). 2 databases x threads 1, 2, 3 x 2
# trials, each trial 1 from its cell mean; cell means X 10, 14, 18 (a straight line), Y 20, 20, 26; grand mean 18.
#   database (orthogonal to threads, balanced): 6 trials * ((14-18)^2 + (22-18)^2)           = 192, df 1
#   threads, centred -1, 0, +1: Sxx = 8 (4 trials at -1, 4 at +1), Sxy = 2 * ((18-10) + (26-20)) = 28
#                                SS = 28^2 / 8                                                 =  98, df 1
#   per-database slopes: X Sxy 16, Sxx 4 -> 64; Y Sxy 12 -> 36; 64 + 36 - 98 = the interaction =  2, df 1
#   residual: within cells 12 * 1 = 12, plus Y's means about its line 19, 22, 25: 2 * (1 + 4 + 1) = 12
#                                                                                         -> 24, df 12 - 4 = 8
#   F = 192/3 = 64, 98/3, 2/3. Lack of fit against the categorical model (residual 12 on 6 df): the 12 its
#   line misses on 8 - 6 = 2 df, F = (12/2) / (12/6) = 3, p = (1 + 2*3/6)^(-6/2) = 0.125 (F(2, 6) upper tail).
LINES = {("X", 1): (9, 11), ("X", 2): (13, 15), ("X", 3): (17, 19),
         ("Y", 1): (19, 21), ("Y", 2): (19, 21), ("Y", 3): (25, 27)}


def lines_frame() -> pd.DataFrame:
    return pd.DataFrame([{"database": db, "terminals": t, "runtime_ms": float(v)}
                         for (db, t), values in LINES.items() for v in values])


def test_numeric_threads_anova_matches_the_hand_computation():
    table = anova.anova(lines_frame(), model="numeric")
    assert list(table.index) == ["database", "threads", "database:threads", "Residual"]
    assert table["SS"].tolist() == pytest.approx([192, 98, 2, 24])
    assert table["df"].tolist() == pytest.approx([1, 1, 1, 8])
    assert table["F"].tolist()[:3] == pytest.approx([64, 98 / 3, 2 / 3])
    assert table["p"].tolist()[:3] == pytest.approx([stats.f.sf(f, 1, 8) for f in (64, 98 / 3, 2 / 3)])
    # the categorical model on the same data: thread means 15, 17, 22 -> SS 4 * (9 + 1 + 16) = 104 on 2 df
    categorical = anova.anova(lines_frame())
    assert categorical["SS"].tolist() == pytest.approx([192, 104, 8, 12])
    assert categorical["df"].tolist() == pytest.approx([1, 2, 2, 6])
    lof = anova.lack_of_fit(lines_frame())
    assert (lof["SS"], lof["df"], lof["F"], lof["df_resid"]) == pytest.approx((12, 2, 3, 6))
    assert lof["p"] == pytest.approx(0.125)
    # two thread counts: the straight line is the categorical model, nothing to test
    assert anova.lack_of_fit(lines_frame()[lambda f: f["terminals"] < 3]) is None


def test_two_way_anova_reproduces_the_textbook_battery_example():
    frame = pd.DataFrame([{"database": m, "terminals": t, "runtime_ms": float(v)}
                          for (m, t), values in BATTERY.items() for v in values])
    table = anova.anova(frame)
    assert list(table.index) == ["database", "threads", "database:threads", "Residual"]
    assert table["SS"].tolist() == pytest.approx([10683.72, 39118.72, 9613.78, 18230.75], abs=0.01)
    assert table["df"].tolist() == pytest.approx([2, 2, 4, 27])
    assert table["F"].tolist()[:3] == pytest.approx([7.91, 28.97, 3.56], abs=0.005)
    assert table["p"].iloc[0] == pytest.approx(0.0020, abs=0.00005)
    assert table["p"].iloc[1] < 0.0001
    assert table["p"].iloc[2] == pytest.approx(0.0186, abs=0.00005)


def test_reading_names_the_significant_factors():
    lines = anova.reading(anova.anova(textbook_frame()))
    assert lines[0].startswith("the database: significant at 0.05")
    assert lines[1].startswith("the number of threads: significant at 0.05")
    assert lines[2].startswith("the interaction (the effect of threads differs between databases): not significant")


def test_one_database_gives_the_one_way_table():
    frame = textbook_frame()
    table = anova.anova(frame[frame["database"] == "X"])
    assert list(table.index) == ["threads", "Residual"]
    # X only: means 3 and 7, grand 5 -> SS = 2 * (4 + 4) = 16; residual 4 on 2 df -> F = 8.
    assert table["SS"].tolist() == pytest.approx([16, 4])
    assert table["F"].iloc[0] == pytest.approx(8)


def test_one_trial_per_cell_is_refused():
    frame = textbook_frame().groupby(["database", "terminals"]).head(1)
    with pytest.raises(AnalyzerError, match="at least 2 trials"):
        anova.anova(frame)


def test_report_over_two_databases(tmp_path):
    a = write_sweep(tmp_path / "sqlite", "SQLITE", {1: (2, 4), 2: (6, 8)})
    # An interrupted point is left out: its runtime is shorter than a full run.
    b = write_sweep(tmp_path / "maria", "MARIADB", {1: (4, 6), 2: (12, 14)},
                    extra=["MARIADB,ycsbivs,workload_a,2,1000,3,1,1,1,1,1,1,1,0,0,0,true,t2-n1000-trial3"])
    out = tmp_path / "out"
    assert main(["sweep", str(a), str(b), "-o", str(out)]) == 0
    text = (out / "sweep-report.md").read_text()
    assert "Two-way ANOVA with interaction" in text
    assert "| database | 32 | 1 | 16 |" in text
    assert "threads as a number (1 degree of freedom" in text
    assert "The reading uses the categorical model" in text and "same fit" in text
    assert "| database | terminals | mean ms | min ms | max ms | trials |" in text
    assert (out / "runtime_n1000.png").stat().st_size > 0
    anova = pd.read_csv(out / "anova.csv")
    assert anova["model"].tolist() == ["categorical"] * 4 + ["numeric"] * 4
    assert anova["source"].tolist() == ["database", "threads", "database:threads", "Residual"] * 2
    # two thread counts: threads as a number is the same fit (1, 2 on the same line)
    assert anova["SS"].iloc[:4].tolist() == pytest.approx(anova["SS"].iloc[4:].tolist())
    spread = pd.read_csv(out / "runtime.csv")
    row = spread[(spread["database"] == "MARIADB") & (spread["terminals"] == 2)].iloc[0]
    assert (row["min"], row["max"], row["trials"]) == (12, 14, 2)


def test_without_o_the_report_is_beside_the_first_sweep_folder(tmp_path, monkeypatch, capsys):
    a = write_sweep(tmp_path / "results" / "ycsbivs-sweep_A", "SQLITE", {1: (2, 4), 2: (6, 8)})
    b = write_sweep(tmp_path / "other" / "ycsbivs-sweep_B", "MARIADB", {1: (4, 6), 2: (12, 14)})
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["sweep", str(a), str(b)]) == 0
    expected = tmp_path / "results" / "sweep-report" / "sweep-report.md"
    assert expected.is_file()
    assert capsys.readouterr().out.strip() == str(expected)
    assert list(elsewhere.iterdir()) == [], "nothing written into the current directory"


def test_not_a_sweep_folder_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "run").mkdir()
    assert main(["sweep", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert "no sweep.csv" in err and err.count("\n") == 1


def test_compare_of_sweep_folders_is_the_sweep_report(tmp_path):
    a = write_sweep(tmp_path / "sqlite", "SQLITE", {1: (2, 4), 2: (6, 8)})
    b = write_sweep(tmp_path / "maria", "MARIADB", {1: (4, 6), 2: (12, 14)})
    assert main(["sweep", str(a), str(b), "-o", str(tmp_path / "by-sweep")]) == 0
    assert main(["compare", str(a), str(b), "-o", str(tmp_path / "by-compare")]) == 0
    text = (tmp_path / "by-compare" / "sweep-report.md").read_text()
    assert "| database | 32 | 1 | 16 |" in text
    assert text == (tmp_path / "by-sweep" / "sweep-report.md").read_text()
    for name in ("anova.csv", "runtime.csv"):
        assert (tmp_path / "by-compare" / name).read_text() == (tmp_path / "by-sweep" / name).read_text()
    assert (tmp_path / "by-compare" / "runtime_n1000.png").stat().st_size > 0


def test_compare_of_a_sweep_and_a_run_is_one_line_and_exit_2(tmp_path, capsys):
    import synth

    a = write_sweep(tmp_path / "sqlite", "SQLITE", {1: (2, 4), 2: (6, 8)})
    run = synth.write_run(tmp_path / "run", windows=30, step_at=None, late_step_at=None)
    assert main(["compare", str(a), str(run), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "cannot mix sweep folders" in err and str(a) in err and str(run) in err
    assert not (tmp_path / "out").exists()
