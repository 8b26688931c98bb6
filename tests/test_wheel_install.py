"""The built-in primitive library works the same from a wheel install as from the editable checkout.

Builds the wheel from a copy of the sources (once per test session: the ``gpquarto_wheel`` fixture of
tests/conftest.py, shared with tests/test_example_plugin_package.py), installs it (without dependencies) into a
fresh virtual environment that borrows this interpreter's third-party packages through a ``.pth`` file, and runs
``python -m gpquarto primitives`` from outside the checkout. Takes 10-30 s (the build installs setuptools in
an isolated environment).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from gpquarto.cli.primitives_cmd import format_library
from gpquarto.gp.library import load_library
from tests.helpers import REPO as ROOT
from tests.helpers import environment_without_checkout, isolated_environment, run_checked


def test_wheel_install_lists_the_builtin_primitives(tmp_path, gpquarto_wheel):
    wheel = gpquarto_wheel

    # every package of the checkout is in the wheel, and the built-in library under its installed name
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in sorted(
        {path.parent for path in (ROOT / "gpquarto").rglob("*.py")} - {ROOT / "gpquarto" / "__pycache__"}
    ):
        package = folder.relative_to(ROOT).as_posix()
        assert any(name.startswith(package + "/") and name.count("/") == package.count("/") + 1 for name in names), (
            f"package {package.replace('/', '.')} is missing from the wheel: add it to [tool.setuptools] packages in pyproject.toml"
        )
    for module in (ROOT / "primitives").glob("*.py"):
        assert f"gpquarto_primitives/{module.name}" in names
    for asset in (ROOT / "gpquarto" / "web" / "static").iterdir():  # the web app's page is package data
        assert f"gpquarto/web/static/{asset.name}" in names, (
            f"{asset.name} is missing: see package-data in pyproject.toml"
        )
    for package in ("gpquarto", "gpquarto_primitives"):
        assert f"{package}/py.typed" in names, f"{package}'s PEP 561 marker py.typed is missing: see package-data"

    python, site_packages = isolated_environment(tmp_path / "venv", wheel)

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = environment_without_checkout()
    where = run_checked(
        [
            str(python),
            "-c",
            "import gpquarto, gpquarto_primitives; print(gpquarto.__file__); print(gpquarto_primitives.__file__)",
        ],
        cwd=outside,
        env=env,
    ).stdout.split()
    assert all(Path(path).resolve().is_relative_to(site_packages.resolve()) for path in where), where

    listing = run_checked([str(python), "-m", "gpquarto", "primitives"], cwd=outside, env=env).stdout
    builtin = format_library(load_library(entry_points=False)).splitlines()[:-1]  # the same, from the checkout
    assert "\n".join(builtin) in listing
    for family in ("characteristics", "counts", "placement", "choice", "combinators", "tactical"):
        assert f"\n{family} (builtin " in listing
