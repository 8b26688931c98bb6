"""What a learning run needs to be repeated: :class:`LearnConfig`, plain data both ways."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields

from gpquarto.games.defaults import training_defaults
from gpquarto.games.registry import DEFAULT_GAME, get_game

#: The learning methods: afterstate TD with an n-tuple network, and the two tabular methods of the seeds.
METHODS = ("td-ntuple", "q-learning", "monte-carlo")
#: Step-size rules of the n-tuple learner: a constant ``alpha``, or temporal coherence (``alpha`` times each
#: weight's own coherence |sum of its errors| / sum of |its errors|, which falls as the weight settles).
STEPS = ("tc", "constant")
#: The opponent name that means "the learner itself" (self-play: both seats learn).
SELF = "self"
#: Step sizes by method that a config with ``alpha`` unset meant before the defaults became per game (a saved
#: run's config with ``"alpha": null`` keeps meaning them).
DEFAULT_ALPHA = {"td-ntuple": 0.1, "q-learning": 0.2, "monte-carlo": 0.05}
#: The defaults of the settings left unset (None) of a method for which the game's
#: :class:`~gpquarto.games.capabilities.TrainingDefaults` give none (theirs were measured, docs/learning.md).
OTHER_DEFAULTS: dict[str, object] = {"episodes": 20_000, "step": "tc", "epsilon_start": 0.1}


@dataclass(frozen=True)
class LearnConfig:
    """Everything a learning run depends on; the same config gives the same learned player on any runner."""

    game: str = DEFAULT_GAME
    settings: dict = field(default_factory=dict)
    method: str = "td-ntuple"
    #: Episodes to learn from (None: the default of the method and game, its ``TrainingDefaults.learning``).
    episodes: int | None = None
    seed: int = 0
    #: Episodes played from one frozen copy of the model before their updates are merged, in episode order.
    batch: int = 100
    #: Opponents as in training's ``--opponents``: ``self``, any player spec, or a weighted mix
    #: (``self:3,random:1``).
    opponents: str = SELF
    #: Step size, step rule (see :data:`STEPS`) and the exploration at the start: None for the default of
    #: the method and game (the game's ``TrainingDefaults.learning``, else :data:`DEFAULT_ALPHA` and
    #: :data:`OTHER_DEFAULTS`).
    alpha: float | None = None
    step: str | None = None
    #: TD(lambda) of the n-tuple learner (0: TD(0)).
    lam: float = 0.5
    #: Exploration: a random turn with probability epsilon, falling linearly from start to end over the run.
    epsilon_start: float | None = None
    epsilon_end: float = 0.0
    #: The learning curve: every ``eval_every`` episodes (0: only at the end), ``eval_games`` games against
    #: each of ``eval_opponents`` (comma-separated specs; None: the game's ``TrainingDefaults.learning_evaluation``).
    eval_every: int = 0
    eval_games: int = 200
    eval_opponents: str | None = None
    #: The saved player plays with the tactical guard (take a win; never hand one over when avoidable). It
    #: does not change learning: the episodes are played from the values alone.
    guard: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.game, str) or not isinstance(self.settings, dict):
            raise ValueError("game must be a game's name and settings an object of its settings")
        game = get_game(self.game)
        object.__setattr__(self, "game", game.name)
        settings = game.check_settings(dict(self.settings))
        object.__setattr__(self, "settings", {key: getattr(value, "value", value) for key, value in settings.items()})
        if self.method not in METHODS:
            raise ValueError(f"unknown method {self.method!r} (methods: {', '.join(METHODS)})")
        game_defaults = training_defaults(game.name)
        defaults = game_defaults.learning.get(self.method, {**OTHER_DEFAULTS, "alpha": DEFAULT_ALPHA[self.method]})
        if self.eval_opponents is None:
            object.__setattr__(self, "eval_opponents", game_defaults.learning_evaluation)
        for name, value in defaults.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, value)
        if self.step not in STEPS:
            raise ValueError(f"unknown step rule {self.step!r} (step rules: {', '.join(STEPS)})")
        for name, low in (("episodes", 1), ("batch", 1), ("eval_every", 0), ("eval_games", 0), ("seed", 0)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ValueError(f"{name} must be a whole number >= {low}, got {value!r}")
        for name in ("epsilon_start", "epsilon_end", "lam"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0 <= value <= 1:
                raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
        if self.alpha is not None and not (
            isinstance(self.alpha, (int, float)) and math.isfinite(self.alpha) and 0 < self.alpha <= 1
        ):
            raise ValueError(f"alpha must be a number in (0, 1], got {self.alpha!r}")
        if not isinstance(self.guard, bool):
            raise ValueError(f"guard must be true or false, got {self.guard!r}")
        if self.eval_games % 2:
            raise ValueError(f"eval_games must be even (both seats), got {self.eval_games}")

    @property
    def step_size(self) -> float:
        """``alpha`` (always set once the config is made)."""
        return float(self.alpha)  # type: ignore[arg-type]  # set by __post_init__

    @property
    def episode_count(self) -> int:
        """``episodes``, which ``__post_init__`` sets (to the default of the method and game when not given)."""
        assert self.episodes is not None
        return self.episodes

    @property
    def evaluation_opponents(self) -> str:
        """``eval_opponents``, which ``__post_init__`` sets (to the game's when not given)."""
        assert self.eval_opponents is not None
        return self.eval_opponents

    def epsilon(self, episode: int) -> float:
        """The exploration rate of ``episode`` (0-based)."""
        episodes, start = self.episode_count, self.epsilon_start
        assert start is not None  # set by __post_init__
        share = episode / max(1, episodes - 1)
        return start + (self.epsilon_end - start) * min(1.0, share)

    def evaluation_points(self) -> list[int]:
        """The episode counts after which the learning curve is measured (always the last)."""
        episodes = self.episode_count
        points = list(range(self.eval_every, episodes, self.eval_every)) if self.eval_every else []
        return [*points, episodes] if self.eval_games else []

    def as_dict(self) -> dict:
        """Plain data (JSON)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> LearnConfig:
        """The config in ``data``; unknown keys are a one-line ``ValueError``."""
        if "alpha" in data and data["alpha"] is None:  # a run saved when unset meant the method's old default
            data = {**data, "alpha": DEFAULT_ALPHA.get(data.get("method", "td-ntuple"))}
        known = {item.name for item in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown learning setting {unknown[0]!r}")
        return cls(**data)
