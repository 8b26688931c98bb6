"""The evolution config: every setting that decides a run's results, its defaults and its checks."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields

from gpquarto.gp.library import LibraryConfig
from gpquarto.grading.bank import BankParameters
from gpquarto.training.fitness import check_opponents, game_plan, parse_schedule

#: The default opponent mix: a quarter of the games keep the player sound against random play, the rest are
#: against the yardstick the project cares about.
DEFAULT_OPPONENTS = "random:1,minimax:depth=2:3"
#: The default mix without the tactical families (``tactical=False``). Those players score about 5% against
#: minimax whatever they learn, so three quarters of minimax games would mostly teach them draws, at the price
#: of wins against random; half and half gave 95.2-96.5% wins against random on three seeds, against
#: 84.5-96.0% with the full-vocabulary mix (docs/experiments.md).
BASIC_DEFAULT_OPPONENTS = "random:1,minimax:depth=2:1"
#: Config fields that may change when a run is resumed (they do not change the results of past generations).
RESUMABLE_CHANGES = ("generations",)
#: The largest value of each whole-number setting: far beyond any useful run, small enough that a run's plans
#: (games per generation, the final games, the population) fit in memory. Larger values are refused.
UPPER_LIMITS = {
    "generations": 1_000_000,
    "population": 10_000,
    "games": 100_000,
    "seed": 2**64 - 1,
    "accuracy_positions": 10_000,
    "accuracy_max_empties": 10,
    "min_rules": 256,
    "max_rules": 256,
    "rule_cap": 256,
    "height_limit": 64,
    "init_min_height": 64,
    "init_max_height": 64,
    "tournament_size": 1_000,
    "elite": 10_000,
    "hall_of_fame": 1_000,
    "immigrant_every": 1_000_000,
    "immigrants": 10_000,
    "screening_games": 1_000,
    "screening_tries": 100,
    "final_games": 100_000,
}
#: Settings that are shares (between 0 and 1).
SHARES = (
    "crossover_rate",
    "rule_crossover_share",
    "mutation_rate",
    "screening_max_true_rate",
    "screening_min_legal_rate",
)


@dataclass(frozen=True)
class EvolutionConfig:
    """Everything that decides a run's results (execution details such as workers live elsewhere).

    Defaults: 50 genomes x 80 games (40 seeds, both seats) per generation keep 120 generations within about
    ten minutes on two cores; 80 games rather than 40 halve the variance of a score, and lifted each of three
    seeds above 50% against minimax:depth=2. Rules per genome 5..10 at creation (up to ``rule_cap`` later),
    height limit 8. The accuracy term (weight 1 on 200 solved decisions with 6 to 8 empty squares) teaches the
    endgame that one-turn lookahead cannot see. The champion is the best of ten generations' bests, each
    replayed on the same 2,000 games. The wins against random on every seed (99.60-99.95%, from 99.2% on two
    seeds in three) came not from a setting here but from the primitive library: the parity squares
    (``square_leaving_odd_safe_pieces``) join the line the piece fits instead of the lowest square, whose dead
    lines gave draws that fitness cannot see (half a point in 20 games against random). No default here
    changed. ``docs/experiments.md`` has the runs behind these choices.
    ``opponents`` left empty means the default mix for the vocabulary: :data:`DEFAULT_OPPONENTS`, or
    :data:`BASIC_DEFAULT_OPPONENTS` without the tactical families.
    """

    generations: int = 120
    population: int = 50
    games: int = 80
    opponents: str = ""
    schedule: str = ""
    seed: int = 0
    fallback_weight: float = 0.4
    accuracy_weight: float = 1.0
    accuracy_positions: int = 200
    accuracy_max_empties: int = 8
    tactical: bool = True
    lookahead: bool = True
    plugins: tuple[str, ...] = ()
    #: Player files (``.json`` or ``.p``) whose rules join generation 0 in place of as many random genomes.
    start_from: tuple[str, ...] = ()
    min_rules: int = 5
    max_rules: int = 10
    rule_cap: int = 16
    height_limit: int = 8
    init_min_height: int = 1
    init_max_height: int = 4
    tournament_size: int = 3
    elite: int = 2
    hall_of_fame: int = 10
    #: At most one hall of fame member per generation, its best. Scores of different generations come from
    #: different games, so a plain hall fills with the top genomes of the luckiest generation, near-copies.
    hall_of_fame_per_generation: bool = True
    immigrant_every: int = 6
    immigrants: int = 2
    crossover_rate: float = 0.6
    rule_crossover_share: float = 0.5
    mutation_rate: float = 0.6
    screening_games: int = 3
    screening_max_true_rate: float = 1.0
    screening_min_legal_rate: float = 0.5
    screening_tries: int = 5
    final_games: int = 2000

    def __post_init__(self) -> None:
        for name in ("plugins", "start_from"):
            value = getattr(self, name)
            if not isinstance(value, list | tuple) or not all(isinstance(item, str) for item in value):
                raise ValueError(f"bad evolution config: {name} must be a list of file paths, got {value!r:.60}")
            object.__setattr__(self, name, tuple(value))
        self._check_types_and_limits()
        if not self.tactical:  # the lookahead family builds on the tactical one: no tactics, no lookahead
            object.__setattr__(self, "lookahead", False)
        if not self.opponents:
            object.__setattr__(self, "opponents", DEFAULT_OPPONENTS if self.tactical else BASIC_DEFAULT_OPPONENTS)
        checks = [
            (self.generations >= 0, "generations must be >= 0"),
            (self.seed >= 0, "seed must be >= 0"),
            (self.population >= 2, "population must be at least 2"),
            (0 <= self.elite < self.population, "elite must be between 0 and population - 1"),
            (1 <= self.min_rules <= self.max_rules <= self.rule_cap, "need 1 <= min_rules <= max_rules <= rule_cap"),
            (
                1 <= self.init_min_height <= self.init_max_height <= self.height_limit,
                "need 1 <= init heights <= height_limit",
            ),
            (self.tournament_size >= 1, "tournament_size must be >= 1"),
            (self.hall_of_fame >= 1, "hall_of_fame must be >= 1"),
            (
                self.immigrant_every >= 1 and 0 <= self.immigrants <= self.population - self.elite,
                "bad immigrant settings",
            ),
            (self.fallback_weight >= 0, "fallback_weight must be >= 0"),
            (self.accuracy_weight >= 0 and math.isfinite(self.accuracy_weight), "accuracy_weight must be >= 0"),
            (self.accuracy_positions >= 1, "accuracy_positions must be >= 1"),
            (6 <= self.accuracy_max_empties <= 10, "accuracy_max_empties must be 6..10"),
            (self.screening_games >= 1 and self.screening_tries >= 1, "screening games and tries must be >= 1"),
            (self.final_games >= 0 and self.final_games % 2 == 0, "final_games must be an even number >= 0"),
            (
                len(self.start_from) <= self.population,
                f"start_from names {len(self.start_from)} players, more than the population ({self.population})",
            ),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(f"bad evolution config: {message}")
        game_plan(check_opponents(self.opponents), self.games, self.seed, 0)
        if self.schedule:
            parse_schedule(self.schedule)

    def _check_types_and_limits(self) -> None:
        """Each field has its type (a whole number, a finite number, a boolean, text) and stays within
        :data:`UPPER_LIMITS` and :data:`SHARES`; a one-line ``ValueError`` names the first that does not."""
        for item in fields(self):
            value = getattr(self, item.name)
            kind = type(item.default)
            if kind is bool:
                ok, expected = isinstance(value, bool), "true or false"
            elif kind is int:
                ok, expected = isinstance(value, int) and not isinstance(value, bool), "a whole number"
            elif kind is float:
                ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
                expected = "a finite number"
            elif kind is str:
                ok, expected = isinstance(value, str), "text"
            else:
                continue
            if not ok:
                raise ValueError(f"bad evolution config: {item.name} must be {expected}, got {value!r:.60}")
            limit = UPPER_LIMITS.get(item.name)
            if limit is not None and value > limit:
                raise ValueError(f"bad evolution config: {item.name} must be at most {limit:,}, got {value:,}")
            if item.name in SHARES and not 0 <= value <= 1:
                raise ValueError(f"bad evolution config: {item.name} must be between 0 and 1, got {value}")

    def as_dict(self) -> dict:
        """Plain JSON-able dict."""
        data = asdict(self)
        data["plugins"] = list(self.plugins)
        data["start_from"] = list(self.start_from)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> EvolutionConfig:
        """Rebuild from :meth:`as_dict` output, checked field by field; unknown keys are an error."""
        if not isinstance(data, dict):
            raise ValueError(f"an evolution config is a mapping of settings, got {type(data).__name__}")
        known = {item.name for item in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown config keys: {', '.join(unknown)}")
        # Runs saved before the lookahead family, the accuracy term or the per-generation hall of fame existed
        # trained without them: keep them as they were.
        return cls(
            **{
                "lookahead": False,
                "accuracy_weight": 0.0,
                "hall_of_fame_per_generation": False,
                **data,
            }
        )

    def training_bank(self) -> BankParameters:
        """The parameters of the training bank graded by the accuracy term: the run's seed, purpose
        ``training`` (other games than ``grade``'s bank, whose default stays unseen)."""
        return BankParameters(
            seed=self.seed,
            positions=self.accuracy_positions,
            max_empties=self.accuracy_max_empties,
            purpose="training",
        )

    def library(self) -> LibraryConfig:
        """Which primitive library the run uses."""
        return LibraryConfig(self.plugins, self.tactical, self.lookahead)

    def differences(self, other: EvolutionConfig) -> list[str]:
        """Names of fields that differ, other than those a resume may change."""
        return [
            item.name
            for item in fields(self)
            if item.name not in RESUMABLE_CHANGES and getattr(self, item.name) != getattr(other, item.name)
        ]
