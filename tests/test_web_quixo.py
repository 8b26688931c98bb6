"""The web app's JSON API for Quixo over real HTTP (no browser): games through the game interface, moves by int
or name, undo, hints from the solver (computed in a worker process the first time, never blocking the server),
watch, replay, and every bad value a one-line 4xx."""

from __future__ import annotations

import time

import pytest

from gpquarto.arena.game import play_game
from gpquarto.arena.record import GameRecord
from gpquarto.games.quixo import QuixoBoard
from gpquarto.games.quixo.search import solver
from gpquarto.web.players import load_player
from tests.web_support import call, running_server, solutions_cache

pytestmark = pytest.mark.skipif(solver.numba is None, reason="solving 4x4 takes numba (pip install 'gpquarto[fast]')")

#: X (me, to move) wins at once on 4x4 by taking d1 and pushing it in at the left of row 1.
WIN_IN_ONE_4X4 = "XXX./..../..../.... X"
#: random against random on 5x5 with this seed ends with the third repetition of a position.
REPETITION_SEED = 3


@pytest.fixture(scope="module")
def site(tmp_path_factory, quixo_4x4_solution):
    """A running server whose solutions cache is this module's own, holding the 4x4 solution (solved once per
    test session) and no 3x3 one: the server computes that one when first asked."""
    with solutions_cache(tmp_path_factory.mktemp("quixo-cache"), (4, "official")):
        with running_server(runs_dir=tmp_path_factory.mktemp("runs"), time_limit=10.0) as base:
            yield base


def new_game(base: str, **body) -> dict:
    status, state = call(base, "POST", "/api/games", {"game": "quixo", "opponent": "random", "seed": 1, **body})
    assert status == 201, state
    return state


def move(base: str, state: dict, action: object = None) -> dict:
    """Play ``action`` (the first legal one by default)."""
    action = state["legal_actions"][0] if action is None else action
    status, after = call(base, "POST", f"/api/games/{state['id']}/move", {"action": action})
    assert status == 200, after
    return after


def hint_when_solved(base: str, key: str, timeout: float = 180) -> tuple[list[dict], dict]:
    """Ask for the hint until the solution is there; the answers while it was pending, and the last one."""
    pending = []
    deadline = time.monotonic() + timeout
    while True:
        status, hint = call(base, "GET", f"/api/games/{key}/hint")
        assert status == 200, hint
        if hint["solved"]:
            return pending, hint
        assert hint["pending"] and time.monotonic() < deadline, hint
        pending.append(hint)
        time.sleep(0.5)


def test_a_whole_5x5_game_against_random_replays_to_the_same_position(site):
    state = new_game(site)
    assert (state["game"], state["size"], state["rules"], state["position"]) == (
        "quixo",
        5,
        "official",
        "...../...../...../...../..... X",
    )
    assert len(state["cells"]) == 25 and len(state["legal_actions"]) == 44 and state["decision"] == "move"
    while not state["over"]:
        assert state["your_turn"]
        state = move(site, state)
    board = QuixoBoard()
    for played in state["moves"]:
        assert played["action"] in board.legal_actions()
        assert played["text"] == board.action_name(played["action"])
        board.apply(played["action"])
    assert board.text() == state["position"] and state["end"] == board.outcome().termination.value
    assert state["result"] in ("you win", "random wins") or state["result"].startswith("draw")
    lines = state["winning_lines"]
    assert all(len({state["cells"][cell] for cell in line}) == 1 for line in lines) and (lines or state["draw"])
    status, saved = call(site, "GET", f"/api/games/{state['id']}/record")
    assert status == 200 and saved["game"] == "quixo" and saved["players"] == ["you", "random"]
    assert GameRecord.from_dict(saved).replay().text() == state["position"]
    status, replayed = call(site, "POST", "/api/replay", saved)
    assert status == 200 and replayed["game"] == "quixo"
    assert [frame["position"] for frame in replayed["frames"][1:]] == GameRecord.from_dict(saved).positions()
    assert replayed["frames"][-1]["winning_lines"] == state["winning_lines"]


def test_moves_by_name_and_second_seat(site):
    state = new_game(site, size=3, seat=1)  # random (X) moves first
    assert [played["seat"] for played in state["moves"]] == [0] and state["your_turn"] and state["to_act"] == 1
    board = QuixoBoard.from_text(state["position"])
    action = board.legal_actions()[-1]
    after = move(site, state, board.action_name(action))  # "c3 to left" and the like
    assert after["moves"][1]["action"] == action and after["moves"][1]["text"] == board.action_name(action)


def test_undo_takes_back_my_move_and_the_reply(site):
    state = move(site, new_game(site, size=4))
    before = call(site, "GET", f"/api/games/{state['id']}")[1]
    after = move(site, before)
    assert len(after["moves"]) == 4
    status, undone = call(site, "POST", f"/api/games/{state['id']}/undo")
    assert status == 200 and undone["position"] == before["position"] and undone["moves"] == before["moves"]


def test_the_ply_limit_draws_and_says_so(site):
    state = move(site, new_game(site, ply_limit=2))
    assert state["over"] and state["draw"] and state["end"] == "ply_limit" and state["ply_limit"] == 2
    assert state["result"] == "draw: the ply limit (2 moves) was reached"
    record = GameRecord.from_dict(call(site, "GET", f"/api/games/{state['id']}/record")[1])
    assert record.end == "ply_limit" and record.settings["ply_limit"] == 2


def test_course_rules_and_a_start_position(site):
    state = new_game(site, position="XX./O../O.. X course")
    assert state["rules"] == "course" and state["size"] == 3 and state["your_turn"]
    won = move(site, state, "c1 to left")  # X X X on the top row
    assert won["over"] and won["winner"] == 0 and won["result"] == "you win" and won["winning_lines"] == [[0, 1, 2]]


def test_a_5x5_hint_says_why_not(site):
    status, hint = call(site, "GET", f"/api/games/{new_game(site)['id']}/hint")
    assert status == 200 and not hint["solved"] and not hint["pending"]
    assert hint["text"] == "no exact hint on the 5x5 board (the solver knows 3x3 and 4x4)"


def test_a_3x3_hint_is_computed_in_a_worker_then_matches_the_solver(site):
    state = new_game(site, size=3)
    status, first = call(site, "GET", f"/api/games/{state['id']}/hint")
    assert status == 200 and first["pending"] and not first["solved"]  # the cache had no 3x3 solution
    started = time.monotonic()
    assert call(site, "GET", f"/api/games/{state['id']}")[0] == 200 and time.monotonic() - started < 2
    pending, hint = hint_when_solved(site, state["id"])
    assert all("computing the 3x3 official solution for the first time" in answer["text"] for answer in pending)
    board = QuixoBoard.from_text(state["position"])
    exact = solver.compute(3, compiled=False)
    assert hint["best_actions"] == exact.best_actions(board)
    assert (hint["value"], hint["distance"]) == exact.action_values(board)[hint["best_actions"][0]] == (1, 7)
    assert hint["text"].startswith("win in 7 plies with best play: ")
    assert hint["cells"] == sorted({action >> 2 for action in hint["best_actions"]})


def test_a_4x4_hint_from_the_cached_solution(site, quixo_4x4_solution):
    state = new_game(site, position=WIN_IN_ONE_4X4)
    _, hint = hint_when_solved(site, state["id"], timeout=60)
    board = QuixoBoard.from_text(WIN_IN_ONE_4X4)
    wins = []
    for action in board.legal_actions():
        board.apply(action)
        if board.winner == 0:
            wins.append(action)
        board.undo()
    assert hint["best_actions"] == wins and board.parse_action("d1 to left") in wins
    assert hint["text"].startswith("win in 1 ply with best play: ") and "d1 to left" in hint["text"]
    state = move(site, move(site, new_game(site, size=4, seed=3)))  # a few moves in
    status, hint = call(site, "GET", f"/api/games/{state['id']}/hint")
    board = QuixoBoard.from_text(state["position"])
    assert status == 200 and hint["best_actions"] == quixo_4x4_solution.best_actions(board)
    assert (hint["value"], hint["distance"]) == quixo_4x4_solution.action_values(board)[hint["best_actions"][0]]


def test_the_solver_plays_first_on_3x3_and_wins(site):
    deadline = time.monotonic() + 180
    while True:  # the 3x3 solution may still be being computed by another test's request
        status, state = call(site, "POST", "/api/games", {"game": "quixo", "size": 3, "opponent": "solver", "seat": 1})
        if status != 503:
            break
        assert "computing the 3x3 official solution" in state["error"] and time.monotonic() < deadline
        time.sleep(0.5)
    assert status == 201, state
    while not state["over"]:
        state = move(site, state)
    assert state["result"] == "solver wins" and state["winner"] == 0


def test_watch_two_quixo_players_and_replay_the_record(site):
    body = {"game": "quixo", "size": 4, "players": ["alphabeta:depth=2", "mcts:iterations=30"], "seed": 5}
    status, watched = call(site, "POST", "/api/watch", body)
    assert status == 200, watched
    assert watched["game"] == "quixo" and watched["frames"][0]["size"] == 4
    record = GameRecord.from_dict(watched["record"])
    assert record.game == "quixo" and len(watched["frames"]) == len(record.actions) + 1
    assert watched["frames"][-1]["over"] and watched["result"].startswith(("alphabeta", "mcts", "draw"))
    status, replayed = call(site, "POST", "/api/replay", watched["record"])
    assert status == 200
    assert [frame["position"] for frame in replayed["frames"]] == [frame["position"] for frame in watched["frames"]]
    assert [frame["move"] for frame in replayed["frames"]][1:] == [
        {**frame["move"], "explanation": None} for frame in watched["frames"][1:]
    ]


def test_a_watched_game_drawn_by_repetition_says_so(site):
    body = {"game": "quixo", "players": ["random", "random"], "seed": REPETITION_SEED}
    status, watched = call(site, "POST", "/api/watch", body)
    assert status == 200
    expected = play_game(
        (load_player("random", game="quixo"), load_player("random", game="quixo")), game="quixo", seed=REPETITION_SEED
    )
    assert watched["record"]["actions"] == expected.actions and expected.end == "repetition"
    assert watched["result"] == ("draw by repetition: the same position with the same side to move for the 3rd time")
    assert watched["frames"][-1]["repetition"] == 3


def test_quixo_players_are_listed_by_game(site):
    status, listing = call(site, "GET", "/api/players?game=quixo")
    names = [player["name"] for player in listing["players"]]
    assert status == 200 and {"random", "alphabeta", "mcts", "minimax", "solver"} <= set(names)
    assert "novice" not in names
    assert "novice" in [player["name"] for player in call(site, "GET", "/api/players")[1]["players"]]
    status, answer = call(site, "GET", "/api/players?game=chess")
    assert status == 400 and "game must be quarto or quixo" in answer["error"]


# ----------------------------------------------------------------------------------------- error cases
@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"game": "chess"}, 400, "game must be quarto or quixo"),  # (or any other game installed)
        ({"game": 5}, 400, "game must be quarto or quixo"),
        ({"size": 6}, 400, "size must be one of 3, 4, 5, got 6"),
        ({"size": "5"}, 400, "size must be one of 3, 4, 5, got '5'"),
        ({"size": True}, 400, "size must be one of 3, 4, 5, got True"),
        ({"rules": "classic"}, 400, "rules must be one of official, course, got 'classic'"),
        ({"ply_limit": 0}, 400, "ply_limit must be int from 1 to 10000, got 0"),
        ({"ply_limit": 10**9}, 400, "ply_limit must be int from 1 to 10000, got 1000000000"),
        ({"repetitions": 4}, 400, "repetitions must be at most 3 here, got 4"),
        (
            {"ply_limit": 5000},
            400,
            "ply_limit must be at most 300 here, got 5000",
        ),  # the game allows it, the server not
        ({"game": "quarto", "size": 4}, 400, "quarto has no setting 'size' (settings: rules)"),
        ({"position": "XX/OO X"}, 400, "malformed position: a Quixo board has 3, 4 or 5 rows"),
        ({"position": "..../..../..../.... -"}, 400, "malformed position"),
        ({"position": ["x"]}, 400, "position must be position text, e.g. '...../...../...../...../..... X'"),
        ({"opponent": "novice"}, 400, "plays quarto, not quixo"),
        ({"opponent": "alphabeta:depth=50"}, 400, "alphabeta depth is at most 8"),
        ({"opponent": "alphabeta:seconds=100"}, 400, "alphabeta seconds is at most the 10 s time limit"),
        ({"opponent": "mcts:iterations=1000000"}, 400, "mcts iterations is at most 20,000"),
        ({"opponent": "minimax:depth=5"}, 400, "minimax depth is at most 3"),
        ({"opponent": "solver"}, 409, "the Quixo solver knows the 3x3 and 4x4 boards, not 5x5"),
        ({"opponent": "alphabeta:heuristic=magic"}, 400, "unknown Quixo heuristic 'magic'"),
    ],
)
def test_bad_new_quixo_games_get_a_4xx_and_one_line(site, body, status, message):
    answer_status, answer = call(site, "POST", "/api/games", {"game": "quixo", "opponent": "random", **body})
    assert answer_status == status and message in answer["error"] and "\n" not in answer["error"], answer


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"piece": 1}, 'a move is {"action": 0..99} or {"action": "b1 to bottom"}'),
        ({"action": 1, "square": 2}, "a move is"),
        ({"action": 100}, "action must be a whole number 0..99, got 100"),
        ({"action": -1}, "action must be a whole number 0..99"),
        ({"action": True}, "action must be a whole number 0..99, got True"),
        ({"action": 1.5}, "action must be a whole number 0..99"),
        ({"action": None}, "action must be a whole number 0..99"),
        ({"action": 4 * 12}, "illegal move (c3 to top): action 48 takes the cube at c3, which is not on the border"),
        ({"action": 0}, "illegal move (a1 to top): action 0 would put the cube taken at a1 back in where it was"),
        ({"action": "z9 to top"}, "illegal move: not a cell of the 5x5 board: 'z9'"),
        ({"action": "a1 sideways"}, "illegal move: cannot read a Quixo action from 'a1 sideways'"),
        ({"action": "a1 b" * 100}, "an action name is at most 100 characters"),
        ({"action": "c3 to top"}, "which is not on the border"),
    ],
)
def test_bad_quixo_moves_get_400_and_change_nothing(site, body, message):
    state = new_game(site)
    status, answer = call(site, "POST", f"/api/games/{state['id']}/move", body)
    assert status == 400 and message in answer["error"] and "\n" not in answer["error"], answer
    assert call(site, "GET", f"/api/games/{state['id']}")[1]["position"] == state["position"]


def test_taking_the_opponents_cube_is_illegal(site):
    state = new_game(site, position="O..../...../...../...../..... X")
    status, answer = call(site, "POST", f"/api/games/{state['id']}/move", {"action": "a1 to bottom"})
    assert status == 400 and "illegal move (a1 to bottom): the cube at a1 shows O" in answer["error"]


def test_bad_quixo_watch_and_replay_requests_get_400(site):
    for body, message in (
        ({"game": "quixo", "players": ["random", "novice"]}, "plays quarto, not quixo"),
        ({"game": "quixo", "size": 5, "players": ["random", "solver"]}, "not 5x5"),
        ({"game": "quixo", "players": ["random", "random"], "position": "XO"}, "malformed position"),
    ):
        status, answer = call(site, "POST", "/api/watch", body)
        assert 400 <= status < 500 and message in answer["error"], answer
    record = play_game((load_player("random", game="quixo"),) * 2, game="quixo", seed=1).to_dict()
    for broken, message in (
        ({**record, "actions": [0, *record["actions"]]}, "is illegal"),
        ({**record, "settings": {"size": 7}}, "a Quixo size is 3, 4 or 5"),
        ({**record, "actions": [999]}, "actions must be whole numbers 0..99"),
    ):
        status, answer = call(site, "POST", "/api/replay", broken)
        assert status == 400 and message in answer["error"] and "\n" not in answer["error"], answer


def test_a_watched_game_past_its_time_budget_is_forfeited_by_the_player_to_move(site, monkeypatch):
    from gpquarto.web import sessions

    monkeypatch.setattr(sessions, "WATCH_SECONDS", 0.0)  # a long Quixo game cannot hold a worker for an hour
    status, watched = call(site, "POST", "/api/watch", {"game": "quixo", "players": ["random", "mcts"], "seed": 1})
    assert status == 200 and watched["record"]["end"] == "forfeit" and watched["record"]["actions"] == []
    assert watched["result"] == "mcts wins: random forfeits (the game ran past its time budget)"


def test_the_solver_waits_for_its_solution_with_a_503_and_no_blocking(site):
    body = {"game": "quixo", "size": 3, "rules": "course", "opponent": "solver", "seat": 1}
    status, answer = call(site, "POST", "/api/games", body)  # this module's cache has no 3x3 course solution
    assert status == 503 and answer["error"].startswith(
        "the solver needs the 3x3 course solution: computing the 3x3 course solution for the first time"
    )
    started = time.monotonic()
    assert call(site, "GET", "/api/players?game=quixo")[0] == 200 and time.monotonic() - started < 2
    deadline = time.monotonic() + 120
    while status == 503 and time.monotonic() < deadline:
        time.sleep(0.5)
        status, answer = call(site, "POST", "/api/games", body)
    assert status == 201 and answer["rules"] == "course" and len(answer["moves"]) == 1
