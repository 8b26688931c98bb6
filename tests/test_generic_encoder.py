"""The generic n-tuple features over a game's ``Board`` (:mod:`gpquarto.learned.board_tuples`) on tic-tac-toe, a game
with no features of its own: indices within bounds and equal to a slow reading of the lines, the same for a
position and its colour-swapped twin, turn values as the generic reference, the tuple length chosen within the
weight bound, the one-line refusal of a game with no board, and a short learning run through the library."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gpquarto.arena.match import play_match
from gpquarto.games.capabilities import Board
from gpquarto.games.plugin import GamePlugin
from gpquarto.games.registry import register_plugin, unregister_plugin
from gpquarto.learned.board_tuples import MAX_WEIGHTS, BoardTuples, straight_tuples
from gpquarto.learned.models import NTupleModel, default_encoder, generic_turn_values, make_encoder, table_key
from gpquarto.learned.npz import MAX_ARRAY_BYTES
from gpquarto.learning.config import LearnConfig
from gpquarto.learning.run import learn
from gpquarto.players.registry import make_named_player
from tests import tictactoe
from tests.tictactoe import LINES


@pytest.fixture(autouse=True)
def tictactoe_installed():
    register_plugin(tictactoe.PLUGIN)
    yield
    unregister_plugin(tictactoe.GAME.name)


def afterstates(count: int, seed: int) -> list:
    """Seeded random positions of tic-tac-toe, the game still on (at least one move made)."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = tictactoe.GAME.new_state()
        for _ in range(rng.randrange(1, 8)):
            state.apply(rng.choice(state.legal_actions()))
            if state.is_over():
                break
        if not state.is_over():
            found.append(state)
    return found


def swapped(state):
    """The same position with the marks and the side to move swapped."""
    rows, side = state.text().split(" ")
    return tictactoe.GAME.from_text(f"{rows.translate(str.maketrans('XO', 'OX'))} {'XO'['OX'.index(side)]}")


def test_tictactoe_reads_its_eight_lines_within_bounds():
    encoder = default_encoder("tictactoe", {})
    assert encoder.name == "board-tuples/1" and encoder.game == "tictactoe" and encoder.settings() == {"misere": False}
    assert encoder.length == 3 and sorted(map(sorted, encoder.tuples)) == sorted(map(sorted, LINES))
    assert encoder.size == 8 * 27 <= MAX_WEIGHTS and encoder.size * 8 <= MAX_ARRAY_BYTES
    assert make_encoder("board-tuples/1", "tictactoe", {"misere": True}).settings() == {"misere": True}


def test_indices_are_a_slow_reading_of_the_lines_and_ignore_the_colours():
    encoder = default_encoder("tictactoe", {})
    for state in afterstates(300, seed=1):
        maker = 1 - state.player  # the afterstate's turn was the other seat's
        codes = [0 if cell < 0 else 1 if cell == maker else 2 for cell in state.cells]
        expected = [
            number * 27 + sum(codes[cell] * 3**place for place, cell in enumerate(cells))
            for number, cells in enumerate(encoder.tuples)
        ]
        indices = encoder.indices(state)
        assert indices.tolist() == expected
        assert 0 <= indices.min() and indices.max() < encoder.size
        assert encoder.indices(swapped(state)).tolist() == expected


def test_turn_values_are_the_generic_reference():
    encoder = default_encoder("tictactoe", {})
    model = NTupleModel(encoder, np.random.default_rng(3).normal(0, 0.5, encoder.size))
    for state in afterstates(60, seed=2):
        turns, values = model.turn_values(state)
        slow_turns, slow_values = generic_turn_values(state, model.value)
        assert turns == slow_turns and np.allclose(values, slow_values)


class Wide(Board):
    """A 12x12 board whose cells take 17 values (empty and 16 pieces)."""

    def shape(self, settings):
        return (12, 12)

    def cell_values(self, settings):
        return 17


WIDE = Wide()


def test_the_tuples_shrink_to_stay_within_the_weight_bound():
    assert len(straight_tuples(6, 7, 4)) == 69  # Connect Four's runs of four
    assert len(straight_tuples(1, 5, 4)) == 2 and straight_tuples(2, 2, 1) == [(0,), (1,), (2,), (3,)]
    unregister_plugin("tictactoe")
    register_plugin(
        GamePlugin(game=tictactoe.GAME, title="wide", capabilities={Board: "tests.test_generic_encoder:WIDE"})
    )
    try:
        encoder = BoardTuples("tictactoe")
        assert encoder.length == 2 and encoder.size <= MAX_WEIGHTS < len(straight_tuples(12, 12, 3)) * 17**3
    finally:
        unregister_plugin("tictactoe")
        register_plugin(tictactoe.PLUGIN)


def test_a_game_with_neither_features_nor_a_board_is_refused_in_one_line():
    unregister_plugin("tictactoe")
    register_plugin(GamePlugin(game=tictactoe.GAME, title="bare"))
    try:
        with pytest.raises(ValueError) as error:
            default_encoder("tictactoe", {})
        assert str(error.value) == (
            "game 'tictactoe' has no n-tuple features for learning: its plug-in offers neither n-tuple features "
            "(LearningEncoders) nor a board of cells (Board) for the generic ones"
        )
    finally:
        unregister_plugin("tictactoe")
        register_plugin(tictactoe.PLUGIN)


def test_a_short_learning_run_learns_tictactoe(tmp_path):
    config = LearnConfig(
        game="tictactoe", episodes=2000, seed=0, opponents="self", eval_games=100, eval_opponents="random"
    )
    run = learn(config, tmp_path / "learn")
    (row,) = run.curve()
    assert row["episodes"] == 2000 and row["score"] >= 0.8, row
    player = run.learned_player()
    result = play_match(player, make_named_player("random", seed=5, game="tictactoe"), 200, seed=6, game="tictactoe")
    assert result.score_rate >= 0.8, result


def test_table_keys_are_the_canonical_int_keys_or_a_digest_of_the_others():
    from gpquarto.games import get_game

    for name in ("quarto", "quixo"):
        state = get_game(name).new_state()
        state.apply(state.legal_actions()[0])
        assert table_key(state) == state.canonical_key()
    first = afterstates(2, seed=4)[0]
    twin = tictactoe.GAME.from_text(first.text())
    assert isinstance(first.canonical_key(), tuple)
    assert table_key(first) == table_key(twin) and 0 <= table_key(first) < 2**128
    assert len({table_key(state) for state in afterstates(100, seed=5)}) == len(
        {state.canonical_key() for state in afterstates(100, seed=5)}
    )


def test_a_short_tabular_run_learns_tictactoe_and_its_table_saves(tmp_path):
    config = LearnConfig(game="tictactoe", method="q-learning", episodes=1000, eval_games=100, eval_opponents="random")
    run = learn(config, tmp_path / "learn")
    assert run.curve()[0]["score"] >= 0.75
    assert len(run.learned_player().model.table) > 100
