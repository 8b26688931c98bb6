"""The Quixo engine against the slow reference of tests/reference/quixo.py, on seeded random games and on
hand-made positions; position text, illegal actions, draws by repetition and ply limit, symmetries, playouts."""

from __future__ import annotations

import random

import pytest

from gpquarto.games import IllegalActionError, Termination, get_game
from gpquarto.games.quixo import QuixoBoard, canonical_key, cell_maps, map_action, map_mask
from gpquarto.games.quixo.playout import random_playout
from tests.reference import quixo as ref


def board_from_ref(board: list[list[int]], player: int, rules: str) -> QuixoBoard:
    return QuixoBoard.from_text(ref.text(board, player, rules))


@pytest.mark.parametrize("rules", ["official", "course"])
@pytest.mark.parametrize(("n", "games"), [(3, 600), (4, 300), (5, 120)])
def test_random_games_agree_with_the_reference(n, games, rules):
    rng = random.Random(n * 10 + len(rules))
    endings = set()
    for _ in range(games):
        state = get_game("quixo").new_state(size=n, rules=rules)
        board, player, seen = ref.new_board(n), 0, {}
        seen[ref.text(board, player)] = 1
        while True:
            moves = ref.legal_moves(board, player)
            assert list(state.legal_actions()) == sorted(ref.move_int(n, m) for m in moves)
            move = rng.choice(moves)
            state.apply(ref.move_int(n, move))
            board = ref.play(board, player, move)
            win = ref.winner(board, player, rules)
            player = 1 - player
            key = ref.text(board, player)
            seen[key] = seen.get(key, 0) + 1
            assert state.text() == ref.text(board, player, rules)
            if win != -1:
                expected = (Termination.WIN, win)
            elif seen[key] >= 3:
                expected = (Termination.REPETITION, None)
            else:
                assert state.outcome() is None
                continue
            assert (state.outcome().termination, state.outcome().winner) == expected
            endings.add(expected[0])
            break
    assert Termination.WIN in endings


# X to move. Taking the blank e5 and pushing it in at the top of column e completes X's top row and, by the
# shift, O's second row.
BOTH_LINES = "XXXXO/OOOO./...../...../..... X"
E5_TO_TOP = 4 * 24 + 0


def test_completing_both_lines_loses_under_the_official_rules():
    board = QuixoBoard.from_text(BOTH_LINES)
    assert board.action_name(E5_TO_TOP) == "e5 to top"
    board.apply(E5_TO_TOP)
    assert board.text() == "XXXXX/OOOOO/...../...../..... O"
    assert board.outcome().winner == 1 and board.outcome().termination is Termination.WIN


def test_course_rules_take_the_first_line_in_scan_order():
    board = QuixoBoard.from_text(BOTH_LINES + " course")
    board.apply(E5_TO_TOP)
    assert board.outcome().winner == 0  # row 1 (X) is scanned before row 2 (O)
    # Pushed in at the bottom, e1 completes X's row 5 and shifts O's cube into row 4, which is scanned first.
    for rules in ("", " course"):
        board = QuixoBoard.from_text("...../...../...../OOOO./XXXXO X" + rules)
        board.apply(board.parse_action("e1 to bottom"))
        assert board.text().split()[0] == "...../...../...../OOOOO/XXXXX"
        assert board.outcome().winner == 1
    # On 4x4, X pushes a4 in at the right: X's main diagonal and, by the shift, O's anti-diagonal. The course
    # scans the main diagonal first; the official rules give the game to O.
    for rules, winner in (("", 1), (" course", 0)):
        board = QuixoBoard.from_text("X..O/.XO./.OX./.O.. X" + rules)
        board.apply(board.parse_action("a4 to right"))
        assert board.text().split()[0] == "X..O/.XO./.OX./O..X"
        assert board.outcome().winner == winner


def test_a_position_with_lines_is_over_and_the_reference_agrees_on_the_winner():
    rng = random.Random(5)
    for _ in range(300):
        n = rng.choice((3, 4, 5))
        cells = [rng.choice((-1, 0, 1, 1, 0)) for _ in range(n * n)]
        grid = [cells[r * n : r * n + n] for r in range(n)]
        player = rng.randrange(2)
        for rules in ("official", "course"):
            board = board_from_ref(grid, player, rules)
            win = ref.winner(grid, 1 - player, rules)
            assert board.winner_index == win
            assert board.is_over() == (win != -1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("...../...../...../...../.....", "'ROWS SIDE \\[course\\]'"),
        ("...../...../...../..... X", "row 1 of .* has 5 cells, not 4"),
        ("..../..../..../..../.... X", "has 5 rows|row 1 .* has 4 cells, not 5"),
        ("....../....../....../....../....../...... X", "3, 4 or 5 rows, got 6"),
        ("XX/XX X", "3, 4 or 5 rows, got 2"),
        ("..../..../..../... X", "row 4 of '..../..../..../...' has 3 cells, not 4"),
        (".../.Z./... X", "cell b2 is 'Z', not X, O or '.'"),
        (".../.../... x", "the side to move is X or O, got 'x'"),
        (".../.../... X blitz", "unknown rules 'blitz'"),
    ],
)
def test_bad_position_text_is_refused_in_one_line(text, message):
    with pytest.raises(ValueError, match=message) as caught:
        QuixoBoard.from_text(text)
    assert "\n" not in str(caught.value)


def test_illegal_actions_are_refused_in_one_line_and_change_nothing():
    board = QuixoBoard.from_text("O..../...../...../...../..... X")
    before = board.text()
    cases = [
        (0 * 4 + 1, "the cube at a1 shows O: X may take only a blank cube or one of its own"),
        (4 * 6 + 0, "takes the cube at b2, which is not on the border"),
        (4 * 1 + 0, "back in where it was taken \\(top\\)"),
        (4 * 4 + 3, "back in where it was taken \\(right\\)"),
        (100, "an int 0..99, got 100"),
        (True, "an int 0..99, got True"),
    ]
    for action, message in cases:
        with pytest.raises(IllegalActionError, match=message) as caught:
            board.apply(action)
        assert "\n" not in str(caught.value)
        assert board.text() == before
    with pytest.raises(ValueError, match="not on the border"):
        board.parse_action("b2 to top")
    with pytest.raises(ValueError, match="not a cell of the 5x5 board: 'f1'"):
        board.parse_action("f1 to top")
    with pytest.raises(ValueError, match="cannot read a Quixo action"):
        board.parse_action("b1 sideways")
    board = QuixoBoard.from_text("XXX/.../... O")
    with pytest.raises(IllegalActionError, match="the game is over \\(win\\)"):
        board.apply(board.parse_action("a3 to top"))


def test_action_names_read_back_in_every_form():
    board = QuixoBoard(size=5)
    for action in board.legal_actions():
        name = board.action_name(action)
        cell, _, end = name.split()
        for text in (name, f"{cell} {end}", f"{cell} {end[0]}", f"{cell}{end[0]}", f"{cell} from the {end}"):
            assert board.parse_action(text.upper() if action % 2 else text) == action
        assert board.parse_action(str(action)) == board.parse_action(f"#{action}") == action
    assert len(board.legal_actions()) == 44
    assert len(QuixoBoard(size=3).legal_actions()) == 20 and len(QuixoBoard(size=4).legal_actions()) == 32


def test_the_third_occurrence_is_a_draw_and_undo_counts_back():
    # On a full 3x3 board X and O each slide a row back and forth: the position comes back every 4 plies.
    board = QuixoBoard.from_text("XX./O../.X. X", repetitions=3)
    cycle = [board.parse_action(name) for name in ("a1 to right", "a2 to right", "c1 to left", "c2 to left")]
    start = board.text()
    for action in cycle:
        board.apply(action)
    assert board.text() == start and board.repetition_count() == 2 and not board.is_over()
    for action in cycle:
        board.apply(action)
    assert board.outcome().termination is Termination.REPETITION and board.outcome().winner is None
    board.undo()
    assert not board.is_over() and board.legal_actions()
    board.apply(cycle[-1])
    assert board.is_over()
    two = QuixoBoard.from_text(start, repetitions=2)
    for action in cycle:
        two.apply(action)
    assert two.outcome().termination is Termination.REPETITION


def test_the_ply_limit_is_a_draw():
    state = get_game("quixo").new_state(size=4, ply_limit=6)
    rng = random.Random(3)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    assert len(state.history) <= 6
    if state.outcome().termination is not Termination.WIN:
        assert state.outcome().termination is Termination.PLY_LIMIT and len(state.history) == 6
    limited = get_game("quixo").new_state(size=5, ply_limit=3)
    for name in ("a1 to bottom", "b1 to bottom", "c1 to bottom"):
        limited.apply(limited.parse_action(name))
    assert limited.outcome().termination is Termination.PLY_LIMIT


def test_bad_settings_are_one_line_errors():
    quixo = get_game("quixo")
    for settings, message in [
        ({"size": 6}, "a Quixo size is 3, 4 or 5, got 6"),
        ({"rules": "blitz"}, "unknown Quixo rules 'blitz'"),
        ({"ply_limit": 0}, "ply_limit must be an int >= 1 and <= 10000"),
        ({"ply_limit": 10**9}, "ply_limit must be an int >= 1 and <= 10000, got 1000000000"),  # no endless game
        ({"repetitions": 1}, "repetitions must be an int >= 2 and <= 100"),
        ({"repetitions": 10**6}, "repetitions must be an int >= 2 and <= 100, got 1000000"),
        ({"colour": "X"}, "Quixo has no setting 'colour'"),
    ]:
        with pytest.raises(ValueError, match=message):
            quixo.new_state(**settings)
    with pytest.raises(ValueError, match="has size 3, not 5"):
        quixo.from_text(".../.../... X", size=5)
    assert quixo.from_text(".../.../... X course").rules == "course"


def image_board(board: QuixoBoard, index: int) -> QuixoBoard:
    n = board.size
    return QuixoBoard.from_masks(map_mask(n, index, board.x_mask), map_mask(n, index, board.o_mask), board.player, n)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_symmetric_images_play_the_same_game(n):
    rng = random.Random(n)
    for _ in range(40):
        board = QuixoBoard(size=n)
        images = [QuixoBoard(size=n) for _ in cell_maps(n)]
        while not board.is_over():
            for k, image in enumerate(images):
                assert image.text() == image_board(board, k).text()
                assert sorted(map_action(n, k, a) for a in board.legal_actions()) == list(image.legal_actions())
                assert image.canonical_key() == board.canonical_key()
            action = rng.choice(board.legal_actions())
            board.apply(action)
            for k, image in enumerate(images):
                image.apply(map_action(n, k, action))
        for image in images:
            assert image.outcome() == board.outcome()
        swapped = QuixoBoard.from_masks(board.o_mask, board.x_mask, board.player ^ 1, n)
        assert swapped.canonical_key() == board.canonical_key()


def test_course_rules_keep_only_the_colour_swap():
    board = QuixoBoard.from_text("X..../...../...../...../..... O course")
    turned = QuixoBoard.from_text("....X/...../...../...../..... O course")
    swapped = QuixoBoard.from_text("O..../...../...../...../..... X course")
    assert board.canonical_key() != turned.canonical_key()
    assert board.canonical_key() == swapped.canonical_key()
    assert canonical_key(5, 1, 0) == canonical_key(5, 1 << 24, 0)


def replay_playout(board: QuixoBoard, seed: int) -> int:
    """The game random_playout promises: legal[int(random() * len(legal))] at every move."""
    state, rng = board.copy(), random.Random(seed)
    while not state.is_over():
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])
    return state.winner_index


@pytest.mark.parametrize("n", [3, 4, 5])
def test_playouts_play_the_boards_game(n):
    rng = random.Random(n)
    for seed in range(150):
        board = get_game("quixo").new_state(size=n, rules="official" if seed % 5 else "course", ply_limit=80)
        for _ in range(rng.randrange(12)):
            if board.is_over():
                break
            board.apply(rng.choice(board.legal_actions()))
        before = board.text(), board.history
        assert random_playout(board, random.Random(seed)) == replay_playout(board, seed)
        assert (board.text(), board.history) == before


def test_playouts_draw_by_repetition_from_the_boards_history():
    board = QuixoBoard.from_text("XX./O../.X. X", repetitions=3)
    cycle = [board.parse_action(name) for name in ("a1 to right", "a2 to right", "c1 to left", "c2 to left")]
    for action in cycle + cycle[:3]:
        board.apply(action)
    results = [random_playout(board, random.Random(seed)) for seed in range(100)]
    assert results == [replay_playout(board, seed) for seed in range(100)]
    assert -1 in results  # O's c2 to left comes back to the start a third time


def test_settings_give_back_the_same_state_and_forget_history_restarts_the_counts():
    quixo = get_game("quixo")
    state = quixo.new_state(size=4, rules="course", ply_limit=50, repetitions=2)
    state.apply(state.legal_actions()[3])
    again = quixo.from_text(state.text(), **state.settings())
    assert (again.text(), again.settings()) == (state.text(), state.settings())
    state.forget_history()
    assert state.history == () and state.repetition_count() == 1
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        state.undo()
