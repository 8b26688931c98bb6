"""The example plugin package under examples/ adds primitives through the ``gpquarto.primitives`` entry point.

One fresh virtual environment for the module: gpquarto's wheel and the example package installed in it
(without dependencies, borrowed from this interpreter; pip fetches the example's build backend from its
cache or the package index). Takes 20-60 s on a loaded 2-core machine.
"""

from __future__ import annotations

import shutil

import pytest

from gpquarto.gp.storage import read_player_file
from tests.helpers import REPO, installed_package_environment, isolated_environment, run_checked

EXAMPLE = REPO / "examples" / "quarto-corner-primitives"
DISTRIBUTION = "quarto-corner-primitives"
PRIMITIVES = ("free_corners", "opposite_corner_square", "last_corner_square")


@pytest.fixture(scope="module")
def environment(tmp_path_factory, gpquarto_wheel):
    """(python, a working folder outside the checkout, the environment variables) with the example installed."""
    folder = tmp_path_factory.mktemp("plugin-package")
    # pip builds in the project's folder (build/, *.egg-info): a copy, never the checkout
    example = shutil.copytree(EXAMPLE, folder / EXAMPLE.name, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    python, _ = isolated_environment(folder / "venv", gpquarto_wheel, example, offline=False)
    work = folder / "work"
    work.mkdir()
    return python, work, installed_package_environment()


def test_the_example_does_not_clash_with_the_builtin_library():
    from gpquarto.gp.library import load_library

    builtin = load_library(entry_points=False)
    assert not [name for name in PRIMITIVES if name in builtin.specs]


def test_primitives_lists_them_under_the_package_name(environment):
    python, work, env = environment
    listing = run_checked([str(python), "-m", "gpquarto", "primitives"], cwd=work, env=env).stdout
    assert f"corners ({DISTRIBUTION} 0.1.0):" in listing
    section = listing.split(f"corners ({DISTRIBUTION} 0.1.0):")[1]
    for name in PRIMITIVES:
        assert f"\n  {name} -> " in section
    assert "\ncharacteristics (builtin " in listing  # the built-in library is still there


def test_a_short_training_run_uses_them(environment):
    # without the accuracy term: grading every genome on the solved bank, in plain Python here, is not what is tested
    python, work, env = environment
    run_checked(
        [str(python), "-m", "gpquarto", "train", "--generations", "2", "--population", "6", "--games", "4",
         "--opponents", "random", "--final-games", "0", "--accuracy-weight", "0", "--workers", "1", "--quiet",
         "--run-dir", "runs/corners", "--filename", "corner_player.p"],
        cwd=work, env=env,
    )  # fmt: skip
    data = read_player_file(work / "corner_player.p")
    assert DISTRIBUTION in data["library_versions"]
    assert data["library_versions"][DISTRIBUTION] == "0.1.0"
    for name, source in data["primitives"].items():  # the rules' primitives, each with its source
        assert (source == DISTRIBUTION) == (name in PRIMITIVES), (name, source)
    # the saved player loads and plays where the package is installed
    run_checked([str(python), "-m", "gpquarto", "show", "corner_player.p"], cwd=work, env=env)
