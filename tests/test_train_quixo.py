"""Training Quixo rule players: the config per game, reproducible runs (workers, interruption), the run folder,
the command line, and the game a run and its players keep."""

from __future__ import annotations

import json

import pytest

from gpquarto.cli import main
from gpquarto.gp.library import get_library
from gpquarto.gp.player import RulePlayer
from gpquarto.gp.storage import load_player
from gpquarto.grading.cache import load_or_build_bank
from gpquarto.grading.grade import grade_player
from gpquarto.runner import make_runner
from gpquarto.training import EvolutionConfig, open_run, resume, train
from gpquarto.training.config import training_defaults
from gpquarto.training.evolution import Evolution
from gpquarto.training.simplified import decision_positions
from tests.helpers import first_quixo_rule_move

#: A tiny run; its games start from random openings, so the worker and resume tests cover them too.
TINY = {
    "population": 6,
    "games": 4,
    "final_games": 4,
    "seed": 3,
    "board_size": 4,
    "opponents": "random:1,hof:1",
    "openings": 3,
}
FILES = ("logbook.csv", "hall_of_fame.txt", "best_player.json", "best_player.simplified.json")


def quixo(**settings) -> EvolutionConfig:
    return EvolutionConfig.for_game("quixo", **{**TINY, **settings})


class Interrupted(Exception):
    """Stands for a run stopped after a generation (its checkpoint is written before the hook runs)."""


def comparable(folder, name: str) -> str:
    text = (folder / name).read_text()
    if name.endswith(".json"):
        data = json.loads(text)
        data.pop("run")
        data.pop("name")  # the run folder's name
        return json.dumps(data, sort_keys=True)
    return text


@pytest.fixture(scope="module")
def straight(tmp_path_factory):
    return train(quixo(generations=4), tmp_path_factory.mktemp("runs") / "straight", best_player_copy=None)


# -- the config -------------------------------------------------------------------------------------------


def test_quixo_configs_have_their_own_defaults_and_settings():
    config = EvolutionConfig.for_game("quixo")
    assert config.game == "quixo" and (config.board_size, config.game_rules) == (5, "official")
    assert config.accuracy_weight == 0 and config.opponents == training_defaults("quixo").evolution["opponents"]
    assert config.game_settings() == {"size": 5, "rules": "official"}
    assert config.library().game == "quixo"
    assert EvolutionConfig.for_game("quarto") == EvolutionConfig(racing=True, accuracy_positions=1000, parsimony=0.0002)
    assert not config.racing and config.accuracy_positions == EvolutionConfig().accuracy_positions
    assert EvolutionConfig().game_settings() == {}


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {"game": "quixo", "accuracy_weight": 1.0, "accuracy_positions": 0},
            r"accuracy term grades decisions on the game's bank: a bank needs at least 1 position, got 0",
        ),
        ({"game": "quixo", "board_size": 6, "accuracy_weight": 0.0}, "size is 3, 4 or 5"),
        ({"game": "quixo", "game_rules": "house", "accuracy_weight": 0.0}, "unknown Quixo rules 'house'"),
        ({"board_size": 4}, "quarto has no board size or rules"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "quixo", "accuracy_weight": 0.0, "opponents": "novice"}, "novice"),
        ({"game": "quixo", "accuracy_weight": 0.0, "openings": -1}, "openings must be >= 0"),
        ({"game": "quixo", "accuracy_weight": 0.0, "openings": 101}, "openings must be at most 100"),
    ],
)
def test_bad_game_settings_are_refused_in_one_line(settings, message):
    with pytest.raises(ValueError, match=message) as caught:
        EvolutionConfig(**settings)
    assert "\n" not in str(caught.value)


def test_configs_written_before_games_are_quarto():
    data = EvolutionConfig().as_dict()
    for key in ("game", "board_size", "game_rules", "openings"):
        del data[key]
    config = EvolutionConfig.from_dict(data)
    assert config.game == "quarto" and config.openings == 0


# -- runs -------------------------------------------------------------------------------------------------


def test_a_quixo_run_writes_its_folder_and_a_quixo_player(straight):
    run = open_run(straight.path)
    assert run.config.game == "quixo" and run.finished and run.generations_done == 4
    finished = json.loads((straight.path / "finished.json").read_text())
    assert "best_player.simplified.json" in finished["outputs"] and "notes" not in finished
    player = run.best_player(seed=1)
    assert isinstance(player, RulePlayer) and player.game == "quixo"
    data = json.loads((straight.path / "best_player.json").read_text())
    assert data["game"] == "quixo" and list(data["rules"]) == ["move"] and data["config"]["board_size"] == 4
    assert data["config"]["openings"] == 3
    assert "move rules:" in (straight.path / "hall_of_fame.txt").read_text()
    with pytest.raises(ValueError, match="is a quixo player, not a quarto player"):
        load_player(straight.path / "best_player.json", game="quarto")


def test_a_quixo_run_keeps_a_simplified_player_that_decides_like_its_champion(straight):
    library = get_library(quixo().library())
    original = load_player(straight.path / "best_player.json", game="quixo")
    simplified = load_player(straight.path / "best_player.simplified.json", game="quixo")
    data = json.loads((straight.path / "best_player.simplified.json").read_text())
    assert data["game"] == "quixo" and data["simplification"]["rules_before"] == {
        "move": len(original.genome.rules("move"))
    }
    assert simplified.genome.size <= original.genome.size
    # The simplifier's promise: the same decision at every position of its check games (the run's mix and random,
    # twice the final games, on the run's board and from its openings), told here by the slow first-rule decision.
    check = decision_positions(
        original.genome,
        library,
        "random:1,hof:1,random",
        2 * TINY["final_games"],
        TINY["seed"],
        "simplification check",
        settings={"size": 4, "rules": "official"},
        openings=TINY["openings"],
    )
    assert len(check) == data["simplification"]["checked_positions"] > 20
    for state in check:
        expected = first_quixo_rule_move(original.genome, library, state)
        assert first_quixo_rule_move(simplified.genome, library, state) == expected, state.text()
    # It is a promise about those positions only: rules that decided nowhere in the games are gone, and a fresh game
    # may reach a position where one of them would have.
    removed = data["simplification"]["removed"]
    assert data["simplification"]["rules_after"] == {"move": len(simplified.genome.rules("move"))}
    assert sum(map(len, removed.values())) == len(original.genome.rules("move")) - len(simplified.genome.rules("move"))


def test_a_quixo_run_is_the_same_on_two_workers(straight, tmp_path):
    with make_runner(2) as runner:
        parallel = train(quixo(generations=4), tmp_path / "pool", best_player_copy=None, runner=runner)
    for name in FILES:
        assert comparable(parallel.path, name) == comparable(straight.path, name), name


def test_an_interrupted_quixo_run_resumes_bit_identically(straight, tmp_path):
    def stop_after_two(evolution, row):
        if evolution.generation == 2:
            raise Interrupted

    with pytest.raises(Interrupted):
        train(quixo(generations=4), tmp_path / "stopped", best_player_copy=None, on_generation=stop_after_two)
    assert open_run(tmp_path / "stopped").generations_done == 2
    resumed = resume(tmp_path / "stopped")
    assert resumed.trained_now == 2
    for name in FILES:
        assert comparable(resumed.path, name) == comparable(straight.path, name), name


# -- the command line -------------------------------------------------------------------------------------


def test_train_game_quixo_end_to_end_then_resume_show_and_refusals(tmp_path, capsys):
    folder = tmp_path / "cli"
    common = ["--population", "6", "--games", "4", "--final-games", "4", "--seed", "1", "--workers", "1", "--quiet"]
    start = ["train", "--game", "quixo", "--size", "4", "--generations", "2", *common, "--run-dir", str(folder)]
    assert main([*start, "--filename", str(tmp_path / "best.json")]) == 0
    assert "trained 2 generations" in capsys.readouterr().out
    config = json.loads((folder / "config.json").read_text())["evolution"]
    assert (config["game"], config["board_size"], config["game_rules"]) == ("quixo", 4, "official")
    assert config["opponents"] == training_defaults("quixo").evolution["opponents"] and config["accuracy_weight"] == 0
    assert main(["train", "--resume", "--run-dir", str(folder), "--generations", "3", "--quiet"]) == 0
    assert open_run(folder).generations_done == 3
    capsys.readouterr()
    assert main(["train", "--resume", "--run-dir", str(folder), "--game", "quarto", "--quiet"]) == 2
    error = capsys.readouterr().err.strip()
    assert "\n" not in error and "--game 'quarto' (run has 'quixo')" in error
    assert main(["show", str(tmp_path / "best.json"), "--games", "2"]) == 0
    shown = capsys.readouterr().out
    assert "quixo" in shown and "move rules:" in shown and "move rules (" in shown
    assert main(["match", str(tmp_path / "best.json"), "random", "--games", "2"]) == 2
    assert "is a quixo player, not a quarto player" in capsys.readouterr().err
    assert main(["train", "--game", "quixo", "--size", "6", "--run-dir", str(tmp_path / "x")]) == 2
    assert "size must be one of 3, 4, 5, got 6" in capsys.readouterr().err
    assert main(["train", "--genome", "evaluator", "--game", "quixo", "--run-dir", str(tmp_path / "y")]) == 2
    assert "evaluator genomes are not evolved for quixo" in capsys.readouterr().err


def test_a_quarto_run_refuses_to_resume_as_quixo(tmp_path, capsys):
    folder = tmp_path / "quarto"
    settings = ["--population", "4", "--games", "2", "--final-games", "2", "--opponents", "random", "--workers", "1"]
    command = ["train", "--generations", "1", *settings, "--quiet", "--run-dir", str(folder)]
    assert main([*command, "--filename", str(tmp_path / "q.p")]) == 0
    capsys.readouterr()
    assert main(["train", "--resume", "--run-dir", str(folder), "--game", "quixo", "--quiet"]) == 2
    assert "--game 'quixo' (run has 'quarto')" in capsys.readouterr().err
    saved = open_run(folder).config
    other = EvolutionConfig(**{**saved.as_dict(), "game": "quixo", "accuracy_weight": 0.0})
    with pytest.raises(ValueError, match="differs from the checkpoint's in accuracy_weight, game, board_size"):
        Evolution.load_checkpoint(str(folder / "checkpoint.dill"), get_library(saved.library()), other)


def test_the_web_runs_page_names_the_game(straight):
    from gpquarto.web.runs import run_summary

    summary = run_summary(straight.path.parent, straight.path.name)
    assert summary["game"] == "quixo" and summary["settings"] == {"size": 4, "rules": "official"}
    assert summary["best_player"]["game"] == "quixo" and list(summary["best_player"]["rules"]) == ["move"]


def test_experiment_game_quixo(tmp_path, capsys):
    out = tmp_path / "experiment"
    settings = ["--set", "generations=1", "--set", "population=4", "--set", "games=2", "--set", "final_games=2"]
    command = ["experiment", "--game", "quixo", "--seeds", "1", *settings, "--set", "board_size=4"]
    assert main([*command, "--eval-games", "2", "--workers", "1", "--quiet", "--out", str(out)]) == 0
    assert "vs alphabeta:depth=1" in capsys.readouterr().out
    plan = json.loads((out / "experiment.json").read_text())
    assert plan["configs"]["default"]["game"] == "quixo" and plan["opponents"] == ["random", "alphabeta:depth=1"]


def test_on_a_solved_board_the_accuracy_term_grades_decisions_as_grade_does(tmp_path, quixo_4x4_solution):
    config = quixo(generations=1, population=4, games=2, final_games=2, accuracy_weight=1.0, accuracy_positions=30)
    bank_parameters = config.training_bank()
    assert (bank_parameters.game, bank_parameters.size, bank_parameters.purpose) == ("quixo", 4, "training")
    run = train(config, tmp_path / "accuracy", best_player_copy=None)
    logbook = (run.path / "logbook.csv").read_text().splitlines()
    assert "accuracy" in logbook[0]
    best = json.loads((run.path / "best_player.json").read_text())
    # The accuracy the run recorded is grade's "keeps the value" share on the same bank, by grade's own code.
    bank = load_or_build_bank(bank_parameters)
    assert len(bank) == 30 and {position.game_name for position in bank} == {"quixo"}
    player = load_player(run.path / "best_player.json", game="quixo")
    report = grade_player(player, bank)
    # grade seeds the random fallback otherwise: where a rule decides, both count the same decision.
    library = get_library(config.library())
    fallbacks = sum(first_quixo_rule_move(player.genome, library, position.board()) is None for position in bank)
    recorded = best["fitness"]["accuracy"] * len(bank)
    assert abs(recorded - report.total.correct) <= fallbacks and recorded == round(recorded)
    assert 0 < best["fitness"]["accuracy"] <= 1
