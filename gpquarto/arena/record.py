"""Game records: what happened in one game, saved as JSON, loaded and replayed to the same result."""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from gpquarto.atomic import write_text_atomic
from gpquarto.games.quarto.board import PLACE_OFFSET, Board, IllegalActionError
from gpquarto.games.quarto.lines import square_name
from gpquarto.games.quarto.notation import START_TEXT
from gpquarto.games.quarto.pieces import piece_code

END_WIN, END_DRAW, END_FORFEIT = "win", "draw", "forfeit"
RECORD_FORMAT = "gpquarto-game/1"
#: Seeds are whole numbers below this (as :func:`~gpquarto.seeding.derive_seed` makes them).
MAX_SEED = 2**63
#: The longest position text or forfeit reason a record may hold.
MAX_TEXT = 1000
_START_TEXTS = (START_TEXT, START_TEXT + " advanced")


@dataclass
class GameRecord:
    """One game: start position, actions (single-int encoding), result and time per decision.

    ``winner`` is the seat (0 opens by choosing) that won, or None for a draw. ``end`` is ``"win"``,
    ``"draw"`` or ``"forfeit"``; on a forfeit, ``forfeited_by`` is the seat that lost by it and
    ``reason`` says why (illegal action, exception, time limit). ``times[i]`` is the seconds taken by the
    decision that produced ``actions[i]``, until the action was validated (a forfeited decision's time is
    the last entry, with no action).
    """

    players: tuple[str, str]
    start: str = START_TEXT
    actions: list[int] = field(default_factory=list)
    winner: int | None = None
    end: str = END_DRAW
    forfeited_by: int | None = None
    reason: str = ""
    times: list[float] = field(default_factory=list)
    seed: int | None = None

    # --------------------------------------------------------------- replay
    def replay(self) -> Board:
        """Replay the actions from the start position; raises ``ValueError`` if the record is inconsistent."""
        board = Board.from_text(self.start)
        for index, action in enumerate(self.actions):
            try:
                board.apply(action)
            except IllegalActionError as error:
                raise ValueError(f"record action {index + 1} ({describe_action(action)}) is illegal: {error}") from None
        expected = self.winner if self.end != END_FORFEIT else None
        if self.end != END_FORFEIT and board.winner != expected:
            raise ValueError(f"record says winner {self.winner}, replay gives {board.winner}")
        if self.end == END_DRAW and not board.is_draw():
            raise ValueError("record says draw, but the replayed game is not a full board")
        return board

    def decision_seats(self) -> list[int]:
        """The seat that made each decision timed in :attr:`times` (the seat changes after each choice)."""
        seat = 0 if self.start in _START_TEXTS else Board.from_text(self.start).player
        seats = []
        for index in range(len(self.times)):
            seats.append(seat)
            if index < len(self.actions) and self.actions[index] < PLACE_OFFSET:
                seat ^= 1
        return seats

    def moves_text(self) -> str:
        """The actions in human form, e.g. ``"choose 5 (SDHQ), place a1, ..."``."""
        return ", ".join(describe_action(action) for action in self.actions)

    # --------------------------------------------------------------- files
    def to_dict(self) -> dict:
        """A JSON-ready dict, with a format tag."""
        data = asdict(self)
        data["players"] = list(self.players)
        return {"format": RECORD_FORMAT, **data}

    @classmethod
    def from_dict(cls, data: dict) -> GameRecord:
        """Inverse of :meth:`to_dict`; raises a one-line ``ValueError`` on a foreign or malformed dict.

        Every field is checked for its type and range (seats 0 or 1, actions 0..31, times finite and >= 0,
        a seed in [0, 2**63)), so a tampered record is refused here rather than failing where it is used.
        """
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise ValueError(f"not a gpquarto game record (expected format {RECORD_FORMAT!r})")
        try:
            players = data["players"]
            if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, str) for p in players):
                raise ValueError("players must be a list of two names")
            start, actions, end = data["start"], data["actions"], data["end"]
            if not isinstance(start, str) or len(start) > MAX_TEXT:
                raise ValueError("start must be position text")
            if not isinstance(actions, list) or len(actions) > 2 * PLACE_OFFSET:
                raise ValueError(f"actions must be a list of at most {2 * PLACE_OFFSET} actions")
            if not all(_whole(action, 0, 2 * PLACE_OFFSET - 1) for action in actions):
                raise ValueError(f"actions must be whole numbers 0..{2 * PLACE_OFFSET - 1}")
            if end not in (END_WIN, END_DRAW, END_FORFEIT):
                raise ValueError(f"unknown end {str(end)[:20]!r}")
            winner, forfeited_by = data["winner"], data.get("forfeited_by")
            for name, seat in (("winner", winner), ("forfeited_by", forfeited_by)):
                if seat is not None and not _whole(seat, 0, 1):
                    raise ValueError(f"{name} must be a seat, 0 or 1 (or null)")
            if (end == END_FORFEIT) != (forfeited_by is not None):
                raise ValueError("forfeited_by must name a seat on a forfeit, and only then")
            if end == END_FORFEIT and winner != 1 - forfeited_by:
                raise ValueError("on a forfeit, the winner is the other seat")
            reason, times, seed = data.get("reason", ""), data.get("times", []), data.get("seed")
            if not isinstance(reason, str) or len(reason) > MAX_TEXT:
                raise ValueError("reason must be text")
            if not isinstance(times, list) or len(times) > len(actions) + 1:
                raise ValueError("times must be a list with at most one entry per decision")
            if not all(_number(t) and math.isfinite(t) and t >= 0 for t in times):
                raise ValueError("times must be finite numbers >= 0")
            if seed is not None and not _whole(seed, 0, MAX_SEED - 1):
                raise ValueError("seed must be a whole number 0..2**63-1 (or null)")
        except KeyError as error:
            raise ValueError(f"malformed game record: missing {error}") from None
        except ValueError as error:
            raise ValueError(f"malformed game record: {error}") from None
        return cls(
            (players[0], players[1]),
            start,
            list(actions),
            winner,
            end,
            forfeited_by,
            reason,
            [float(t) for t in times],
            seed,
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record as JSON, atomically."""
        write_text_atomic(path, json.dumps(self.to_dict(), indent=1))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """Read a record written by :meth:`save`; ``ValueError`` naming the file on any problem."""
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ValueError(f"cannot read game record {path}: {error}") from None
        try:
            return cls.from_dict(data)
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None


def _whole(value: object, least: int, most: int) -> bool:
    """True when ``value`` is an int (not a bool) in ``least..most``."""
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def describe_action(action: int) -> str:
    """Human form of an action in the single-int encoding."""
    if PLACE_OFFSET <= action < 2 * PLACE_OFFSET:
        return f"place {square_name(action - PLACE_OFFSET)}"
    if 0 <= action < PLACE_OFFSET:
        return f"choose {action:X} ({piece_code(action)})"
    return f"invalid action {action}"
