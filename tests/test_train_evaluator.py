"""Evaluator training: tiny runs are reproducible by seed, resume bit-identically, ignore the number of
workers, and the CLI (``train --genome evaluator``) refuses bad input in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpquarto.cli import main
from gpquarto.gp.evaluator_files import load_evaluator
from gpquarto.runner import make_runner
from gpquarto.training.evaluator_training import EvaluatorConfig, EvaluatorEvolution, train_evaluator

TINY = EvaluatorConfig(depth=1, generations=3, population=4, games=4, seed=5)


def state_of(folder: Path) -> dict:
    return json.loads((folder / "checkpoint.json").read_text())


def test_same_seed_same_run_and_resume_is_bit_identical(tmp_path):
    straight = train_evaluator(TINY, tmp_path / "a")
    again = train_evaluator(TINY, tmp_path / "b")
    assert straight.state() == again.state()
    assert (tmp_path / "a" / "logbook.csv").read_text() == (tmp_path / "b" / "logbook.csv").read_text()
    # interrupted after one generation, then resumed
    train_evaluator(TINY, tmp_path / "c", generations=1)
    assert state_of(tmp_path / "c")["generation"] == 1
    resumed = train_evaluator(None, tmp_path / "c", resume=True)
    assert resumed.state() == straight.state() == state_of(tmp_path / "a")
    other = train_evaluator(EvaluatorConfig(**{**TINY.as_dict(), "seed": 6, "plugins": ()}), tmp_path / "d")
    assert other.state()["population"] != straight.state()["population"]
    best = load_evaluator(tmp_path / "a" / "best_evaluator.json")
    assert best.genome.text() in [row["best_tree"] for row in straight.logbook]
    assert (tmp_path / "a" / "fitness.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_number_of_workers_does_not_change_the_run(tmp_path):
    config = EvaluatorConfig(depth=1, generations=1, population=4, games=2, seed=2)
    with make_runner(2) as runner:
        parallel = train_evaluator(config, tmp_path / "two", runner=runner)
    assert parallel.state() == train_evaluator(config, tmp_path / "one").state()


def test_bad_configs_and_checkpoints_are_refused_in_one_line(tmp_path):
    for options, message in (
        ({"games": 3}, "even"),
        ({"depth": 0}, "depth"),
        ({"elite": 4, "population": 4}, "elite"),
        ({"opponents": "nobody"}, "unknown player"),
    ):
        with pytest.raises(ValueError, match=message):
            EvaluatorConfig(**options)
    (tmp_path / "checkpoint.json").write_text(json.dumps({"format": "x"}))
    with pytest.raises(ValueError, match="not an evaluator run checkpoint"):
        train_evaluator(None, tmp_path, resume=True)
    with pytest.raises(ValueError, match="corrupt"):
        EvaluatorEvolution.from_state({**EvaluatorEvolution.start(TINY).state(), "population": None})


def test_the_cli_trains_an_evaluator_and_refuses_rule_options(tmp_path, capsys):
    run = tmp_path / "run"
    common = ["--population", "3", "--games", "2", "--seed", "1", "--workers", "1", "--quiet"]
    assert (
        main(["train", "--genome", "evaluator", "--depth", "1", "--generations", "1", "--run-dir", str(run), *common])
        == 0
    )
    output = capsys.readouterr().out
    assert "best evaluator" in output and "minimax:depth=1,evaluator=" in output
    assert (
        main(["train", "--genome", "evaluator", "--generations", "2", "--run-dir", str(run), "--resume", "--quiet"])
        == 0
    )
    assert state_of(run)["generation"] == 2
    spec = f"minimax:depth=1,evaluator={run / 'best_evaluator.json'}"
    assert main(["match", spec, "random", "--games", "2", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["show", str(run / "best_evaluator.json")]) == 0
    shown = capsys.readouterr().out
    assert "evaluation = " in shown and "nodes" in shown
    for arguments in (
        ["train", "--genome", "evaluator", "--fallback-weight", "0.1", "--run-dir", str(tmp_path / "x")],
        ["train", "--depth", "2", "--run-dir", str(tmp_path / "y")],
        ["train", "--cost-weight", "0.1", "--run-dir", str(tmp_path / "y")],
        ["train", "--genome", "evaluator", "--cost-weight", "2", "--run-dir", str(tmp_path / "y")],
        ["train", "--genome", "evaluator", "--games", "3", "--run-dir", str(tmp_path / "z")],
        ["train", "--genome", "evaluator", "--run-dir", str(run), "--quiet"],
    ):
        capsys.readouterr()
        assert main(arguments) == 2
        assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_the_champion_is_the_best_generation_best_on_common_final_games(tmp_path):
    """Each generation's best replays the same final games (a slow reference here: each played on its own with
    ``evaluate_evaluator``); the champion is the best of those (then smaller, then earlier), saved with its record."""
    from gpquarto.gp.library import LibraryConfig
    from gpquarto.training.evaluator_training import EvaluatorTask, evaluate_evaluator
    from gpquarto.training.fitness import game_plan, parse_opponents

    config = EvaluatorConfig(depth=1, generations=4, population=4, games=2, seed=3, final_games=6, hall_of_fame=3)
    evolution = train_evaluator(config, tmp_path / "run")
    rows = sorted(evolution.logbook, key=lambda row: (-row["best"], row["best_size"], row["generation"]))
    members = []
    for row in rows:
        if row["best_tree"] not in [member["best_tree"] for member in members]:
            members.append(row)
    members = members[:3]
    plan = game_plan(parse_opponents("minimax:depth=1"), 6, 3, "final")
    scores = [evaluate_evaluator(EvaluatorTask(row["best_tree"], 1, plan, LibraryConfig()))[0] for row in members]
    expected = min(range(len(members)), key=lambda i: (-scores[i], members[i]["best_size"], members[i]["generation"]))
    saved = json.loads((tmp_path / "run" / "best_evaluator.json").read_text())
    assert saved["tree"]["evaluator"] == members[expected]["best_tree"]
    assert saved["fitness"]["score"] == scores[expected] and saved["fitness"]["games"] == 6
    assert saved["fitness"]["generation"] == members[expected]["generation"]
    # without final games: the best score seen, as before
    plain = EvaluatorConfig(**{**config.as_dict(), "final_games": 0, "plugins": ()})
    train_evaluator(plain, tmp_path / "plain")
    saved = json.loads((tmp_path / "plain" / "best_evaluator.json").read_text())
    assert saved["tree"]["evaluator"] == rows[0]["best_tree"] and saved["fitness"]["games"] == 2


def test_a_schedule_changes_the_opponents_from_its_generation_on(tmp_path):
    base = {"depth": 1, "generations": 3, "population": 4, "games": 4, "seed": 4, "final_games": 0}
    plain = train_evaluator(EvaluatorConfig(**base), tmp_path / "plain")
    scheduled_config = EvaluatorConfig(**base, schedule="2:random")
    assert [scheduled_config.opponents_at(g) for g in range(4)] == ["minimax:depth=1"] * 2 + ["random"] * 2
    scheduled = train_evaluator(scheduled_config, tmp_path / "scheduled")
    assert scheduled.logbook[:2] == plain.logbook[:2]  # the same games until the schedule's step
    assert scheduled.logbook[2]["mean"] > plain.logbook[2]["mean"]  # random is easier than minimax
    for bad in ("2:nobody", "x:random", "3:random;2:random"):
        with pytest.raises(ValueError) as caught:
            EvaluatorConfig(**base, schedule=bad)
        assert "\n" not in str(caught.value)


def test_hof_opponents_are_searchers_with_the_hall_of_fame_trees(tmp_path):
    """A ``hof`` game is ``minimax`` at the run's depth with a member's tree (a reference player built here), and
    ``random`` while the hall is empty; runs with ``hof`` opponents stay reproducible."""
    from gpquarto.gp.evaluator import CompiledEvaluator, EvaluatorGenome
    from gpquarto.gp.evaluator_player import searching_player
    from gpquarto.gp.library import LibraryConfig, get_library
    from gpquarto.resolve import make_player
    from gpquarto.training.evaluator_training import EvaluatorTask, evaluate_evaluator
    from gpquarto.training.fitness import game_plan, parse_opponents

    library = get_library(LibraryConfig())
    plan = game_plan(parse_opponents("hof"), 6, 9, 0)

    def searcher(text: str):
        evaluator = CompiledEvaluator(EvaluatorGenome.from_text(text, library), library)
        return searching_player("minimax", {"depth": "1"}, evaluator, seed=0)

    for hall, opponent in (((), make_player("random")), (("threats",), searcher("threats"))):
        task = EvaluatorTask("safe_square_count", 1, plan, LibraryConfig(), hall)
        expected = _play_against(searcher("safe_square_count"), opponent, plan)
        assert evaluate_evaluator(task)[1:4] == expected, hall
    config = EvaluatorConfig(depth=1, generations=3, population=4, games=4, seed=2, opponents="hof:1,random:1")
    assert train_evaluator(config, tmp_path / "a").state() == train_evaluator(config, tmp_path / "b").state()


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
    from gpquarto.gp.library import LibraryConfig
    from gpquarto.training.evaluator_training import EvaluatorTask, evaluate_evaluator
    from gpquarto.training.fitness import check_opponents, game_plan

    plan = game_plan(check_opponents("minimax:depth=1"), 4, 3, 0)
    cheap, dear = "plus(safe_piece_count, threats)", "as_score(hand_fit)"
    free = [evaluate_evaluator(EvaluatorTask(text, 1, plan, LibraryConfig())) for text in (cheap, dear)]
    charged = [evaluate_evaluator(EvaluatorTask(text, 1, plan, LibraryConfig(), (), 0.05)) for text in (cheap, dear)]
    assert free[0][4] == 1.0 and free[1][4] > 2
    for (score, *record, cost), (fitness, *same, same_cost) in zip(free, charged, strict=True):
        assert record == same and cost == same_cost
        assert fitness == pytest.approx(score - 0.05 * (cost - 1))
    assert evaluate_evaluator(EvaluatorTask(dear, 1, plan, LibraryConfig(), (), 0.05)) == charged[1]
    config = EvaluatorConfig(**{**TINY.as_dict(), "plugins": (), "cost_weight": 0.05, "generations": 1})
    run = train_evaluator(config, tmp_path / "costed")
    assert run.config.cost_weight == 0.05 and EvaluatorConfig.from_dict(run.config.as_dict()) == run.config
