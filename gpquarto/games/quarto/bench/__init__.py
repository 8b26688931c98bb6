"""Quarto's own bench targets: the capability ``Benchmarks`` (``targets``)."""
