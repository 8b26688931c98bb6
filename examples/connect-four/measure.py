"""Measurements of the Connect Four plug-in (run where the package is installed; figures are medians, the machine
may be shared):

    python examples/connect-four/measure.py alphabeta [--depth 4] [--positions 40] [--seed 0]
        seconds per decision of gpquarto's generic alpha-beta (with the game's search hooks) on seeded 7x6 positions
    python examples/connect-four/measure.py playouts [--seconds 2] [--repeats 5]
        random playouts per second on 7x6: the bitboard engine (through the game interface) and the slow reference
        of the tests
    python examples/connect-four/measure.py solver [--empty 28] [--positions 12]
        seconds per exact solve of 7x6 positions with that many empty cells, reached by sensible play (take a win,
        block one, never drop under the opponent's winning cell)

MCTS against random is a plain match:
``python -m gpquarto match mcts:iterations=1000 random --game connect_four --games 200``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from connect_four.game import CONNECT_FOUR, ConnectFourState


def random_position(rng: random.Random, plies: int) -> ConnectFourState:
    state = CONNECT_FOUR.new_state()
    for _ in range(plies):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def measure_alphabeta(args: argparse.Namespace) -> None:
    from gpquarto.resolve import make_player

    rng, spec, times = random.Random(args.seed), f"alphabeta:depth={args.depth}", []
    while len(times) < args.positions:
        state = random_position(rng, rng.randrange(0, 24))
        if state.is_over():
            continue
        player = make_player(spec, game="connect_four")  # a fresh transposition table for every position
        started = time.perf_counter()
        player.decide(state.view())
        times.append(time.perf_counter() - started)
    times.sort()
    print(
        f"{spec}: {len(times)} positions, median {statistics.median(times):.3f} s, "
        f"90th percentile {times[int(0.9 * len(times))]:.3f} s, max {times[-1]:.3f} s"
    )


def measure_playouts(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))
    from reference import SlowConnectFour

    def engine(rng: random.Random) -> None:
        state = CONNECT_FOUR.new_state()
        while not state.is_over():
            actions = state.legal_actions()
            state.apply(actions[int(rng.random() * len(actions))])

    def reference(rng: random.Random) -> None:
        game = SlowConnectFour()
        while actions := game.legal():
            game.drop(actions[int(rng.random() * len(actions))])

    for name, playout in (("engine", engine), ("reference", reference)):
        rates = []
        for repeat in range(args.repeats):
            rng, done, started = random.Random(repeat), 0, time.perf_counter()
            while time.perf_counter() - started < args.seconds:
                playout(rng)
                done += 1
            rates.append(done / (time.perf_counter() - started))
        print(
            f"{name}: median {statistics.median(rates):,.0f} playouts/s ({args.repeats} repeats of {args.seconds:g} s)"
        )


def sensible_move(state: ConnectFourState, rng: random.Random) -> int:
    def wins(trial: ConnectFourState, action: int) -> bool:
        trial.apply(action)
        won = trial.outcome() is not None and trial.outcome().winner is not None
        trial.undo()
        return won

    actions = state.legal_actions()
    for action in actions:
        if wins(state, action):
            return action
    safe = []
    for action in actions:
        state.apply(action)
        if state.is_over() or not any(wins(state, reply) for reply in state.legal_actions()):
            safe.append(action)
        state.undo()
    return rng.choice(safe or actions)


def measure_solver(args: argparse.Namespace) -> None:
    from connect_four.solver import ConnectFourSolver

    rng, times = random.Random(args.empty), []
    while len(times) < args.positions:
        state = CONNECT_FOUR.new_state()
        while not state.is_over() and 42 - len(state.history) > args.empty:
            state.apply(sensible_move(state, rng))
        if state.is_over():
            continue
        solver = ConnectFourSolver(max_empty=42, max_nodes=10**10)  # an empty transposition table each time
        started = time.perf_counter()
        solver.solve(state)
        times.append(time.perf_counter() - started)
    print(
        f"{args.empty} empty cells: {len(times)} positions, median {statistics.median(times):.2f} s, "
        f"max {max(times):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="what", required=True)
    alphabeta = commands.add_parser("alphabeta")
    alphabeta.add_argument("--depth", type=int, default=4)
    alphabeta.add_argument("--positions", type=int, default=40)
    alphabeta.add_argument("--seed", type=int, default=0)
    playouts = commands.add_parser("playouts")
    playouts.add_argument("--seconds", type=float, default=2.0)
    playouts.add_argument("--repeats", type=int, default=5)
    solver = commands.add_parser("solver")
    solver.add_argument("--empty", type=int, default=28)
    solver.add_argument("--positions", type=int, default=12)
    args = parser.parse_args()
    {"alphabeta": measure_alphabeta, "playouts": measure_playouts, "solver": measure_solver}[args.what](args)


if __name__ == "__main__":
    main()
