"""The annotations are checked: mypy over ``gpquarto`` and ``primitives`` (configured in pyproject.toml's
``[tool.mypy]``) reports no error. Each ``# type: ignore`` names its error code and says why (mypy's
``warn_unused_ignores`` fails one that no longer hides anything)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.helpers import REPO


def test_mypy_finds_no_error():
    # no cache (mypy's way: os.devnull): never a stale one, never the checkout's, and none written for nothing
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", os.devnull],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert result.stdout.startswith("Success: no issues found"), result.stdout


def test_every_type_ignore_names_its_code_and_why():
    bare = []
    for path in sorted([*(REPO / "gpquarto").rglob("*.py"), *(REPO / "primitives").rglob("*.py")]):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "# type: ignore" in line and not re.search(r"# type: ignore\[[a-z-]+(, [a-z-]+)*\]  # \S", line):
                bare.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert bare == [], "\n".join(bare)
