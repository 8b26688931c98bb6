"""The notebooks run top to bottom, in a Jupyter kernel, on a small training run."""

from __future__ import annotations

import signal

import nbformat
import pytest
from nbclient import NotebookClient

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


def printed(notebook: nbformat.NotebookNode) -> str:
    """Everything the executed notebook's code cells printed or showed as text."""
    texts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if output.output_type == "stream":
                texts.append(output.text)
            elif output.output_type in ("execute_result", "display_data"):
                texts.append(output.data.get("text/plain", ""))
            elif output.output_type == "error":
                texts.append(f"{output.ename}: {output.evalue}")
    return "\n".join(texts)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_runs(notebook, tiny_run, monkeypatch):
    monkeypatch.setenv("GPQUARTO_RUN", str(tiny_run))  # the kernel inherits this process's environment
    monkeypatch.setenv("GPQUARTO_GAMES", "20")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    executed = nbformat.read(notebook, as_version=4)
    ctrl_c = signal.getsignal(signal.SIGINT)  # the client's event loop sets its own, and may leave Python's default
    try:
        NotebookClient(
            executed, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tiny_run)}}
        ).execute()
    finally:
        signal.signal(signal.SIGINT, ctrl_c)
    output = printed(executed)
    assert "2 generations" in output  # fitness
    assert "choose rules:" in output and "place rules:" in output  # the rules
    assert "vs random" in output and "vs novice" in output  # strength against the zoo
    assert "the evolved player sat in seat" in output or "no lost game" in output  # a game
    assert "rank  player" in output and "best_player.p" in output  # the small tournament


def test_there_is_a_notebook():
    assert NOTEBOOKS
