"""The evolution config: every setting that decides a run's results, its defaults (per game and per genome kind)
and its checks."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from gpquarto.arena.openings import MAX_OPENING_PLIES
from gpquarto.games.defaults import training_defaults
from gpquarto.games.registry import DEFAULT_GAME, get_game
from gpquarto.gp.bindings import gp_game
from gpquarto.gp.library import LibraryConfig
from gpquarto.grading.bank import BankParameters
from gpquarto.training.fitness import check_opponents, game_plan, parse_schedule

#: The default opponent mix: a quarter of the games keep the player sound against random play, the rest are
#: against the yardstick the project cares about.
DEFAULT_OPPONENTS = "random:1,minimax:depth=2:3"
#: The default mix without the tactical families (``tactical=False``). Those players rarely beat minimax whatever
#: they learn, so three quarters of minimax games would mostly teach them draws, at the price of wins against
#: random; half and half keeps more of those wins (docs/defaults.md, docs/lab/no-tactical.md).
BASIC_DEFAULT_OPPONENTS = "random:1,minimax:depth=2:1"
#: The genome kinds (:mod:`gpquarto.training.genome_kinds`): rule players, or evaluators for a search's leaves.
RULES, EVALUATOR = "rules", "evaluator"
GENOMES = (RULES, EVALUATOR)
#: Each genome kind's defaults where they differ from the dataclass's (rule players'): :meth:`EvolutionConfig.
#: for_game` applies them under the settings given. An evaluator run's defaults: depth 2, 10 generations of two
#: islands of 24 trees x 40 games, a hall of fame of one per island, 1,000 final games, no accuracy term, and the
#: opponents of :func:`evaluator_opponents`. Islands make finding the hand's best formula a matter of every seed
#: rather than of a lucky one, and many final games keep the final choice from taking a lucky member. Each island
#: is the same whatever the number of islands, and in the three-island runs the champion was island 1's best on
#: every seed, so two islands with a hall of one choose the same champions at a lower cost. The building blocks
#: (``evaluator_blocks``) are off: five generations with them evolved weaker champions (docs/defaults.md;
#: docs/lab/evaluator-islands.md, docs/lab/evaluator-blocks.md).
GENOME_DEFAULTS: dict[str, dict[str, object]] = {
    RULES: {},
    EVALUATOR: {
        "depth": 2,
        "generations": 10,
        "population": 24,
        "games": 40,
        "accuracy_weight": 0.0,
        "tournament_size": 3,
        "elite": 2,
        "hall_of_fame": 1,
        "crossover_rate": 0.5,
        "mutation_rate": 0.4,
        "final_games": 1000,
        "islands": 2,
        # Racing and parsimony are rule genomes' settings, and with no accuracy term the bank's size is moot: an
        # evaluator run keeps the values of the dataclass whatever its game's rule defaults say.
        "racing": False,
        "parsimony": 0.0,
        "accuracy_positions": 200,
    },
}


def evaluator_opponents(depth: int) -> str:
    """The default opponent mix of an evaluator searching at ``depth``: every hand-written heuristic that it is
    measured against at the same depth, ``guaranteed_loss`` (the hardest) twice, and ``minimax`` one ply deeper,
    what the evaluator's time would buy as depth."""
    return (
        f"minimax:depth={depth},heuristic=guaranteed_loss:2,minimax:depth={depth}:1,"
        f"minimax:depth={depth},heuristic=quarticity:1,minimax:depth={depth + 1}:1"
    )


#: Settings that only rule genomes read: an evaluator config must leave them at their defaults.
RULE_ONLY_FIELDS = (
    "fallback_weight",
    "tactical",
    "lookahead",
    "start_from",
    "min_rules",
    "max_rules",
    "rule_cap",
    "immigrant_every",
    "immigrants",
    "rule_crossover_share",
    "rule_transplant_share",
    "parsimony",
    "screening_games",
    "screening_max_true_rate",
    "screening_min_legal_rate",
    "screening_tries",
    "board_size",
    "game_rules",
    "racing",
)
#: Settings that only evaluator genomes read: a rule config must leave them at their defaults.
EVALUATOR_ONLY_FIELDS = ("depth", "cost_weight", "insertion_mutation", "evaluator_blocks")
#: Config fields written (config files, checkpoints, player files) only when set: a run that leaves them at their
#: defaults writes the config it wrote before they existed, and :meth:`EvolutionConfig.from_dict` reads a missing one
#: as its default.
WRITTEN_WHEN_SET = (
    "racing",
    "settings",
    "evaluator_blocks",
    "draw_value",
    "draw_value_end",
    "rule_transplant_share",
    "parsimony",
    "accuracy_bank",
)
#: Config fields that may change when a run is resumed (they do not change the results of past generations).
RESUMABLE_CHANGES = ("generations",)
#: The largest value of each whole-number setting: far beyond any useful run, small enough that a run's plans
#: (games per generation, the final games, the population) fit in memory. Larger values are refused.
UPPER_LIMITS = {
    "generations": 1_000_000,
    "population": 10_000,
    "games": 100_000,
    "openings": MAX_OPENING_PLIES,
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
    "depth": 4,
    "islands": 100,
}
#: Settings that are shares (between 0 and 1).
SHARES = (
    "draw_value",
    "crossover_rate",
    "rule_crossover_share",
    "rule_transplant_share",
    "mutation_rate",
    "screening_max_true_rate",
    "screening_min_legal_rate",
)


def game_setting_fields(settings: Mapping[str, object]) -> dict[str, object]:
    """The evolution config's fields for a game's settings: ``size`` is ``board_size`` and ``rules`` is
    ``game_rules`` (as configs had them before other settings), any other goes into ``settings``."""
    rest = dict(settings)
    fields_ = {
        name: rest.pop(setting)
        for setting, name in (("size", "board_size"), ("rules", "game_rules"))
        if setting in rest
    }
    if rest:
        fields_["settings"] = dict(sorted(rest.items()))
    return fields_


@dataclass(frozen=True)
class EvolutionConfig:
    """Everything that decides a run's results (execution details such as workers live elsewhere).

    Defaults: 50 genomes x 80 games (40 seeds, both seats) per generation; 80 games rather than 40 halve the
    variance of a score. Rules per genome 5..10 at creation (up to ``rule_cap`` later), height limit 8. The
    accuracy term (weight 1 on 200 solved decisions with 6 to 8 empty squares) teaches the endgame that one-turn
    lookahead cannot see. The champion is the best of ten generations' bests, each replayed on the same 2,000
    games. ``docs/defaults.md`` gives each default with the measurement behind it, and ``docs/lab/`` the runs.
    ``opponents`` left empty means the default mix for the vocabulary: :data:`DEFAULT_OPPONENTS`, or
    :data:`BASIC_DEFAULT_OPPONENTS` without the tactical families (a game whose :func:`training_defaults` set
    ``opponents``: that mix).

    ``game`` is the game the rule players play (configs written before it existed are Quarto's), under
    ``board_size`` and ``game_rules`` (its settings ``size`` and ``rules``, where its GP binding lets training set
    them: Quixo: 5 or 4, ``official`` or ``course``; 0 and ``""`` mean the game's default) and ``settings`` (any
    other setting of the game). :meth:`for_game` gives a game's defaults.
    """

    generations: int = 120
    population: int = 50
    games: int = 80
    #: Random plies before each fitness game pair (and final-choice pair), from a seed of the run seed, the
    #: generation and the pair (0: every game from the start position).
    openings: int = 0
    opponents: str = ""
    schedule: str = ""
    seed: int = 0
    fallback_weight: float = 0.4
    #: What a draw is worth in a genome's score, a win being 1 and a loss 0: the score of its games is
    #: ``(wins + draw_value x draws) / games`` (fitness, racing, the final choice). 0.5, the default, is the
    #: points of a match; less makes a genome that wins some games and loses as many worth more than one that
    #: draws them all. A config without the field reads as 0.5. With ``draw_value_end`` set, the value of
    #: generation 0.
    draw_value: float = 0.5
    #: A draw value schedule: None (the default, not written) keeps ``draw_value`` for every generation; a value
    #: of 0 to 1 is the draw value of the last generation, reached in a straight line from ``draw_value`` at
    #: generation 0 (:meth:`draw_value_at`). The final choice judges by it (:meth:`final_draw_value`).
    draw_value_end: float | None = None
    accuracy_weight: float = 1.0
    accuracy_positions: int = 200
    accuracy_max_empties: int = 8
    #: The kind of the accuracy term's training bank (:meth:`training_bank`), where the game makes others besides
    #: its default (:meth:`~gpquarto.games.capabilities.GradingBank.kinds`). Empty, the default, is the game's default
    #: bank, is not written and trains as the runs saved before it existed; a config without the field reads as empty.
    accuracy_bank: str = ""
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
    #: A genome bred unchanged (an elite, or a copy of a parent) keeps its evaluations: its fitness is the mean of
    #: every generation's games it has played, so the longer it lives the less noise its score carries, and the
    #: hall of fame ranks its member by that mean, not by the score of its first games.
    pooled_fitness: bool = False
    #: Rules: successive halving in each generation (:mod:`~gpquarto.training.racing`): every genome plays a quarter
    #: of ``games``, then the better half of those still racing play as many new games as they have played, until at
    #: most four are left; a genome's fitness is its score over all the games it played. Off: every genome plays
    #: ``games``. Not with ``pooled_fitness`` or several islands.
    racing: bool = False
    immigrant_every: int = 6
    immigrants: int = 2
    crossover_rate: float = 0.6
    rule_crossover_share: float = 0.5
    #: Rules: the share of rule crossovers done as transplants (:func:`~gpquarto.gp.variation.rule_transplant`:
    #: each child gets a run of 1 to 3 of the other parent's consecutive rules inserted into its own list, capped at
    #: ``rule_cap``), the rest swapping equal runs (:func:`~gpquarto.gp.variation.rule_crossover`). 0, the default,
    #: is not written, draws no random number and breeds as the runs saved before it existed; a config without the
    #: field reads as 0.
    rule_transplant_share: float = 0.0
    #: Rules: score taken off per node of the genome (its ``size``), at the end of a genome's score in the fitness,
    #: racing and the final choice: ``score - parsimony x size``, a bias towards short rule lists. 0, the default, is
    #: not written and scores as the runs saved before it existed; a config without the field reads as 0.
    parsimony: float = 0.0
    mutation_rate: float = 0.6
    screening_games: int = 3
    screening_max_true_rate: float = 1.0
    screening_min_legal_rate: float = 0.5
    screening_tries: int = 5
    final_games: int = 2000
    game: str = DEFAULT_GAME
    board_size: int = 0
    game_rules: str = ""
    #: The game's other settings for the run (Connect Four's ``rows``...), as (name, value) pairs sorted by name;
    #: its ``size`` and ``rules`` are ``board_size`` and ``game_rules``, which configs had before.
    settings: tuple[tuple[str, object], ...] = ()
    #: What evolves: ``rules`` (rule players) or ``evaluator`` (a Quarto evaluation for ``minimax`` at ``depth``).
    genome: str = RULES
    #: Evaluators: the depth of the ``minimax`` that evaluates its leaves with them (1 to 4).
    depth: int = 1
    #: Evaluators: score taken off per evaluation beyond one per leaf square (counted in the fitness games): 0,
    #: the default, is no cost term; 0.01 takes 5 points of score from a tree evaluated for each of six pieces.
    cost_weight: float = 0.0
    #: Evaluators: a mutation may also insert a new primitive above a subtree (:func:`~gpquarto.gp.variation.
    #: insertion`), one of four operators; off, the three of the runs saved before it existed.
    insertion_mutation: bool = False
    #: Evaluators: the run's library has the building blocks of the family ``evaluation_blocks`` (``forced_loss``...);
    #: off, the library of the runs saved before they existed (a config without the field reads as off).
    evaluator_blocks: bool = False
    #: Independent populations of ``population`` genomes each, bred apart (no migration) from seeds of their own,
    #: playing the same games; the hall of fame keeps ``hall_of_fame`` members of each, and the final choice
    #: replays them all. Island 0 is the run a single population would make (``start_from`` players join it),
    #: unless the mix has ``hof`` opponents: those are the whole hall of fame, every island's best.
    islands: int = 1

    @classmethod
    def for_game(cls, game: str = DEFAULT_GAME, **settings: object) -> EvolutionConfig:
        """The config of ``game`` with its :func:`training_defaults` and the genome kind's :data:`GENOME_DEFAULTS`
        under ``settings`` (what ``train --game`` and ``train --genome`` use). Racing from the defaults is off
        where the settings ask for pooled fitness or several islands, which racing does not go with; racing
        asked for in ``settings`` is kept, and refused there."""
        defaults = training_defaults(game).evolution  # an unknown game is named as such
        genome = settings.get("genome", RULES)
        if genome not in GENOME_DEFAULTS:
            raise ValueError(f"bad evolution config: genome must be one of {', '.join(GENOMES)}, got {genome!r:.40}")
        values: dict[str, Any] = {**defaults, **GENOME_DEFAULTS[genome], **settings, "game": game}  # checked next
        if "racing" not in settings and (values.get("pooled_fitness") or values.get("islands", 1) != 1):
            values["racing"] = False  # a default racing gives way to the settings it does not go with
        return cls(**values)

    def __post_init__(self) -> None:
        try:
            settings = dict(self.settings)  # a mapping, or (name, value) pairs
        except (TypeError, ValueError):
            settings = None
        if settings is None or not all(
            isinstance(name, str) and isinstance(value, bool | int | float | str) for name, value in settings.items()
        ):
            raise ValueError(
                f"bad evolution config: settings must map setting names to values, got {self.settings!r:.60}"
            )
        object.__setattr__(self, "settings", tuple(sorted(settings.items())))
        for name in ("plugins", "start_from"):
            value = getattr(self, name)
            if not isinstance(value, list | tuple) or not all(isinstance(item, str) for item in value):
                raise ValueError(f"bad evolution config: {name} must be a list of file paths, got {value!r:.60}")
            object.__setattr__(self, name, tuple(value))
        self._check_types_and_limits()
        self._check_genome()
        self._check_game()
        if not self.tactical:  # the lookahead family builds on the tactical one: no tactics, no lookahead
            object.__setattr__(self, "lookahead", False)
        if not self.opponents and self.genome == EVALUATOR:
            object.__setattr__(self, "opponents", evaluator_opponents(self.depth))
        if not self.opponents:
            default = DEFAULT_OPPONENTS if self.tactical else BASIC_DEFAULT_OPPONENTS
            game_default = training_defaults(self.game).evolution.get("opponents", default)
            object.__setattr__(self, "opponents", game_default)
        checks = [
            (self.generations >= 0, "generations must be >= 0"),
            (self.seed >= 0, "seed must be >= 0"),
            (self.openings >= 0, "openings must be >= 0"),
            (self.population >= 2, "population must be at least 2"),
            (self.islands >= 1, "islands must be at least 1"),
            (
                self.population * self.islands <= UPPER_LIMITS["population"],
                f"population x islands must be at most {UPPER_LIMITS['population']:,}",
            ),
            (0 <= self.elite < self.population, "elite must be between 0 and population - 1"),
            (1 <= self.min_rules <= self.max_rules <= self.rule_cap, "need 1 <= min_rules <= max_rules <= rule_cap"),
            (
                1 <= self.init_min_height <= self.init_max_height <= self.height_limit,
                "need 1 <= init heights <= height_limit",
            ),
            (self.tournament_size >= 1, "tournament_size must be >= 1"),
            (self.hall_of_fame >= 1, "hall_of_fame must be >= 1"),
            (
                self.immigrant_every >= 1
                and (self.genome != RULES or 0 <= self.immigrants <= self.population - self.elite),
                "bad immigrant settings",
            ),
            (self.fallback_weight >= 0 and math.isfinite(self.fallback_weight), "fallback_weight must be >= 0"),
            (self.accuracy_weight >= 0 and math.isfinite(self.accuracy_weight), "accuracy_weight must be >= 0"),
            (self.parsimony >= 0, f"parsimony must be >= 0, got {self.parsimony}"),
            (self.accuracy_positions >= 1, "accuracy_positions must be >= 1"),
            (
                not self.accuracy_bank or self.accuracy_weight > 0,
                f"accuracy_bank {self.accuracy_bank!r:.40} needs the accuracy term (accuracy_weight > 0)",
            ),
            (6 <= self.accuracy_max_empties <= 10, "accuracy_max_empties must be 6..10"),
            (self.screening_games >= 1 and self.screening_tries >= 1, "screening games and tries must be >= 1"),
            (self.final_games >= 0 and self.final_games % 2 == 0, "final_games must be an even number >= 0"),
            (not (self.racing and self.pooled_fitness), "racing and pooled_fitness do not go together"),
            (not (self.racing and self.islands > 1), "racing needs one island"),
            (
                len(self.start_from) <= self.population,
                f"start_from names {len(self.start_from)} players, more than the population ({self.population})",
            ),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(f"bad evolution config: {message}")
        game_plan(check_opponents(self.opponents, self.game), self.games, self.seed, 0)
        if self.schedule:
            parse_schedule(self.schedule, self.game)

    def _check_genome(self) -> None:
        """A known genome kind, a depth of 1 to 4, a cost weight of 0 to 1, and no setting of the other kind."""
        if self.genome not in GENOMES:
            raise ValueError(
                f"bad evolution config: genome must be one of {', '.join(GENOMES)}, got {self.genome!r:.40}"
            )
        if not 1 <= self.depth:
            raise ValueError(f"bad evolution config: depth must be 1 to {UPPER_LIMITS['depth']}, got {self.depth}")
        if not 0 <= self.cost_weight <= 1:
            raise ValueError(f"bad evolution config: cost_weight must be between 0 and 1, got {self.cost_weight}")
        if self.genome == EVALUATOR and not training_defaults(self.game).evaluator_genomes:
            raise ValueError(f"bad evolution config: evaluator genomes are not evolved for {self.game}")
        others = EVALUATOR_ONLY_FIELDS if self.genome == RULES else RULE_ONLY_FIELDS
        defaults = {item.name: item.default for item in fields(self)}
        defaults["start_from"] = ()
        changed = [name for name in others if getattr(self, name) != defaults[name]]
        if changed:
            raise ValueError(
                f"bad evolution config: {changed[0]} is a setting of "
                f"{'evaluator' if self.genome == RULES else 'rule'} genomes, not of {self.genome}"
            )

    def _check_game(self) -> None:
        """The game has rule players and its settings are valid; Quixo's defaults are filled in."""
        try:
            binding = gp_game(self.game)
        except ValueError as error:
            raise ValueError(f"bad evolution config: {error}") from None
        if not binding.settings and (self.board_size or self.game_rules):
            raise ValueError(f"bad evolution config: {self.game} has no board size or rules to set for training")
        if binding.settings:
            if not self.board_size:
                object.__setattr__(self, "board_size", binding.settings["size"])
            if not self.game_rules:
                object.__setattr__(self, "game_rules", binding.settings["rules"])
        named = {"size", "rules"} & {name for name, _ in self.settings}
        if named:
            field = "board_size" if "size" in named else "game_rules"
            raise ValueError(f"bad evolution config: the {sorted(named)[0]} of the game is set by {field}")
        if binding.settings or self.settings:
            try:
                get_game(self.game).check_settings(self.game_settings())
            except ValueError as error:
                raise ValueError(f"bad evolution config: {error}") from None
        if self.accuracy_weight:
            try:
                self.training_bank()
            except ValueError as error:  # a bank the game cannot make for these settings
                raise ValueError(
                    f"bad evolution config: the accuracy term grades decisions on the game's bank: {error} "
                    "(accuracy_weight 0 turns it off)"
                ) from None

    def game_settings(self) -> dict[str, object]:
        """The settings of the games the run plays (``{}`` for Quarto: classic rules; Quixo: size and rules;
        another game: those the run sets, the game's defaults for the rest)."""
        named = {"size": self.board_size, "rules": self.game_rules} if gp_game(self.game).settings else {}
        return {**named, **dict(self.settings)}

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
                ok = (isinstance(value, float) and math.isfinite(value)) or (
                    isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53
                )
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
        end = self.draw_value_end
        if end is not None and (
            isinstance(end, bool) or not isinstance(end, int | float) or not math.isfinite(end) or not 0 <= end <= 1
        ):
            raise ValueError(f"bad evolution config: draw_value_end must be between 0 and 1 or null, got {end!r:.60}")

    def as_dict(self) -> dict:
        """Plain JSON-able dict; the fields of :data:`WRITTEN_WHEN_SET` only when they differ from their defaults."""
        data = asdict(self)
        data["plugins"] = list(self.plugins)
        data["start_from"] = list(self.start_from)
        data["settings"] = dict(self.settings)
        defaults = {item.name: item.default for item in fields(self)}
        defaults["settings"] = {}
        for name in WRITTEN_WHEN_SET:
            if data[name] == defaults[name]:
                del data[name]
        return data

    @classmethod
    def from_dict(cls, data: object) -> EvolutionConfig:
        """Rebuild from :meth:`as_dict` output, checked field by field; unknown keys are an error."""
        if not isinstance(data, dict):
            raise ValueError(f"an evolution config is a mapping of settings, got {type(data).__name__}")
        known = {item.name for item in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown config keys: {', '.join(unknown)}")
        # Runs saved before the lookahead family, the accuracy term, the per-generation hall of fame or pooled
        # fitness existed trained without them: keep them as they were.
        return cls(
            **{
                "lookahead": False,
                "accuracy_weight": 0.0,
                "hall_of_fame_per_generation": False,
                "pooled_fitness": False,
                **data,
            }
        )

    def draw_value_at(self, generation: int) -> float:
        """What a draw is worth in ``generation``'s scores: ``draw_value`` without a schedule; with
        ``draw_value_end``, ``draw_value`` at generation 0 rising (or falling) in a straight line to
        ``draw_value_end`` at the last generation (``generations - 1``), and ``draw_value_end`` from there on
        (the final choice, after the last generation) and for a run of one generation. It depends only on the
        generation and the config, so a run and its resume agree."""
        end = self.draw_value_end
        if end is None:
            return self.draw_value
        last = self.generations - 1
        if generation >= last:
            return float(end)
        return self.draw_value + (end - self.draw_value) * max(generation, 0) / last

    @property
    def final_draw_value(self) -> float:
        """What a draw is worth in the final choice of the champion: ``draw_value_end`` with a schedule (the value
        the schedule rises to, the one its last generations were judged by), else ``draw_value``."""
        return self.draw_value if self.draw_value_end is None else float(self.draw_value_end)

    def training_bank(self) -> BankParameters:
        """The parameters of the training bank graded by the accuracy term: the run's seed, purpose
        ``training`` (other games than ``grade``'s bank, whose default stays unseen). Quixo's is made on the
        run's board and rules, with the grade bank's numbers of blank cubes (``accuracy_max_empties`` counts
        Quarto's empty squares): solved exactly on 3x3 and 4x4, tactical on 5x5 (moves proven to win or lose within
        a few plies: see :mod:`gpquarto.games.quixo.grading.bank`)."""
        return BankParameters(
            seed=self.seed,
            positions=self.accuracy_positions,
            max_empties=self.accuracy_max_empties if training_defaults(self.game).accuracy_max_empties else None,
            purpose="training",
            game=self.game,
            game_settings=self.game_settings(),
            kind=self.accuracy_bank,
        )

    def library(self) -> LibraryConfig:
        """Which primitive library the run uses."""
        return LibraryConfig(self.plugins, self.tactical, self.lookahead, self.game, self.evaluator_blocks)

    def differences(self, other: EvolutionConfig) -> list[str]:
        """Names of fields that differ, other than those a resume may change."""
        return [
            item.name
            for item in fields(self)
            if item.name not in RESUMABLE_CHANGES and getattr(self, item.name) != getattr(other, item.name)
        ]
