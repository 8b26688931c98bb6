"""Search: shared tactics, heuristics, negamax with alpha-beta, and (elsewhere) the exact solver and MCTS."""
