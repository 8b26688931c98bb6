"""Quixo's built-in primitives, one module per family (installed as ``gpquarto.games.quixo.primitives``).

Primitives here read :class:`~gpquarto.games.quixo.gp.features.QuixoFeatures` (first parameter ``features``) and
propose ``Move`` values: a legal action of the mover (``4*cell + direction``) or ``NO_ACTION`` (-1). Every
primitive is deterministic: where it must pick one move among several it takes the lowest action. What a move
"wins" or "loses" follows the board's rules (official or course). The neutral primitives (logic, arithmetic,
``Count`` and ``bool`` constants) of the top-level package join every Quixo library too.
``python3 -m gpquarto primitives --game quixo`` lists the library; ``docs/quixo-primitives.md`` describes it.

* ``quixo_counts``: cubes in lines (the mover's and the opponent's), lines one cube short, regions, cubes the
  mover may take;
* ``quixo_moves``: moves chosen by a measure of the board they leave (longest line, line potential, centre,
  diagonals, blank or own cube taken), and combinators of two moves;
* ``quixo_tactical``: what wins or loses at once, for the mover, and the opponent's threats;
* ``quixo_lookahead``: the opponent's replies to each move (one turn): safe moves, blocks; and traps, moves
  after which the mover wins next turn whatever the opponent replies.
"""

#: The family modules, in the order a library lists them.
FAMILY_MODULES = [
    "counts",
    "moves",
    "tactical",
    "lookahead",
]
