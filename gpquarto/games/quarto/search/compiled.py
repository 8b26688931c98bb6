"""Optional compiled exact solver (``pip install "gpquarto[fast]"``, which brings numba): the algorithm of
:mod:`gpquarto.games.quarto.search.solver`, compiled. The pure-Python solver stays the default and the reference: tests
check that this one gives the same value and the same best actions wherever numba is installed.

Use :func:`solve` (same result as :func:`gpquarto.games.quarto.search.solver.solve`; no table argument or node
limit: one 32 MB always-replace table of proven bounds is kept for the process); :data:`AVAILABLE` says
whether numba could be imported. The first call compiles (10-30 s; cached on disk afterwards). Measured
with ``gpquarto bench solver --compare gpquarto.games.quarto.search.compiled``: about 10x the pure-Python solver.
"""

from __future__ import annotations

from gpquarto.games.quarto.board import PLACE_OFFSET, Board, BoardView
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.pieces import CHARACTERISTICS, NO_PIECE
from gpquarto.games.quarto.tables import COUNTER_CARRY, COUNTER_HIGH, COUNTER_OF, OTHERS_THROUGH, PIECES_MEETING

try:
    import numba
    import numpy as np
except ImportError:  # pragma: no cover - depends on the installed extras
    AVAILABLE = False
else:
    AVAILABLE = True

WIN, DRAW, LOSS = 1, 0, -1

if AVAILABLE:
    from gpquarto.games.quarto.search.solver import SolveResult
    from gpquarto.games.quarto.search.tactics import threat_counters

    _CHARS = np.array(CHARACTERISTICS, dtype=np.int64)
    _COUNTER_OF = np.array(COUNTER_OF, dtype=np.int64)
    _MEETING = np.array(PIECES_MEETING, dtype=np.int64)

    def _others_array(rules: Rules):
        table = np.zeros((16, 7, 4), dtype=np.int64)
        counts = np.zeros(16, dtype=np.int64)
        for square, entries in enumerate(OTHERS_THROUGH[rules]):
            counts[square] = len(entries)
            for index, entry in enumerate(entries):
                table[square, index] = entry
        return table, counts

    _OTHERS = {rules: _others_array(rules) for rules in Rules}

    @numba.njit(cache=True)
    def _unsafe(counters):
        high = (counters + COUNTER_CARRY) & COUNTER_HIGH
        threat = 0
        for c in range(8):
            if (high >> (6 * c + 5)) & 1:
                threat |= 1 << c
        return _MEETING[threat]

    @numba.njit(cache=True)
    def _popcount(mask):
        count = 0
        while mask:
            mask &= mask - 1
            count += 1
        return count

    _TABLE_BITS = 20  # 2**20 slots of (key low, key high, lower bound, upper bound): 32 MB
    _TABLE_MASK = (1 << _TABLE_BITS) - 1

    @numba.njit(cache=True)
    def _slot(lo, hi):
        mixed = lo ^ (lo >> 23) ^ (hi << 7) ^ (hi >> 11)
        return ((mixed * 2654435761) ^ (mixed >> 29)) & _TABLE_MASK

    @numba.njit(cache=True)
    def _store(table, lo, hi, low, high):
        """Always-replace: a slot keeps the latest position hashed to it (bounds stay proven forever)."""
        index = _slot(lo, hi)
        table[index, 0] = lo
        table[index, 1] = hi
        table[index, 2] = low
        table[index, 3] = high

    @numba.njit(cache=True)
    def _key_add(lo, hi, square, piece):
        if square < 12:
            return lo + ((piece + 1) << (5 * square)), hi
        return lo, hi + ((piece + 1) << (5 * (square - 12)))

    @numba.njit(cache=True)
    def _choice(chars, others, counts, occupied, safe, available, counters, lo, hi, alpha, beta, table, stats, ws):
        """The pure-Python solver's ``choice_value``, compiled (see gpquarto.games.quarto.search.solver)."""
        stats[0] += 1
        ws0, ws1, ws2, ws3, ws4, ws5, ws6, ws7, ws8, ws9, ws10, piece_of = ws
        slot_index = _slot(lo, hi)
        if table[slot_index, 0] == lo and table[slot_index, 1] == hi:
            low, high_bound = table[slot_index, 2], table[slot_index, 3]
            if low == high_bound or low >= beta:
                return low
            if high_bound <= alpha:
                return high_bound
            if low > alpha:
                alpha = low
            if high_bound < beta:
                beta = high_bound
        # scratch rows of this level (its number of empty squares: one node per level along a path)
        level = 16 - _popcount(occupied)
        squares = ws0[level]
        base_unsafe = ws1[level]
        joined = ws2[level]
        bases = ws3[level]
        pair_counts = ws4[level]
        pieces = ws5[level]
        order_keys = ws6[level]
        reply_counts = ws7[level]
        pairs = ws8[level]
        reply_square = ws9[level]
        reply_safe = ws10[level]
        empty_count = 0
        for square in range(16):
            if (occupied >> square) & 1:
                continue
            base = counters
            join = 0
            pair_counts[empty_count] = 0
            for index in range(counts[square]):
                mask, a, b, c = (
                    others[square, index, 0],
                    others[square, index, 1],
                    others[square, index, 2],
                    others[square, index, 3],
                )
                seen = occupied & mask
                if seen == mask:
                    base -= _COUNTER_OF[chars[a] & chars[b] & chars[c]]
                elif seen & (seen - 1):
                    common = chars[a] & chars[b] & chars[c]
                    pairs[empty_count, pair_counts[empty_count]] = common
                    pair_counts[empty_count] += 1
                    join |= common
            squares[empty_count] = square
            base_unsafe[empty_count] = _unsafe(base)
            joined[empty_count] = join
            bases[empty_count] = base
            empty_count += 1
        # per safe piece: its replies (squares leaving the opponent a safe piece), sorted for the search
        piece_count = 0
        for piece in range(16):
            if not (safe >> piece) & 1:
                continue
            own = _CHARS[piece]
            rest = available ^ (1 << piece)
            total = 0
            replies = 0
            for index in range(empty_count):
                left = rest & ~(base_unsafe[index] | _MEETING[joined[index] & own])
                if left:
                    # insertion by number of safe pieces left to the opponent (fewest first)
                    position = replies
                    size = _popcount(left)
                    while position > 0 and _popcount(reply_safe[piece_count, position - 1]) > size:
                        reply_square[piece_count, position] = reply_square[piece_count, position - 1]
                        reply_safe[piece_count, position] = reply_safe[piece_count, position - 1]
                        position -= 1
                    reply_square[piece_count, position] = index
                    reply_safe[piece_count, position] = left
                    replies += 1
                    total += size
            if replies == 0:
                _store(table, lo, hi, WIN, WIN)
                return WIN
            piece_of[level, piece_count] = piece
            reply_counts[piece_count] = replies
            # insertion by (replies, safe pieces over the replies): fewest first
            order_key = replies * 1024 + total
            position = piece_count
            while position > 0 and order_keys[position - 1] > order_key:
                order_keys[position] = order_keys[position - 1]
                pieces[position] = pieces[position - 1]
                position -= 1
            order_keys[position] = order_key
            pieces[position] = piece_count
            piece_count += 1
        if empty_count == 2:
            best = DRAW
        else:
            slots = pieces  # after the insertion sort: the slots of the safe pieces, best first
            best = LOSS - 1
            for rank in range(piece_count):
                slot = slots[rank]
                piece = piece_of[level, slot]
                floor = alpha if alpha > best else best
                own = _CHARS[piece]
                rest = available ^ (1 << piece)
                worst = WIN
                for reply in range(reply_counts[slot]):
                    index = reply_square[slot, reply]
                    square = squares[index]
                    after = bases[index]
                    for p in range(pair_counts[index]):
                        after += _COUNTER_OF[pairs[index, p] & own]
                    chars[square] = own
                    child_lo, child_hi = _key_add(lo, hi, square, piece)
                    value = -_choice(
                        chars,
                        others,
                        counts,
                        occupied | (1 << square),
                        reply_safe[slot, reply],
                        rest,
                        after,
                        child_lo,
                        child_hi,
                        -(beta if beta < worst else worst),
                        -floor,
                        table,
                        stats,
                        ws,
                    )
                    chars[square] = 0xFF
                    if value < worst:
                        worst = value
                        if worst <= floor:
                            break
                if worst > best:
                    best = worst
                    if best >= beta:
                        break
        if best <= alpha:
            _store(table, lo, hi, LOSS, best)
        elif best >= beta:
            _store(table, lo, hi, best, WIN)
        else:
            _store(table, lo, hi, best, best)
        return best

    @numba.njit(cache=True)
    def _after_placement(
        chars, others, counts, square, piece, occupied, available, counters, lo, hi, alpha, beta, table, stats, ws
    ):
        own = _CHARS[piece]
        for index in range(counts[square]):
            mask, a, b, c = (
                others[square, index, 0],
                others[square, index, 1],
                others[square, index, 2],
                others[square, index, 3],
            )
            seen = occupied & mask
            if seen == mask:
                counters -= _COUNTER_OF[chars[a] & chars[b] & chars[c]]
            elif seen & (seen - 1):
                counters += _COUNTER_OF[chars[a] & chars[b] & chars[c] & own]
        safe = available & ~_unsafe(counters)
        occupied |= 1 << square
        left = occupied ^ 0xFFFF
        if not left:
            return DRAW
        if not safe:
            return LOSS
        if not left & (left - 1):
            return DRAW
        chars[square] = own
        child_lo, child_hi = _key_add(lo, hi, square, piece)
        value = _choice(
            chars,
            others,
            counts,
            occupied,
            safe,
            available,
            counters,
            child_lo,
            child_hi,
            alpha,
            beta,
            table,
            stats,
            ws,
        )
        chars[square] = 0xFF
        return value

    @numba.njit(cache=True)
    def _piece_value(
        chars, others, counts, piece, occupied, available, counters, lo, hi, alpha, beta, table, stats, ws
    ):
        rest = available ^ (1 << piece)
        worst = WIN + 1
        for square in range(16):
            if (occupied >> square) & 1:
                continue
            value = -_after_placement(
                chars,
                others,
                counts,
                square,
                piece,
                occupied,
                rest,
                counters,
                lo,
                hi,
                -(beta if beta < worst else worst),
                -alpha,
                table,
                stats,
                ws,
            )
            if value < worst:
                worst = value
                if worst <= alpha:
                    break
        return worst

    def _workspace():
        rows = tuple(np.zeros((17, 16), dtype=np.int64) for _ in range(8))
        return rows + (
            np.zeros((17, 16, 7), dtype=np.int64),
            np.zeros((17, 16, 16), dtype=np.int64),
            np.zeros((17, 16, 16), dtype=np.int64),
            np.zeros((17, 16), dtype=np.int64),
        )

    _TABLES: list = []

    def _shared_table():
        """The transposition table, made once and kept: its bounds are proven, so they stay valid."""
        if not _TABLES:
            table = np.zeros((1 << _TABLE_BITS, 4), dtype=np.int64)
            table[:, 1] = -1  # no key has a negative high part: the slot is empty
            _TABLES.append(table)
        return _TABLES[0]


def solve(board: Board | BoardView, *, fresh_table: bool = False) -> SolveResult:
    """Solve ``board`` exactly with the compiled solver: the same result as the pure-Python ``solve``
    (``nodes`` counts its own positions). The process's table is kept between calls unless
    ``fresh_table`` (benchmarks: emptying it takes a few ms). Raises ``RuntimeError`` without numba."""
    if not AVAILABLE:
        raise RuntimeError('the compiled solver needs numba: pip install "gpquarto[fast]"')
    if isinstance(board, BoardView):
        board = board.copy()
    if board.is_over():
        raise ValueError(f"the game is over, nothing to solve: {board.text()}")
    rules = board.rules
    others, counts = _OTHERS[rules]
    chars = np.array(
        [0xFF if piece == NO_PIECE else CHARACTERISTICS[piece] for piece in board.raw_cells], dtype=np.int64
    )
    occupied, available = board.occupied_mask, board.available_mask
    counters = threat_counters(list(chars), occupied, rules)
    lo = hi = 0
    for square, piece in enumerate(board.raw_cells):
        if piece != NO_PIECE:
            lo, hi = _key_add(lo, hi, square, piece)
    if rules is Rules.ADVANCED:
        hi += 1 << 40
    table = _shared_table()
    if fresh_table:
        table[:, 1] = -1
    stats = np.zeros(1, dtype=np.int64)
    ws = _workspace()
    unsafe = _unsafe(counters)
    in_hand = board.in_hand

    def reaches(action: int, threshold: int) -> bool:
        if in_hand == NO_PIECE:
            if unsafe >> action & 1:
                return LOSS >= threshold
            value = _piece_value(
                chars,
                others,
                counts,
                action,
                occupied,
                available,
                counters,
                lo,
                hi,
                threshold - 1,
                threshold,
                table,
                stats,
                ws,
            )
        elif board.is_winning_placement(action - PLACE_OFFSET, in_hand):
            return True
        else:
            value = _after_placement(
                chars,
                others,
                counts,
                action - PLACE_OFFSET,
                in_hand,
                occupied,
                available,
                counters,
                lo,
                hi,
                threshold - 1,
                threshold,
                table,
                stats,
                ws,
            )
        return value >= threshold

    actions = board.legal_actions()
    for threshold in (WIN, DRAW):
        best_actions = tuple(action for action in actions if reaches(action, threshold))
        if best_actions:
            return SolveResult(threshold, best_actions, int(stats[0]))
    return SolveResult(LOSS, actions, int(stats[0]))
