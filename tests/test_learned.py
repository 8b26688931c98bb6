"""Learned players: the n-tuple features against a slow reference, shared symmetries, canonical keys,
greedy play, and the files (plain arrays and JSON; corrupt and foreign files refused in one line)."""

from __future__ import annotations

import json
import random
import zipfile
from pathlib import Path

import numpy as np
import pytest

from gpquarto.games.quarto.board import Board, transform
from gpquarto.games.quarto.learned.tuples import PER_ORBIT, line_orbits
from gpquarto.games.quarto.pieces import CHARACTERISTICS, NO_PIECE
from gpquarto.games.quarto.symmetry import PIECE_MAPS, square_maps
from gpquarto.learned.models import NTupleModel, TableModel, default_encoder, generic_turn_values
from gpquarto.learned.player import LearnedPlayer, pick_turn
from gpquarto.learned.storage import learned_data, load_learned_player, npz_bytes, save_learned_player
from gpquarto.resolve import make_player
from tests.conftest import run_cli


def random_positions(count: int, seed: int = 0) -> list[Board]:
    """Positions of seeded random games, every decision point."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        board = Board()
        while not board.is_over():
            positions.append(board.copy())
            board.apply(rng.choice(board.legal_actions()))
    return positions[:count]


def slow_value(board: Board, weights: np.ndarray) -> float:
    """The reference: the n-tuple value of an afterstate, counted square by square, line by line."""
    orbits = line_orbits(board.rules)
    left = [p for p in range(16) if board.available_mask >> p & 1]
    total = 0.0
    for line_index, line in enumerate(board.rules.lines):
        for c in range(8):
            has = sum(
                1 for s in line if board.raw_cells[s] != NO_PIECE and CHARACTERISTICS[board.raw_cells[s]] >> c & 1
            )
            lacks = sum(1 for s in line if board.raw_cells[s] != NO_PIECE) - has
            pair = [(h, k) for h in range(5) for k in range(5 - h)].index((has, lacks))
            handed = CHARACTERISTICS[board.in_hand] >> c & 1
            with_c = sum(1 for p in left if CHARACTERISTICS[p] >> c & 1)
            total += weights[orbits[line_index] * PER_ORBIT + pair * 18 + handed * 9 + with_c]
    return float(np.tanh(total))


@pytest.fixture(scope="module")
def model() -> NTupleModel:
    encoder = default_encoder("quarto", {"rules": "classic"})
    return NTupleModel(encoder, np.random.default_rng(1).normal(0, 0.3, encoder.size))


def test_turn_values_match_the_slow_reference(model):
    for board in random_positions(120, seed=2):
        turns, values = model.turn_values(board)
        reference_turns: list = []
        reference: list[float] = []
        mover = board.player
        for turn, _ in zip(*generic_turn_values(board, lambda state: 0.0), strict=True):
            after = board.copy()
            for action in turn:
                after.apply(action)
            reference_turns.append(turn)
            if after.is_over():
                reference.append(0.0 if after.winner is None else (1.0 if after.winner == mover else -1.0))
            else:
                reference.append(slow_value(after, model.weights))
        assert turns == reference_turns
        assert np.allclose(values, reference, atol=1e-9)


def test_symmetric_afterstates_share_their_value(model):
    rng = random.Random(3)
    for board in [b for b in random_positions(200, seed=4) if b.in_hand != NO_PIECE and b.placed_count > 2][:25]:
        value = model.value(board)
        for square_map in square_maps(board.rules):
            image = transform(board, square_map, rng.choice(PIECE_MAPS))
            assert model.value(image) == pytest.approx(value, abs=1e-12)


def test_one_table_entry_serves_every_image():
    board = [b for b in random_positions(100, seed=5) if b.in_hand != NO_PIECE and b.placed_count == 5][0]
    table = TableModel({board.canonical_key(): 0.625})
    rng = random.Random(6)
    for square_map in square_maps(board.rules):
        image = transform(board, square_map, rng.choice(PIECE_MAPS))
        assert image.canonical_key() == board.canonical_key()
        assert table.value(image) == 0.625


def test_the_player_takes_the_best_turn_and_plays_it_whole(model):
    board = random_positions(30, seed=7)[9]
    turns, values = model.turn_values(board)
    turn, value = pick_turn(board.copy(), model)
    assert value == values.max() and turn == turns[int(np.argmax(values))]
    player = LearnedPlayer(model, game="quarto")
    player.new_game(board.player)
    view_board = board.copy()
    for action in turn:
        assert player.decide(view_board.view()) == action
        view_board.apply(action)


def test_the_player_takes_an_immediate_win_and_the_guard_avoids_handing_one_over():
    zero = NTupleModel(default_encoder("quarto", {}))  # every position not over is worth 0
    winning = Board.from_text("012./..../..../.... 3")  # 0, 1, 2, 3 are all short: a4 wins
    turn, value = pick_turn(winning.copy(), zero)
    assert turn == (16 + 3,) and value == 1.0
    choosing = Board.from_text("012./..../..../.... -")  # only the tall dark pieces 12..15 are safe to give
    assert pick_turn(choosing.copy(), zero)[0] == (3,)  # unguarded: the first of equal values hands a win over
    assert pick_turn(choosing.copy(), zero, guard=True)[0][0] in (12, 13, 14, 15)


def save(tmp_path, model, name="learned_player.npz", **changes):
    header, arrays = learned_data(model, game="quarto", settings={"rules": "classic"}, method="td-ntuple")
    header.update(changes)
    path = tmp_path / name
    save_learned_player(path, header, arrays)
    return path


def test_saved_players_load_by_path_and_play_the_same(tmp_path, model):
    path = save(tmp_path, model)
    loaded = make_player(str(path))
    assert isinstance(loaded, LearnedPlayer) and np.array_equal(loaded.model.weights, model.weights)
    table = TableModel({12345678901234567890123: 0.5, 7: -0.25})
    header, arrays = learned_data(table, game="quarto", settings={"rules": "classic"}, method="q-learning")
    save_learned_player(tmp_path / "table.npz", header, arrays)
    assert load_learned_player(tmp_path / "table.npz").model.table == table.table
    with zipfile.ZipFile(path) as archive:  # plain arrays only: no pickled object inside
        assert all(not archive.read(name).startswith(b"\x80") for name in archive.namelist())


def write_npz(path, arrays, header=None):
    path.write_bytes(npz_bytes(arrays, header))
    return str(path)


def corrupt_files(tmp_path, model) -> dict[str, str]:
    good = save(tmp_path, model)
    header, arrays = learned_data(model, game="quarto", settings={"rules": "classic"}, method="td-ntuple")
    files = {}
    raw = good.read_bytes()
    (tmp_path / "truncated.npz").write_bytes(raw[: len(raw) // 2])
    files["truncated"] = str(tmp_path / "truncated.npz")
    (tmp_path / "noise.npz").write_bytes(b"not a zip at all")
    files["noise"] = str(tmp_path / "noise.npz")
    files["no header"] = write_npz(tmp_path / "noheader.npz", arrays)
    files["foreign format"] = write_npz(tmp_path / "foreign.npz", arrays, {**header, "format": "other/1"})
    files["unknown game"] = write_npz(tmp_path / "game.npz", arrays, {**header, "game": "chess"})
    files["wrong shape"] = write_npz(tmp_path / "shape.npz", {"weights": np.zeros(7)}, header)
    files["not finite"] = write_npz(tmp_path / "nan.npz", {"weights": np.full(model.weights.size, np.nan)}, header)
    files["missing field"] = write_npz(
        tmp_path / "field.npz", arrays, {k: v for k, v in header.items() if k != "method"}
    )
    buffer = tmp_path / "pickled.npz"
    np.savez(
        buffer, header=np.frombuffer(json.dumps(header).encode(), np.uint8), weights=np.array([object()], dtype=object)
    )
    files["pickled object"] = str(buffer)
    return files


def test_corrupt_and_foreign_files_are_refused_in_one_line(tmp_path, model):
    for what, path in corrupt_files(tmp_path, model).items():
        with pytest.raises(ValueError) as error:
            make_player(path)
        message = str(error.value)
        assert "\n" not in message and path in message, (what, message)


def test_the_command_line_refuses_a_corrupt_player_in_one_line(tmp_path, model):
    path = corrupt_files(tmp_path, model)["truncated"]
    done = run_cli("match", path, "random", "--games", "2", "--quiet", cwd=Path.cwd())
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and done.stderr.startswith("gpquarto: error:")


def test_a_player_of_another_game_is_refused(tmp_path, model):
    path = save(tmp_path, model)
    with pytest.raises(ValueError, match="not chess|unknown game"):
        load_learned_player(path, game="chess")


def test_a_learned_player_is_a_leaf_evaluator_for_minimax(tmp_path, model):
    from gpquarto.games.quarto.learned.evaluator import load_learned_evaluator

    path = save(tmp_path, model)
    evaluator = load_learned_evaluator(path)
    for board in [b for b in random_positions(80, seed=9) if b.in_hand != NO_PIECE and not b.is_over()][:20]:
        # the position with a piece in hand is the hander's afterstate: scored for the player to move
        assert evaluator(board) == -round(100 * slow_value(board, model.weights))
    player = make_player(f"minimax:depth=1,evaluator={path}")
    assert player.name == f"minimax:depth=1,evaluator={path}"
    board = Board.from_text("012./..../..../.... 3")
    assert player.place_piece(board.view(), board.in_hand) == 3  # the search still sees the win
    with pytest.raises(ValueError, match="not quarto"):
        load_learned_evaluator(save_quixo(tmp_path))


def save_quixo(tmp_path):
    quixo = NTupleModel(default_encoder("quixo", {"size": 3}))
    header, arrays = learned_data(quixo, game="quixo", settings={"size": 3}, method="td-ntuple")
    save_learned_player(tmp_path / "quixo.npz", header, arrays)
    return tmp_path / "quixo.npz"


def test_the_guard_travels_in_the_file_and_can_be_overridden(tmp_path, model):
    header, arrays = learned_data(model, game="quarto", settings={"rules": "classic"}, method="td-ntuple", guard=True)
    save_learned_player(tmp_path / "guarded.npz", header, arrays)
    assert make_player(str(tmp_path / "guarded.npz")).guard is True
    assert load_learned_player(tmp_path / "guarded.npz", guard=False).guard is False
    assert make_player(str(save(tmp_path, model))).guard is False
    with pytest.raises(ValueError, match="'guard' must be true or false"):
        save_learned_player(tmp_path / "bad.npz", {**header, "guard": "yes"}, arrays)


def test_grading_asks_a_learned_player_through_the_game_interface():
    from gpquarto.grading.bank import BankPosition
    from gpquarto.grading.grade import decide

    player = LearnedPlayer(NTupleModel(default_encoder("quarto", {})), game="quarto")
    placing = BankPosition("012./..../..../.... 3", 1, (16 + 3,), 0)
    assert decide(player, placing, seed=1)[:2] == (16 + 3, "")  # the winning placement, as the game's action
    choosing = BankPosition("012./..../..../.... -", 0, (12,), 0)
    assert decide(player, choosing, seed=1)[:2] == (pick_turn(choosing.board(), player.model)[0][0], "")
