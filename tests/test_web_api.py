"""The web app's JSON API over real HTTP (no browser): games, undo, hints, explanations, watch, replay, runs, errors."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from gpquarto.arena.game import play_game
from gpquarto.arena.record import GameRecord
from gpquarto.games.quarto.board import PLACE_OFFSET, Board
from gpquarto.games.quarto.search.solver import solve
from gpquarto.players.registry import register_player, unregister_player
from gpquarto.web.players import load_player
from tests.conftest import REPO
from tests.misbehaving_players import Cheater, Crasher, Sleeper
from tests.web_support import CORNERS, TINY_RULES, call, make_run_folder, running_server, save_tiny_player

#: Ten empty squares, a choice due: small enough for a hint.
ENDGAME = "5A3./.C8./1..F/.... -"
TALL = 8


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A running server with a runs folder holding one run, and a tiny evolved player file."""
    root = tmp_path_factory.mktemp("web")
    make_run_folder(root / "runs")
    save_tiny_player(root / "tiny.json")
    register_player("crasher")(Crasher)
    register_player("sleeper")(Sleeper)
    register_player("cheater")(Cheater)
    try:
        with running_server(runs_dir=root / "runs", players_dirs=[root], time_limit=2.0) as base:
            yield base, root
    finally:
        unregister_player("crasher")
        unregister_player("sleeper")
        unregister_player("cheater")


def new_game(base: str, **body) -> dict:
    status, state = call(base, "POST", "/api/games", {"opponent": "random", "seed": 1, **body})
    assert status == 201, state
    return state


def move(base: str, state: dict) -> dict:
    """Take the first legal action (the lowest piece or square)."""
    body = {"square": state["cells"].index(None)} if state["placement_due"] else {"piece": state["available"][0]}
    status, after = call(base, "POST", f"/api/games/{state['id']}/move", body)
    assert status == 200, after
    return after


def test_a_whole_game_against_random_replays_to_the_same_position_with_legal_moves_only(site):
    base, _ = site
    state = new_game(base)
    while not state["over"]:
        assert state["your_turn"]
        state = move(base, state)
    board = Board()
    for played in state["moves"]:
        assert played["action"] in board.legal_actions()
        board.apply(played["action"])
    assert board.text() == state["position"]
    assert state["result"]
    assert state["winning_lines"] == [list(line) for line in board.winning_lines()]
    status, saved = call(base, "GET", f"/api/games/{state['id']}/record")
    assert status == 200 and saved["players"] == ["you", "random"]
    assert GameRecord.from_dict(saved).replay().text() == state["position"]
    status, replayed = call(base, "POST", "/api/replay", saved)
    assert status == 200 and replayed["frames"][-1]["position"] == state["position"]


def test_a_forfeited_game_saves_a_record_that_says_so(site):
    state = new_game(site[0], opponent="crasher", seat=1)
    status, saved = call(site[0], "GET", f"/api/games/{state['id']}/record")
    assert status == 200
    record = GameRecord.from_dict(saved)
    assert (record.end, record.forfeited_by, record.winner, record.players) == ("forfeit", 0, 1, ("crasher", "you"))
    assert "boom" in record.reason


def test_second_seat_gets_the_opponents_first_choice_at_once(site):
    state = new_game(site[0], seat=1)
    assert [played["seat"] for played in state["moves"]] == [0]
    assert state["placement_due"] and state["your_turn"]


def test_advanced_rules_count_the_2x2_blocks(site):
    base, _ = site
    for rules, won in (("advanced", True), ("classic", False)):
        suffix = " advanced" if rules == "advanced" else ""
        state = new_game(base, position=f"8C../9.../..../.... D{suffix}")  # four tall pieces make the top-left block
        assert state["rules"] == rules and state["your_turn"]
        status, state = call(base, "POST", f"/api/games/{state['id']}/move", {"square": 5})
        assert status == 200
        assert (state["winner"] == 0) is won
        assert state["winning_lines"] == ([[0, 1, 4, 5]] if won else [])


def test_undo_takes_back_my_last_action_and_the_reply(site):
    base, _ = site
    state = move(base, move(base, move(base, new_game(base))))  # choose, place, choose (+ the replies)
    before = call(base, "GET", f"/api/games/{state['id']}")[1]
    mine = max(i for i, played in enumerate(before["moves"]) if played["seat"] == 0)
    status, after = call(base, "POST", f"/api/games/{state['id']}/undo")
    assert status == 200
    board = Board()
    for played in before["moves"][:mine]:
        board.apply(played["action"])
    assert after["position"] == board.text()
    assert after["moves"] == before["moves"][:mine]


def test_hint_matches_the_solver(site):
    state = new_game(site[0], position=ENDGAME)  # player 1 chooses here: random chooses, then it is my turn
    assert state["your_turn"] and state["placement_due"]
    status, hint = call(site[0], "GET", f"/api/games/{state['id']}/hint")
    assert status == 200 and hint["solved"] and hint["position"] == state["position"]
    result = solve(Board.from_text(state["position"]))
    assert (hint["value"], tuple(hint["best_actions"])) == (result.value, result.best_actions)
    assert hint["squares"] == [action - PLACE_OFFSET for action in result.best_actions]


def test_hint_is_too_early_at_the_start(site):
    state = new_game(site[0])
    status, hint = call(site[0], "GET", f"/api/games/{state['id']}/hint")
    assert status == 200 and not hint["solved"] and hint["text"].startswith("too early to solve")


def test_evolved_opponent_moves_are_explained_by_the_rule_that_fired(site):
    base, root = site
    state = new_game(base, opponent="tiny.json")
    while not state["over"]:
        state = move(base, state)
    board = Board()
    explained = 0
    for played in state["moves"]:
        if played["seat"] == 1:
            why = played["explanation"]
            if played["action"] < PLACE_OFFSET:
                tall_left = any(piece & TALL for piece in board.legal_pieces())
                assert why["rule"] == (2 if tall_left else None)
                if tall_left:
                    assert why["text"] == "if {} then {}".format(*TINY_RULES["choose"][1])
            else:
                corner_free = any(board.piece_at(square) < 0 for square in CORNERS)
                assert why["rule"] == (1 if corner_free else None)
            explained += 1
        else:
            assert played["explanation"] is None
        board.apply(played["action"])
    assert explained >= 2


def test_a_player_that_raises_is_too_slow_or_cheats_forfeits(site):
    base, _ = site
    forfeits = (("crasher", "raised RuntimeError: boom"), ("sleeper", "2 s limit"), ("cheater", "illegal choice 99"))
    for name, reason in forfeits:
        state = new_game(base, opponent=name, seat=1)
        assert state["over"] and state["forfeit"]["seat"] == 0, state
        assert reason in state["forfeit"]["reason"]
        assert state["result"].startswith("you win by forfeit")


def test_watch_plays_a_game_and_replay_gives_the_same_frames(site):
    base, _ = site
    status, watched = call(base, "POST", "/api/watch", {"players": ["novice", "tiny.json"], "seed": 3})
    assert status == 200
    record = watched["record"]
    assert len(watched["frames"]) == len(record["actions"]) + 1
    assert watched["frames"][-1]["over"]
    assert any(frame["move"]["explanation"] for frame in watched["frames"][1:] if frame["move"]["seat"] == 1)
    status, replayed = call(base, "POST", "/api/replay", record)
    assert status == 200
    assert [frame["position"] for frame in replayed["frames"]] == [frame["position"] for frame in watched["frames"]]
    assert replayed["result"] == watched["result"]


def test_replay_of_a_record_made_by_the_arena(site):
    record = play_game((load_player("random", seed=1), load_player("novice", seed=2)), seed=5, names=("r", "n"))
    status, replayed = call(site[0], "POST", "/api/replay", record.to_dict())
    assert status == 200
    assert replayed["frames"][-1]["position"] == record.replay().text()
    assert replayed["players"] == ["r", "n"]


def test_runs_list_and_detail(site):
    base, root = site
    status, listing = call(base, "GET", "/api/runs")
    assert status == 200 and [run["name"] for run in listing["runs"]] == ["demo"]
    status, run = call(base, "GET", "/api/runs/demo")
    assert status == 200
    assert run["logbook"]["columns"][:3] == ["generation", "evaluations", "best"]
    assert [row[2] for row in run["logbook"]["rows"]] == [0.25, 0.5, 0.75]
    assert run["best_player"]["rules"]["choose"] == ["if False then tall_piece", "if True then tall_piece"]
    assert "score 0.75" in run["hall_of_fame"] and run["has_plot"]
    with urllib.request.urlopen(f"{base}/api/runs/demo/fitness.png") as response:
        assert response.read(8) == b"\x89PNG\r\n\x1a\n"
    status, players = call(base, "GET", "/api/players")
    assert players["files"] == ["demo/best_player.json", "tiny.json"]  # by name, in the runs and players folders
    assert run["best_player"]["spec"] == "demo/best_player.json"
    assert "random" in [player["name"] for player in players["players"]]
    assert "human" not in [player["name"] for player in players["players"]]


# ----------------------------------------------------------------------------------------- error cases
@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"opponent": "nobody"}, 400, "unknown player 'nobody'"),
        ({"opponent": "minimax:depth=x"}, 400, "parameter depth must be int"),
        ({"opponent": "missing_player.json"}, 404, "no player file 'missing_player.json'"),
        ({"opponent": "human"}, 400, "needs a person"),
        ({"opponent": ""}, 400, "choose a player"),
        ({"opponent": "random", "position": "5A3./.C8./1..F -"}, 400, "malformed position"),
        ({"opponent": "random", "position": 7}, 400, "position must be position text"),
        ({"opponent": "random", "rules": "chess"}, 400, "rules must be one of classic, advanced, got 'chess'"),
        ({"opponent": "random", "seat": 2}, 400, "seat must be 0"),
        ({"opponent": "random", "seed": -1}, 400, "seed must be a whole number"),
        (b"{not json", 400, "not JSON"),
        (b"[1, 2]", 400, "must be a JSON object"),
    ],
)
def test_bad_new_game_requests_get_a_4xx_and_one_line(site, body, status, message):
    answer_status, answer = call(site[0], "POST", "/api/games", body)
    assert answer_status == status and message in answer["error"] and "\n" not in answer["error"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"square": 0}, "illegal move"),  # a choice is due
        ({"piece": 99}, "must be a whole number 0..15"),
        ({"piece": "3"}, "must be a whole number 0..15"),
        ({"piece": True}, "must be a whole number 0..15"),
        ({"piece": 1, "square": 2}, "a move is"),
        ({"pawn": 1}, "a move is"),
    ],
)
def test_bad_moves_get_400(site, body, message):
    state = new_game(site[0])
    status, answer = call(site[0], "POST", f"/api/games/{state['id']}/move", body)
    assert status == 400 and message in answer["error"]
    assert call(site[0], "GET", f"/api/games/{state['id']}")[1]["position"] == state["position"]  # unchanged


def test_a_taken_square_and_a_used_piece_are_illegal(site):
    base, _ = site
    state = move(base, new_game(base))  # I chose a piece, random placed it and chose one for me
    taken = next(square for square, piece in enumerate(state["cells"]) if piece is not None)
    status, answer = call(base, "POST", f"/api/games/{state['id']}/move", {"square": taken})
    assert status == 400 and "illegal move (place" in answer["error"]
    state = move(base, state)
    used = state["moves"][0]["action"]
    status, answer = call(base, "POST", f"/api/games/{state['id']}/move", {"piece": used})
    assert status == 400 and "illegal move (choose" in answer["error"]


def test_moves_after_the_end_undo_before_any_move_and_hints_after_the_end_are_refused(site):
    base, _ = site
    state = new_game(base, seat=1, opponent="crasher")
    assert call(base, "POST", f"/api/games/{state['id']}/move", {"piece": 0})[0] == 409
    assert call(base, "GET", f"/api/games/{state['id']}/hint")[0] == 409
    status, answer = call(base, "POST", f"/api/games/{new_game(base)['id']}/undo")
    assert status == 409 and "nothing to undo" in answer["error"]
    status, answer = call(base, "GET", f"/api/games/{new_game(base)['id']}/record")
    assert status == 409 and "not over yet" in answer["error"]


def test_unknown_games_runs_and_routes_get_404(site):
    base, _ = site
    for path in ("/api/games/nope", "/api/games/nope/hint", "/api/runs/nope", "/api/runs/..", "/api/nothing"):
        status, answer = call(base, "GET", path)
        assert status == 404 and answer["error"], path
    assert call(base, "POST", "/api/games/nope/move", {"piece": 1})[0] == 404
    status, answer = call(base, "GET", "/api/runs/demo/..%2F..%2Ftiny.json")
    assert status == 404


def test_games_with_a_page_script_of_their_own_serve_it_and_others_get_404(site):
    base, _ = site
    status, catalog = call(base, "GET", "/api/games")
    scripted = {game["name"] for game in catalog["games"] if game["page_script"]}
    assert status == 200 and {"quarto", "quixo"} <= scripted
    for name in scripted:
        with urllib.request.urlopen(f"{base}/games/{name}/page.js", timeout=60) as response:
            text = response.read().decode()
            assert response.headers["Content-Type"].startswith("text/javascript")
        assert f'registerGamePage("{name}"' in text  # the game's own script, registering its own name
    for path in ("/games/nope/page.js", "/games/..%2Fstatic/page.js", "/games/quarto/other.js"):
        status, answer = call(base, "GET", path)
        assert status == 404 and answer["error"], path


def test_a_page_script_that_cannot_be_read_is_a_one_line_plugin_error():
    from gpquarto.games.capabilities import WebSupport
    from gpquarto.games.plugin import PluginError

    assert WebSupport().page_script_text() is None
    with pytest.raises(PluginError, match=r"^the page script 'gpquarto.web:missing.js' cannot be read"):
        WebSupport(page_script="gpquarto.web:missing.js").page_script_text()
    with pytest.raises(PluginError, match="cannot be read"):
        WebSupport(page_script="no_such_package_here:page.js").page_script_text()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"players": ["random"]}, "two players"),
        ({"players": ["random", "nobody"]}, "unknown player 'nobody'"),
        ({"players": ["random", "random"], "position": "x"}, "malformed position"),
    ],
)
def test_bad_watch_requests_get_400(site, body, message):
    status, answer = call(site[0], "POST", "/api/watch", body)
    assert status == 400 and message in answer["error"]


def test_bad_records_get_400(site):
    record = play_game((load_player("random", seed=1), load_player("random", seed=2)), seed=1).to_dict()
    for broken, message in (
        ({"format": "other"}, "not a gpquarto game record"),
        ({**record, "actions": [1, 1], "times": [0.0, 0.0]}, "is illegal"),
        ({**record, "winner": 1 - (record["winner"] or 0), "end": "win"}, "replay gives"),
    ):
        status, answer = call(site[0], "POST", "/api/replay", broken)
        assert status == 400 and message in answer["error"], answer


def test_the_page_and_its_assets_are_served(site):
    with urllib.request.urlopen(site[0] + "/") as response:
        page = response.read().decode()
    assert '<svg id="play-board"' in page
    for asset in ("app.js", "style.css"):
        with urllib.request.urlopen(f"{site[0]}/static/{asset}") as response:
            assert response.status == 200 and response.read()


def test_serve_command_starts_the_app_on_loopback(tmp_path):
    command = [sys.executable, "-m", "gpquarto", "serve", "--port", "0", "--runs-dir", str(tmp_path)]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("gpquarto: serving on http://127.0.0.1:"), line + process.stderr.read()
        base = line.split()[3].rstrip("/")
        deadline = time.monotonic() + 60
        while True:
            try:
                status, listing = call(base, "GET", "/api/runs")
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, process.stderr.read()
                time.sleep(0.1)
        assert status == 200 and listing["runs"] == []
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_serve_command_refuses_a_port_in_use(cli):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        result = cli("serve", "--port", str(taken.getsockname()[1]))
    assert result.returncode == 2
    assert (
        result.stderr.startswith("gpquarto: error: cannot listen on 127.0.0.1:")
        and len(result.stderr.splitlines()) == 1
    )


def test_serve_command_rejects_a_missing_plugin(cli, tmp_path):
    result = cli("serve", "--plugin", str(tmp_path / "missing.py"))
    assert result.returncode == 2
    assert result.stderr.startswith("gpquarto serve: error: argument --plugin: plugin file not found")
    assert len(result.stderr.splitlines()) == 1
