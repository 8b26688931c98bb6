"""Adapter to the Politecnico di Torino course ``quixo`` library (2023-24), both ways.

The course API (see ARCHITECTURE.md, "Quixo course adapter facts"): ``Player.make_move(game)`` returns
``((x, y), Move)`` with **x the column and y the row**, ``Move.TOP/BOTTOM/LEFT/RIGHT`` (values 0..3) naming the end
where the cube goes back in (our directions, in the same order); ``game.get_board()`` is a 5x5 array of -1 (blank),
0 and 1 indexed ``[y, x]``; ``game.get_current_player()``; player 0 moves first. The course game's winner is the
first complete line found (our ``course`` rules), and it has no repetition rule. Its ``Game()`` cannot be built under
numpy 2 (``np.ones(..., dtype=np.uint8) * -1`` overflows), so nothing here constructs one.

* :func:`as_course_quixo_player` seats a gpquarto player at a course game: each ``make_move(game)`` reads the
  board and the player to move, follows the game with a gpquarto board that keeps its history (so that the
  player sees the game's past positions, as in gpquarto's arena: :class:`CourseQuixoSeat`), asks the wrapped
  player, and answers ``((x, y), Move)``.
* :func:`from_course_quixo_player` lets a course player play gpquarto games: its ``make_move`` gets a
  :class:`CourseQuixoShim` (``get_board``, ``get_current_player``, ``move``, ``check_winner``, ``_board`` and
  ``current_player_idx`` for players that read them, ``deepcopy``) loaded with the position. Like the course game,
  it asks again when the answer is not a legal move (up to ``retries`` times: the course's random player proposes
  any cube), then the move is refused.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from gpquarto.adapters.course_seeding import seed_course_player
from gpquarto.games.interface import GameView, IllegalActionError, Termination
from gpquarto.games.quixo.board import QuixoBoard, QuixoRules, QuixoView, never_legal_reason
from gpquarto.games.quixo.tables import tables
from gpquarto.players.base import BasePlayer, Player

SIDE = 5


def action_from_course(x: int, y: int, move: Any) -> int:
    """Our action for the course's ``((x, y), move)``: cell ``5*y + x``, direction ``move``'s value."""
    direction = int(getattr(move, "value", move))
    if not (0 <= x < SIDE and 0 <= y < SIDE and 0 <= direction < 4):
        raise ValueError(f"not a course Quixo move: (({x}, {y}), {move!r})")
    return 4 * (SIDE * y + x) + direction


def course_from_action(action: int) -> tuple[tuple[int, int], int]:
    """The course's ``((x, y), direction value)`` for our action."""
    cell, direction = divmod(action, 4)
    return (cell % SIDE, cell // SIDE), direction


def board_from_course(cells: Any, player: int, rules: QuixoRules | str = QuixoRules.COURSE) -> QuixoBoard:
    """A 5x5 board from the course's array (``[y, x]``: -1 blank, 0, 1) with ``player`` to move."""
    grid = np.asarray(cells)
    if grid.shape != (SIDE, SIDE):
        raise ValueError(f"a course Quixo board is 5x5, got the shape {grid.shape}")
    x = o = 0
    for (row, col), value in np.ndenumerate(grid):
        if value == 0:
            x |= 1 << (SIDE * row + col)
        elif value == 1:
            o |= 1 << (SIDE * row + col)
        elif value != -1:
            raise ValueError(f"a course Quixo cell is -1, 0 or 1, got {value.item()!r} at x={col}, y={row}")
    return QuixoBoard.from_masks(x, o, int(player), SIDE, rules)


# --------------------------------------------------------------------------- gpquarto player at a course game
class CourseQuixoSeat:
    """A gpquarto player as a course player: ``make_move(game) -> ((x, y), Move)``.

    ``move_type`` turns a direction value 0..3 into the course's ``Move`` (default: the ``Move`` of the game's own
    module when it has one, else the plain int).

    The course game shows only the board, but a Quixo player may read the game's history (the searches count
    repetitions, and primitives such as ``new_trap_proof_move`` look for positions not seen yet in the game). So
    the seat keeps the game as gpquarto plays it (a :class:`QuixoBoard` with its history, the start position
    first) and follows the course board with it: at each ``make_move`` the course position is the kept one after
    the seat's own last move and one move of the opponent (or none, when one seat plays both sides), and the
    player is shown the kept board, as gpquarto's arena shows its own games. When the course position does not
    follow (the first decision, a new game, a position set up by hand), the kept game starts again from the empty
    board if the position is the empty board or one move after it, else from the course position itself (its
    history then starts there), and the wrapped player's ``new_game(seat)`` is called. The course game has no
    repetition or ply-limit draw: when the kept game reaches one of gpquarto's draws and the course game goes on,
    the kept history starts again from the position reached (:meth:`QuixoBoard.forget_history`).
    """

    def __init__(self, player: Player, rules: QuixoRules | str = QuixoRules.COURSE, move_type: Any = None) -> None:
        self.player = player
        self.rules = QuixoRules(rules)
        self.move_type = move_type
        self._game: QuixoBoard | None = None

    @property
    def game(self) -> QuixoBoard | None:
        """The game as the seat keeps it (with its history), as of its last decision; None before the first."""
        return self._game

    def make_move(self, game: Any) -> tuple[tuple[int, int], Any]:
        board = self._follow(board_from_course(game.get_board(), game.get_current_player(), self.rules))
        action = self.player.decide(board.view())
        board.apply(action)  # the course game plays it too: the next position follows from this one
        (x, y), direction = course_from_action(action)
        move_type = self.move_type or getattr(sys.modules.get(type(game).__module__), "Move", None)
        return (x, y), (move_type(direction) if move_type is not None else direction)

    def _follow(self, seen: QuixoBoard) -> QuixoBoard:
        """The kept game advanced to the position ``seen`` on the course board (see the class docstring)."""
        kept = self._game
        if kept is not None and kept.termination is not None and kept.termination is not Termination.WIN:
            kept.forget_history()  # a gpquarto draw the course game does not have: it goes on
        if kept is None or not _advance(kept, seen):
            kept = QuixoBoard(SIDE, self.rules)
            if not _advance(kept, seen):
                kept = seen
            self.player.new_game(kept.player)
        if kept.termination is not None:  # the opponent's move made a gpquarto draw; the course game goes on
            kept.forget_history()
        self._game = kept
        return kept


def _advance(kept: QuixoBoard, seen: QuixoBoard) -> bool:
    """Play on ``kept`` the move (or none) that reaches the position of ``seen``; False (``kept`` unchanged) when
    there is none. Of two moves reaching the same position (they can), the lowest action is played: the position
    keys, which repetitions and the history primitives read, are the same either way."""
    target = (seen.x_mask, seen.o_mask, seen.player)
    if (kept.x_mask, kept.o_mask, kept.player) == target:
        return True
    if kept.termination is not None:
        return False
    for action in kept.legal_actions():
        kept.apply(action)
        if (kept.x_mask, kept.o_mask, kept.player) == target:
            return True
        kept.undo()
    return False


def as_course_quixo_player(
    player: Player, rules: QuixoRules | str = QuixoRules.COURSE, move_type: Any = None
) -> CourseQuixoSeat:
    """Seat ``player`` at course Quixo games (course rules by default: the course game's winner)."""
    return CourseQuixoSeat(player, rules, move_type)


# --------------------------------------------------------------------------- course player in gpquarto games
class CourseQuixoShim:
    """A course-like Quixo game backed by a gpquarto board: what a course player's ``make_move`` may read."""

    def __init__(self, board: QuixoBoard | QuixoView | None = None) -> None:
        self._state = QuixoBoard(SIDE, QuixoRules.COURSE) if board is None else board.copy()

    def load(self, view: QuixoBoard | QuixoView) -> None:
        """Show the position of ``view``."""
        self._state = QuixoBoard.from_masks(view.x_mask, view.o_mask, view.player, SIDE, view.rules)

    def get_board(self) -> np.ndarray:
        """The 5x5 board indexed ``[y, x]``: -1 blank, 0, 1 (a copy)."""
        return np.array(self._state.cells, dtype=np.int64).reshape(SIDE, SIDE)

    @property
    def _board(self) -> np.ndarray:  # course players read the attribute directly
        return self.get_board()

    def get_current_player(self) -> int:
        return self._state.player

    @property
    def current_player_idx(self) -> int:
        return self._state.player

    def move(self, from_pos: tuple[int, int], slide: Any, player_id: int) -> bool:
        """Play as the course's ``Game.move``: False (and no change) when the move is not legal for ``player_id``."""
        if player_id != self._state.player or self._state.is_over():
            return False
        try:
            self._state.apply(action_from_course(int(from_pos[0]), int(from_pos[1]), slide))
        except (IllegalActionError, ValueError, TypeError):
            return False
        return True

    def check_winner(self) -> int:
        """The course's winner: the owner of the first complete line (rows, columns, diagonals), or -1."""
        return tables(SIDE).first_line_owner(self._state.x_mask, self._state.o_mask)


class CourseQuixoPlayerAdapter(BasePlayer):
    """A course player (built by ``factory()``) playing gpquarto Quixo games through a :class:`CourseQuixoShim`;
    its ``seed`` hook seeds the generators course players draw from (see :func:`seed_course_player`)."""

    game = "quixo"

    def __init__(self, factory: Callable[[], Any], name: str | None = None, retries: int = 1000) -> None:
        self.shim = CourseQuixoShim()
        self.course_player = factory()
        self.name = name or type(self.course_player).__name__
        self.retries = retries

    def seed(self, seed: int | None) -> None:
        seed_course_player(self.course_player, seed)

    def decide(self, view: GameView) -> int:
        if view.game_name != "quixo" or getattr(view, "size", SIDE) != SIDE:
            raise ValueError("a course Quixo player plays the 5x5 Quixo board only")
        legal = set(view.legal_actions())
        answer: Any = None
        for _ in range(self.retries):
            self.shim.load(view)  # type: ignore[arg-type]  # Quixo's view
            answer = self.course_player.make_move(self.shim)
            try:
                (x, y), move = answer
                action = action_from_course(int(x), int(y), move)
            except (TypeError, ValueError):
                raise ValueError(f"course player's make_move() must return ((x, y), Move), got {answer!r}") from None
            if action in legal:
                return action
        reason = never_legal_reason(SIDE, action) or "not legal in this position"
        raise IllegalActionError(
            f"course player proposed no legal move in {self.retries} tries (last {answer!r}: {reason})"
        )


def from_course_quixo_player(
    course_player_factory: Callable[[], Any], name: str | None = None, retries: int = 1000
) -> CourseQuixoPlayerAdapter:
    """Wrap a course Quixo player class (or any ``factory() -> player``) so it plays gpquarto Quixo games."""
    return CourseQuixoPlayerAdapter(course_player_factory, name, retries)


__all__ = [
    "CourseQuixoPlayerAdapter",
    "CourseQuixoSeat",
    "CourseQuixoShim",
    "action_from_course",
    "as_course_quixo_player",
    "board_from_course",
    "course_from_action",
    "from_course_quixo_player",
]
