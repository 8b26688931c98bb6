"""Quarto's own primitive families (its GP binding's ``family_package``): they follow the neutral families of
``gpquarto_primitives`` in every Quarto library, in this order, so the library and every seeded run are as they were
when they lived beside them. Every primitive is deterministic: where it must pick one square or piece among
several it takes the lowest index, except the parity squares of the lookahead family, which take the square where
the piece in hand fits the fullest line, then the lowest. Squares and pieces are proposed only when legal in the
position; otherwise a primitive returns ``NO_ACTION`` (-1)."""

#: The family modules, in the order a library lists them.
FAMILY_MODULES = [
    "counts",
    "characteristics",
    "placement",
    "choice",
    "combinators",
    "fit",
    "tactical",
    "lookahead",
    "evaluation",
    "evaluation_blocks",
    "gpquarto_primitives.scores",  # the scores every game has, after Quarto's own, where they always were
]
