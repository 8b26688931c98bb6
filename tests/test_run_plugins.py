"""A run folder cannot run code: ``--resume`` imports a plugin file only when the command line names it again
(``--plugin``), and only the file recorded when the run started (the same SHA-256), whatever ``config.json``
says; an experiment's plan likewise."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from gpquarto.cli import main
from gpquarto.training import EvolutionConfig, RunError, open_run, train

PLUGIN = '''
from gpquarto.games.quarto.gp.features import Features
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


def test_the_run_records_each_plugin_and_its_hash_and_resumes_with_them_named(plugin_run, capsys):
    run, plugin = plugin_run
    recorded = json.loads((run.path / "config.json").read_text())["plugin_files"]
    assert [entry["path"] for entry in recorded] == [str(plugin)] and len(recorded[0]["sha256"]) == 64
    assert main(resume_command(run, "--plugin", str(plugin))) == 0
    assert open_run(run.path).generations_done == 2


def test_a_run_folder_alone_imports_nothing_even_with_the_files_own_hash(plugin_run, tmp_path, capsys):
    """The attack: a shared run folder whose config names a file and records that file's own SHA-256."""
    run, _ = plugin_run
    evil, marker = evil_plugin(tmp_path)

    def name_evil(data):
        data["evolution"]["plugins"] = [str(evil)]
        data["plugin_files"] = [{"path": str(evil), "sha256": hashlib.sha256(evil.read_bytes()).hexdigest()}]

    edit_config(run, name_evil)
    assert main(resume_command(run)) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"name the file with --plugin {evil}" in error
    for read in (lambda: open_run(run.path).best_player(), lambda: open_run(run.path).hall_of_fame()):
        with pytest.raises(RunError, match="a run folder runs no code by itself"):
            read()
    assert not marker.exists()
    assert open_run(run.path).generations_done == 1


def test_a_tampered_config_naming_another_plugin_runs_nothing(plugin_run, tmp_path, capsys):
    run, plugin = plugin_run
    evil, marker = evil_plugin(tmp_path)

    def name_evil(data):
        data["evolution"]["plugins"] = [str(evil)]
        data["plugin_files"] = []

    edit_config(run, name_evil)
    assert main(resume_command(run)) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "a run folder runs no code by itself" in error
    assert main(resume_command(run, "--plugin", str(plugin))) == 2  # naming the run's own file does not vouch
    assert "cannot resume with a different config" in capsys.readouterr().err
    forged = "0" * 64
    edit_config(run, lambda data: data.update(plugin_files=[{"path": str(evil), "sha256": forged}]))
    with pytest.raises(RunError, match="has changed since the run"):
        open_run(run.path, plugins=[str(evil)]).best_player()
    assert not marker.exists()


def test_a_changed_plugin_is_refused_even_when_given_again(plugin_run, capsys):
    run, plugin = plugin_run
    plugin.write_text(PLUGIN + "\n# changed\n")
    assert main(resume_command(run, "--plugin", str(plugin))) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and f"plugin {plugin} has changed since the run" in error
    assert open_run(run.path).generations_done == 1


def test_a_run_that_recorded_no_hash_resumes_only_with_its_plugins_given_again(plugin_run, capsys):
    run, plugin = plugin_run
    edit_config(run, lambda data: data.pop("plugin_files"))
    assert main(resume_command(run)) == 2
    assert f"name the file with --plugin {plugin}" in capsys.readouterr().err
    assert main(resume_command(run, "--plugin", str(plugin))) == 0
    assert open_run(run.path).plugin_hashes == {
        str(plugin): json.loads((run.path / "config.json").read_text())["plugin_files"][0]["sha256"]
    }
    assert open_run(run.path).generations_done == 2


def test_an_experiment_plan_naming_a_plugin_runs_it_only_when_named(tmp_path):
    from gpquarto.jobs.experiment import PLAN_FILE, ExperimentPlan, Variant, run_experiment

    evil, marker = evil_plugin(tmp_path)
    settings = {"generations": 1, "population": 4, "games": 2, "opponents": "random", "final_games": 2}
    plan = ExperimentPlan(
        variants=(Variant("mine", {"plugins": (str(evil),)}),), seeds=(0,), base=settings, evaluation_games=2
    )
    out = tmp_path / "experiment"
    with pytest.raises(ValueError, match=f"uses the plugin {evil}: a plan runs no code by itself"):
        run_experiment(plan, out)
    assert not marker.exists() and not out.exists()  # refused before the plan was written
    plain = ExperimentPlan(variants=(Variant("plain", {}),), seeds=(0,), base=settings, evaluation_games=2)
    run_experiment(plain, out)
    saved = json.loads((out / PLAN_FILE).read_text())
    saved["configs"]["plain"]["plugins"] = [str(evil)]  # a shared experiment folder whose pins name code
    (out / PLAN_FILE).write_text(json.dumps(saved))
    with pytest.raises(ValueError, match="a plan runs no code by itself"):
        run_experiment(plain, out)
    assert not marker.exists()
