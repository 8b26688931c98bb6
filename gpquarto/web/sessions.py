"""Games in the web app, without any web framework: play sessions kept in memory, hints, watched and replayed games.

A :class:`PlaySession` holds a :class:`~gpquarto.games.quarto.board.Board`, the opponent player and the moves so far.
The person moves through :meth:`PlaySession.human_move`; the opponent's decisions are taken by
:func:`decide` on a copy of the board (in a worker thread, see :func:`play_opponent`) and applied with the
same forfeit rules as matches: a player that raises, answers an illegal action or takes longer than the time
limit loses the game. Every state sent to the page is a plain dict from :func:`board_state`.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections import OrderedDict
from concurrent.futures import Executor
from dataclasses import dataclass

from gpquarto.arena.game import play_game
from gpquarto.arena.record import GameRecord
from gpquarto.games.interface import Termination
from gpquarto.games.quarto.board import PLACE_OFFSET, Board, IllegalActionError, action_name
from gpquarto.games.quarto.lines import SQUARE_COUNT, Rules
from gpquarto.games.quarto.pieces import NO_PIECE
from gpquarto.players.base import QuartoPlayer, ask_decision, raised_reason
from gpquarto.search.solver import VALUE_WORDS
from gpquarto.search.solver import hint as solver_hint
from gpquarto.web.players import CHOOSE, PLACE, explain, load_player

#: Seconds a player may think about one decision before it forfeits (``gpquarto serve --time-limit``).
DEFAULT_TIME_LIMIT = 10.0
#: Play sessions kept in memory; the least recently used goes first.
MAX_SESSIONS = 200
#: The person's name in saved game records.
HUMAN_NAME = "you"


class RequestError(ValueError):
    """A request the game cannot accept; ``status`` is the HTTP code to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def display_name(spec: str) -> str:
    """A player's name for the page: a saved player file by its file name, a spec as it is."""
    return os.path.basename(spec) if os.sep in spec else spec


def board_state(board: Board) -> dict:
    """The position as plain data for the page: cells (None when empty), piece in hand, pieces left, winner."""
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


def action_of(body: object) -> int:
    """The action (single-int encoding) in a move request ``{"piece": P}`` or ``{"square": S}``."""
    if not isinstance(body, dict) or len(body) != 1 or not ({"piece", "square"} & set(body)):
        raise RequestError('a move is {"piece": 0..15} or {"square": 0..15}')
    (kind, value), *_ = body.items()
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < SQUARE_COUNT:
        raise RequestError(f"{kind} must be a whole number 0..15, got {value!r}")
    return value if kind == "piece" else PLACE_OFFSET + value


@dataclass
class Move:
    """One action of a game, with who took it and, for an evolved player, the rule behind it."""

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


@dataclass
class Decision:
    """What a player answered to a decision of ``kind``: a piece or a square (not yet validated), or the
    reason it forfeits without an answer (raised, too slow)."""

    kind: str
    answer: object = None
    reason: str = ""
    explanation: dict | None = None


def decide(player, board: Board) -> Decision:
    """Ask ``player`` for the decision due on ``board`` (a choice or a placement), catching its errors.

    The player sees a view of a copy, so a player abandoned after its time limit cannot see later moves.
    The answer is not validated here: :meth:`PlaySession.apply_opponent` does that on the real board.
    """
    view = board.copy().view()
    kind = CHOOSE if board.choice_due else PLACE
    try:
        answer = ask_decision(player, view)
    except (Exception, SystemExit) as error:  # a player's bug (even sys.exit) loses the game, not the server
        return Decision(kind, reason=raised_reason(error))
    return Decision(kind, answer, explanation=explain(player, kind))


class PlaySession:
    """A game between the person at the page (seat ``human_seat``) and an opponent player."""

    def __init__(
        self, opponent_spec: str, opponent, *, human_seat: int = 0, start: Board | None = None, key: str = ""
    ) -> None:
        if human_seat not in (0, 1):
            raise RequestError(f"seat must be 0 (you choose first) or 1, got {human_seat!r}")
        self.key = key or secrets.token_urlsafe(9)
        self.opponent_spec = opponent_spec
        self.opponent = opponent
        self.human_seat = human_seat
        self.board = start.copy() if start is not None else Board()
        self.board.forget_history()
        self.start = self.board.text()
        self.moves: list[Move] = []
        self.forfeit: tuple[int, str] | None = None  # (seat that forfeited, why)
        self.lock = asyncio.Lock()  # one request at a time changes a session
        opponent.new_game(1 - human_seat)

    @property
    def over(self) -> bool:
        """True when the game is won, drawn or forfeited."""
        return self.forfeit is not None or self.board.is_over()

    @property
    def opponent_to_act(self) -> bool:
        """True when the opponent has a decision to take."""
        return not self.over and self.board.player != self.human_seat

    def human_move(self, action: int) -> None:
        """Apply the person's action; ``RequestError`` if it is not their turn or the action is illegal."""
        if self.over:
            raise RequestError("the game is over: start a new one or undo", status=409)
        if self.board.player != self.human_seat:
            raise RequestError("it is not your turn", status=409)
        try:
            self.board.apply(action)
        except IllegalActionError as error:
            raise RequestError(f"illegal move ({action_name(action)}): {error}") from None
        self.moves.append(Move(self.human_seat, action))

    def apply_opponent(self, decision: Decision) -> None:
        """Apply the opponent's decision, or record its forfeit (raised, illegal action, too slow)."""
        seat = self.board.player
        if decision.reason:
            self.forfeit = (seat, decision.reason)
            return
        try:
            if decision.kind == CHOOSE:
                self.board.choose(decision.answer)
            else:
                self.board.place(decision.answer)
        except IllegalActionError as error:
            what = "choice" if decision.kind == CHOOSE else "placement"
            self.forfeit = (seat, f"illegal {what} {decision.answer!r}: {error}")
            return
        self.moves.append(Move(seat, self.board.history[-1], decision.explanation))

    def undo(self) -> None:
        """Take back the person's last action and everything after it (the opponent's reply, a forfeit)."""
        mine = [index for index, move in enumerate(self.moves) if move.seat == self.human_seat]
        if not mine:
            raise RequestError("nothing to undo: you have not moved yet", status=409)
        for _ in range(len(self.moves) - mine[-1]):
            self.board.undo()
            self.moves.pop()
        self.forfeit = None

    def result(self) -> str:
        """One line from the person's side, empty while the game goes on."""
        if self.forfeit is not None:
            seat, reason = self.forfeit
            who = "you lose" if seat == self.human_seat else "you win"
            return (
                f"{who} by forfeit: {'you' if seat == self.human_seat else display_name(self.opponent_spec)} {reason}"
            )
        if self.board.is_draw():
            return "draw: the board is full"
        if self.board.winner is not None:
            return "you win" if self.board.winner == self.human_seat else f"{display_name(self.opponent_spec)} wins"
        return ""

    def record(self) -> GameRecord:
        """The finished game as a :class:`~gpquarto.arena.record.GameRecord` (``RequestError`` 409 before the end)."""
        if not self.over:
            raise RequestError("the game is not over yet: finish it, then save its record", status=409)
        names = [HUMAN_NAME, HUMAN_NAME]
        names[1 - self.human_seat] = self.opponent_spec
        record = GameRecord(
            (names[0], names[1]), self.start, list(self.board.history), self.board.winner, Termination.WIN.value
        )
        if self.forfeit is not None:
            seat, record.reason = self.forfeit
            record.end, record.winner, record.forfeited_by = Termination.FORFEIT, 1 - seat, seat
        elif self.board.winner is None:
            record.end = Termination.DRAW
        return record

    def state(self) -> dict:
        """Everything the page shows: the position, whose turn, the moves with explanations, the result."""
        return {
            "id": self.key,
            "opponent": self.opponent_spec,
            "human_seat": self.human_seat,
            "start": self.start,
            **board_state(self.board),
            "your_turn": not self.over and self.board.player == self.human_seat,
            "over": self.over,
            "forfeit": None if self.forfeit is None else {"seat": self.forfeit[0], "reason": self.forfeit[1]},
            "result": self.result(),
            "moves": [move.to_dict() for move in self.moves],
            "can_undo": any(move.seat == self.human_seat for move in self.moves),
        }


async def play_opponent(session: PlaySession, executor: Executor, time_limit: float) -> None:
    """Let the opponent take every decision due, each in a worker thread so the server stays responsive.

    A decision that is not back within ``time_limit`` seconds forfeits; its thread is abandoned (Python
    cannot stop it) and works on its own copy of the board.
    """
    loop = asyncio.get_running_loop()
    while session.opponent_to_act:
        kind = CHOOSE if session.board.choice_due else PLACE
        started = time.perf_counter()
        future = loop.run_in_executor(executor, decide, session.opponent, session.board)
        try:
            decision = await asyncio.wait_for(future, timeout=time_limit)
        except TimeoutError:
            decision = Decision(kind, reason=f"took more than the {time_limit:g} s limit")
        else:
            elapsed = time.perf_counter() - started
            if elapsed > time_limit:
                decision = Decision(kind, reason=f"took {elapsed:.3f} s, over the {time_limit:g} s limit")
        session.apply_opponent(decision)


class SessionStore:
    """Play sessions by id, at most ``limit`` (the least recently used is dropped)."""

    def __init__(self, limit: int = MAX_SESSIONS) -> None:
        self.limit = limit
        self._sessions: OrderedDict[str, PlaySession] = OrderedDict()

    def add(self, session: PlaySession) -> PlaySession:
        self._sessions[session.key] = session
        while len(self._sessions) > self.limit:
            self._sessions.popitem(last=False)
        return session

    def get(self, key: str) -> PlaySession:
        """The session ``key``; ``RequestError`` 404 when unknown or expired."""
        session = self._sessions.get(key)
        if session is None:
            raise RequestError(f"no game {key!r} (unknown, or dropped after {self.limit} newer games)", status=404)
        self._sessions.move_to_end(key)
        return session


def parse_start(position: object, rules: object) -> Board:
    """The start position: position text (its own rules), or the empty board of ``rules``."""
    if position not in (None, ""):
        if not isinstance(position, str):
            raise RequestError("position must be position text, e.g. '..../..../..../.... -'")
        try:
            return Board.from_text(position)
        except ValueError as error:
            raise RequestError(f"malformed position: {error}") from None
    try:
        return Board(Rules(rules or Rules.CLASSIC.value))
    except ValueError:
        raise RequestError(f"rules must be 'classic' or 'advanced', got {rules!r}") from None


def make_player_for_request(spec: object, seed: int | None = None):
    """``load_player`` for a spec sent by the page; ``RequestError`` (400) naming the problem."""
    if not isinstance(spec, str) or not spec.strip():
        raise RequestError("choose a player: a name such as random or minimax:depth=2, or a saved player file")
    try:
        return load_player(spec.strip(), seed=seed)
    except ValueError as error:
        raise RequestError(str(error)) from None


# ----------------------------------------------------------------------------------------------- hints
def hint(board: Board) -> dict:
    """The solver's verdict for the player to act, or ``solved: False`` when the position is too big to solve."""
    if board.is_over():
        raise RequestError("the game is over: no hint", status=409)
    result = solver_hint(board.copy())
    if isinstance(result, str):
        return {"solved": False, "text": result}
    actions = list(result.best_actions)
    return {
        "solved": True,
        "value": result.value,
        "best_actions": actions,
        "pieces": [action for action in actions if action < PLACE_OFFSET],
        "squares": [action - PLACE_OFFSET for action in actions if action >= PLACE_OFFSET],
        "text": f"{VALUE_WORDS[result.value]} with best play: " + ", ".join(action_name(action) for action in actions),
    }


# ------------------------------------------------------------------------------------ watch and replay
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
        return self._noted(self.player.choose_piece(board), CHOOSE)

    def place_piece(self, board, piece: int) -> int:
        return self._noted(self.player.place_piece(board, piece), PLACE)

    def _noted(self, action: int, kind: str) -> int:
        self.notes.append(explain(self.player, kind))
        return action


def explained_game(
    specs: tuple[str, str], *, start: Board, seed: int | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT
) -> tuple[GameRecord, list[dict | None]]:
    """Play a whole game between two players (match rules: forfeits, ``time_limit`` seconds per decision or
    None for none); returns its record and the explanation of each decision (see
    :func:`~gpquarto.web.players.explain`; None for players without rules). Framework-free: ``gpquarto watch``
    uses it too."""
    notes: list[dict | None] = []
    players = [_Explained(make_player_for_request(spec, seed=seed), notes) for spec in specs]
    record = play_game(players, start=start, seed=seed, time_limit=time_limit, names=(specs[0], specs[1]))
    return record, notes


def watch_game(
    specs: tuple[str, str], *, start: Board, seed: int | None = None, time_limit: float = DEFAULT_TIME_LIMIT
) -> dict:
    """:func:`explained_game` frame by frame, for the page."""
    return game_view(*explained_game(specs, start=start, seed=seed, time_limit=time_limit))


def load_record(data: object) -> GameRecord:
    """A game record from its JSON data, replayed once to check it; ``RequestError`` when malformed."""
    try:
        record = GameRecord.from_dict(data)
        record.replay()
    except ValueError as error:
        raise RequestError(str(error)) from None
    return record


def game_view(record: GameRecord, notes: list[dict | None] | None = None) -> dict:
    """A record as frames: the start and the position after each action, with the move and its explanation."""
    board = Board.from_text(record.start)
    frames = [{**board_state(board), "move": None}]
    for index, action in enumerate(record.actions):
        seat = board.player
        board.apply(action)
        explanation = notes[index] if notes is not None and index < len(notes) else None
        frames.append({**board_state(board), "move": Move(seat, action, explanation).to_dict()})
    return {"players": list(record.players), "record": record.to_dict(), "frames": frames, "result": outcome(record)}


def outcome(record: GameRecord) -> str:
    """The result of a recorded game in one line, naming the players."""
    names = [display_name(name) for name in record.players]
    if record.end == Termination.FORFEIT:
        loser = record.forfeited_by
        return f"{names[1 - loser]} wins: {names[loser]} forfeits ({record.reason})"
    if record.end == Termination.DRAW:
        return "draw: the board is full"
    return f"{names[record.winner]} wins"
