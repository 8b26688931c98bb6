"""Play sessions in the web app, without any web framework: games against a player kept in memory, and hints.

A :class:`PlaySession` holds a game state of any game of the game interface (Quarto's
:class:`~gpquarto.games.quarto.board.Board`, Quixo's :class:`~gpquarto.games.quixo.board.QuixoBoard`), the
opponent player and the moves so far. The person moves through :meth:`PlaySession.human_move`; the opponent's
decisions are taken by :func:`decide` on a copy of the state (in a worker thread, see :func:`play_opponent`; a
searching player decides in a worker process, see :mod:`gpquarto.web.decisions`) and applied with the same
forfeit rules as matches: a player that raises, answers an illegal action or takes longer than the time limit
loses the game. Positions, moves and whole games become plain data in :mod:`gpquarto.arena.views`.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from gpquarto.arena.record import GameRecord
from gpquarto.arena.views import (
    Move,
    board_state,
    display_name,
    explained_game,
    explanation,
    game_view,
    outcome_text,
)
from gpquarto.games.interface import DecisionKind, GameState, IllegalActionError, Termination
from gpquarto.games.registry import DEFAULT_GAME, game_names, get_game, get_plugin, plugins
from gpquarto.players.base import Player, PlayerQuit, raised_reason, too_slow_reason
from gpquarto.web import WATCH_SECONDS
from gpquarto.web.decisions import worker_for
from gpquarto.web.support import web_support

#: Seconds a player may think about one decision before it forfeits (``gpquarto serve --time-limit``).
DEFAULT_TIME_LIMIT = 10.0
#: Play sessions kept in memory for all clients together (see :class:`SessionStore`), and for one client (its own
#: least recently used goes first); a session idle this many seconds may go when the server is full.
MAX_SESSIONS = 2000
MAX_SESSIONS_PER_CLIENT = 50
IDLE_SECONDS = 3600.0
#: The person's name in saved game records.
HUMAN_NAME = "you"
#: The longest action name a move request may send.
MAX_ACTION_TEXT = 100
#: What each kind of decision is called in a forfeit's reason.
DECISION_WORDS = {DecisionKind.CHOOSE: "choice", DecisionKind.PLACE: "placement", DecisionKind.MOVE: "move"}


class RequestError(ValueError):
    """A request the game cannot accept; ``status`` is the HTTP code to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _shown(value: object) -> str:
    """``repr(value)``, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def action_of(body: object, state: GameState) -> int:
    """The action a move request names in ``state``'s game: ``{"action": A}`` (the game's int, or its name such as
    ``"b1 to bottom"``), or one of the game's own move fields (Quarto: ``{"piece": P}`` or ``{"square": S}``, see
    :class:`~gpquarto.games.capabilities.WebSupport`). Not checked for legality."""
    support = web_support(state.game_name)
    count = get_game(state.game_name).action_count
    fields = {**support.move_fields, "action": (count, 0)}
    forms = [f'{{"{name}": 0..{size - 1}}}' for name, (size, _) in fields.items()]
    if support.action_example:
        forms.append(f'{{"action": "{support.action_example}"}}')
    usage = "a move is " + (", ".join(forms[:-1]) + " or " if len(forms) > 1 else "") + forms[-1]
    if not isinstance(body, dict) or len(body) != 1 or not (set(fields) & set(body)):
        raise RequestError(usage)
    (kind, value), *_ = body.items()
    if kind == "action" and isinstance(value, str):
        if len(value) > MAX_ACTION_TEXT:
            raise RequestError(f"an action name is at most {MAX_ACTION_TEXT} characters")
        try:
            return state.parse_action(value)
        except ValueError as error:
            raise RequestError(f"illegal move: {error}") from None
    top, offset = fields[kind]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < top:
        raise RequestError(f"{kind} must be a whole number 0..{top - 1}, got {_shown(value)}")
    return offset + value


@dataclass
class Decision:
    """What a player answered to a decision of ``kind``: an action (not yet validated), or the reason it
    forfeits without an answer (raised, too slow); ``elapsed`` is the seconds it took."""

    kind: DecisionKind
    answer: object = None
    reason: str = ""
    explanation: dict | None = None
    elapsed: float = 0.0


def decide(player: Player, board: GameState) -> Decision:
    """Ask ``player`` for the decision due in ``board`` (any game), catching its errors.

    The player sees a view of a copy, so a player abandoned after its time limit cannot see later moves.
    The answer is not validated here: :meth:`PlaySession.apply_opponent` does that on the real state. A
    searching player's worker process is leased first (:func:`~gpquarto.web.decisions.worker_for`), so the
    time taken counts from when a worker is ready.
    """
    view = board.copy().view()
    kind = board.decision_kind()
    with worker_for([player]):
        started = time.perf_counter()
        try:
            answer = player.decide(view)
        except PlayerQuit:
            raise
        except (Exception, SystemExit) as error:  # a player's bug (even sys.exit) loses the game, not the server
            return Decision(kind, reason=raised_reason(error), elapsed=time.perf_counter() - started)
        elapsed = time.perf_counter() - started
    return Decision(kind, answer, explanation=explanation(player, kind), elapsed=elapsed)


class PlaySession:
    """A game of any game between the person at the page (seat ``human_seat``) and an opponent player."""

    def __init__(
        self, opponent_spec: str, opponent, *, human_seat: int = 0, start: GameState | None = None, key: str = ""
    ) -> None:
        if isinstance(human_seat, bool) or human_seat not in (0, 1) or not isinstance(human_seat, int):
            raise RequestError(f"seat must be 0 (you move first) or 1, got {_shown(human_seat)}")
        self.key = key or secrets.token_urlsafe(9)
        self.opponent_spec = opponent_spec
        self.opponent = opponent
        self.human_seat = human_seat
        self.board: GameState = start.copy() if start is not None else get_game().new_state()
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
        name = self.board.action_name(action)
        try:
            self.board.apply(action)
        except IllegalActionError as error:
            raise RequestError(f"illegal move ({name}): {error}") from None
        self.moves.append(Move(self.human_seat, action, name))

    def apply_opponent(self, decision: Decision) -> None:
        """Apply the opponent's decision, or record its forfeit (raised, illegal action, too slow)."""
        seat = self.board.player
        if decision.reason:
            self.forfeit = (seat, decision.reason)
            return
        answer = decision.answer
        try:
            name = self.board.action_name(answer) if answer.__class__ is int else repr(answer)
            self.board.apply(answer)  # type: ignore[arg-type]  # the game refuses a bad one
        except IllegalActionError as error:
            self.forfeit = (seat, f"illegal {DECISION_WORDS[decision.kind]} {_shown(answer)}: {error}")
            return
        self.moves.append(Move(seat, self.board.history[-1], name, decision.explanation))

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
        opponent = display_name(self.opponent_spec)
        if self.forfeit is not None:
            seat, reason = self.forfeit
            who = "you lose" if seat == self.human_seat else "you win"
            return f"{who} by forfeit: {'you' if seat == self.human_seat else opponent} {reason}"
        outcome = self.board.outcome()
        if outcome is None:
            return ""
        if outcome.winner is None:
            names = [HUMAN_NAME, HUMAN_NAME]
            names[1 - self.human_seat] = opponent
            return outcome_text(outcome, names, self.board.settings())
        return "you win" if outcome.winner == self.human_seat else f"{opponent} wins"

    def record(self) -> GameRecord:
        """The finished game as a :class:`~gpquarto.arena.record.GameRecord` (``RequestError`` 409 before the end)."""
        if not self.over:
            raise RequestError("the game is not over yet: finish it, then save its record", status=409)
        names = [HUMAN_NAME, HUMAN_NAME]
        names[1 - self.human_seat] = self.opponent_spec
        record = GameRecord(
            (names[0], names[1]),
            self.start,
            list(self.board.history),
            game=self.board.game_name,
            settings=self.board.settings(),
        )
        if self.forfeit is not None:
            seat, record.reason = self.forfeit
            record.end, record.winner, record.forfeited_by = Termination.FORFEIT, 1 - seat, seat
        else:
            outcome = self.board.outcome()
            assert outcome is not None
            record.end, record.winner = outcome.termination.value, outcome.winner
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


async def play_opponent(session: PlaySession, in_thread: Callable[..., Awaitable], time_limit: float) -> None:
    """Let the opponent take every decision due, each in a worker thread (``in_thread(function, *args)``, the
    server's :meth:`~gpquarto.web.threads.ServerThreads.run`) so the server stays responsive.

    A decision that takes longer than ``time_limit`` seconds forfeits; a searching player is stopped then
    (its worker process is killed), the others cannot run long.
    """
    while session.opponent_to_act:
        decision = await in_thread(decide, session.opponent, session.board)
        if not decision.reason and decision.elapsed > time_limit:
            decision = Decision(decision.kind, reason=too_slow_reason(decision.elapsed, time_limit))
        session.apply_opponent(decision)


class SessionStore:
    """Play sessions by id, kept per client: a client (its address) keeps at most ``per_client`` games (its own
    least recently used goes first), so no visitor's games are dropped by another's. All clients together keep
    at most ``limit``: sessions idle for ``idle_seconds`` go first, and when none is, a new game is refused (503)
    rather than another visitor's game dropped."""

    def __init__(
        self, limit: int = MAX_SESSIONS, per_client: int = MAX_SESSIONS_PER_CLIENT, idle_seconds: float = IDLE_SECONDS
    ) -> None:
        self.limit = limit
        self.per_client = per_client
        self.idle_seconds = idle_seconds
        self._sessions: OrderedDict[str, tuple[PlaySession, str, float]] = OrderedDict()  # least recent first
        self._by_client: dict[str, OrderedDict[str, None]] = {}

    def __len__(self) -> int:
        return len(self._sessions)

    def add(self, session: PlaySession, client: str = "") -> PlaySession:
        """Keep ``session`` for ``client``; ``RequestError`` 503 when the server holds :attr:`limit` games that
        are all in use."""
        mine = self._by_client.setdefault(client, OrderedDict())
        while len(mine) >= self.per_client:
            self._drop(next(iter(mine)))
        now = time.monotonic()
        while len(self._sessions) >= self.limit:
            oldest = next(iter(self._sessions))
            if now - self._sessions[oldest][2] < self.idle_seconds:
                if not mine:
                    del self._by_client[client]
                raise RequestError(
                    f"the server holds {self.limit:,} games in play: try again later, or finish one", status=503
                )
            self._drop(oldest)
        self._sessions[session.key] = (session, client, now)
        self._by_client.setdefault(client, mine)[session.key] = None
        return session

    def get(self, key: str) -> PlaySession:
        """The session ``key``; ``RequestError`` 404 when unknown or dropped."""
        found = self._sessions.get(key)
        if found is None:
            raise RequestError(
                f"no game {key[:40]!r} (unknown, or dropped after {self.per_client} newer games of yours)", status=404
            )
        session, client, _ = found
        self._sessions[key] = (session, client, time.monotonic())
        self._sessions.move_to_end(key)
        self._by_client[client].move_to_end(key)
        return session

    def _drop(self, key: str) -> None:
        _, client, _ = self._sessions.pop(key)
        mine = self._by_client[client]
        del mine[key]
        if not mine:
            del self._by_client[client]


def game_catalog() -> list[dict]:
    """Every installed game as plain data, the default game first: its name, title, summary, settings schema (the
    page builds the game's settings inputs from it) and whether it has a page script of its own (``GET /api/games``;
    ``GET /games/NAME/page.js``)."""
    return [
        {
            "name": plugin.name,
            "title": plugin.title,
            "summary": plugin.summary,
            "settings": [setting.to_json() for setting in plugin.settings],
            "page_script": bool(web_support(plugin.name).page_script),
        }
        for plugin in plugins()  # the default game first
    ]


def parse_start(body: dict) -> GameState:
    """The start position a request names: ``game`` (default the default game), then ``position`` text (which
    carries what its game's text carries, Quarto's rules, a Quixo board's size) or the empty board of the game's
    settings, each a field named as in the game's settings schema; ``RequestError`` in one line when one is bad.

    A number a request may give is bounded by the setting's served bound (:attr:`Setting.served_bound`: a Quixo
    ply limit of 10,000 would let one request hold a worker for long)."""
    name = body.get("game") or DEFAULT_GAME
    if not isinstance(name, str) or name not in game_names():
        raise RequestError(f"game must be {' or '.join(game_names())}, got {_shown(name)}")
    plugin = get_plugin(name)
    schema = {setting.name: setting for setting in plugin.settings}
    every = {setting.name for other in plugins() for setting in other.settings}
    given = {key: body[key] for key in sorted(every) if body.get(key) not in (None, "")}
    try:
        for key, value in given.items():
            if key not in schema:
                raise ValueError(f"{name} has no setting {key!r} (settings: {', '.join(schema) or 'none'})")
            setting = schema[key]
            setting.check(value)
            bound = setting.served_bound
            if bound is not None and value > bound:
                raise ValueError(f"{key} must be at most {bound} here, got {_shown(value)}")
        game = plugin.game
        position = body.get("position")
        if position not in (None, ""):
            if not isinstance(position, str):
                raise RequestError(f"position must be position text, e.g. {game.new_state().text()!r}")
            try:
                return game.from_text(position, **_not_carried(game, position, given))
            except ValueError as error:
                raise RequestError(f"malformed position: {error}") from None
        return game.new_state(**given)
    except RequestError:
        raise
    except ValueError as error:
        raise RequestError(str(error)) from None


def _not_carried(game, position: str, given: dict) -> dict:
    """The settings of ``given`` that the position text does not carry itself (the page sends its form's rules
    and size with a position; the text's own win, as they always have): those the game accepts beside the text."""
    kept = {}
    for key, value in given.items():
        try:
            game.from_text(position, **{key: value})
        except ValueError:
            continue
        kept[key] = value
    return kept


# -------------------------------------------------------------------------------------- watch and replay
def watch_game(
    players: tuple[Player, Player],
    *,
    names: tuple[str, str],
    start: GameState,
    seed: int | None,
    time_limit: float,
    budget: float | None = None,
) -> dict:
    """A whole game between two players (match rules, ``time_limit`` seconds per decision, at most ``budget``
    seconds in all, :data:`WATCH_SECONDS` when None), frame by frame, with each decision's explanation; searching
    players share one worker process, leased before the game."""
    with worker_for(players):
        record, notes = explained_game(
            players,
            names=names,
            start=start,
            seed=seed,
            time_limit=time_limit,
            budget=WATCH_SECONDS if budget is None else budget,
        )
    return game_view(record, notes)


def load_record(data: object) -> GameRecord:
    """A game record from its JSON data, replayed once to check it; ``RequestError`` when malformed."""
    try:
        record = GameRecord.from_dict(data)
        record.replay()
    except ValueError as error:
        raise RequestError(str(error)) from None
    return record
