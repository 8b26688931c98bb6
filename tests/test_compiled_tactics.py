"""The compiled lookahead tactics (numba, ``gpquarto[fast]``) against the pure-Python code they replace, the
reference: the same facts and the same primitive values on many seeded positions of both rule sets."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.features import Features
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.pieces import MEMBERS, NO_PIECE
from gpquarto.games.quarto.primitives import lookahead
from gpquarto.games.quarto.search import compiled_tactics, tactics
from gpquarto.games.quarto.search.negamax import Negamax
from tests.helpers import random_positions

pytestmark = pytest.mark.skipif(not compiled_tactics.AVAILABLE, reason="numba is not installed (extra: fast)")

#: Every primitive of the family that reads a fact the compiled functions give.
PRIMITIVES = (
    "square_leaving_odd_safe_pieces",
    "square_leaving_even_safe_pieces",
    "piece_leaving_no_safe_placement",
    "piece_leaving_fewest_safe_placements",
    "square_leaving_fewest_reply_placements",
    "trap_square",
)


def careful_positions(seed: int, count: int, rules: Rules) -> list[Board]:
    """Positions of seeded random games that give a safe piece and place without winning whenever they can, so
    that they reach the endgame (purely random games mostly end in the middle game), stopped after 1 to 31
    actions."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = Board(rules)
        for _ in range(rng.randrange(1, 32)):
            if board.is_over():
                break
            if board.in_hand == NO_PIECE:
                board.push_choice(rng.choice(tactics.safe_pieces(board) or board.legal_pieces()))
            else:
                winning = tactics.winning_squares(board, board.in_hand)
                quiet = [square for square in board.legal_squares() if square not in winning]
                board.push_placement(rng.choice(quiet or board.legal_squares()))
        if not board.is_over():
            found.append(board)
    return found


@pytest.fixture(scope="module", params=list(Rules), ids=lambda rules: rules.value)
def positions(request):
    """Positions of seeded games from the first action to the last, choices and placements alike: half from
    careful random games (mostly endgames), half from random ones."""
    seed = 360 + list(Rules).index(request.param)
    return careful_positions(seed, 400, request.param) + random_positions(seed, 400, request.param, max_actions=32)


def answers(board, monkeypatch, compiled: bool) -> list:
    """Every primitive of :data:`PRIMITIVES` and ``reply_safe_placements`` of every piece, each on fresh features of
    ``board``'s view and of the board itself (a Board's cells are a list), with or without the compiled tactics."""
    monkeypatch.setattr(compiled_tactics, "ENABLED", compiled)
    found = []
    for source in (board.view(), board):
        found += [getattr(lookahead, name)(Features(source)) for name in PRIMITIVES]
        features = Features(source)
        found += [lookahead.reply_safe_placements(features, piece) for piece in range(16)]
    return found


def test_the_primitives_answer_as_with_the_pure_python_tactics(positions, monkeypatch):
    looked = 0
    for board in positions:
        assert answers(board, monkeypatch, True) == answers(board, monkeypatch, False), board.text()
        looked += board.in_hand != NO_PIECE and len(board.empty_squares()) <= lookahead.REPLY_LOOK_HORIZON
    assert looked > 100


def pure_safe_left(board) -> list[int]:
    """:func:`compiled_tactics.safe_left_after` written with the pure-Python tactics."""
    left = [-1] * 16
    winning = tactics.winning_squares(board, board.in_hand)
    for square in MEMBERS[tactics.safe_placements_mask(board, board.in_hand)]:
        if square not in winning:
            placed = board.copy()
            placed.push_placement(square)
            left[square] = tactics.safe_pieces_mask(placed).bit_count()
    return left


def test_each_compiled_fact_equals_its_pure_python_definition(positions):
    compared = 0
    for board in positions:
        cells, available = tuple(board.raw_cells), board.available_mask
        if board.in_hand == NO_PIECE:
            masks = [-1] * 16
            for piece in tactics.safe_pieces(board):
                given = board.copy()
                given.push_choice(piece)
                masks[piece] = tactics.safe_placements_mask(given, piece)
            assert compiled_tactics.reply_masks(cells, available, board.rules) == masks
            fewest = lookahead._fewest_reply_placements(board.copy(), lookahead._reply_squares(board.copy()))
            packed = [-1] * 16
            for piece, (count, odd) in fewest.items():
                packed[piece] = count * 64 + odd
            horizon = lookahead.REPLY_LOOK_HORIZON
            assert compiled_tactics.fewest_replies(cells, available, board.rules, horizon) == packed
        else:
            in_hand = board.in_hand
            assert compiled_tactics.safe_left_after(cells, in_hand, available, board.rules) == pure_safe_left(board)
            traps = [
                square for square, left in enumerate(pure_safe_left(board)) if left >= 0 and _sets_a_trap(board, square)
            ]
            assert compiled_tactics.trap_square(cells, in_hand, available, board.rules) == min(traps, default=-1)
        compared += 1
    assert compared == len(positions)


def _sets_a_trap(board, square: int) -> bool:
    """Some safe piece, not the last one, leaves the opponent no safe placement once the piece in hand is on
    ``square`` (with the pure-Python tactics)."""
    placed = board.copy()
    placed.push_placement(square)
    for piece in tactics.safe_pieces(placed):
        if placed.available_mask == 1 << piece:
            continue
        given = placed.copy()
        given.push_choice(piece)
        if not tactics.safe_placements_mask(given, piece):
            return True
    return False


def test_an_environment_variable_keeps_the_pure_python_tactics():
    code = "from gpquarto.games.quarto.search import compiled_tactics as c; print(c.ENABLED, c.enabled())"
    for value, expected in (("1", "False False"), ("0", "True True"), ("", "True True")):
        environment = {**os.environ, "GPQUARTO_PURE_PYTHON": value}
        result = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True)
        assert result.stdout.split() == expected.split(), result.stderr


@pytest.mark.parametrize("heuristic", sorted(compiled_tactics.SEARCH_KINDS))
def test_the_compiled_placement_search_finds_what_the_fast_search_finds(positions, monkeypatch, heuristic):
    searched = 0
    for board in positions:
        if board.in_hand == NO_PIECE:
            continue
        found = []
        for compiled in (True, False):
            monkeypatch.setattr(compiled_tactics, "ENABLED", compiled)
            search = Negamax(heuristic)
            result = search.best_placement(board, 2)
            found.append((result.value, result.best_moves, search.nodes))  # the moves in the same order
        assert found[0] == found[1], board.text()
        searched += 1
    assert searched > 300


def printed_in_a_fresh_interpreter(code: str) -> list[str]:
    """The words ``code`` prints in a fresh interpreter, where nothing has loaded the compiled search yet; ``code``
    finds ``compiled_tactics`` as ``c`` and ``make_player`` imported."""
    prelude = (
        "from gpquarto.games.quarto.search import compiled_tactics as c\nfrom gpquarto.resolve import make_player\n"
    )
    result = subprocess.run([sys.executable, "-c", prelude + code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.split()


def test_a_minimax_player_loads_its_compiled_search_before_the_game_not_in_a_timed_decision():
    """numba loads a kernel on its first call (a second or more): ``new_game`` makes that call, outside the clock
    that a match's time limit reads, and only for a search that calls the kernel (a depth-6 search never does, and
    a process that does not call it does not import numba: it costs memory in every web worker)."""
    code = (
        "make_player('minimax:depth=2,heuristic=guaranteed_loss').new_game(0); print(c._warm)\n"
        "make_player('minimax:depth=6').new_game(0); print(c._warm)\n"
        "player = make_player('minimax:depth=2'); print(c._warm); player.new_game(0); print(c._warm)\n"
    )
    assert printed_in_a_fresh_interpreter(code) == ["False", "False", "False", "True"]


@pytest.mark.parametrize("spec", ["minimax:depth=16", "minimax:depth=3,strategy=deepest", "minimax:depth=6,seconds=1"])
def test_a_minimax_that_deepens_through_depth_2_in_a_budget_loads_the_compiled_search_before_the_clock(spec):
    """A search that deepens within a budget passes depth 2 and calls the compiled two-ply search. A match's time
    limit is in force around ``new_game``, which loads it then, outside the timed decisions. Without a budget the
    same player does not load it (unless its own ``seconds`` is a budget)."""
    if not compiled_tactics.enabled():
        pytest.skip("the compiled search is off here (no numba, or GPQUARTO_PURE_PYTHON)")
    code = (
        "from gpquarto.search.budget import time_budget\n"
        f"player = make_player({spec!r}, seed=1)\n"
        "player.new_game(0); print(c._warm)\n"
        "with time_budget(0.5):\n"
        "    player.new_game(0); print(c._warm)\n"
    )
    assert printed_in_a_fresh_interpreter(code) == ["True" if "seconds" in spec else "False", "True"]
