"""Look-up tables over lines and characteristics, defined once for the engine, search, players and GP.

* :data:`CELL_CHARACTERISTICS`: characteristic sets by cell content, 0xFF (neutral for AND) for an empty
  cell (index ``NO_PIECE`` = -1), so the AND over a line's four cells is what its pieces share.
* :data:`PIECES_MEETING`: the pieces having at least one characteristic of an 8-bit set.
* :data:`LINE_TABLE` and :data:`LINE_MASKS`: every line of a rule set as ``(mask, a, b, c, d)`` / its mask.
* :data:`OTHERS_THROUGH`: per square, for each line through it, the mask and squares of the other three.
* *Threat counters*: one int of eight 6-bit fields, one per characteristic, counting the lines that hold
  three pieces sharing it with the fourth square empty. Adding ``COUNTER_OF[shared]`` counts a new threat
  line; ``UNSAFE_OF_COUNTERS[(counters + COUNTER_CARRY) & COUNTER_HIGH]`` is the mask of the pieces that
  complete some threat line (the pieces not safe to give). Search code updates the counters per placement
  instead of rescanning the board.
"""

from __future__ import annotations

from gpquarto.games.quarto.lines import LINES_THROUGH, Rules
from gpquarto.games.quarto.pieces import CHARACTERISTICS, PIECE_COUNT

CELL_CHARACTERISTICS: tuple[int, ...] = CHARACTERISTICS + (0xFF,)

#: ``PIECES_MEETING[chars]``: 16-bit mask of the pieces having at least one characteristic of the 8-bit set.
PIECES_MEETING: tuple[int, ...] = tuple(
    sum(1 << piece for piece in range(PIECE_COUNT) if CHARACTERISTICS[piece] & chars) for chars in range(256)
)

#: For each rule set: one ``(mask, a, b, c, d)`` entry per line (its squares' mask and its four squares).
LINE_TABLE: dict[Rules, tuple[tuple[int, ...], ...]] = {
    rules: tuple((sum(1 << s for s in line), *line) for line in rules.lines) for rules in Rules
}

#: For each rule set: the square mask of every line, in the rule set's line order.
LINE_MASKS: dict[Rules, tuple[int, ...]] = {rules: tuple(entry[0] for entry in LINE_TABLE[rules]) for rules in Rules}

#: The masks of the ten classic lines (rows, columns, diagonal, anti-diagonal).
CLASSIC_LINE_MASKS = LINE_MASKS[Rules.CLASSIC]

#: ``OTHERS_THROUGH[rules][square]``: for each line through ``square``, (mask of the other three squares,
#: those three squares).
OTHERS_THROUGH: dict[Rules, tuple[tuple[tuple[int, ...], ...], ...]] = {
    rules: tuple(
        tuple((sum(1 << s for s in others), *others) for _, others in entries) for entries in LINES_THROUGH[rules]
    )
    for rules in Rules
}

_FIELD = 6  # bits per threat counter: counters are at most 19 (lines), so a carry of 31 stays inside
#: ``COUNTER_OF[shared]``: the threat counters of one line whose pieces share the 8-bit set ``shared``.
COUNTER_OF: tuple[int, ...] = tuple(sum(1 << (_FIELD * c) for c in range(8) if mask >> c & 1) for mask in range(256))
#: Added to counters, sets a field's high bit exactly when the field is non-zero.
COUNTER_CARRY = sum(31 << (_FIELD * c) for c in range(8))
#: The high bits of the eight fields.
COUNTER_HIGH = sum(32 << (_FIELD * c) for c in range(8))
#: ``UNSAFE_OF_COUNTERS[(counters + COUNTER_CARRY) & COUNTER_HIGH]``: the pieces that complete a threat line.
UNSAFE_OF_COUNTERS: dict[int, int] = {
    sum(32 << (_FIELD * c) for c in range(8) if threat >> c & 1): PIECES_MEETING[threat] for threat in range(256)
}
