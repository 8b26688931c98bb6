"""Quixo benchmarks (see gpquarto/bench/quixo.py). Usage, from the repository root:

python examples/quixo_bench.py playouts
python examples/quixo_bench.py alphabeta [positions]
python examples/quixo_bench.py strength SPEC [games]
python examples/quixo_bench.py solve SIZE
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpquarto.bench import quixo  # noqa: E402


def main(argv: list[str]) -> None:
    what = argv[0] if argv else "playouts"
    if what == "playouts":
        from tests.reference.quixo import random_playout_winner

        rates = quixo.playout_rates(reference=lambda rng: random_playout_winner(5, rng))
        for name, (median, values) in rates.items():
            print(f"{name:10s} {median:12,.0f} games/s  (repeats: {', '.join(f'{v:,.0f}' for v in values)})")
        print(f"pure / reference: {rates['pure'][0] / rates['reference'][0]:.1f}x")
    elif what == "alphabeta":
        positions = quixo.game_positions(int(argv[1]) if len(argv) > 1 else 30)
        for depth in (4, 5):
            for clock in (time.perf_counter, time.process_time):
                times = quixo.alphabeta_times(depth, positions, clock=clock)
                print(f"depth {depth} ({clock.__name__}): {quixo.summary(times)}")
    elif what == "strength":
        games = int(argv[2]) if len(argv) > 2 else 1000
        result = quixo.strength(argv[1], games)
        low, high = result["interval"]
        print(
            f"{result['spec']} vs random: {result['wins']} wins, {result['draws']} draws, {result['losses']} losses "
            f"of {games}; score {result['score_rate']:.3f} (Wilson 95% {low:.3f}-{high:.3f}); {result['seconds']:.0f} s"
        )
    elif what == "solve":
        import numpy as np

        from gpquarto.search.quixo.solver import compute, save

        size = int(argv[1])
        compiled = {"pure": False, "numba": True}.get(argv[2] if len(argv) > 2 else "", None)
        began = time.perf_counter()
        solution = compute(size, compiled=compiled)
        seconds = time.perf_counter() - began
        path = save(solution)
        values, counts = np.unique(solution.values, return_counts=True)
        tally = ", ".join(
            f"{ {1: 'win', 0: 'draw', -1: 'loss', 2: 'line'}[int(v)] } {c:,}"
            for v, c in zip(values, counts, strict=True)
        )
        print(
            f"{size}x{size}: solved in {seconds:.1f} s; start: {solution.start_value()}; {tally}; longest {solution.dists.max()} plies; cached at {path}"
        )
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
