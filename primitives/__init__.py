"""The built-in primitive families that every game shares, one module per family (installed as
``gpquarto_primitives``): constants, logic and arithmetic for every game, and the generic families that read
any game through its interface (for games bound by the generic binding). A game's own families live in its folder.
Every primitive is deterministic; ``gpquarto primitives`` lists a game's whole library with the signatures.
"""

#: The family modules every game's library holds, in the order a library lists them (a game's own families follow:
#: Quarto's are in ``gpquarto/games/quarto/primitives/``, Quixo's in ``gpquarto/games/quixo/primitives/``). A game's
#: own ``FAMILY_MODULES`` may name one of these by its full name to give it its place among its own families.
FAMILY_MODULES = [
    "constants",
    "logic",
    "arithmetic",
    "scores",
]
#: The families that work on any game through the game interface: only the libraries of games bound by the generic
#: binding (``gpquarto.gp.generic``) load them.
GENERIC_FAMILY_MODULES = ["generic"]
