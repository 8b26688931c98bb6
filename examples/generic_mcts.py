"""Generic MCTS against random, for the benchmark of docs/benchmarks.md ("Connect Four and the generic players").

The ``mcts`` of Quarto and Quixo is each game's own accelerator; this plays the generic player itself
(:class:`gpquarto.players.searchers.MCTSPlayer`, 1,000 iterations a decision) against ``random``, seats alternating::

    python examples/generic_mcts.py quarto 1000
    python examples/generic_mcts.py quixo 1000

and prints the wins, draws and losses with the 95% Wilson interval of the win rate and the CPU seconds.
"""

from __future__ import annotations

import sys
import time

from gpquarto.arena.match import play_match
from gpquarto.arena.stats import wilson_interval
from gpquarto.players.random_player import RandomPlayer
from gpquarto.players.searchers import MCTSPlayer


def main(game: str, games: int) -> str:
    started = time.process_time()
    result = play_match(
        MCTSPlayer(iterations=1000, seed=1), RandomPlayer(2), games, seed=1, game=game, names=("mcts", "random")
    )
    low, high = wilson_interval(result.wins, games)
    return (
        f"{game}: generic mcts:iterations=1000 vs random, {games} games: {result.wins} wins, {result.draws} draws, "
        f"{result.losses} losses; win rate {result.wins / games:.1%} (95% Wilson {low:.1%}-{high:.1%}); "
        f"CPU {time.process_time() - started:.0f} s"
    )


if __name__ == "__main__":
    print(main(sys.argv[1], int(sys.argv[2])))
