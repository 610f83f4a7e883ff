"""ivsbench results analyzer: reports, run comparison and step-change explanation.

Four layers, each importing only the ones before it (tests/test_layout.py checks this and that there are no
import circles): load -> detect -> explain -> report; the command line (cli.py) sits on top."""

__version__ = "0.1.0"
