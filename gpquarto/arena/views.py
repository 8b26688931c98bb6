"""Games as plain data for people: positions, moves with the rule behind each, whole games frame by frame.

Framework-free and shared by the terminal (``watch``, ``show``) and the web app, for every game of the game
interface: :func:`board_state` gives what every game has (position text, whose turn, the outcome) and what a
board drawing needs (the game's :class:`~gpquarto.games.capabilities.BoardDrawing`), and
:func:`outcome_text` says how a game ended in one line. A player explains its last decision through an
optional ``explain(kind)`` method (an evolved player names the rule that fired; see
:meth:`gpquarto.gp.player.RuleListPlayer.explain`); players without one explain nothing.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from gpquarto.arena.game import play_game
from gpquarto.arena.record import GameRecord
from gpquarto.games.capabilities import Board, BoardDrawing
from gpquarto.games.interface import GameState, GameView, Outcome, Termination
from gpquarto.games.registry import DEFAULT_GAME, get_plugin
from gpquarto.players.base import BasePlayer, ForfeitReason, Player


def display_name(spec: str) -> str:
    """A player's name for people: a saved player file by its file name, a spec as it is."""
    return os.path.basename(spec) if os.sep in spec or "/" in spec else spec


def explanation(player: object, kind: str) -> dict | None:
    """Why ``player`` took its last decision of ``kind`` (``"choose"``, ``"place"``, ``"move"``), or None when
    it cannot say."""
    explain = getattr(player, "explain", None)
    return explain(kind) if explain is not None else None


def board_state(state: GameState) -> dict:
    """The position as plain data: its game, text and settings, whose turn, winner and end, and what a board
    drawing of its game needs: its plug-in's :class:`~gpquarto.games.capabilities.BoardDrawing` where it has one,
    else a ``grid`` from its :class:`~gpquarto.games.capabilities.Board` (rows, columns, the cells, whether values 1
    and 2 are the seats' marks) with the legal actions and their names, which the page draws for any game; the
    position text is the drawing of a game with neither."""
    outcome = state.outcome()
    settings = state.settings()
    drawing = get_plugin(state.game_name).capability_or(BoardDrawing, None)
    return {
        "game": state.game_name,
        "position": state.text(),
        "settings": settings,
        "rules": settings.get("rules"),
        "to_act": state.player,
        "decision": None if outcome is not None else state.decision_kind().value,
        "over": outcome is not None,
        "winner": None if outcome is None else outcome.winner,
        "draw": outcome is not None and outcome.is_draw,
        "end": None if outcome is None else outcome.termination.value,
        **(drawing.board_data(state) if drawing is not None else _grid(state)),
    }


def _grid(state: GameState) -> dict:
    """The generic drawing's data of a game without a drawing of its own (nothing without a ``Board``)."""
    board = get_plugin(state.game_name).capability_or(Board, None)
    if board is None:
        return {}
    rows, columns = board.shape(state.settings())
    legal = [] if state.is_over() else list(state.legal_actions())
    return {
        "grid": {"rows": rows, "columns": columns, "cells": list(board.cells(state)), "seat_marks": board.seat_marks},
        "legal_actions": legal,
        "action_names": [state.action_name(action) for action in legal],
    }


@dataclass
class Move:
    """One action of a game, with who took it, its readable name and, for a player that explains itself, the
    reason."""

    seat: int
    action: int
    text: str
    explanation: dict | None = None

    def to_dict(self) -> dict:
        return {"seat": self.seat, "action": self.action, "text": self.text, "explanation": self.explanation}


class _Explained(BasePlayer):
    """Passes a player's decisions through, noting each one's explanation (in decision order) in ``notes``; a
    decision asked after ``deadline`` (``time.monotonic()`` seconds, None for none) forfeits."""

    def __init__(self, player: Player, notes: list, deadline: float | None = None) -> None:
        self.player = player
        self.notes = notes
        self.deadline = deadline
        self.name = player.name
        self.game = getattr(player, "game", None)

    def seed(self, seed: int | None) -> None:
        self.player.seed(seed)

    def new_game(self, seat: int) -> None:
        self.player.new_game(seat)

    def decide(self, view: GameView) -> int:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise ForfeitReason("the game ran past its time budget")
        kind = view.decision_kind()
        action = self.player.decide(view)
        self.notes.append(explanation(self.player, kind))
        return action


def explained_game(
    players: tuple[Player, Player],
    *,
    names: tuple[str, str],
    start: GameState | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    budget: float | None = None,
) -> tuple[GameRecord, list[dict | None]]:
    """Play a whole game from ``start`` (its game; Quarto's start position when None) under match rules
    (forfeits, ``time_limit`` seconds per decision or None for none; the player to move forfeits once the game
    has taken ``budget`` seconds, None for no budget); returns its record and the explanation of each decision
    (see :func:`explanation`; None for players without one)."""
    notes: list[dict | None] = []
    deadline = None if budget is None else time.monotonic() + budget
    wrapped = (_Explained(players[0], notes, deadline), _Explained(players[1], notes, deadline))
    game = start.game_name if start is not None else DEFAULT_GAME
    record = play_game(wrapped, game=game, start=start, seed=seed, time_limit=time_limit, names=names)
    return record, notes


def game_view(record: GameRecord, notes: list[dict | None] | None = None) -> dict:
    """A record as frames: the start and the position after each action, with the move and its explanation."""
    frames = []
    move = None
    for index, (state, action) in enumerate(record.states()):
        frames.append({**board_state(state), "move": move})
        if action is not None:
            note = notes[index] if notes is not None and index < len(notes) else None
            move = Move(state.player, action, state.action_name(action), note).to_dict()
    return {
        "game": record.game,
        "players": list(record.players),
        "record": record.to_dict(),
        "frames": frames,
        "result": outcome(record),
    }


def outcome_text(result: Outcome, names: tuple[str, str] | list[str], settings: dict | None = None) -> str:
    """How a game ended in one line, naming the seats by ``names`` (the game's ``settings`` give the numbers of
    a repetition or ply-limit draw)."""
    if result.termination is Termination.FORFEIT:
        loser = result.forfeited_by
        assert loser is not None
        return f"{names[1 - loser]} wins: {names[loser]} forfeits ({result.reason})"
    if result.winner is None:
        joint = "draw by " if result.termination is Termination.REPETITION else "draw: "
        return joint + draw_reason(result.termination, settings or {})
    return f"{names[result.winner]} wins"


def draw_reason(termination: Termination, settings: dict) -> str:
    """Why a drawn game ended: the full board (Quarto), a repetition or the ply limit (Quixo)."""
    if termination is Termination.REPETITION:
        times = settings.get("repetitions", 3)
        return f"repetition: the same position with the same side to move for the {_ordinal(times)} time"
    if termination is Termination.PLY_LIMIT:
        return f"the ply limit ({settings.get('ply_limit', '?')} moves) was reached"
    return "the board is full"


def _ordinal(number: object) -> str:
    if not isinstance(number, int):
        return f"{number}th"
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def outcome(record: GameRecord) -> str:
    """The result of a recorded game in one line, naming the players."""
    names = [display_name(name) for name in record.players]
    return outcome_text(record.outcome, names, record.settings)
