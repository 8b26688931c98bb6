"""Benchmarks run by ``python3 -m gpquarto bench TARGET``: measured, never asserted in tests."""
