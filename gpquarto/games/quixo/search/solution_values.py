"""What the Quixo solver's ``values`` array holds for a position, for the side to move (see
:class:`~gpquarto.games.quixo.search.solver.QuixoSolution`)."""

#: A win, a draw, a loss under best play, and a position that holds a complete line (no move is made from it).
WIN, DRAW, LOSS, TERMINAL = 1, 0, -1, 2
