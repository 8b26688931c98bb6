"""gpquarto: evolve Quarto players by genetic programming, and the engine and opponents to test them."""

from gpquarto.games.quarto import NO_PIECE, Board, BoardView, IllegalActionError, Rules

__version__ = "0.1.0"

__all__ = ["Board", "BoardView", "IllegalActionError", "NO_PIECE", "Rules", "__version__"]
