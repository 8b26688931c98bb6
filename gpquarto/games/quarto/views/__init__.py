"""Quarto's pictures (the plug-in's ``Pictures``: PNG figures of a position and of a game)."""
