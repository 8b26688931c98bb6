"""The Quarto game state: board, piece in hand, whose action, winner; legal actions, apply and undo.

Turn order: player 0 opens by *choosing* a piece for player 1. Then each turn the player *places* the
piece it was given and, if the game is not over, *chooses* a piece for the opponent. The player who
places the fourth piece of a winning line wins; sixteen pieces without a win is a draw.

Example::

    >>> from gpquarto.games.quarto import Board
    >>> board = Board()
    >>> board.choose(5)        # player 0 gives piece 5 to player 1
    >>> board.place(0)         # player 1 puts it on the top-left square
    >>> board.player, board.legal_pieces()[:3]
    (1, (0, 1, 2))
    >>> board.text()
    '5.../..../..../.... -'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from operator import attrgetter

from gpquarto.games.interface import DecisionKind, IllegalActionError, Outcome, Termination
from gpquarto.games.quarto.indices import check_index
from gpquarto.games.quarto.lines import (
    ALL_SQUARES_MASK,
    LINE_MASKS_THROUGH,
    LINE_OF_MASK,
    LINES_THROUGH,
    SQUARE_COUNT,
    Rules,
    check_square,
    parse_square,
    square_name,
)
from gpquarto.games.quarto.notation import format_position, parse_position, render
from gpquarto.games.quarto.pieces import (
    ALL_PIECES_MASK,
    CHARACTERISTICS,
    MEMBERS,
    NO_PIECE,
    check_piece,
    parse_piece,
    piece_code,
)
from gpquarto.games.quarto.symmetry import PieceMap, SquareMap, canonical_key

#: Actions as single ints, for search code that wants one action space: 0..15 choose that piece,
#: 16..31 place the piece in hand on square ``action - 16``.
PLACE_OFFSET = 16


_CHARACTERISTICS = CHARACTERISTICS


def full_line_wins(cells: Sequence[int], mask: int) -> int:
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


def _checked(check: Callable[[object], int], value: object) -> int:
    """``check(value)``, with its ``ValueError`` turned into an :class:`IllegalActionError`."""
    try:
        return check(value)
    except ValueError as error:
        raise IllegalActionError(str(error)) from None


class BoardQueries:
    """The read-only queries shared by :class:`Board` and :class:`BoardView`, written once over the raw state.

    A subclass provides the raw state: ``rules``, ``raw_cells`` (16 ints, a piece or ``NO_PIECE``),
    ``occupied_mask`` (bit ``s`` set when square ``s`` holds a piece), ``available_mask`` (bit ``p`` set when
    piece ``p`` is neither on the board nor in hand), ``in_hand`` (the piece to place, or ``NO_PIECE`` when a
    choice is due), ``player`` (0 or 1, who acts next), ``placed_count`` and ``winner_index`` (the winner, or
    ``NO_PIECE`` while nobody has won).
    """

    __slots__ = ()

    rules: Rules
    raw_cells: list[int] | tuple[int, ...]
    occupied_mask: int
    available_mask: int
    in_hand: int
    player: int
    placed_count: int
    winner_index: int

    @property
    def cells(self) -> tuple[int, ...]:
        """The 16 cells, row-major; each a piece or ``NO_PIECE``."""
        return tuple(self.raw_cells)

    def piece_at(self, square: int) -> int:
        """The piece on ``square``, or ``NO_PIECE``."""
        return self.raw_cells[square]

    @property
    def choice_due(self) -> bool:
        """True when the next action is choosing a piece (and the game is not over)."""
        return self.in_hand == NO_PIECE and self.winner_index == NO_PIECE and self.placed_count < SQUARE_COUNT

    @property
    def placement_due(self) -> bool:
        """True when the next action is placing the piece in hand."""
        return self.in_hand != NO_PIECE

    def available_pieces(self) -> tuple[int, ...]:
        """Pieces neither on the board nor in hand, ascending."""
        return MEMBERS[self.available_mask]

    def empty_squares(self) -> tuple[int, ...]:
        """Empty squares, ascending."""
        return MEMBERS[self.occupied_mask ^ ALL_SQUARES_MASK]

    def legal_pieces(self) -> tuple[int, ...]:
        """Pieces that may be chosen now (empty unless a choice is due)."""
        if self.in_hand != NO_PIECE or self.winner_index != NO_PIECE:
            return ()
        return MEMBERS[self.available_mask]

    def legal_squares(self) -> tuple[int, ...]:
        """Squares where the piece in hand may be placed (empty unless a placement is due)."""
        if self.in_hand == NO_PIECE:
            return ()
        return MEMBERS[self.occupied_mask ^ ALL_SQUARES_MASK]

    def legal_actions(self) -> tuple[int, ...]:
        """Legal actions in the single-int encoding (0..15 choose, 16..31 place)."""
        if self.in_hand != NO_PIECE:
            return tuple(PLACE_OFFSET + s for s in MEMBERS[self.occupied_mask ^ ALL_SQUARES_MASK])
        return self.legal_pieces()

    @property
    def winner(self) -> int | None:
        """Index of the player who made a winning line, or None."""
        return None if self.winner_index == NO_PIECE else self.winner_index

    def is_over(self) -> bool:
        """True when somebody has won or all sixteen pieces are placed."""
        return self.winner_index != NO_PIECE or self.placed_count == SQUARE_COUNT

    def is_draw(self) -> bool:
        """True when the board is full and nobody has won."""
        return self.winner_index == NO_PIECE and self.placed_count == SQUARE_COUNT

    def winning_lines(self) -> list[tuple[int, ...]]:
        """Every full line whose four pieces share a characteristic."""
        cells = self.raw_cells
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
        cells = self.raw_cells
        occupied = self.occupied_mask | (1 << square)
        own = CHARACTERISTICS[piece]
        for mask, (a, b, c) in LINES_THROUGH[self.rules][square]:
            if (
                occupied & mask == mask
                and own & CHARACTERISTICS[cells[a]] & CHARACTERISTICS[cells[b]] & CHARACTERISTICS[cells[c]]
            ):
                return True
        return False

    def winning_squares(self, piece: int) -> tuple[int, ...]:
        """Empty squares where ``piece`` would win at once."""
        return tuple(s for s in MEMBERS[self.occupied_mask ^ ALL_SQUARES_MASK] if self.is_winning_placement(s, piece))

    def text(self) -> str:
        """The position in the text format, e.g. ``"5.../..../..../.... -"``."""
        return format_position(self.raw_cells, self.in_hand, self.rules)

    # ------------------------------------------------------------------ the game interface
    #: The registered name of the game (:mod:`gpquarto.games.interface`).
    game_name = "quarto"

    def decision_kind(self) -> DecisionKind:
        """``CHOOSE`` when a piece must be given, ``PLACE`` when the piece in hand must be placed."""
        return DecisionKind.CHOOSE if self.in_hand == NO_PIECE else DecisionKind.PLACE

    def outcome(self) -> Outcome | None:
        """How the game ended (a win, or a draw on the full board), or None while it goes on."""
        if self.winner_index != NO_PIECE:
            return Outcome(Termination.WIN, self.winner_index)
        if self.placed_count == SQUARE_COUNT:
            return Outcome(Termination.DRAW)
        return None

    def action_name(self, action: int) -> str:
        """``"choose 5 (SDHQ)"`` or ``"place a1"``: see :func:`action_name`."""
        return action_name(action)

    def parse_action(self, text: str) -> int:
        """The action that ``text`` names: an action name (``"place a1"``, ``"choose 5"``), a bare square or
        piece for the decision due (``"a1"``, ``"5"``), or the action's int with a ``#`` (``"#16"``)."""
        return parse_action(text, self.decision_kind())

    def canonical_key(self) -> int:
        """The same int for every symmetric image of the position (see :mod:`~gpquarto.games.quarto.symmetry`)."""
        return canonical_key(self)

    def settings(self) -> dict[str, object]:
        """``{"rules": "classic"}`` or ``{"rules": "advanced"}`` (the position text carries them too)."""
        return {"rules": self.rules.value}

    def __str__(self) -> str:
        if self.is_over():
            winner = self.winner
            status = "draw" if winner is None else f"player {winner} won"
        elif self.in_hand != NO_PIECE:
            status = f"player {self.player} places {self.in_hand:X}:{piece_code(self.in_hand)}"
        else:
            status = f"player {self.player} chooses a piece"
        return render(self.raw_cells, status)


class Board(BoardQueries):
    """A Quarto position with its history. Mutable: :meth:`choose`, :meth:`place`, :meth:`undo`.

    The raw state is public for search code (see :class:`BoardQueries`): ``raw_cells`` (a list: never
    assign to it), ``occupied_mask``, ``available_mask``, ``in_hand``, ``player``, ``placed_count`` and
    ``winner_index`` are plain attributes, read at C speed. Change the position only through the actions;
    players get a :class:`BoardView`, which cannot change it at all.
    """

    __slots__ = (
        "rules",
        "raw_cells",
        "occupied_mask",
        "available_mask",
        "in_hand",
        "player",
        "winner_index",
        "placed_count",
        "_history",
        "_line_masks",
    )

    raw_cells: list[int]

    def __init__(self, rules: Rules | str = Rules.CLASSIC) -> None:
        self.rules = rules if rules.__class__ is Rules else Rules(rules)
        self._line_masks = LINE_MASKS_THROUGH[self.rules]
        self.raw_cells = [NO_PIECE] * SQUARE_COUNT
        self.occupied_mask = 0
        self.available_mask = ALL_PIECES_MASK
        self.in_hand = NO_PIECE
        self.player = 0
        self.winner_index = NO_PIECE
        self.placed_count = 0
        self._history: list[int] = []

    @property
    def history(self) -> tuple[int, ...]:
        """Actions played since the start (or since the position was set up), single-int encoding."""
        return tuple(self._history)

    def forget_history(self) -> None:
        """Make the current position the start of the history: :meth:`undo` goes back no further."""
        self._history = []

    # ------------------------------------------------------------------ actions
    def choose(self, piece: int) -> None:
        """Give ``piece`` to the opponent. Raises :class:`IllegalActionError` if not allowed."""
        if self.in_hand != NO_PIECE or self.winner_index != NO_PIECE or self.placed_count == SQUARE_COUNT:
            raise IllegalActionError(self._why_not("choice"))
        self.push_choice(piece)

    def place(self, square: int) -> None:
        """Put the piece in hand on ``square``. Raises :class:`IllegalActionError` if not allowed."""
        if self.in_hand == NO_PIECE:
            raise IllegalActionError(self._why_not("placement"))
        self.push_placement(square)

    def push_choice(self, piece: int) -> None:
        """:meth:`choose` for callers that know a choice is due (the game loop, search): only ``piece`` is checked."""
        if type(piece) is not int or not 0 <= piece < 16:
            piece = _checked(check_piece, piece)
        available = self.available_mask
        bit = 1 << piece
        if not available & bit:
            raise IllegalActionError(f"piece {piece:X} is already used")
        self.available_mask = available ^ bit
        self.in_hand = piece
        self.player ^= 1
        self._history.append(piece)

    def push_placement(self, square: int) -> None:
        """:meth:`place` for callers that know a placement is due: only ``square`` is checked."""
        if type(square) is not int or not 0 <= square < 16:
            square = _checked(check_square, square)
        occupied = self.occupied_mask
        bit = 1 << square
        if occupied & bit:
            raise IllegalActionError(f"square {square} is occupied")
        cells = self.raw_cells
        cells[square] = self.in_hand
        occupied |= bit
        self.occupied_mask = occupied
        self.in_hand = NO_PIECE
        self.placed_count += 1
        self._history.append(PLACE_OFFSET + square)
        empty = occupied ^ ALL_SQUARES_MASK
        for mask in self._line_masks[square]:
            if not empty & mask and full_line_wins(cells, mask):
                self.winner_index = self.player
                return

    def _why_not(self, kind: str) -> str:
        """Why an action of ``kind`` ("choice" or "placement") is not allowed now."""
        if self.is_over():
            return "the game is over"
        if kind == "choice":
            return f"a placement is due (piece {self.in_hand:X} is in hand), not a choice"
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
            self.in_hand = self.raw_cells[square]
            self.raw_cells[square] = NO_PIECE
            self.occupied_mask ^= 1 << square
            self.placed_count -= 1
            self.winner_index = NO_PIECE
        else:
            self.available_mask |= 1 << action
            self.in_hand = NO_PIECE
            self.player ^= 1
        return action

    # ------------------------------------------------------------------ copies, text, views
    def copy(self) -> Board:
        """An independent copy (with its history)."""
        other = Board.__new__(Board)
        other.rules = self.rules
        other._line_masks = self._line_masks
        other.raw_cells = self.raw_cells[:]
        other.occupied_mask = self.occupied_mask
        other.available_mask = self.available_mask
        other.in_hand = self.in_hand
        other.player = self.player
        other.winner_index = self.winner_index
        other.placed_count = self.placed_count
        other._history = self._history[:]
        return other

    def view(self) -> BoardView:
        """A read-only view of this board that follows it as it changes."""
        return BoardView(self)

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Parse a position in the text format; raises ``ValueError`` saying what is wrong and where."""
        return position_from_cells(*parse_position(text))

    @classmethod
    def from_cells(
        cls, cells: list[int] | tuple[int, ...], in_hand: int = NO_PIECE, rules: Rules | str = Rules.CLASSIC
    ) -> Board:
        """Set up a position from 16 cells and the piece in hand; validates it like :meth:`from_text`."""
        return position_from_cells(cells, in_hand, Rules(rules))

    def __repr__(self) -> str:
        return f"Board.from_text({self.text()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self.rules is other.rules
            and self.raw_cells == other.raw_cells
            and self.in_hand == other.in_hand
            and self.player == other.player
        )

    def __hash__(self) -> int:
        return hash((self.rules, tuple(self.raw_cells), self.in_hand, self.player))


def position_from_cells(cells: Sequence[int], in_hand: int, rules: Rules) -> Board:
    """Build and validate a position from 16 cells (piece or -1) and the piece in hand; ``cells`` is copied."""
    if len(cells) != SQUARE_COUNT:
        raise ValueError(f"a board has 16 cells, got {len(cells)}")
    cells = list(cells)  # normalised below: ints, -1 for empty
    used = 0
    for square, piece in enumerate(cells):
        if piece == NO_PIECE:
            cells[square] = NO_PIECE
            continue
        try:
            piece = cells[square] = check_piece(piece)
        except ValueError:
            raise ValueError(f"cell {square_name(square)} holds {piece!r}, not a piece 0..15") from None
        if used & (1 << piece):
            raise ValueError(f"piece {piece:X} appears twice on the board (again at {square_name(square)})")
        used |= 1 << piece
    if in_hand == NO_PIECE:
        in_hand = NO_PIECE  # normalised, like empty cells: -1.0 is -1
    else:
        try:
            in_hand = check_piece(in_hand)
        except ValueError:
            raise ValueError(f"piece in hand must be 0..15 or -1, got {in_hand!r}") from None
        if used & (1 << in_hand):
            raise ValueError(f"piece in hand {in_hand:X} is already on the board")
    board = Board(rules)
    placed = sum(1 for piece in cells if piece != NO_PIECE)
    if placed == SQUARE_COUNT and in_hand != NO_PIECE:
        raise ValueError("the board is full, so no piece can be in hand")
    board.raw_cells = list(cells)
    board.occupied_mask = sum(1 << s for s, piece in enumerate(cells) if piece != NO_PIECE)
    board.available_mask = ALL_PIECES_MASK ^ used ^ (0 if in_hand == NO_PIECE else 1 << in_hand)
    board.in_hand = in_hand
    board.placed_count = placed
    # The placer of the k-th piece (k = 0, 1, ...) is player (k + 1) % 2, and chooses right after.
    board.player = placed % 2 if in_hand == NO_PIECE else (placed + 1) % 2
    wins = board.winning_lines()
    if wins:
        if in_hand != NO_PIECE:
            raise ValueError("the position has a winning line, so the game is over and no piece can be in hand")
        common = set(wins[0]).intersection(*wins[1:])
        if not common:
            raise ValueError("the position has winning lines that no single last placement could have made")
        board.winner_index = placed % 2
    return board


def _follow(name: str, doc: str) -> property:
    """A read-only property of :class:`BoardView` that reads the board's attribute ``name`` (a C-level
    getter: players read the view at every decision)."""
    return property(attrgetter(f"_board.{name}"), doc=doc)


#: The query methods of :class:`BoardQueries`; a view hands out the board's own (bound, through a C-level
#: getter), so a player's calls cost about what the board's do: they sit on the hot path of every game.
_QUERY_METHODS = tuple(
    name for name, value in vars(BoardQueries).items() if callable(value) and not name.startswith("__")
)
#: The two a player calls at every decision: bound when the view is made, they cost exactly the board's.
_BOUND_AT_ONCE = ("legal_pieces", "legal_squares")


class BoardView(BoardQueries):
    """Read-only view of a :class:`Board`, given to players: every query of the board, no action.

    ``raw_cells`` is a tuple here (a copy), so a player cannot change the board through it;
    :meth:`copy` returns a mutable Board to search on.
    """

    __slots__ = ("_board", *_BOUND_AT_ONCE)

    def __init__(self, board: Board) -> None:
        self._board = board
        for name in _BOUND_AT_ONCE:
            setattr(self, name, getattr(board, name))

    rules = _follow("rules", "The rule set.")
    raw_cells = _follow("cells", "The 16 cells (a tuple: a copy).")
    occupied_mask = _follow("occupied_mask", "Bit s set when square s holds a piece.")
    available_mask = _follow("available_mask", "Bit p set when piece p is neither on the board nor in hand.")
    in_hand = _follow("in_hand", "The piece to place, or NO_PIECE.")
    player = _follow("player", "Index of the player to act.")
    placed_count = _follow("placed_count", "Pieces on the board.")
    winner_index = _follow("winner_index", "The winner, or NO_PIECE while nobody has won.")
    history = _follow("history", "Actions so far.")

    def copy(self) -> Board:
        """A mutable copy of the underlying board, free to search on."""
        return self._board.copy()

    def __repr__(self) -> str:
        return f"BoardView({self.text()!r})"


# The other query methods: the board's own, handed out through C-level getters.
for _name in _QUERY_METHODS:
    if _name not in _BOUND_AT_ONCE:
        setattr(BoardView, _name, _follow(_name, getattr(BoardQueries, _name).__doc__))


def iter_positions(board: Board) -> Iterator[Board]:
    """Yield copies of every position along ``board``'s history, from the first to the current one."""
    replay = board.copy()
    actions = []
    while replay.history:
        actions.append(replay.undo())
    yield replay.copy()
    for action in reversed(actions):
        replay.apply(action)
        yield replay.copy()


def transform(board: Board, square_map: SquareMap, piece_map: PieceMap) -> Board:
    """The position ``board`` seen through a square map and a piece map (history is not kept)."""
    cells = board.raw_cells
    new_cells = [NO_PIECE if cells[square_map[s]] == NO_PIECE else piece_map[cells[square_map[s]]] for s in range(16)]
    hand = board.in_hand
    return position_from_cells(new_cells, NO_PIECE if hand == NO_PIECE else piece_map[hand], board.rules)


#: The longest action text read ("choose 5 (SDHQ)" is 15 characters).
MAX_ACTION_TEXT = 100


def action_name(action: int) -> str:
    """Human form of an action in the single-int encoding: ``"choose 5 (SDHQ)"``, ``"place a1"``."""
    if PLACE_OFFSET <= action < 2 * PLACE_OFFSET:
        return f"place {square_name(action - PLACE_OFFSET)}"
    if 0 <= action < PLACE_OFFSET:
        return f"choose {action:X} ({piece_code(action)})"
    return f"invalid action {action}"


def parse_action(text: str, due: DecisionKind) -> int:
    """Inverse of :func:`action_name`; a bare square or piece is read as the ``due`` decision."""
    if len(text) > MAX_ACTION_TEXT:
        raise ValueError(f"a Quarto action is at most {MAX_ACTION_TEXT} characters, got {len(text):,}")
    words = text.strip().split()
    if len(words) == 1 and words[0].startswith("#"):
        index = check_index(words[0][1:], "an action", 2 * PLACE_OFFSET)
        return index
    if words and words[0].lower() in ("choose", "place"):
        due = DecisionKind(words[0].lower())
        words = words[1:2]
    if len(words) != 1:
        raise ValueError(f"cannot read a Quarto action from {text!r} (e.g. 'choose 5', 'place a1')")
    if due is DecisionKind.CHOOSE:
        return parse_piece(words[0])
    return PLACE_OFFSET + parse_square(words[0])
