"""The notebooks run top to bottom on a small training run."""

from __future__ import annotations

import json

import matplotlib
import pytest

from tests.conftest import REPO, run_cli

NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("run")
    result = run_cli(
        "train", "--generations", "2", "--population", "6", "--games", "4", "--final-games", "10",
        "--workers", "1", "--quiet", "--run-dir", str(folder / "run"), "--filename", str(folder / "best.p"),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return folder / "run"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_runs(notebook, tiny_run, monkeypatch, capsys):
    matplotlib.use("Agg")
    monkeypatch.setenv("GPQUARTO_RUN", str(tiny_run))
    monkeypatch.setenv("GPQUARTO_GAMES", "20")
    cells = json.loads(notebook.read_text())["cells"]
    namespace: dict = {}
    for cell in cells:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{notebook.name}", "exec"), namespace)
    output = capsys.readouterr().out
    assert "2 generations" in output
    assert "choose rules:" in output and "place rules:" in output
    assert "vs random" in output and "vs novice" in output


def test_there_is_a_notebook():
    assert NOTEBOOKS
