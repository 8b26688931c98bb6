"""A run folder cannot run code: ``--resume`` loads only the plugin files recorded when the run started, with
the same SHA-256, whatever ``config.json`` says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpquarto.cli import main
from gpquarto.training import EvolutionConfig, RunError, open_run, train

PLUGIN = '''
from gpquarto.gp.features import Features
from gpquarto.gp.primitives import primitive
from gpquarto.gp.types import NO_ACTION, Square


@primitive
def last_free_square(features: Features) -> Square:
    """The highest free square."""
    return max(features.empty_squares, default=NO_ACTION)
'''

TINY = {"population": 6, "games": 4, "opponents": "random:1", "seed": 4, "final_games": 4, "accuracy_weight": 0.0}


def evil_plugin(folder: Path) -> tuple[Path, Path]:
    """A plugin file that touches a marker file when it is imported."""
    marker = folder / "pwned"
    evil = folder / "evil.py"
    evil.write_text(f"import os\nos.system('touch {marker}')\n" + PLUGIN)
    return evil, marker


@pytest.fixture
def plugin_run(tmp_path):
    plugin = tmp_path / "mine.py"
    plugin.write_text(PLUGIN)
    config = EvolutionConfig(generations=1, plugins=(str(plugin),), **TINY)
    return train(config, tmp_path / "run", best_player_copy=None), plugin


def edit_config(run, edit) -> None:
    path = run.path / "config.json"
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))


def resume_command(run, *extra: str) -> list[str]:
    return ["train", "--resume", "--generations", "2", "--run-dir", str(run.path), "--quiet", "--workers", "1", *extra]


def test_the_run_records_each_plugin_and_its_hash_and_resumes_with_them(plugin_run, capsys):
    run, plugin = plugin_run
    recorded = json.loads((run.path / "config.json").read_text())["plugin_files"]
    assert [entry["path"] for entry in recorded] == [str(plugin)] and len(recorded[0]["sha256"]) == 64
    assert main(resume_command(run)) == 0
    assert open_run(run.path).generations_done == 2


def test_a_tampered_config_naming_another_plugin_runs_nothing(plugin_run, tmp_path, capsys):
    run, plugin = plugin_run
    evil, marker = evil_plugin(tmp_path)

    def name_evil(data):
        data["evolution"]["plugins"] = [str(evil)]
        data["plugin_files"] = []

    edit_config(run, name_evil)
    assert main(resume_command(run)) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "without its recorded SHA-256" in error
    forged = "0" * 64
    edit_config(run, lambda data: data.update(plugin_files=[{"path": str(evil), "sha256": forged}]))
    assert main(resume_command(run)) == 2
    assert "has changed since the run" in capsys.readouterr().err
    with pytest.raises(RunError, match="has changed since the run"):
        open_run(run.path).best_player()
    assert not marker.exists()


def test_a_changed_plugin_is_refused_even_when_given_again(plugin_run, capsys):
    run, plugin = plugin_run
    plugin.write_text(PLUGIN + "\n# changed\n")
    assert main(resume_command(run)) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"plugin {plugin} has changed since the run" in error
    assert main(resume_command(run, "--plugin", str(plugin))) == 2
    assert "has changed since the run" in capsys.readouterr().err
    assert open_run(run.path).generations_done == 1


def test_a_run_that_recorded_no_hash_resumes_only_with_its_plugins_given_again(plugin_run, capsys):
    run, plugin = plugin_run
    edit_config(run, lambda data: data.pop("plugin_files"))
    assert main(resume_command(run)) == 2
    assert "give it again with --plugin" in capsys.readouterr().err
    assert main(resume_command(run, "--plugin", str(plugin))) == 0
    assert open_run(run.path).plugin_hashes == {
        str(plugin): json.loads((run.path / "config.json").read_text())["plugin_files"][0]["sha256"]
    }
    assert open_run(run.path).generations_done == 2
