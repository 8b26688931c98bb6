"""Shared test fixtures and helpers.

The suite runs in parallel (pytest-xdist: the README's test command), each worker in its own process with its
own temporary folders. What the workers of one test session share lives in :func:`session_folder`: the tests'
gpquarto cache (``private_cache``: gpquarto writes its cache files atomically, so a bank is built once whichever
worker needs it first), and what is costly to build once (the 4x4 Quixo solution, gpquarto's wheel), built by
the first worker to ask while it holds a file lock, so the others wait for it instead of building it too.
"""

from __future__ import annotations

import gc
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock

from tests.cli_server import CliServer

REPO = Path(__file__).resolve().parent.parent


#: The CLI server of this test process (see :mod:`tests.cli_server`), started by its first command.
CLI_SERVER = CliServer(REPO)


def run_cli(
    *args: str, input_text: str | None = None, cwd: Path | None = None, timeout: float = 300
) -> subprocess.CompletedProcess:
    """Run ``python -m gpquarto ARGS`` as a user would, capturing its output: in a child of the CLI server (a
    process of its own, without an interpreter's start), or in a fresh interpreter when a fork cannot stand for
    one (see :mod:`tests.cli_server`)."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    served = CLI_SERVER.run(list(args), input_text, cwd or REPO, env, timeout)
    if served is not None:
        return served
    return subprocess.run(
        [sys.executable, "-m", "gpquarto", *args],
        input=input_text,
        capture_output=True,
        text=True,
        cwd=cwd or REPO,
        env=env,
        timeout=timeout,
    )


#: The test modules that take longest (about 10 s or more in one process), longest first. In parallel (the README's
#: test command: pytest-xdist, ``--dist loadfile`` in pyproject.toml) each module runs on one worker, in its order,
#: and the modules are handed out in collection order, which puts these first: a long module started last would
#: leave the other workers idle while it ends. A module missing here only runs in its alphabetical place.
LONGEST_FIRST = (
    "test_readme",
    "test_cli_quixo",
    "test_connect_four_package",
    "test_dask",
    "test_web_hardening",
    "test_example_plugin_package",
    "test_train_evaluator",
    "test_fuzz_cli",
    "test_quixo_primitives",
    "test_experiment",
    "test_train_e2e",
    "test_types",
    "test_learning",
    "test_cli_watch",
    "test_train_quixo",
    "test_web_browser",
    "test_web_browser_quixo",
    "test_search_budgets",
    "test_runner",
    "test_generic_gp",
    "test_web_fairness",
    "test_training_run",
    "test_gp_evolution",
    "test_training_opponents",
    "test_cli_grade",
    "test_gp_simplify",
    "test_training_start_from",
)


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: unknown when it is not loaded (-p no:xdist)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker per CPU core this process may run on, and one more. Many tests wait on processes they
    started (servers, a browser, a cluster, commands), and a spare worker runs tests in those waits. The environment
    variable ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still sets the number, as with pytest-xdist's own default."""
    configured = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    if configured:
        return int(configured)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + 1


def in_xdist_worker(config: pytest.Config) -> bool:
    """Whether this process is a pytest-xdist worker (an environment variable would also be inherited by a pytest
    that a test starts)."""
    return hasattr(config, "workerinput")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a pytest-xdist worker, the modules of :data:`LONGEST_FIRST` come first (a stable sort: the tests of a
    module keep their order); one process keeps the alphabetical order."""
    if not in_xdist_worker(config):
        return
    rank = {name: index for index, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.stem, len(rank)))


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """After the last test: collect the garbage until a collection finds none (so every finalizer has run, and its
    errors have reached pytest's hook for them), then freeze the heap. pytest collects five more times at its
    clean-up to find such errors; in a worker that imported every library of the suite, each of those full
    collections walked the whole heap again for nothing new."""
    for _ in range(5):
        if not gc.collect():
            break
    gc.freeze()


#: How Ctrl-C stood in this process when the tests began: (blocked in the main thread, its handler).
CTRL_C_AT_START = (signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []), signal.getsignal(signal.SIGINT))


@pytest.fixture(autouse=True)
def ctrl_c_left_as_found():
    """A test must leave Ctrl-C as the tests found it in this process (blocked in the main thread or not, and its
    handler): every command a later test starts inherits a block, where its Ctrl-C would never arrive. A leak is
    this test's error, and it is undone here."""
    yield
    found = (signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []), signal.getsignal(signal.SIGINT))
    if found != CTRL_C_AT_START:
        blocked, handler = CTRL_C_AT_START
        signal.pthread_sigmask(signal.SIG_BLOCK if blocked else signal.SIG_UNBLOCK, {signal.SIGINT})
        signal.signal(signal.SIGINT, handler)
        pytest.fail(f"the test left Ctrl-C (blocked, handler) at {found}, not at {CTRL_C_AT_START}")


@pytest.fixture(scope="session", autouse=True)
def cli_server():
    """Stops this process's CLI server at the end of the session."""
    yield CLI_SERVER
    CLI_SERVER.close()


@pytest.fixture
def cli():
    """The :func:`run_cli` helper as a fixture."""
    return run_cli


@pytest.fixture(scope="session")
def session_folder(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of this test session that every xdist worker shares: the parent of the worker's own
    (``.../pytest-N/popen-gwK``), or the session's own folder when the tests run in one process."""
    own = tmp_path_factory.getbasetemp()
    return own.parent if in_xdist_worker(pytestconfig) else own


def built_once(session_folder: Path, name: str, build: Callable[[Path], object]) -> Path:
    """The folder ``name`` of ``session_folder``, filled by ``build(folder)`` once per test session: the first
    worker to ask builds it while holding a file lock, the others wait for the lock and find it built. A build
    that failed half-way is started again from an empty folder by the next worker to ask."""
    root = session_folder / "built-once"
    root.mkdir(exist_ok=True)
    folder, done = root / name, root / f"{name}.done"
    with FileLock(root / f"{name}.lock"):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            build(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session", autouse=True)
def private_cache(session_folder):
    """Banks and solutions built by the tests go to a temporary cache, never the user's (commands inherit the
    variable); the workers of a session share it."""
    folder = session_folder / "cache"
    folder.mkdir(exist_ok=True)
    os.environ["GPQUARTO_CACHE"] = str(folder)


@pytest.fixture(scope="session")
def quixo_4x4_solution(private_cache, session_folder):
    """The exact solution of 4x4 Quixo (official rules), solved once per test session into the tests' cache
    (about half a minute with numba), so every test that needs it, in this process or in a command it runs, finds
    it. The lock makes a second worker wait for the first one's solution and read it instead of solving it too."""
    from gpquarto.games.quixo.search import solver

    with FileLock(session_folder / "quixo-4x4.lock"):
        return solver.solve(4)


@pytest.fixture(scope="session")
def gpquarto_wheel(session_folder) -> Path:
    """gpquarto's wheel, built once per test session from a copy of the sources (see
    :func:`tests.helpers.build_gpquarto_wheel`)."""
    from tests.helpers import build_gpquarto_wheel

    folder = built_once(session_folder, "gpquarto-wheel", build_gpquarto_wheel)
    (wheel,) = (folder / "dist").glob("gpquarto-*.whl")
    return wheel
