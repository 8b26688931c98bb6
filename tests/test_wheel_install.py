"""The built-in primitive library works the same from a wheel install as from the editable checkout.

Builds the wheel from a copy of the sources, installs it (without dependencies) into a fresh virtual
environment that borrows this interpreter's third-party packages through a ``.pth`` file, and runs
``python -m gpquarto primitives`` from outside the checkout. Takes 10-30 s (the build installs setuptools in
an isolated environment).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from gpquarto.cli.primitives_cmd import format_library
from gpquarto.gp.primitives import load_library

ROOT = Path(__file__).resolve().parents[1]
DEPENDENCIES = ("deap", "dill", "numpy", "matplotlib", "tqdm")


def run(command: list[str], **options) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, **options)
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
    return result


def copy_sources(target: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    for folder in ("gpquarto", "primitives"):
        shutil.copytree(ROOT / folder, target / folder, ignore=ignore)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, target / name)
    return target


def test_wheel_install_lists_the_builtin_primitives(tmp_path):
    source = copy_sources(tmp_path / "source")
    run([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), str(source)])
    (wheel,) = (tmp_path / "dist").glob("gpquarto-*.whl")

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

    environment = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(environment)])
    python = environment / "bin" / "python"
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            str(wheel),
        ]
    )
    site_packages = Path(
        run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    )
    borrowed = {str(Path(importlib.util.find_spec(name).origin).parents[1]) for name in DEPENDENCIES}
    (site_packages / "borrowed_dependencies.pth").write_text("\n".join(sorted(borrowed)) + "\n")

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    where = run(
        [
            str(python),
            "-c",
            "import gpquarto, gpquarto_primitives; print(gpquarto.__file__); print(gpquarto_primitives.__file__)",
        ],
        cwd=outside,
        env=env,
    ).stdout.split()
    assert all(Path(path).resolve().is_relative_to(site_packages.resolve()) for path in where), where

    listing = run([str(python), "-m", "gpquarto", "primitives"], cwd=outside, env=env).stdout
    builtin = format_library(load_library(entry_points=False)).splitlines()[:-1]  # the same, from the checkout
    assert "\n".join(builtin) in listing
    for family in ("characteristics", "counts", "placement", "choice", "combinators", "tactical"):
        assert f"\n{family} (builtin " in listing
