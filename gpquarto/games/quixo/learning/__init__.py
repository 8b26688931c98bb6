"""Quixo's learning encoder: the n-tuple network over its board (:mod:`.tuples`)."""
