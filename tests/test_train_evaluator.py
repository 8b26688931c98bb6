"""Evaluator training in the one evolution loop: tiny runs are reproducible by seed, resume bit-identically,
ignore the number of workers, use the run folder of rule runs (lock, checkpoint, ``finished.json``), and the CLI
(``train --genome evaluator``) refuses bad input in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpquarto.cli import main
from gpquarto.folder_lock import folder_lock
from gpquarto.gp.evaluator_files import load_evaluator
from gpquarto.gp.library import LibraryConfig
from gpquarto.runner import make_runner
from gpquarto.training import EvolutionConfig, RunError, open_run, resume, train
from gpquarto.training.checkpoint import read_checkpoint_data
from gpquarto.training.fitness import parse_opponents
from gpquarto.training.genome_kinds import EvaluatorTask, evaluate_evaluator

TINY = {
    "genome": "evaluator",
    "depth": 1,
    "generations": 3,
    "population": 4,
    "games": 4,
    "seed": 5,
    "opponents": "minimax:depth=1",
}


def evaluator_config(**settings) -> EvolutionConfig:
    """An evaluator config with the evaluator defaults under ``settings``."""
    return EvolutionConfig.for_game(**{**TINY, **settings})


def state_of(folder: Path) -> dict:
    return read_checkpoint_data(folder / "checkpoint.dill")


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_the_evaluator_defaults_play_every_hand_written_heuristic_and_one_ply_deeper():
    config = EvolutionConfig.for_game(genome="evaluator")
    assert config.depth == 2
    assert (config.generations, config.population, config.games, config.final_games) == (10, 24, 40, 1000)
    assert (config.elite, config.tournament_size, config.crossover_rate, config.mutation_rate) == (2, 3, 0.5, 0.4)
    assert (config.hall_of_fame, config.accuracy_weight, config.cost_weight) == (1, 0.0, 0.0)
    assert (config.islands, config.evaluator_blocks) == (2, False)
    assert dict(parse_opponents(config.opponents)) == {
        "minimax:depth=2,heuristic=guaranteed_loss": 2,
        "minimax:depth=2": 1,
        "minimax:depth=2,heuristic=quarticity": 1,
        "minimax:depth=3": 1,
    }
    assert ("minimax:depth=4", 1) in parse_opponents(EvolutionConfig.for_game(genome="evaluator", depth=3).opponents)
    assert EvolutionConfig.for_game(genome="evaluator", opponents="minimax:depth=2").opponents == "minimax:depth=2"
    assert EvolutionConfig.from_dict(config.as_dict()) == config


@pytest.mark.parametrize("insertion", [False, True])
def test_same_seed_same_run_and_resume_is_bit_identical(tmp_path, insertion):
    config = evaluator_config(insertion_mutation=insertion, final_games=4)
    straight = train(config, tmp_path / "a", best_player_copy=None)
    train(config, tmp_path / "b", best_player_copy=None)
    assert state_of(tmp_path / "a") == state_of(tmp_path / "b")
    for name in ("logbook.csv", "hall_of_fame.txt"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    # interrupted after one generation (a run of 1, extended), then resumed
    short = train(
        evaluator_config(insertion_mutation=insertion, final_games=4, generations=1),
        tmp_path / "c",
        best_player_copy=None,
    )
    assert short.generations_done == 1 and short.finished
    resumed = resume(tmp_path / "c", generations=3)
    assert resumed.trained_now == 2 and resumed.finished
    assert state_of(tmp_path / "c") == state_of(tmp_path / "a")
    assert (tmp_path / "c" / "logbook.csv").read_bytes() == (tmp_path / "a" / "logbook.csv").read_bytes()
    assert (tmp_path / "c" / "hall_of_fame.txt").read_bytes() == (tmp_path / "a" / "hall_of_fame.txt").read_bytes()
    best = load_evaluator(tmp_path / "a" / "best_evaluator.json")
    assert best.genome.text() in [member.text() for member in open_run(tmp_path / "a").hall_of_fame()]
    assert load_evaluator(tmp_path / "c" / "best_evaluator.json").genome.text() == best.genome.text()
    other = train(
        evaluator_config(insertion_mutation=insertion, final_games=4, seed=6), tmp_path / "d", best_player_copy=None
    )
    assert state_of(other.path)["population"] != state_of(straight.path)["population"]
    assert (tmp_path / "a" / "fitness.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if insertion:  # the fourth operator draws its own numbers: the run differs from one without it
        without = train(evaluator_config(final_games=4), tmp_path / "e", best_player_copy=None)
        assert state_of(without.path)["population"] != state_of(straight.path)["population"]


def test_a_run_interrupted_after_a_generation_resumes_bit_identically(tmp_path):
    """Stopped by an error after its second generation's checkpoint (as a kill would leave it), then resumed."""
    config = evaluator_config(generations=4, final_games=2, opponents="minimax:depth=1,hof")
    train(config, tmp_path / "straight", best_player_copy=None)

    class Stop(Exception):
        pass

    def stop_after_two(evolution, row: dict) -> None:
        if row["generation"] == 1:
            raise Stop

    with pytest.raises(Stop):
        train(config, tmp_path / "stopped", best_player_copy=None, on_generation=stop_after_two)
    stopped = open_run(tmp_path / "stopped")
    assert stopped.generations_done == 2 and not stopped.finished
    assert resume(tmp_path / "stopped").trained_now == 2
    assert state_of(tmp_path / "stopped") == state_of(tmp_path / "straight")
    for name in ("logbook.csv", "hall_of_fame.txt", "fitness.png"):
        assert (tmp_path / "stopped" / name).read_bytes() == (tmp_path / "straight" / name).read_bytes(), name
    saved = [json.loads((tmp_path / run / "best_evaluator.json").read_text()) for run in ("stopped", "straight")]
    assert saved[0]["tree"] == saved[1]["tree"] and saved[0]["fitness"] == saved[1]["fitness"]


def test_the_number_of_workers_does_not_change_the_run(tmp_path):
    config = evaluator_config(generations=2, games=2, seed=2, final_games=2, opponents="minimax:depth=1,hof")
    with make_runner(2) as runner:
        train(config, tmp_path / "two", best_player_copy=None, runner=runner)
    train(config, tmp_path / "one", best_player_copy=None)
    assert state_of(tmp_path / "two") == state_of(tmp_path / "one")


def test_an_evaluator_run_has_the_lock_and_completion_mark_of_rule_runs(tmp_path, capsys):
    run = train(evaluator_config(generations=1, final_games=2), tmp_path / "run", best_player_copy=None)
    mark = json.loads((run.path / "finished.json").read_text())
    assert set(mark["outputs"]) == {
        "logbook.csv",
        "hall_of_fame.txt",
        "fitness.png",
        "best_evaluator.json",
        "best_evaluator.simplified.json",
    }
    assert open_run(run.path).finished and "notes" not in mark
    (run.path / "best_evaluator.json").write_text("{}")  # an output changed after the end
    assert not open_run(run.path).finished
    arguments = ["train", "--resume", "--generations", "2", "--run-dir", str(run.path), "--quiet", "--workers", "1"]
    with folder_lock(run.path):  # another process training in the folder
        assert main(arguments) == 2
        assert "is in use" in one_line_error(capsys)
    assert main(arguments) == 0
    assert open_run(run.path).generations_done == 2 and open_run(run.path).finished
    assert "minimax:depth=1,evaluator=" in capsys.readouterr().out
    with pytest.raises(RunError, match="evaluator run; its champion plays as minimax:depth=1"):
        open_run(run.path).best_player()


def test_bad_configs_and_checkpoints_are_refused_in_one_line(tmp_path):
    for options, message in (
        ({"games": 3}, "even"),
        ({"depth": 0}, "depth must be 1 to 4"),
        ({"depth": 5}, "depth must be at most 4"),
        ({"elite": 4, "population": 4}, "elite"),
        ({"opponents": "nobody"}, "unknown player"),
        ({"genome": "trees"}, "genome must be one of rules, evaluator"),
        ({"fallback_weight": 0.1}, "fallback_weight is a setting of rule genomes"),
        ({"cost_weight": 2.0}, "cost_weight must be between 0 and 1"),
        ({"insertion_mutation": "yes"}, "insertion_mutation must be true or false"),
    ):
        with pytest.raises(ValueError, match=message) as caught:
            evaluator_config(**options)
        assert "\n" not in str(caught.value)
    with pytest.raises(ValueError, match="depth is a setting of evaluator genomes"):
        EvolutionConfig(depth=2)
    with pytest.raises(ValueError, match="insertion_mutation is a setting of evaluator genomes"):
        EvolutionConfig(insertion_mutation=True)
    with pytest.raises(ValueError, match="evaluator genomes are not evolved for"):
        EvolutionConfig(genome="evaluator", game="quixo")


def test_an_old_evaluator_run_folder_is_refused_in_one_line_naming_its_format(tmp_path, capsys):
    old = tmp_path / "old"
    old.mkdir()
    (old / "config.json").write_text(json.dumps({"genome": "evaluator", "depth": 1, "generations": 3}))
    (old / "checkpoint.json").write_text(json.dumps({"format": "gpquarto-evaluator-run/1"}))
    with pytest.raises(RunError, match="old format gpquarto-evaluator-run/1"):
        open_run(old)
    assert main(["train", "--resume", "--run-dir", str(old), "--quiet"]) == 2
    assert "gpquarto-evaluator-run/1" in one_line_error(capsys)


def test_the_cli_trains_an_evaluator_and_refuses_rule_options(tmp_path, capsys):
    run = tmp_path / "run"
    common = ["--population", "3", "--games", "2", "--seed", "1", "--workers", "1", "--quiet", "--final-games", "2"]
    assert (
        main(["train", "--genome", "evaluator", "--depth", "1", "--generations", "1", "--run-dir", str(run), *common])
        == 0
    )
    output = capsys.readouterr().out
    assert "best evaluator" in output and "minimax:depth=1,evaluator=" in output
    assert main(["train", "--generations", "2", "--run-dir", str(run), "--resume", "--quiet"]) == 0
    assert state_of(run)["generation"] == 2
    spec = f"minimax:depth=1,evaluator={run / 'best_evaluator.json'}"
    assert main(["match", spec, "random", "--games", "2", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["show", str(run / "best_evaluator.json")]) == 0
    shown = capsys.readouterr().out
    assert "evaluation = " in shown and "nodes" in shown
    for arguments in (
        ["train", "--genome", "evaluator", "--fallback-weight", "0.1", "--run-dir", str(tmp_path / "x")],
        ["train", "--genome", "evaluator", "--filename", "x.p", "--run-dir", str(tmp_path / "x")],
        ["train", "--genome", "evaluator", "--game", "quixo", "--run-dir", str(tmp_path / "x")],
        ["train", "--depth", "2", "--run-dir", str(tmp_path / "y")],
        ["train", "--cost-weight", "0.1", "--run-dir", str(tmp_path / "y")],
        ["train", "--genome", "evaluator", "--cost-weight", "2", "--run-dir", str(tmp_path / "y")],
        ["train", "--genome", "evaluator", "--depth", "9", "--run-dir", str(tmp_path / "y")],
        ["experiment", "--set", "genome=trees", "--out", str(tmp_path / "y")],
        ["experiment", "--set", "genome=evaluator", "--set", "depth=7", "--out", str(tmp_path / "y")],
        ["train", "--genome", "evaluator", "--games", "3", "--run-dir", str(tmp_path / "z")],
        ["train", "--genome", "evaluator", "--run-dir", str(run), "--quiet"],
        ["train", "--resume", "--depth", "2", "--run-dir", str(run), "--quiet"],
        ["train", "--resume", "--genome", "rules", "--run-dir", str(run), "--quiet"],
    ):
        capsys.readouterr()
        assert main(arguments) == 2, arguments
        one_line_error(capsys)
    for arguments in (  # refused by the option parser
        ["train", "--genome", "evaluator", "--depth", "0", "--run-dir", str(tmp_path / "y")],
        ["train", "--genome", "trees", "--run-dir", str(tmp_path / "y")],
    ):
        with pytest.raises(SystemExit) as stopped:
            main(arguments)
        assert stopped.value.code == 2
        assert capsys.readouterr().err.strip().splitlines()[-1].startswith("gpquarto train: error: argument --")
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_the_champion_is_the_hall_of_fame_member_best_on_common_final_games(tmp_path):
    """Each hall of fame member replays the same final games (a slow reference here: each played on its own with
    ``evaluate_evaluator``); the champion is the best of those, saved with its record."""
    from gpquarto.training.fitness import game_plan, parse_opponents

    config = evaluator_config(generations=4, games=2, seed=3, final_games=6, hall_of_fame=3)
    run = train(config, tmp_path / "run", best_player_copy=None)
    members = [member.text() for member in run.hall_of_fame()]
    plan = game_plan(parse_opponents("minimax:depth=1"), 6, 3, "final")
    scores = [evaluate_evaluator(EvaluatorTask(text, 1, plan, LibraryConfig())).score for text in members]
    saved = json.loads((tmp_path / "run" / "best_evaluator.json").read_text())
    assert saved["tree"]["evaluator"] == members[scores.index(max(scores))]
    assert saved["fitness"]["score"] == max(scores) and saved["fitness"]["games"] == 6
    # without final games: the hall of fame's first
    plain = train(evaluator_config(**{**config.as_dict(), "final_games": 0}), tmp_path / "plain", best_player_copy=None)
    saved = json.loads((tmp_path / "plain" / "best_evaluator.json").read_text())
    assert saved["tree"]["evaluator"] == plain.hall_of_fame()[0].text() and saved["fitness"]["games"] == 2


def test_a_schedule_changes_the_opponents_from_its_generation_on(tmp_path):
    base = {"generations": 3, "games": 4, "seed": 4, "final_games": 0}
    plain = train(evaluator_config(**base), tmp_path / "plain", best_player_copy=None)
    scheduled = train(evaluator_config(**base, schedule="2:random"), tmp_path / "scheduled", best_player_copy=None)
    plain_rows, scheduled_rows = plain.logbook(), scheduled.logbook()
    assert scheduled_rows[:2] == plain_rows[:2]  # the same games until the schedule's step
    assert scheduled_rows[2]["mean"] > plain_rows[2]["mean"]  # random is easier than minimax
    for bad in ("2:nobody", "x:random", "3:random;2:random"):
        with pytest.raises(ValueError) as caught:
            evaluator_config(**base, schedule=bad)
        assert "\n" not in str(caught.value)


def test_hof_opponents_are_searchers_with_the_hall_of_fame_trees(tmp_path):
    """A ``hof`` game is ``minimax`` at the run's depth with a member's tree (a reference player built here), and
    ``random`` while the hall is empty; runs with ``hof`` opponents stay reproducible."""
    from gpquarto.games.quarto.gp.evaluator import CompiledEvaluator
    from gpquarto.gp.evaluator import EvaluatorGenome
    from gpquarto.gp.evaluator_player import searching_player
    from gpquarto.gp.library import get_library
    from gpquarto.resolve import make_player
    from gpquarto.training.fitness import game_plan, parse_opponents

    library = get_library(LibraryConfig())
    plan = game_plan(parse_opponents("hof"), 6, 9, 0)

    def searcher(text: str):
        evaluator = CompiledEvaluator(EvaluatorGenome.from_text(text, library), library)
        return searching_player("minimax", {"depth": "1"}, evaluator, seed=0)

    for hall, opponent in (((), make_player("random")), (("threats",), searcher("threats"))):
        result = evaluate_evaluator(EvaluatorTask("safe_square_count", 1, plan, LibraryConfig(), hall))
        expected = _play_against(searcher("safe_square_count"), opponent, plan)
        assert (result.wins, result.draws, result.losses) == expected, hall
    config = evaluator_config(games=4, seed=2, opponents="hof:1,random:1", final_games=2)
    train(config, tmp_path / "a", best_player_copy=None)
    train(config, tmp_path / "b", best_player_copy=None)
    assert state_of(tmp_path / "a") == state_of(tmp_path / "b")


def _play_against(player, opponent, plan) -> tuple[int, int, int]:
    from gpquarto.arena.game import play_game

    results = [0, 0, 0]
    for game in plan:
        players = (player, opponent) if game.seat == 0 else (opponent, player)
        winner = play_game(players, seed=game.seed).winner
        results[0 if winner == game.seat else 1 if winner is None else 2] += 1
    return tuple(results)


def test_the_cost_term_counts_evaluations_per_leaf_square_and_charges_them(tmp_path):
    """The cost is counted, not timed: a tree that reads nothing of the piece given costs one evaluation per square,
    one that reads all of it one per safe piece; the same games give the same cost every time, and the weight takes
    it off the score."""
    from gpquarto.training.fitness import check_opponents, game_plan

    plan = game_plan(check_opponents("minimax:depth=1"), 4, 3, 0)
    cheap, dear = "plus(safe_piece_count, threats)", "as_score(hand_fit)"
    free = [evaluate_evaluator(EvaluatorTask(text, 1, plan, LibraryConfig())) for text in (cheap, dear)]
    charged = [evaluate_evaluator(EvaluatorTask(text, 1, plan, LibraryConfig(), (), 0.05)) for text in (cheap, dear)]
    assert free[0].evaluations_per_square == 1.0 and free[1].evaluations_per_square > 2
    for plain, costed in zip(free, charged, strict=True):
        assert (plain.wins, plain.draws, plain.losses) == (costed.wins, costed.draws, costed.losses)
        assert plain.evaluations_per_square == costed.evaluations_per_square
        assert costed.score == pytest.approx(plain.score - 0.05 * (plain.evaluations_per_square - 1))
    assert evaluate_evaluator(EvaluatorTask(dear, 1, plan, LibraryConfig(), (), 0.05)) == charged[1]
    run = train(
        evaluator_config(cost_weight=0.05, generations=1, final_games=2), tmp_path / "costed", best_player_copy=None
    )
    assert run.config.cost_weight == 0.05 and EvolutionConfig.from_dict(run.config.as_dict()) == run.config


def test_the_accuracy_term_grades_the_searcher_on_the_training_bank(tmp_path):
    """With ``accuracy_weight`` the logbook has the searchers' accuracy on the training bank, and it is in the
    fitness: the same run without it scores the same games lower by the weight times the accuracy."""
    base = {"generations": 1, "games": 2, "final_games": 0, "accuracy_positions": 12, "accuracy_max_empties": 6}
    without = train(evaluator_config(**base), tmp_path / "without", best_player_copy=None).logbook()
    graded = train(evaluator_config(**base, accuracy_weight=0.5), tmp_path / "with", best_player_copy=None)
    rows = graded.logbook()
    assert "best_accuracy" in rows.header and "best_accuracy" not in without.header
    assert 0 < rows[0]["mean_accuracy"] <= 1
    assert rows[0]["mean"] == pytest.approx(without[0]["mean"] + 0.5 * rows[0]["mean_accuracy"])
    record = json.loads((graded.path / "best_evaluator.json").read_text())["fitness"]
    assert record["accuracy"] is not None
