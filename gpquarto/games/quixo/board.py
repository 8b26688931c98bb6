"""The Quixo game state: two bitmasks of cubes, whose turn, how the game ended; legal actions, apply and undo.

Rules (see ``docs/games.md``): player 0 (X) moves first. A move takes a border cube that is blank or shows the
mover's symbol, turns it to the mover's symbol and pushes it back in at an end of its row or column other than
where it was taken (action ``4*cell + direction``, see :mod:`~gpquarto.games.quixo.tables`). A complete line
(row, column or diagonal) of one symbol ends the game:

* ``official`` rules: a move that completes a line of the opponent's symbol loses, even if it also completes
  one of the mover's; otherwise a line of the mover's symbol wins.
* ``course`` rules (the Politecnico course library's ``check_winner``): the first complete line found scanning
  the rows, the columns, the main diagonal and the anti-diagonal gives the winner, whoever moved.

The game is drawn when a position (board and side to move) occurs for the ``repetitions``-th time (default 3;
the start position or the position set up from text counts once) or when ``ply_limit`` actions (default 300)
have been played since the start; a win on the same move takes precedence.

Example::

    >>> from gpquarto.games.quixo import QuixoBoard
    >>> board = QuixoBoard(size=3)
    >>> board.apply(board.parse_action("a1 to bottom"))
    >>> board.text()
    '.../.../X.. O'
"""

from __future__ import annotations

import enum
from operator import attrgetter
from typing import TYPE_CHECKING

from gpquarto.games.interface import DecisionKind, IllegalActionError, Outcome, Termination
from gpquarto.games.quixo.notation import (
    SYMBOLS,
    action_name,
    cell_name,
    format_position,
    parse_action_text,
    parse_position,
)
from gpquarto.games.quixo.symmetry import canonical_key
from gpquarto.games.quixo.tables import DIRECTION_NAMES, Tables, tables

NO_WINNER = -1
DEFAULT_SIZE = 5
DEFAULT_PLY_LIMIT = 300
DEFAULT_REPETITIONS = 3
#: The largest ply limit and repetition count a game may set: far beyond any useful game, small enough that a game's
#: history (kept for the repetition rule) stays small.
MAX_PLY_LIMIT, MAX_REPETITIONS = 10_000, 100


class QuixoRules(enum.StrEnum):
    """Which complete line decides when a move completes lines of both players."""

    OFFICIAL = "official"
    COURSE = "course"


def position_key(n: int, x: int, o: int, player: int) -> int:
    """One int for a position (board and side to move), as counted for repetitions."""
    return x | o << (n * n) | player << (2 * n * n)


def move_winner(table: Tables, course: bool, x: int, o: int, mover: int) -> int:
    """The winner (0 or 1) after ``mover`` moved to the masks ``x``, ``o``, or -1 when no line is complete."""
    own, other = (x, o) if mover == 0 else (o, x)
    result = table.mover_result(own, other, course)
    return NO_WINNER if result == 0 else mover if result > 0 else mover ^ 1


def never_legal_reason(n: int, action: int) -> str | None:
    """Why ``action`` is never legal on an ``n x n`` board (out of range, an inner cube, or the cube going
    back in where it was taken), or None when it is legal in some position."""
    count = 4 * n * n
    if action.__class__ is not int:
        return f"a Quixo action is an int 0..{count - 1}, got {action!r}"
    if not 0 <= action < count:
        return f"a Quixo action on the {n}x{n} board is an int 0..{count - 1}, got {action}"
    if tables(n).push[action] is not None:
        return None
    cell, direction = divmod(action, 4)
    row, col = divmod(cell, n)
    if 0 < row < n - 1 and 0 < col < n - 1:
        return f"action {action} takes the cube at {cell_name(n, cell)}, which is not on the border"
    return (
        f"action {action} would put the cube taken at {cell_name(n, cell)} back in where it was taken "
        f"({DIRECTION_NAMES[direction]})"
    )


class QuixoQueries:
    """The read-only queries shared by :class:`QuixoBoard` and :class:`QuixoView`, written once over the raw
    state: ``size``, ``rules``, ``x_mask``, ``o_mask`` (bit ``cell`` set where X / O has a cube), ``player``
    (0 = X or 1 = O, to move), ``winner_index`` (-1 while nobody has won), ``termination`` (None while the game
    goes on), ``ply_limit``, ``repetitions`` and ``history``."""

    __slots__ = ()

    size: int
    rules: QuixoRules
    x_mask: int
    o_mask: int
    player: int
    winner_index: int
    termination: Termination | None
    ply_limit: int
    repetitions: int

    if TYPE_CHECKING:  # provided by QuixoBoard and followed by QuixoView

        @property
        def history(self) -> tuple[int, ...]: ...
        def position_keys(self) -> tuple[int, ...]: ...
        def repetition_count(self) -> int: ...

    #: The registered name of the game (:mod:`gpquarto.games.interface`).
    game_name = "quixo"

    @property
    def cells(self) -> tuple[int, ...]:
        """The ``size*size`` cells, row-major: -1 blank, 0 X, 1 O."""
        x, o = self.x_mask, self.o_mask
        return tuple(0 if x >> c & 1 else 1 if o >> c & 1 else -1 for c in range(self.size * self.size))

    def legal_actions(self) -> tuple[int, ...]:
        """The legal actions, ascending (empty when the game is over)."""
        if self.termination is not None:
            return ()
        return tables(self.size).legal(self.o_mask if self.player == 0 else self.x_mask)

    def decision_kind(self) -> DecisionKind:
        """Always ``MOVE``: Quixo has one kind of decision."""
        return DecisionKind.MOVE

    def is_over(self) -> bool:
        """True when the game has ended (a win, a repetition or the ply limit)."""
        return self.termination is not None

    @property
    def winner(self) -> int | None:
        """The winning seat, or None."""
        return None if self.winner_index == NO_WINNER else self.winner_index

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        if self.termination is None:
            return None
        return Outcome(self.termination, None if self.winner_index == NO_WINNER else self.winner_index)

    def text(self) -> str:
        """The position text, e.g. ``"...../...../...../...../..... X"``."""
        return format_position(self.size, self.x_mask, self.o_mask, self.player, self.rules is QuixoRules.COURSE)

    def action_name(self, action: int) -> str:
        """``"b1 to bottom"``: the cube's cell and the end of its line where it goes back in."""
        return action_name(self.size, action)

    def parse_action(self, text: str) -> int:
        """The action named by ``text`` (``"b1 to bottom"``, ``"b1 b"``, ``"7"``, ``"#7"``); ``ValueError`` when
        it names no move of this board size (legality in this position is :meth:`QuixoBoard.apply`'s)."""
        action = parse_action_text(self.size, text)
        reason = never_legal_reason(self.size, action)
        if reason is not None:
            raise ValueError(reason)
        return action

    def canonical_key(self) -> int:
        """The same int for every symmetric image of the position (see :mod:`~gpquarto.games.quixo.symmetry`)."""
        mover, other = (self.x_mask, self.o_mask) if self.player == 0 else (self.o_mask, self.x_mask)
        return canonical_key(self.size, mover, other, self.rules is QuixoRules.OFFICIAL)

    def settings(self) -> dict[str, object]:
        """``rules``, ``size``, ``ply_limit`` and ``repetitions`` as plain data: ``from_text(text(), **settings())``
        gives the same position under the same settings."""
        return {
            "rules": self.rules.value,
            "size": self.size,
            "ply_limit": self.ply_limit,
            "repetitions": self.repetitions,
        }

    def position_key(self) -> int:
        """The position (board and side to move) as one int, as repetitions count it."""
        return position_key(self.size, self.x_mask, self.o_mask, self.player)

    def __str__(self) -> str:
        n = self.size
        rows = self.text().split()[0].split("/")
        lines = ["   " + " ".join("abcde"[:n])]
        lines += [f"{r + 1}  " + " ".join(row) for r, row in enumerate(rows)]
        if self.termination is None:
            lines.append(f"{SYMBOLS[self.player]} to move")
        elif self.winner_index == NO_WINNER:
            lines.append(f"draw ({self.termination.value})")
        else:
            lines.append(f"{SYMBOLS[self.winner_index]} won")
        return "\n".join(lines)


class QuixoBoard(QuixoQueries):
    """A Quixo position with its history. Mutable: :meth:`apply`, :meth:`undo`.

    The raw state is public for search code (see :class:`QuixoQueries`); change the position only through the
    actions. Players get a :class:`QuixoView`, which cannot change it.
    """

    __slots__ = (
        "size",
        "rules",
        "x_mask",
        "o_mask",
        "player",
        "winner_index",
        "termination",
        "ply_limit",
        "repetitions",
        "_tables",
        "_course",
        "_history",
        "_masks",
        "_keys",
        "_counts",
    )

    def __init__(
        self,
        size: int = DEFAULT_SIZE,
        rules: QuixoRules | str = QuixoRules.OFFICIAL,
        ply_limit: int = DEFAULT_PLY_LIMIT,
        repetitions: int = DEFAULT_REPETITIONS,
    ) -> None:
        self._tables = tables(size)
        self.size = size
        self.rules = QuixoRules(rules)
        self._course = self.rules is QuixoRules.COURSE
        if ply_limit.__class__ is not int or ply_limit < 1:
            raise ValueError(f"ply_limit must be an int >= 1, got {ply_limit!r}")
        if repetitions.__class__ is not int or repetitions < 2:
            raise ValueError(f"repetitions must be an int >= 2, got {repetitions!r}")
        self.ply_limit = ply_limit
        self.repetitions = repetitions
        self._set(0, 0, 0)

    def _set(self, x: int, o: int, player: int) -> None:
        """Make ``x``, ``o``, ``player`` the start of the history (the position counts once)."""
        self.x_mask = x
        self.o_mask = o
        self.player = player
        self._history: list[int] = []
        self._masks: list[tuple[int, int]] = []
        key = position_key(self.size, x, o, player)
        self._keys = [key]
        self._counts = {key: 1}
        self.winner_index = move_winner(self._tables, self._course, x, o, player ^ 1)
        self.termination = None if self.winner_index == NO_WINNER else Termination.WIN

    @property
    def history(self) -> tuple[int, ...]:
        """The actions played since the start (or since the position was set up)."""
        return tuple(self._history)

    def forget_history(self) -> None:
        """Make the current position the start: :meth:`undo` goes back no further, earlier positions no longer
        count as repetitions, and the ply limit counts from here."""
        self._set(self.x_mask, self.o_mask, self.player)

    def position_keys(self) -> tuple[int, ...]:
        """The position key (:meth:`position_key`) of every position of the history, the first one first."""
        return tuple(self._keys)

    def repetition_count(self) -> int:
        """How many times the current position has occurred (1 the first time)."""
        return self._counts[self._keys[-1]]

    # ------------------------------------------------------------------ actions
    def apply(self, action: int) -> None:
        """Play ``action``; :class:`IllegalActionError` (and no change) when the rules do not allow it."""
        table = self._tables
        if action.__class__ is not int or not 0 <= action < table.action_count or table.push[action] is None:
            raise IllegalActionError(never_legal_reason(self.size, action) or f"bad action {action!r}")
        if self.termination is not None:
            raise IllegalActionError(f"the game is over ({self.termination.value}): no move is legal")
        x, o, player = self.x_mask, self.o_mask, self.player
        own, other = (x, o) if player == 0 else (o, x)
        if other >> (action >> 2) & 1:
            cell = cell_name(self.size, action >> 2)
            raise IllegalActionError(
                f"the cube at {cell} shows {SYMBOLS[player ^ 1]}: {SYMBOLS[player]} may take only a blank cube "
                "or one of its own"
            )
        keep, moved, left, right, dest, _ = table.push[action]  # type: ignore[misc]  # legal: never None
        own = (own & keep) | ((own & moved) << left >> right) | dest
        other = (other & keep) | ((other & moved) << left >> right)
        x, o = (own, other) if player == 0 else (other, own)
        self._masks.append((self.x_mask, self.o_mask))
        self._history.append(action)
        self.x_mask, self.o_mask = x, o
        self.player = player ^ 1
        key = x | o << table.cells | (player ^ 1) << (2 * table.cells)
        self._keys.append(key)
        count = self._counts.get(key, 0) + 1
        self._counts[key] = count
        winner = move_winner(table, self._course, x, o, player)
        if winner != NO_WINNER:
            self.winner_index = winner
            self.termination = Termination.WIN
        elif count >= self.repetitions:
            self.termination = Termination.REPETITION
        elif len(self._history) >= self.ply_limit:
            self.termination = Termination.PLY_LIMIT

    def undo(self) -> int:
        """Take back the last action and return it; :class:`IllegalActionError` when there is none."""
        if not self._history:
            raise IllegalActionError("nothing to undo")
        key = self._keys.pop()
        count = self._counts[key] - 1
        if count:
            self._counts[key] = count
        else:
            del self._counts[key]
        self.x_mask, self.o_mask = self._masks.pop()
        self.player ^= 1
        self.winner_index = NO_WINNER
        self.termination = None
        return self._history.pop()

    # ------------------------------------------------------------------ copies, text, views
    def copy(self) -> QuixoBoard:
        """An independent copy, with its history and repetition counts."""
        other = QuixoBoard.__new__(QuixoBoard)
        for name in ("size", "rules", "x_mask", "o_mask", "player", "winner_index", "termination"):
            setattr(other, name, getattr(self, name))
        other.ply_limit = self.ply_limit
        other.repetitions = self.repetitions
        other._tables = self._tables
        other._course = self._course
        other._history = self._history[:]
        other._masks = self._masks[:]
        other._keys = self._keys[:]
        other._counts = dict(self._counts)
        return other

    def view(self) -> QuixoView:
        """A read-only view that follows this board as it changes."""
        return QuixoView(self)

    @classmethod
    def from_text(
        cls, text: str, ply_limit: int = DEFAULT_PLY_LIMIT, repetitions: int = DEFAULT_REPETITIONS
    ) -> QuixoBoard:
        """The position that ``text`` describes (size and rules from the text); ``ValueError`` saying what is
        wrong and where. A position with a complete line is over (the winner as the rules would have it after
        the side not to move made the last move)."""
        n, x, o, player, course = parse_position(text)
        return cls.from_masks(
            x, o, player, n, QuixoRules.COURSE if course else QuixoRules.OFFICIAL, ply_limit, repetitions
        )

    @classmethod
    def from_masks(
        cls,
        x: int,
        o: int,
        player: int,
        size: int = DEFAULT_SIZE,
        rules: QuixoRules | str = QuixoRules.OFFICIAL,
        ply_limit: int = DEFAULT_PLY_LIMIT,
        repetitions: int = DEFAULT_REPETITIONS,
    ) -> QuixoBoard:
        """The position of the cube masks ``x`` and ``o`` with ``player`` to move."""
        board = cls(size, rules, ply_limit, repetitions)
        full = board._tables.full
        if x & o or (x | o) & ~full or player not in (0, 1):
            raise ValueError(f"bad Quixo masks for a {size}x{size} board: x={x:#x}, o={o:#x}, player={player!r}")
        board._set(x, o, player)
        return board

    def __repr__(self) -> str:
        return f"QuixoBoard.from_text({self.text()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, QuixoBoard):
            return NotImplemented
        return (self.size, self.rules, self.x_mask, self.o_mask, self.player) == (
            other.size,
            other.rules,
            other.x_mask,
            other.o_mask,
            other.player,
        )

    def __hash__(self) -> int:
        return hash((self.size, self.rules, self.x_mask, self.o_mask, self.player))


def _follow(name: str, doc: str) -> property:
    """A read-only property of :class:`QuixoView` reading the board's attribute ``name`` (a C-level getter)."""
    return property(attrgetter(f"_board.{name}"), doc=doc)


class QuixoView(QuixoQueries):
    """Read-only view of a :class:`QuixoBoard`, given to players: every query, no action; :meth:`copy`
    returns a mutable board to search on."""

    __slots__ = ("_board",)

    def __init__(self, board: QuixoBoard) -> None:
        self._board = board

    size = _follow("size", "The board's side: 3, 4 or 5.")
    rules = _follow("rules", "The rule set.")
    x_mask = _follow("x_mask", "Bit c set where X has a cube.")
    o_mask = _follow("o_mask", "Bit c set where O has a cube.")
    player = _follow("player", "The seat to move: 0 (X) or 1 (O).")
    winner_index = _follow("winner_index", "The winner, or -1.")
    termination = _follow("termination", "How the game ended, or None.")
    ply_limit = _follow("ply_limit", "The ply limit.")
    repetitions = _follow("repetitions", "The occurrence of a position that draws.")
    history = _follow("history", "The actions so far.")
    legal_actions = _follow("legal_actions", QuixoQueries.legal_actions.__doc__ or "")
    repetition_count = _follow("repetition_count", QuixoBoard.repetition_count.__doc__ or "")
    position_keys = _follow("position_keys", QuixoBoard.position_keys.__doc__ or "")

    def copy(self) -> QuixoBoard:
        """A mutable copy of the underlying board (with its history and repetition counts), free to search on."""
        return self._board.copy()

    def __repr__(self) -> str:
        return f"QuixoView({self.text()!r})"
