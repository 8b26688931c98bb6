"""The GP core's Quixo side: the board facts that Quixo primitives read (:mod:`~gpquarto.games.quixo.gp.features`)."""
