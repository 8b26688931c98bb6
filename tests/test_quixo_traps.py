"""The screen for Quixo's traps against the proofs."""

from __future__ import annotations

import random

import pytest

from gpquarto.arena.game import play_game
from gpquarto.games.quixo.board import QuixoBoard
from gpquarto.games.quixo.grading.bank import TACTICAL_PLIES
from gpquarto.games.quixo.search import tactics
from gpquarto.games.quixo.search.tactics import NOTHING, TRAP, WIN_IN_ONE, proven_outcomes, trap_screen
from gpquarto.games.quixo.tables import tables
from gpquarto.resolve import make_unattended_player
from tests.test_quixo_tactical import TRAPS as TRAP_TEXTS
from tests.test_quixo_tactical import WIN_IN_ONE as WIN_IN_ONE_TEXT


def game_states(seed: int, **settings) -> list[QuixoBoard]:
    """Every position (not over) of a game between random players on 5x5, with its history."""
    players = (make_unattended_player("random", game="quixo"), make_unattended_player("random", game="quixo"))
    record = play_game(players, game="quixo", settings={"size": 5, **settings}, seed=seed)
    return [state.copy() for state, _ in record.states() if not state.is_over()]


def proven_class(board: QuixoBoard) -> int:
    """What the screen should say of ``board``, from the proofs."""
    outcomes = proven_outcomes(board, TACTICAL_PLIES).values()
    if 1 in outcomes:
        return WIN_IN_ONE
    return TRAP if any(outcome > 0 for outcome in outcomes) else NOTHING


@pytest.mark.parametrize(
    ("seed", "settings"),
    [
        (1, {}),
        (2, {}),
        (3, {"rules": "course"}),
        (4, {"repetitions": 2}),  # repetitions along the lines of play
        (5, {"ply_limit": 30}),  # the last positions before the ply limit
    ],
)
def test_the_screen_agrees_with_the_proofs_on_every_position_of_a_game(seed, settings):
    states = game_states(seed, **settings)
    assert len(states) >= 20
    expected = [proven_class(state) for state in states]
    assert [trap_screen(state) for state in states] == expected
    assert [trap_screen(state, compiled=False) for state in states] == expected


def test_the_screen_sees_the_hand_picked_traps_and_a_win_in_one():
    for text in TRAP_TEXTS:
        assert trap_screen(QuixoBoard.from_text(text)) == TRAP, text
        assert trap_screen(QuixoBoard.from_text(text), compiled=False) == TRAP, text
    assert trap_screen(QuixoBoard.from_text(WIN_IN_ONE_TEXT)) == WIN_IN_ONE
    assert trap_screen(QuixoBoard(size=5)) == NOTHING


def test_the_screen_counts_repetitions_as_the_proofs_do(monkeypatch):
    """Game histories that make the positions after a move, or after a reply, a repetition draw: the screen and the
    proofs read the same window, and agree whichever of those positions it repeats."""
    rng = random.Random(7)
    changed = 0
    for text in TRAP_TEXTS:
        board = QuixoBoard.from_text(text)
        table = tables(5)
        own, other = (board.x_mask, board.o_mask) if board.player == 0 else (board.o_mask, board.x_mask)
        me, them = board.player << 50, (1 - board.player) << 50
        after_move, after_reply = [], []
        for action in table.legal(other):
            own2, other2 = table.play(own, other, action)
            after_move.append(other2 | own2 << 25 | them)
            for reply in table.legal(own2):
                them3, me3 = table.play(other2, own2, reply)
                after_reply.append(me3 | them3 << 25 | me)
        wins = [key for action, key in zip(table.legal(other), after_move, strict=True) if
                proven_outcomes(board, TACTICAL_PLIES)[action] > 0]  # fmt: skip
        for _ in range(6):
            repeated = rng.sample(after_move, 8) + rng.sample(after_reply, 40) + rng.sample(wins, 1)
            window = [*repeated, *repeated, *tactics.repetition_window(board)]  # each twice before: a third is a draw
            monkeypatch.setattr(tactics, "repetition_window", lambda _board, window=window: window)
            expected = proven_class(board)
            assert trap_screen(board) == expected and trap_screen(board, compiled=False) == expected, text
            changed += expected != TRAP
            monkeypatch.undo()
        window = [*wins, *wins, *tactics.repetition_window(board)]  # every forced win repeats a position
        monkeypatch.setattr(tactics, "repetition_window", lambda _board, window=window: window)
        assert proven_class(board) == NOTHING == trap_screen(board) == trap_screen(board, compiled=False)
        monkeypatch.undo()
    assert changed  # some windows took the trap away
