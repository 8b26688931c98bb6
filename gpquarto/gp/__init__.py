"""Genetic programming for Quarto players: node types, board features, the primitive registry, evolution.

The primitives layer (types, features, registry, plugin loading) is re-exported here; the evolution
layer lives in its own modules (``gpquarto.gp.genome``, ``gpquarto.gp.compiler``...).
"""

from gpquarto.gp.features import Features
from gpquarto.gp.library import load_library
from gpquarto.gp.primitives import (
    PrimitiveError,
    PrimitiveInfo,
    PrimitiveLibrary,
    UnknownPrimitiveError,
    constant,
    primitive,
)
from gpquarto.gp.types import NO_ACTION, Characteristic, Count, Piece, Square

__all__ = [
    "NO_ACTION",
    "Characteristic",
    "Count",
    "Features",
    "Piece",
    "PrimitiveError",
    "PrimitiveLibrary",
    "PrimitiveInfo",
    "Square",
    "UnknownPrimitiveError",
    "constant",
    "load_library",
    "primitive",
]
