"""Renders report.html in headless Chromium: the page must paint and every chart must decode.

The browser is $IVS_CHROMIUM (scripts/test.sh exports the one it installed or found), else `chromium`
or `chromium-browser` on PATH. Without one the tests fail (a missing browser would silently drop the only check
that the charts really display), unless IVS_ALLOW_SKIP=1 asks for a skip (tests/skip_policy.py).
"""
import os
import re
import shutil
import subprocess
import tempfile

import pytest

import skip_policy
from ivs_analyzer.cli import main

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
IMG_CHECK = re.compile(r'id="img-check"[^>]*data-loaded="(\d+)" data-total="(\d+)"')


def find_chromium(env=None, which=shutil.which):
    """The browser to use, or None. IVS_CHROMIUM wins; a set but unusable IVS_CHROMIUM is an error,
    not a reason to fall back to another browser the caller did not ask for."""
    env = os.environ if env is None else env
    configured = env.get("IVS_CHROMIUM", "").strip()
    if configured:
        exe = which(configured)
        if not exe:
            raise FileNotFoundError(f"IVS_CHROMIUM={configured!r} is not an executable")
        return exe
    return which("chromium") or which("chromium-browser")


def _chromium():
    try:
        exe = find_chromium()
    except FileNotFoundError as e:
        pytest.fail(str(e))
    if exe:
        return exe
    skip_policy.missing("no chromium: set IVS_CHROMIUM or put chromium on PATH (apt-get install -y chromium)")


def _run(exe, *args):
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run([exe, *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=60)


def _image_counts(exe, html):
    """(decoded, total) <img> counts that report.html's own script wrote into #img-check on load."""
    dom = _run(exe, "--dump-dom", html.resolve().as_uri()).stdout
    m = IMG_CHECK.search(dom)
    assert m, "the image check script did not run: " + dom[:300]
    return int(m.group(1)), int(m.group(2))


def test_report_renders_in_chromium(step_run, tmp_path):
    exe = _chromium()
    assert main(["report", str(step_run)]) == 0
    url = (step_run / "report.html").resolve().as_uri()
    shot = tmp_path / "shot.png"
    _run(exe, f"--screenshot={shot}", "--window-size=1280,4000", url)
    assert shot.is_file() and shot.stat().st_size > 20_000, "screenshot missing or blank"

    loaded, total = _image_counts(exe, step_run / "report.html")
    assert total >= 4 and loaded == total


def test_experiment_report_renders_in_chromium(experiment, tmp_path):
    """The experiment report has its own charts (per epoch, value sizes, extend): all must decode too."""
    exe = _chromium()
    out = tmp_path / "out"
    assert main(["report", str(experiment), "-o", str(out)]) == 0
    pngs = sorted(p.name for p in out.glob("*.png"))
    loaded, total = _image_counts(exe, out / "report.html")
    # Every chart written is shown (total == number of PNGs) and every one decoded.
    assert total == len(pngs) and total >= 5, (total, pngs)
    assert loaded == total, f"{loaded}/{total} images decoded"


def test_broken_image_is_noticed(step_run):
    """The check itself must be able to fail: remove one chart and expect loaded < total."""
    exe = _chromium()
    assert main(["report", str(step_run)]) == 0
    (step_run / "types.png").unlink()
    loaded, total = _image_counts(exe, step_run / "report.html")
    assert loaded == total - 1


def test_broken_experiment_image_is_noticed(experiment, tmp_path):
    exe = _chromium()
    out = tmp_path / "out"
    assert main(["report", str(experiment), "-o", str(out)]) == 0
    (out / "value_sizes_heatmap.png").unlink()
    loaded, total = _image_counts(exe, out / "report.html")
    assert loaded == total - 1


# The browser lookup itself, without a browser: it decides between skip, fail and run.

def test_ivs_chromium_wins_over_path():
    found = {"/opt/chrome/chrome": "/opt/chrome/chrome", "chromium": "/usr/bin/chromium"}
    assert find_chromium({"IVS_CHROMIUM": "/opt/chrome/chrome"}, found.get) == "/opt/chrome/chrome"
    assert find_chromium({}, found.get) == "/usr/bin/chromium"
    assert find_chromium({}, {"chromium-browser": "/usr/bin/chromium-browser"}.get) == "/usr/bin/chromium-browser"
    assert find_chromium({}, {}.get) is None


def test_unusable_ivs_chromium_is_an_error():
    with pytest.raises(FileNotFoundError, match="IVS_CHROMIUM"):
        find_chromium({"IVS_CHROMIUM": "/nonexistent/chromium"}, {"chromium": "/usr/bin/chromium"}.get)


def test_missing_browser_fails_unless_skipping_is_allowed(monkeypatch):
    monkeypatch.setenv("IVS_CHROMIUM", "")
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("IVS_ALLOW_SKIP", raising=False)
    with pytest.raises(pytest.fail.Exception, match="no chromium.*IVS_ALLOW_SKIP=1 to skip"):
        _chromium()
    monkeypatch.setenv("IVS_ALLOW_SKIP", "1")
    with pytest.raises(pytest.skip.Exception, match="no chromium"):
        _chromium()
    monkeypatch.setenv("IVS_ALLOW_SKIP", "yes")  # only 1 allows it
    with pytest.raises(pytest.fail.Exception):
        _chromium()
