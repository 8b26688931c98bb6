"""The canonical sequence of a Quarto position as gpquarto first computed it (the reference the faster
:func:`gpquarto.games.quarto.symmetry.canonical_sequence` must agree with): for each square map, the attribute
permutations filtered one piece at a time, every image built whole and the least kept."""

from __future__ import annotations

from gpquarto.games.quarto.pieces import NO_PIECE
from gpquarto.games.quarto.symmetry import PERMUTED, Position, square_maps

_EMPTY = 16


def canonical_sequence(board: Position) -> tuple[int, ...]:
    """The lexicographically least (hand, cell 0..15) sequence over all symmetric images of ``board``."""
    cells = board.raw_cells
    hand = board.in_hand
    best: tuple[int, ...] | None = None
    for square_map in square_maps(board.rules):
        sequence = [hand] + [cells[s] for s in square_map]
        first = next((v for v in sequence if v != NO_PIECE), None)
        if first is None:
            return (_EMPTY,) * 17
        candidates = PERMUTED
        image: list[int] = []
        for value in sequence:
            if value == NO_PIECE:
                image.append(_EMPTY)
                continue
            shifted = value ^ first
            if len(candidates) > 1:
                least = min(table[shifted] for table in candidates)
                candidates = tuple(table for table in candidates if table[shifted] == least)
                image.append(least)
            else:
                image.append(candidates[0][shifted])
        result = tuple(image)
        if best is None or result < best:
            best = result
    assert best is not None
    return best
