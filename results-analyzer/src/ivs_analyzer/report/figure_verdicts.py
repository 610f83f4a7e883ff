"""The figure book's tests as effects with intervals (explain/verdicts.py), for the figures' data: the claims' thresholds,
the tests a figure section builds from epochs.csv (`Tests`, mixed into figure_book.Book), and how the verdicts
are shown."""
from __future__ import annotations

import html
import math

import pandas as pd

from ..explain import regimes
from ..explain import verdicts as v

GROWS = math.log(1.2)  # a rise of 20 % over the run is the smallest that counts as "latency rises"
ABOVE = math.log1p(0.05)  # one mode 5 % slower than another is the smallest difference that counts
EQUAL = math.log1p(v.EQUIVALENCE)  # equality claims: the geometric mean ratio within +-5 %
STABLE = math.log1p(0.10)  # "stable as records are added": the fitted change over the sweep within +-10 %
STRAIGHT = 0.2  # "near-linear": convexity within +-0.2 (off the straight line by <= 5 % of the range mid-sweep)


def col(e: pd.DataFrame, mode: str, column: str) -> pd.Series:
    """mode's column indexed by epoch (empty when the mode or the column is missing)."""
    if column not in e.columns:
        return pd.Series(dtype=float)
    return e[e["mode"] == mode].set_index("epoch")[column].astype(float).sort_index()


class Tests:
    """The figure sections' tests; needs self.e (numeric epochs), self.monitor and self._xy."""

    def _monitor(self, modes: list[str], epochs) -> str:
        """What the monitor recorded for `modes` over `epochs` (verdicts.evidence), "" without monitor data."""
        if self.monitor is None:
            return ""
        frames = {m: self.monitor(m) for m in modes}
        return v.evidence(frames, list(epochs))

    def _test(self, name, what, effect, claim, null, counts, unit, modes, epochs, role="claim") -> dict:
        out = v.make(name, what, effect, claim, null, counts, unit, role)
        if out["verdict"] == "not reproduced":
            out["evidence"] = self._monitor(modes, epochs)
        return out

    def _trend(self, name, mode, column, claim, counts, log=True, x="epoch", unit="%", what=None) -> dict:
        """The fitted change of mode's column over the run (against epoch or data_bytes), HAC interval."""
        d = self.e[self.e["mode"] == mode].sort_values(x)
        has = column in d and x in d
        effect = v.trend(d[x], d[column], log=log) if has else None
        return self._test(name, what or f"fitted change of {mode}'s {column} over the run", effect, claim, 0.0,
                          counts, unit, [mode], d["epoch"] if has else [])

    def _paired(self, name, num, den, claim, counts, epochs=None, column="run_lat_avg_us", null=0.0,
                role="claim") -> dict:
        """The geometric mean of num/den epoch by epoch (over `epochs`, default all), HAC interval; an equality
        claim (to exp(null), within counts) by two one-sided tests."""
        a, b = col(self.e, num, column), col(self.e, den, column)
        if epochs is not None:
            a, b = a.reindex(epochs).dropna(), b.reindex(epochs).dropna()
        effect = v.paired(a, b)
        out = self._test(name, f"geometric mean {num}/{den} {column}", effect, claim, null, counts, "ratio",
                         [num, den], a.index.intersection(b.index), role)
        if role != "direction":  # the same claim per regime of the two modes' counters (explain/regimes.py)
            found = regimes.boundaries(self.monitor, self.e, [num, den])
            out["regimes"] = regimes.per_regime(a.rename(num), b.rename(den), found, claim, null, counts, "ratio")
        return out

    def _knee(self, name, claim, part, knee) -> dict:
        """main's latency as two lines meeting at the paper's knee epoch (verdicts.hinge): "greater" (steeper
        after) when the slope after exceeds (1 + part) times the slope before, "less" (flatter after) when it is
        below (1 - part) times it."""
        x, y = self._xy("main", "run_lat_avg_us")
        effect = v.hinge(x, y, knee, part if claim == "greater" else -part)
        what = (f"slope after epoch {knee:g} minus {1 + part if claim == 'greater' else 1 - part:.3g} x the slope"
                f" before ({effect['slope_before']:.3g} -> {effect['slope_after']:.3g} µs/epoch)" if effect
                else f"change of slope at epoch {knee:g}")
        return self._test(name, what, effect, claim, 0.0, 0.0, "µs/epoch", ["main"], x)

    def _step(self, mode, at) -> dict:
        """mode's latency step at the paper's epoch `at` against a local line (verdicts.level_shift); 25 % counts."""
        x, y = self._xy(mode, "run_lat_avg_us")
        return self._test(f"{mode} steps at {at}", f"{mode}'s latency step at epoch {at} against its local line",
                          v.level_shift(x, y, at), "greater", 0.0, math.log(1.25), "%", [mode],
                          [e for e in x if at - 10 <= e < at + 10])


VERDICT_RULE = ("Each test: an effect with its 95 % confidence interval from a HAC (autocorrelation-consistent) fit"
                " over the epochs, n and the effective sample size, the smallest effect the run could have detected"
                " (80 % power, alpha 0.05) and its verdict by the one decision rule of docs/experiments.md, \"How a"
                " verdict is decided\": reproduced when the whole interval lies beyond the effect that counts in the"
                " claimed direction, not reproduced when it excludes the claim, else inconclusive; equality by two"
                " one-sided tests against the margin; no data when a series is missing; not applicable when the"
                " claim is about another platform. A figure's verdict needs all its counted tests.")


def detail(tests: list[dict], extra: str = "") -> str:
    """A section's detail line: each test's text with the monitor's evidence and its regimes, then `extra`."""
    parts = []
    for x in tests:
        text = x["text"] + (f" [{x['evidence']}]" if x["evidence"] else "")
        if len(x.get("regimes") or []) > 1:
            text += " {per regime, not counted: " + regimes.words(x["regimes"]) + "}"
        parts.append(text)
    return "; ".join(parts + ([extra] if extra else []))


def tests_table(tests: list[dict]) -> str:
    rows = ["<table border=1 cellspacing=0 cellpadding=3><tr><th>test</th><th>effect (95 % CI)</th>"
            "<th>how</th><th>verdict</th><th>monitor</th></tr>"]
    for x in tests:
        rows.append(f"<tr><td>{html.escape(x['test'])}</td><td>{html.escape(x['text'].split(': ', 1)[-1])}</td>"
                    f"<td>{html.escape(x['method'])}</td><td><b>{x['verdict']}</b></td>"
                    f"<td>{html.escape(x['evidence'])}</td></tr>")
        if len(x.get("regimes") or []) > 1:  # one regime is the pooled test itself
            for r in x["regimes"]:
                rows.append(f"<tr><td>&nbsp;&nbsp;regime {r['epochs']}</td>"
                            f"<td>{html.escape(r['text'].split(': ', 1)[-1])}; the ratio's trend within it"
                            f" {html.escape(r['trend_text'])}</td>"
                            f"<td>{html.escape(r['opened_by'])}</td><td>{r['verdict']} (not counted)</td>"
                            "<td></td></tr>")
    return "".join(rows) + "</table>"


def regimes_html(found: list[str]) -> str:
    """The run's regime boundaries (explain/regimes.py) as a paragraph of the figure book."""
    if not found:
        return ("<p><b>Regimes:</b> no counter crossed its level (explain/regimes.py): one regime, the pooled tests"
                " stand alone.</p>")
    return ("<p><b>Regimes</b> (from the run's counters, never from the latency; explain/regimes.py):</p><ul>"
            + "".join(f"<li>{html.escape(b)}</li>" for b in found) + "</ul>")
