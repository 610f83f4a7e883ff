"""The figure book: one section per figure of the YCSB-IVS paper (1 to 17), drawn from this experiment in the
paper's axes and units, with the paper's claim beside it and a stated test of whether this run reproduces it.
A figure that needs data this run does not have (another extend distribution, a mixed READ/UPDATE run phase,
trials) says which preset gives it instead of drawing nothing. Every test is an effect with a 95 % confidence
interval, its effective sample size, the smallest effect the run could have detected and a verdict by the one
decision rule of docs/experiments.md ("How a verdict is decided"; explain/verdicts.py); every parameter of a test
(epochs, knee and step positions, windows) comes from the paper's text or the config, never from the series; a
claim about another platform is "not applicable"; Fig 1 is a check of the workload, not a reproduction; a "not
reproduced" quotes what the monitor recorded. Writes figures.html, figures.md, figures.json
and figures/figNN.png into the output folder."""
from __future__ import annotations

import html
import json
import math
import shutil
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ..explain import figure_tests as t  # noqa: E402
from ..explain import regimes  # noqa: E402
from ..explain import verdicts as v  # noqa: E402
from ..explain.size_latency import sized  # noqa: E402
from . import size_latency  # noqa: E402
from .figure_verdicts import (ABOVE, EQUAL, GROWS, STABLE, STRAIGHT, VERDICT_RULE, Tests,  # noqa: E402
                              col, regimes_html, tests_table)
from .figure_verdicts import detail as regime_detail  # noqa: E402

MODES = ["main", "clean", "average-baseline", "spread-baseline"]
COLORS = {"main": "tab:red", "clean": "tab:blue", "average-baseline": "tab:green", "spread-baseline": "tab:gray"}
PLATFORM = {3: "MongoDB", 4: "MongoDB", 5: "MongoDB", 6: "MongoDB", 7: "MongoDB", 8: "MariaDB+InnoDB",
            9: "MariaDB+InnoDB", 10: "MariaDB+InnoDB", 11: "MariaDB+InnoDB", 12: "MariaDB+InnoDB",
            13: "MariaDB+MyRocks", 14: "MariaDB+MyRocks", 15: "MariaDB+MyRocks", 16: "MariaDB+MyRocks"}


def run_platform(label: str) -> str:
    """The paper's platform name of a run's label ("MariaDB/InnoDB" -> "MariaDB+InnoDB"), "" when unknown."""
    low = (label or "").lower()
    for key, name in (("innodb", "MariaDB+InnoDB"), ("myrocks", "MariaDB+MyRocks"), ("rocksdb", "MariaDB+MyRocks"),
                      ("mongo", "MongoDB")):
        if key in low:
            return name
    return ""


def numeric(epochs: pd.DataFrame) -> pd.DataFrame:
    e = epochs.copy()
    for c in e.columns:
        if c != "mode":
            e[c] = pd.to_numeric(e[c], errors="coerce")
    return e


class Book(Tests):
    def __init__(self, epochs: pd.DataFrame, config: dict | None, out: Path, trials: pd.DataFrame | None = None,
                 platform: str = "", monitor=None):
        self.e = numeric(epochs)
        # monitor(mode) -> per-epoch monitor metrics of the mode's run sub-runs (epochs.monitor_per_epoch), or None
        self.monitor = monitor
        self.spec = ((config or {}).get("spec") or {})
        self.out = Path(out)
        self.img = self.out / "figures"
        self.trials = numeric(trials) if trials is not None else None
        self.platform = platform
        self.dist = str(self.spec.get("extendDistribution", "")).lower()
        weights = self.spec.get("runWeights") or {}
        self.mixed = float(weights.get("UpdateRecord", 0) or 0) > 0
        self.epochs = sorted(self.e["epoch"].unique())
        self.late = self.epochs[len(self.epochs) // 5:] if self.epochs else []
        # Several figures show the same chart of this run (e.g. Figs 3, 5, 9, 10, 13 and 15 are all latency and
        # throughput per epoch): drawn once, then copied to each figure's own file.
        self._drawn: dict[tuple, str] = {}

    # -- drawing ---------------------------------------------------------------------------------------------
    def _save(self, fig, n: int) -> str:
        self.img.mkdir(parents=True, exist_ok=True)
        name = f"fig{n:02d}.png"
        fig.tight_layout()
        fig.savefig(self.img / name, dpi=80)
        plt.close(fig)
        return f"figures/{name}"

    def _shared(self, key: tuple, n: int, draw) -> str:
        """figNN.png for a chart several figures share: `draw(n)` the first time, a copy of that file after."""
        first = self._drawn.get(key)
        if first is None:
            self._drawn[key] = first = draw(n)
            return first
        name = f"figures/fig{n:02d}.png"
        shutil.copyfile(self.out / first, self.out / name)
        return name

    def _lines(self, ax, column: str, ylabel: str, modes=MODES[:3], x: str = "epoch"):
        for m in modes:
            d = self.e[self.e["mode"] == m].sort_values(x)
            if column in d and d[column].notna().any():
                ax.plot(d[x] / (1e6 if x == "data_bytes" else 1), d[column], marker=".", lw=1,
                        color=COLORS[m], label=m)
        ax.set_xlabel("data volume (MB)" if x == "data_bytes" else "epoch")
        ax.set_ylabel(ylabel)
        ax.legend(fontsize=7)

    def latency_throughput(self, n: int, modes=MODES[:3], x: str = "epoch") -> str:
        """Average read latency and throughput of `modes` against `x` (epoch, or data_bytes for the baselines)."""
        def draw(n: int) -> str:
            fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.2))
            self._lines(a, "run_lat_avg_us", "average read latency (µs)", modes, x=x)
            self._lines(b, "run_throughput", "throughput (ops/s)", modes, x=x)
            b.set_ylim(bottom=0)
            return self._save(fig, n)

        return self._shared(("latency_throughput", tuple(modes), x), n, draw)

    # -- sections --------------------------------------------------------------------------------------------
    def section(self, n, title, claim, test, tests, detail, chart=None, needs=None):
        """`tests`: the figure's tests (verdicts.make), all of which the claim needs; or a verdict string."""
        if isinstance(tests, str):
            verdict, tests = tests, []
        else:
            verdict = v.combine(tests)
            detail = regime_detail(tests, detail)
        return {"figure": n, "title": title, "paper_platform": PLATFORM.get(n, "all"), "claim": claim,
                "test": test, "verdict": verdict, "detail": detail, "tests": tests, "chart": chart, "needs": needs}

    def needs(self, n, title, claim, what):
        return self.section(n, title, claim, "", "no data", "", needs=what)

    def growth(self, n, title, dist_needed: str | None):
        claim = "Latency rises and throughput falls steadily as values grow (main, clean and average-baseline)."
        if dist_needed and self.dist != dist_needed:
            return self.needs(n, title, claim, f"extends with a {dist_needed} distribution (this run: {self.dist});"
                              f" preset ycsbivs_<platform>_*_{dist_needed}.xml")
        main = col(self.e, "main", "run_lat_avg_us")
        slope, _, r = t.linear_fit(main.index.to_numpy(), main.to_numpy())
        ratio = main.iloc[-1] / main.iloc[0] if len(main) > 1 else float("nan")
        test = self._trend("rises", "main", "run_lat_avg_us", "greater", GROWS)
        return self.section(n, title, claim, "main's average latency against epoch (log-linear fit): its fitted"
                            " change over the run > +20 %", [test],
                            f"r = {r:.2f}, last/first = {ratio:.2f}", self.latency_throughput(n))

    def skew_vs_average(self, n, title, claim, main_equals_clean=False):
        tests = [self._paired(f"{m} slower", m, "average-baseline", "greater", ABOVE, self.late)
                 for m in ("main", "clean")]
        test = ("main/average-baseline and clean/average-baseline average latency, geometric mean over the epochs"
                " after the first fifth > 1.05")
        if main_equals_clean:
            tests.append(self._paired("main = clean", "main", "clean", "equal", EQUAL, self.late))
            test += "; main/clean within +-5 % (TOST)"
        return self.section(n, title, claim, test, tests, "", self.latency_throughput(n))

    def baselines(self, n, title, claim, shape: str):
        sp = self.e[self.e["mode"] == "spread-baseline"].sort_values("data_bytes")
        av = self.e[self.e["mode"] == "average-baseline"].sort_values("data_bytes")
        if sp.empty or av.empty:
            return self.needs(n, title, claim, "the spread-baseline and average-baseline modes (preset"
                              " ycsbivs_<platform>_baselines_<light|heavy>weight.xml sweeps the volumes alone)")
        chart = self.latency_throughput(n, MODES[2:], x="data_bytes")
        tp = sp["run_throughput"].to_numpy()
        share = t.within(tp[1:], tp[0], 0.10)
        steps = t.jumps(av["run_lat_avg_us"].to_numpy())
        what = "fitted change of spread-baseline throughput over the sweep"
        if shape == "superlinear":  # MyRocks: "slowly degrading"
            spread = self._trend("spread degrades", "spread-baseline", "run_throughput", "less", 0.0,
                                 x="data_bytes", what=what)
            spread_text = "spread-baseline throughput falls over the sweep (fitted change < 0)"
        else:
            spread = self._trend("spread stable", "spread-baseline", "run_throughput", "equal", STABLE,
                                 x="data_bytes", what=what)
            spread_text = "spread-baseline throughput stable: fitted change over the sweep within +-10 %"
        rises = self._trend("average rises", "average-baseline", "run_lat_avg_us", "greater", GROWS, x="data_bytes",
                            what="fitted change of average-baseline latency over the sweep")
        conv = v.convexity(av["data_bytes"], av["run_lat_avg_us"])
        name, claim_of = {"linear": ("near-linear", "equal"), "sublinear": ("not superlinear", "less"),
                          "superlinear": ("superlinear", "greater")}[shape]
        curve = self._test(name, "convexity of average-baseline latency against volume", conv, claim_of, 0.0,
                           STRAIGHT if shape == "linear" else 0.0, "", ["average-baseline"], av["epoch"])
        shape_text = {"linear": f"its convexity within +-{STRAIGHT}", "sublinear": "its convexity < 0",
                      "superlinear": "its convexity > 0"}[shape]
        return self.section(n, title, claim, f"{spread_text}; average-baseline latency rises with volume by > 20 %"
                            f", {shape_text}", [spread, rises, curve],
                            f"spread within 10 % of its first epoch: {share:.0%}; average-baseline jumps at volumes "
                            f"{[float(round(av['data_bytes'].iloc[i] / 1e6, 1)) for i in steps]} MB", chart)

    def mixed_run(self, n, title, dist):
        claim = ("A mixed 50:50 READ/UPDATE run: READ and UPDATE latency (average and p99) rise with value size;"
                 " throughput falls.")
        if not self.mixed or self.dist != dist:
            return self.needs(n, title, claim, f"a mixed READ:50,UPDATE:50 run phase with {dist} extends; preset "
                              f"ycsbivs_<platform>_heavyweight_{dist}_mixed.xml")

        def draw(n: int) -> str:
            fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.2))
            for m in MODES[:3]:
                d = self.e[self.e["mode"] == m].sort_values("epoch")
                for c, ls in (("run_read_lat_avg_us", "-"), ("run_update_lat_avg_us", "--"),
                              ("run_read_lat_p99_us", ":"), ("run_update_lat_p99_us", "-.")):
                    if c in d:
                        a.plot(d["epoch"], d[c], ls=ls, color=COLORS[m], lw=1,
                               label=f"{m} {c.split('_')[1]} {'p99' if 'p99' in c else 'avg'}")
                b.plot(d["epoch"], d["run_throughput"], color=COLORS[m], label=m)
            a.set_yscale("log")
            a.set_xlabel("epoch")
            a.set_ylabel("latency (µs)")
            a.legend(fontsize=5, ncol=2)
            b.set_xlabel("epoch")
            b.set_ylabel("throughput (ops/s)")
            b.legend(fontsize=7)
            return self._save(fig, n)

        chart = self._shared(("mixed_run",), n, draw)
        r_read = t.linear_fit(*self._xy("main", "run_read_lat_avg_us"))[2]
        r_upd = t.linear_fit(*self._xy("main", "run_update_lat_avg_us"))[2]
        tests = [self._trend(f"{op} rises", "main", f"run_{op}_lat_avg_us", "greater", GROWS) for op in ("read",
                                                                                                        "update")]
        return self.section(n, title, claim, "main's READ and UPDATE average latency against epoch (log-linear fit):"
                            " fitted change over the run > +20 %", tests,
                            f"READ r = {r_read:.2f}, UPDATE r = {r_upd:.2f}", chart)

    def _xy(self, mode, column):
        s = col(self.e, mode, column)
        return s.index.to_numpy(), s.to_numpy()

    def fig1(self):
        title = "Value size distribution and maximum value size along the epochs (heavyweight, zipfian)"
        claim = ("Zipfian extends grow the typical record length and make lengths increasingly skewed; no more than"
                 " two records reached the cap.")
        main = self.e[self.e["mode"] == "main"].sort_values("epoch")
        if "record_p50" not in main or main["record_p50"].isna().all():
            return self.needs(n := 1, title, claim, "record-level sizes (epochs.csv record_* columns, newer runs)")
        fig, a = plt.subplots(figsize=(9, 3.2))
        x = main["epoch"]
        a.fill_between(x, main["record_min"], main["record_max"], alpha=0.15, label="min–max")
        a.plot(x, main["record_p50"], label="p50")
        a.plot(x, main["record_p99"], label="p99")
        a.plot(x, main["record_max"], color="tab:red", label="max")
        a.set_yscale("log")
        a.set_xlabel("epoch")
        a.set_ylabel("record size (bytes)")
        a.legend(fontsize=7)
        chart = self._save(fig, 1)
        skew = (main["record_max"] / main["record_p50"]).to_numpy()
        cap = int(np.nanmax(main["records_at_cap"])) if main["records_at_cap"].notna().any() else 0
        ep = main["epoch"]
        tests = [self._test("p50 grows", "fitted change of main's record p50 over the run", v.trend(ep, main[
                     "record_p50"]), "greater", 0.0, 0.0, "%", ["main"], ep),
                 self._test("skew grows", "fitted change of main's record max/p50 over the run", v.trend(ep, skew),
                            "greater", 0.0, 0.0, "%", ["main"], ep)]
        # The record sizes are the workload generator's, the same on every platform: a check that the run extended
        # as the paper's workload does, not a reproduction of a platform's behaviour.
        s = self.section(1, title, claim, "a check of the workload, not a reproduction: record p50 and max/p50"
                         " against epoch (log-linear fits), each fitted change over the run > 0", tests,
                         f"max/p50 {skew[0]:.1f} -> {skew[-1]:.1f}; records at the cap by the end: {cap}; extends:"
                         f" {self.dist or 'unknown'}", chart)
        s["verdict"] = f"{v.CHECK}: " + ("holds" if s["verdict"] == v.REPRODUCED else "fails"
                                          if s["verdict"] == v.NOT_REPRODUCED else s["verdict"])
        return s

    def fig2(self):
        title = "Latency summary statistics per mode (MongoDB run phases, heavyweight)"
        claim = "The relative ordering of latency across modes is the same whichever statistic (average, p50, p99)."
        fig, axes = plt.subplots(1, 3, figsize=(10, 3))
        for a, c in zip(axes, ("run_lat_avg_us", "run_lat_p50_us", "run_lat_p99_us")):
            self._lines(a, c, c.split("_")[2] + " latency (µs)", MODES)
        chart = self._save(fig, 2)
        same = []
        for ep in self.epochs:
            d = self.e[self.e["epoch"] == ep].set_index("mode")
            avg, p50 = d.get("run_lat_avg_us"), d.get("run_lat_p50_us")
            if avg is None or p50 is None:
                continue
            pairs = [(a, b) for i, a in enumerate(d.index) for b in d.index[i + 1:]
                     if avg[a] > 0 and avg[b] > 0 and abs(math.log(avg[a] / avg[b])) > ABOVE]
            if pairs:
                same.append(float(np.mean([(avg[a] - avg[b]) * (p50[a] - p50[b]) > 0 for a, b in pairs])))
        test = self._test("same order", "share of decided mode pairs ordered alike", v.series_mean(same),
                          "greater", 0.7, 0.7, "share", [], [])
        return self.section(2, title, claim, "per epoch, the pairs of modes whose average latencies differ by more"
                            " than 5 % (a tie orders nothing): the share ordered alike by p50; its mean over the"
                            " epochs > 70 %", [test], "", chart)

    def fig15(self):
        title = "Query performance, MyRocks heavyweight (a uniform, b zipfian extends)"
        claim = ("Uniform: the modes agree for ~20 epochs, then main and clean decline faster than average-baseline"
                 " (a change of slope). Zipfian: main-run far slower than clean-run after 20 epochs.")
        chart = self.latency_throughput(15)
        found = t.slope_change(*self._xy("main", "run_lat_avg_us"))
        if self.dist == "uniform":
            tests = [self._knee("steeper after", "greater", 0.5, 20)]
            test = ("main's latency as two lines meeting at epoch 20 (the paper's): the slope after > 1.5 x the slope"
                    " before")
        else:
            after20 = [e for e in self.epochs if e > 20]
            tests = [self._paired("main >10x slower", "main", "clean", "greater", math.log(10), after20),
                     self._paired("main slower", "main", "clean", "greater", ABOVE, after20, role="direction")]
            test = ("the paper's magnitude: main/clean average latency, geometric mean over epochs 21 on > 10 (\"more"
                    " than an order of magnitude\"); its direction (> 1.05) beside it, not counted")
        return self.section(15, title, claim, test, tests, "two-line search: " + t.slope_words(found), chart)

    def fig16(self):
        title = "Mean over 5 trials of a mixed 50:50 READ/UPDATE run, MyRocks heavyweight uniform"
        claim = "Averaged over trials, READ and UPDATE latency rise with value size; the spread is small."
        if self.trials is None or self.trials.empty:
            return self.needs(16, title, claim, "trials (experiment/trials, trials.csv); preset "
                              "ycsbivs_myrocks_heavyweight_uniform_mixed.xml runs 5")
        tr = self.trials
        fig, a = plt.subplots(figsize=(9, 3.2))
        for m in MODES[:3]:
            d = tr[tr["mode"] == m].sort_values("epoch")
            for c, ls in (("run_read_lat_avg_us", "-"), ("run_update_lat_avg_us", "--")):
                if f"{c}_mean" in d and d[f"{c}_mean"].notna().any():
                    a.errorbar(d["epoch"], d[f"{c}_mean"], yerr=d[f"{c}_sd"].fillna(0), ls=ls, color=COLORS[m],
                               lw=1, capsize=2, label=f"{m} {c.split('_')[1]}")
        a.set_xlabel("epoch")
        a.set_ylabel("average latency (µs), mean ± sd")
        a.legend(fontsize=7)
        chart = self._save(fig, 16)
        d = tr[tr["mode"] == "main"].sort_values("epoch")
        cvs = (d["run_lat_avg_us_sd"] / d["run_lat_avg_us_mean"]).to_numpy()
        r = t.linear_fit(d["epoch"].to_numpy(), d["run_read_lat_avg_us_mean"].to_numpy())[2]
        tests = [self._test("rises", "fitted change of main's mean READ latency over the run",
                            v.trend(d["epoch"], d["run_read_lat_avg_us_mean"]), "greater", 0.0, GROWS, "%", ["main"],
                            d["epoch"]),
                 self._test("small spread", "mean coefficient of variation over trials", v.series_mean(cvs), "less",
                            0.2, 0.2, "", ["main"], d["epoch"])]
        return self.section(16, title, claim, "main's mean READ latency against epoch (log-linear fit): fitted change"
                            " over the run > +20 %; the mean coefficient of variation over trials < 0.2",
                            tests, f"r = {r:.2f}, median CV = {np.nanmedian(cvs):.2f}, trials = "
                            f"{int(d['trials'].max())}", chart)

    def fig17(self):
        title = "Extend operation performance (and skipped extends per epoch)"
        claim = ("Extend throughput falls as values grow; on MongoDB, heavyweight zipfian, it steps up at epochs 46"
                 " and 89 where the two largest documents reach the cap and their extends are skipped.")
        main = self.e[self.e["mode"] == "main"].sort_values("epoch")
        fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.2))
        a.plot(main["epoch"], main["extend_throughput"], marker=".", color="tab:red")
        a.set_xlabel("epoch")
        a.set_ylabel("extend throughput (ops/s)")
        b.bar(main["epoch"], main["extend_skipped"], color="tab:gray", label="skipped extends")
        if "records_at_cap" in main:
            b.plot(main["epoch"], main["records_at_cap"], color="black", marker="o", label="records at the cap")
        b.set_xlabel("epoch")
        b.set_ylabel("count per epoch")
        b.legend(fontsize=7)
        chart = self._save(fig, 17)
        steps = t.jumps(main["extend_throughput"].to_numpy())
        skipped = int(main["extend_skipped"].fillna(0).sum())
        ep = main["epoch"].to_numpy()
        slope = t.linear_fit(ep, main["extend_throughput"].to_numpy())[0]
        test = self._trend("falls", "main", "extend_throughput", "less", -GROWS)
        return self.section(17, title, claim, "extend throughput against epoch (log-linear fit): fitted change over"
                            " the run < 0 (a fall by a sixth, 1/1.2, counts); jumps and skipped extends listed",
                            [test], f"slope {slope:.1f} ops/s per epoch; jumps at epochs {[int(ep[i]) for i in steps]};"
                            f" skipped extends {skipped}", chart)

    def extras(self, by_size: pd.DataFrame | None = None) -> tuple[str, list[dict]]:
        """Beyond the paper's figures: latency against record size, per mode, with the fitted exponents. From the
        operations' own sizes (latency_by_size.csv) when the experiment has them, else each epoch's average read
        latency against its average record size (no exponent)."""
        chart = "figures/latency_vs_record_size.png"
        if by_size is not None and len(sized(by_size)):
            return chart, size_latency.draw(by_size, self.out / chart)
        fig, a = plt.subplots(figsize=(9, 3.2))
        for m in MODES:
            d = self.e[self.e["mode"] == m]
            if "record_avg" in d and d["record_avg"].notna().any():
                a.scatter(d["record_avg"], d["run_lat_avg_us"], s=10, color=COLORS[m], label=m)
        a.set_xlabel("average record size (bytes)")
        a.set_ylabel("average read latency (µs)")
        if a.get_legend_handles_labels()[0]:
            a.set_xscale("log")
            a.legend(fontsize=7)
        else:  # an epochs.csv from before the record columns: say so rather than draw empty axes
            a.text(0.5, 0.5, "no record sizes in this run's epochs.csv", ha="center", va="center",
                   transform=a.transAxes)
        self.img.mkdir(parents=True, exist_ok=True)
        fig.tight_layout()
        fig.savefig(self.out / chart, dpi=80)
        plt.close(fig)
        return chart, []

    def sections(self) -> list[dict]:
        s = [self.fig1(), self.fig2(),
             self.growth(3, "Query performance, MongoDB lightweight (uniform / zipfian extends)", None),
             self.baselines(4, "Baselines against data volume, MongoDB", "spread-baseline throughput stays stable as"
                            " records are added; average-baseline latency degrades near-linearly with volume.",
                            "linear"),
             self.skew_vs_average(5, "Query performance, MongoDB heavyweight (b: zipfian extends)",
                                  "Zipfian: main-run and clean-run (skewed sizes) slower than average-baseline."
                                  if self.dist == "zipfian" else "Uniform: no significant difference between main,"
                                  " clean and average-baseline.")
             if self.dist == "zipfian" else self._uniform_alike(5),
             self.mixed_run(6, "Mixed 50:50 READ/UPDATE, MongoDB heavyweight uniform", "uniform"),
             self.mixed_run(7, "Mixed 50:50 READ/UPDATE, MongoDB heavyweight zipfian", "zipfian"),
             self.baselines(8, "Baselines against data volume, MariaDB+InnoDB", "spread-baseline stable;"
                            " average-baseline throughput degrades, slightly sublinear with steps (~400, ~600 MB).",
                            "sublinear"),
             self._fig9(),
             self._fig10(),
             self.mixed_run(11, "Mixed 50:50 READ/UPDATE, MariaDB+InnoDB heavyweight uniform", "uniform"),
             self.mixed_run(12, "Mixed 50:50 READ/UPDATE, MariaDB+InnoDB heavyweight zipfian", "zipfian"),
             self.growth(13, "Query performance, MyRocks lightweight", None),
             self.baselines(14, "Baselines against data volume, MariaDB+MyRocks", "spread-baseline slowly degrading"
                            " with higher variance; average-baseline superlinear with high variance.", "superlinear"),
             self.fig15(), self.fig16(), self.fig17()]
        return [self._applicable(x) for x in s]

    def _applicable(self, s: dict) -> dict:
        """A claim about another platform than this run's is not applicable: its tests keep their effects and
        intervals, their verdicts and the figure's are "not applicable" (the figure book does not count them)."""
        mine = run_platform(self.platform)
        theirs = s["paper_platform"]
        if not mine or theirs == "all" or theirs == mine or not s["tests"]:
            return s  # (a figure without tests needs another preset's data: it says which)
        for x in s["tests"]:
            for r in [x] + (x.get("regimes") or []):
                r["verdict"] = v.NOT_APPLICABLE
                r["text"] = r["text"].rsplit(": ", 1)[0] + f": {v.NOT_APPLICABLE} (the paper's claim is about {theirs})"
        s["verdict"] = v.NOT_APPLICABLE
        s["detail"] = "; ".join(x["text"] for x in s["tests"]) or s["detail"]
        return s

    def _uniform_alike(self, n):
        claim = "Uniform extends: no significant difference between main, clean and average-baseline."
        tests = [self._paired(f"{m} = average-baseline", m, "average-baseline", "equal", EQUAL, self.late)
                 for m in ("main", "clean")]
        return self.section(n, "Query performance, MongoDB heavyweight (a: uniform extends)", claim,
                            "main/average-baseline and clean/average-baseline average latency, geometric mean over the"
                            " epochs after the first fifth, within +-5 % (TOST)", tests, "",
                            self.latency_throughput(n))

    def _fig9(self):
        title = "Query performance, MariaDB+InnoDB lightweight"
        claim = ("Latency grows nonlinearly: after ~epoch 40 it grows more slowly (a change of slope); main-run and"
                 " clean-run alike (no history effect on InnoDB).")
        found = t.slope_change(*self._xy("main", "run_lat_avg_us"))
        tests = [self._knee("flatter after", "less", 1 / 3, 40),
                 self._paired("main = clean", "main", "clean", "equal", EQUAL, self.late)]
        return self.section(9, title, claim, "main's latency as two lines meeting at epoch 40 (the paper's): the"
                            " slope after < 2/3 x the slope before; main/clean within +-5 % (TOST)", tests,
                            "two-line search (shown, not tested): " + t.slope_words(found),
                            self.latency_throughput(9))

    def _fig10(self):
        title = "Query performance, MariaDB+InnoDB heavyweight"
        if self.dist == "zipfian":
            s = self.skew_vs_average(10, title, "Zipfian: main and clean keep the linear trend (alike: no history"
                                     " effect on InnoDB), average-baseline slows less from ~epoch 30: main ~20 %"
                                     " slower by the end.", main_equals_clean=True)
            last = [e for e in self.epochs if e > 80]
            s["tests"] += [self._paired("main ~20 % slower by 100", "main", "average-baseline", "equal", EQUAL,
                                        last, null=math.log(1.2)),
                           self._paired("main slower by 100", "main", "average-baseline", "greater", ABOVE, last,
                                        role="direction")]
            s["verdict"] = v.combine(s["tests"])
            s["test"] += ("; the paper's magnitude: main/average-baseline over epochs 81-100 equal to 1.20 within"
                          " +-5 % (TOST), its direction beside it")
            s["detail"] = regime_detail(s["tests"])
            return s
        claim = "Uniform: large steps at ~epoch 50 and 70 in all three modes, then back to the linear trend."
        tests = [self._step(m, at) for m in MODES[:3] for at in (50, 70)]
        return self.section(10, title, claim, "in every mode, the step of log latency at the paper's epochs 50 and 70"
                            " against a local line through 10 epochs either side: > 25 %", tests, "",
                            self.latency_throughput(10))


def write(epochs: pd.DataFrame, config: dict | None, out: Path, trials: pd.DataFrame | None = None,
          platform: str = "", by_size: pd.DataFrame | None = None, monitor=None) -> list[dict]:
    """Writes the figure book into `out`; returns its sections. `by_size`: the experiment's latency_by_size.csv;
    `monitor(mode)`: the per-epoch monitor metrics of a mode (epochs.monitor_per_epoch), quoted as evidence beside
    a "not reproduced"."""
    book = Book(epochs, config, out, trials, platform, monitor)
    sections = book.sections()
    # the modes the paired tests compare (spread-baseline is in none: its sub-runs are not read for this)
    found = regimes.describe(regimes.boundaries(monitor, book.e, [m for m in MODES[:3] if m in set(book.e["mode"])]))
    extra, fits = book.extras(by_size)
    (Path(out) / "figures.json").write_text(json.dumps(sections, indent=1, default=float), encoding="utf-8")
    md = ["| Fig | paper platform | claim | test | this run |", "|---|---|---|---|---|"]
    for s in sections:
        result = s["verdict"] + (f": {s['detail']}" if s["detail"] else "") if s["verdict"] != "no data" \
            else f"no data: needs {s['needs']}"
        md.append(f"| {s['figure']} | {s['paper_platform']} | {s['claim']} | {s['test']} | {result} |")
    md += ["", "Regimes (explain/regimes.py, from the run's counters; each paired test is also given per regime, not"
           " counted): " + ("; ".join(found) if found else "none: no counter crossed its level")]
    md += size_latency.markdown(fits)
    (Path(out) / "figures.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    h = [f"<!doctype html><meta charset='utf-8'><title>Figure book</title><h1>Figure book: the YCSB-IVS paper's"
         f" figures from this run{(' (' + html.escape(platform) + ')') if platform else ''}</h1>"]
    h.append(regimes_html(found))
    for s in sections:
        h.append(f"<h2>Figure {s['figure']}: {html.escape(s['title'])}</h2><p><b>Paper ({s['paper_platform']}):</b>"
                 f" {html.escape(s['claim'])}</p>")
        if s["needs"]:
            h.append(f"<p><b>Not drawn:</b> this run has no data for it; it needs {html.escape(s['needs'])}.</p>")
            continue
        h.append(f"<p><b>Test:</b> {html.escape(s['test'])}. <b>This run: {s['verdict']}</b></p>")
        h.append(tests_table(s["tests"]))
        if s["detail"] and not s["tests"]:
            h.append(f"<p>{html.escape(s['detail'])}</p>")
        h.append(f"<img src='{s['chart']}' style='max-width:100%'>")
    h.append(f"<p><small>{html.escape(VERDICT_RULE)}</small></p>")
    h.append(f"<h2>Latency against record size</h2><img src='{extra}' style='max-width:100%'>")
    h.append(size_latency.html_table(fits))
    (Path(out) / "figures.html").write_text("\n".join(h), encoding="utf-8")
    return sections


