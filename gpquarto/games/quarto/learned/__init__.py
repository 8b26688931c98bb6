"""Quarto's n-tuple features for ``learn`` (the plug-in's ``LearningEncoders``: ``tuples``)."""
