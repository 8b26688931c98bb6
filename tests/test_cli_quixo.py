"""Quixo on the command line: watch, show, play, solve, grade and bench with ``--game quixo``, run as a user
types them (and in-process for the cheaper checks)."""

from __future__ import annotations

import pytest

from gpquarto.arena.game import play_game
from gpquarto.arena.record import GameRecord
from gpquarto.games import get_game
from gpquarto.players.base import BasePlayer
from gpquarto.resolve import make_unattended_player
from tests.conftest import REPO


class Scripted(BasePlayer):
    """Plays the actions it is given, in turn (by name)."""

    game = "quixo"

    def __init__(self, names: list[str]) -> None:
        self.names = list(names)

    def decide(self, view) -> int:
        return view.parse_action(self.names.pop(0))


def one_line_error(done, message: str) -> None:
    assert done.returncode == 2, done.stdout
    assert len(done.stderr.strip().splitlines()) == 1 and "gpquarto: error: " in done.stderr, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr, done.stderr


# ------------------------------------------------------------------------------------------------ watch and show
def test_watch_shows_every_move_with_the_board_and_saves_a_record_that_replays(cli, tmp_path):
    path = tmp_path / "game.json"
    done = cli(
        "watch", "alphabeta:depth=1", "random", "--game", "quixo", "--delay", "0", "--seed", "3", "--record", str(path)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        "Quixo, official rules, size 5, ply_limit 300, repetitions 3: alphabeta:depth=1 (seat 0)"
    )
    record = GameRecord.load(path)
    assert record.game == "quixo" and record.settings["size"] == 5
    players = tuple(make_unattended_player(spec, seed=3, game="quixo") for spec in ("alphabeta:depth=1", "random"))
    assert record.actions == play_game(players, game="quixo", seed=3).actions  # the seed decides the game
    state = record.start_state()
    for number, (action, position) in enumerate(zip(record.actions, record.to_dict()["positions"], strict=True), 1):
        mover = record.players[state.player]
        assert f"\n{number}. {mover}: {state.action_name(action)}\n" in done.stdout
        state.apply(action)
        assert state.text() == position  # the record keeps the position text after each action
        assert str(state) in done.stdout
    assert f"Result: {record.players[record.winner]} wins." in done.stdout
    assert f"game record saved to {path}" in done.stdout


def test_watch_from_a_position_on_a_small_board(cli):
    done = cli(
        "watch", "random", "random", "--game", "quixo", "--position", "XX./.O./... O", "--delay", "0", "--seed", "1"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Quixo, official rules, size 3,")
    assert "1  X X .\n2  . O .\n3  . . .\nO to move" in done.stdout and "Result: " in done.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--position", "XX./.O./... Z"), "malformed position: the side to move is X or O, got 'Z'"),
        (("--position", "XQ./.O./... O"), "cell b1 is 'Q'"),
        (("--size", "4", "--position", "XX./.O./... O"), "has size 3, not 4"),
        (
            (
                "--size",
                "6",
            ),
            "quixo: size must be one of 3, 4, 5",
        ),
        (
            (
                "--rules",
                "advanced",
            ),
            "quixo: rules must be one of official, course, got 'advanced'",
        ),
        (("--png", "x.png"), "game 'quixo' has no PNG pictures"),
    ],
)
def test_watch_quixo_errors_are_one_line(cli, arguments, message):
    one_line_error(cli("watch", "random", "random", "--game", "quixo", "--delay", "0", *arguments), message)


def test_watch_refuses_a_player_of_the_other_game_in_one_line(cli):
    one_line_error(cli("watch", "novice", "random", "--game", "quixo"), "novice")
    one_line_error(cli("watch", "mcts:iterations=5", "random", "--game", "quixo", "--rules", "classic"), "rules")


def test_show_a_quixo_record_with_its_moves_final_board_and_result(cli, tmp_path):
    record = play_game(
        tuple(make_unattended_player("random", seed=seat, game="quixo") for seat in (0, 1)),
        game="quixo",
        settings={"size": 4},
        seed=7,
        names=("ann", "bob"),
    )
    record.save(tmp_path / "game.json")
    done = cli("show", str(tmp_path / "game.json"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        f"Quixo, official rules, size 4, ply_limit 300, repetitions 3, {len(record.actions)} moves"
    )
    assert f"Moves: {', '.join(record.action_names())}" in done.stdout and " to " in record.action_names()[0]
    assert str(record.replay()) in done.stdout
    assert "Result: " in done.stdout


@pytest.mark.parametrize(
    ("settings", "moves", "result"),
    [
        (
            {"size": 3, "repetitions": 2},
            ["a1 to right", "c3 to left", "c1 to left", "a3 to right", "a1 to right", "c3 to left"],
            "draw by repetition: the same position with the same side to move for the 2nd time",
        ),
        (
            {"size": 3, "ply_limit": 3},
            ["a1 to right", "c3 to left", "c1 to left"],
            "draw: the ply limit (3 moves) was reached",
        ),
    ],
)
def test_show_says_how_a_drawn_quixo_game_ended(cli, tmp_path, settings, moves, result):
    record = play_game(
        (Scripted(moves[0::2]), Scripted(moves[1::2])), game="quixo", settings=settings, names=("a", "b")
    )
    assert record.end in ("repetition", "ply_limit") and len(record.actions) == len(moves)
    record.save(tmp_path / "game.json")
    done = cli("show", str(tmp_path / "game.json"))
    assert done.returncode == 0, done.stderr
    assert f"Result: {result}." in done.stdout


def test_show_quixo_position_text(cli):
    done = cli("show", "XX../.O../..../.... O")
    assert done.returncode == 0, done.stderr
    assert str(get_game("quixo").from_text("XX../.O../..../.... O")) in done.stdout
    one_line_error(cli("show", "XX./.O./... Z"), "quixo: the side to move is X or O")
    one_line_error(cli("show", "XX../.O../..../.... O", "--png", "x.png"), "game 'quixo' has no PNG pictures")


# ------------------------------------------------------------------------------------------------ play
def quixo_human(lines: str):
    """A Quixo human player reading ``lines``, and its output stream."""
    import io

    from gpquarto.games.quixo.players.human import QuixoHumanPlayer

    out = io.StringIO()
    return QuixoHumanPlayer(input_stream=io.StringIO(lines), output_stream=out), out


@pytest.mark.parametrize(
    ("position", "typed", "message"),
    [
        ("..../..../..../.... X", "b2 top", "b2 to top: takes the cube at b2, which is not on the border"),
        ("..../..../..../.... X", "b2", "the cube at b2 is not on the border"),
        ("..../..../..../.... X", "b1 top", "b1 to top: would put the cube taken at b1 back in where it was taken"),
        (
            ".O../..../..../.... X",
            "b1 bottom",
            "the cube at b1 shows O: X may take only a blank cube or one of its own",
        ),
        (".O../..../..../.... X", "b1", "the cube at b1 shows O"),
        ("..../..../..../.... X", "e5 left", "not a cell of the 4x4 board"),
        ("..../..../..../.... X", "zz", "cannot read a Quixo action from 'zz'"),
        ("..../..../..../.... X", "b1", "the cube at b1 may go back in at the bottom, left or right"),
    ],
)
def test_the_human_is_told_in_one_line_why_a_move_is_refused_and_asked_again(position, typed, message):
    board = get_game("quixo").from_text(position)
    human, out = quixo_human(f"{typed}\na1 bottom\n")
    assert human.decide(board.view()) == board.parse_action("a1 bottom")
    said = out.getvalue().splitlines()
    refusals = [line.split("': ", 1)[1] for line in said if line.startswith("Your move") and "': " in line]
    assert len(refusals) == 2 and message in refusals[0] and refusals[1] == ""


@pytest.mark.parametrize("typed", ["b1 bottom", "b1 to bottom", "b1 b", "b1b", "b1 from the bottom", "5", "#5"])
def test_the_human_may_name_a_move_in_every_form(typed):
    human, _ = quixo_human(f"{typed}\n")
    board = get_game("quixo").new_state(size=3)
    assert board.action_name(human.decide(board.view())) == "b1 to bottom"


def test_the_human_hint_on_3x3_names_the_solvers_best_moves():
    from gpquarto.games.quixo.search.solver import solve

    board = get_game("quixo").from_text("XX./.O./... X")
    human, out = quixo_human("hint\nquit\n")
    from gpquarto.players.human import QuitGame

    with pytest.raises(QuitGame):
        human.decide(board.view())
    best = ", ".join(board.action_name(action) for action in solve(3).best_actions(board))
    assert f"hint: win with best play: {best}" in out.getvalue()


# Answers that end any 3x3 game: every cube and end in turn (the refused ones are asked again).
CYCLING_MOVES = (
    "".join(
        f"{cell} {end}\n" for cell in ("a1", "c1", "a3", "c3", "b1", "a2") for end in ("bottom", "top", "right", "left")
    )
    * 30
)


def test_play_a_whole_quixo_game_as_typed(cli):
    done = cli(
        "play", "--game", "quixo", "--size", "3", "--opponent", "random", "--seed", "1", input_text=CYCLING_MOVES
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    out = done.stdout
    assert out.startswith("Quixo, official rules, size 3, ply_limit 300, repetitions 3: you against random.")
    assert "you play X, you move first" in out and "Your opponent moved " in out
    last = out.splitlines()[-1]
    assert last in ("Result: you win against random.", "Result: you lose against random.") or last.startswith(
        "Result: draw against random (repetition"
    )
    assert "Moves: " in out and " to " in out.split("Moves: ")[1]
    again = cli(
        "play", "--game", "quixo", "--size", "3", "--opponent", "random", "--seed", "1", input_text=CYCLING_MOVES
    )
    assert again.stdout == out  # the same seed and the same answers replay the same game


def test_play_quixo_second_undo_and_quit(cli):
    done = cli(
        "play", "--game", "quixo", "--second", "--opponent", "alphabeta:depth=1", "--seed", "2",
        input_text="a1 bottom\nundo\ne5 top\nquit\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "you play O, your opponent moves first" in out and out.index("Your opponent moved") < out.index(
        "Your move (O)"
    )
    assert "Taken back: your previous decision is due again." in out and out.count("New game") == 1
    assert out.rstrip().endswith("Goodbye.")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--opponent", "novice"), "novice"),
        (("--opponent", "nobody"), "nobody"),
        (("--size", "7"), "quixo: size must be one of 3, 4, 5, got 7"),
        (("--rules", "classic"), "quixo: rules must be one of official, course, got 'classic'"),
    ],
)
def test_play_quixo_bad_arguments_are_one_line(cli, arguments, message):
    one_line_error(cli("play", "--game", "quixo", *arguments, input_text=""), message)


# ------------------------------------------------------------------------------------------------ solve and grade
def random_positions(size: int, count: int, seed: int) -> list:
    """``count`` positions (not over) from uniformly random games on the ``size x size`` board."""
    import random

    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = get_game("quixo").new_state(size=size)
        for _ in range(rng.randrange(2, 12)):
            board.apply(rng.choice(board.legal_actions()))
            if board.is_over():
                break
        if not board.is_over():
            found.append(board)
    return found


def reference_grid(board) -> tuple:
    """The slow reference's grid of ``board`` (0 X, 1 O, -1 blank)."""
    n = board.size
    return tuple(tuple(board.cells[n * r : n * r + n]) for r in range(n))


def test_solve_quixo_3x3_agrees_with_brute_force(capsys):
    import re

    from gpquarto.cli import main
    from tests.test_quixo_solver import brute_force

    wins_within, loses_within = brute_force(3)
    for board in random_positions(3, 12, seed=4):
        assert main(["solve", "--game", "quixo", board.text()]) == 0
        out = capsys.readouterr().out
        value, plies = re.search(r"value: (win|loss) in (\d+) plies", out).groups()
        plies = int(plies)
        grid, player = reference_grid(board), board.player
        if value == "win":
            assert wins_within(grid, player, plies) and (plies < 3 or not wins_within(grid, player, plies - 2))
        else:
            assert loses_within(grid, player, plies) and (plies < 3 or not loses_within(grid, player, plies - 2))
        best = out.split("best actions (")[1].split(": ", 1)[1].splitlines()[0].split(", ")
        for name in best:  # every best action keeps the value at the same distance
            after = board.copy()
            after.apply(after.parse_action(name))
            if after.is_over():
                assert value == "win" and plies == 1
            elif value == "win":
                assert loses_within(reference_grid(after), 1 - player, plies - 1)
            else:
                assert wins_within(reference_grid(after), 1 - player, plies - 1)


def test_solve_quixo_says_where_it_starts_and_refuses_bad_requests(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("GPQUARTO_CACHE", str(tmp_path))  # solved here, once
    done = cli("solve", "--game", "quixo", "--size", "3")
    assert done.returncode == 0, done.stderr
    assert "value: win in 7 plies for X (player 0, to move)" in done.stdout
    assert "solving the 3x3 board (official rules) once" in done.stderr and "wave 1:" in done.stderr
    again = cli("solve", "--game", "quixo", "--size", "3")
    assert "read from the cache" in again.stdout and again.stderr == ""
    for arguments, message in (
        (("--size", "5"), "the solver handles the 3x3 and 4x4 boards, not 5x5"),
        (("XXX/.O./... O",), "the game in this position is over (win)"),
        (("XX./.O./... Z",), "malformed position: the side to move is X or O"),
        (("--size", "4", "XX./.O./... O"), "has size 3, not 4"),
        ((), "give the POSITION to solve (Quixo position text), or settings for its start"),
    ):
        one_line_error(cli("solve", "--game", "quixo", *arguments), message)
    one_line_error(cli("solve"), "give the POSITION")


def test_grade_quixo_on_3x3_with_the_solver_perfect_and_random_not(cli, tmp_path):
    done = cli("grade", "random", "solver", "--game", "quixo", "--size", "3", "--positions", "40", "--quiet")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "bank: 40 positions, 2-5 blank cubes, quixo 3x3 official rules, seed 0, grade"
    assert lines[1].split()[:6] == ["player", "accuracy", "95%", "CI", "best", "move"] and "2 blank" in lines[1]
    solver_row = next(line for line in lines if line.startswith("solver "))
    assert solver_row.split()[1] == "100.0%" and solver_row.split()[3] == "100.0%"
    random_row = next(line for line in lines if line.startswith("random "))
    assert float(random_row.split()[1].rstrip("%")) < 100
    assert "random: examples of blunders" in done.stdout and " to " in done.stdout.split("examples of blunders")[1]
    one_line_error(cli("grade", "novice", "--game", "quixo", "--size", "3"), "novice")
    one_line_error(cli("grade", "random", "--game", "quixo", "--size", "6"), "size must be one of 3, 4, 5, got 6")
    one_line_error(cli("grade", "random", "--size", "3"), "quarto has no setting 'size' (settings: rules)")


def test_quixo_bank_positions_agree_with_brute_force():
    from gpquarto.grading.bank import WIN, build_bank
    from gpquarto.grading.grade import grade_players
    from tests.test_quixo_solver import brute_force

    bank = build_bank(game="quixo", size=3, positions=16, min_empties=2, max_empties=5, seed=2)
    assert bank.parameters.pairings[0] == ("random", "alphabeta:depth=1") and len(bank) == 16
    wins_within, loses_within = brute_force(3)
    for position in bank:
        board = position.board()
        grid, player = reference_grid(board), board.player
        assert position.value == WIN and wins_within(grid, player, 9)  # 3x3 has no draws
        assert set(position.best_moves) <= set(position.best_actions) < set(board.legal_actions())
        for action in board.legal_actions():
            after = board.copy()
            after.apply(action)
            keeps = after.winner == player or (
                not after.is_over() and loses_within(reference_grid(after), 1 - player, 8)
            )
            assert keeps == (action in position.best_actions), (position.text, board.action_name(action))
    perfect, alphabeta = grade_players(["solver", "alphabeta:depth=1"], bank)
    assert perfect.accuracy == perfect.total.best_move_rate == 1.0
    assert alphabeta.total.best_move_rate <= alphabeta.accuracy < 1.0


# ------------------------------------------------------------------------------------------------ bench
def test_bench_engine_quixo_times_every_path_beside_the_reference(cli):
    done = cli(
        "bench", "engine", "--game", "quixo", "--repeats", "1", "--seconds", "0.05", "--compare", "tests.reference"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Quixo 5x5, official rules, random vs random: games per CPU second of one core")
    for row in ("pure Python playout", "player API (play_game, RandomPlayer)", "slow reference"):
        line = next(line for line in lines if line.startswith(row))
        assert float(line.split("(min")[0].split()[-1].replace(",", "")) > 0
    assert lines[-1].startswith("targets (5x5 official rules): pure ") and "pure / reference " in lines[-1]
    small = cli(
        "bench", "engine", "--game", "quixo", "--size", "3", "--rules", "course", "--repeats", "1", "--seconds", "0.05"
    )
    assert small.returncode == 0 and small.stdout.startswith("Quixo 3x3, course rules"), small.stderr


def test_bench_players_quixo_prints_alphabeta_medians_at_depths_4_and_5(cli):
    done = cli("bench", "players", "--game", "quixo", "--positions", "2")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("alphabeta (lines heuristic, a fresh table per decision) on 2 positions from games")
    for depth, target in ((4, "0.3"), (5, "3")):
        assert f"depth {depth}, wall: median " in out
        assert f"depth {depth}, CPU:  median " in out and f"target median <= {target} s: " in out
    for fact in ("safe_moves", "trap_move", "trap_proof_potential_move", "opponent_trap_threat"):
        assert f"\n{fact}: median " in out


def test_bench_players_quixo_times_each_spec_given_a_saved_player_included(cli):
    saved = str(REPO / "examples" / "players" / "quixo_trap_setter.json")
    done = cli("bench", "players", "--game", "quixo", "--positions", "3", "--players", f"{saved};alphabeta:depth=1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "time per decision on 3 positions from games of alphabeta:depth=2, seed 0"
    assert [line.split(", ")[0] for line in lines[1:]] == [saved, saved, "alphabeta:depth=1", "alphabeta:depth=1"]
    assert all(line.endswith(" over 3") and " ms (quartiles " in line for line in lines[1:])


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("evaluators",), "game 'quixo' has no evaluator benchmark"),
        (("solver",), "needs --size 3 or 4"),
        (("solver", "--size", "5"), "not 5x5"),
        (("engine", "--compare", "nothing.here"), "--compare nothing.here: cannot import it"),
        (("players", "--compare", "tests.reference"), "--compare goes with bench engine"),
        (("engine", "--players", "random"), "--players goes with bench players"),
        (("players", "--players", "examples/players/trap_setter.json"), "is a quarto player, not a quixo player"),
        (("players", "--players", "no/such.json"), "player file not found: no/such.json"),
        (("engine", "--rules", "classic"), "quixo: rules must be one of official, course"),
    ],
)
def test_bench_quixo_errors_are_one_line(cli, arguments, message):
    one_line_error(cli("bench", arguments[0], "--game", "quixo", *arguments[1:]), message)


def test_bench_solver_quixo_solves_3x3_afresh(cli):
    done = cli("bench", "solver", "--game", "quixo", "--size", "3", *(["--compiled"] if _numba() else []))
    assert done.returncode == 0, done.stderr
    assert "Quixo 3x3 official rules solved " in done.stdout and "(target < 60 s: " in done.stdout
    assert "start: first player wins in 7 plies" in done.stdout


def _numba() -> bool:
    from gpquarto.games.quixo import compiled

    return compiled.AVAILABLE


def test_grading_a_quixo_player_that_breaks_the_rules_counts_a_forfeit():
    from gpquarto.grading.bank import build_bank
    from gpquarto.grading.grade import grade_player

    class Cheater(BasePlayer):
        game = "quixo"
        name = "cheater"

        def decide(self, view) -> int:
            return 0  # a1 to top: never legal

    bank = build_bank(game="quixo", size=3, positions=4, min_empties=3, max_empties=4, seed=1)
    report = grade_player(Cheater(), bank)
    assert report.accuracy == 0 and report.total.forfeits == 4
    assert all(
        d.forfeit.startswith("illegal action 0: ") and "back in where it was taken" in d.forfeit
        for d in report.decisions
    )


@pytest.mark.skipif(not _numba(), reason="solving 4x4 takes numba (pip install 'gpquarto[fast]')")
def test_grade_quixo_on_4x4_against_the_exact_solution(cli, quixo_4x4_solution):
    done = cli("grade", "random", "alphabeta:depth=1", "solver", "--game", "quixo", "--positions", "20", "--quiet")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "bank: 20 positions, 4-12 blank cubes, quixo 4x4 official rules, seed 0, grade"
    rows = {line.split()[0]: line.split() for line in lines[2:5]}
    assert rows["solver"][1] == rows["solver"][3] == "100.0%"
    assert float(rows["random"][1].rstrip("%")) < 100
    assert "bank built in " in done.stdout


def test_a_quixo_tournament_on_3x3_grades_its_players(cli, tmp_path):
    out = tmp_path / "tournament"
    done = cli(
        "tournament", "random", "solver", "--game", "quixo", "--size", "3", "--games", "4", "--grade",
        "--grade-positions", "12", "--out", str(out), "--quiet", "--workers", "1",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "accuracy (95% CI)" in done.stdout and (out / "grade.csv").is_file()
    assert "solver,all,all,12,12,1.0000" in (out / "grade.csv").read_text()
    one_line_error(
        cli("tournament", "random", "solver", "--game", "quixo", "--size", "6", "--grade"),
        "size must be one of 3, 4, 5",
    )
