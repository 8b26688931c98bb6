"""The built-in primitives on many random positions: the contract for every one, slow references for a subset.

The references below read the board cell by cell and work out characteristics from the piece bits
(bit 3 tall, 2 coloured, 1 solid, 0 square; characteristic c < 4 = has bit c, c >= 4 = lacks bit c-4),
without the engine's characteristic tables or the features' caches.
"""

from __future__ import annotations

import itertools
import random

import pytest

from gpquarto.games.quarto.board import Board
from gpquarto.games.quarto.gp.features import Features
from gpquarto.games.quarto.lines import Rules
from gpquarto.gp.library import load_library
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.gp.types import NO_ACTION, Characteristic, Count, Piece, Square

ROWS = [[4 * row + col for col in range(4)] for row in range(4)]
COLUMNS = [[4 * row + col for row in range(4)] for col in range(4)]
DIAGONAL, ANTI_DIAGONAL = [0, 5, 10, 15], [3, 6, 9, 12]


def has(piece: int, characteristic: int) -> bool:
    bit = piece >> (characteristic % 4) & 1
    return bool(bit) if characteristic < 4 else not bit


def random_positions(count: int, seed: int) -> list[Board]:
    """Positions from random play, both decisions, both rule sets, every stage; none finished."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        board = Board(rng.choice(list(Rules)))
        stop = rng.randrange(32)
        while not board.is_over() and len(board.history) < stop:
            actions = board.legal_actions()
            board.apply(actions[rng.randrange(len(actions))])
        if not board.is_over():
            positions.append(board)
    return positions


POSITIONS = random_positions(300, seed=2024)


@pytest.fixture(scope="module")
def library() -> PrimitiveLibrary:
    return load_library(entry_points=False)


class Reference:
    """Slow facts about one position."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.cells = list(board.cells)
        self.in_hand = board.in_hand
        self.empty = [square for square in range(16) if self.cells[square] == -1]
        used = set(self.cells) | {self.in_hand}
        self.available = [piece for piece in range(16) if piece not in used]

    def pieces(self, squares):
        return [self.cells[square] for square in squares if self.cells[square] != -1]

    def present(self, squares, characteristic):
        return any(has(piece, characteristic) for piece in self.pieces(squares))

    def count(self, squares):
        return len(self.pieces(squares))

    def pick(self, lines, most, not_complete=False):
        candidates = [index for index, line in enumerate(lines) if not (not_complete and self.count(line) == 4)]
        if not candidates:
            return None
        sign = -1 if most else 1
        return lines[min(candidates, key=lambda index: (sign * self.count(lines[index]), index))]

    def first_empty(self, squares):
        free = [square for square in squares if square in self.empty] if squares else []
        return min(free) if free else NO_ACTION

    def first_piece(self, test):
        found = [piece for piece in self.available if test(piece)]
        return min(found) if found else NO_ACTION

    def shared(self, squares):
        pieces = self.pieces(squares) if squares else []
        return [c for c in range(8) if pieces and all(has(piece, c) for piece in pieces)]

    def similarity(self, piece, squares):
        return sum(has(piece, c) for c in self.shared(squares))

    def commonness(self, piece):
        placed = self.pieces(range(16))
        return sum(sum(has(other, c) for other in placed) for c in range(8) if has(piece, c))

    def wins(self, cells):
        """Brute force: some line of the rules is full and its pieces share a characteristic."""
        for line in self.board.rules.lines:
            pieces = [cells[square] for square in line]
            if -1 not in pieces and any(all(has(piece, c) for piece in pieces) for c in range(8)):
                return True
        return False

    def winning_squares(self, piece, cells=None):
        cells = self.cells if cells is None else cells
        return [
            square
            for square in range(16)
            if cells[square] == -1 and self.wins(cells[:square] + [piece] + cells[square + 1 :])
        ]

    def safe_pieces(self, cells=None, available=None):
        available = self.available if available is None else available
        return [piece for piece in available if not self.winning_squares(piece, cells)]

    def fit(self, piece, square):
        """Pieces on the fullest line through empty ``square`` (not empty, not full) whose pieces all share a
        characteristic with ``piece``; 0 when there is none."""
        best = 0
        for line in self.board.rules.lines:
            pieces = self.pieces(line)
            if square in line and 0 < len(pieces) < 4:
                if any(has(piece, c) and all(has(other, c) for other in pieces) for c in range(8)):
                    best = max(best, len(pieces))
        return best

    def piece_fit(self, piece):
        return max((self.fit(piece, square) for square in self.empty), default=0)

    def tightest_safe_square(self):
        winning = self.winning_squares(self.in_hand)
        if winning:
            return winning[0]
        left = {}
        for square in self.safe_squares():
            cells = self.cells[:square] + [self.in_hand] + self.cells[square + 1 :]
            left[square] = len(self.safe_pieces(cells))
        return min(left, key=lambda square: (left[square], square)) if left else NO_ACTION

    def safe_squares(self):
        if self.in_hand == -1:
            return []
        safe = []
        for square in self.empty:
            cells = self.cells[:square] + [self.in_hand] + self.cells[square + 1 :]
            if self.wins(cells) or self.safe_pieces(cells):
                safe.append(square)
        return safe


def better(a, b, score, higher):
    if a == NO_ACTION:
        return b
    if b == NO_ACTION:
        return a
    return a if (score(a) >= score(b) if higher else score(a) <= score(b)) else b


def extreme(items, score, pick):
    """The lowest item whose score is ``pick`` (max or min) of all scores; NO_ACTION when there is none."""
    if not items:
        return NO_ACTION
    target = pick(score(item) for item in items)
    return min(item for item in items if score(item) == target)


def expected_values(ref: Reference, characteristic: int, a: int, b: int, pa: int, pb: int) -> dict:
    """Reference value of each primitive checked here, for child values a, b (squares) and pa, pb (pieces)."""
    c = characteristic
    least_row, most_row = ref.pick(ROWS, most=False), ref.pick(ROWS, most=True)
    least_column, most_column = ref.pick(COLUMNS, most=False), ref.pick(COLUMNS, most=True)
    open_row, open_column = ref.pick(ROWS, True, True), ref.pick(COLUMNS, True, True)
    counts = [sum(has(piece, k) for piece in ref.pieces(range(16))) for k in range(8)]
    winning = ref.winning_squares(ref.in_hand) if ref.in_hand != -1 else []
    safe = ref.safe_pieces()
    safe_squares = ref.safe_squares()
    column_count = lambda square: ref.count(COLUMNS[square % 4])  # noqa: E731
    row_count = lambda square: ref.count(ROWS[square // 4])  # noqa: E731
    diagonal_count = lambda square: ref.count(DIAGONAL) if square in DIAGONAL else 0  # noqa: E731
    hand_fit = lambda square: ref.fit(ref.in_hand, square)  # noqa: E731
    return {
        ("in_diagonal", (c,)): ref.present(DIAGONAL, c),
        ("not_in_anti_diagonal", (c,)): not ref.present(ANTI_DIAGONAL, c),
        ("in_least_used_row", (c,)): ref.present(least_row, c),
        ("not_in_least_used_column", (c,)): not ref.present(least_column, c),
        ("in_most_used_row_not_complete", (c,)): open_row is not None and ref.present(open_row, c),
        ("not_in_most_used_column_not_complete", (c,)): open_column is not None and not ref.present(open_column, c),
        ("in_hand_has", (c,)): ref.in_hand != -1 and has(ref.in_hand, c),
        ("most_used_characteristic", ()): counts.index(max(counts)),
        ("least_used_characteristic", ()): counts.index(min(counts)),
        ("diagonal_shares", ()): ref.count(DIAGONAL) >= 2 and bool(ref.shared(DIAGONAL)),
        ("pieces_left", ()): len(ref.available),
        ("pieces_placed", ()): 16 - len(ref.empty),
        ("pieces_in_anti_diagonal", ()): ref.count(ANTI_DIAGONAL),
        ("pieces_in_most_used_row", ()): ref.count(most_row),
        ("pieces_in_least_used_column", ()): ref.count(least_column),
        ("pieces_in_most_used_column", ()): ref.count(most_column),
        ("pieces_in_most_used_column_not_complete", ()): ref.count(open_column) if open_column else 0,
        ("pieces_with", (c,)): counts[c],
        ("diagonal_square", ()): ref.first_empty(DIAGONAL),
        ("corner_square", ()): ref.first_empty([0, 3, 12, 15]),
        ("inside_square", ()): ref.first_empty([5, 6, 9, 10]),
        ("least_used_row_square", ()): ref.first_empty(least_row),
        ("most_used_column_square", ()): ref.first_empty(open_column),
        ("tall_piece", ()): ref.first_piece(lambda piece: piece & 8),
        ("round_piece", ()): ref.first_piece(lambda piece: not piece & 1),
        ("piece_with", (c,)): ref.first_piece(lambda piece: has(piece, c)),
        ("piece_without", (c,)): ref.first_piece(lambda piece: not has(piece, c)),
        ("first_free_square", (a, b)): a if a in ref.empty else b,
        ("first_available_piece", (pa, pb)): pa if pa in ref.available else pb,
        ("square_in_fuller_column", (a, b)): better(a, b, column_count, True),
        ("square_in_emptier_column", (a, b)): better(a, b, column_count, False),
        ("square_in_emptier_row", (a, b)): better(a, b, row_count, False),
        ("square_on_fuller_diagonal", (a, b)): better(a, b, diagonal_count, True),
        ("piece_more_like_fullest_row", (pa, pb)): better(pa, pb, lambda piece: ref.similarity(piece, open_row), True),
        ("piece_less_like_diagonal", (pa, pb)): better(pa, pb, lambda piece: ref.similarity(piece, DIAGONAL), False),
        ("rarer_piece", (pa, pb)): better(pa, pb, ref.commonness, False),
        ("winning_square", ()): winning[0] if winning else NO_ACTION,
        ("winning_square_exists", ()): bool(winning),
        ("safe_piece", ()): safe[0] if safe else NO_ACTION,
        ("is_safe_piece", (pa,)): pa in safe,
        ("safe_pieces_left", ()): len(safe),
        ("safe_square", ()): safe_squares[0] if safe_squares else NO_ACTION,
        ("is_safe_square", (a,)): a in safe_squares,
        ("best_fit_square", ()): extreme(ref.empty, hand_fit, max) if ref.in_hand != -1 else NO_ACTION,
        ("worst_fit_square", ()): extreme(ref.empty, hand_fit, min) if ref.in_hand != -1 else NO_ACTION,
        ("hand_fit", ()): max(map(hand_fit, ref.empty), default=0) if ref.in_hand != -1 else 0,
        ("least_fitting_piece", ()): extreme(ref.available, ref.piece_fit, min),
        ("most_fitting_piece", ()): extreme(ref.available, ref.piece_fit, max),
        ("tightest_safe_square", ()): ref.tightest_safe_square() if ref.in_hand != -1 else NO_ACTION,
    }


def call(spec, features, children):
    return spec.function(features, *children) if spec.uses_features else spec.function(*children)


def test_representative_primitives_match_slow_references(library):
    rng = random.Random(11)
    checked = set()
    for board in POSITIONS[:120]:
        ref = Reference(board)
        squares = ref.empty + [NO_ACTION] + [square for square in range(16) if square not in ref.empty][:1]
        pieces = ref.available + [NO_ACTION]
        children = (rng.randrange(8), rng.choice(squares), rng.choice(squares), rng.choice(pieces), rng.choice(pieces))
        features = Features(board.view())
        for (name, arguments), expected in expected_values(ref, *children).items():
            got = call(library.get(name), features, arguments)
            assert got == expected, f"{name}{arguments} in {board.text()!r}: got {got!r}, expected {expected!r}"
            checked.add(name)
    assert len(checked) == len(expected_values(Reference(POSITIONS[0]), 0, 0, 0, 0, 0))


def test_threatened_lines_match_a_brute_force_count(library):
    spec = library.get("threatened_lines")
    for board in POSITIONS:
        ref = Reference(board)
        expected = 0
        for line in board.rules.lines:
            pieces = ref.pieces(line)
            if len(pieces) == 3 and any(all(has(piece, c) for piece in pieces) for c in range(8)):
                expected += 1
        assert spec.function(Features(board.view())) == expected, board.text()


def test_fit_of_three_is_an_immediate_win_and_the_least_fitting_piece_is_safe(library):
    """Fit is built from counts and characteristics only; a fit of 3 must coincide with the engine's wins."""
    hand_fit, least_fitting = library.get("hand_fit").function, library.get("least_fitting_piece").function
    for board in POSITIONS:
        features = Features(board.view())
        if board.in_hand != -1:
            assert (hand_fit(features) == 3) == bool(board.winning_squares(board.in_hand)), board.text()
        else:
            safe = Reference(board).safe_pieces()
            assert least_fitting(features) in (safe or board.legal_pieces()), board.text()


def legal_children(type_: type, ref: Reference, rng: random.Random) -> int | bool:
    if type_ is bool:
        return rng.random() < 0.5
    if type_ is Count:
        return rng.randrange(-5, 20)
    if type_ is Characteristic:
        return rng.randrange(8)
    legal = ref.empty if type_ is Square else ref.available
    return rng.choice(legal + [NO_ACTION])


def test_every_builtin_primitive_keeps_the_contract_on_random_positions(library):
    """Right type, legal proposals, no exception, same answer on a fresh Features, board untouched."""
    rng = random.Random(5)
    for board, spec in itertools.product(POSITIONS[::2], library):
        ref = Reference(board)
        before = board.text()
        children = tuple(legal_children(type_, ref, rng) for type_ in spec.arg_types)
        value = call(spec, Features(board.view()), children)
        assert value == call(spec, Features(board.view()), children), spec.name
        where = f"{spec.name}{children} in {before!r} gave {value!r}"
        if spec.return_type is bool:
            assert type(value) is bool, where
        else:
            assert type(value) is int, where
        if spec.return_type is Square:
            assert value == NO_ACTION or value in ref.empty, where
        elif spec.return_type is Piece:
            assert value == NO_ACTION or value in ref.available, where
        elif spec.return_type is Characteristic:
            assert 0 <= value < 8, where
        assert board.text() == before, where


def test_arithmetic_and_logic(library):
    values = {
        name: library.get(name).function
        for name in ("add", "sub", "mul", "equal", "not_equal", "greater_than", "at_most", "and_", "or_", "not_")
    }
    for a, b in itertools.product(range(-3, 6), repeat=2):
        assert (values["add"](a, b), values["sub"](a, b), values["mul"](a, b)) == (a + b, a - b, a * b)
        assert (
            values["equal"](a, b),
            values["not_equal"](a, b),
            values["greater_than"](a, b),
            values["at_most"](a, b),
        ) == (
            a == b,
            a != b,
            a > b,
            a <= b,
        )
    assert values["mul"](10**6, 10**6) == 10_000 and values["mul"](-(10**6), 10**6) == -10_000
    for a, b in itertools.product((False, True), repeat=2):
        assert (values["and_"](a, b), values["or_"](a, b), values["not_"](a)) == (a and b, a or b, not a)


def test_named_characteristics_follow_the_piece_bits(library):
    names = {"square": 0, "solid": 1, "coloured": 2, "tall": 3, "round": 4, "hollow": 5, "plain": 6, "short": 7}
    for name, index in names.items():
        assert library.get(name).function() == index
    # the tall piece with the lowest index is 8 (tall = bit 3); the first plain piece is 0
    start = Features(Board().view())
    assert library.get("tall_piece").function(start) == 8 and library.get("plain_piece").function(start) == 0


def test_every_builtin_primitive_passes_the_checks_of_registration():
    """gpquarto's own primitives are not checked when registered (every process that loads them would pay it): here
    each passes the checks a plug-in's primitive passes then, on its game's sample positions (``check_spec``)."""
    from gpquarto.gp.bindings import gp_games
    from gpquarto.gp.plugins import load_builtin
    from gpquarto.gp.primitives import check_spec

    specs = {}
    for source in (
        load_builtin(generic=True),
        *(load_builtin(b.family_package) for b in gp_games() if b.family_package),
    ):
        specs.update({(spec.family, spec.name): spec for spec in source.specs})
    assert {spec.game for spec in specs.values()} >= {None, "quarto", "quixo", "generic"}
    for spec in specs.values():
        check_spec(spec)
