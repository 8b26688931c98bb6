"""Quixo's built-in primitives, one module per family (installed as ``gpquarto_primitives.quixo``).

Primitives here read :class:`~gpquarto.gp.quixo.features.QuixoFeatures` (first parameter ``features``) and
propose ``Move`` values: a legal action of the mover or ``NO_ACTION``. The neutral primitives (logic,
arithmetic, ``Count`` constants) of the top-level package join every Quixo library too.
``python -m gpquarto primitives --game quixo`` lists the library.
"""

#: The family modules, in the order a library lists them.
FAMILY_MODULES = [
    "basics",
]
