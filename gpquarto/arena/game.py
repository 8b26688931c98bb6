"""Play one game between two players, validating every action, and return its record.

A player that returns an illegal action, raises an exception, or takes longer than ``time_limit``
seconds for a decision forfeits the game (the opponent wins) and the record says why; a late action does
not count, even a winning one. Time limits are checked after the decision returns: Python cannot safely
interrupt a player mid-thought, so a player that never returns blocks the game (run untrusted players in
a separate process).
"""

from __future__ import annotations

from time import perf_counter

from gpquarto.arena.record import END_DRAW, END_FORFEIT, END_WIN, GameRecord
from gpquarto.games.quarto.board import Board, IllegalActionError
from gpquarto.games.quarto.lines import Rules
from gpquarto.games.quarto.pieces import NO_PIECE
from gpquarto.players.base import Player, PlayerQuit, raised_reason, too_slow_reason
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
    if start is None:
        board = Board(rules)
        start_text = _START_TEXTS[board.rules]
    else:
        board = Board.from_text(start) if isinstance(start, str) else start.copy()
        start_text = board.text()
    if seed is not None:
        for seat, player in enumerate(players):
            hook = getattr(player, "seed", None)
            if hook is not None:
                hook(derive_seed(seed, seat))
    for seat, player in enumerate(players):
        hook = getattr(player, "new_game", None)
        if hook is not None:
            hook(seat)
    board.forget_history()  # the record's actions are the board's history from the start position
    times: list[float] = []
    end, winner, forfeited_by, reason = _run(board, players, times, time_limit)
    return GameRecord(
        names or (player_name(players[0]), player_name(players[1])),
        start_text,
        list(board.history),
        winner,
        end,
        forfeited_by,
        reason,
        times,
        seed,
    )


_Outcome = tuple[str, int | None, int | None, str]  # end, winner, forfeited_by, reason


def _run(board: Board, players, times: list[float], time_limit: float | None) -> _Outcome:
    """The game loop: a choice then a placement per turn, each timed and validated by the engine.

    A decision's time runs from the end of the previous one (or the start of the game) until its action
    is validated: one clock reading ends a decision and starts the next, so the engine's check of the
    action and the loop's own bookkeeping, a fraction of a microsecond, count toward the decision. An
    action that comes too late is taken back before the forfeit. The choice and the placement are written
    out one after the other rather than shared through a helper: a random player decides in well under a
    microsecond, and the extra call per decision cost 5% of the player-API benchmark.
    """
    view = board.view()
    add_time = times.append
    limit = float("inf") if time_limit is None else time_limit
    choosers = (players[0].choose_piece, players[1].choose_piece)
    placers = (players[0].place_piece, players[1].place_piece)
    choose, place = board.push_choice, board.push_placement  # the loop knows which decision is due
    clock = perf_counter
    seat = board.player
    piece = board.in_hand
    asked = clock()
    while board.winner_index == NO_PIECE and board.placed_count < 16:
        if piece == NO_PIECE:
            try:
                choice = choosers[seat](view)
            except PlayerQuit:
                raise
            except (Exception, SystemExit) as error:  # a player's bug (even sys.exit) loses the game, not the match
                add_time(clock() - asked)
                return _raised(seat, error)
            try:
                choose(choice)
            except IllegalActionError as error:
                add_time(clock() - asked)
                return _forfeit(seat, f"illegal choice {choice!r}: {error}")
            done = clock()
            elapsed = done - asked
            add_time(elapsed)
            if elapsed > limit:
                board.undo()
                return _too_slow(seat, elapsed, limit)
            asked = done
            piece = board.in_hand  # the validated int, whatever int-like object the player returned
            seat ^= 1
        try:
            square = placers[seat](view, piece)
        except PlayerQuit:
            raise
        except (Exception, SystemExit) as error:
            add_time(clock() - asked)
            return _raised(seat, error)
        try:
            place(square)
        except IllegalActionError as error:
            add_time(clock() - asked)
            return _forfeit(seat, f"illegal placement {square!r}: {error}")
        done = clock()
        elapsed = done - asked
        add_time(elapsed)
        if elapsed > limit:
            board.undo()
            return _too_slow(seat, elapsed, limit)
        asked = done
        piece = NO_PIECE
    if board.winner_index == NO_PIECE:
        return END_DRAW, None, None, ""
    return END_WIN, board.winner_index, None, ""


def _forfeit(seat: int, reason: str) -> _Outcome:
    return END_FORFEIT, 1 - seat, seat, reason


def _raised(seat: int, error: BaseException) -> _Outcome:
    return _forfeit(seat, raised_reason(error))


def _too_slow(seat: int, elapsed: float, limit: float) -> _Outcome:
    return _forfeit(seat, too_slow_reason(elapsed, limit))
