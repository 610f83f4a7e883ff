"""The held-out set (docs/diagnosis.md, "The held-out set"): injectors the rules were not tuned on, each with its
expected category and evidence committed in heldout.tsv before its first run. Run only with
`scripts/bench/diagnosis-accuracy.sh --held-out`, once the rules are frozen (heldout.tsv's "# frozen:" line
names the commit; until then a run is refused), and scored apart from the development corpus.

The expectations come from heldout.tsv, the injectors from here; the ids of both must be the same."""
from __future__ import annotations

import csv
from pathlib import Path

from diagnosis_targets import FAULTS, _db, _env, _libpq, _libpq_admin, _mariadb, _pg_env, _postgres

TSV = Path(__file__).with_name("heldout.tsv")
LOCK = 10        # seconds a lock, a rebuild or a vacuum loop runs
WORK = 15        # seconds the heavy sessions run
SETTING = 20     # seconds a changed setting is kept
BUFFER_POOL_SMALL = 16 * 1024 * 1024


def _injectors() -> dict:
    """id -> (connection, injector argv (table, work folder -> argv), injector environment)."""
    maria = lambda: _mariadb("InnoDB")   # noqa: E731
    return {
        "H1": (_postgres, lambda t, w: [FAULTS / "postgres-ddl-lock.sh", _libpq(), t, LOCK], _pg_env),
        "H2": (_postgres, lambda t, w: [FAULTS / "postgres-vacuum-full.sh", _libpq(), t, LOCK], _pg_env),
        "H3": (maria, lambda t, w: [FAULTS / "mariadb-self-join.sh", _env("IVS_MARIADB_DEFAULTS"), _db(), t, 3, WORK],
               None),
        "H4": (_postgres, lambda t, w: [FAULTS / "postgres-scan-sort.sh", _libpq(), t, 3, WORK], _pg_env),
        "H5": (maria, lambda t, w: [FAULTS / "mariadb-buffer-pool-resize.sh", _env("IVS_MARIADB_DEFAULTS"),
                                    BUFFER_POOL_SMALL, SETTING], None),
        "H6": (_postgres, lambda t, w: [FAULTS / "postgres-alter-system.sh", _libpq_admin(), SETTING,
                                        "synchronous_commit=on"], None),
        "H7": (maria, lambda t, w: [FAULTS / "disk-hog.sh", w, LOCK], None),
        "H8": (lambda: _mariadb("RocksDB"), lambda t, w: [FAULTS / "mariadb-alter-rebuild.sh",
                                                          _env("IVS_MARIADB_DEFAULTS"), _db(), t, "RocksDB", LOCK],
               None),
    }


def expectations(path: Path = TSV) -> tuple[str, list[dict]]:
    """(the commit on the "# frozen:" line, or "" while it is "-"; the rows of heldout.tsv)."""
    frozen, lines = "", []
    for ln in path.read_text(encoding="utf-8").splitlines():
        if ln.startswith("# frozen:"):
            frozen = ln.split(":", 1)[1].strip()
            frozen = "" if frozen == "-" else frozen
        elif ln and not ln.startswith("#"):
            lines.append(ln)
    return frozen, list(csv.DictReader(lines, delimiter="\t"))


def scenarios() -> dict:
    """The held-out scenarios in diagnosis_accuracy.SCENARIOS' form, expectations from heldout.tsv."""
    _, rows = expectations()
    injectors = _injectors()
    if sorted(r["id"] for r in rows) != sorted(injectors):
        raise SystemExit(f"heldout.tsv and diagnosis_heldout.py name different scenarios: "
                         f"{sorted(r['id'] for r in rows)} vs {sorted(injectors)}")
    return {r["id"]: (r["server"], r["fault"], r["expected"], r["holder"] == "y", *injectors[r["id"]])
            for r in rows}


# H5: a server started with a large buffer pool, on big rows (MariaDB 10.11.19 resizes it to any size: its
# innodb_buffer_pool_chunk_size is deprecated, "no effect", so none is set);
# H6: a server whose commits do not wait for the WAL flush until the setting says so
PRIVATE = {
    "H5": ("mariadb.sh", "IVS_STATE_DIR", "IVS_MARIADB_SETTINGS",
           "innodb_buffer_pool_size=384M\ninnodb_old_blocks_time=0"),
    "H6": ("postgres.sh", "IVS_STATE_DIR", "IVS_POSTGRES_SETTINGS", "synchronous_commit = off"),
}
# per scenario: (weights, records, more top-level config, the work's key elements, measured seconds, writer)
UPDATES = ("50,50", 500, "", "<distribution>zipfian</distribution>", 50, "UpdateRecord")
LOAD = {
    "H5": ("100,0", 1000, "<fieldcount>20</fieldcount><fieldlength>800</fieldlength>",
           "<distribution>uniform</distribution>", 50, "ExtendRecord"),
    "H6": UPDATES,
    "H7": UPDATES,
}
