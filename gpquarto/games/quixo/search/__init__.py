"""Search for Quixo: negamax with alpha-beta (:mod:`.alphabeta`) and the exact retrograde solver of the 3x3 and
4x4 boards (:mod:`.solver`)."""
