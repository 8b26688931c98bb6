"""Symmetries of Quixo: the 8 rotations and reflections of the board, and the colour swap with the side to
move; a canonical key for transposition tables and caches.

A cell map is a tuple ``m`` with ``m[cell]`` the image of ``cell``. Under the official rules every one of the 8
maps preserves the lines and the legal moves, so it preserves the game. The course rules resolve a move that
completes lines of both players by the first line in a fixed scan order, which a rotation changes: their only
board symmetry is the identity. Swapping X and O together with the side to move is a symmetry of both rule sets
(seats swap: the side to move keeps its result), so the canonical key is written from the side to move's point
of view and does not say which colour that is.
"""

from __future__ import annotations

from functools import cache

from gpquarto.games.quixo.tables import BOTTOM, LEFT, RIGHT, TOP, dest_cell

CellMap = tuple[int, ...]


@cache
def cell_maps(n: int) -> tuple[CellMap, ...]:
    """The 8 maps of the ``n x n`` board, the identity first."""
    last = n - 1
    images = (
        lambda r, c: (r, c),
        lambda r, c: (c, last - r),
        lambda r, c: (last - r, last - c),
        lambda r, c: (last - c, r),
        lambda r, c: (r, last - c),
        lambda r, c: (last - r, c),
        lambda r, c: (c, r),
        lambda r, c: (last - c, last - r),
    )
    maps = []
    for image in images:
        cells = []
        for cell in range(n * n):
            r, c = image(*divmod(cell, n))
            cells.append(n * r + c)
        maps.append(tuple(cells))
    return tuple(maps)


@cache
def _chunk_tables(n: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each map, for each 8-bit chunk of a mask, the image of every chunk value."""
    result = []
    for cell_map in cell_maps(n):
        chunks = []
        for start in range(0, n * n, 8):
            table = []
            for value in range(256):
                image = 0
                for bit in range(8):
                    if value >> bit & 1 and start + bit < n * n:
                        image |= 1 << cell_map[start + bit]
                table.append(image)
            chunks.append(tuple(table))
        result.append(tuple(chunks))
    return tuple(result)


def map_mask(n: int, index: int, mask: int) -> int:
    """The image of the cell mask ``mask`` under map ``index`` of :func:`cell_maps`."""
    image = 0
    for k, table in enumerate(_chunk_tables(n)[index]):
        image |= table[mask >> (8 * k) & 0xFF]
    return image


def map_action(n: int, index: int, action: int) -> int:
    """The image of ``action`` under map ``index``: the taken cell's image, pushed in at the image of the end
    where the cube went in."""
    cell_map = cell_maps(n)[index]
    taken = cell_map[action >> 2]
    dest = cell_map[dest_cell(n, action)]
    if taken % n == dest % n:  # the same column
        direction = TOP if dest < n else BOTTOM
    else:
        direction = LEFT if dest % n == 0 else RIGHT
    return 4 * taken + direction


def canonical_key(n: int, mover: int, other: int, all_maps: bool = True) -> int:
    """The least ``image(mover) | image(other) << n*n`` over the maps (only the identity when ``all_maps`` is
    false, for the course rules): the same for every symmetric image of the position, colour swap included."""
    shift = n * n
    best = mover | other << shift
    if not all_maps:
        return best
    for k, chunks in enumerate(_chunk_tables(n)):
        if k == 0:
            continue
        m = o = 0
        for j, table in enumerate(chunks):
            m |= table[mover >> (8 * j) & 0xFF]
            o |= table[other >> (8 * j) & 0xFF]
        key = m | o << shift
        if key < best:
            best = key
    return best
