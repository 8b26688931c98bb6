"""gpquarto: evolve board-game players by genetic programming (Quarto first), and the engines and opponents to
test them. Each game lives in its own package: ``from gpquarto.games.quarto import Board``."""

__version__ = "0.1.0"

__all__ = ["__version__"]

#: The names this package re-exported before games became plug-ins, and where they live now.
_MOVED = {name: "gpquarto.games.quarto" for name in ("Board", "BoardView", "IllegalActionError", "NO_PIECE", "Rules")}


def __getattr__(name: str) -> object:
    if name in _MOVED:
        raise ImportError(f"gpquarto.{name} moved: from {_MOVED[name]} import {name}")
    raise AttributeError(f"module 'gpquarto' has no attribute {name!r}")
