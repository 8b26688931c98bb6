"""Benchmarks run by ``python -m gpquarto bench TARGET``: measured, never asserted in tests."""
