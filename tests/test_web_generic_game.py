"""The web app for a game it has no controls of its own for (tic-tac-toe, written in the tests): ``GET /api/games``
lists it with its settings schema, its board is a grid of cells and its moves are named buttons; a whole game is
played in a real browser (headless Chromium driven by Playwright, as in :mod:`tests.test_web_browser`)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from gpquarto.games.registry import register_plugin, unregister_plugin
from tests import test_web_browser as quarto_pages
from tests import tictactoe
from tests.test_web_browser import act, position, screenshot, wait_idle
from tests.web_support import call, running_server

browser = quarto_pages.browser
tab = quarto_pages.tab
page = quarto_pages.page


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    register_plugin(tictactoe.PLUGIN)
    root = tmp_path_factory.mktemp("generic")
    try:
        with running_server(runs_dir=root / "runs", time_limit=10) as base:
            yield base, root
    finally:
        unregister_plugin(tictactoe.GAME.name)


def test_the_api_lists_the_game_draws_its_grid_and_plays_it_by_name(site):
    base = site[0]
    status, answer = call(base, "GET", "/api/games")
    assert status == 200 and [game["name"] for game in answer["games"]][0] == "quarto"
    (listed,) = [game for game in answer["games"] if game["name"] == "tictactoe"]
    assert listed["settings"] == [
        {"name": "misere", "type": "bool", "default": False, "choices": [], "minimum": None, "maximum": None,
         "help": "three in a row loses"}
    ]  # fmt: skip
    status, game = call(base, "POST", "/api/games", {"game": "tictactoe", "opponent": "random", "misere": True})
    assert status == 201 and game["settings"] == {"misere": True}
    assert game["grid"] == {"rows": 3, "columns": 3, "cells": [0] * 9, "seat_marks": True}
    assert game["legal_actions"] == list(range(9)) and game["action_names"][4] == "b2"
    status, game = call(base, "POST", f"/api/games/{game['id']}/move", {"action": "b2"})
    assert status == 200 and game["grid"]["cells"][4] == 1 and len(game["moves"]) == 2  # random answered
    status, hint = call(base, "GET", f"/api/games/{game['id']}/hint")
    assert status == 200 and hint["solved"] and set(hint["best_actions"]) <= set(game["legal_actions"])
    status, error = call(base, "POST", f"/api/games/{game['id']}/move", {"square": 3})
    assert status == 400 and error["error"] == 'a move is {"action": 0..8}'


def test_a_whole_game_in_the_browser_by_clicking_named_moves(page: Page):
    page.get_by_label("Game").first.select_option("tictactoe")
    assert page.locator("#play-setting-misere").is_visible() and page.locator("[data-slot=play-controls]").is_hidden()
    page.fill("#play-opponent", "random")
    page.fill("#play-seed", "3")
    act(page, page.locator("#play-new"))
    assert page.locator("#play-board .grid-cell").count() == 9
    while page.locator("#page-play").get_attribute("data-over") != "true":
        act(page, page.locator("#play-actions button").first)
    wait_idle(page)
    assert page.inner_text("#play-status").startswith("Game over: ")
    assert page.locator("#play-board .grid-cell[data-value='1']").count() >= 3
    assert position(page).endswith((" X", " O"))
    screenshot(page, "generic-game-tictactoe")


def test_watching_two_players_draws_every_frame_on_the_grid(page: Page):
    page.goto(page.url.split("#")[0] + "#watch")
    page.get_by_label("Game").nth(1).select_option("tictactoe")
    page.fill("#watch-a", "random")
    page.fill("#watch-b", "random")
    act(page, page.locator("#watch-start"), "page-watch")
    page.locator("#watch-last").click()
    assert page.locator("#watch-board .grid-cell").count() == 9
    assert page.inner_text("#watch-status").startswith("Result: ")
