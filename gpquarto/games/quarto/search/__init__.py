"""Quarto's searches: negamax and its fast paths, the compiled kernels, the tactics, the heuristics and the exact
solver (registered as accelerators and players of the zoo through the plug-in)."""
