"""Learned Quixo players: the n-tuple features against a slow reference, symmetric positions sharing their
value, the fast turn values against playing every move, canonical table keys, and learning runs of Quixo
(the command end to end; determinism across worker counts and on resume is in ``tests/test_learning.py``)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from gpquarto.games.quixo.board import QuixoBoard
from gpquarto.learned.models import NTupleModel, TableModel, default_encoder, generic_turn_values
from gpquarto.learned.player import pick_turn
from tests import conftest


def random_positions(count: int, seed: int = 0, size: int = 5, **settings) -> list[QuixoBoard]:
    """Positions of seeded random games (every position, the finished ones left out)."""
    rng = random.Random(seed)
    positions: list[QuixoBoard] = []
    while len(positions) < count:
        board = QuixoBoard(size, **settings)
        while not board.is_over() and len(positions) < count:
            positions.append(board.copy())
            board.apply(rng.choice(board.legal_actions()))
    return positions


# The 8 maps of the square written out on (row, column), independently of the engine's symmetry module.
TRANSFORMS = (
    lambda r, c, n: (r, c),
    lambda r, c, n: (c, n - 1 - r),
    lambda r, c, n: (n - 1 - r, n - 1 - c),
    lambda r, c, n: (n - 1 - c, r),
    lambda r, c, n: (r, n - 1 - c),
    lambda r, c, n: (n - 1 - r, c),
    lambda r, c, n: (c, r),
    lambda r, c, n: (n - 1 - c, n - 1 - r),
)


def image(cells, transform, n):
    return tuple(n * r + c for r, c in (transform(*divmod(cell, n), n) for cell in cells))


def reference_tuples(n: int) -> list[list[tuple[int, ...]]]:
    """Lines and 2x3 / 3x2 rectangles, grouped by orbit, each orbit's images of its first member."""
    rows = [[(r, c) for c in range(n)] for r in range(n)]
    shapes = rows + [[(r, c) for r, c in [(c2, r2) for r2, c2 in row]] for row in rows]
    shapes += [[(i, i) for i in range(n)], [(i, n - 1 - i) for i in range(n)]]
    for height, width in ((2, 3), (3, 2)):
        for top in range(n - height + 1):
            for left in range(n - width + 1):
                shapes.append([(top + dr, left + dc) for dr in range(height) for dc in range(width)])
    groups: list[list[tuple[int, ...]]] = []
    for shape in shapes:
        cells = tuple(n * r + c for r, c in shape)
        if any(frozenset(cells) in {frozenset(member) for member in group} for group in groups):
            continue
        group: list[tuple[int, ...]] = []
        for transform in TRANSFORMS:
            if image(cells, transform, n) not in group:
                group.append(image(cells, transform, n))
        groups.append(group)
    return groups


def slow_value(board: QuixoBoard, weights: np.ndarray) -> float:
    """The reference: read every tuple cell by cell from the afterstate's mover's side (the player not due),
    one weight table per orbit laid out one after the other."""
    n = board.size
    mover = 1 - board.player
    offset = 0
    total = 0.0
    for group in reference_tuples(n):
        for cells in group:
            index = 0
            for k, cell in enumerate(cells):
                owner = board.cells[cell]
                code = 0 if owner == -1 else 1 if owner == mover else 2
                index += code * 3**k
            total += weights[offset + index]
        offset += 3 ** len(group[0])
    return float(np.tanh(total))


@pytest.fixture(scope="module")
def model() -> NTupleModel:
    encoder = default_encoder("quixo", {})
    return NTupleModel(encoder, np.random.default_rng(2).normal(0.0, 0.1, encoder.size))


def test_the_features_are_lines_and_rectangles_by_orbit():
    encoder = default_encoder("quixo", {})
    assert [len(group) for group in reference_tuples(5)] == [8, 8, 4, 4, 8, 8, 8, 8]
    assert encoder.size == 4 * 3**5 + 4 * 3**6 == 3888 and len(encoder.cells) == 56
    small = default_encoder("quixo", {"size": 3})
    assert small.size == sum(3 ** len(group[0]) for group in reference_tuples(3))


@pytest.mark.parametrize("size", [5, 4, 3])
def test_the_value_matches_the_slow_reference(size):
    encoder = default_encoder("quixo", {"size": size})
    model = NTupleModel(encoder, np.random.default_rng(size).normal(0.0, 0.2, encoder.size))
    for board in random_positions(60, seed=size, size=size)[1:]:
        assert model.value(board) == pytest.approx(slow_value(board, model.weights), abs=1e-12)


def mapped(board: QuixoBoard, transform, swap: bool) -> QuixoBoard:
    n = board.size
    x = o = 0
    for cell, owner in enumerate(board.cells):
        if owner == -1:
            continue
        target = image((cell,), transform, n)[0]
        if (owner == 0) != swap:
            x |= 1 << target
        else:
            o |= 1 << target
    return QuixoBoard.from_masks(x, o, board.player ^ swap, n)


def test_symmetric_positions_and_the_colour_swap_share_their_value(model):
    for board in random_positions(80, seed=4)[10::7]:
        value = model.value(board)
        for transform in TRANSFORMS:
            for swap in (False, True):
                other = mapped(board, transform, swap)
                assert model.value(other) == pytest.approx(value, abs=1e-12)
                assert other.canonical_key() == board.canonical_key()


def test_one_table_entry_serves_every_image():
    board = random_positions(30, seed=5)[-1]
    table = TableModel({board.canonical_key(): 0.375})
    assert all(table.value(mapped(board, t, s)) == 0.375 for t in TRANSFORMS for s in (False, True))


@pytest.mark.parametrize("settings", [{}, {"ply_limit": 12}, {"repetitions": 2}, {"rules": "course"}])
def test_the_fast_turn_values_are_the_played_ones(model, settings):
    encoder = default_encoder("quixo", settings)
    model = NTupleModel(encoder, model.weights)
    finals = 0
    for seed in range(4):
        for board in random_positions(40, seed=10 + seed, **settings):
            turns, values = model.turn_values(board)
            slow_turns, slow_values = generic_turn_values(board, model.value)
            assert turns == slow_turns
            assert np.allclose(values, slow_values, atol=1e-12)
            finals += int((np.abs(values) == 1).sum() + (values == 0).sum())
    assert finals > 0  # wins, losses or draws were met


def test_the_player_takes_a_win_and_the_guard_blocks_one():
    zero = NTupleModel(default_encoder("quixo", {}))
    win = QuixoBoard.from_text("XXXX./...../...../...../..... X")  # e1 pushed in from the left... any win
    turn, value = pick_turn(win.copy(), zero)
    assert value == 1.0
    after = win.copy()
    after.apply(turn[0])
    assert after.winner == 0
    # O is due; X threatens the top row: unguarded O plays its first move, guarded O leaves no win for X
    threat = QuixoBoard.from_text("XXXX./...../...../...../..... O")
    guarded, _ = pick_turn(threat.copy(), zero, guard=True)
    board = threat.copy()
    board.apply(guarded[0])
    assert not any(_wins(board, action) for action in board.legal_actions())


def _wins(board: QuixoBoard, action: int) -> bool:
    board.apply(action)
    try:
        return board.winner == board.player ^ 1
    finally:
        board.undo()


def run_cli(*args):
    return conftest.run_cli(*args, cwd=Path.cwd())


def test_learn_quixo_end_to_end(tmp_path):
    folder = tmp_path / "run"
    done = run_cli("learn", "--game", "quixo", "--size", "4", "--episodes", "30", "--seed", "1", "--run-dir",
                   str(folder), "--eval-games", "2", "--eval-opponents", "random", "--guard", "--quiet")  # fmt: skip
    assert done.returncode == 0, done.stderr
    player = str(folder / "learned_player.npz")
    match = run_cli("match", player, "random", "--game", "quixo", "--size", "4", "--games", "4", "--quiet")
    assert match.returncode == 0 and "win rate" in match.stdout, match.stderr
    shown = run_cli("show", player)
    assert "tactical guard: on" in shown.stdout and "quixo-tuples/1" in shown.stdout, shown.stdout
    wrong = run_cli("match", player, "random", "--games", "2", "--quiet")  # a Quixo player in a Quarto match
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1
