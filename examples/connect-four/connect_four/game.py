"""Connect Four's rules and states, on gpquarto's game interface (:mod:`gpquarto.games.interface`).

Two players drop discs in turn into the columns of an upright board; a disc falls to the lowest empty cell of its
column. Four discs of one player in a line (across, up, or diagonally) win; a full board without one is a draw.
X (seat 0) moves first. The board is ``rows`` x ``columns``, each 4 to 9 (7 columns x 6 rows by default).

* An **action** is a column, ``0`` (the left one) to ``columns - 1``, as in OpenSpiel's ``connect_four``. Columns
  are lettered ``a``, ``b``, ...; an action's name is ``"drop d"``, and :meth:`parse_action` reads ``"drop d"``,
  ``"d"`` or ``"3"``.
* **Position text**: the rows from the top, separated by ``/``, each cell ``X``, ``O`` or ``.``; a space; the side
  to move. The start of the 7x6 game is ``......./......./......./......./......./....... X``.
* The **canonical key** is an int shared by a position and its left-right mirror image (the board's only symmetry).

Example::

    >>> state = CONNECT_FOUR.new_state(rows=4, columns=4)
    >>> for column in (0, 1, 0, 1, 0, 1):
    ...     state.apply(column)
    >>> state.text()
    '..../XO../XO../XO.. X'
    >>> state.apply(state.parse_action("a"))
    >>> state.outcome()
    Outcome(termination=<Termination.WIN: 'win'>, winner=0, forfeited_by=None, reason='')
"""

from __future__ import annotations

from connect_four.bitboard import MAX_SIZE, MIN_SIZE, Geometry, geometry, has_four, mirrored_key, position_key
from gpquarto.games.interface import DecisionKind, IllegalActionError, Outcome, Termination

NAME = "connect_four"
#: The marks of seat 0 and seat 1 in position text.
MARKS = "XO"
LETTERS = "abcdefghi"
DEFAULT_ROWS, DEFAULT_COLUMNS = 6, 7
_WINS = (Outcome(Termination.WIN, 0), Outcome(Termination.WIN, 1))
_DRAW = Outcome(Termination.DRAW)


class ConnectFour:
    """The game: settings ``rows`` and ``columns`` (each 4 to 9), one decision kind (``MOVE``)."""

    name = NAME
    rule_sets = ("standard",)
    action_count = DEFAULT_COLUMNS
    decision_kinds = (DecisionKind.MOVE,)

    def check_settings(self, settings: dict[str, object]) -> dict[str, object]:
        """``settings`` checked and completed (``rows`` 6, ``columns`` 7); a one-line ``ValueError``."""
        unknown = sorted(set(settings) - {"rows", "columns"})
        if unknown:
            raise ValueError(f"{NAME} has no setting {unknown[0]!r} (settings: rows, columns)")
        checked = {"rows": settings.get("rows", DEFAULT_ROWS), "columns": settings.get("columns", DEFAULT_COLUMNS)}
        for name, value in checked.items():
            if value.__class__ is not int or not MIN_SIZE <= value <= MAX_SIZE:  # type: ignore[operator]
                raise ValueError(f"{name} must be an int from {MIN_SIZE} to {MAX_SIZE}, got {value!r}")
        return checked

    def new_state(self, **settings: object) -> ConnectFourState:
        """The empty board of the size ``settings`` give."""
        checked = self.check_settings(settings)
        return ConnectFourState(geometry(checked["rows"], checked["columns"]))  # type: ignore[arg-type]

    def from_text(self, text: str, **settings: object) -> ConnectFourState:
        """The position in ``text`` (whose rows give the board's size; ``rows`` and ``columns``, when given, must
        agree with it); a one-line ``ValueError`` saying what is wrong."""
        self.check_settings(settings)
        if not isinstance(text, str):
            raise ValueError(f"position text must be a string, got {type(text).__name__}")
        words = text.split()
        if len(words) != 2:
            raise ValueError(f"expected rows separated by '/', a space and the side to move (X or O), got {text!r}")
        rows_text, side = words
        rows = rows_text.split("/")
        if not MIN_SIZE <= len(rows) <= MAX_SIZE:
            raise ValueError(f"expected {MIN_SIZE} to {MAX_SIZE} rows separated by '/', got {len(rows)}")
        columns = len(rows[0])
        for number, row in enumerate(rows, 1):
            if len(row) != columns or not MIN_SIZE <= columns <= MAX_SIZE:
                raise ValueError(
                    f"row {number} from the top has {len(row)} cells: every row needs the same number, "
                    f"{MIN_SIZE} to {MAX_SIZE}"
                )
            bad = set(row) - set("XO.")
            if bad:
                raise ValueError(f"row {number} from the top has {min(bad)!r}: cells are X, O or '.'")
        for name, value in (("rows", len(rows)), ("columns", columns)):
            if name in settings and settings[name] != value:
                raise ValueError(f"the position has {value} {name}, not {settings[name]}")
        if side not in MARKS:
            raise ValueError(f"the side to move must be X or O, got {side!r}")
        shape = geometry(len(rows), columns)
        discs = [0, 0]
        for number, row in enumerate(rows):
            height = shape.rows - 1 - number
            for column, mark in enumerate(row):
                if mark != ".":
                    discs[MARKS.index(mark)] |= 1 << shape.bit(height, column)
        occupied = discs[0] | discs[1]
        for column in range(columns):
            bits = (occupied & shape.column_masks[column]) >> (column * shape.height)
            if bits & (bits + 1):
                raise ValueError(f"column {LETTERS[column]} has a disc above an empty cell")
        counts = discs[0].bit_count(), discs[1].bit_count()
        player = MARKS.index(side)
        if counts[0] - counts[1] != player:
            raise ValueError(
                f"X has {counts[0]} discs and O {counts[1]}: X moves first, so {'XO'[counts[0] != counts[1]]} is to "
                f"move, not {side}"
                if counts[0] - counts[1] in (0, 1)
                else f"X has {counts[0]} discs and O {counts[1]}: X moves first, so X has as many as O or one more"
            )
        wins = has_four(discs[0], shape.height), has_four(discs[1], shape.height)
        if wins[0] and wins[1]:
            raise ValueError("both X and O have four in a line: at most one side can have won")
        if wins[player]:
            raise ValueError(f"{side} has four in a line but is to move: only the side that just moved can have won")
        if wins[1 - player] and not _last_disc_can_have_won(discs[1 - player], occupied, shape):
            raise ValueError(
                f"{MARKS[1 - player]} has four in a line that no last disc can have made: the game would have ended sooner"
            )
        state = ConnectFourState(shape)
        state._discs = discs
        state._next = [c * shape.height + (occupied & shape.column_masks[c]).bit_count() for c in range(columns)]
        state._open = tuple(c for c in range(columns) if state._next[c] != shape.tops[c])
        state._count = counts[0] + counts[1]
        state._player = player
        state._outcome = _WINS[1 - player] if wins[1 - player] else _DRAW if state._count == shape.cells else None
        return state

    def __repr__(self) -> str:
        return f"<game {NAME}>"


CONNECT_FOUR = ConnectFour()


def _last_disc_can_have_won(winner: int, occupied: int, shape: Geometry) -> bool:
    """True when some column's top disc is the winner's and, taken away, leaves the winner without four in a line."""
    for column in range(shape.columns):
        count = (occupied & shape.column_masks[column]).bit_count()
        top = 1 << (column * shape.height + count - 1) if count else 0
        if top & winner and not has_four(winner ^ top, shape.height):
            return True
    return False


class _Queries:
    """What a state and its view both answer; ``_state()`` is the state that holds the position."""

    __slots__ = ()
    game_name = NAME

    def _state(self) -> ConnectFourState:
        raise NotImplementedError

    @property
    def player(self) -> int:
        """The seat to move: 0 (X) or 1 (O)."""
        return self._state()._player

    @property
    def shape(self) -> Geometry:
        """The board's size and bit layout."""
        return self._state()._shape

    @property
    def rows(self) -> int:
        """How many rows the board has."""
        return self._state()._shape.rows

    @property
    def columns(self) -> int:
        """How many columns the board has (the actions are ``0`` to ``columns - 1``)."""
        return self._state()._shape.columns

    @property
    def discs(self) -> tuple[int, int]:
        """The bitboards of X's and O's discs (see :mod:`connect_four.bitboard`)."""
        discs = self._state()._discs
        return discs[0], discs[1]

    @property
    def history(self) -> tuple[int, ...]:
        """The actions applied since the start position."""
        return tuple(self._state()._history)

    def legal_actions(self) -> list[int]:
        """The columns that are not full, ascending; empty once the game is over."""
        state = self._state()
        return [] if state._outcome is not None else list(state._open)

    def decision_kind(self) -> DecisionKind:
        return DecisionKind.MOVE

    def is_over(self) -> bool:
        return self._state()._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._state()._outcome

    def height(self, column: int) -> int:
        """How many discs ``column`` holds."""
        state = self._state()
        return state._next[column] - column * state._shape.height

    def cell(self, row: int, column: int) -> int:
        """Who holds the cell at ``row`` (0 at the bottom) in ``column``: 0 (X), 1 (O) or -1 (empty)."""
        state = self._state()
        bit = 1 << state._shape.bit(row, column)
        return 0 if state._discs[0] & bit else 1 if state._discs[1] & bit else -1

    def winning_line(self) -> tuple[tuple[int, int], ...]:
        """The cells, as (row from the bottom, column), of the winner's lines of four (empty without a winner)."""
        state = self._state()
        outcome = state._outcome
        if outcome is None or outcome.winner is None:
            return ()
        shape, discs = state._shape, state._discs[outcome.winner]
        covered = 0
        for window in shape.windows:
            if discs & window == window:
                covered |= window
        return tuple(
            (row, column)
            for column in range(shape.columns)
            for row in range(shape.rows)
            if covered >> shape.bit(row, column) & 1
        )

    def text(self) -> str:
        """The position text (rows from the top, then the side to move)."""
        state = self._state()
        shape, (first, second) = state._shape, state._discs
        rows = []
        for row in range(shape.rows - 1, -1, -1):
            marks = []
            for column in range(shape.columns):
                bit = 1 << (column * shape.height + row)
                marks.append("X" if first & bit else "O" if second & bit else ".")
            rows.append("".join(marks))
        return "/".join(rows) + " " + MARKS[state._player]

    def action_name(self, action: int) -> str:
        """``"drop d"`` for column 3."""
        if action.__class__ is int and 0 <= action < self._state()._shape.columns:
            return f"drop {LETTERS[action]}"
        return f"drop {action!r} (no such column)"

    def parse_action(self, text: str) -> int:
        """The column that ``text`` names: ``"drop d"``, ``"d"`` or ``"3"``; ``ValueError`` for any other text."""
        columns = self._state()._shape.columns
        word = str(text).strip().lower()
        word = word.removeprefix("drop").strip()
        if len(word) == 1 and word in LETTERS[:columns]:
            return LETTERS.index(word)
        if word.isascii() and word.isdecimal() and int(word) < columns:
            return int(word)
        raise ValueError(
            f"not a column: {str(text)[:40]!r} (a letter a..{LETTERS[columns - 1]}, 'drop a', or 0..{columns - 1})"
        )

    def canonical_key(self) -> int:
        """An int that a position and its left-right mirror image share, and no other position (of any board size)
        has; the side to move follows from the discs. Below ``2**98`` (some tables take at most ``2**128``)."""
        state = self._state()
        shape = state._shape
        key = position_key(state._discs[0], state._discs[0] | state._discs[1], shape)
        return min(key, mirrored_key(key, shape)) | shape.size_tag

    def settings(self) -> dict[str, object]:
        """``{"rows": ..., "columns": ...}``."""
        shape = self._state()._shape
        return {"rows": shape.rows, "columns": shape.columns}

    def copy(self) -> ConnectFourState:
        """An independent, mutable copy (with the history)."""
        state = self._state()
        twin = ConnectFourState.__new__(ConnectFourState)
        twin._shape = state._shape
        twin._discs = state._discs[:]
        twin._next = state._next[:]
        twin._open = state._open
        twin._count = state._count
        twin._player = state._player
        twin._history = state._history[:]
        twin._outcome = state._outcome
        return twin

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text()!r})"

    def __str__(self) -> str:
        """The board for the terminal: the column letters, the rows from the top (the last disc in brackets), and
        who is to move or how the game ended."""
        state = self._state()
        shape = state._shape
        last = (self.height(state._history[-1]) - 1, state._history[-1]) if state._history else None
        lines = [" " + "  ".join(LETTERS[: shape.columns])]
        for row in range(shape.rows - 1, -1, -1):
            cells = []
            for column in range(shape.columns):
                owner = self.cell(row, column)
                mark = "." if owner < 0 else MARKS[owner]
                cells.append(f"[{mark}]" if (row, column) == last else f" {mark} ")
            lines.append("".join(cells).rstrip())
        outcome = state._outcome
        if outcome is None:
            lines.append(f"{MARKS[state._player]} to move")
        else:
            lines.append("draw: the board is full" if outcome.winner is None else f"{MARKS[outcome.winner]} wins")
        return "\n".join(lines)


class ConnectFourState(_Queries):
    """A Connect Four position and its history (the interface's ``GameState``)."""

    __slots__ = ("_shape", "_discs", "_next", "_open", "_count", "_player", "_history", "_outcome")

    def __init__(self, shape: Geometry | None = None) -> None:
        self._shape = shape or geometry(DEFAULT_ROWS, DEFAULT_COLUMNS)
        #: The bitboards of seat 0 and seat 1.
        self._discs = [0, 0]
        #: The bit index of every column's lowest empty cell (``tops[c]`` when the column is full).
        self._next = [c * self._shape.height for c in range(self._shape.columns)]
        #: The columns that are not full, ascending.
        self._open = tuple(range(self._shape.columns))
        self._count = 0
        self._player = 0
        self._history: list[int] = []
        self._outcome: Outcome | None = None

    def _state(self) -> ConnectFourState:
        return self

    # the queries that searches and playouts ask at every node, without the view's indirection
    @property
    def player(self) -> int:
        """The seat to move: 0 (X) or 1 (O)."""
        return self._player

    def legal_actions(self) -> list[int]:
        """The columns that are not full, ascending; empty once the game is over."""
        if self._outcome is not None:
            return []
        return list(self._open)

    def is_over(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def apply(self, action: int) -> None:
        """Drop a disc in column ``action``; :class:`IllegalActionError` (and no change) when it is no column,
        the column is full or the game is over."""
        shape = self._shape
        if action.__class__ is not int or not 0 <= action < shape.columns or self._outcome is not None:
            raise IllegalActionError(self._why_illegal(action))
        bit = self._next[action]
        if bit == shape.tops[action]:
            raise IllegalActionError(f"column {LETTERS[action]} is full")
        self._next[action] = bit + 1
        if bit + 1 == shape.tops[action]:
            self._open = tuple(column for column in self._open if column != action)
        player = self._player
        discs = self._discs[player] | (1 << bit)
        self._discs[player] = discs
        self._history.append(action)
        self._count += 1
        self._player = 1 - player
        if has_four(discs, shape.height):
            self._outcome = _WINS[player]
        elif self._count == shape.rows * shape.columns:
            self._outcome = _DRAW

    def _why_illegal(self, action: object) -> str:
        if self._outcome is not None:
            return f"the game is over ({self._outcome.termination.value}): no move is legal"
        return f"{action!r} is not a column: columns are the ints 0 to {self._shape.columns - 1}"

    def undo(self) -> int:
        """Take back the last disc and return its column; :class:`IllegalActionError` when there is none."""
        if not self._history:
            raise IllegalActionError("no move to take back")
        action = self._history.pop()
        bit = self._next[action] - 1
        if bit + 1 == self._shape.tops[action]:
            self._open = tuple(sorted((*self._open, action)))
        self._next[action] = bit
        self._player = player = 1 - self._player
        self._discs[player] ^= 1 << bit
        self._count -= 1
        self._outcome = None  # every position before the last was not over
        return action

    def view(self) -> ConnectFourView:
        """A read-only view that follows this state."""
        return ConnectFourView(self)

    def forget_history(self) -> None:
        """Make the current position the start (``undo`` goes back no further)."""
        self._history = []


class ConnectFourView(_Queries):
    """The read-only face of a :class:`ConnectFourState`, given to players."""

    __slots__ = ("_of",)

    def __init__(self, state: ConnectFourState) -> None:
        self._of = state

    def _state(self) -> ConnectFourState:
        return self._of
