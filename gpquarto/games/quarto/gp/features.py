"""The board facts that primitives read, computed once per decision and only when a rule asks for them.

A GP player builds one :class:`Features` per decision (``Features(view)``) and every rule it evaluates at
that decision reads the same object. Each fact is a :class:`cached_fact` (``functools.cached_property``
without its lock): a decision pays only for the facts its rules use, and pays for each once. A search that
evaluates an evolved evaluator at its leaves builds :class:`LeafFeatures` instead, from its own state.

Named lines are the ten lines of the classic rules, indexed ``0..3`` rows (top to bottom), ``4..7``
columns (left to right), ``8`` the diagonal (0, 5, 10, 15) and ``9`` the anti-diagonal (3, 6, 9, 12).
Wherever a fact picks one line, square or piece among several, it takes the lowest index.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from gpquarto.games.quarto.board import Board, BoardView
from gpquarto.games.quarto.lines import ALL_SQUARES_MASK, CLASSIC_LINES, SQUARE_COUNT
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS, NO_PIECE, PIECE_COUNT
from gpquarto.games.quarto.search import tactics
from gpquarto.games.quarto.search.heuristics import ALL_ATTRIBUTES
from gpquarto.games.quarto.search.tactics import SearchLeaf
from gpquarto.games.quarto.tables import CLASSIC_LINE_MASKS as NAMED_LINE_MASKS
from gpquarto.gp.facts import cached_fact

T = TypeVar("T")


#: Index of the first row, first column, the diagonal and the anti-diagonal in the named lines.
FIRST_ROW, FIRST_COLUMN, DIAGONAL_LINE, ANTI_DIAGONAL_LINE = 0, 4, 8, 9
#: The ten named lines (rows, columns, diagonal, anti-diagonal) and their square masks.
NAMED_LINES = CLASSIC_LINES


def _pick_line(counts: tuple[int, ...], first: int, *, most: bool, not_complete: bool = False) -> int:
    """Index (0..3) of the least or most used of four lines starting at ``first``; -1 if none qualifies."""
    best, best_count = -1, 0
    for index in range(4):
        count = counts[first + index]
        if not_complete and count == 4:
            continue
        if best == -1 or (count > best_count if most else count < best_count):
            best, best_count = index, count
    return best


class Features:
    """Facts about one position, for the primitives of one decision.

    ``board`` is the view given to the player; ``in_hand`` the piece to place (``NO_PIECE`` when a piece
    must be chosen). Facts are read from the board lazily, so the board must not change while the object
    is in use: build a new one for each decision.
    """

    #: The values of the rule trees evaluated at the position, by their text: only in the features that a
    #: :class:`PositionFacts` hands out (see there).
    trees: dict[str, object]

    def __init__(self, view: BoardView | Board) -> None:
        self.board = view
        self.rules = view.rules
        self.in_hand: int = view.in_hand
        self.cells: list[int] | tuple[int, ...] = view.raw_cells
        self.occupied: int = view.occupied_mask
        self.available: int = view.available_mask
        self._memo: dict[str, object] = {}

    def memo(self, key: str, compute: Callable[[Features], T]) -> T:
        """``compute(self)``, computed once per decision under ``key``: the way a primitive family (a plugin's
        too) shares a costly fact among its primitives without a property here. Prefix keys with the family.

        Like every fact here, the value must depend on the position only (the cells, the piece in hand and the
        rules), never on how the game came there: :class:`PositionFacts` hands the same object, memo included,
        to every decision taken at the same position."""
        try:
            return self._memo[key]  # type: ignore[return-value]  # the fact's own value
        except KeyError:
            value = self._memo[key] = compute(self)
            return value

    # ------------------------------------------------------------------ legality
    def is_legal_square(self, square: int) -> bool:
        """True when ``square`` is an empty square (a legal placement whenever a placement is due)."""
        return 0 <= square < SQUARE_COUNT and not self.occupied >> square & 1

    def is_legal_piece(self, piece: int) -> bool:
        """True when ``piece`` is neither on the board nor in hand (a legal choice whenever one is due)."""
        return 0 <= piece < PIECE_COUNT and bool(self.available >> piece & 1)

    @cached_fact
    def empty_squares(self) -> tuple[int, ...]:
        """Empty squares, ascending."""
        return MEMBERS[self.occupied ^ ALL_SQUARES_MASK]

    @cached_fact
    def available_pieces(self) -> tuple[int, ...]:
        """Pieces neither on the board nor in hand, ascending."""
        return MEMBERS[self.available]

    @cached_fact
    def placed_count(self) -> int:
        """Pieces on the board."""
        return self.occupied.bit_count()

    # ------------------------------------------------------------------ named lines
    @cached_fact
    def line_counts(self) -> tuple[int, ...]:
        """Pieces on each named line."""
        occupied = self.occupied
        return tuple((occupied & mask).bit_count() for mask in NAMED_LINE_MASKS)

    @cached_fact
    def line_present(self) -> tuple[int, ...]:
        """For each named line, the set of characteristics (8-bit) that some piece on it has."""
        cells = self.cells
        present = []
        for line in NAMED_LINES:
            found = 0
            for square in line:
                piece = cells[square]
                if piece != NO_PIECE:
                    found |= CHARACTERISTICS[piece]
            present.append(found)
        return tuple(present)

    @cached_fact
    def line_shared(self) -> tuple[int, ...]:
        """For each named line, the characteristics every piece on it has (0 when the line is empty)."""
        cells = self.cells
        shared = []
        for line in NAMED_LINES:
            common, seen = 0xFF, False
            for square in line:
                piece = cells[square]
                if piece != NO_PIECE:
                    common &= CHARACTERISTICS[piece]
                    seen = True
            shared.append(common if seen else 0)
        return tuple(shared)

    @cached_fact
    def least_used_row(self) -> int:
        """Row (0..3) with the fewest pieces."""
        return _pick_line(self.line_counts, FIRST_ROW, most=False)

    @cached_fact
    def most_used_row(self) -> int:
        """Row (0..3) with the most pieces."""
        return _pick_line(self.line_counts, FIRST_ROW, most=True)

    @cached_fact
    def most_used_row_not_complete(self) -> int:
        """Row (0..3) with the most pieces among rows with an empty square; -1 when every row is full."""
        return _pick_line(self.line_counts, FIRST_ROW, most=True, not_complete=True)

    @cached_fact
    def least_used_column(self) -> int:
        """Column (0..3) with the fewest pieces."""
        return _pick_line(self.line_counts, FIRST_COLUMN, most=False)

    @cached_fact
    def most_used_column(self) -> int:
        """Column (0..3) with the most pieces."""
        return _pick_line(self.line_counts, FIRST_COLUMN, most=True)

    @cached_fact
    def most_used_column_not_complete(self) -> int:
        """Column (0..3) with the most pieces among columns with an empty square; -1 when all are full."""
        return _pick_line(self.line_counts, FIRST_COLUMN, most=True, not_complete=True)

    # ------------------------------------------------------------------ characteristics
    @cached_fact
    def characteristic_counts(self) -> tuple[int, ...]:
        """For each characteristic 0..7, how many placed pieces have it."""
        counts = [0] * 8
        for piece in self.cells:
            if piece != NO_PIECE:
                for characteristic in MEMBERS[CHARACTERISTICS[piece]]:
                    counts[characteristic] += 1
        return tuple(counts)

    @cached_fact
    def most_used_characteristic(self) -> int:
        """The characteristic most placed pieces have."""
        counts = self.characteristic_counts
        return counts.index(max(counts))

    @cached_fact
    def least_used_characteristic(self) -> int:
        """The characteristic fewest placed pieces have."""
        counts = self.characteristic_counts
        return counts.index(min(counts))

    # ------------------------------------------------------------------ fit (lines of the rules, blocks too)
    @cached_fact
    def open_lines(self) -> tuple[tuple[int, int, int], ...]:
        """Lines of the rules holding at least one piece and one empty square, as ``(square mask, pieces,
        characteristics all their pieces share)``, in the rules' line order."""
        return tactics.open_lines(self.cells, self.occupied, self.rules)

    def fit(self, piece: int, squares: int = ALL_SQUARES_MASK) -> int:
        """Pieces on the fullest open line through one of ``squares`` (a mask) that ``piece`` *fits*, i.e. shares a
        characteristic with every piece on it; 0 when it fits none. A fit of 3 means the piece wins there."""
        own = CHARACTERISTICS[piece]
        best = 0
        for mask, count, shared in self.open_lines:
            if count > best and mask & squares and own & shared:
                best = count
        return best

    @cached_fact
    def hand_fits(self) -> tuple[int, ...]:
        """For each empty square (ascending, as :attr:`empty_squares`), the fit of the piece in hand through
        that square (empty when a piece must be chosen)."""
        if self.in_hand == NO_PIECE:
            return ()
        return tuple(self.fit(self.in_hand, 1 << square) for square in self.empty_squares)

    @cached_fact
    def piece_fits(self) -> tuple[int, ...]:
        """For each available piece (ascending, as :attr:`available_pieces`), its fit over all empty squares."""
        return tuple(self.fit(piece) for piece in self.available_pieces)

    # ------------------------------------------------------------------ tactics (gpquarto.games.quarto.search.tactics)
    @cached_fact
    def winning_squares(self) -> tuple[int, ...]:
        """Squares where the piece in hand wins at once (empty when a choice is due)."""
        if self.in_hand == NO_PIECE:
            return ()
        return tactics.winning_squares(self.board, self.in_hand)

    @cached_fact
    def safe_pieces(self) -> tuple[int, ...]:
        """Available pieces that have no winning square on the current board (safe to give now)."""
        return tactics.safe_pieces(self.board)

    @cached_fact
    def safe_squares(self) -> tuple[int, ...]:
        """Squares where placing the piece in hand wins at once or leaves a safe piece to give (empty when choosing)."""
        if self.in_hand == NO_PIECE:
            return ()
        mask = tactics.safe_placements_mask(self.board, self.in_hand)
        for square in self.winning_squares:
            mask |= 1 << square
        return MEMBERS[mask]

    @cached_fact
    def safe_square_count(self) -> int:
        """How many :attr:`safe_squares` there are."""
        return len(self.safe_squares)

    @cached_fact
    def safe_pair_count(self) -> int:
        """(Square, piece to give) pairs for the piece in hand that hand over no win at once: squares where it does not
        win, and the pieces left that are safe once it is there (0 when a choice is due)."""
        if self.in_hand == NO_PIECE:
            return 0
        board = self.board.copy()
        count = 0
        for square in self.empty_squares:
            if square in self.winning_squares:
                continue
            board.place(square)
            count += tactics.safe_pieces_mask(board).bit_count()
            board.undo()
        return count

    @cached_fact
    def forced_win(self) -> bool:
        """The piece in hand wins at once, or has a square and a safe piece to give after which the opponent is in
        guaranteed loss: every square for that piece leaves it no safe piece to give back (False when choosing, and
        on boards with more than :data:`~gpquarto.games.quarto.search.tactics.FORCED_WIN_HORIZON` empty squares)."""
        if self.in_hand == NO_PIECE or len(self.empty_squares) > tactics.FORCED_WIN_HORIZON:
            return False
        if self.winning_squares:
            return True
        board = self.board.copy()
        for square in MEMBERS[tactics.safe_placements_mask(board, self.in_hand)]:
            board.place(square)
            for piece in tactics.safe_pieces(board):
                board.choose(piece)
                lost = board.available_mask and not tactics.safe_placements_mask(board, piece)
                board.undo()
                if lost:
                    return True
            board.undo()
        return False

    @cached_fact
    def tightest_safe_square(self) -> int:
        """The safe square after which the fewest (but at least one) safe pieces are left to give, lowest on ties;
        ``NO_ACTION`` (-1) when there is none or a choice is due. Winning squares are not considered."""
        best, best_left = -1, PIECE_COUNT + 1
        if self.in_hand == NO_PIECE:
            return best
        board = self.board.copy()
        for square in MEMBERS[tactics.safe_placements_mask(self.board, self.in_hand)]:
            if square in self.winning_squares:
                continue
            board.place(square)
            left = tactics.safe_pieces_mask(board).bit_count()
            board.undo()
            if left < best_left:
                best, best_left = square, left
        return best

    @cached_fact
    def threatened_lines(self) -> int:
        """Lines of the rules (blocks too, under advanced rules) holding three pieces that share a characteristic."""
        return tactics.threat_line_count(self.board)


# ---------------------------------------------------------------------- facts shared between decisions
class PositionFacts:
    """The :class:`Features` of positions met before, handed again to every decision at the same position.

    A generation's genomes play the same games (the same seeds, the same opponents), so many of them meet the same
    positions: the opening, the opponent's deterministic answers to the same moves, the accuracy term's bank. Every
    fact of a :class:`Features` depends on the position only (the cells, the piece in hand and the rules), so the
    facts computed for one decision hold for every other decision there, whoever decides: a rule set that reads its
    features here (:meth:`~gpquarto.games.quarto.gp.rule_set.RuleSet.share_facts`) decides exactly as with a fresh
    :class:`Features`, and pays for each fact of a position once. At most ``limit`` positions are kept; when full
    the store is emptied and fills again (the positions of one generation's games are what repeats).

    The object handed out is bound to the asking decision's view (``board``) until the next decision asks for it;
    like a fresh :class:`Features`, it is valid during that decision only. Its ``trees`` maps the text of each rule
    tree evaluated at the position to its value there (rule sets that share facts look a tree up before evaluating
    it: the genomes of a generation share many rules), so a store serves the rule sets of one library.
    """

    def __init__(self, limit: int = 20_000) -> None:
        if limit < 1:
            raise ValueError(f"a facts store keeps at least one position, got limit={limit}")
        self.limit = limit
        self._store: dict[tuple, Features] = {}
        #: Decisions that found their position's facts, and decisions that started them.
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._store)

    def features(self, view: BoardView | Board) -> Features:
        """The features of ``view``'s position: the ones of an earlier decision there (bound to ``view``), else new."""
        cells = view.raw_cells
        if cells.__class__ is list:  # a Board's own list (a view hands out a tuple)
            cells = tuple(cells)
        key = (cells, view.in_hand, view.rules)
        store = self._store
        features = store.get(key)
        if features is None:
            self.misses += 1
            if len(store) >= self.limit:
                store.clear()
            features = store[key] = Features(view)
            features.cells = cells
            features.trees = {}
        else:
            self.hits += 1
            features.board = view
        return features

    def clear(self) -> None:
        """Forget every position (the counters stay)."""
        self._store.clear()


# ---------------------------------------------------------------------- what a primitive reads of the given piece
#: Marks for what a primitive reads of the piece given at a search leaf (:func:`reads_given_piece`): nothing (its
#: value is the same whichever safe piece was given), whether it has its first child's characteristic, only
#: facts that note what they read of it (:meth:`LeafFeatures.given_piece_fact`), or anything of it (the default
#: of a primitive that reads the features).
GIVEN_NOTHING, GIVEN_CHARACTERISTIC, GIVEN_NOTED, GIVEN_PIECE = "nothing", "characteristic", "noted", "piece"
_GIVEN_MARK = "__gp_given_piece__"


def reads_given_piece(what: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Mark a primitive (put it under ``@primitive``) with what it reads of the piece given at a search leaf.

    At a leaf of the fast search the piece in hand is a *given* piece: safe (it completes no threat line) and no
    longer among the pieces left. ``GIVEN_NOTHING`` promises the same value for every safe piece given at that
    board: the primitive reads the board, or the pieces left only in ways a safe piece cannot change (how many
    are left or safe, which threat lines some piece left completes). ``GIVEN_CHARACTERISTIC``: it reads whether
    the given piece has the characteristic of its first child, and nothing else of it. ``GIVEN_NOTED``: it reads
    the piece only through facts that note what they read (:attr:`Features.safe_square_count`). The search then evaluates
    a tree once for all the pieces that agree on what it read (:meth:`~gpquarto.games.quarto.gp.evaluator.CompiledEvaluator.leaf`),
    so a wrong mark changes the search: tests check every mark against evaluations with each piece.
    """
    if what not in (GIVEN_NOTHING, GIVEN_CHARACTERISTIC, GIVEN_NOTED, GIVEN_PIECE):
        raise ValueError(f"unknown mark {what!r} (use GIVEN_NOTHING, GIVEN_CHARACTERISTIC, GIVEN_NOTED or GIVEN_PIECE)")

    def mark(function: Callable[..., T]) -> Callable[..., T]:
        setattr(function, _GIVEN_MARK, what)
        return function

    return mark


def given_piece_reads(function: Callable[..., object], uses_features: bool) -> str:
    """What a primitive's ``function`` reads of the piece given at a search leaf: its mark; unmarked, nothing
    when it does not read the features, else anything (``GIVEN_PIECE``, the safe default for plugins)."""
    return getattr(function, _GIVEN_MARK, GIVEN_PIECE if uses_features else GIVEN_NOTHING)


def _horizon_forced_wins(leaf: SearchLeaf, pieces: int, given: tuple[int, ...]) -> list[int]:
    return leaf.forced_wins(pieces, given, tactics.FORCED_WIN_HORIZON)


class LeafFeatures(Features):
    """The facts of a leaf of the fast search (:class:`~gpquarto.games.quarto.search.tactics.SearchLeaf`, with the pieces left
    ``available`` and ``in_hand`` to place), equal to ``Features`` of the same position but cheaper: the tactical
    facts come from the threat counters and square plans that the leaf shares among all the pieces given there,
    and a Board is built only if a primitive asks for ``board``. Valid during the evaluation call only.
    """

    def __init__(self, leaf: SearchLeaf, available: int, in_hand: int) -> None:
        self.leaf = leaf
        self.rules = leaf.rules
        self.in_hand = in_hand
        self.cells = leaf.cells
        self.occupied = leaf.occupied
        self.available = available
        self._memo = {}
        #: The attributes (bits) of the piece in hand that the facts read so far depended on (see
        #: :meth:`given_piece_fact`; an evolved evaluation adds what its primitives read).
        self.read = 0

    def given_piece_fact(self, name: str, values_of: Callable[[SearchLeaf, int, tuple[int, ...]], list[int]]) -> int:
        """A fact that depends on the piece in hand, noting in :attr:`read` whether it did here: the leaf computes it
        once for every piece that could be given there (``values_of(leaf, pieces, given)``, see
        :meth:`~gpquarto.games.quarto.search.tactics.SearchLeaf.given_values`), and the fact reads nothing of the piece when they
        all agree (most leaves: a search then evaluates once for all of them)."""
        value, same = self.leaf.given_values(name, self.available | 1 << self.in_hand, self.in_hand, values_of)
        if not same:
            self.read = ALL_ATTRIBUTES
        return value

    @cached_fact
    def safe_square_count(self) -> int:
        """How many :attr:`safe_squares` there are (see :meth:`given_piece_fact`)."""
        return self.given_piece_fact("safe_square_count", SearchLeaf.safe_square_counts)

    @cached_fact
    def safe_pair_count(self) -> int:
        """As :attr:`Features.safe_pair_count` (see :meth:`given_piece_fact`)."""
        return self.given_piece_fact("safe_pair_count", SearchLeaf.safe_pair_counts)

    @cached_fact
    def forced_win(self) -> bool:
        """As :attr:`Features.forced_win` (see :meth:`given_piece_fact`)."""
        return bool(self.given_piece_fact("forced_win", _horizon_forced_wins))

    @cached_fact
    def board(self) -> Board:
        """The position as a Board (built on first use)."""
        return Board.from_cells(self.cells, self.in_hand, self.rules)

    @cached_fact
    def winning_squares(self) -> tuple[int, ...]:
        """Squares where the piece in hand wins at once (empty when a choice is due)."""
        if self.in_hand == NO_PIECE:
            return ()
        return MEMBERS[self.leaf.winning_squares(self.in_hand)]

    @cached_fact
    def safe_pieces(self) -> tuple[int, ...]:
        """Available pieces that have no winning square on the current board (safe to give now)."""
        return MEMBERS[self.available & ~self.leaf.unsafe_pieces()]

    @cached_fact
    def safe_squares(self) -> tuple[int, ...]:
        """Squares where placing the piece in hand wins at once or leaves a safe piece to give (empty when choosing)."""
        if self.in_hand == NO_PIECE:
            return ()
        return MEMBERS[
            self.leaf.safe_placements(self.in_hand, self.available) | self.leaf.winning_squares(self.in_hand)
        ]

    @cached_fact
    def threatened_lines(self) -> int:
        """Lines of the rules (blocks too, under advanced rules) holding three pieces that share a characteristic."""
        return self.leaf.threat_lines()

    @cached_fact
    def open_lines(self) -> tuple[tuple[int, int, int], ...]:
        """As :attr:`Features.open_lines`, shared by every piece given at the leaf."""
        return self.leaf.open_lines()
