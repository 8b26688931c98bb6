"""Quarto's GP binding (``binding``: rule kinds ``choose`` and ``place``) and the features its primitives read
(``features``)."""
