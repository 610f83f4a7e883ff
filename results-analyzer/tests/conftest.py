import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # tests/synth.py, the fixture writer

import synth  # noqa: E402


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
