"""Play one game between two players, validating every action, and return its record.

A player that returns an illegal action, raises an exception, or takes longer than ``time_limit``
seconds for a decision forfeits the game (the opponent wins) and the record says why. Time limits are
checked after the decision returns: Python cannot safely interrupt a player mid-thought, so a player that
never returns blocks the game (run untrusted players in a separate process).
"""

from __future__ import annotations

from time import perf_counter

from gpquarto.arena.record import DRAW, FORFEIT, WIN, GameRecord
from gpquarto.engine.board import Board, IllegalActionError
from gpquarto.engine.lines import Rules
from gpquarto.engine.pieces import NO_PIECE
from gpquarto.players.base import Player, PlayerQuit
from gpquarto.seeding import derive_seed

_START_TEXTS = {rules: Board(rules).text() for rules in Rules}


def player_name(player: Player) -> str:
    """A short display name for a player: its ``name`` attribute or its class name."""
    return str(getattr(player, "name", None) or type(player).__name__)


def play_game(
    players: tuple[Player, Player] | list[Player],
    *,
    start: Board | str | None = None,
    rules: Rules | str = Rules.CLASSIC,
    seed: int | None = None,
    time_limit: float | None = None,
    names: tuple[str, str] | None = None,
) -> GameRecord:
    """Play a game; ``players[0]`` sits in seat 0 (opens by choosing when starting from the empty board).

    When ``seed`` is given, each player's ``seed`` hook is called with a seed derived from it and the
    seat, so the game can be replayed exactly. ``start`` may be a Board or position text.
    """
    if isinstance(start, str):
        board = Board.from_text(start)
    elif start is not None:
        board = start.copy()
    else:
        board = Board(rules)
    record = GameRecord(
        players=names or (player_name(players[0]), player_name(players[1])),
        start=board.text() if start is not None else _START_TEXTS[board.rules],
        seed=seed,
    )
    if seed is not None:
        for seat, player in enumerate(players):
            hook = getattr(player, "seed", None)
            if hook is not None:
                hook(derive_seed(seed, seat))
    for seat, player in enumerate(players):
        hook = getattr(player, "new_game", None)
        if hook is not None:
            hook(seat)
    _run(board, players, record, time_limit)
    return record


def _run(board: Board, players, record: GameRecord, time_limit: float | None) -> None:
    """The game loop: a choice then a placement per turn, each timed and validated by the engine."""
    view = board.view()
    board._history = []  # the record's actions are the board's history from the start position
    add_time = record.times.append
    limit = float("inf") if time_limit is None else time_limit
    choosers = [player.choose_piece for player in players]
    placers = [player.place_piece for player in players]
    choose, place = board.choose, board.place
    clock = perf_counter
    try:
        while board._winner == NO_PIECE and board._placed < 16:
            seat = board._player
            hand = board._in_hand
            began = clock()
            try:
                action = choosers[seat](view) if hand == NO_PIECE else placers[seat](view, hand)
            except PlayerQuit:
                raise
            except Exception as error:  # a player's bug loses the game, it does not stop the match
                add_time(clock() - began)
                return _forfeit(record, seat, f"raised {type(error).__name__}: {error}")
            elapsed = clock() - began
            add_time(elapsed)
            if elapsed > limit:
                return _forfeit(record, seat, f"took {elapsed:.3f} s, over the {time_limit:g} s limit")
            try:
                if hand == NO_PIECE:
                    choose(action)
                else:
                    place(action)
            except IllegalActionError as error:
                kind = "choice" if hand == NO_PIECE else "placement"
                return _forfeit(record, seat, f"illegal {kind} {action!r}: {error}")
        if board._winner == NO_PIECE:
            record.end = DRAW
        else:
            record.end = WIN
            record.winner = board._winner
    finally:
        record.actions = board._history


def _forfeit(record: GameRecord, seat: int, reason: str) -> None:
    record.end = FORFEIT
    record.forfeited_by = seat
    record.winner = 1 - seat
    record.reason = reason
