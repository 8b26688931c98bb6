"""The Quarto game state: board, piece in hand, whose action, winner; legal actions, apply and undo.

Turn order: player 0 opens by *choosing* a piece for player 1. Then each turn the player *places* the
piece it was given and, if the game is not over, *chooses* a piece for the opponent. The player who
places the fourth piece of a winning line wins; sixteen pieces without a win is a draw.

Example::

    >>> from gpquarto import Board
    >>> board = Board()
    >>> board.choose(5)        # player 0 gives piece 5 to player 1
    >>> board.place(0)         # player 1 puts it on the top-left square
    >>> board.player, board.legal_pieces()[:3]
    (1, (0, 1, 2))
    >>> board.text()
    '5.../..../..../.... -'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from gpquarto.engine.indices import check_index
from gpquarto.engine.lines import (
    ALL_SQUARES_MASK,
    LINE_MASKS_THROUGH,
    LINE_OF_MASK,
    LINES_THROUGH,
    SQUARE_COUNT,
    Rules,
    check_square,
)
from gpquarto.engine.pieces import (
    ALL_PIECES_MASK,
    CHARACTERISTICS,
    MEMBERS,
    NO_PIECE,
    check_piece,
)

#: Actions as single ints, for search code that wants one action space: 0..15 choose that piece,
#: 16..31 place the piece in hand on square ``action - 16``.
PLACE_OFFSET = 16


_CHARACTERISTICS = CHARACTERISTICS


def full_line_wins(cells: list[int], mask: int) -> int:
    """The characteristics shared by the four pieces of the full line with square mask ``mask``: nonzero
    exactly when the line wins.

    Hot loops test ``not empty & mask`` first (cheap, and false for most lines) and call this only then.
    """
    a, b, c, d = LINE_OF_MASK[mask]
    return (
        _CHARACTERISTICS[cells[a]]
        & _CHARACTERISTICS[cells[b]]
        & _CHARACTERISTICS[cells[c]]
        & _CHARACTERISTICS[cells[d]]
    )


class IllegalActionError(ValueError):
    """An action that the rules do not allow in this position. The board is left unchanged."""


def _checked(check: Callable[[object], int], value: object) -> int:
    """``check(value)``, with its ``ValueError`` turned into an :class:`IllegalActionError`."""
    try:
        return check(value)
    except ValueError as error:
        raise IllegalActionError(str(error)) from None


class Board:
    """A Quarto position with its history. Mutable: :meth:`choose`, :meth:`place`, :meth:`undo`.

    Cells hold a piece (0..15) or :data:`NO_PIECE` (-1). ``player`` is the index (0 or 1) of the player
    who acts next; ``in_hand`` is the piece that player must place, or ``NO_PIECE`` when a choice is due.
    """

    __slots__ = (
        "rules",
        "_cells",
        "_occupied",
        "_available",
        "_in_hand",
        "_player",
        "_winner",
        "_placed",
        "_history",
        "_lines_through",
        "_line_masks",
    )

    def __init__(self, rules: Rules | str = Rules.CLASSIC) -> None:
        self.rules = rules if rules.__class__ is Rules else Rules(rules)
        self._lines_through = LINES_THROUGH[self.rules]
        self._line_masks = LINE_MASKS_THROUGH[self.rules]
        self._cells = [NO_PIECE] * SQUARE_COUNT
        self._occupied = 0
        self._available = ALL_PIECES_MASK
        self._in_hand = NO_PIECE
        self._player = 0
        self._winner = NO_PIECE
        self._placed = 0
        self._history: list[int] = []

    # ------------------------------------------------------------------ queries
    @property
    def cells(self) -> tuple[int, ...]:
        """The 16 cells, row-major; each a piece or ``NO_PIECE``."""
        return tuple(self._cells)

    def piece_at(self, square: int) -> int:
        """The piece on ``square``, or ``NO_PIECE``."""
        return self._cells[square]

    @property
    def in_hand(self) -> int:
        """The piece the player to act must place, or ``NO_PIECE`` when a choice is due."""
        return self._in_hand

    @property
    def player(self) -> int:
        """Index (0 or 1) of the player who acts next (or who would act, once the game is over)."""
        return self._player

    @property
    def choice_due(self) -> bool:
        """True when the next action is choosing a piece (and the game is not over)."""
        return self._in_hand == NO_PIECE and self._winner == NO_PIECE and self._placed < SQUARE_COUNT

    @property
    def placement_due(self) -> bool:
        """True when the next action is placing the piece in hand."""
        return self._in_hand != NO_PIECE

    @property
    def placed_count(self) -> int:
        """How many pieces are on the board."""
        return self._placed

    @property
    def occupied_mask(self) -> int:
        """Bit ``s`` set when square ``s`` holds a piece."""
        return self._occupied

    @property
    def available_mask(self) -> int:
        """Bit ``p`` set when piece ``p`` is neither on the board nor in hand."""
        return self._available

    def available_pieces(self) -> tuple[int, ...]:
        """Pieces neither on the board nor in hand, ascending."""
        return MEMBERS[self._available]

    def empty_squares(self) -> tuple[int, ...]:
        """Empty squares, ascending."""
        return MEMBERS[self._occupied ^ ALL_SQUARES_MASK]

    def legal_pieces(self) -> tuple[int, ...]:
        """Pieces that may be chosen now (empty unless a choice is due)."""
        if self._in_hand != NO_PIECE or self._winner != NO_PIECE:
            return ()
        return MEMBERS[self._available]

    def legal_squares(self) -> tuple[int, ...]:
        """Squares where the piece in hand may be placed (empty unless a placement is due)."""
        if self._in_hand == NO_PIECE:
            return ()
        return MEMBERS[self._occupied ^ ALL_SQUARES_MASK]

    def legal_actions(self) -> tuple[int, ...]:
        """Legal actions in the single-int encoding (0..15 choose, 16..31 place)."""
        if self._in_hand != NO_PIECE:
            return tuple(PLACE_OFFSET + s for s in MEMBERS[self._occupied ^ ALL_SQUARES_MASK])
        return self.legal_pieces()

    @property
    def winner(self) -> int | None:
        """Index of the player who made a winning line, or None."""
        return None if self._winner == NO_PIECE else self._winner

    def is_over(self) -> bool:
        """True when somebody has won or all sixteen pieces are placed."""
        return self._winner != NO_PIECE or self._placed == SQUARE_COUNT

    def is_draw(self) -> bool:
        """True when the board is full and nobody has won."""
        return self._winner == NO_PIECE and self._placed == SQUARE_COUNT

    @property
    def history(self) -> tuple[int, ...]:
        """Actions played since the start (or since the position was set up), single-int encoding."""
        return tuple(self._history)

    def winning_lines(self) -> list[tuple[int, ...]]:
        """Every full line whose four pieces share a characteristic."""
        cells = self._cells
        found = []
        for line in self.rules.lines:
            if all(cells[s] != NO_PIECE for s in line):
                common = 0xFF
                for s in line:
                    common &= CHARACTERISTICS[cells[s]]
                if common:
                    found.append(line)
        return found

    def is_winning_placement(self, square: int, piece: int) -> bool:
        """True if putting ``piece`` on the empty ``square`` would complete a winning line."""
        cells = self._cells
        occupied = self._occupied | (1 << square)
        own = CHARACTERISTICS[piece]
        for mask, (a, b, c) in self._lines_through[square]:
            if (
                occupied & mask == mask
                and own & CHARACTERISTICS[cells[a]] & CHARACTERISTICS[cells[b]] & CHARACTERISTICS[cells[c]]
            ):
                return True
        return False

    def winning_squares(self, piece: int) -> tuple[int, ...]:
        """Empty squares where ``piece`` would win at once."""
        return tuple(s for s in MEMBERS[self._occupied ^ ALL_SQUARES_MASK] if self.is_winning_placement(s, piece))

    # ------------------------------------------------------------------ actions
    def choose(self, piece: int) -> None:
        """Give ``piece`` to the opponent. Raises :class:`IllegalActionError` if not allowed."""
        if self._in_hand != NO_PIECE or self._winner != NO_PIECE or self._placed == SQUARE_COUNT:
            raise IllegalActionError(self._why_not("choice"))
        self._give(piece)

    def place(self, square: int) -> None:
        """Put the piece in hand on ``square``. Raises :class:`IllegalActionError` if not allowed."""
        if self._in_hand == NO_PIECE:
            raise IllegalActionError(self._why_not("placement"))
        self._put(square)

    def _give(self, piece: int) -> None:
        """:meth:`choose`, for callers that know a choice is due: only ``piece`` is checked."""
        if type(piece) is not int or not 0 <= piece < 16:
            piece = _checked(check_piece, piece)
        available = self._available
        bit = 1 << piece
        if not available & bit:
            raise IllegalActionError(f"piece {piece:X} is already used")
        self._available = available ^ bit
        self._in_hand = piece
        self._player ^= 1
        self._history.append(piece)

    def _put(self, square: int) -> None:
        """:meth:`place`, for callers that know a placement is due: only ``square`` is checked."""
        if type(square) is not int or not 0 <= square < 16:
            square = _checked(check_square, square)
        occupied = self._occupied
        bit = 1 << square
        if occupied & bit:
            raise IllegalActionError(f"square {square} is occupied")
        cells = self._cells
        cells[square] = self._in_hand
        occupied |= bit
        self._occupied = occupied
        self._in_hand = NO_PIECE
        self._placed += 1
        self._history.append(PLACE_OFFSET + square)
        empty = occupied ^ ALL_SQUARES_MASK
        for mask in self._line_masks[square]:
            if not empty & mask and full_line_wins(cells, mask):
                self._winner = self._player
                return

    def _why_not(self, kind: str) -> str:
        """Why an action of ``kind`` ("choice" or "placement") is not allowed now."""
        if self.is_over():
            return "the game is over"
        if kind == "choice":
            return f"a placement is due (piece {self._in_hand:X} is in hand), not a choice"
        return "a choice is due, not a placement: no piece is in hand"

    def apply(self, action: int) -> None:
        """Play an action in the single-int encoding."""
        index = action
        if index.__class__ is not int:
            try:
                index = check_index(action, "an action", 2 * PLACE_OFFSET)
            except ValueError:
                index = -1
        if PLACE_OFFSET <= index < 2 * PLACE_OFFSET:
            self.place(index - PLACE_OFFSET)
        elif 0 <= index < PLACE_OFFSET:
            self.choose(index)
        else:
            raise IllegalActionError(f"an action must be an int 0..31 (0..15 choose, 16..31 place), got {action!r}")

    def undo(self) -> int:
        """Take back the last action and return it (single-int encoding)."""
        if not self._history:
            raise IllegalActionError("nothing to undo")
        action = self._history.pop()
        if action >= PLACE_OFFSET:
            square = action - PLACE_OFFSET
            self._in_hand = self._cells[square]
            self._cells[square] = NO_PIECE
            self._occupied ^= 1 << square
            self._placed -= 1
            self._winner = NO_PIECE
        else:
            self._available |= 1 << action
            self._in_hand = NO_PIECE
            self._player ^= 1
        return action

    # ------------------------------------------------------------------ copies, text, views
    def copy(self) -> Board:
        """An independent copy (with its history)."""
        other = Board.__new__(Board)
        other.rules = self.rules
        other._lines_through = self._lines_through
        other._line_masks = self._line_masks
        other._cells = self._cells[:]
        other._occupied = self._occupied
        other._available = self._available
        other._in_hand = self._in_hand
        other._player = self._player
        other._winner = self._winner
        other._placed = self._placed
        other._history = self._history[:]
        return other

    def view(self) -> BoardView:
        """A read-only view of this board that follows it as it changes."""
        return BoardView(self)

    def text(self) -> str:
        """The position in the text format, e.g. ``"5.../..../..../.... -"``."""
        from gpquarto.engine.notation import format_position

        return format_position(self)

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Parse a position in the text format; raises ``ValueError`` saying what is wrong and where."""
        from gpquarto.engine.notation import parse_position

        return parse_position(text)

    @classmethod
    def from_cells(
        cls, cells: list[int] | tuple[int, ...], in_hand: int = NO_PIECE, rules: Rules | str = Rules.CLASSIC
    ) -> Board:
        """Set up a position from 16 cells and the piece in hand; validates it like :meth:`from_text`."""
        from gpquarto.engine.notation import position_from_cells

        return position_from_cells(cells, in_hand, Rules(rules))

    def __str__(self) -> str:
        from gpquarto.engine.notation import render

        return render(self)

    def __repr__(self) -> str:
        return f"Board.from_text({self.text()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self.rules is other.rules
            and self._cells == other._cells
            and self._in_hand == other._in_hand
            and self._player == other._player
        )

    def __hash__(self) -> int:
        return hash((self.rules, tuple(self._cells), self._in_hand, self._player))


class BoardView:
    """Read-only view of a :class:`Board`, given to players. ``copy()`` returns a mutable Board."""

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    rules = property(lambda self: self._board.rules, doc="The rule set.")
    cells = property(lambda self: tuple(self._board._cells), doc="The 16 cells, row-major.")
    in_hand = property(lambda self: self._board._in_hand, doc="Piece to place, or NO_PIECE.")
    player = property(lambda self: self._board._player, doc="Index of the player to act.")
    placed_count = property(lambda self: self._board._placed, doc="Pieces on the board.")
    occupied_mask = property(lambda self: self._board._occupied, doc="Bit s set when square s is taken.")
    available_mask = property(lambda self: self._board._available, doc="Bit p set when piece p is free.")
    winner = property(lambda self: self._board.winner, doc="Winner index or None.")
    history = property(lambda self: self._board.history, doc="Actions so far.")
    choice_due = property(lambda self: self._board.choice_due, doc="True when a choice is due.")
    placement_due = property(lambda self: self._board.placement_due, doc="True when a placement is due.")

    def piece_at(self, square: int) -> int:
        """The piece on ``square``, or ``NO_PIECE``."""
        return self._board._cells[square]

    def available_pieces(self) -> tuple[int, ...]:
        """Pieces neither on the board nor in hand."""
        return MEMBERS[self._board._available]

    def empty_squares(self) -> tuple[int, ...]:
        """Empty squares."""
        return MEMBERS[self._board._occupied ^ ALL_SQUARES_MASK]

    def legal_pieces(self) -> tuple[int, ...]:
        """Pieces that may be chosen now."""
        board = self._board
        if board._in_hand != NO_PIECE or board._winner != NO_PIECE:
            return ()
        return MEMBERS[board._available]

    def legal_squares(self) -> tuple[int, ...]:
        """Squares where the piece in hand may go."""
        board = self._board
        if board._in_hand == NO_PIECE:
            return ()
        return MEMBERS[board._occupied ^ ALL_SQUARES_MASK]

    def legal_actions(self) -> tuple[int, ...]:
        """Legal actions in the single-int encoding."""
        return self._board.legal_actions()

    def is_over(self) -> bool:
        """True when the game has ended."""
        return self._board.is_over()

    def is_winning_placement(self, square: int, piece: int) -> bool:
        """True if ``piece`` on empty ``square`` would win."""
        return self._board.is_winning_placement(square, piece)

    def winning_squares(self, piece: int) -> tuple[int, ...]:
        """Empty squares where ``piece`` wins at once."""
        return self._board.winning_squares(piece)

    def copy(self) -> Board:
        """A mutable copy of the underlying board, free to search on."""
        return self._board.copy()

    def text(self) -> str:
        """Position text."""
        return self._board.text()

    def __str__(self) -> str:
        return str(self._board)

    def __repr__(self) -> str:
        return f"BoardView({self._board.text()!r})"


def iter_positions(board: Board) -> Iterator[Board]:
    """Yield copies of every position along ``board``'s history, from the first to the current one."""
    replay = board.copy()
    actions = []
    while replay._history:
        actions.append(replay.undo())
    yield replay.copy()
    for action in reversed(actions):
        replay.apply(action)
        yield replay.copy()
