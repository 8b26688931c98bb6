"""PNG pictures of Connect Four positions and games with matplotlib (the capability
:class:`~gpquarto.games.capabilities.Pictures`, for ``solve --png``, ``watch --png`` and ``show --png``).

A blue board with red (X) and yellow (O) discs; the winning line ringed green, the last disc ringed black, the columns of
highlighted actions (the solver's best moves) marked with a green arrow above the board. Figures are drawn on
the Agg canvas (no pyplot, no window, no global state).
"""

from __future__ import annotations

import math
import os

from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrow, FancyBboxPatch

from connect_four.game import CONNECT_FOUR, LETTERS, ConnectFourState
from gpquarto.games.capabilities import Pictures

FRAME, HOLE, INK = "#1f4e9c", "#f3f1ea", "#1b1b1b"
DISCS = ("#d62d20", "#f2c12e")
WIN, HINT = "#12a150", "#2e8b57"
FRAMES_PER_ROW = 6


def draw_board(axes, state: ConnectFourState, *, title: str = "", highlight: tuple[int, ...] = ()) -> None:
    """The board, bottom row at the bottom, on ``axes`` (one cell is 1 unit wide)."""
    rows, columns = state.rows, state.columns
    axes.add_patch(
        FancyBboxPatch((0.02, 0.02), columns - 0.04, rows - 0.04, boxstyle="round,pad=0.05", facecolor=FRAME)
    )
    winning = set(state.winning_line())
    last = (state.height(state.history[-1]) - 1, state.history[-1]) if state.history else None
    for column in range(columns):
        for row in range(rows):
            owner = state.cell(row, column)
            colour = HOLE if owner < 0 else DISCS[owner]
            edge = WIN if (row, column) in winning else INK if (row, column) == last else FRAME
            width = 4 if (row, column) in winning else 2 if (row, column) == last else 1
            axes.add_patch(Circle((column + 0.5, row + 0.5), 0.4, facecolor=colour, edgecolor=edge, linewidth=width))
        axes.text(column + 0.5, -0.25, LETTERS[column], ha="center", va="top", fontsize=8, color=INK)
    for column in highlight:
        if 0 <= column < columns:
            axes.add_patch(FancyArrow(column + 0.5, rows + 0.75, 0, -0.45, width=0.08, head_width=0.3, color=HINT))
    axes.set_xlim(-0.2, columns + 0.2)
    axes.set_ylim(-0.6, rows + 0.9)
    axes.set_aspect("equal")
    axes.axis("off")
    if title:
        axes.set_title(title, fontsize=9)


def position_figure(state: ConnectFourState, *, title: str = "", highlight: tuple[int, ...] = ()) -> Figure:
    """One position."""
    figure = Figure(figsize=(0.55 * state.columns + 1.2, 0.55 * state.rows + 1.4))
    draw_board(figure.add_subplot(), state, title=title or state.text(), highlight=highlight)
    return figure


def game_figure(record, result: str) -> Figure:
    """A whole game (a gpquarto ``GameRecord``: ``start``, ``actions``, ``players``, ``settings``) as a grid of
    frames, the start and then the position after each move; the last frame's title adds ``result``."""
    settings = dict(getattr(record, "settings", None) or {})
    state = CONNECT_FOUR.from_text(record.start, **settings)
    names = [os.path.basename(str(name)) for name in record.players]
    frames: list[tuple[ConnectFourState, str]] = [(state.copy(), "start")]
    for number, action in enumerate(record.actions, 1):
        seat = state.player
        state.apply(action)
        frames.append((state.copy(), f"{number}. {names[seat]}: {state.action_name(action)}"))
    frames[-1] = (frames[-1][0], f"{frames[-1][1]}\n{result}")
    rows = math.ceil(len(frames) / FRAMES_PER_ROW)
    width, height = 0.4 * state.columns + 0.6, 0.4 * state.rows + 0.9
    figure = Figure(figsize=(width * FRAMES_PER_ROW, height * rows + 0.5))
    figure.suptitle(f"{names[0]} (X, seat 0) against {names[1]} (O, seat 1)", fontsize=11)
    for index, (frame, title) in enumerate(frames, 1):
        draw_board(figure.add_subplot(rows, FRAMES_PER_ROW, index), frame, title=title)
    return figure


class ConnectFourPictures(Pictures):
    """Connect Four's pictures as its plug-in offers them."""

    def position_figure(self, state: ConnectFourState, title: str = "", highlight: tuple[int, ...] = ()) -> Figure:
        return position_figure(state, title=title, highlight=tuple(highlight))

    def game_figure(self, record, result: str) -> Figure:
        return game_figure(record, result)


PICTURES = ConnectFourPictures()
