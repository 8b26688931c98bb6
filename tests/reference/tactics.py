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

from gpquarto.games.quarto.board import Board, BoardView
from gpquarto.games.quarto.lines import ALL_SQUARES_MASK, Rules
from gpquarto.games.quarto.pieces import CHARACTERISTICS, MEMBERS, PIECE_COUNT

#: Characteristic sets indexed by cell content: ``CELL_CHARACTERISTICS[-1]`` (an empty cell) is 0xFF, the
#: neutral element of AND, so the AND over a line's four cells is the shared set of its pieces.
CELL_CHARACTERISTICS: tuple[int, ...] = CHARACTERISTICS + (0xFF,)

#: ``PIECES_MEETING[chars]``: 16-bit mask of the pieces having at least one characteristic of the 8-bit set.
PIECES_MEETING: tuple[int, ...] = tuple(
    sum(1 << piece for piece in range(PIECE_COUNT) if CHARACTERISTICS[piece] & chars) for chars in range(256)
)


def _line_table(rules: Rules) -> tuple[tuple[int, int, int, int, int], ...]:
    return tuple((sum(1 << s for s in line), *line) for line in rules.lines)


#: For each rule set: one ``(mask, a, b, c, d)`` entry per line (its squares' mask and its four squares).
LINE_TABLE: dict[Rules, tuple[tuple[int, int, int, int, int], ...]] = {rules: _line_table(rules) for rules in Rules}


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
