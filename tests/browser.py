"""Where the browser tests find their browser, and what they do when there is none.

A newcomer who runs the README's test command on a machine without Chromium sees the browser tests skipped with
one line saying how to enable them. CI sets ``GPQUARTO_REQUIRE_BROWSER=1`` (``.ci/run``), which makes a missing
browser a failure instead, so the browser tests can never be skipped there without anyone noticing.
"""

from __future__ import annotations

import os
import shutil

import pytest

#: Debian's headless Chromium, the browser the tests drive (Playwright's own browser downloads are not used).
DEFAULT_BROWSER = "/usr/bin/chromium"
BROWSER_VARIABLE = "GPQUARTO_CHROMIUM"
REQUIRE_VARIABLE = "GPQUARTO_REQUIRE_BROWSER"
HOW_TO_ENABLE = (
    f"install Debian's Chromium (apt-get install chromium) or set {BROWSER_VARIABLE}=PATH to a Chromium binary"
)


def find_browser() -> str | None:
    """The Chromium executable to drive: ``$GPQUARTO_CHROMIUM`` when set, else Debian's, else ``chromium`` on
    the PATH; None when there is none."""
    named = os.environ.get(BROWSER_VARIABLE)
    if named:
        return named if os.access(named, os.X_OK) else None
    if os.access(DEFAULT_BROWSER, os.X_OK):
        return DEFAULT_BROWSER
    return shutil.which("chromium")


def browser_or_skip() -> str:
    """The browser's path; without one, skip the calling test module in one line, or fail it when
    ``GPQUARTO_REQUIRE_BROWSER=1`` says a browser must be there."""
    found = find_browser()
    if found is not None:
        return found
    named = os.environ.get(BROWSER_VARIABLE)
    missing = f"{BROWSER_VARIABLE}={named} is not an executable" if named else "no Chromium found"
    if os.environ.get(REQUIRE_VARIABLE) == "1":
        pytest.fail(f"browser tests: {missing}, and {REQUIRE_VARIABLE}=1 requires one: {HOW_TO_ENABLE}", pytrace=False)
    pytest.skip(f"browser tests skipped: {missing}; to run them, {HOW_TO_ENABLE}", allow_module_level=True)
