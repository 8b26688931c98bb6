"""Play sessions in the web app, without any web framework: games against a player kept in memory, and hints.

A :class:`PlaySession` holds a :class:`~gpquarto.games.quarto.board.Board`, the opponent player and the moves so far.
The person moves through :meth:`PlaySession.human_move`; the opponent's decisions are taken by
:func:`decide` on a copy of the board (in a worker thread, see :func:`play_opponent`; a searching player
decides in a worker process, see :mod:`gpquarto.web.decisions`) and applied with the same forfeit rules as
matches: a player that raises, answers an illegal action or takes longer than the time limit loses the game.
Positions, moves and whole games become plain data in :mod:`gpquarto.arena.views`.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from concurrent.futures import Executor
from dataclasses import dataclass

from gpquarto.arena.record import GameRecord
from gpquarto.arena.views import (
    Move,
    board_state,
    display_name,
    explained_game,
    explanation,
    game_view,
)
from gpquarto.games.interface import DecisionKind, Termination
from gpquarto.games.quarto.board import PLACE_OFFSET, Board, IllegalActionError, action_name
from gpquarto.games.quarto.lines import SQUARE_COUNT, Rules
from gpquarto.players.base import Player, PlayerQuit, ask_decision, raised_reason, too_slow_reason
from gpquarto.search.solver import VALUE_WORDS
from gpquarto.search.solver import hint as solver_hint
from gpquarto.web.decisions import worker_for

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


def action_of(body: object) -> int:
    """The action (single-int encoding) in a move request ``{"piece": P}`` or ``{"square": S}``."""
    if not isinstance(body, dict) or len(body) != 1 or not ({"piece", "square"} & set(body)):
        raise RequestError('a move is {"piece": 0..15} or {"square": 0..15}')
    (kind, value), *_ = body.items()
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < SQUARE_COUNT:
        raise RequestError(f"{kind} must be a whole number 0..15, got {value!r}")
    return value if kind == "piece" else PLACE_OFFSET + value


@dataclass
class Decision:
    """What a player answered to a decision of ``kind``: a piece or a square (not yet validated), or the
    reason it forfeits without an answer (raised, too slow); ``elapsed`` is the seconds it took."""

    kind: str
    answer: object = None
    reason: str = ""
    explanation: dict | None = None
    elapsed: float = 0.0


def decide(player, board: Board) -> Decision:
    """Ask ``player`` for the decision due on ``board`` (a choice or a placement), catching its errors.

    The player sees a view of a copy, so a player abandoned after its time limit cannot see later moves.
    The answer is not validated here: :meth:`PlaySession.apply_opponent` does that on the real board. A
    searching player's worker process is leased first (:func:`~gpquarto.web.decisions.worker_for`), so the
    time taken counts from when a worker is ready.
    """
    view = board.copy().view()
    kind = DecisionKind.CHOOSE if board.choice_due else DecisionKind.PLACE
    with worker_for([player]):
        started = time.perf_counter()
        try:
            answer = ask_decision(player, view)
        except PlayerQuit:
            raise
        except (Exception, SystemExit) as error:  # a player's bug (even sys.exit) loses the game, not the server
            return Decision(kind, reason=raised_reason(error), elapsed=time.perf_counter() - started)
        elapsed = time.perf_counter() - started
    return Decision(kind, answer, explanation=explanation(player, kind), elapsed=elapsed)


class PlaySession:
    """A game between the person at the page (seat ``human_seat``) and an opponent player."""

    def __init__(
        self, opponent_spec: str, opponent, *, human_seat: int = 0, start: Board | None = None, key: str = ""
    ) -> None:
        if isinstance(human_seat, bool) or human_seat not in (0, 1) or not isinstance(human_seat, int):
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
            if decision.kind == DecisionKind.CHOOSE:
                self.board.choose(decision.answer)
            else:
                self.board.place(decision.answer)
        except IllegalActionError as error:
            what = "choice" if decision.kind == DecisionKind.CHOOSE else "placement"
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

    A decision that takes longer than ``time_limit`` seconds forfeits; a searching player is stopped then
    (its worker process is killed), the others cannot run long.
    """
    loop = asyncio.get_running_loop()
    while session.opponent_to_act:
        decision = await loop.run_in_executor(executor, decide, session.opponent, session.board)
        if not decision.reason and decision.elapsed > time_limit:
            decision = Decision(decision.kind, reason=too_slow_reason(decision.elapsed, time_limit))
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


# -------------------------------------------------------------------------------------- watch and replay
def watch_game(
    players: tuple[Player, Player], *, names: tuple[str, str], start: Board, seed: int | None, time_limit: float
) -> dict:
    """A whole game between two players (match rules, ``time_limit`` seconds per decision), frame by frame,
    with each decision's explanation; searching players share one worker process, leased before the game."""
    with worker_for(players):
        record, notes = explained_game(players, names=names, start=start, seed=seed, time_limit=time_limit)
    return game_view(record, notes)


def load_record(data: object) -> GameRecord:
    """A game record from its JSON data, replayed once to check it; ``RequestError`` when malformed."""
    try:
        record = GameRecord.from_dict(data)
        record.replay()
    except ValueError as error:
        raise RequestError(str(error)) from None
    return record
