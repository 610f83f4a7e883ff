"""Command line: ``python -m ivs_analyzer report DIR [-o OUT]`` (a run, an experiment or a tenants folder),
``compare DIR... [-o OUT]`` (runs or experiments overlaid; sweep folders, all of them: the ``sweep`` report) and
``sweep DIR... [-o OUT]`` and ``compact EXP OUT`` (an experiment's committable summary and figure book)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .detect.series import ChangeParams
from .load.results import AnalyzerError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ivs_analyzer", description="ivsbench results analyzer")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("report", help="report.html + charts + changes.json for a run or experiment folder")
    r.add_argument("results_dir", type=Path)
    r.add_argument("-o", "--out", type=Path, help="output folder (default: the results folder)")
    d = ChangeParams()
    r.add_argument("--penalty-factor", type=float, default=d.penalty_factor,
                   help="PELT penalty = factor * sigma^2 * ln(n) (default %(default)s)")
    r.add_argument("--min-relative-change", type=float, default=d.min_relative_change,
                   help="ignore steps smaller than this fraction of the level before (default %(default)s)")
    r.add_argument("--min-size", type=int, default=d.min_size,
                   help="shortest segment in windows (default %(default)s)")
    r.add_argument("--context-windows", type=int, default=d.context_windows,
                   help="windows either side of a change used to rank metrics (default %(default)s)")
    r.add_argument("--top-metrics", type=int, default=d.top_metrics)
    c = sub.add_parser("compare", help="overlay several runs (or experiments); sweep folders give the sweep report")
    c.add_argument("results_dirs", type=Path, nargs="+")
    c.add_argument("-o", "--out", type=Path, default=Path("compare-report"),
                   help="output folder (default: %(default)s)")
    s = sub.add_parser("sweep", help="runtime vs threads and a two-way ANOVA over sweep folders (one per database)")
    s.add_argument("sweep_dirs", type=Path, nargs="+")
    s.add_argument("-o", "--out", type=Path, default=None,
                   help="output folder (default: sweep-report beside the first sweep folder)")
    k = sub.add_parser("compact", help="an experiment's compact form (summaries, per-epoch monitor figures, the "
                                       "figure book) in OUT, small enough to commit")
    k.add_argument("results_dir", type=Path)
    k.add_argument("out", type=Path)
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    # Imported late so `--help` and argument errors stay fast (matplotlib import is slow).
    from .report import folders as rep
    try:
        if args.command == "sweep":
            from .report import sweep
            path = sweep.report(args.sweep_dirs, args.out or sweep.default_out(args.sweep_dirs))
        elif args.command == "report":
            params = ChangeParams(penalty_factor=args.penalty_factor, min_size=args.min_size,
                                  min_relative_change=args.min_relative_change,
                                  context_windows=args.context_windows, top_metrics=args.top_metrics)
            path = rep.report(args.results_dir, args.out, params)
        elif args.command == "compact":
            from .report import compact
            path = compact.write(args.results_dir, args.out)
        else:
            path = rep.compare(args.results_dirs, args.out)
    except AnalyzerError as e:
        print(f"ivs_analyzer: error: {e}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
