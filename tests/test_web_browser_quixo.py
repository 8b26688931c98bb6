"""The Quixo pages in a real browser: headless Chromium driven by Playwright, as for Quarto
(:mod:`tests.test_web_browser`, whose browser, page and helpers this module shares: the page fixture fails a test
that raised any JavaScript exception).

Play a game to its end by clicking (a cube, then a lit end), undo, hints (4x4 from the cached solution, 3x3
computed by the server while the page waits), watch and replay with their result lines, repetition and ply-limit
draws included. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from gpquarto.arena.game import play_game
from gpquarto.arena.record import GameRecord
from gpquarto.games.quixo import QuixoBoard
from gpquarto.games.quixo.search import solver
from gpquarto.games.quixo.tables import tables
from gpquarto.web.players import load_player
from tests import test_web_browser as quarto_pages
from tests.test_web_browser import act, position, screenshot, start_game, wait_idle
from tests.test_web_quixo import REPETITION_SEED, WIN_IN_ONE_4X4
from tests.web_support import running_server, solutions_cache

pytestmark = pytest.mark.skipif(solver.numba is None, reason="solving 4x4 takes numba (pip install 'gpquarto[fast]')")

#: The Quarto pages' fixtures: one browser and one tab for the module, and a page that opens the app afresh in the
#: tab and fails its test on a JavaScript error.
browser = quarto_pages.browser
tab = quarto_pages.tab
page = quarto_pages.page


@pytest.fixture(scope="module")
def site(tmp_path_factory, quixo_4x4_solution):
    """A server with this module's own solutions cache, holding the 4x4 solution (solved once per test session)
    and no 3x3 one: the server computes that one when the page first asks."""
    root = tmp_path_factory.mktemp("browser-quixo")
    with solutions_cache(root / "cache", (4, "official")):
        with running_server(runs_dir=root / "runs", time_limit=30) as base:
            yield base, root


def start_quixo(page: Page, *, size: str = "5", **options) -> None:
    """Choose Quixo and the board size, then start as for Quarto (:func:`tests.test_web_browser.start_game`)."""
    page.get_by_label("Game").first.select_option("quixo")
    page.select_option("#play-setting-size", size)
    start_game(page, **options)


def take_first_action(page: Page) -> int:
    """Click the first cube I may take, then the first lit end; returns the action."""
    page.locator("#play-board .cube.takable").first.click()
    end = page.locator("#play-board .end").first
    action = int(end.get_attribute("data-action"))
    act(page, end)
    return action


def test_a_whole_quixo_game_against_random_by_clicking(page):
    start_quixo(page, seed=4)
    assert page.locator("#play-board .cube").count() == 25
    assert page.is_hidden("#play-tray") and page.is_visible("#play-quixo-info")
    assert page.inner_text("#play-status") == "Your turn (X): click a border cube that is blank or X."
    assert page.locator("#play-board .cube.takable").count() == 16  # the empty border
    page.locator("#play-board .cube[data-cell='1']").click()  # b1: its ends light up
    assert page.locator("#play-board .end").evaluate_all("l => l.map(e => e.getAttribute('aria-label'))") == [
        "b1 to bottom",
        "b1 to left",
        "b1 to right",
    ]
    assert "push b1 in at a lit end" in page.inner_text("#play-status")
    screenshot(page, "quixo-ends-lit", "#page-play .game")
    page.locator("#play-board .cube[data-cell='1']").click()  # deselected
    assert page.locator("#play-board .end").count() == 0
    while page.get_attribute("#page-play", "data-over") != "true":
        before = QuixoBoard.from_text(position(page))
        assert take_first_action(page) in before.legal_actions()
    status = page.inner_text("#play-status")
    assert status.startswith("Game over: ")
    board = QuixoBoard()
    for index in range(page.locator("#play-moves li").count()):
        board.apply(int(page.locator("#play-moves li").nth(index).get_attribute("data-action")))
    assert board.text() == position(page)
    if board.winner is not None:
        assert status == f"Game over: {'you win' if board.winner == 0 else 'random wins'}."
    highlighted = page.locator("#play-board .cube.win").evaluate_all("l => l.map(e => Number(e.dataset.cell))")
    lines = complete_lines(board)
    assert sorted(highlighted) == sorted({cell for line in lines for cell in line})
    assert page.locator("#play-board .win-line").count() == len(lines)
    screenshot(page, "quixo-game-over")
    with page.expect_download() as download:
        page.click("#play-save")
    saved = GameRecord.load(download.value.path())
    assert saved.game == "quixo" and saved.replay().text() == board.text() and saved.players == ("you", "random")


def complete_lines(board: QuixoBoard) -> list[list[int]]:
    """The lines of one symbol on the board, as lists of cells."""
    n = board.size
    lines = [[cell for cell in range(n * n) if line >> cell & 1] for line in tables(n).lines]
    return [line for line in lines if len({board.cells[cell] for cell in line}) == 1 and board.cells[line[0]] >= 0]


def test_quixo_undo_restores_the_position(page):
    start_quixo(page, size="4", seed=2)
    take_first_action(page)
    before = position(page)
    take_first_action(page)
    assert position(page) != before
    act(page, page.get_by_role("button", name="Undo my move"))
    assert position(page) == before
    assert page.locator("#play-board .cube.takable").count() > 0


def test_a_4x4_hint_lights_the_winning_push(page):
    start_quixo(page, position=WIN_IN_ONE_4X4)
    assert page.locator("#play-board .cube").count() == 16
    act(page, page.get_by_role("button", name="Hint"))
    text = page.locator("#play-hint-text")
    assert text.get_attribute("data-solved") == "true"
    assert text.inner_text().startswith("Hint: win in 1 ply with best play: ")
    board = QuixoBoard.from_text(WIN_IN_ONE_4X4)
    winning = [int(action) for action in text.get_attribute("data-actions").split(",")]
    assert board.parse_action("d1 to left") in winning
    hinted = page.locator("#play-board .cube.hint").evaluate_all("l => l.map(e => Number(e.dataset.cell))")
    assert sorted(hinted) == sorted({action >> 2 for action in winning})
    page.get_by_role("button", name="d1:").click()
    assert page.locator("#play-board .end.hint").get_attribute("aria-label") == "d1 to left"
    screenshot(page, "quixo-hint", "#page-play .game")
    act(page, page.get_by_role("button", name="d1 to left", exact=True))
    assert page.inner_text("#play-status") == "Game over: you win."
    assert page.locator("#play-board .cube.win").count() == 4


def test_a_3x3_hint_waits_for_the_solution_then_matches_the_solver(page):
    start_quixo(page, size="3")
    page.get_by_role("button", name="Hint").click()
    text = page.locator("#play-hint-text")
    page.wait_for_function("document.getElementById('play-hint-text').dataset.solved === 'true'", timeout=120_000)
    exact = solver.compute(3, compiled=False)
    best = exact.best_actions(QuixoBoard(3))
    assert text.get_attribute("data-actions") == ",".join(str(action) for action in best)
    assert text.inner_text().startswith("Hint: win in 7 plies with best play: ")


def test_watch_a_quixo_game_to_its_end(page):
    page.goto(page.url.split("#")[0] + "#watch")
    page.select_option("#watch-game", "quixo")
    assert page.input_value("#watch-a") == "alphabeta:depth=2"  # novice plays Quarto only
    page.select_option("#watch-setting-size", "4")
    page.fill("#watch-b", "random")
    page.fill("#watch-seed", "7")
    act(page, page.locator("#watch-start"), "page-watch")
    assert page.get_attribute("#page-watch", "data-game") == "quixo"
    assert page.locator("#watch-board .cube").count() == 16 and page.is_hidden("#watch-hand")
    page.click("#watch-step")
    assert page.get_attribute("#page-watch", "data-frame") == "1"
    assert page.locator("#watch-board .cube.last").count() == 1
    page.click("#watch-last")
    assert page.get_attribute("#page-watch", "data-at-end") == "true"
    assert page.inner_text("#watch-status").startswith("Result: ")
    with page.expect_download() as download:
        page.click("#watch-save")
    record = GameRecord.load(download.value.path())
    assert record.game == "quixo" and record.settings["size"] == 4
    assert page.inner_text("#watch-position-text") == record.replay().text()
    screenshot(page, "quixo-watch-end")


@pytest.mark.parametrize(
    ("settings", "seed", "result"),
    [
        (
            {},
            REPETITION_SEED,
            "Result: draw by repetition: the same position with the same side to move for the 3rd time.",
        ),
        ({"ply_limit": 20}, 1, "Result: draw: the ply limit (20 moves) was reached."),
    ],
)
def test_replay_a_quixo_record_drawn_by_repetition_or_the_ply_limit(page, tmp_path, settings, seed, result):
    players = (load_player("random", game="quixo"), load_player("random", game="quixo"))
    record = play_game(players, game="quixo", settings=settings, seed=seed, names=("ann", "bob"))
    assert record.winner is None
    path = tmp_path / "game.json"
    record.save(path)
    page.goto(page.url.split("#")[0] + "#watch")
    page.set_input_files("#replay-file", str(path))
    act(page, page.locator("#replay-start"), "page-watch")
    assert page.inner_text("#watch-players").startswith("A (seat 0): ann")
    page.click("#watch-last")
    assert page.inner_text("#watch-position-text") == record.replay().text()
    assert page.inner_text("#watch-status") == result
    page.click("#watch-back")
    assert int(page.get_attribute("#page-watch", "data-frame")) == len(record.actions) - 1
    screenshot(page, f"quixo-replay-{record.end}")


def test_switching_back_to_quarto_draws_a_quarto_board(page):
    start_quixo(page, size="3")
    page.select_option("#play-game", "quarto")
    assert page.locator("#play-setting-rules option").all_inner_texts() == ["classic", "advanced"]
    page.fill("#play-position", "")
    act(page, page.locator("#play-new"))
    assert page.get_attribute("#play-board", "data-game") == "quarto"
    assert page.locator("#play-board .cell").count() == 16 and page.is_visible("#play-tray")
    wait_idle(page)
