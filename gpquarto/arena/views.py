"""Games as plain data for people: positions, moves with the rule behind each, whole games frame by frame.

Framework-free and shared by the terminal (``watch``, ``show``) and the web app. A player explains its last
decision through an optional ``explain(kind)`` method (an evolved player names the rule that fired; see
:meth:`gpquarto.gp.player.EvolvedPlayer.explain`); players without one explain nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from gpquarto.arena.game import play_game
from gpquarto.arena.record import GameRecord
from gpquarto.games.interface import DecisionKind, GameState, GameView, Termination
from gpquarto.games.quarto.board import Board, action_name
from gpquarto.games.quarto.pieces import NO_PIECE
from gpquarto.games.registry import DEFAULT_GAME, get_game
from gpquarto.players.base import BasePlayer, Player, QuartoPlayer

#: The two kinds of decision: give a piece, place the piece in hand.


def display_name(spec: str) -> str:
    """A player's name for people: a saved player file by its file name, a spec as it is."""
    return os.path.basename(spec) if os.sep in spec or "/" in spec else spec


def explanation(player: object, kind: str) -> dict | None:
    """Why ``player`` took its last decision of ``kind`` (``"choose"`` or ``"place"``), or None when it cannot say."""
    explain = getattr(player, "explain", None)
    return explain(kind) if explain is not None else None


def board_state(board: Board) -> dict:
    """The position as plain data: cells (None when empty), piece in hand, pieces left, whose turn, winner."""
    return {
        "position": board.text(),
        "rules": board.rules.value,
        "cells": [None if piece == NO_PIECE else piece for piece in board.raw_cells],
        "in_hand": None if board.in_hand == NO_PIECE else board.in_hand,
        "available": list(board.available_pieces()),
        "to_act": board.player,
        "choice_due": board.choice_due,
        "placement_due": board.placement_due,
        "over": board.is_over(),
        "winner": board.winner,
        "draw": board.is_draw(),
        "winning_lines": [list(line) for line in board.winning_lines()],
    }


@dataclass
class Move:
    """One action of a game, with who took it and, for a player that explains itself, the reason."""

    seat: int
    action: int
    explanation: dict | None = None

    def to_dict(self) -> dict:
        return {
            "seat": self.seat,
            "action": self.action,
            "text": action_name(self.action),
            "explanation": self.explanation,
        }


class _Explained(QuartoPlayer):
    """Passes a player's decisions through, noting each one's explanation (in decision order) in ``notes``."""

    def __init__(self, player: QuartoPlayer, notes: list) -> None:
        self.player = player
        self.notes = notes
        self.name = player.name

    def seed(self, seed: int | None) -> None:
        self.player.seed(seed)

    def new_game(self, seat: int) -> None:
        self.player.new_game(seat)

    def choose_piece(self, board) -> int:
        return self._noted(self.player.choose_piece(board), DecisionKind.CHOOSE)

    def place_piece(self, board, piece: int) -> int:
        return self._noted(self.player.place_piece(board, piece), DecisionKind.PLACE)

    def _noted(self, action: int, kind: str) -> int:
        self.notes.append(explanation(self.player, kind))
        return action


class _ExplainedMoves(BasePlayer):
    """:class:`_Explained` for a player of any game: passes ``decide`` through, noting its explanation."""

    def __init__(self, player: Player, notes: list) -> None:
        self.player = player
        self.notes = notes
        self.name = player.name
        self.game = player.game

    def seed(self, seed: int | None) -> None:
        self.player.seed(seed)

    def new_game(self, seat: int) -> None:
        self.player.new_game(seat)

    def decide(self, view: GameView) -> int:
        action = self.player.decide(view)
        self.notes.append(explanation(self.player, view.decision_kind()))
        return action


def explained_game(
    players: tuple[Player, Player],
    *,
    names: tuple[str, str],
    start: GameState | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    game: str = DEFAULT_GAME,
    settings: dict[str, object] | None = None,
) -> tuple[GameRecord, list[dict | None]]:
    """Play a whole game of ``game`` under ``settings`` (or from ``start``), with match rules: forfeits,
    ``time_limit`` seconds per decision or None for none; returns its record and the explanation of each
    decision (see :func:`explanation`; None for players without one)."""
    notes: list[dict | None] = []
    if start is not None:
        game = start.game_name
    quarto = get_game(game).name == "quarto"  # Quarto's loop calls choose/place directly: note them there
    first, second = (
        _Explained(player, notes) if quarto and isinstance(player, QuartoPlayer) else _ExplainedMoves(player, notes)
        for player in players
    )
    record = play_game(
        (first, second), game=game, settings=settings, start=start, seed=seed, time_limit=time_limit, names=names
    )
    return record, notes


def game_view(record: GameRecord, notes: list[dict | None] | None = None) -> dict:
    """A record as frames: the start and the position after each action, with the move and its explanation."""
    board = Board.from_text(record.start)
    frames = [{**board_state(board), "move": None}]
    for index, action in enumerate(record.actions):
        seat = board.player
        board.apply(action)
        note = notes[index] if notes is not None and index < len(notes) else None
        frames.append({**board_state(board), "move": Move(seat, action, note).to_dict()})
    return {"players": list(record.players), "record": record.to_dict(), "frames": frames, "result": outcome(record)}


def outcome(record: GameRecord) -> str:
    """The result of a recorded game in one line, naming the players."""
    names = [display_name(name) for name in record.players]
    if record.end == Termination.FORFEIT:
        loser = record.forfeited_by
        return f"{names[1 - loser]} wins: {names[loser]} forfeits ({record.reason})"
    if record.winner is None:
        return ("draw by " if record.end == Termination.REPETITION else "draw: ") + draw_reason(record)
    return f"{names[record.winner]} wins"


def draw_reason(record: GameRecord) -> str:
    """Why a drawn game ended: ``"the board is full"`` (Quarto), a repetition or the ply limit (Quixo)."""
    if record.end == Termination.REPETITION:
        times = record.settings.get("repetitions", "n-th")
        return f"repetition: the same position with the same side to move for the {_ordinal(times)} time"
    if record.end == Termination.PLY_LIMIT:
        return f"the ply limit ({record.settings.get('ply_limit', len(record.actions))} plies) was reached"
    return "the board is full"


def _ordinal(number: object) -> str:
    """``"3rd"`` for 3; anything that is not a whole number as it is."""
    if not isinstance(number, int):
        return str(number)
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
