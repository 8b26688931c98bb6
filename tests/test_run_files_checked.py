"""Run folders cannot lie: every file a run reads back (config.json, the checkpoint, plans, player files) is
checked field by field, and absurd or tampered values are refused in one line before any work."""

from __future__ import annotations

import json
import math
import pickle
import re
from pathlib import Path

import pytest

from gpquarto.cli import main
from gpquarto.plain_files import read_plain_file
from gpquarto.training import EvolutionConfig, RunError, open_run, train

TINY = {"population": 6, "games": 4, "opponents": "random:1", "seed": 3, "final_games": 4, "accuracy_weight": 0.0}


def deep_pickle(depth: int) -> bytes:
    """A pickle of ``depth`` nested lists, built opcode by opcode (pickling it would recurse)."""
    return b"\x80\x02" + b"]" * depth + b"a" * (depth - 1) + b"."


def one_line_error(capsys) -> str:
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("gpquarto: error: "), error
    return error


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"generations": "5"}, "generations must be a whole number, got '5'"),
        ({"generations": math.inf}, "generations must be a whole number"),
        ({"population": True}, "population must be a whole number"),
        ({"fallback_weight": math.nan}, "fallback_weight must be a finite number"),
        ({"games": 1_000_000_000}, "games must be at most 100,000"),
        ({"final_games": 10**12}, "final_games must be at most 100,000"),
        ({"population": 10**9}, "population must be at most 10,000"),
        ({"crossover_rate": 2.0}, "crossover_rate must be between 0 and 1"),
        ({"seed": -1}, "seed must be >= 0"),
        ({"plugins": "evil.py"}, "plugins must be a list of file paths"),
        ({"tactical": "no"}, "tactical must be true or false"),
        ({"opponents": 7}, "opponents must be text"),
    ],
)
def test_a_config_checks_every_field_type_and_range(change, message):
    with pytest.raises(ValueError, match=message):
        EvolutionConfig(**{**TINY, **change})
    with pytest.raises(ValueError, match=message):
        EvolutionConfig.from_dict({**EvolutionConfig(**TINY).as_dict(), **change})


def test_plain_files_nested_absurdly_deep_are_refused(tmp_path):
    path = tmp_path / "deep.dill"
    path.write_bytes(deep_pickle(100_000))
    with pytest.raises(ValueError, match="nested more than 64 levels"):
        read_plain_file(path, "checkpoint")
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="nested too deeply"):
        read_plain_file(path, "run config", json_format=True)
    shared: list = []
    for _ in range(60):  # 2**60 paths through 60 lists: checked quickly, and accepted
        shared = [shared, shared]
    path.write_bytes(pickle.dumps(shared))
    assert isinstance(read_plain_file(path, "checkpoint"), list)


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    return train(EvolutionConfig(generations=1, **TINY), tmp_path_factory.mktemp("runs") / "run", best_player_copy=None)


def copy_of(run, tmp_path) -> Path:
    """A copy of the run's folder, to tamper with."""
    folder = tmp_path / "copy"
    folder.mkdir()
    for item in run.path.iterdir():
        (folder / item.name).write_bytes(item.read_bytes())
    return folder


def edited_config(run, tmp_path, edit) -> RunError:
    """A copy of the run's folder with config.json edited by ``edit(data)``, opened."""
    folder = copy_of(run, tmp_path)
    data = json.loads((folder / "config.json").read_text())
    edit(data)
    (folder / "config.json").write_text(json.dumps(data))
    with pytest.raises(RunError) as raised:
        open_run(folder)
    return raised.value


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda data: data["evolution"].update(population="6"), "population must be a whole number"),
        (lambda data: data["evolution"].update(generations=10**12), "generations must be at most"),
        (lambda data: data.update(best_player_copy="relative.p"), "best_player_copy must be null or the absolute"),
        (lambda data: data.update(best_player_copy="/tmp/out.txt"), "best_player_copy must be null or the absolute"),
        (lambda data: data.update(best_player_copy=["/tmp/x.p"]), "best_player_copy must be null or the absolute"),
        (lambda data: data.update(run_id={"a": 1}), "run_id must be"),
        (lambda data: data.update(extra=1), "unknown keys: extra"),
        (lambda data: data.update(evolution=[1, 2, 3]), "an evolution config is a mapping"),
    ],
)
def test_a_tampered_run_config_is_refused_in_one_line(small_run, tmp_path, edit, message):
    error = edited_config(small_run, tmp_path, edit)
    assert message in str(error) and "\n" not in str(error)


def test_a_run_config_nested_absurdly_deep_is_one_line(small_run, tmp_path, capsys):
    folder = tmp_path / "deep"
    folder.mkdir()
    (folder / "config.json").write_text('{"evolution": ' + "[" * 100_000 + "]" * 100_000 + "}")
    (folder / "checkpoint.dill").write_bytes(small_run.checkpoint_path.read_bytes())
    with pytest.raises(RunError, match="nested too deeply"):
        open_run(folder)
    assert main(["train", "--resume", "--run-dir", str(folder), "--quiet"]) == 2
    assert "nested too deeply" in one_line_error(capsys)


def test_absurd_sizes_and_bad_config_files_are_one_line_before_any_work(tmp_path, capsys):
    run_dir = tmp_path / "huge"
    assert main(["train", "--games", "1000000000", "--run-dir", str(run_dir), "--quiet", "--workers", "1"]) == 2
    assert "games must be at most 100,000" in one_line_error(capsys)
    assert not run_dir.exists()
    for text, message in (('{"generations": "5"}', "must be a whole number"), ('{"generations": Infinity}', "inf")):
        config = tmp_path / "variant.json"
        config.write_text(text)
        arguments = ["experiment", "--config", str(config), "--seeds", "1", "--out", str(tmp_path / "exp")]
        assert main([*arguments, "--workers", "1", "--quiet"]) == 2
        assert message in one_line_error(capsys)
        assert not (tmp_path / "exp").exists()
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["show", str(deep)]) == 2
    assert "nested too deeply" in one_line_error(capsys)
    deep.write_text('{"generations": ' + "[" * 100_000 + "]" * 100_000 + "}")
    arguments = ["experiment", "--config", str(deep), "--seeds", "1", "--out", str(tmp_path / "exp")]
    assert main([*arguments, "--workers", "1", "--quiet"]) == 2
    assert "nested too deeply" in one_line_error(capsys)


def tampered_copy(run, tmp_path, edit) -> Path:
    """A copy of the run's folder whose checkpoint's plain data is changed by ``edit(data)``."""
    folder = copy_of(run, tmp_path)
    data = pickle.loads((folder / "checkpoint.dill").read_bytes())
    edit(data)
    (folder / "checkpoint.dill").write_bytes(pickle.dumps(data))
    return folder


def drop(key):
    return lambda data: data.pop(key)


def change(key, value):
    return lambda data: data.update({key: value})


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (drop("generation"), "missing: generation"),
        (change("generation", -5), "generation must be a whole number from 0 to 1, got -5"),
        (change("generation", 10**12), "generation must be a whole number from 0 to 1, got 1000000000000"),
        (change("generation", "1"), "generation must be a whole number"),
        (lambda data: data["hall_of_fame"][0].update(fitness=["x"]), "the fitness must be two finite numbers"),
        (lambda data: data["hall_of_fame"][0].update(record=[1]), "the record must map names"),
        (change("logbook", [1, 2, 3]), "the logbook must be a list of 1 rows"),
        (change("logbook", [[1]]), "logbook row 0 must map names"),
        (change("logbook", [{"generation": 0, "best": "x"}]), "logbook row 0 must hold numbers"),
        (change("population", [{"choose": [], "place": []}]), "the population must be a list of 6 genomes"),
        (change("rng", (3, (1, 2), None)), "the random generator's state is malformed"),
        (change("hall_of_fame", []), "a hall of fame with 0 members after 1 generations"),
        (lambda data: data["config"].update(population=10**9), "population must be at most"),
    ],
)
def test_a_tampered_checkpoint_is_refused_in_one_line_and_nothing_is_written(
    small_run, tmp_path, capsys, edit, message
):
    folder = tampered_copy(small_run, tmp_path, edit)
    before = {item.name: item.read_bytes() for item in folder.iterdir()}
    assert main(["train", "--resume", "--generations", "2", "--run-dir", str(folder), "--quiet", "--workers", "1"]) == 2
    error = one_line_error(capsys)
    assert message in error and "checkpoint.dill" in error
    assert {item.name: item.read_bytes() for item in folder.iterdir()} == before
    with pytest.raises(RunError, match=re.escape(message)):
        open_run(folder).logbook()


def test_a_checkpoint_nested_absurdly_deep_is_one_line(small_run, tmp_path, capsys):
    folder = tampered_copy(small_run, tmp_path, lambda data: None)
    (folder / "checkpoint.dill").write_bytes(deep_pickle(100_000))
    assert main(["train", "--resume", "--run-dir", str(folder), "--quiet", "--workers", "1"]) == 2
    assert "nested more than 64 levels" in one_line_error(capsys)


def test_a_population_edited_in_config_json_mid_run_is_refused(small_run, tmp_path, capsys):
    folder = tampered_copy(small_run, tmp_path, lambda data: None)
    data = json.loads((folder / "config.json").read_text())
    data["evolution"]["population"] = 8
    (folder / "config.json").write_text(json.dumps(data))
    assert main(["train", "--resume", "--generations", "2", "--run-dir", str(folder), "--quiet", "--workers", "1"]) == 2
    assert "the config differs from the checkpoint's in population" in one_line_error(capsys)
