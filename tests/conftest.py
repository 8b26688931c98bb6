"""Shared test fixtures and helpers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def run_cli(
    *args: str, input_text: str | None = None, cwd: Path | None = None, timeout: float = 300
) -> subprocess.CompletedProcess:
    """Run ``python -m gpquarto ARGS`` as a user would, capturing its output."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "gpquarto", *args],
        input=input_text,
        capture_output=True,
        text=True,
        cwd=cwd or REPO,
        env=env,
        timeout=timeout,
    )


@pytest.fixture
def cli():
    """The :func:`run_cli` helper as a fixture."""
    return run_cli


@pytest.fixture(scope="session")
def quixo_4x4_solution(private_cache):
    """The exact solution of 4x4 Quixo (official rules), solved once per test session into the tests' cache
    (about a minute with numba), so every test that needs it, in this process or in a command it runs, finds it."""
    from gpquarto.games.quixo.search import solver

    return solver.solve(4)


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory):
    """Banks built by the tests go to a temporary cache, never the user's (commands inherit the variable)."""
    os.environ["GPQUARTO_CACHE"] = str(tmp_path_factory.mktemp("cache"))
