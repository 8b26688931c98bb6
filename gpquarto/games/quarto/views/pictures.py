"""Pictures of positions and games with matplotlib, for ``--png FILE`` (``solve``, ``watch``).

Pieces look as in the web app: tall pieces big and short ones small, dark or light, a hole in hollow ones,
square or round tops. Winning lines are gold, highlighted squares (e.g. the solver's best placements) green.
Figures are drawn on the Agg canvas directly (no pyplot, no window, no global state).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from typing import Any

from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyBboxPatch, Rectangle

from gpquarto.arena.record import GameRecord
from gpquarto.games.capabilities import Pictures
from gpquarto.games.quarto.board import PLACE_OFFSET, Board, BoardQueries, action_name
from gpquarto.games.quarto.pieces import COLOURED, NO_PIECE, SOLID, SQUARE, TALL, piece_code

BOARD, EDGE, INK = "#e9d3a8", "#b98e55", "#2b2118"
DARK, LIGHT, WIN, HINT = "#5a3418", "#f7e7c4", "#e0a100", "#2e8b57"
FRAMES_PER_ROW = 4


def draw_piece(axes, piece: int, x: float, y: float, scale: float = 1.0) -> None:
    """A piece seen from above, centred on (x, y) in board units (a square is 1 wide)."""
    half = (0.40 if piece & TALL else 0.26) * scale
    style: dict[str, Any] = {
        "facecolor": DARK if piece & COLOURED else LIGHT,
        "edgecolor": INK,
        "linewidth": 1.5 * scale,
        "zorder": 3,
    }
    if piece & SQUARE:
        axes.add_patch(Rectangle((x - half, y - half), 2 * half, 2 * half, **style))
    else:
        axes.add_patch(Circle((x, y), half, **style))
    if not piece & SOLID:
        axes.add_patch(Circle((x, y), half * 0.42, facecolor=BOARD, edgecolor=INK, linewidth=1.5 * scale, zorder=4))


def draw_board(axes, board: BoardQueries, *, title: str = "", highlight: Iterable[int] = ()) -> None:
    """The 4x4 board (row 0 at the top) with its pieces, winning lines and highlighted squares, and the piece in hand."""
    winning = {square for line in board.winning_lines() for square in line}
    marked = set(highlight)
    for square in range(16):
        row, col = divmod(square, 4)
        x, y = col + 0.5, 3.5 - row
        colour = WIN if square in winning else HINT if square in marked else BOARD
        axes.add_patch(
            FancyBboxPatch(
                (col + 0.04, 3.04 - row),
                0.92,
                0.92,
                boxstyle="round,pad=0,rounding_size=0.1",
                facecolor=colour,
                edgecolor=colour if colour != BOARD else EDGE,
                linewidth=3 if colour != BOARD else 1,
            )
        )
        piece = board.piece_at(square)
        if piece == NO_PIECE:
            axes.add_patch(Circle((x, y), 0.42, fill=False, edgecolor=EDGE, linestyle=":", linewidth=1))
        else:
            draw_piece(axes, piece, x, y)
    for line in board.winning_lines():
        if line[1] - line[0] != 1 or line[2] - line[1] != 3:  # a row, column or diagonal (not a 2x2 block)
            ends = [(line[k] % 4 + 0.5, 3.5 - line[k] // 4) for k in (0, -1)]
            axes.plot(*zip(*ends, strict=True), color=WIN, linewidth=7, alpha=0.6, solid_capstyle="round", zorder=5)
    for col, name in enumerate("abcd"):
        axes.text(col + 0.5, 4.08, name, ha="center", va="bottom", fontsize=8, color=EDGE)
    for row in range(4):
        axes.text(-0.08, 3.5 - row, str(row + 1), ha="right", va="center", fontsize=8, color=EDGE)
    axes.text(4.75, 3.0, "in hand", ha="center", va="bottom", fontsize=8, color=INK)
    axes.add_patch(Rectangle((4.3, 2.05), 0.9, 0.9, facecolor=BOARD, edgecolor=EDGE))
    if board.in_hand != NO_PIECE:
        draw_piece(axes, board.in_hand, 4.75, 2.5, 0.85)
    axes.set_xlim(-0.3, 5.3)
    axes.set_ylim(-0.1, 4.4)
    axes.set_aspect("equal")
    axes.axis("off")
    if title:
        axes.set_title(title, fontsize=9)


def position_figure(board: BoardQueries, *, title: str = "", highlight: Iterable[int] = ()) -> Figure:
    """One position."""
    figure = Figure(figsize=(4.6, 3.9))
    draw_board(figure.add_subplot(), board, title=title or board.text(), highlight=highlight)
    return figure


def game_figure(record: GameRecord, result: str) -> Figure:
    """A whole game as a grid of frames: the start, then the position after each placement with the piece given
    next; the last frame's title adds ``result``."""
    board = Board.from_text(record.start)
    names = [os.path.basename(name) for name in record.players]
    frames: list[tuple[Board, str]] = [(board.copy(), "start")]
    for number, action in enumerate(record.actions, 1):
        seat = board.player
        board.apply(action)
        if action >= PLACE_OFFSET:
            frames.append((board.copy(), f"{number}. {names[seat]}: {action_name(action)}"))
        else:  # the choice that follows a placement (or opens the game) shows in the same frame
            frames[-1] = (board.copy(), f"{frames[-1][1]}, gives {action:X} ({piece_code(action)})")
    frames[-1] = (frames[-1][0], f"{frames[-1][1]}\n{result}")
    rows = math.ceil(len(frames) / FRAMES_PER_ROW)
    figure = Figure(figsize=(3.4 * FRAMES_PER_ROW, 3.1 * rows + 0.4))
    figure.suptitle(f"{names[0]} (seat 0) against {names[1]} (seat 1)", fontsize=11)
    for index, (frame, title) in enumerate(frames, 1):
        draw_board(figure.add_subplot(rows, FRAMES_PER_ROW, index), frame, title=title)
    return figure


class QuartoPictures(Pictures):
    """Quarto's pictures as its plug-in offers them (the capability :class:`~gpquarto.games.capabilities.Pictures`)."""

    def position_figure(self, state: BoardQueries, title: str = "", highlight: tuple[int, ...] = ()) -> Figure:
        squares = [action - PLACE_OFFSET for action in highlight if action >= PLACE_OFFSET]
        return position_figure(state, title=title, highlight=squares)

    def game_figure(self, record: GameRecord, result: str) -> Figure:
        return game_figure(record, result)


PICTURES = QuartoPictures()
