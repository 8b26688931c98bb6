"""Symmetries of Quarto and a canonical key for transposition tables.

Square maps are tuples ``m`` of 16 squares: the transformed board has ``new[s] = old[m[s]]``. Exactly 32
of them preserve the ten classic lines (the 8 rotations/reflections x swapping the two middle rows and
columns x the inside-out map); with the 2x2 blocks only the 8 rotations/reflections remain.

Piece maps are ``p -> permute_bits(p ^ mask)`` for the 24 attribute permutations and 16 masks: 384 maps
that preserve "these pieces share a characteristic". Win status is invariant under every pair.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Protocol

from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.pieces import NO_PIECE

SquareMap = tuple[int, ...]
PieceMap = tuple[int, ...]


class Position(Protocol):
    """What the canonical key reads of a position (a board or its view)."""

    rules: Rules
    in_hand: int

    @property
    def raw_cells(self) -> Sequence[int]: ...


def _compose(first: SquareMap, second: SquareMap) -> SquareMap:
    """The map that applies ``first`` then ``second`` (in the ``new[s] = old[m[s]]`` convention)."""
    return tuple(first[second[s]] for s in range(16))


def _from_rows_cols(row_of: tuple[int, ...], col_of: tuple[int, ...], transpose: bool = False) -> SquareMap:
    if transpose:
        return tuple(4 * row_of[s % 4] + col_of[s // 4] for s in range(16))
    return tuple(4 * row_of[s // 4] + col_of[s % 4] for s in range(16))


def _closure(generators: list[SquareMap]) -> tuple[SquareMap, ...]:
    identity = tuple(range(16))
    group = {identity}
    frontier = [identity]
    while frontier:
        current = frontier.pop()
        for generator in generators:
            image = _compose(current, generator)
            if image not in group:
                group.add(image)
                frontier.append(image)
    return tuple(sorted(group))


_ROTATE = tuple(4 * (3 - s % 4) + s // 4 for s in range(16))
_MIRROR = _from_rows_cols((0, 1, 2, 3), (3, 2, 1, 0))
_MIDDLE_SWAP = _from_rows_cols((0, 2, 1, 3), (0, 2, 1, 3))
_INSIDE_OUT = _from_rows_cols((1, 0, 3, 2), (1, 0, 3, 2))

#: The 8 rotations and reflections of the square.
DIHEDRAL_MAPS: tuple[SquareMap, ...] = _closure([_ROTATE, _MIRROR])
#: The 32 square permutations that preserve the ten classic lines.
CLASSIC_MAPS: tuple[SquareMap, ...] = _closure([_ROTATE, _MIRROR, _MIDDLE_SWAP, _INSIDE_OUT])

BIT_PERMUTATIONS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(4)))


def _permute_bits(value: int, permutation: tuple[int, ...]) -> int:
    return sum(1 << permutation[bit] for bit in range(4) if value >> bit & 1)


#: ``PERMUTED[i][p]``: piece ``p`` with attribute bit ``b`` moved to ``BIT_PERMUTATIONS[i][b]``.
PERMUTED: tuple[tuple[int, ...], ...] = tuple(
    tuple(_permute_bits(p, perm) for p in range(16)) for perm in BIT_PERMUTATIONS
)
#: All 384 piece maps, as tables of 16 images.
PIECE_MAPS: tuple[PieceMap, ...] = tuple(
    tuple(table[p ^ mask] for p in range(16)) for table in PERMUTED for mask in range(16)
)


def square_maps(rules: Rules | str = Rules.CLASSIC) -> tuple[SquareMap, ...]:
    """The square permutations that preserve the winning lines of ``rules`` (32 classic, 8 advanced)."""
    return CLASSIC_MAPS if Rules(rules) is Rules.CLASSIC else DIHEDRAL_MAPS


_EMPTY = 16  # sorts after every piece
#: Every attribute permutation, as a set of indices into :data:`PERMUTED` (bit ``i``: ``PERMUTED[i]``).
_EVERY_PERMUTATION = (1 << len(PERMUTED)) - 1
#: For a set of attribute permutations (a bit mask), the least image of each piece among them and the ones that
#: give it: filled as the canonical sequences meet the sets (a few dozen are ever met).
_LEAST_IMAGES: dict[int, tuple[tuple[int, int], ...]] = {}


def _least_images(permutations: int) -> tuple[tuple[int, int], ...]:
    """For each piece, its least image under the attribute ``permutations`` (a bit mask over :data:`PERMUTED`)
    and the mask of those that give it."""
    found = _LEAST_IMAGES.get(permutations)
    if found is None:
        members = [i for i in range(len(PERMUTED)) if permutations >> i & 1]
        rows = []
        for piece in range(16):
            least = min(PERMUTED[i][piece] for i in members)
            rows.append((least, sum(1 << i for i in members if PERMUTED[i][piece] == least)))
        found = _LEAST_IMAGES[permutations] = tuple(rows)
    return found


def canonical_sequence(board: Position) -> tuple[int, ...]:
    """The lexicographically least (hand, cell 0..15) sequence over all symmetric images of ``board``.

    Two positions have the same sequence exactly when one is a symmetric image of the other. Empty cells
    and an empty hand are written as 16.
    """
    cells = board.raw_cells
    hand = board.in_hand
    best: list[int] | None = None
    for square_map in square_maps(board.rules):
        sequence = [hand, *[cells[s] for s in square_map]]
        first = next((v for v in sequence if v != NO_PIECE), None)
        if first is None:
            return (_EMPTY,) * 17
        # The first piece met can always become 0 (xor with itself); then keep the attribute
        # permutations that give the least image at each later piece, until one permutation remains.
        # The image is compared with the least one so far as it grows, and dropped once it is greater.
        permutations = _EVERY_PERMUTATION
        only: tuple[int, ...] | None = None  # the permutation, once one remains
        image: list[int] = []
        tied = best is not None  # equal to the best image so far, up to where this one has got
        for value in sequence:
            if value == NO_PIECE:
                mapped = _EMPTY
            elif only is not None:
                mapped = only[value ^ first]
            else:
                mapped, permutations = _least_images(permutations)[value ^ first]
                if not permutations & (permutations - 1):
                    only = PERMUTED[permutations.bit_length() - 1]
            if tied:
                least = best[len(image)]  # type: ignore[index]  # tied means there is a best
                if mapped > least:
                    break
                tied = mapped == least
            image.append(mapped)
        else:
            if not tied:  # less than the best so far (or the first image)
                best = image
    assert best is not None
    return tuple(best)


def canonical_key(board: Position) -> int:
    """An int that is equal for two positions exactly when they are symmetric images (same rules)."""
    key = 0
    for value in canonical_sequence(board):
        key = key * 17 + value
    return key
