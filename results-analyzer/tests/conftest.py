import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # tests/synth.py, the fixture writer

import synth  # noqa: E402

# Time limits (pytest-timeout): pyproject.toml's `timeout` holds for every test; a test_real_*.py module, which
# starts its own servers and runs the jar against them, sets its own longer limit with a module `pytestmark`
# (sized at about 3 x its expected time on a busy box). One that sets none gets this one, enough for the slowest
# server start (Cassandra's, which may first fetch its jars: 600 s) plus a run and a report.
REAL_SERVER_TIMEOUT = 1200


def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.name.startswith("test_real_") and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(REAL_SERVER_TIMEOUT))


@pytest.fixture
def step_run(tmp_path):
    """300 windows; throughput 1000 -> 600 at window 150; buffer pool reads step up with it."""
    return synth.write_run(tmp_path / "step", step_at=150, late_step_at=40)


@pytest.fixture
def flat_run(tmp_path):
    return synth.write_run(tmp_path / "flat", step_at=None, late_step_at=None)


@pytest.fixture
def experiment(tmp_path):
    return synth.write_experiment(tmp_path / "exp", epochs=10)
