"""Quarto's player form (the plug-in's :class:`~gpquarto.games.capabilities.PlayerForm`): players that choose a
piece and place it (:class:`~gpquarto.games.quarto.players.base.QuartoPlayer`, and ``random``, whose picks Quarto
knows) play through Quarto's own game loop and are asked in that form by ``grade``.

The loop gives the records the arena's interface loop gives (``tests/test_arena_game.py`` plays both); it exists
because a random decision takes well under a microsecond, and the interface's ``decide`` and ``apply`` per
decision cost a large share of a random game, which training plays by the thousand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from time import perf_counter
from typing import Any

from gpquarto.arena.outcomes import DRAW, WINS, forfeit, raised, too_slow
from gpquarto.games.capabilities import PlayerForm
from gpquarto.games.interface import IllegalActionError, Outcome
from gpquarto.games.quarto.board import Board, BoardView
from gpquarto.games.quarto.pieces import NO_PIECE
from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.players.base import PlayerQuit
from gpquarto.players.random_player import RandomPlayer

Chooser = Callable[[BoardView], int]
Placer = Callable[[BoardView, int], int]


def quarto_methods(player: Any) -> tuple[Chooser, Placer] | None:
    """``player``'s choice and placement, or None when it does not speak Quarto's form."""
    if isinstance(player, QuartoPlayer):
        return player.choose_piece, player.place_piece
    if type(player) is RandomPlayer:  # a subclass may decide otherwise
        draw = player.draw

        def choose(view: BoardView) -> int:
            pieces = view.legal_pieces()
            return pieces[draw(64) % len(pieces)]

        def place(view: BoardView, piece: int) -> int:
            squares = view.legal_squares()
            return squares[draw(64) % len(squares)]

        return choose, place
    return None


class QuartoForm(PlayerForm):
    """Quarto's form: a piece to give, then a square for the piece in hand."""

    def speaks(self, player: Any) -> bool:
        return quarto_methods(player) is not None

    def play(self, state: Any, players: Sequence[Any], times: list[float], limit: float) -> Outcome:
        first, second = (quarto_methods(player) for player in players)
        assert first is not None and second is not None, "both players must speak Quarto's form"
        return _run_quarto(state, (first[0], second[0]), (first[1], second[1]), times, limit)

    def ask(self, player: Any, view: Any) -> object:
        methods = quarto_methods(player)
        assert methods is not None, "the player must speak Quarto's form"
        if view.in_hand == NO_PIECE:
            return methods[0](view)
        return methods[1](view, view.in_hand)

    def apply(self, state: Any, answer: object) -> str:
        choosing = state.in_hand == NO_PIECE
        try:
            if choosing:
                state.push_choice(answer)
            else:
                state.push_placement(answer)
        except IllegalActionError as error:
            return f"illegal {'choice' if choosing else 'placement'} {answer!r}: {error}"
        return ""


QUARTO_FORM = QuartoForm()


def _run_quarto(
    board: Board, choosers: tuple[Chooser, Chooser], placers: tuple[Placer, Placer], times: list[float], limit: float
) -> Outcome:
    """Quarto's game loop: a choice then a placement per turn, each timed and validated by the engine.

    A decision's time runs from the end of the previous one (or the start of the game) until its action
    is validated: one clock reading ends a decision and starts the next, so the engine's check of the
    action and the loop's own bookkeeping, a fraction of a microsecond, count toward the decision. An
    action that comes too late is taken back before the forfeit. The choice and the placement are written
    out one after the other rather than shared through a helper: a random player decides in well under a
    microsecond, and an extra call per decision costs a measurable share of a random game.
    """
    view = board.view()
    add_time = times.append
    choose, place = board.push_choice, board.push_placement  # the loop knows which decision is due
    clock = perf_counter
    seat = board.player
    piece = board.in_hand
    asked = clock()
    while board.winner_index == NO_PIECE and board.placed_count < 16:
        if piece == NO_PIECE:
            try:
                choice = choosers[seat](view)
            except PlayerQuit:
                raise
            except (Exception, SystemExit) as error:  # a player's bug (even sys.exit) loses the game, not the match
                add_time(clock() - asked)
                return raised(seat, error)
            try:
                choose(choice)
            except IllegalActionError as error:
                add_time(clock() - asked)
                return forfeit(seat, f"illegal choice {choice!r}: {error}")
            done = clock()
            elapsed = done - asked
            add_time(elapsed)
            if elapsed > limit:
                board.undo()
                return too_slow(seat, elapsed, limit)
            asked = done
            piece = board.in_hand  # the validated int, whatever int-like object the player returned
            seat ^= 1
        try:
            square = placers[seat](view, piece)
        except PlayerQuit:
            raise
        except (Exception, SystemExit) as error:
            add_time(clock() - asked)
            return raised(seat, error)
        try:
            place(square)
        except IllegalActionError as error:
            add_time(clock() - asked)
            return forfeit(seat, f"illegal placement {square!r}: {error}")
        done = clock()
        elapsed = done - asked
        add_time(elapsed)
        if elapsed > limit:
            board.undo()
            return too_slow(seat, elapsed, limit)
        asked = done
        piece = NO_PIECE
    if board.winner_index == NO_PIECE:
        return DRAW
    return WINS[board.winner_index]
