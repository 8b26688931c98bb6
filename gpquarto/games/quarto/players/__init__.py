"""Quarto's own players (the plug-in's ``ZooPlayers``): novice, frontier, the minimax variants, MCTS with its leaves,
the solver, and the human at the terminal."""

from gpquarto.games.capabilities import ZooPlayers
from gpquarto.games.quarto.players.base import QuartoPlayer

#: The modules whose import registers Quarto's players (the plug-in's ``ZooPlayers``).
PLAYERS = ZooPlayers(
    modules=(
        "gpquarto.games.quarto.players.solver_player",
        "gpquarto.games.quarto.players.mcts",
        "gpquarto.games.quarto.players.novice",
        "gpquarto.games.quarto.players.minimax",
        "gpquarto.games.quarto.players.frontier",
        "gpquarto.games.quarto.players.human",
    )
)

__all__ = ["PLAYERS", "QuartoPlayer"]
