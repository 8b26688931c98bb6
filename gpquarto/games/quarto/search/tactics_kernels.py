"""The numba kernels of :mod:`gpquarto.games.quarto.search.compiled_tactics` (imported on first use: it imports numba).

Each function mirrors a pure-Python fact of :mod:`gpquarto.games.quarto.search.tactics` or of the lookahead primitives on a
position given as the characteristic set of each cell (0xFF when empty), the occupied mask and the available
pieces; the ``*_of`` functions take the 16 cells (a piece or -1) and one rule set's line table
(:data:`~gpquarto.games.quarto.tables.LINE_TABLE` as an array) and return 16 values or one square.
"""

from __future__ import annotations

import numba
import numpy as np

from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.pieces import CHARACTERISTICS
from gpquarto.games.quarto.tables import LINE_TABLE, PIECES_MEETING

_CHARS = np.array(CHARACTERISTICS, dtype=np.int64)
_MEETING = np.array(PIECES_MEETING, dtype=np.int64)
LINES = {rules: np.array(LINE_TABLE[rules], dtype=np.int64) for rules in Rules}


@numba.njit(cache=True)
def _popcount(mask):
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@numba.njit(cache=True)
def _board(cells):
    """The characteristic set of each cell (0xFF when empty) and the occupied mask."""
    chars = np.empty(16, dtype=np.int64)
    occupied = 0
    for square in range(16):
        piece = cells[square]
        if piece < 0:
            chars[square] = 0xFF
        else:
            chars[square] = _CHARS[piece]
            occupied |= 1 << square
    return chars, occupied


@numba.njit(cache=True)
def _safe_pieces(chars, occupied, available, lines):
    """:func:`gpquarto.games.quarto.search.tactics.safe_pieces_mask`."""
    union = 0
    for line in range(lines.shape[0]):
        if _popcount(occupied & lines[line, 0]) == 3:
            union |= chars[lines[line, 1]] & chars[lines[line, 2]] & chars[lines[line, 3]] & chars[lines[line, 4]]
    return available & ~_MEETING[union]


@numba.njit(cache=True)
def _safe_placements(chars, occupied, available, piece, lines):
    """:func:`gpquarto.games.quarto.search.tactics.safe_placements_mask` (``available`` without the piece in hand)."""
    available &= ~(1 << piece)
    own = _CHARS[piece]
    count = lines.shape[0]
    counts = np.empty(count, dtype=np.int64)
    shared = np.empty(count, dtype=np.int64)
    for line in range(count):
        counts[line] = _popcount(occupied & lines[line, 0])
        shared[line] = chars[lines[line, 1]] & chars[lines[line, 2]] & chars[lines[line, 3]] & chars[lines[line, 4]]
    result = 0
    for square in range(16):
        bit = 1 << square
        if occupied & bit:
            continue
        union = 0
        for line in range(count):
            if lines[line, 0] & bit:
                if counts[line] == 2:
                    union |= shared[line] & own
            elif counts[line] == 3:
                union |= shared[line]
        if available & ~_MEETING[union]:
            result |= bit
    return result


@numba.njit(cache=True)
def _winning(chars, occupied, piece, lines):
    """The mask of the empty squares where ``piece`` completes a line."""
    own = _CHARS[piece]
    result = 0
    for line in range(lines.shape[0]):
        mask = lines[line, 0]
        if _popcount(occupied & mask) == 3:
            shared = chars[lines[line, 1]] & chars[lines[line, 2]] & chars[lines[line, 3]] & chars[lines[line, 4]]
            if shared & own:
                result |= mask & ~occupied
    return result


@numba.njit(cache=True)
def _reply_masks(chars, occupied, available, lines, out):
    for piece in range(16):
        out[piece] = -1
    safe = _safe_pieces(chars, occupied, available, lines)
    for piece in range(16):
        if safe >> piece & 1:
            out[piece] = _safe_placements(chars, occupied, available & ~(1 << piece), piece, lines)


@numba.njit(cache=True)
def _safe_left(chars, occupied, in_hand, available, lines, out):
    for square in range(16):
        out[square] = -1
    placements = _safe_placements(chars, occupied, available, in_hand, lines)
    placements &= ~_winning(chars, occupied, in_hand, lines)
    own = _CHARS[in_hand]
    for square in range(16):
        if placements >> square & 1:
            chars[square] = own
            out[square] = _popcount(_safe_pieces(chars, occupied | 1 << square, available, lines))
            chars[square] = 0xFF


@numba.njit(cache=True)
def _fewest(chars, occupied, available, lines, horizon, replies, out):
    """:func:`fewest_replies` into ``out``, with ``replies`` as scratch space."""
    _reply_masks(chars, occupied, available, lines, replies)
    fewest = 99
    for piece in range(16):
        if replies[piece] >= 0:
            fewest = min(fewest, _popcount(replies[piece]))
    look = 16 - _popcount(occupied) <= horizon
    for piece in range(16):
        out[piece] = -1
        squares = replies[piece]
        if squares < 0 or _popcount(squares) != fewest:
            continue
        odd = 0
        if look:
            own = _CHARS[piece]
            rest = available & ~(1 << piece)
            for square in range(16):
                if squares >> square & 1:
                    chars[square] = own
                    odd += _popcount(_safe_pieces(chars, occupied | 1 << square, rest, lines)) % 2
                    chars[square] = 0xFF
        out[piece] = fewest * 64 + odd


@numba.njit(cache=True)
def reply_masks_of(cells, available, lines):
    chars, occupied = _board(cells)
    out = np.empty(16, dtype=np.int64)
    _reply_masks(chars, occupied, available, lines, out)
    return out


@numba.njit(cache=True)
def safe_left_of(cells, in_hand, available, lines):
    chars, occupied = _board(cells)
    out = np.empty(16, dtype=np.int64)
    _safe_left(chars, occupied, in_hand, available, lines, out)
    return out


@numba.njit(cache=True)
def fewest_of(cells, available, lines, horizon):
    chars, occupied = _board(cells)
    replies = np.empty(16, dtype=np.int64)
    out = np.empty(16, dtype=np.int64)
    _fewest(chars, occupied, available, lines, horizon, replies, out)
    return out


@numba.njit(cache=True)
def square_replies_of(cells, in_hand, available, lines, horizon):
    chars, occupied = _board(cells)
    left = np.empty(16, dtype=np.int64)
    _safe_left(chars, occupied, in_hand, available, lines, left)
    replies = np.empty(16, dtype=np.int64)
    fewest = np.empty(16, dtype=np.int64)
    out = np.empty(16, dtype=np.int64)
    own = _CHARS[in_hand]
    for square in range(16):
        out[square] = -1
        if left[square] < 0:
            continue
        chars[square] = own
        _fewest(chars, occupied | 1 << square, available, lines, horizon, replies, fewest)
        chars[square] = 0xFF
        best = -1
        for piece in range(16):
            if fewest[piece] >= 0 and (best < 0 or fewest[piece] < best):
                best = fewest[piece]
        out[square] = best
    return out


@numba.njit(cache=True)
def trap_square_of(cells, in_hand, available, lines):
    chars, occupied = _board(cells)
    left = np.empty(16, dtype=np.int64)
    _safe_left(chars, occupied, in_hand, available, lines, left)
    own = _CHARS[in_hand]
    for square in range(16):
        if left[square] < 0:
            continue
        chars[square] = own
        placed = occupied | 1 << square
        safe = _safe_pieces(chars, placed, available, lines)
        for piece in range(16):
            if not safe >> piece & 1 or available == 1 << piece:
                continue
            if not _safe_placements(chars, placed, available & ~(1 << piece), piece, lines):
                chars[square] = 0xFF
                return square
        chars[square] = 0xFF
    return -1


# ---------------------------------------------------------------------- the fast search's placement at depth 2
#: The leaf values of :mod:`gpquarto.games.quarto.search.fast_search` that :func:`best_placement_2` computes, by number.
WINS, LINES_WEIGHED, QUARTICITY = 0, 1, 2
_WIN_SCORE, _INFINITY, _LIMIT = 1000, 10_000, 100


@numba.njit(cache=True)
def _weight(shared, available, kind):
    """A threat line's weight: ``lines`` weighs it by the remaining pieces that complete it (0 none, 10 an odd
    number, 20 an even one), ``quarticity`` counts 10 for each."""
    if kind == QUARTICITY:
        return 10
    winners = _popcount(_MEETING[shared] & available)
    if winners == 0:
        return 0
    return 10 if winners & 1 else 20


@numba.njit(cache=True)
def _last_ply(chars, occupied, piece, empties, available, lines, parity, kind, beta):
    """The fast search's ``last_ply`` (fail-soft, cut at ``beta``): the value for the player placing ``piece``
    of its best square, a leaf value after it (the heuristic's, or a loss when no safe piece is left)."""
    if empties == 1:
        return 0
    own = _CHARS[piece]
    sign = 1 if (empties & 1) == parity else -1
    loss = -(_WIN_SCORE + empties - 1)
    best = -_INFINITY
    for square in range(16):
        bit = 1 << square
        if occupied & bit:
            continue
        chars[square] = own
        placed = occupied | bit
        union = 0
        score = 0
        for line in range(lines.shape[0]):
            if _popcount(placed & lines[line, 0]) == 3:
                shared = chars[lines[line, 1]] & chars[lines[line, 2]] & chars[lines[line, 3]] & chars[lines[line, 4]]
                if shared:
                    union |= shared
                    if kind != WINS:
                        score += _weight(shared, available, kind)
        chars[square] = 0xFF
        if available & ~_MEETING[union]:
            value = 0 if kind == WINS else sign * min(score, _LIMIT)
        else:
            value = loss
        if value > best:
            best = value
            if best >= beta:
                break
    return best


@numba.njit(cache=True)
def best_placement_2(cells, in_hand, available, lines, parity, kind):
    """:meth:`gpquarto.games.quarto.search.fast_search.FastSearch.best_placement` at depth 2 with a built-in leaf value
    (``kind``), on a board with at least two empty squares where the piece in hand cannot win at once: the best
    value, the best moves (``square << 4 | piece``, in the order the fast search finds them) and the number of last
    plies searched (the same windows as the fast search's root: each move searched above the best so far, and a
    tie proved by a null window)."""
    chars, occupied = _board(cells)
    empties = 16 - _popcount(occupied)
    own = _CHARS[in_hand]
    moves = np.empty(256, dtype=np.int64)
    count = 0
    searched = 0
    best = -_INFINITY
    lowest = 0
    while not available >> lowest & 1:
        lowest += 1
    for square in range(16):
        bit = 1 << square
        if occupied & bit:
            continue
        chars[square] = own
        placed = occupied | bit
        safe = _safe_pieces(chars, placed, available, lines)
        if not safe:
            value = -(_WIN_SCORE + empties - 1)
            if value > best:
                best = value
                count = 0
            if value == best:
                moves[count] = square << 4 | lowest
                count += 1
        else:
            for given in range(16):
                if not safe >> given & 1:
                    continue
                rest = available ^ (1 << given)
                value = -_last_ply(chars, placed, given, empties - 1, rest, lines, parity, kind, -best)
                searched += 1
                if value == best:
                    searched += 1
                    value = min(
                        value, -_last_ply(chars, placed, given, empties - 1, rest, lines, parity, kind, 1 - best)
                    )
                if value > best:
                    best = value
                    count = 0
                if value == best:
                    moves[count] = square << 4 | given
                    count += 1
        chars[square] = 0xFF
    return best, moves[:count].copy(), searched
