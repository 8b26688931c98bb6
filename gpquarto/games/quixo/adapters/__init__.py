"""The course library's Quixo seated at our games, and our players at its games (:mod:`.course`)."""
