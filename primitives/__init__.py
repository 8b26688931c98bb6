"""The built-in primitive library of gpquarto, one module per family (installed as ``gpquarto_primitives``).

Every primitive is deterministic: where it must pick one square or piece among several it takes the
lowest index, except the parity squares of the lookahead family, which take the square where the piece in
hand fits the fullest line, then the lowest (randomness belongs to the fallback of a decision only). Squares and pieces are proposed only
when legal in the position; otherwise a primitive returns ``NO_ACTION`` (-1). ``gpquarto primitives``
lists them all with their signatures.
"""

#: The family modules, in the order a library lists them.
FAMILY_MODULES = [
    "constants",
    "logic",
    "arithmetic",
    "counts",
    "characteristics",
    "placement",
    "choice",
    "combinators",
    "fit",
    "tactical",
    "lookahead",
    "evaluation",
]
#: The families that work on any game through the game interface: only the libraries of games bound by the generic
#: binding (``gpquarto.gp.generic``) load them.
GENERIC_FAMILY_MODULES = ["generic"]
