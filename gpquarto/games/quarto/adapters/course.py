"""Adapter to the Politecnico di Torino course ``quarto`` library (2022-23), both ways.

The course API (see ARCHITECTURE.md, "Course adapter facts"): a ``Player(quarto)`` has ``choose_piece()
-> int`` and ``place_piece() -> (x, y)`` with **x = column, y = row**; the game stores a placement in
``board[y, x]``. ``quarto.get_board_status()`` is a 4x4 numpy int array (-1 empty) and
``quarto.get_selected_piece()`` the piece to place. Piece indices are the same as ours, and square
``4 * y + x`` is our square, so no translation of pieces or squares is needed beyond ``(x, y)``.

* :func:`as_course_player` lets a gpquarto player sit at a course game: each decision rebuilds a gpquarto
  :class:`~gpquarto.games.quarto.board.Board` from the course board (who acts follows from the number of pieces
  placed) and asks the wrapped player.
* :func:`from_course_player` lets a course player play gpquarto matches: it is given a
  :class:`CourseGameShim`, a course-like game object backed by a gpquarto board that is re-synchronised
  before every decision.

Course players know only the classic lines; use them with classic rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from gpquarto.adapters.course_seeding import seed_course_player
from gpquarto.games.quarto.board import PLACE_OFFSET, Board, BoardView, IllegalActionError
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.pieces import NO_PIECE
from gpquarto.games.quarto.players.base import QuartoPlayer
from gpquarto.players.base import Player
from gpquarto.resolve import make_player

BOARD_SIDE = 4


def square_from_xy(x: int, y: int) -> int:
    """Our square for the course's ``(x, y)`` = (column, row)."""
    return BOARD_SIDE * y + x


def xy_from_square(square: int) -> tuple[int, int]:
    """The course's ``(x, y)`` = (column, row) for our square."""
    return square % BOARD_SIDE, square // BOARD_SIDE


# --------------------------------------------------------------------------- gpquarto player at a course game
class CourseSeat:
    """A gpquarto player seen as a course player: ``choose_piece()`` and ``place_piece() -> (x, y)``.

    Built by :func:`as_course_player`; ``get_game()`` returns the course game, as the course's
    ``Player`` does. The wrapped player's ``new_game(seat)`` hook is called when a new game is detected
    (the first decision, or fewer pieces on the board than at the previous decision).
    """

    def __init__(self, player: Player, quarto_game: Any, rules: Rules = Rules.CLASSIC) -> None:
        self.player = player
        self._game = quarto_game
        self._rules = Rules(rules)
        self._last_placed: int | None = None

    def get_game(self) -> Any:
        """The course game this seat plays in."""
        return self._game

    def choose_piece(self) -> int:
        """Ask the wrapped player which piece to give, in the position read from the course game."""
        board = self._position(placing=False)
        return int(self.player.decide(board.view()))  # a choice's action is the piece

    def place_piece(self) -> tuple[int, int]:
        """Ask the wrapped player where to put the selected piece; returns ``(x, y)`` = (column, row)."""
        board = self._position(placing=True)
        square = int(self.player.decide(board.view())) - PLACE_OFFSET
        return xy_from_square(square)

    def _position(self, *, placing: bool) -> Board:
        status = np.asarray(self._game.get_board_status())
        if status.shape != (BOARD_SIDE, BOARD_SIDE):
            raise ValueError(f"course board must be 4x4, got shape {status.shape}")
        cells = [int(value) for value in status.reshape(-1)]  # row-major: cell 4*y + x holds board[y, x]
        in_hand = int(self._game.get_selected_piece()) if placing else NO_PIECE
        board = Board.from_cells(cells, in_hand, self._rules)
        if self._last_placed is None or board.placed_count < self._last_placed:
            self.player.new_game(board.player)
        self._last_placed = board.placed_count
        return board


def as_course_player(
    player: Player | str, quarto_game: Any, *, seed: int | None = None, rules: Rules | str = Rules.CLASSIC
) -> CourseSeat:
    """Wrap a gpquarto player (or spec such as ``"minimax:depth=2"``) to play in the course game ``quarto_game``."""
    if isinstance(player, str):
        player = make_player(player, seed=seed)
    elif seed is not None and hasattr(player, "seed"):
        player.seed(seed)
    return CourseSeat(player, quarto_game, Rules(rules))


# --------------------------------------------------------------------------- course player in gpquarto games
class CoursePiece(NamedTuple):
    """The course's ``Piece`` characteristics, from our piece bits (bit 3 tall, 2 coloured, 1 solid, 0 square)."""

    HIGH: bool
    COLOURED: bool
    SOLID: bool
    SQUARE: bool


class CourseGameShim:
    """A course-like ``Quarto`` game backed by a gpquarto :class:`Board`, for course players.

    Exposes ``get_board_status()``, ``get_selected_piece()`` (the piece most recently selected, as in the
    course library: the piece to place, or the one just placed when a choice is due; -1 before the first
    choice), ``get_current_player()``, ``check_winner()`` (the winner's index or -1), ``check_finished()``,
    ``get_piece_charachteristics(index)`` (the course's spelling), and ``select(piece)`` / ``place(x, y)``
    returning False for illegal actions, so course players can simulate moves on a ``copy.deepcopy`` of it.
    """

    BOARD_SIDE = BOARD_SIDE
    MAX_PLAYERS = 2

    def __init__(self, board: Board | BoardView | None = None) -> None:
        self._board = Board() if board is None else board.copy()

    def load(self, view: Board | BoardView) -> None:
        """Take the position of the real game (a copy: the course player cannot change the real game)."""
        self._board = view.copy()

    def __deepcopy__(self, memo: dict) -> CourseGameShim:
        return CourseGameShim(self._board)

    def get_board_status(self) -> np.ndarray:
        """The 4x4 board, ``board[y, x]`` = piece at column x, row y, -1 where empty."""
        return np.array(self._board.cells, dtype=int).reshape(BOARD_SIDE, BOARD_SIDE)

    def get_selected_piece(self) -> int:
        """The most recently selected piece (the one to place when a placement is due), or -1."""
        if self._board.in_hand != NO_PIECE:
            return self._board.in_hand
        for action in reversed(self._board.history):
            if action < BOARD_SIDE * BOARD_SIDE:
                return action
        return NO_PIECE

    def get_current_player(self) -> int:
        """Index (0/1) of the player to act: 0 chooses first, then each player places and chooses."""
        return self._board.player

    def check_winner(self) -> int:
        """Index of the player who placed a winning piece, or -1."""
        winner = self._board.winner
        return -1 if winner is None else winner

    def check_finished(self) -> bool:
        """True when all sixteen squares are taken."""
        return self._board.placed_count == BOARD_SIDE * BOARD_SIDE

    def get_piece_charachteristics(self, index: int) -> CoursePiece:
        """The characteristics of piece ``index`` (the course library's method name, misspelling included)."""
        if not 0 <= index < 16:
            raise ValueError(f"piece index must be 0..15, got {index}")
        return CoursePiece(bool(index & 8), bool(index & 4), bool(index & 2), bool(index & 1))

    def select(self, piece: int) -> bool:
        """Choose ``piece`` for the opponent; False (and no change) if that is not legal now."""
        try:
            self._board.choose(int(piece))
        except (IllegalActionError, TypeError, ValueError):
            return False
        return True

    def place(self, x: int, y: int) -> bool:
        """Place the selected piece at column ``x``, row ``y``; False (and no change) if not legal."""
        if not (0 <= int(x) < BOARD_SIDE and 0 <= int(y) < BOARD_SIDE):
            return False
        try:
            self._board.place(square_from_xy(int(x), int(y)))
        except (IllegalActionError, TypeError, ValueError):
            return False
        return True


class CoursePlayerAdapter(QuartoPlayer):
    """A course player (built by ``factory(game)``) playing gpquarto games through a :class:`CourseGameShim`.

    Course players usually draw from the global ``random`` module (and numpy's), so the ``seed`` hook
    seeds those (and calls the course player's own ``seed`` method if it has one): matches stay
    reproducible by seed, at the price of resetting the process-wide generators.
    """

    def __init__(self, factory: Callable[[Any], Any], name: str | None = None) -> None:
        self.shim = CourseGameShim()
        self.course_player = factory(self.shim)
        self.name = name or type(self.course_player).__name__

    def seed(self, seed: int | None) -> None:
        seed_course_player(self.course_player, seed)

    def choose_piece(self, board: BoardView) -> int:
        self.shim.load(board)
        return int(self.course_player.choose_piece())

    def place_piece(self, board: BoardView, piece: int) -> int:
        self.shim.load(board)
        answer = self.course_player.place_piece()
        try:
            x, y = (int(value) for value in answer)
        except (TypeError, ValueError):
            raise ValueError(f"course player's place_piece() must return (x, y), got {answer!r}") from None
        if not (0 <= x < BOARD_SIDE and 0 <= y < BOARD_SIDE):
            raise ValueError(f"course player's place_piece() returned ({x}, {y}), outside the 4x4 board")
        return square_from_xy(x, y)


def from_course_player(course_player_factory: Callable[[Any], Any], name: str | None = None) -> CoursePlayerAdapter:
    """Wrap a course player class (or any ``factory(quarto) -> player``) so it plays gpquarto matches."""
    return CoursePlayerAdapter(course_player_factory, name)


__all__ = [
    "CourseGameShim",
    "CoursePiece",
    "CoursePlayerAdapter",
    "CourseSeat",
    "as_course_player",
    "from_course_player",
    "square_from_xy",
    "xy_from_square",
]
