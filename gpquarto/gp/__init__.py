"""Genetic programming of rule players for every game with a GP binding (its own, or the generic one): node types,
the primitive registry, evolution. A game's features and primitives live in its folder (Quarto's features:
``gpquarto.games.quarto.gp.features``).

The primitives layer (bindings, types, features, registry, plugin loading) is re-exported here; the evolution
layer lives in its own modules (``gpquarto.gp.genome``, ``gpquarto.gp.compiler``...).
"""

from gpquarto.gp.binding import GPGame
from gpquarto.gp.bindings import gp_game
from gpquarto.gp.library import load_library
from gpquarto.gp.primitives import (
    PrimitiveError,
    PrimitiveInfo,
    PrimitiveLibrary,
    UnknownPrimitiveError,
    constant,
    primitive,
)
from gpquarto.gp.types import NO_ACTION, Characteristic, Count, Move, Piece, Square

__all__ = [
    "NO_ACTION",
    "Characteristic",
    "Count",
    "GPGame",
    "Move",
    "Piece",
    "PrimitiveError",
    "PrimitiveLibrary",
    "PrimitiveInfo",
    "Square",
    "UnknownPrimitiveError",
    "constant",
    "gp_game",
    "load_library",
    "primitive",
]
