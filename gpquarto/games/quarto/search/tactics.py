"""Shared tactics: which pieces win where, which pieces are safe to give, which placements keep one safe.

Everything here reads a :class:`~gpquarto.games.quarto.board.Board` (or the :class:`BoardView` a player gets)
through its raw state (``raw_cells``, ``occupied_mask``, ``available_mask``) and works with bit sets, so that search code and GP primitives can call it at every
node:

* a *threat line* is a line holding three pieces that share at least one characteristic; the AND of their
  characteristic sets (:data:`~gpquarto.games.quarto.pieces.CHARACTERISTICS`) is the set of characteristics a
  fourth piece needs to complete it, so a piece completes it iff its own set intersects that AND;
* the *threat characteristics* of a board are the union of those sets over all threat lines: a piece wins
  somewhere at once iff its characteristic set meets the union;
* a piece is *safe to give* when it completes no threat line (the opponent cannot win with it at once);
  it is *deadly* otherwise.

Example: pieces 0, 1 and 2 (all short and light) on the top row leave only the tall dark pieces safe::

    >>> from gpquarto.games.quarto import Board
    >>> board = Board.from_text("012./..../..../.... -")
    >>> safe_pieces(board), winning_squares(board, 5), threat_line_count(board)
    ((12, 13, 14, 15), (3,), 1)
"""

from __future__ import annotations

from collections.abc import Callable

from gpquarto.games.quarto.board import Board, BoardView
from gpquarto.games.quarto.lines import ALL_SQUARES_MASK, Rules
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS, NO_PIECE
from gpquarto.games.quarto.tables import (
    CELL_CHARACTERISTICS,
    COUNTER_CARRY,
    COUNTER_HIGH,
    COUNTER_OF,
    LINE_TABLE,
    OTHERS_THROUGH,
    PIECES_MEETING,
    UNSAFE_OF_COUNTERS,
)

__all__ = [
    "CELL_CHARACTERISTICS",
    "PlacementPlan",
    "LINE_TABLE",
    "PIECES_MEETING",
    "SearchLeaf",
    "SquarePlan",
    "cells_key",
    "deadly_pieces_mask",
    "is_safe_piece",
    "open_lines",
    "placement_plans",
    "planned_safe_pieces",
    "planned_safe_placements",
    "safe_pieces",
    "safe_pieces_mask",
    "safe_placements",
    "safe_placements_mask",
    "square_plans",
    "square_threats",
    "threat_characteristics",
    "threat_counters",
    "threat_line_count",
    "threat_lines",
    "winning_squares",
]

_RULES_TAG = {Rules.CLASSIC: 0, Rules.ADVANCED: 1 << 85}


def cells_key(cells: list[int] | tuple[int, ...], rules: Rules) -> int:
    """Injective int key of a board's cells and rules: 5 bits per square (piece + 1, 0 when empty).

    Search code extends it incrementally: placing ``piece`` on ``square`` adds ``(piece + 1) << 5 * square``;
    bits 80 to 84 are free for the piece in hand.
    """
    key = _RULES_TAG[rules]
    for square, piece in enumerate(cells):
        if piece != NO_PIECE:
            key += (piece + 1) << (5 * square)
    return key


def threat_counters(chars: list[int], occupied: int, rules: Rules) -> int:
    """Threat counters (:mod:`gpquarto.games.quarto.tables`) of a board given by its cells' characteristic sets
    (0xFF for an empty cell)."""
    counters = 0
    for mask, a, b, c, d in LINE_TABLE[rules]:
        if (occupied & mask).bit_count() == 3:
            counters += COUNTER_OF[chars[a] & chars[b] & chars[c] & chars[d]]
    return counters


def threat_characteristics(board: Board | BoardView) -> int:
    """Union of the characteristic sets shared by the three pieces of every threat line (8-bit set)."""
    cells = board.raw_cells
    occupied = board.occupied_mask
    chars = CELL_CHARACTERISTICS
    union = 0
    for mask, a, b, c, d in LINE_TABLE[board.rules]:
        if (occupied & mask).bit_count() == 3:
            union |= chars[cells[a]] & chars[cells[b]] & chars[cells[c]] & chars[cells[d]]
    return union


def square_threats(board: Board | BoardView) -> list[int]:
    """For each square, the characteristics a piece placed there needs to complete a line (0 if none).

    Non-zero only on empty squares that are the missing square of a threat line.
    """
    cells = board.raw_cells
    occupied = board.occupied_mask
    chars = CELL_CHARACTERISTICS
    needs = [0] * 16
    for mask, a, b, c, d in LINE_TABLE[board.rules]:
        if (occupied & mask).bit_count() == 3:
            shared = chars[cells[a]] & chars[cells[b]] & chars[cells[c]] & chars[cells[d]]
            if shared:
                needs[(mask & ~occupied).bit_length() - 1] |= shared
    return needs


def winning_squares(board: Board | BoardView, piece: int) -> tuple[int, ...]:
    """Empty squares where ``piece`` completes a line at once, ascending."""
    own = CHARACTERISTICS[piece]
    return tuple(square for square, needs in enumerate(square_threats(board)) if needs & own)


def deadly_pieces_mask(board: Board | BoardView) -> int:
    """16-bit mask of the available pieces (not on the board, not in hand) that win somewhere at once."""
    return PIECES_MEETING[threat_characteristics(board)] & board.available_mask


def safe_pieces_mask(board: Board | BoardView) -> int:
    """16-bit mask of the available pieces that the opponent could not win with at once."""
    return ~PIECES_MEETING[threat_characteristics(board)] & board.available_mask


def safe_pieces(board: Board | BoardView) -> tuple[int, ...]:
    """The available pieces that are safe to give, ascending."""
    return MEMBERS[safe_pieces_mask(board)]


def is_safe_piece(board: Board | BoardView, piece: int) -> bool:
    """True when no empty square lets the opponent win at once with ``piece``."""
    return not CHARACTERISTICS[piece] & threat_characteristics(board)


def safe_placements_mask(board: Board | BoardView, piece: int) -> int:
    """Mask of the empty squares after which, with ``piece`` placed there, at least one safe piece remains.

    Available pieces are the ones neither on the board nor in hand (so ``piece`` itself never counts).
    """
    cells = board.raw_cells
    occupied = board.occupied_mask
    available = board.available_mask & ~(1 << piece)
    chars = CELL_CHARACTERISTICS
    own = CHARACTERISTICS[piece]
    lines = LINE_TABLE[board.rules]
    # Split the lines: the ones that stay as they are wherever the piece goes contribute ``fixed`` unless
    # they pass through the chosen square; lines through the square change.
    shared_of = []
    for mask, a, b, c, d in lines:
        count = (occupied & mask).bit_count()
        shared = chars[cells[a]] & chars[cells[b]] & chars[cells[c]] & chars[cells[d]]
        shared_of.append((mask, count, shared))
    result = 0
    empty = occupied ^ ALL_SQUARES_MASK
    for square in MEMBERS[empty]:
        bit = 1 << square
        union = 0
        for mask, count, shared in shared_of:
            if mask & bit:
                if count == 2:
                    union |= shared & own
            elif count == 3:
                union |= shared
        if available & ~PIECES_MEETING[union]:
            result |= bit
    return result


#: A placement plan: (a square's bit, the characteristics shared by the threat lines that stay on the board once a
#: piece is there, the characteristics shared by the two pieces of each line through it that holds two).
PlacementPlan = tuple[int, int, int]


def placement_plans(board: Board | BoardView) -> list[PlacementPlan]:
    """For each empty square of ``board``, ascending: what the threat lines become once a piece is placed there,
    whatever the piece (:data:`PlacementPlan`). A piece with characteristics ``own`` placed on it completes the lines
    ``fixed | (pairs & own)`` need: :func:`planned_safe_placements` and :func:`planned_safe_pieces` read the plans
    for any piece, where :func:`safe_placements_mask` and :func:`safe_pieces_mask` walk the lines again."""
    cells = board.raw_cells
    occupied = board.occupied_mask
    chars = CELL_CHARACTERISTICS
    lines = []
    for mask, a, b, c, d in LINE_TABLE[board.rules]:
        count = (occupied & mask).bit_count()
        if count == 2 or count == 3:
            lines.append((mask, count, chars[cells[a]] & chars[cells[b]] & chars[cells[c]] & chars[cells[d]]))
    plans = []
    for square in MEMBERS[occupied ^ ALL_SQUARES_MASK]:
        bit = 1 << square
        fixed = pairs = 0
        for mask, count, shared in lines:
            if mask & bit:
                if count == 2:
                    pairs |= shared
            elif count == 3:
                fixed |= shared
        plans.append((bit, fixed, pairs))
    return plans


def planned_safe_pieces(plan: PlacementPlan, available: int, piece: int) -> int:
    """:func:`safe_pieces_mask` of the board once ``piece`` is on the plan's square, ``available`` being the pieces
    left to give then (``piece`` not among them)."""
    _, fixed, pairs = plan
    return available & ~PIECES_MEETING[fixed | pairs & CHARACTERISTICS[piece]]


def planned_safe_placements(plans: list[PlacementPlan], available: int, piece: int) -> int:
    """:func:`safe_placements_mask` of ``piece`` on the board of ``plans`` (``available``: the pieces neither on the
    board nor ``piece``)."""
    own = CHARACTERISTICS[piece]
    rest = available & ~(1 << piece)
    meeting = PIECES_MEETING
    result = 0
    for bit, fixed, pairs in plans:
        if rest & ~meeting[fixed | pairs & own]:
            result |= bit
    return result


def safe_placements(board: Board | BoardView, piece: int) -> tuple[int, ...]:
    """Empty squares after which, with ``piece`` placed there, at least one safe piece remains; ascending."""
    return MEMBERS[safe_placements_mask(board, piece)]


def threat_line_count(board: Board | BoardView) -> int:
    """Number of threat lines: lines holding three pieces that share a characteristic (the "quarticity")."""
    cells = board.raw_cells
    occupied = board.occupied_mask
    chars = CELL_CHARACTERISTICS
    count = 0
    for mask, a, b, c, d in LINE_TABLE[board.rules]:
        if (occupied & mask).bit_count() == 3 and chars[cells[a]] & chars[cells[b]] & chars[cells[c]] & chars[cells[d]]:
            count += 1
    return count


def threat_lines(board: Board | BoardView) -> list[tuple[int, int]]:
    """Every threat line as ``(missing square, shared characteristic set)``, in the rule set's line order."""
    cells = board.raw_cells
    occupied = board.occupied_mask
    chars = CELL_CHARACTERISTICS
    found = []
    for mask, a, b, c, d in LINE_TABLE[board.rules]:
        if (occupied & mask).bit_count() == 3:
            shared = chars[cells[a]] & chars[cells[b]] & chars[cells[c]] & chars[cells[d]]
            if shared:
                found.append(((mask & ~occupied).bit_length() - 1, shared))
    return found


def open_lines(cells: list[int] | tuple[int, ...], occupied: int, rules: Rules) -> tuple[tuple[int, int, int], ...]:
    """Lines of ``rules`` holding at least one piece and one empty square, as ``(square mask, pieces,
    characteristics all their pieces share)``, in the rules' line order."""
    chars = CELL_CHARACTERISTICS
    lines = []
    for mask, a, b, c, d in LINE_TABLE[rules]:
        count = (occupied & mask).bit_count()
        if 0 < count < 4:
            lines.append((mask, count, chars[cells[a]] & chars[cells[b]] & chars[cells[c]] & chars[cells[d]]))
    return tuple(lines)


# ---------------------------------------------------------------------- square plans and search leaves
#: ``THREATS_OF_COUNTERS[(counters + COUNTER_CARRY) & COUNTER_HIGH]``: the characteristics some threat line needs.
THREATS_OF_COUNTERS: dict[int, int] = {
    (COUNTER_OF[threats] + COUNTER_CARRY) & COUNTER_HIGH: threats for threats in range(256)
}

#: A square plan: (square, threat counters once the lines it fills drop, shared sets of the threat lines it
#: fills, common sets of the lines it brings to three pieces, to AND with the placed piece's set).
SquarePlan = tuple[int, int, tuple[int, ...], tuple[int, ...]]


def square_plans(chars: list[int], occupied: int, counters: int, others) -> list[SquarePlan]:
    """For each empty square, what filling it does whatever the piece (see :data:`SquarePlan`).

    ``chars`` holds each cell's characteristic set, 0xFF when empty; ``others`` is
    ``OTHERS_THROUGH[rules]``. Every threat line of the board appears in exactly one plan (its empty square's).
    """
    plans = []
    for square in MEMBERS[occupied ^ ALL_SQUARES_MASK]:
        base = counters
        dropped: tuple[int, ...] = ()
        pairs: tuple[int, ...] = ()
        for mask, a, b, c in others[square]:
            seen = occupied & mask
            if seen == mask:
                shared = chars[a] & chars[b] & chars[c]
                if shared:
                    base -= COUNTER_OF[shared]
                    dropped += (shared,)
            elif seen & (seen - 1):
                common = chars[a] & chars[b] & chars[c]
                if common:
                    pairs += (common,)
        plans.append((square, base, dropped, pairs))
    return plans


#: The most empty squares on which the evaluation fact ``forced_win`` looks (0 on emptier boards). A look costs
#: walks of the board after each placement of the piece in hand; on a depth-2 search's leaves of the opening and
#: middle game it cost many times ``safe_square_count`` and rarely found a win (docs/lab/forced-win.md).
FORCED_WIN_HORIZON = 6


def _keeps_a_safe_piece(plans: list[SquarePlan], own: int, rest: int) -> bool:
    """True when some square of ``plans`` for a piece with set ``own`` leaves a piece of ``rest`` safe to give."""
    unsafe, carry, high, counter_of = UNSAFE_OF_COUNTERS, COUNTER_CARRY, COUNTER_HIGH, COUNTER_OF
    for _square, after, _dropped, pairs in plans:
        for common in pairs:
            after += counter_of[common & own]
        if rest & ~unsafe[(after + carry) & high]:
            return True
    return False


#: Boards with at most this many pieces try the early-game shortcut of :meth:`SearchLeaf.safe_square_counts`: it
#: holds on every board of 1 or 2 pieces and on fewer the more pieces there are; from 5 pieces on, trying it costs
#: a depth-2 search more than it saves (``bench players``).
_FEW_PIECES = 4


class SearchLeaf:
    """A board inside the fast search (:mod:`gpquarto.games.quarto.search.negamax`), before the piece to place is named.

    An evolved evaluation reads its leaves through this object instead of a :class:`Board`: ``cells`` (piece
    or ``NO_PIECE``) and ``chars`` (characteristic sets, 0xFF when empty) are the search's own lists, changed
    as soon as the evaluation returns, so read them during the call only; ``counters`` are the board's threat
    counters. Every piece given at a leaf sees the same board, so the tactical facts that depend on the board
    alone are computed here once for all of them: :meth:`square_threats`, :meth:`unsafe_pieces`, :meth:`threat_lines`.
    The answers equal the ones :func:`safe_pieces_mask`, :func:`winning_squares`, :func:`safe_placements_mask`
    and :func:`threat_line_count` give for the same board (tests check them).
    """

    __slots__ = (
        "rules",
        "cells",
        "chars",
        "occupied",
        "counters",
        "_squares",
        "_plans",
        "_winners",
        "_open_lines",
        "_given",
    )

    def __init__(self, rules: Rules, cells: list[int], chars: list[int], occupied: int, counters: int) -> None:
        self.rules = rules
        self.cells = cells
        self.chars = chars
        self.occupied = occupied
        self.counters = counters
        self._squares: list[tuple[int, int, int, int]] | None = None
        self._plans: list[SquarePlan] | None = None
        self._winners = -1
        self._open_lines: tuple[tuple[int, int, int], ...] | None = None
        self._given: dict[str, tuple[int, dict[int, int], bool]] = {}

    @classmethod
    def from_board(cls, board: Board | BoardView) -> SearchLeaf:
        """``board`` (its piece in hand, if any, not placed) as the fast search holds a leaf."""
        chars = [CELL_CHARACTERISTICS[piece] for piece in board.raw_cells]
        counters = threat_counters(chars, board.occupied_mask, board.rules)
        return cls(board.rules, list(board.raw_cells), chars, board.occupied_mask, counters)

    def unsafe_pieces(self) -> int:
        """16-bit mask of every piece that would win somewhere at once (on the board or not: AND it)."""
        return UNSAFE_OF_COUNTERS[(self.counters + COUNTER_CARRY) & COUNTER_HIGH]

    def threat_lines(self) -> int:
        """Number of threat lines: open lines of three pieces sharing a characteristic."""
        return sum(1 for _mask, count, shared in self.open_lines() if count == 3 and shared)

    def square_threats(self) -> list[tuple[int, int, int, int]]:
        """For each empty square: (its bit, the characteristics of the threat lines it fills, the threat
        characteristics left after any piece is placed there, the characteristics shared by the lines it brings
        to three pieces). A piece with set ``own`` placed there leaves exactly the threat characteristics
        ``left | (pairs & own)``: safety depends only on which characteristics some threat line needs."""
        if self._squares is None:
            # square_plans' walk over the lines through each square, folding the sets as it goes instead of listing
            # them per line (a leaf needs the unions only): a large share of a depth-2 search's time.
            chars, occupied, counter_of = self.chars, self.occupied, COUNTER_OF
            others = OTHERS_THROUGH[self.rules]
            squares = self._squares = []
            for square in MEMBERS[occupied ^ ALL_SQUARES_MASK]:
                after, filled, pairs = self.counters, 0, 0
                for mask, a, b, c in others[square]:
                    seen = occupied & mask
                    if seen == mask:
                        shared = chars[a] & chars[b] & chars[c]
                        if shared:
                            after -= counter_of[shared]
                            filled |= shared
                    elif seen & (seen - 1):
                        pairs |= chars[a] & chars[b] & chars[c]
                squares.append(
                    (1 << square, filled, THREATS_OF_COUNTERS[(after + COUNTER_CARRY) & COUNTER_HIGH], pairs)
                )
        return self._squares

    def open_lines(self) -> tuple[tuple[int, int, int], ...]:
        """Lines holding at least one piece and one empty square, as ``(square mask, pieces, characteristics all
        their pieces share)``, in the rules' line order (computed on first use)."""
        if self._open_lines is None:
            self._open_lines = open_lines(self.cells, self.occupied, self.rules)
        return self._open_lines

    def winning_squares(self, piece: int) -> int:
        """Mask of the empty squares where ``piece`` completes a line at once."""
        own = CHARACTERISTICS[piece]
        if self._winners < 0:
            self._winners = 0
            for _bit, filled, _left, _pairs in self.square_threats():
                self._winners |= filled
        if not own & self._winners:  # the pieces a search gives at its leaves: no square to win on
            return 0
        found = 0
        for bit, filled, _left, _pairs in self.square_threats():
            if filled & own:
                found |= bit
        return found

    def given_values(
        self, name: str, pieces: int, piece: int, values_of: Callable[[SearchLeaf, int, tuple[int, ...]], list[int]]
    ) -> tuple[int, bool]:
        """The value for ``piece`` of a fact that depends on the piece in hand, and whether it is the same for every
        piece that could be given here: the pieces of ``pieces`` that are safe on this board.

        ``values_of(self, pieces, given)`` lists the fact's values for the pieces ``given`` (each in hand with the
        others of ``pieces`` left); it is called once per ``name`` and ``pieces`` for all the safe pieces (a search
        gives them in turn). A piece that is not among them is computed alone, as depending on the piece.
        """
        entry = self._given.get(name)
        if entry is None or entry[0] != pieces:
            safe = MEMBERS[pieces & ~self.unsafe_pieces()]
            values = dict(zip(safe, values_of(self, pieces, safe), strict=True))
            entry = self._given[name] = (pieces, values, len(set(values.values())) <= 1)
        value = entry[1].get(piece)
        if value is None:
            return values_of(self, pieces, (piece,))[0], False
        return value, entry[2]

    def safe_square_counts(self, pieces: int, given: tuple[int, ...]) -> list[int]:
        """For each piece of ``given`` (in hand, the others of ``pieces`` left), how many empty squares win with it or
        leave a piece safe to give: ``(safe_placements(piece, left) | winning_squares(piece)).bit_count()``.

        Most squares answer alike for every piece: a piece placed there makes at most the threats ``pairs`` more, so
        when two pieces stay safe even then, one remains whichever was given; when none is safe before those, none
        is after. Only the other squares are tried piece by piece.
        """
        meeting = PIECES_MEETING
        if self.occupied.bit_count() <= _FEW_PIECES:
            # Every characteristic a placement could leave some threat line needing is shared by a line of two or
            # three pieces: two pieces with none of them stay safe after any placement, so every square counts.
            shared_by_lines = 0
            for _mask, count, shared in self.open_lines():
                if count >= 2:
                    shared_by_lines |= shared
            spare = pieces & ~meeting[shared_by_lines]
            if spare & (spare - 1):
                return [(self.occupied ^ ALL_SQUARES_MASK).bit_count()] * len(given)
        base = 0
        undecided = []
        for _bit, filled, left, pairs in self.square_threats():
            if not filled:
                fewest = pieces & ~meeting[left | pairs]
                if fewest & (fewest - 1):
                    base += 1
                    continue
                if not pieces & ~meeting[left]:
                    continue
            undecided.append((filled, left, pairs))
        counts = []
        for piece in given:
            own = CHARACTERISTICS[piece]
            rest = pieces & ~(1 << piece)
            count = base
            for filled, left, pairs in undecided:
                if filled & own or rest & ~meeting[left | pairs & own]:
                    count += 1
            counts.append(count)
        return counts

    def safe_pair_counts(self, pieces: int, given: tuple[int, ...]) -> list[int]:
        """For each piece of ``given`` (in hand, the others of ``pieces`` left), the (square, piece to give) pairs that
        leave no win at once: squares where it does not win, and pieces of the rest that are safe once it is there."""
        meeting = PIECES_MEETING
        squares = self.square_threats()
        counts = []
        for piece in given:
            own = CHARACTERISTICS[piece]
            rest = pieces & ~(1 << piece)
            count = 0
            for _bit, filled, left, pairs in squares:
                if not filled & own:
                    count += (rest & ~meeting[left | pairs & own]).bit_count()
            counts.append(count)
        return counts

    def forced_wins(self, pieces: int, given: tuple[int, ...], most_empty: int = 16) -> list[int]:
        """For each piece of ``given`` (in hand, the others of ``pieces`` left): 1 when it wins at once, or has a square
        and a safe piece to give after which every square for that piece leaves no safe piece to give back (the
        opponent is in guaranteed loss, ``guaranteed_loss``), else 0. It reads the board two placements ahead. Boards
        with more than ``most_empty`` empty squares are not looked at: 0 for every piece (see
        :data:`FORCED_WIN_HORIZON`)."""
        if (self.occupied ^ ALL_SQUARES_MASK).bit_count() > most_empty:
            return [0] * len(given)
        if self._plans is None:
            self._plans = square_plans(self.chars, self.occupied, self.counters, OTHERS_THROUGH[self.rules])
        plans, chars, occupied = self._plans, self.chars, self.occupied
        others = OTHERS_THROUGH[self.rules]
        unsafe, carry, high, counter_of = UNSAFE_OF_COUNTERS, COUNTER_CARRY, COUNTER_HIGH, COUNTER_OF
        threats_of, meeting = THREATS_OF_COUNTERS, PIECES_MEETING
        # A reply square s' adds at most the characteristics of the lines of two pieces through it, and of the lines of
        # one through it and the first square (they hold the first piece then), met by the reply: a piece left that
        # meets none of those nor the threats after the first placement is safe after the reply there. If some
        # square keeps one so, the reply is not lost, without walking the board after the first placement.
        doubles = [0] * 16
        singles = [0] * 16
        for mask, count, shared in self.open_lines():
            if shared and count <= 2:
                grown = doubles if count == 2 else singles
                for square in MEMBERS[mask & ~occupied]:
                    grown[square] |= shared
        empties = MEMBERS[occupied ^ ALL_SQUARES_MASK]
        # Whatever the first piece and square: its threats are at most ``left | pairs`` of that square, so three pieces
        # meeting none of them nor what a reply square adds stay safe after a reply there. Two such squares (one is
        # not the first square) spare every reply: no forced win at all (most of the early game).
        reach = winners = 0
        for _bit, filled, left, pairs in self.square_threats():
            reach |= left | pairs
            winners |= filled
        sparing = 0
        for square in empties:
            kept = pieces & ~meeting[reach | doubles[square] | singles[square]]
            if kept.bit_count() >= 3:
                sparing += 1
                if sparing == 2:  # only a piece that wins at once wins
                    return [1 if CHARACTERISTICS[piece] & winners else 0 for piece in given]
        found = []
        for piece in given:
            own = CHARACTERISTICS[piece]
            rest = pieces & ~(1 << piece)
            growth = [(square, doubles[square] | singles[square] & own) for square in empties]  # see above
            won = 0
            for square, after, dropped, common_pairs in plans:
                if any(shared & own for shared in dropped):
                    won = 1
                    break
                for common in common_pairs:
                    after += counter_of[common & own]
                state = (after + carry) & high
                safe = rest & ~unsafe[state]
                if not safe:
                    continue
                threats = threats_of[state]
                bounds = None
                replies = None
                for reply in MEMBERS[safe]:
                    if safe >> (reply ^ 15) & 1:
                        continue  # its complement shares no characteristic with it: it stays safe after any reply
                    left = rest ^ (1 << reply)
                    if not left:
                        continue
                    reply_own = CHARACTERISTICS[reply]
                    if bounds is None:
                        bounds = {grown for other, grown in growth if other != square}
                    if any(left & ~meeting[threats | grown & reply_own] for grown in bounds):
                        continue
                    if replies is None:
                        chars[square] = own
                        replies = square_plans(chars, occupied | 1 << square, after, others)
                        chars[square] = 0xFF
                    if not _keeps_a_safe_piece(replies, reply_own, left):
                        won = 1
                        break
                if won:
                    break
            found.append(won)
        return found

    def safe_placements(self, piece: int, available: int) -> int:
        """Mask of the empty squares after which, with ``piece`` there, a piece of ``available`` is safe to give."""
        own = CHARACTERISTICS[piece]
        meeting = PIECES_MEETING
        found = 0
        for bit, _filled, left, pairs in self.square_threats():
            if available & ~meeting[left | pairs & own]:
                found |= bit
        return found
