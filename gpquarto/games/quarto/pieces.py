"""Pieces and their characteristics.

A piece is an int 0..15 whose four bits are its attributes: bit 3 tall, bit 2 coloured (dark),
bit 1 solid, bit 0 square. The eight *characteristics* are the (attribute, value) pairs; a line wins
when its four pieces share at least one of them.
"""

from __future__ import annotations

from gpquarto.games.quarto.indices import check_index

PIECE_COUNT = 16
ALL_PIECES_MASK = (1 << PIECE_COUNT) - 1
NO_PIECE = -1

TALL, COLOURED, SOLID, SQUARE = 8, 4, 2, 1
ATTRIBUTE_BITS = (TALL, COLOURED, SOLID, SQUARE)
ATTRIBUTE_NAMES = ("tall", "coloured", "solid", "square")
OPPOSITE_NAMES = ("short", "plain", "hollow", "round")

#: Characteristic index c in 0..7: c < 4 means "has attribute bit c", c >= 4 means "lacks bit c-4".
#: Characteristic names, indexed the same way as the bits of :data:`CHARACTERISTICS`.
CHARACTERISTIC_NAMES = ("square", "solid", "coloured", "tall", "round", "hollow", "plain", "short")

#: For each piece, an 8-bit set of its characteristics: low nibble = attributes it has, high nibble =
#: attributes it lacks. Four pieces share a characteristic iff the AND of their sets is non-zero.
CHARACTERISTICS = tuple(piece | ((piece ^ 15) << 4) for piece in range(PIECE_COUNT))


def piece_name(piece: int) -> str:
    """Human name of a piece, e.g. ``piece_name(13) == "tall dark hollow square"``."""
    check_piece(piece)
    words = (
        "tall" if piece & TALL else "short",
        "dark" if piece & COLOURED else "light",
        "solid" if piece & SOLID else "hollow",
        "square" if piece & SQUARE else "round",
    )
    return " ".join(words)


def piece_code(piece: int) -> str:
    """Four-letter code of a piece: T/S (tall/short), D/L (dark/light), O/H (solid/hollow), Q/R (square/round)."""
    check_piece(piece)
    return (
        ("T" if piece & TALL else "S")
        + ("D" if piece & COLOURED else "L")
        + ("O" if piece & SOLID else "H")
        + ("Q" if piece & SQUARE else "R")
    )


def check_piece(piece: object) -> int:
    """``piece`` as an int if it is a valid piece index (see :func:`check_index`), else ``ValueError``."""
    return check_index(piece, "a piece", PIECE_COUNT)


def _bit_tuples() -> tuple[tuple[int, ...], ...]:
    table: list[tuple[int, ...]] = [()]
    for bit in range(16):
        table += [members + (bit,) for members in table]
    return tuple(table)


#: ``MEMBERS[mask]`` is the sorted tuple of the bit indices set in a 16-bit mask.
MEMBERS: tuple[tuple[int, ...], ...] = _bit_tuples()


_PIECE_BY_CODE = {piece_code(piece): piece for piece in range(16)}


def describe_piece(piece: int) -> str:
    """``"F:TDOQ (tall dark solid square)"``."""
    return f"{piece:X}:{piece_code(piece)} ({piece_name(piece)})"


def parse_piece(text: str) -> int:
    """A piece from a hex digit (``"f"``) or a four-letter code (``"TDOQ"``); ``ValueError`` otherwise."""
    text = text.strip()
    if len(text) == 1 and text in "0123456789abcdefABCDEF":
        return int(text, 16)
    if text.upper() in _PIECE_BY_CODE:
        return _PIECE_BY_CODE[text.upper()]
    raise ValueError(f"not a piece: {text!r} (type a hex digit 0-F or a code such as TDOQ)")
