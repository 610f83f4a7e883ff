"""Command line: ``python -m ivs_analyzer report DIR [-o OUT]`` (a run, an experiment or a tenants folder),
``compare DIR... [-o OUT]`` (runs or experiments overlaid; sweep folders, all of them: the ``sweep`` report) and
``sweep DIR... [-o OUT]``, ``compact EXP OUT`` (an experiment's committable summary and figure book) and
``browse DIR [-o OUT] [--serve [--port N]]`` (one page over every results folder beneath DIR)."""
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
    b = sub.add_parser("browse", help="index.html over every run, experiment, sweep, trial set and tenants folder "
                                      "beneath RESULTS_DIR: filter, sort, pick to compare")
    b.add_argument("results_dir", type=Path)
    b.add_argument("-o", "--out", type=Path, default=None, help="folder of index.html (default: RESULTS_DIR)")
    b.add_argument("--serve", action="store_true",
                   help="serve the page on 127.0.0.1 and write compare reports for picked folders on request")
    b.add_argument("--port", type=int, default=None, help="with --serve: the port (default 8765; 0: any free one)")
    return p


def _browse(args) -> Path | None:
    from .report import browse
    if args.port is not None and not args.serve:
        raise AnalyzerError(f"--port {args.port}: only with --serve")
    port = 8765 if args.port is None else args.port
    if not 0 <= port <= 65535:
        raise AnalyzerError(f"--port {port}: not a port number (0 to 65535)")
    if args.serve:
        browse.serve(args.results_dir, args.out, port)
        return None
    stats: dict = {}
    page = browse.build(args.results_dir, args.out, stats)
    print(f"{stats['read'] + stats['cached']} folders ({stats['read']} read, {stats['cached']} cached)",
          file=sys.stderr)
    return page


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "sweep":
            from .report import sweep
            path = sweep.report(args.sweep_dirs, args.out or sweep.default_out(args.sweep_dirs))
        elif args.command == "browse":
            path = _browse(args)
            if path is None:
                return 0
        elif args.command == "report":
            # Imported late so `--help`, argument errors and browse stay fast (matplotlib import is slow).
            from .report import folders as rep
            params = ChangeParams(penalty_factor=args.penalty_factor, min_size=args.min_size,
                                  min_relative_change=args.min_relative_change,
                                  context_windows=args.context_windows, top_metrics=args.top_metrics)
            path = rep.report(args.results_dir, args.out, params)
        elif args.command == "compact":
            from .report import compact
            path = compact.write(args.results_dir, args.out)
        else:
            from .report import folders as rep
            path = rep.compare(args.results_dirs, args.out)
    except AnalyzerError as e:
        print(f"ivs_analyzer: error: {e}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
