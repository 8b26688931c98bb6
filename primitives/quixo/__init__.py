"""The Quixo primitive library, one module per family (installed as ``gpquarto_primitives.quixo``).

Quixo rule trees propose moves: a ``Move`` node returns a legal action (``4*cell + direction``) or
``NO_ACTION`` (-1). Every primitive is deterministic: where it must pick one move among several it takes the
lowest action. The facts they read are :class:`~gpquarto.gp.quixo.features.QuixoFeatures`', computed once per
decision; what a move "wins" or "loses" follows the board's rules (official or course).

* ``quixo_counts``: cubes in lines (the mover's and the opponent's), lines one cube short, regions, cubes the
  mover may take;
* ``quixo_moves``: moves chosen by a measure of the board they leave (longest line, line potential, centre,
  diagonals, blank or own cube taken), and combinators of two moves;
* ``quixo_tactical``: what wins or loses at once, for the mover, and the opponent's threats;
* ``quixo_lookahead``: the opponent's replies to each move (one turn, nothing deeper): safe moves, blocks;
* ``quixo_traps``: moves after which the mover wins next turn whatever the opponent replies (three plies).
"""

#: The family modules, in the order a library lists them.
FAMILY_MODULES = [
    "counts",
    "moves",
    "tactical",
    "lookahead",
    "traps",
]
