"""Game records: what happened in one game of any game, saved as JSON, loaded and replayed to the same result.

A record names its game and settings, the start position, every action (the game's ints) and, in the file,
the position text after each action, so that a person can follow a game without replaying it. Records of the
first format (``gpquarto-game/1``, before the game interface) are Quarto games and still load.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict, dataclass, field

from gpquarto.atomic import write_text_atomic
from gpquarto.games.interface import GameState, IllegalActionError, Outcome, Termination
from gpquarto.games.registry import DEFAULT_GAME, get_game
from gpquarto.plain_files import one_line, read_plain_file

RECORD_FORMAT = "gpquarto-game/2"
#: Records written before the game interface: Quarto games, without game, settings or positions.
FIRST_RECORD_FORMAT = "gpquarto-game/1"
#: Seeds are whole numbers below this (as :func:`~gpquarto.seeding.derive_seed` makes them).
MAX_SEED = 2**63
#: The longest position text or forfeit reason a record may hold.
MAX_TEXT = 1000
#: The most actions a record may hold (far above any game's ply limit; it bounds a hostile file's work).
MAX_ACTIONS = 10_000


@dataclass
class GameRecord:
    """One game: the game and its settings, start position, actions, result and time per decision.

    ``winner`` is the seat (0 moves first) that won, or None for a draw. ``end`` is a
    :class:`~gpquarto.games.interface.Termination` value (``"win"``, ``"draw"``, ``"repetition"``,
    ``"ply_limit"``, ``"forfeit"``); on a forfeit, ``forfeited_by`` is the seat that lost by it and ``reason``
    says why (illegal action, exception, time limit). ``times[i]`` is the seconds taken by the decision that
    produced ``actions[i]``, until the action was validated (a forfeited decision's time is the last entry,
    with no action).
    """

    players: tuple[str, str]
    start: str
    actions: list[int] = field(default_factory=list)
    winner: int | None = None
    end: str = Termination.DRAW.value
    forfeited_by: int | None = None
    reason: str = ""
    times: list[float] = field(default_factory=list)
    seed: int | None = None
    game: str = DEFAULT_GAME
    settings: dict = field(default_factory=dict)

    @property
    def outcome(self) -> Outcome:
        """How the game ended, as the one :class:`~gpquarto.games.interface.Outcome` type."""
        return Outcome(Termination(self.end), self.winner, self.forfeited_by, self.reason)

    # --------------------------------------------------------------- replay
    def start_state(self) -> GameState:
        """The start position, under the record's game and settings."""
        return get_game(self.game).from_text(self.start, **self.settings)

    def states(self):
        """Replay the game: yield the state before each action with the action, then the final state with
        None (the same object throughout: copy it to keep a position). ``ValueError`` on an illegal action."""
        state = self.start_state()
        for index, action in enumerate(self.actions):
            yield state, action
            try:
                state.apply(action)
            except IllegalActionError as error:
                name = state.action_name(action) if isinstance(action, int) else repr(action)
                raise ValueError(f"record action {index + 1} ({name}) is illegal: {error}") from None
        yield state, None

    def replay(self) -> GameState:
        """Replay the actions from the start position; raises ``ValueError`` if the record is inconsistent."""
        *_, (state, _) = self.states()
        if self.end == Termination.FORFEIT:
            if state.is_over():
                raise ValueError("record says forfeit, but the replayed game ended by itself")
            return state
        outcome = state.outcome()
        if outcome is None:
            raise ValueError(f"record says {self.end}, but the replayed game is not over")
        if (outcome.termination.value, outcome.winner) != (self.end, self.winner):
            said = f"{self.end}" + ("" if self.winner is None else f" for seat {self.winner}")
            got = f"{outcome.termination.value}" + ("" if outcome.winner is None else f" for seat {outcome.winner}")
            raise ValueError(f"record says {said}, replay gives {got}")
        return state

    def decision_seats(self) -> list[int]:
        """The seat that made each decision timed in :attr:`times`."""
        seats = [state.player for state, _ in self.states()]
        return seats[: len(self.times)]

    def action_names(self) -> list[str]:
        """Each action's readable name, in order."""
        return [state.action_name(action) for state, action in self.states() if action is not None]

    def positions(self) -> list[str]:
        """The position text after each action."""
        return [state.text() for state, _ in self.states()][1:]

    def moves_text(self) -> str:
        """The actions in human form, e.g. ``"choose 5 (SDHQ), place a1, ..."``."""
        return ", ".join(self.action_names())

    # --------------------------------------------------------------- files
    def to_dict(self) -> dict:
        """A JSON-ready dict, with a format tag and the position after each action."""
        data = asdict(self)
        data["players"] = list(self.players)
        data["positions"] = self.positions()
        return {"format": RECORD_FORMAT, **data}

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        """Inverse of :meth:`to_dict`; raises a one-line ``ValueError`` on a foreign or malformed dict.

        Every field is checked for its type and range (a known game and plain settings, seats 0 or 1, actions in
        the game's range, times finite and >= 0, a seed in [0, 2**63), an outcome that holds together), so a
        tampered record is refused here rather than failing where it is used.
        """
        if not isinstance(data, dict) or data.get("format") not in (RECORD_FORMAT, FIRST_RECORD_FORMAT):
            raise ValueError(f"not a gpquarto game record (expected format {RECORD_FORMAT!r})")
        try:
            game_name, settings = data.get("game", DEFAULT_GAME), data.get("settings", {})
            if not isinstance(game_name, str) or len(game_name) > MAX_TEXT:
                raise ValueError("game must be a game's name")
            game = get_game(game_name)
            if not isinstance(settings, dict) or not all(
                isinstance(name, str) and (isinstance(value, str) or _whole(value, 0, MAX_SEED))
                for name, value in settings.items()
            ):
                raise ValueError("settings must map names to text or whole numbers")
            players = data["players"]
            if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, str) for p in players):
                raise ValueError("players must be a list of two names")
            start, actions, end = data["start"], data["actions"], data["end"]
            if not isinstance(start, str) or len(start) > MAX_TEXT:
                raise ValueError("start must be position text")
            if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
                raise ValueError(f"actions must be a list of at most {MAX_ACTIONS} actions")
            if not all(_whole(action, 0, game.action_count - 1) for action in actions):
                raise ValueError(f"actions must be whole numbers 0..{game.action_count - 1}")
            if not isinstance(end, str) or end not in {termination.value for termination in Termination}:
                raise ValueError(f"unknown end {str(end)[:20]!r}")
            winner, forfeited_by = data["winner"], data.get("forfeited_by")
            for name, seat in (("winner", winner), ("forfeited_by", forfeited_by)):
                if seat is not None and not _whole(seat, 0, 1):
                    raise ValueError(f"{name} must be a seat, 0 or 1 (or null)")
            reason, times, seed = data.get("reason", ""), data.get("times", []), data.get("seed")
            if not isinstance(reason, str) or len(reason) > MAX_TEXT:
                raise ValueError("reason must be text")
            Outcome(Termination(end), winner, forfeited_by, reason)  # a result that holds together
            if not isinstance(times, list) or len(times) > len(actions) + 1:
                raise ValueError("times must be a list with at most one entry per decision")
            if not all(
                _number(t) and t >= 0 and (isinstance(t, float) or t < 2**53) and math.isfinite(t) for t in times
            ):
                raise ValueError("times must be finite numbers >= 0")
            if seed is not None and not _whole(seed, 0, MAX_SEED - 1):
                raise ValueError("seed must be a whole number 0..2**63-1 (or null)")
            record = cls(
                (players[0], players[1]),
                start,
                list(actions),
                winner,
                end,
                forfeited_by,
                reason,
                [float(t) for t in times],
                seed,
                game.name,
                dict(settings),
            )
            record.start_state()
        except KeyError as error:
            raise ValueError(f"malformed game record: missing {error}") from None
        except ValueError as error:
            raise ValueError(f"malformed game record: {one_line(str(error))}") from None
        return record

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record as JSON, atomically."""
        write_text_atomic(path, json.dumps(self.to_dict(), indent=1))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        """Read a record written by :meth:`save`; ``ValueError`` naming the file on any problem."""
        try:  # within the plain-file caps: size, nesting depth
            data = read_plain_file(path, "game record", json_format=True)
        except ValueError as error:
            raise ValueError(f"cannot read game record {path}: {str(error).removeprefix(f'{path}: ')}") from None
        try:
            return cls.from_dict(data)
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None


def _whole(value: object, least: int, most: int) -> bool:
    """True when ``value`` is an int (not a bool) in ``least..most``."""
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
