"""The numba kernels of :mod:`gpquarto.search.compiled_tactics` (imported on first use: it imports numba).

Each function mirrors a pure-Python fact of :mod:`gpquarto.search.tactics` or of the lookahead primitives on a
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
    """:func:`gpquarto.search.tactics.safe_pieces_mask`."""
    union = 0
    for line in range(lines.shape[0]):
        if _popcount(occupied & lines[line, 0]) == 3:
            union |= chars[lines[line, 1]] & chars[lines[line, 2]] & chars[lines[line, 3]] & chars[lines[line, 4]]
    return available & ~_MEETING[union]


@numba.njit(cache=True)
def _safe_placements(chars, occupied, available, piece, lines):
    """:func:`gpquarto.search.tactics.safe_placements_mask` (``available`` without the piece in hand)."""
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
