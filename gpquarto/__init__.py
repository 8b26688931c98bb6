"""gpquarto: evolve board-game players by genetic programming (Quarto first), and the engines and opponents to
test them. Each game lives in its own package: ``from gpquarto.games.quarto import Board``."""

__version__ = "0.1.0"

__all__ = ["__version__"]

#: The names this package re-exported from the default game's engine before games became plug-ins.
_MOVED = ("Board", "BoardView", "IllegalActionError", "NO_PIECE", "Rules")


def __getattr__(name: str) -> object:
    if name in _MOVED:
        from gpquarto.games.registry import get_game

        package = type(get_game()).__module__.rpartition(".")[0]  # the default game's engine package
        raise ImportError(f"gpquarto.{name} moved: from {package} import {name}")
    raise AttributeError(f"module 'gpquarto' has no attribute {name!r}")
