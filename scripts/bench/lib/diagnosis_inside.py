"""The development corpus's scenarios of causes inside the server (docs/diagnosis.md, "Causes inside the server"):
other sessions' work taking the server's own capacity (`server-work`, 19 and 20) and a setting changed while it
runs (`setting-change`, 21 and 22), in the form diagnosis_accuracy.SCENARIOS declares them. The held-out set's
are apart (diagnosis_heldout.py): these are the ones the rules may be tuned on."""
from __future__ import annotations

from diagnosis_targets import FAULTS, _env, _libpq, _libpq_admin, _mariadb, _pg_env, _postgres

WORK = 15        # seconds the heavy sessions run, and a changed setting is kept
SESSIONS = 4     # heavy sessions: two per core of the 2-core build box

# id, server, fault, expected category, whether a holder must be named (any of the ids the injector printed),
# connection, injector argv (table, work folder -> argv), injector environment
SCENARIOS = {
    "19": ("MariaDB InnoDB", f"{SESSIONS} sessions running SELECT BENCHMARK(.., SHA2(..)) (no table), {WORK} s",
           "server-work", True, lambda: _mariadb("InnoDB"),
           lambda t, w: [FAULTS / "mariadb-heavy-sessions.sh", _env("IVS_MARIADB_DEFAULTS"), SESSIONS, WORK], None),
    "20": ("PostgreSQL 15", f"{SESSIONS} sessions running md5 over generate_series (no table), {WORK} s",
           "server-work", True, _postgres,
           lambda t, w: [FAULTS / "postgres-heavy-sessions.sh", _libpq(), SESSIONS, WORK], _pg_env),
    "21": ("MariaDB InnoDB", f"SET GLOBAL innodb_flush_log_at_trx_commit 0 -> 1 for {WORK} s (50:50 read/update)",
           "setting-change", False, lambda: _mariadb("InnoDB"),
           lambda t, w: [FAULTS / "mariadb-set-global.sh", _env("IVS_MARIADB_DEFAULTS"), WORK,
                         "innodb_flush_log_at_trx_commit=1"], None),
    "22": ("PostgreSQL 15", f"ALTER SYSTEM commit_delay 0 -> 10000, commit_siblings 5 -> 0 for {WORK} s "
           "(50:50 read/update)", "setting-change", False, _postgres,
           lambda t, w: [FAULTS / "postgres-alter-system.sh", _libpq_admin(), WORK, "commit_delay=10000",
                         "commit_siblings=0"], None),
}
# 21: an instance of its own whose commits do not wait for the redo log's sync until the setting says so
PRIVATE = {"21": ("mariadb.sh", "IVS_STATE_DIR", "IVS_MARIADB_SETTINGS", "innodb_flush_log_at_trx_commit=0")}
# per scenario: (weights, records, more top-level config, the work's key elements, measured seconds, writer)
UPDATES = ("50,50", 500, "", "<distribution>zipfian</distribution>", 50, "UpdateRecord")
LOAD = {"21": UPDATES, "22": UPDATES}
