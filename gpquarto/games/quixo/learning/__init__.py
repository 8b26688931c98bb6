"""Quixo's n-tuple features for ``learn`` (:mod:`.tuples`), offered through its plug-in."""

from gpquarto.games.capabilities import LearningEncoders
from gpquarto.games.quixo.learning.tuples import QuixoTuples

#: Quixo's n-tuple features, for ``learn`` (its plug-in's capability).
ENCODERS = LearningEncoders({QuixoTuples.name: QuixoTuples}, default=QuixoTuples.name)
