"""The Quixo zoo: ``minimax`` (the seed's), ``alphabeta``, ``mcts`` and ``solver`` (3x3 and 4x4); ``random``
plays every game (:mod:`gpquarto.players.random_player`)."""
