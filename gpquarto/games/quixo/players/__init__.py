"""The Quixo zoo: ``minimax`` (the seed's), ``alphabeta``, ``mcts`` and ``solver`` (3x3 and 4x4); ``random``
plays every game (:mod:`gpquarto.players.random_player`)."""

from gpquarto.games.capabilities import ZooPlayers

#: Quixo's own players (its ``alphabeta`` and ``mcts`` are accelerators of the generic players of those names).
PLAYERS = ZooPlayers(
    modules=(
        "gpquarto.games.quixo.players.search_players",
        "gpquarto.games.quixo.players.mcts",
        "gpquarto.games.quixo.players.human",
    )
)
