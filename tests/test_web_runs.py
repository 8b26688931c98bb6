"""The web app's Runs page beyond the plain rule run: a simplified champion shown first (its report bounded and
escaped), and evolved evaluators: an evaluator run on the page, its search offered and played against, every bad
evaluator spec refused in one line with a 4xx (the file only from the folders the server was given)."""

from __future__ import annotations

import pytest

from gpquarto.games.quarto.board import PLACE_OFFSET, Board
from gpquarto.games.quarto.search.heuristics import get_heuristic
from gpquarto.games.quarto.search.negamax import Negamax
from gpquarto.gp.evaluator_files import load_evaluator
from tests.web_support import (
    SIMPLIFIED_RULES,
    add_simplified_player,
    call,
    make_evaluator_run_folder,
    make_run_folder,
    running_server,
)

SPEC = "minimax:depth=1,evaluator=evaluator-demo/best_evaluator.json"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("web-evaluators")
    make_run_folder(root / "runs")
    add_simplified_player(make_run_folder(root / "runs", "simplified"))
    add_simplified_player(make_run_folder(root / "runs", "hostile"), {"removed": "\x1b[2J" + "x" * 50_000})
    make_evaluator_run_folder(root / "runs")
    (root / "elsewhere").mkdir()
    make_evaluator_run_folder(root / "elsewhere", name="hidden")
    with running_server(runs_dir=root / "runs", time_limit=30) as base:
        yield base, root


def test_the_runs_page_shows_the_evaluator_its_simplified_formula_and_the_spec_that_plays_it(site):
    base, _ = site
    status, listing = call(base, "GET", "/api/runs")
    assert status == 200 and sorted(run["name"] for run in listing["runs"]) == [
        "demo",
        "evaluator-demo",
        "hostile",
        "simplified",
    ]
    status, run = call(base, "GET", "/api/runs/evaluator-demo")
    assert status == 200 and run["problems"] == [] and run["best_player"] is None
    evaluator = run["best_evaluator"]
    assert evaluator["formula"] == "evaluation = safe_piece_count + (threats - threats)"
    assert evaluator["simplified"] == "evaluation = safe_piece_count"
    assert evaluator["spec"] == SPEC and evaluator["fitness"] == {"score": 0.625}
    assert run["game"] == "quarto"
    assert call(base, "GET", "/api/runs/demo")[1]["best_evaluator"] is None  # a rule run has none
    status, players = call(base, "GET", "/api/players")
    assert players["files"] == [
        "demo/best_player.json",
        "hostile/best_player.json",
        "simplified/best_player.json",
        SPEC,
    ]


def test_a_simplified_champion_comes_with_its_rules_and_what_was_removed(site):
    base, _ = site
    status, run = call(base, "GET", "/api/runs/simplified")
    assert status == 200 and run["problems"] == []
    simplified = run["best_player"]["simplified"]
    assert simplified["rules"] == {
        kind: [f"if {condition} then {action}" for condition, action in rules]
        for kind, rules in SIMPLIFIED_RULES.items()
    }
    assert simplified["summary"] == (
        "simplified: 2 -> 1 choose rules, 1 -> 1 place rules, 6 -> 4 nodes (removed false condition: choose 1); "
        "decides like the original at 321 positions"
    )
    assert run["best_player"]["rules"]["choose"] == ["if False then tall_piece", "if True then tall_piece"]
    assert run["best_player"]["spec"] == "simplified/best_player.json"  # the original plays: they decide alike
    assert call(base, "GET", "/api/runs/demo")[1]["best_player"]["simplified"] is None
    # A report that is not one: shown bounded, its control characters escaped.
    summary = call(base, "GET", "/api/runs/hostile")[1]["best_player"]["simplified"]["summary"]
    assert summary.startswith("simplification: {") and "\x1b" not in summary and len(summary) < 2_100


#: A position where the piece in hand (5) goes to a square the test evaluator prefers at depth 1 (9 or 3), none of
#: which the default heuristic (``lines``) would choose (0, 4, 14 or 15).
UNLIKE_LINES = "..../.E9./6.../32.. 5"


def test_a_game_against_the_evaluator_search_plays_its_best_moves(site):
    base, root = site
    evaluator = load_evaluator(root / "runs" / "evaluator-demo" / "best_evaluator.json")
    by_evaluator, by_lines = Negamax(evaluator.heuristic()), Negamax(get_heuristic("lines"))
    start = Board.from_text(UNLIKE_LINES)
    best = {square for square, _ in by_evaluator.best_placement(start, 1).best_moves}
    assert best == {3, 9} and not best & {square for square, _ in by_lines.best_placement(start, 1).best_moves}
    body = {"opponent": SPEC, "seed": 3, "seat": 1 - start.player, "position": UNLIKE_LINES}
    status, state = call(base, "POST", "/api/games", body)
    assert status == 201, state
    assert state["moves"][0]["seat"] == 0 and state["moves"][0]["action"] - PLACE_OFFSET in best
    while not state["over"]:
        body = {"square": state["cells"].index(None)} if state["placement_due"] else {"piece": state["available"][-1]}
        status, state = call(base, "POST", f"/api/games/{state['id']}/move", body)
        assert status == 200, state
    board = Board.from_text(UNLIKE_LINES)
    for entry in state["moves"]:  # every placement of the server's player is one of the evaluator's best
        if entry["seat"] == 0 and entry["action"] >= PLACE_OFFSET:
            best = {square for square, _ in by_evaluator.best_placement(board, 1).best_moves}
            assert entry["action"] - PLACE_OFFSET in best, board.text()
        board.apply(entry["action"])
    assert board.text() == state["position"]


@pytest.mark.parametrize(
    ("opponent", "status", "message"),
    [
        ("minimax:depth=9,evaluator=evaluator-demo/best_evaluator.json", 400, "minimax depth is at most 6"),
        ("mcts:iterations=9999999,evaluator=evaluator-demo/best_evaluator.json", 400, "mcts iterations is at most"),
        ("minimax:depth=1,evaluator=../elsewhere/hidden/best_evaluator.json", 404, "no player file"),
        ("minimax:depth=1,evaluator=nothing/best_evaluator.json", 404, "no player file"),
        ("minimax:depth=1,evaluator=evaluator-demo/logbook.csv", 404, "no player file"),
        ("minimax:depth=1,evaluator=", 400, "evaluator= needs an evaluator file"),
        ("minimax:depth=1,evaluator=demo/best_player.json", 400, "demo/best_player.json: not a gpquarto evaluator"),
        ("frontier:evaluator=evaluator-demo/best_evaluator.json", 400, "player 'frontier' takes no evaluator"),
        (
            "minimax:depth=1,heuristic=lines,evaluator=evaluator-demo/best_evaluator.json",
            400,
            "give heuristic or evaluator, not both",
        ),
        ("minimax:depth=x,evaluator=evaluator-demo/best_evaluator.json", 400, "parameter depth must be int"),
    ],
)
def test_bad_evaluator_specs_get_a_4xx_in_one_line_that_shows_no_server_folder(site, opponent, status, message):
    base, root = site
    answer_status, answer = call(base, "POST", "/api/games", {"opponent": opponent})
    assert answer_status == status and message in answer["error"], answer
    assert "\n" not in answer["error"] and str(root) not in answer["error"]


def test_an_evaluator_plays_quarto_only(site):
    status, answer = call(site[0], "POST", "/api/games", {"game": "quixo", "opponent": SPEC})
    assert status == 400 and answer["error"] == "evolved evaluators are not made for quixo"
