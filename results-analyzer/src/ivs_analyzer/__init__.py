"""ivsbench results analyzer: reports, run comparison and step-change explanation."""

__version__ = "0.1.0"
