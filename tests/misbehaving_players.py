"""Zoo players that misbehave, for the web app's tests (tests/test_web_api.py registers them).

The server runs a zoo player's decisions in a worker process, which imports the module defining the player to
unpickle it, and that import counts against the decision's time limit. So they live here, in a module that
imports next to nothing, and not in the test module, whose imports take a second or more on a loaded machine: a
player meant to raise "boom" must not forfeit on time instead.
"""

from __future__ import annotations

import time

from gpquarto.games.quarto.players.base import QuartoPlayer


class Crasher(QuartoPlayer):
    """Raises on every decision."""

    name = "crasher"

    def choose_piece(self, board):
        raise RuntimeError("boom")

    def place_piece(self, board, piece):
        raise RuntimeError("boom")


class Cheater(QuartoPlayer):
    """Answers actions that do not exist."""

    name = "cheater"

    def choose_piece(self, board):
        return 99

    def place_piece(self, board, piece):
        return None


class Sleeper(QuartoPlayer):
    """Takes longer than the test server's time limit (3 s against 2 s)."""

    name = "sleeper"

    def choose_piece(self, board):
        time.sleep(3)
        return board.legal_pieces()[0]

    def place_piece(self, board, piece):
        time.sleep(3)
        return board.legal_squares()[0]
