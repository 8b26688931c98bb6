"""A missing browser skips the browser tests with one line for a newcomer, and fails them where CI requires it."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import REPO


def run_browser_tests(**variables: str) -> subprocess.CompletedProcess:
    """Collect and run ``tests/test_web_browser.py`` in a child pytest, with a browser path that does not exist."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GPQUARTO_")}
    env.update(GPQUARTO_CHROMIUM=str(REPO / "no-such-browser"), **variables)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "tests/test_web_browser.py"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_missing_browser_skips_the_module_with_one_line_saying_how_to_enable_it():
    result = run_browser_tests()
    # pytest exits 5 ("no tests collected") when the only module it was given is skipped whole.
    assert result.returncode == 5, result.stdout + result.stderr
    assert "1 skipped" in result.stdout
    assert "browser tests skipped" in result.stdout
    assert "apt-get install chromium" in result.stdout
    assert "passed" not in result.stdout and "failed" not in result.stdout


def test_a_required_browser_that_is_missing_fails_instead_of_skipping():
    result = run_browser_tests(GPQUARTO_REQUIRE_BROWSER="1")
    assert result.returncode != 0
    assert "GPQUARTO_REQUIRE_BROWSER=1 requires one" in result.stdout
    assert "skipped" not in result.stdout
