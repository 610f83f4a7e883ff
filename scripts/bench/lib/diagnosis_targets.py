"""The corpus's servers as ivsbench configs and injector arguments see them: the private servers' IVS_MARIADB_* /
IVS_POSTGRES_* / IVS_CASSANDRA_* exports (scripts/bench/diagnosis-accuracy.sh sets them). Shared by the
development corpus (diagnosis_accuracy.py, diagnosis_inside.py) and the held-out set (diagnosis_heldout.py)."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
FAULTS = REPO / "scripts" / "faults"


def _env(name: str) -> str:
    v = os.environ.get(name)
    if not v:
        sys.exit(f"{name} is not set: run this through scripts/bench/diagnosis-accuracy.sh")
    return v


def _mariadb(engine: str) -> tuple[str, str]:
    conn = (f"<type>MARIADB</type><url>{_env('IVS_MARIADB_URL')}</url><username>ivs</username>"
            f"<monitor><pidFile>{_env('IVS_MARIADB_PIDFILE')}</pidFile></monitor><engine>{engine}</engine>")
    return conn, _env("IVS_MARIADB_PASSWORD")


def _cassandra() -> tuple[str, None]:
    conn = (f"<type>CASSANDRA</type><url>{_env('IVS_CASSANDRA_URL')}</url>"
            f"<monitor><pidFile>{_env('IVS_CASSANDRA_PIDFILE')}</pidFile></monitor>")
    return conn, None


def _postgres() -> tuple[str, str]:
    conn = (f"<type>POSTGRESQL</type><url>{_env('IVS_POSTGRES_URL')}</url><username>ivs</username>"
            f"<monitor><pidFile>{_env('IVS_POSTGRES_PIDFILE')}</pidFile></monitor>")
    return conn, _env("IVS_POSTGRES_PASSWORD")


def _libpq() -> str:
    return "postgresql://ivs@" + _env("IVS_POSTGRES_URL").split("//", 1)[1]


def _db() -> str:
    return _env("IVS_MARIADB_URL").rsplit("/", 1)[1].split("?")[0]


def _pg_env() -> dict:
    return dict(os.environ, PGPASSWORD=_env("IVS_POSTGRES_PASSWORD"))


def _libpq_admin() -> str:
    """The superuser's libpq URL (scripts/postgres.sh: postgres, trust authentication): ALTER SYSTEM needs it."""
    return "postgresql://postgres@" + _env("IVS_POSTGRES_URL").split("//", 1)[1]


# what --list shows where a server's exports would be (no server is started for a listing)
PLACEHOLDERS = {
    "IVS_MARIADB_URL": "jdbc:mariadb://HOST:PORT/ivsbench", "IVS_MARIADB_PIDFILE": "PIDFILE",
    "IVS_MARIADB_PASSWORD": "PASSWORD", "IVS_MARIADB_DEFAULTS": "MARIADB_DEFAULTS_FILE",
    "IVS_MARIADB_STATE": "MARIADB_STATE_DIR", "IVS_POSTGRES_URL": "jdbc:postgresql://HOST:PORT/ivsbench",
    "IVS_POSTGRES_PIDFILE": "PIDFILE", "IVS_POSTGRES_PASSWORD": "PASSWORD", "IVS_POSTGRES_STATE": "POSTGRES_STATE_DIR",
    "IVS_CASSANDRA_URL": "cassandra://HOST:PORT/ivsbench", "IVS_CASSANDRA_PIDFILE": "PIDFILE",
}


def listing(scenarios: dict, ids: list[str], evidence: dict | None = None) -> str:
    """The scenarios as a table (id, server, fault, expected, holder, the injector's command with placeholders for
    the servers' addresses and files; the held-out set's expected evidence), nothing run."""
    for k, v in PLACEHOLDERS.items():
        os.environ.setdefault(k, v)
    out = ["| # | Server | Fault | Expected | Holder | Injector |" + (" Expected evidence |" if evidence else ""),
           "|---|---|---|---|---|---|" + ("---|" if evidence else "")]
    # an injector may write a file into its work folder (a write burst's config): a scratch one, named WORK_DIR
    with tempfile.TemporaryDirectory() as work:
        for sid in ids:
            server, fault, expected, holder, _, injector, _ = scenarios[sid]
            argv = injector(f"diag_{sid.lower()}", Path(work)) if injector else []
            cmd = " ".join(str(a).replace(str(REPO) + "/", "").replace(work, "WORK_DIR") for a in argv) \
                or "(none: the workload's own step, or none)"
            out.append(f"| {sid} | {server} | {fault} | `{expected}` | {'y' if holder else '-'} | `{cmd}` |"
                       + (f" {evidence[sid]} |" if evidence else ""))
    return "\n".join(out)
