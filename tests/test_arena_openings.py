"""Seeded random openings and the count of distinct games: deterministic players meet in different positions."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gpquarto.arena import play_match
from gpquarto.arena.match import DISTINCT_LIMIT, MatchResult, game_key
from gpquarto.arena.openings import MAX_OPENING_PLIES, opening_seed, random_opening
from gpquarto.arena.record import GameRecord
from gpquarto.games.registry import get_game
from gpquarto.jobs.matches import run_match
from gpquarto.runner import make_runner
from tests.conftest import run_cli
from tests.helpers import LowestPlayer


class HighestPlayer(LowestPlayer):
    name = "highest"

    def choose_piece(self, board):
        return board.legal_pieces()[-1]

    def place_piece(self, board, piece):
        return board.legal_squares()[-1]


def replay_opening(game_name: str, settings: dict, plies: int, seed: int):
    """The opening rebuilt independently: the same shuffles, with every non-final action checked by hand."""
    import random

    game = get_game(game_name)
    rng = random.Random(seed)
    state = game.new_state(**settings)
    played = []
    for _ in range(plies):
        actions = list(state.legal_actions())
        rng.shuffle(actions)
        survivors = []
        for action in actions:
            trial = state.copy()
            trial.apply(action)
            if not trial.is_over():
                survivors.append(action)
        if not survivors:
            break
        state.apply(survivors[0])
        played.append(survivors[0])
    return state, played


@pytest.mark.parametrize(
    ("game_name", "settings"), [("quarto", {"rules": "classic"}), ("quarto", {"rules": "advanced"}), ("quixo", {})]
)
@pytest.mark.parametrize("plies", [0, 1, 5, 12])
def test_an_opening_is_random_plies_that_never_end_the_game(game_name, settings, plies) -> None:
    game = get_game(game_name)
    settings = game.check_settings(settings)
    for seed in range(20):
        state = random_opening(game, settings, plies, seed)
        expected, played = replay_opening(game_name, settings, plies, seed)
        assert state.text() == expected.text()
        assert not state.is_over()
        assert state.history == ()  # the opening is the record's start position, not part of its actions
        assert len(played) == plies  # these games always have a quiet move this early


def test_an_opening_stops_where_every_move_would_end_the_game() -> None:
    game = get_game("quarto")
    settings = game.check_settings({})
    state = random_opening(game, settings, MAX_OPENING_PLIES, 7)
    assert not state.is_over()
    assert all(_ends(state, action) for action in state.legal_actions())


def _ends(state, action) -> bool:
    trial = state.copy()
    trial.apply(action)
    return trial.is_over()


def test_opening_sizes_are_bounded() -> None:
    game = get_game("quarto")
    with pytest.raises(ValueError, match="0 to 100 random plies"):
        random_opening(game, game.check_settings({}), MAX_OPENING_PLIES + 1, 0)
    with pytest.raises(ValueError, match="0 to 100 random plies"):
        run_match("random", "random", 2, openings=-1)


def test_the_two_games_of_a_pair_share_their_opening_and_pairs_differ() -> None:
    assert opening_seed(3, 0) == opening_seed(3, 1) != opening_seed(3, 2) == opening_seed(3, 3)
    result = play_match(LowestPlayer(), HighestPlayer(), 8, seed=3, openings=4, keep_records=True)
    starts = [record.start for record in result.records]
    assert starts[0] == starts[1] and starts[2] == starts[3] and starts[4] == starts[5]
    assert len(set(starts)) == 4
    # seats swap within a pair: A (lowest) moves first from the opening in even games
    assert [record.players[0] for record in result.records[:2]] == ["lowest", "highest"]


def test_deterministic_players_repeat_two_games_without_openings_and_differ_with_them() -> None:
    plain = play_match(LowestPlayer(), HighestPlayer(), 20, seed=1, keep_records=True)
    assert plain.distinct_games == 2
    opened = play_match(LowestPlayer(), HighestPlayer(), 20, seed=1, openings=6, keep_records=True)
    slow_count = len({(record.start, tuple(record.actions)) for record in opened.records})
    assert opened.distinct_games == slow_count > 2


def test_openings_are_the_same_on_any_runner_and_in_quixo() -> None:
    serial = run_match("alphabeta:depth=1", "random", 12, seed=5, game="quixo", settings={"size": 4}, openings=3)
    with make_runner(2) as runner:
        parallel = run_match(
            "alphabeta:depth=1", "random", 12, seed=5, game="quixo", settings={"size": 4}, openings=3, runner=runner
        )
    assert (serial.wins, serial.draws, serial.losses) == (parallel.wins, parallel.draws, parallel.losses)
    assert serial.distinct == parallel.distinct


def test_the_distinct_count_stops_at_its_limit_when_merging(monkeypatch) -> None:
    monkeypatch.setattr("gpquarto.arena.match.DISTINCT_LIMIT", 5)
    first, second = MatchResult(names=("a", "b")), MatchResult(names=("a", "b"))
    first.distinct = {1, 2, 3}
    second.distinct = {3, 4, 5, 6, 7}
    first.merge(second)
    assert first.distinct == {1, 2, 3, 4, 5}
    assert DISTINCT_LIMIT == 100_000


def test_game_keys_tell_start_positions_and_actions_apart() -> None:
    def record(start: str, actions: list[int]) -> GameRecord:
        return GameRecord(("a", "b"), start, actions, None, "draw", None, "", [0.0] * len(actions), 0)

    assert game_key(record("x", [1, 2])) == game_key(record("x", [1, 2]))
    assert len({game_key(record("x", [1, 2])), game_key(record("y", [1, 2])), game_key(record("x", [12]))}) == 3


def test_the_match_command_prints_distinct_games_and_takes_openings() -> None:
    def run(*extra: str) -> subprocess.CompletedProcess:
        return run_cli(
            "match", "alphabeta:depth=1", "alphabeta:depth=2", "--game", "quixo",
            "--size", "4", "--games", "10", "--quiet", *extra, cwd=Path.cwd(),
        )  # fmt: skip

    plain = run()
    assert plain.returncode == 0, plain.stderr
    assert "distinct games: 2 of 10 (the players repeat games: --openings K" in plain.stdout
    opened = run("--openings", "4")
    assert opened.returncode == 0, opened.stderr
    distinct_line = next(line for line in opened.stdout.splitlines() if line.startswith("distinct games:"))
    assert distinct_line != "distinct games: 2 of 10" and "repeat" not in distinct_line
    refused = run("--openings", "1000")
    assert refused.returncode == 2 and "--openings: expected a number from 0 to 100, got 1000" in refused.stderr
    assert "Traceback" not in refused.stderr
