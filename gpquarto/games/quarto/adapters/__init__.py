"""The course library's Quarto seated at our games, and our players at its games (:mod:`.course`)."""
