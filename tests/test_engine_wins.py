"""Winning lines, winners, advanced blocks and draws, checked against a slow reference written here."""

from __future__ import annotations

import itertools
import random

import pytest

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.lines import ADVANCED_LINES, BLOCKS, CLASSIC_LINES, Rules

# ---------------------------------------------------------------- slow reference, independent of the engine
# The lines written out by hand from the rules: rows, columns, two diagonals; advanced adds 2x2 blocks.
REFERENCE_CLASSIC = [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
    [8, 9, 10, 11],
    [12, 13, 14, 15],
    [0, 4, 8, 12],
    [1, 5, 9, 13],
    [2, 6, 10, 14],
    [3, 7, 11, 15],
    [0, 5, 10, 15],
    [3, 6, 9, 12],
]
REFERENCE_BLOCKS = [
    [4 * r + c, 4 * r + c + 1, 4 * (r + 1) + c, 4 * (r + 1) + c + 1] for r in range(3) for c in range(3)
]


def reference_lines(rules: Rules) -> list[list[int]]:
    return REFERENCE_CLASSIC + (REFERENCE_BLOCKS if rules is Rules.ADVANCED else [])


def shared_characteristics(pieces: list[int]) -> list[tuple[int, int]]:
    """The (attribute bit, value) pairs that all the pieces have."""
    return [(bit, value) for bit in range(4) for value in (0, 1) if all((p >> bit) & 1 == value for p in pieces)]


def reference_winning_lines(cells: list[int], rules: Rules) -> list[list[int]]:
    found = []
    for line in reference_lines(rules):
        pieces = [cells[s] for s in line]
        if -1 not in pieces and shared_characteristics(pieces):
            found.append(line)
    return found


def random_game(rng: random.Random, rules: Rules) -> Board:
    board = Board(rules)
    while not board.is_over():
        board.apply(rng.choice(board.legal_actions()))
    return board


def play_pieces(board: Board, placements: list[tuple[int, int]]) -> None:
    """Choose then place each (piece, square) in turn."""
    for piece, square in placements:
        board.choose(piece)
        board.place(square)


# ---------------------------------------------------------------- the line tables
def test_engine_lines_match_the_hand_written_lines() -> None:
    assert sorted(map(sorted, CLASSIC_LINES)) == sorted(REFERENCE_CLASSIC)
    assert sorted(map(sorted, ADVANCED_LINES)) == sorted(REFERENCE_CLASSIC + REFERENCE_BLOCKS)
    assert sorted(map(sorted, Rules.CLASSIC.lines)) == sorted(REFERENCE_CLASSIC)
    assert len(Rules.ADVANCED.lines) == 19 and len(set(map(frozenset, ADVANCED_LINES))) == 19


# ---------------------------------------------------------------- every line, every characteristic
def quartet_sharing_exactly(bit: int, value: int) -> list[int]:
    """Four distinct pieces whose only shared characteristic is (bit, value)."""
    others = [b for b in range(4) if b != bit]
    patterns = [(0, 0, 0), (1, 1, 1), (0, 0, 1), (1, 1, 0)]  # no other bit is constant over these four
    pieces = []
    for pattern in patterns:
        piece = value << bit
        for other, v in zip(others, pattern, strict=True):
            piece |= v << other
        pieces.append(piece)
    return pieces


CHARACTERISTICS_8 = [(bit, value) for bit in range(4) for value in (0, 1)]


@pytest.mark.parametrize("rules", list(Rules))
@pytest.mark.parametrize("line", CLASSIC_LINES)
@pytest.mark.parametrize("bit,value", CHARACTERISTICS_8)
@pytest.mark.parametrize("filler", [False, True])
def test_each_line_wins_with_each_characteristic(
    line: tuple[int, ...], bit: int, value: int, rules: Rules, filler: bool
) -> None:
    pieces = quartet_sharing_exactly(bit, value)
    assert len(set(pieces)) == 4 and shared_characteristics(pieces) == [(bit, value)]
    board = Board(rules)
    if filler:  # one extra piece first, off the line, so that the other player makes the line
        spare = next(p for p in range(16) if p not in pieces)
        off_line = next(s for s in range(16) if s not in line)
        play_pieces(board, [(spare, off_line)])
    play_pieces(board, list(zip(pieces[:3], line[:3], strict=True)))
    assert board.winner is None and not board.is_over()
    board.choose(pieces[3])
    placer = board.player
    board.place(line[3])
    last = board.placed_count - 1  # index k of the winning piece; its placer is (k + 1) % 2
    assert board.winner == placer == (last + 1) % 2
    assert board.winner == (1 if filler else 0)
    assert board.is_over() and not board.is_draw()
    assert [sorted(found) for found in board.winning_lines()] == [sorted(line)]


@pytest.mark.parametrize("rules", list(Rules))
@pytest.mark.parametrize("line", CLASSIC_LINES)
def test_four_pieces_sharing_nothing_do_not_win(line: tuple[int, ...], rules: Rules) -> None:
    rng = random.Random(len(line) * 100 + line[0] * 10 + line[-1])
    quartets = [q for q in itertools.combinations(range(16), 4) if not shared_characteristics(list(q))]
    for pieces in rng.sample(quartets, 5):
        board = Board(rules)
        play_pieces(board, list(zip(pieces, line, strict=True)))
        assert board.winner is None and not board.is_over()
        assert board.winning_lines() == []


@pytest.mark.parametrize("block", BLOCKS)
def test_blocks_win_only_under_advanced_rules(block: tuple[int, ...]) -> None:
    pieces = quartet_sharing_exactly(2, 1)
    for rules in Rules:
        board = Board(rules)
        play_pieces(board, list(zip(pieces, block, strict=True)))
        if rules is Rules.ADVANCED:
            assert board.winner == 0 and [sorted(b) for b in board.winning_lines()] == [sorted(block)]
        else:
            assert board.winner is None and board.winning_lines() == [] and not board.is_over()


# ---------------------------------------------------------------- nothing else wins: random games
@pytest.mark.parametrize("rules", list(Rules))
def test_random_games_agree_with_the_reference(rules: Rules) -> None:
    rng = random.Random(20240 + len(rules.lines))
    draws = 0
    for game in range(150):
        careful = game % 2 == 1  # every other game avoids immediate wins when it can: more draws, later wins
        board = Board(rules)
        while not board.is_over():
            piece = rng.choice(board.legal_pieces())
            board.choose(piece)
            cells = list(board.cells)
            # every candidate square: is_winning_placement and winning_squares agree with the reference
            expected_squares = []
            for square in board.legal_squares():
                trial = cells[:]
                trial[square] = piece
                wins = bool(reference_winning_lines(trial, rules))
                assert board.is_winning_placement(square, piece) == wins
                if wins:
                    expected_squares.append(square)
            assert board.winning_squares(piece) == tuple(expected_squares)
            placer = board.player
            assert placer == (board.placed_count + 1) % 2
            square = rng.choice(
                [s for s in board.legal_squares() if not careful or s not in expected_squares] or expected_squares
            )
            board.place(square)
            expected_lines = reference_winning_lines(list(board.cells), rules)
            assert board.winner == (placer if expected_lines else None)
            assert sorted(map(sorted, board.winning_lines())) == sorted(expected_lines)
            assert board.is_over() == bool(expected_lines or board.placed_count == 16)
            assert board.is_draw() == (not expected_lines and board.placed_count == 16)
        draws += board.is_draw()
    assert draws > 0, "careful random games should contain draws"


# ---------------------------------------------------------------- draws
def find_draw(rules: Rules, seed: int) -> Board:
    """A random game that ends in a draw, found by a seeded search (placing on non-winning squares)."""
    rng = random.Random(seed)
    while True:
        board = Board(rules)
        while not board.is_over():
            if board.choice_due:
                board.choose(rng.choice(board.legal_pieces()))
            else:
                safe = [s for s in board.legal_squares() if not board.is_winning_placement(s, board.in_hand)]
                board.place(rng.choice(safe or list(board.legal_squares())))
        if board.is_draw():
            return board


# A full classic board without a winning line, found once by a seeded search and written out here.
CONSTRUCTED_DRAW = "F241/3E6C/870B/A59D -"


def test_constructed_draw() -> None:
    rows = CONSTRUCTED_DRAW.split()[0].split("/")
    cells = [int(char, 16) for row in rows for char in row]
    assert sorted(cells) == list(range(16)) and reference_winning_lines(cells, Rules.CLASSIC) == []
    board = Board()
    for square in range(16):  # any order: a full board without a line never had a line
        assert board.winner is None and not board.is_over() and not board.is_draw()
        board.choose(cells[square])
        board.place(square)
    assert board.is_over() and board.is_draw() and board.winner is None
    assert board.legal_actions() == () and board.legal_pieces() == () and board.legal_squares() == ()
    assert board.text() == CONSTRUCTED_DRAW
    assert Board.from_text(CONSTRUCTED_DRAW).is_draw()


@pytest.mark.parametrize("rules", list(Rules))
def test_draws_found_by_search_agree_with_the_reference(rules: Rules) -> None:
    board = find_draw(rules, seed=7)
    assert reference_winning_lines(list(board.cells), rules) == []
    assert board.is_draw() and board.is_over() and board.winner is None and board.placed_count == 16
    parsed = Board.from_text(board.text())
    assert parsed.is_draw() and parsed.rules is rules


def test_replaying_classic_draws_under_advanced_rules_stops_at_the_first_block() -> None:
    blocked = 0
    for seed in range(30):
        history = find_draw(Rules.CLASSIC, seed=seed).history
        advanced = Board(Rules.ADVANCED)
        for action in history:
            if advanced.is_over():
                break
            advanced.apply(action)
            if action >= 16:
                expected = reference_winning_lines(list(advanced.cells), Rules.ADVANCED)
                assert all(line in REFERENCE_BLOCKS for line in expected)  # the classic game had no line
                assert (advanced.winner is not None) == bool(expected)
        blocked += advanced.winner is not None
    assert blocked > 0, "some classic draws should contain a 2x2 block sharing a characteristic"
