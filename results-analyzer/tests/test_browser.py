"""Renders report.html in headless Chromium: the page must paint and every chart must decode."""
import re
import shutil
import subprocess
import tempfile

import pytest

from ivs_analyzer.cli import main

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _chromium():
    exe = shutil.which("chromium")
    if not exe:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    return exe


def _run(exe, *args):
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run([exe, *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=60)


def test_report_renders_in_chromium(step_run, tmp_path):
    exe = _chromium()
    assert main(["report", str(step_run)]) == 0
    url = (step_run / "report.html").resolve().as_uri()
    shot = tmp_path / "shot.png"
    _run(exe, f"--screenshot={shot}", "--window-size=1280,4000", url)
    assert shot.is_file() and shot.stat().st_size > 20_000, "screenshot missing or blank"

    dom = _run(exe, "--dump-dom", url).stdout
    m = re.search(r'id="img-check"[^>]*data-loaded="(\d+)" data-total="(\d+)"', dom)
    assert m, "the image check script did not run: " + dom[:300]
    loaded, total = int(m.group(1)), int(m.group(2))
    assert total >= 4 and loaded == total


def test_broken_image_is_noticed(step_run):
    """The check itself must be able to fail: remove one chart and expect loaded < total."""
    exe = _chromium()
    assert main(["report", str(step_run)]) == 0
    (step_run / "types.png").unlink()
    dom = _run(exe, "--dump-dom", (step_run / "report.html").resolve().as_uri()).stdout
    m = re.search(r'data-loaded="(\d+)" data-total="(\d+)"', dom)
    assert m and int(m.group(1)) == int(m.group(2)) - 1
