"""Any gpquarto game as a ``pyspiel`` Python game: :func:`register_game` registers a plug-in's game as
``python_gpquarto_NAME`` with its settings as parameters, :func:`spiel_game` loads it under given settings.

The OpenSpiel state holds a gpquarto state (history included: Quixo's repetitions count as in gpquarto) and
answers OpenSpiel's queries from it: ``current_player``, ``legal_actions``, ``apply_action`` (checked by the game),
``action_to_string`` (the game's action names), ``is_terminal``, ``returns`` (1 / -1 for a win, 0 for every draw)
and ``str`` (the position text). The observation and information-state strings are the position text (and the
history, for perfect recall); there are no tensors.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from gpquarto.games.capabilities import Board
from gpquarto.games.interface import GameState
from gpquarto.games.plugin import GamePlugin
from gpquarto.games.registry import get_plugin

#: The start of every registered name: ``python_gpquarto_quarto``.
PREFIX = "python_gpquarto_"
_REGISTERED: dict[str, GamePlugin] = {}


def registered_name(game: str | GamePlugin) -> str:
    """``python_gpquarto_NAME``: the name ``pyspiel`` knows the gpquarto game ``game`` by."""
    return PREFIX + get_plugin(game).name


def default_max_length(plugin: GamePlugin, settings: Mapping[str, object]) -> int:
    """An upper bound of a game's length in actions, which OpenSpiel asks of every game: the ``ply_limit``
    setting where the game has one (Quixo), else the larger of its action count and board cells, times its
    decision kinds (a game whose every action or cell is used once a turn: Quarto's 32, Connect Four's 42).
    A game for which that is no bound passes its own ``max_length`` to :func:`register_game`."""
    limit = settings.get("ply_limit")
    if limit.__class__ is int:
        return limit
    board = plugin.capability_or(Board, None)
    cells = 0
    if board is not None:
        rows, columns = board.shape(settings)
        cells = rows * columns
    return max(plugin.game.action_count, cells) * len(plugin.game.decision_kinds)


def register_game(
    game: str | GamePlugin, max_length: Callable[[GamePlugin, Mapping[str, object]], int] = default_max_length
) -> str:
    """Register the gpquarto game ``game`` with ``pyspiel`` (once) and return its name there."""
    plugin = get_plugin(game)
    name = PREFIX + plugin.name
    if name in _REGISTERED:
        if _REGISTERED[name] is not plugin:
            raise ValueError(f"{name} is already registered for another plug-in of {plugin.name}")
        return name
    if ":" in plugin.name:
        raise ValueError(f"{plugin.name} is a game a provider makes: OpenSpiel plays it as it is")
    defaults = {setting.name: setting.default for setting in plugin.settings}
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"gpquarto's {plugin.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=defaults,
    )

    class Game(pyspiel.Game):
        """A gpquarto game as a ``pyspiel`` game; its parameters are the game's settings."""

        def __init__(self, params: Mapping[str, object] | None = None) -> None:
            settings = plugin.check_settings({**defaults, **dict(params or {})})
            info = pyspiel.GameInfo(
                num_distinct_actions=plugin.game.action_count,
                max_chance_outcomes=0,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=max_length(plugin, settings),
            )
            super().__init__(game_type, info, dict(settings))
            self.plugin, self.settings = plugin, settings

        def new_initial_state(self) -> SpielState:
            return SpielState(self, plugin.game.new_state(**self.settings))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
                return TextObserver(params)
            return IIGObserverForPublicInfoGame(iig_obs_type, params)

    pyspiel.register_game(game_type, Game)
    _REGISTERED[name] = plugin
    return name


def spiel_game(game: str | GamePlugin, settings: Mapping[str, object] | None = None) -> Any:
    """The ``pyspiel`` game of the gpquarto game ``game`` under ``settings`` (registered first if need be)."""
    name = register_game(game)
    return pyspiel.load_game(name, dict(settings or {}))


class SpielState(pyspiel.State):
    """An OpenSpiel state over a gpquarto state (``position``, read it, do not change it)."""

    def __init__(self, game: Any, position: GameState) -> None:
        super().__init__(game)
        self.position = position

    def current_player(self) -> int:
        return pyspiel.PlayerId.TERMINAL if self.position.is_over() else self.position.player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.position.legal_actions())

    def _apply_action(self, action: int) -> None:
        self.position.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.position.action_name(int(action))

    def is_terminal(self) -> bool:
        return self.position.is_over()

    def returns(self) -> list[float]:
        outcome = self.position.outcome()
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome.winner == 0 else [-1.0, 1.0]

    def __str__(self) -> str:
        return self.position.text()

    def __deepcopy__(self, memo: dict) -> SpielState:
        twin = copy.copy(self)
        twin.position = self.position.copy()
        return twin


class TextObserver:
    """OpenSpiel's observer of a perfect-information game: the position text as the string, no tensor."""

    def __init__(self, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: SpielState, player: int) -> None:
        """Nothing to set: there is no tensor."""

    def string_from(self, state: SpielState, player: int) -> str:
        return state.position.text()
