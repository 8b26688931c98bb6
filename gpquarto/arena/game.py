"""Play one game of any game between two players, validating every action, and return its record.

The loop speaks the game interface (:mod:`gpquarto.games.interface`): each decision is ``decide(view)``,
validated by ``apply``. Two players who both speak a game's own form (its
:class:`~gpquarto.games.capabilities.PlayerForm`: Quarto's choose/place) play through the game's own loop, which
gives the same records (``tests/test_arena_game.py`` plays both). A player that returns an illegal action, raises an exception, or takes longer than ``time_limit``
seconds for a decision forfeits the game (the opponent wins) and the record says why; a late action does
not count, even a winning one. Time limits are checked after the decision returns: Python cannot safely
interrupt a player mid-thought, so a player that never returns blocks the game (run untrusted players in
a separate process). The limit is also every decision's search budget (:mod:`gpquarto.search.budget`): the
zoo's searching players stop within part of it and answer with the best move found so far.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, nullcontext
from time import perf_counter

from gpquarto.arena.outcomes import forfeit, raised, too_slow
from gpquarto.arena.record import GameRecord
from gpquarto.games.capabilities import PlayerForm
from gpquarto.games.interface import Game, GameState, IllegalActionError, Outcome
from gpquarto.games.registry import DEFAULT_GAME, get_game, get_plugin
from gpquarto.players.base import Player, PlayerQuit
from gpquarto.search.budget import search_share, time_budget
from gpquarto.seeding import derive_seed


def player_name(player: Player) -> str:
    """A short display name for a player: its ``name`` attribute or its class name."""
    return str(getattr(player, "name", None) or type(player).__name__)


def with_rules(settings: Mapping[str, object] | None, rules: object) -> dict[str, object]:
    """``settings`` (copied) with the ``rules`` shorthand of the callers folded in: a rule set's enum member or
    its name; None leaves the settings as they are."""
    merged = dict(settings or {})
    if rules is not None:
        merged["rules"] = getattr(rules, "value", rules)  # a rule set's enum member or its name
    return merged


def play_game(
    players: tuple[Player, Player] | list[Player],
    *,
    game: str | Game = DEFAULT_GAME,
    start: GameState | str | None = None,
    rules: object = None,
    settings: Mapping[str, object] | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    names: tuple[str, str] | None = None,
) -> GameRecord:
    """Play a game; ``players[0]`` sits in seat 0 (moves first from the start position; in Quarto, opens by
    choosing).

    ``start`` may be a state or position text of ``game``; otherwise the game starts from its start position
    under ``settings`` (``rules`` is a shorthand for ``settings["rules"]``). When ``seed`` is given, each
    player's ``seed`` hook is called with a seed derived from it and the seat, so the game can be replayed
    exactly.
    """
    the_game = get_game(game)
    if rules is not None:
        settings = with_rules(settings, rules)
    if start is None:
        state, start_text, state_settings = _start_position(the_game, settings or {})
    else:
        if isinstance(start, str):
            state = the_game.from_text(start, **(settings or {}))
        elif start.game_name != the_game.name:
            raise ValueError(f"the start position is a {start.game_name} position, not {the_game.name}")
        else:
            state = start.copy()
        start_text = state.text()
        state_settings = state.settings()
    first, second = players
    try:
        first_hooks, second_hooks = (first.seed, first.new_game), (second.seed, second.new_game)
    except AttributeError as error:
        raise TypeError(f"not a gpquarto player ({error}): derive it from gpquarto.players.BasePlayer") from None
    if seed is not None:
        first_hooks[0](derive_seed(seed, 0))
        second_hooks[0](derive_seed(seed, 1))
    state.forget_history()  # the record's actions are the state's history from the start position
    times: list[float] = []
    limit = float("inf") if time_limit is None else time_limit
    with nullcontext() if time_limit is None else _timed_game(search_share(time_limit)):
        # in the budget, before the clock: a player that will search within it prepares (loads code) here
        first_hooks[1](0)
        second_hooks[1](1)
        form = player_form(the_game)
        if form is not None and form.speaks(first) and form.speaks(second):
            outcome = form.play(state, players, times, limit)
        else:
            outcome = _run(state, players, times, limit)
    return GameRecord(
        names or (player_name(first), player_name(second)),
        start_text,
        list(state.history),
        outcome.winner,
        outcome.termination.value,
        outcome.forfeited_by,
        outcome.reason,
        times,
        seed,
        the_game.name,
        state_settings,
    )


#: Game name -> (the game, its player form or None), asked once per game.
_FORMS: dict[str, tuple[Game, PlayerForm | None]] = {}


def player_form(game: Game) -> PlayerForm | None:
    """The player form of ``game``'s plug-in, if it offers one (None for a game object that is not installed); asked
    of the plug-in once per game."""
    known = _FORMS.get(game.name)
    if known is not None and known[0] is game:
        return known[1]
    try:
        plugin = get_plugin(game.name)
    except ValueError:
        form = None
    else:
        form = plugin.capability_or(PlayerForm, None) if plugin.game is game else None
    _FORMS[game.name] = (game, form)
    return form


#: (game, settings) -> the start position, its text and settings: most games start from it, and a copy is
#: cheaper than checking the settings and writing the text again (a random Quarto game takes 100 microseconds).
_STARTS: dict[tuple[str, tuple[tuple[str, object], ...]], tuple[GameState, str, dict[str, object]]] = {}


def _start_position(game: Game, settings: Mapping[str, object]) -> tuple[GameState, str, dict[str, object]]:
    """A fresh start position of ``game`` under ``settings``, its text and its settings."""
    try:
        key = (game.name, tuple(sorted(settings.items())) if settings else ())
        template, text, complete = _STARTS[key]
    except KeyError:
        template = game.new_state(**settings)
        text, complete = template.text(), template.settings()
        _STARTS[key] = template, text, complete
    except TypeError:  # an unhashable setting: the game accepts or refuses it
        template = game.new_state(**settings)
        return template, template.text(), template.settings()
    return template.copy(), text, dict(complete)


@contextmanager
def _timed_game(share: float) -> Iterator[None]:
    """The block of a game under a time limit: each decision's searches have ``share`` seconds
    (:func:`~gpquarto.search.budget.time_budget`), and the garbage collector walks only the objects made since the
    game began. A program with a large heap (a notebook, a test session) would otherwise have a full collection walk
    all of it inside a timed decision, and the decision could overrun its limit for work that is not its own. When
    the program froze objects itself (:func:`gc.freeze`, as the worker processes' server does), it is left as it is.
    Timed games in several threads share one freeze, thawed when the last of them ends.
    """
    global _timed_games_frozen
    with _freeze_lock:
        freeze = _timed_games_frozen > 0 or (gc.isenabled() and gc.get_freeze_count() == 0)
        if freeze:
            if _timed_games_frozen == 0:
                gc.freeze()
            _timed_games_frozen += 1
    try:
        with time_budget(share):
            yield
    finally:
        if freeze:
            with _freeze_lock:
                _timed_games_frozen -= 1
                if _timed_games_frozen == 0:
                    gc.unfreeze()


#: The timed games under way that hold the freeze of :func:`_timed_game` (it is one for the whole process).
_timed_games_frozen = 0
_freeze_lock = threading.Lock()


def _run(state: GameState, players, times: list[float], limit: float) -> Outcome:
    """The game loop of every game: ``decide`` then ``apply`` per decision, each timed and validated.

    A decision's time runs from the end of the previous one (or the start of the game) until its action is
    validated; an action that comes too late is taken back before the forfeit.
    """
    view = state.view()
    add_time = times.append
    clock = perf_counter
    asked = clock()
    while not state.is_over():
        seat = state.player
        try:
            action = players[seat].decide(view)
        except PlayerQuit:
            raise
        except (Exception, SystemExit) as error:  # a player's bug (even sys.exit) loses the game, not the match
            add_time(clock() - asked)
            return raised(seat, error)
        try:
            state.apply(action)
        except IllegalActionError as error:
            add_time(clock() - asked)
            return forfeit(seat, f"illegal action {action!r}: {error}")
        done = clock()
        elapsed = done - asked
        add_time(elapsed)
        if elapsed > limit:
            state.undo()
            return too_slow(seat, elapsed, limit)
        asked = done
    outcome = state.outcome()
    assert outcome is not None
    return outcome
