"""One rule for tests that need something real (a MariaDB server, the jar, Java, Chromium): when it is missing
the test fails and says what to install, unless IVS_ALLOW_SKIP=1 asks for a skip instead.

The Java tests follow the same rule with the same variable (src/test/java/org/ivsbench/testsupport/
TestServers.java). scripts/test.sh provides everything and never sets IVS_ALLOW_SKIP, so a green run there
means every real check ran.
"""
from __future__ import annotations

import os

import pytest

ALLOW_SKIP = "IVS_ALLOW_SKIP"


def skipping_allowed(env=None) -> bool:
    env = os.environ if env is None else env
    return env.get(ALLOW_SKIP) == "1"


def missing(reason: str) -> None:
    """Fails (or skips under IVS_ALLOW_SKIP=1) with `reason`; never returns."""
    if skipping_allowed():
        pytest.skip(f"{reason} (skipped: {ALLOW_SKIP}=1)")
    pytest.fail(f"{reason} (set {ALLOW_SKIP}=1 to skip instead)")


def require(condition: bool, reason: str) -> None:
    if not condition:
        missing(reason)
