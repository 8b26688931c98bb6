"""The web app in a real browser: headless Chromium (Debian's ``/usr/bin/chromium``) driven by Playwright.

One server, one browser and one tab serve the whole module; each test opens the app afresh in the tab. Without a
browser (:mod:`tests.browser`), the module is skipped with one line naming how to enable it, unless
``GPQUARTO_REQUIRE_BROWSER=1`` is set (``.ci/run`` sets it and installs Chromium), which turns a missing browser into
a failure, so CI can never skip these tests silently. Screenshots of the board are saved under ``test-artifacts/``
(git-ignored)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, sync_playwright

from gpquarto.arena.game import play_game
from gpquarto.arena.record import GameRecord
from gpquarto.games.quarto.board import PLACE_OFFSET, Board
from gpquarto.games.quarto.search.solver import solve
from gpquarto.web.players import load_player
from tests.browser import browser_or_skip
from tests.conftest import REPO
from tests.web_support import (
    SIMPLIFIED_RULES,
    TINY_RULES,
    add_simplified_player,
    make_evaluator_run_folder,
    make_run_folder,
    running_server,
    save_tiny_player,
)

CHROMIUM = browser_or_skip()
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = REPO / "test-artifacts"
#: A position where the piece in hand (F: tall, dark, solid, square) wins on d3 (the third row's last square):
#: row 3 holds 8, C and 9, all tall.
WIN_IN_ONE = "..../.3../8C9./.... F"
#: Ten empty squares, a choice due for player 1 (the opponent, when I sit first): a hint is solvable after it.
ENDGAME = "5A3./.C8./1..F/.... -"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser")
    make_run_folder(root / "runs")
    add_simplified_player(make_run_folder(root / "runs", "simplified"))
    make_evaluator_run_folder(root / "runs")
    save_tiny_player(root / "tiny.json")
    with running_server(runs_dir=root / "runs", players_dirs=[root], time_limit=30) as base:
        yield base, root


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def tab(browser):
    """One browser tab for the module's tests: each test opens the app in it afresh (:func:`page`), which costs a
    document load instead of a new context's renderer process."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page, errors
    context.close()


@pytest.fixture
def page(tab, site) -> Page:
    page, errors = tab
    errors.clear()
    page.goto("about:blank")
    page.goto(site[0] + "/#play")
    page.wait_for_selector("body[data-ready=true]")
    yield page
    assert not errors, errors  # no JavaScript exception during the test


def screenshot(page: Page, name: str, selector: str = "main") -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.locator(selector).screenshot(path=str(path))
    print(f"screenshot: {path}")
    return path


def wait_idle(page: Page, section: str = "page-play") -> None:
    page.wait_for_function(f"document.getElementById('{section}').dataset.busy === 'false'")


def act(page: Page, locator, section: str = "page-play") -> None:
    """Click and wait for the server's answer to be drawn."""
    with page.expect_response(lambda response: "/api/" in response.url):
        locator.click()
    wait_idle(page, section)


def start_game(page: Page, opponent: str = "random", *, seed: int = 1, position: str = "", seat: str = "0") -> None:
    page.fill("#play-opponent", opponent)
    page.fill("#play-seed", str(seed))
    page.fill("#play-position", position)
    page.select_option("#play-seat", seat)
    act(page, page.locator("#play-new"))


def position(page: Page) -> str:
    return page.inner_text("#play-position-text")


def take_first_action(page: Page) -> int:
    """Click the first clickable square or piece; returns the action (single-int encoding)."""
    square = page.locator("#play-board .cell.clickable").first
    if square.count():
        action = PLACE_OFFSET + int(square.get_attribute("data-square"))
        act(page, square)
    else:
        piece = page.locator("#play-tray .slot.clickable").first
        action = int(piece.get_attribute("data-piece"))
        act(page, piece)
    return action


def test_a_whole_game_against_random_by_clicking(page):
    start_game(page, seed=4)
    board = Board()
    while page.get_attribute("#page-play", "data-over") != "true":
        before = Board.from_text(position(page))
        action = take_first_action(page)
        assert action in before.legal_actions()
        board = Board.from_text(position(page))
    assert page.inner_text("#play-status").startswith("Game over:")
    moves = page.locator("#play-moves li")
    replayed = Board()
    for index in range(moves.count()):
        replayed.apply(int(moves.nth(index).get_attribute("data-action")))
    assert replayed.text() == board.text()
    highlighted = {
        int(s) for s in page.locator("#play-board .cell.win").evaluate_all("l => l.map(e => e.dataset.square)")
    }
    assert highlighted == {square for line in board.winning_lines() for square in line}
    screenshot(page, "play-game-over")
    with page.expect_download() as download:
        page.click("#play-save")
    saved = GameRecord.load(download.value.path())
    assert saved.replay().text() == board.text() and saved.players == ("you", "random")


def test_the_winning_line_is_highlighted(page):
    start_game(page, position=WIN_IN_ONE, seat="1")  # four pieces placed: player 1 places the fifth
    assert page.get_attribute("#play-hand", "data-piece") == "15"
    act(page, page.locator("#play-board .cell[data-square='11']"))
    assert page.inner_text("#play-status") == "Game over: you win."
    highlighted = page.locator("#play-board .cell.win").evaluate_all("l => l.map(e => Number(e.dataset.square))")
    assert sorted(highlighted) == [8, 9, 10, 11]
    assert page.locator("#play-board .win-line").count() == 1
    screenshot(page, "play-winning-line", "#page-play .game")


def test_undo_restores_the_position(page):
    start_game(page, seed=2)
    take_first_action(page)  # I choose; random places and chooses
    take_first_action(page)  # I place
    before = position(page)
    take_first_action(page)  # I choose; random replies
    assert position(page) != before
    act(page, page.locator("#play-undo"))
    assert position(page) == before
    assert page.locator("#play-tray .slot.clickable").count() > 0  # my choice is due again


def test_hint_matches_the_solver(page):
    start_game(page, position=ENDGAME)
    act(page, page.locator("#play-hint"))
    text = page.locator("#play-hint-text")
    assert text.get_attribute("data-solved") == "true"
    result = solve(Board.from_text(position(page)))
    assert text.get_attribute("data-actions") == ",".join(str(action) for action in result.best_actions)
    hinted = page.locator("#play-board .cell.hint").evaluate_all("l => l.map(e => Number(e.dataset.square))")
    assert sorted(hinted) == sorted(action - PLACE_OFFSET for action in result.best_actions)
    screenshot(page, "play-hint", "#page-play .game")


def test_hint_says_too_early_at_the_start(page):
    start_game(page)
    act(page, page.locator("#play-hint"))
    assert page.inner_text("#play-hint-text").startswith("too early to solve")


def test_an_evolved_players_moves_show_the_rule_that_fired(page, site):
    start_game(page, "tiny.json", seat="1")  # it chooses first: a tall piece, by its rule 2
    why = page.locator("#play-moves li").first.locator(".explanation")
    assert why.get_attribute("data-rule") == "2"
    assert why.locator(".rule-text").inner_text() == "if {} then {}".format(*TINY_RULES["choose"][1])
    assert int(page.get_attribute("#play-hand", "data-piece")) & 8  # the piece it gave me is tall
    take_first_action(page)  # I place; I choose next
    take_first_action(page)  # it places on a corner by its place rule 1, then chooses
    texts = page.locator("#play-moves li .rule-text").all_inner_texts()
    assert texts[1] == "if {} then {}".format(*TINY_RULES["place"][0])
    screenshot(page, "play-explained", "#page-play .game")


def test_an_unknown_player_shows_an_error_on_the_page(page):
    start_game(page, "nobody")
    assert "unknown player 'nobody'" in page.inner_text("#error")
    assert page.is_visible("#error")


def test_watch_a_game_to_its_end(page):
    page.goto(page.url.split("#")[0] + "#watch")
    page.fill("#watch-a", "novice")
    page.fill("#watch-b", "random")
    page.fill("#watch-seed", "7")
    act(page, page.locator("#watch-start"), "page-watch")
    assert page.get_attribute("#page-watch", "data-frame") == "0"
    page.click("#watch-step")
    assert page.get_attribute("#page-watch", "data-frame") == "1"
    page.select_option("#watch-speed", "60")
    page.click("#watch-play")
    page.wait_for_function("document.getElementById('page-watch').dataset.atEnd === 'true'", timeout=60_000)
    assert page.inner_text("#watch-play") == "Play"  # stopped at the end
    record = play_game(
        (load_player("novice", seed=7), load_player("random", seed=7)), seed=7, names=("novice", "random")
    )
    assert page.inner_text("#watch-position-text") == record.replay().text()
    assert page.inner_text("#watch-status").startswith("Result: ")
    with page.expect_download() as download:
        page.click("#watch-save")
    assert GameRecord.load(download.value.path()).actions == record.actions
    screenshot(page, "watch-end")


def test_replay_a_saved_game_record(page, tmp_path):
    record = play_game((load_player("random", seed=3), load_player("random", seed=4)), seed=11, names=("ann", "bob"))
    path = tmp_path / "game.json"
    record.save(path)
    page.goto(page.url.split("#")[0] + "#watch")
    page.set_input_files("#replay-file", str(path))
    act(page, page.locator("#replay-start"), "page-watch")
    assert page.inner_text("#watch-players").startswith("A (seat 0): ann")
    for _ in range(len(record.actions)):
        page.click("#watch-step")
    assert page.inner_text("#watch-position-text") == record.replay().text()
    assert page.get_attribute("#page-watch", "data-at-end") == "true"
    page.click("#watch-back")
    assert int(page.get_attribute("#page-watch", "data-frame")) == len(record.actions) - 1
    page.set_input_files("#replay-file", {"name": "bad.json", "mimeType": "application/json", "buffer": b"{}"})
    act(page, page.locator("#replay-start"), "page-watch")
    assert "not a gpquarto game record" in page.inner_text("#error")


def test_runs_page_shows_the_curve_rules_and_hall_of_fame(page, site):
    page.goto(page.url.split("#")[0] + "#runs")
    page.click("a[data-run=demo]")
    page.wait_for_selector("#run-best ol[data-kind=choose] li")
    rules = page.locator("#run-best ol[data-kind=choose] li").all_inner_texts()
    assert rules == ["if {} then {}".format(*pair) for pair in TINY_RULES["choose"]]
    assert page.locator("#run-curve polyline.best").count() == 1
    assert "score 0.75" in page.inner_text("#run-hof")
    page.wait_for_function("document.getElementById('run-plot').naturalWidth > 0")
    screenshot(page, "runs")
    page.click("#run-play")
    assert page.input_value("#play-opponent") == "demo/best_player.json"  # by name in the runs folder
    page.wait_for_function("location.hash === '#play'")
    page.wait_for_selector("#page-play", state="visible")  # shown by the hashchange handler, which runs after


def test_a_simplified_champion_is_shown_first_with_the_original_folded_away(page, site):
    page.goto(page.url.split("#")[0] + "#runs")
    page.click("a[data-run=simplified]")
    page.wait_for_selector("#run-simplification")
    assert page.inner_text("#run-simplification").startswith("simplified: 2 -> 1 choose rules")
    shown = page.locator("#run-best > ol[data-kind=choose] li").all_inner_texts()
    assert shown == ["if {} then {}".format(*pair) for pair in SIMPLIFIED_RULES["choose"]]
    original = page.locator("#run-original ol[data-kind=choose] li")
    assert not original.first.is_visible()
    page.click("#run-original summary")
    assert original.all_inner_texts() == ["if {} then {}".format(*pair) for pair in TINY_RULES["choose"]]
    # A long rule wraps: the page is never wider than the window.
    page.evaluate(
        "document.querySelector('#run-best > ol li').textContent = 'if True then ' + 'first_free_square('.repeat(60)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280


def test_an_evaluator_run_shows_its_formulas_and_plays_as_its_search(page, site):
    page.goto(page.url.split("#")[0] + "#runs")
    page.click("a[data-run=evaluator-demo]")
    page.wait_for_selector("#run-formula")
    assert page.inner_text("#run-formula") == "evaluation = safe_piece_count + (threats - threats)"
    assert page.inner_text("#run-simplified") == "simplified: evaluation = safe_piece_count"
    assert page.locator("#run-best ol").count() == 0  # no rules: an evaluator is a formula
    screenshot(page, "runs-evaluator")
    page.click("#run-play")
    spec = "minimax:depth=1,evaluator=evaluator-demo/best_evaluator.json"
    assert page.input_value("#play-opponent") == spec
    page.wait_for_function("location.hash === '#play'")
    start_game(page, spec, seed=2, seat="1")  # the search moves first
    assert page.locator("#play-moves li").count() == 1
    assert "Your turn" in page.inner_text("#play-status")
    take_first_action(page)  # place the piece it gave
    take_first_action(page)  # give it a piece: it places and gives one back
    assert page.locator("#play-moves li").count() == 5
