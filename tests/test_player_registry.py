"""Players by name: specs, parameters, errors."""

from __future__ import annotations

import pytest

from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.players.random_player import RandomPlayer
from gpquarto.players.registry import (
    available_players,
    make_named_player,
    parse_spec,
    register_player,
    unregister_player,
)


class DummyPlayer(QuartoPlayer):
    """A player for registry tests."""

    def __init__(
        self, depth: int = 2, weight: float = 0.5, greedy: bool = False, label: str = "x", seed: int | None = None
    ):
        self.depth, self.weight, self.greedy, self.label, self.given_seed = depth, weight, greedy, label, seed


@pytest.fixture(autouse=True)
def dummy_registered():
    """Register the dummy for each test only, so other tests see the real registry."""
    register_player("test-dummy")(DummyPlayer)
    yield
    unregister_player("test-dummy")


def test_spec_parameters_are_converted_by_annotation():
    player = make_named_player("test-dummy:depth=4,weight=0.25,greedy=yes,label=abc", seed=9)
    assert (player.depth, player.weight, player.greedy, player.label, player.given_seed) == (4, 0.25, True, "abc", 9)
    defaults = make_named_player("test-dummy")
    assert (defaults.depth, defaults.weight, defaults.greedy) == (2, 0.5, False)


def test_listing_has_parameters_and_summary():
    info = {player.name: player for player in available_players()}
    assert "random" in info
    dummy = info["test-dummy"]
    assert [p.name for p in dummy.parameters] == ["depth", "weight", "greedy", "label"]
    assert dummy.summary == "A player for registry tests."


@pytest.mark.parametrize(
    "spec, message",
    [
        ("nosuch", "unknown player 'nosuch'"),
        ("test-dummy:depth=two", "parameter depth must be int"),
        ("test-dummy:speed=3", "has no parameter 'speed'"),
        ("test-dummy:depth", "expected key=value"),
        ("test-dummy:greedy=maybe", "parameter greedy must be bool"),
        ("", "non-empty string"),
        ("test-dummy:depth=1,depth=3", "parameter 'depth' is given twice"),
        ("test-dummy:weight=nan", "parameter weight must be a finite number"),
        ("test-dummy:weight=inf", "parameter weight must be a finite number"),
    ],
)
def test_bad_specs_give_one_line_errors(spec, message):
    with pytest.raises(ValueError, match=message) as error:
        make_named_player(spec)
    assert "\n" not in str(error.value)


def test_duplicate_registration_refused():
    with pytest.raises(ValueError, match="already registered"):
        register_player("test-dummy", game="quarto")(RandomPlayer)


def test_a_games_own_player_of_a_generic_name_is_that_games_player():
    from gpquarto.games.quarto.players.mcts import MCTSPlayer as QuartoMCTS
    from gpquarto.players.searchers import AlphaBetaPlayer, MCTSPlayer

    assert isinstance(make_named_player("mcts:iterations=5"), QuartoMCTS)  # Quarto's accelerator
    assert type(make_named_player("mcts:iterations=5", game="quixo")) is not MCTSPlayer  # Quixo's own
    assert isinstance(make_named_player("alphabeta:depth=1"), AlphaBetaPlayer)  # Quarto has no alphabeta of its own


def test_parse_spec():
    assert parse_spec("minimax:depth=2, heuristic=lines") == ("minimax", {"depth": "2", "heuristic": "lines"})


def test_a_value_may_hold_commas_when_what_follows_has_no_equals_sign():
    assert parse_spec("minimax:depth=2,evaluator=runs/a,b/best.json") == (
        "minimax",
        {"depth": "2", "evaluator": "runs/a,b/best.json"},
    )
    assert parse_spec("minimax:evaluator=x,,y.json,depth=3") == ("minimax", {"evaluator": "x,,y.json", "depth": "3"})
    with pytest.raises(ValueError, match="expected key=value after ':', got 'oops'"):
        parse_spec("minimax:oops,depth=2")
    with pytest.raises(ValueError, match="parameter depth must be int, got '2,oops'"):
        make_named_player("minimax:depth=2,oops")


def test_seeded_random_player_is_reproducible():
    from gpquarto.games.quarto.board import Board

    board = Board()
    a, b = make_named_player("random", seed=3), make_named_player("random", seed=3)
    picks = [[player.decide(board.view()) for _ in range(10)] for player in (a, b)]
    assert picks[0] == picks[1] and len(set(picks[0])) > 1
