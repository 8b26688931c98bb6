"""Experiments: several training configurations times N seeds, each run in its own folder, then statistics.

An experiment folder holds ``experiment.json`` (the variants and seeds: everything needed to repeat it),
one run folder per variant and seed (``NAME/seed-K/``, a normal training run folder), and each run's
``strength.json`` (its best player's score against each evaluation opponent). Running the same experiment
again continues it: finished runs are skipped, interrupted ones resumed, missing ones started. Runs go
one after the other and each run's games go to the runner, so every worker stays busy; results do not
depend on the runner.

Example::

    >>> plan = ExperimentPlan(
    ...     variants=(Variant("basic", {"tactical": False}), Variant("tactical", {})),
    ...     seeds=(0, 1, 2), base={"generations": 10})                          # doctest: +SKIP
    >>> run_experiment(plan, "runs/exp")                                        # doctest: +SKIP
    >>> print(format_summary(summarize("runs/exp")))                            # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import cast

from gpquarto.arena.stats import holm, mann_whitney, require_scipy
from gpquarto.atomic import write_text_atomic
from gpquarto.games.registry import DEFAULT_GAME
from gpquarto.grading.bank import BankParameters
from gpquarto.grading.cache import load_or_build_bank
from gpquarto.grading.grade import grade_player
from gpquarto.jobs.matches import MAX_GAMES, run_match
from gpquarto.plain_files import read_plain_file
from gpquarto.runner import Runner, SerialRunner
from gpquarto.seeding import derive_seed
from gpquarto.training import EvolutionConfig, RunFolder, open_run, resume, train

EXPERIMENT_FORMAT = "gpquarto-experiment/1"
PLAN_FILE = "experiment.json"
STRENGTH_FILE = "strength.json"
#: Opponents the final players are measured against, by default.
EVALUATION_OPPONENTS = ("random", "minimax:depth=2")
#: The metric name of the accuracy against perfect play (``grade``), beside the opponents' names.
GRADE_METRIC = "grade accuracy"
#: The most seeds per configuration (each is a whole training run).
MAX_SEEDS = 10_000
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_CONFIG_FIELDS = {item.name: item for item in fields(EvolutionConfig)}


@dataclass(frozen=True)
class Variant:
    """One configuration: a name (a folder name) and the config fields it sets."""

    name: str
    settings: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"variant name {self.name!r}: use letters, digits, '.', '_' and '-' (at most 64)")
        unknown = sorted(set(self.settings) - set(_CONFIG_FIELDS) - {"seed"})
        if unknown or "seed" in self.settings:
            what = ", ".join(unknown) if unknown else "seed (the experiment sets the seeds)"
            raise ValueError(f"variant {self.name!r}: not a setting of a variant: {what}")


@dataclass(frozen=True)
class ExperimentPlan:
    """Variants times seeds, over common ``base`` settings, evaluated against ``opponents``.

    ``configs`` pins each variant's whole config (every field but the seed, defaults included) when the
    experiment is first written, so runs started after an upgrade that changed a default still train like
    the runs before it. Two plans that differ only in it are the same experiment.
    """

    variants: tuple[Variant, ...]
    seeds: tuple[int, ...]
    base: dict = field(default_factory=dict)
    opponents: tuple[str, ...] = EVALUATION_OPPONENTS
    evaluation_games: int = 200
    #: Size of the ``grade`` bank each best player is also graded on (0: no grading).
    grade_positions: int = 0
    configs: dict = field(default_factory=dict, compare=False)

    @property
    def metrics(self) -> tuple[str, ...]:
        """What is measured of each best player: one score rate per opponent, and the grade accuracy."""
        return self.opponents + ((GRADE_METRIC,) if self.grade_positions else ())

    def __post_init__(self) -> None:
        names = [variant.name for variant in self.variants]
        if not names:
            raise ValueError("an experiment needs at least one variant")
        if len(set(names)) != len(names):
            raise ValueError(f"variant names must differ, got {', '.join(names)}")
        if not self.seeds or len(set(self.seeds)) != len(self.seeds):
            raise ValueError("an experiment needs one or more distinct seeds")
        if len(self.seeds) > MAX_SEEDS:
            raise ValueError(
                f"an experiment has at most {MAX_SEEDS:,} seeds per configuration, got {len(self.seeds):,}"
            )
        if self.grade_positions < 0:
            raise ValueError(f"grade positions must be >= 0, got {self.grade_positions}")
        if not 2 <= self.evaluation_games <= MAX_GAMES or self.evaluation_games % 2:
            raise ValueError(
                f"evaluation games must be an even number from 2 to {MAX_GAMES:,}, got {self.evaluation_games:,}"
            )
        Variant("base", dict(self.base))  # the same checks for the common settings
        if self.configs and set(self.configs) != set(names):
            raise ValueError("the pinned configs do not name the same variants as the plan")
        games = {self.config(variant, self.seeds[0]).game for variant in self.variants}  # every config is valid
        if len(games) > 1:
            raise ValueError(f"an experiment compares configurations of one game, not {' and '.join(sorted(games))}")
        if self.grade_positions:
            try:
                self.grade_bank()
            except ValueError as error:
                raise ValueError(f"no grade positions for {self.game}: {error}") from None

    def grade_bank(self) -> BankParameters:
        """The parameters of the bank each best player is graded on: the grade bank of the game under the
        first configuration's settings (``ValueError`` where the game's positions cannot be solved)."""
        config = self.config(self.variants[0], self.seeds[0])
        return BankParameters(positions=self.grade_positions, game=config.game, game_settings=config.game_settings())

    @property
    def game(self) -> str:
        """The game every configuration plays."""
        return self.config(self.variants[0], self.seeds[0]).game

    def config(self, variant: Variant, seed: int) -> EvolutionConfig:
        """The evolution config of ``variant`` with ``seed`` (the pinned one, once :meth:`pinned`)."""
        if self.configs:
            return EvolutionConfig.from_dict({**self.configs[variant.name], "seed": seed})
        settings = {**self.base, **variant.settings, "seed": seed}
        return EvolutionConfig.for_game(settings.pop("game", DEFAULT_GAME), **settings)

    @property
    def plugins(self) -> tuple[str, ...]:
        """Every plugin file a configuration of the plan names, once each, in order."""
        found = (path for variant in self.variants for path in self.config(variant, self.seeds[0]).plugins)
        return tuple(dict.fromkeys(found))

    def pinned(self) -> ExperimentPlan:
        """This plan with every variant's config resolved against today's defaults and recorded."""
        configs = {}
        for variant in self.variants:
            data = self.config(variant, self.seeds[0]).as_dict()
            del data["seed"]
            configs[variant.name] = data
        return replace(self, configs=configs)

    def as_dict(self) -> dict:
        """Plain JSON-able data (``experiment.json``)."""
        return {"format": EXPERIMENT_FORMAT, **asdict(self)}

    @classmethod
    def from_dict(cls, data: object) -> ExperimentPlan:
        """Inverse of :meth:`as_dict`; a one-line ``ValueError`` for anything else."""
        if not isinstance(data, dict) or data.get("format") != EXPERIMENT_FORMAT:
            raise ValueError("not a gpquarto experiment plan")
        try:
            return cls(
                variants=tuple(Variant(item["name"], dict(item["settings"])) for item in data["variants"]),
                seeds=tuple(int(seed) for seed in data["seeds"]),
                base=dict(data["base"]),
                opponents=tuple(data["opponents"]),
                evaluation_games=int(data["evaluation_games"]),
                grade_positions=int(data.get("grade_positions", 0)),
                configs={str(name): dict(config) for name, config in data.get("configs", {}).items()},
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"malformed experiment plan ({type(error).__name__}: {error})") from None


def parse_setting(text: str) -> tuple[str, object]:
    """``"key=value"`` as a config field and its value, converted by the field's type
    (``tactical=false``, ``generations=30``, ``opponents=random:1,minimax:depth=1:1``)."""
    key, equals, value = text.partition("=")
    key = key.strip().replace("-", "_")
    if not equals or key not in _CONFIG_FIELDS:
        known = ", ".join(sorted(_CONFIG_FIELDS))
        raise ValueError(f"bad setting {text!r}: expected KEY=VALUE with KEY one of {known}")
    default = _CONFIG_FIELDS[key].default
    value = value.strip()
    try:
        if isinstance(default, bool):
            if value.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise ValueError
            return key, value.lower() in ("true", "yes", "1")
        if isinstance(default, tuple):
            return key, tuple(item for item in value.split(os.pathsep) if item)
        kind: type = type(default)  # int, float or str
        return key, kind(value)
    except ValueError:
        raise ValueError(f"bad setting {text!r}: {key} must be {type(default).__name__}") from None


def variant_from_file(path: str | os.PathLike[str]) -> Variant:
    """A variant named after a JSON file of config fields (``{"generations": 30, "tactical": false}``)."""
    path = Path(path)
    settings = read_plain_file(path, "JSON config", json_format=True)
    if not isinstance(settings, dict):
        raise ValueError(f"{path}: a config file holds one JSON object of settings")
    settings.pop("seed", None)
    return Variant(path.stem, settings)


def run_folder(out: Path, variant: str, seed: int) -> Path:
    """Where the run of ``variant`` with ``seed`` lives."""
    return out / variant / f"seed-{seed}"


def run_experiment(
    plan: ExperimentPlan,
    out: str | os.PathLike[str],
    *,
    runner: Runner | None = None,
    on_run: Callable[[str, int, str], None] | None = None,
    plugins: Sequence[str] = (),
) -> None:
    """Run (or continue) every run of ``plan`` in ``out`` and measure each best player.

    Runs go seed by seed, every variant in turn, so an experiment stopped part-way has about as many finished
    runs of each variant. ``on_run(variant, seed, what)`` is told when a run is started, resumed, skipped or
    measured. A plan of several variants needs SciPy to compare them, and says so before any run. A plan (or the one saved in ``out``) whose configurations name plugin files runs only when the
    caller names each of them in ``plugins`` (``--plugin``): a plan file runs no code by itself.
    """
    out = Path(out)
    if len(plan.variants) > 1:
        require_scipy()  # the comparison comes last: a missing SciPy is said before the runs, not after them
    _check_plugins_named(plan, out, plugins)  # before the plan is written
    plan = _check_or_write_plan(plan, out)
    _check_plugins_named(plan, out, plugins)  # the saved plan's pinned configs too
    runner = runner or SerialRunner()
    for seed in plan.seeds:
        for variant in plan.variants:
            folder = run_folder(out, variant.name, seed)
            run = _trained(plan, variant, seed, folder, runner, on_run, tuple(plugins))
            if not (folder / STRENGTH_FILE).is_file():
                if on_run is not None:
                    on_run(variant.name, seed, "measured")
                write_text_atomic(folder / STRENGTH_FILE, json.dumps(measure(plan, run, runner), indent=1) + "\n")


def _check_plugins_named(plan: ExperimentPlan, out: Path, plugins: Sequence[str]) -> None:
    """A one-line ``ValueError`` for a plugin file of ``plan`` that is not among ``plugins``."""
    named = {os.path.realpath(path) for path in plugins}
    for path in plan.plugins:
        if os.path.realpath(path) not in named:
            raise ValueError(
                f"the experiment in {out} uses the plugin {path}: a plan runs no code by itself; name the file "
                f"with --plugin {path} to run it"
            )


def _check_or_write_plan(plan: ExperimentPlan, out: Path) -> ExperimentPlan:
    """The plan to run: the one saved in ``out`` (with its pinned configs) if it is the same experiment,
    else ``plan`` pinned and written to a new, empty folder."""
    path = out / PLAN_FILE
    if path.exists():
        try:
            saved = ExperimentPlan.from_dict(read_plain_file(path, "experiment plan", json_format=True))
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None
        if saved != plan:
            raise ValueError(f"{out} holds another experiment: use another output folder, or the same options")
        return saved
    if out.exists() and any(out.iterdir()):
        raise ValueError(f"{out} is not empty and holds no experiment: use another output folder")
    plan = plan.pinned()
    write_text_atomic(path, json.dumps(plan.as_dict(), indent=1) + "\n")
    return plan


def _trained(plan, variant, seed, folder: Path, runner, on_run, plugins: tuple[str, ...]) -> RunFolder:
    config = plan.config(variant, seed)
    if (folder / "checkpoint.dill").is_file():
        run = open_run(folder, plugins=plugins)
        if run.finished:
            what = "skipped"
        else:
            what = "resumed"
            run = resume(folder, plugins=plugins, runner=runner)
    else:
        what = "started"
        run = train(config, folder, best_player_copy=None, runner=runner)
    if on_run is not None:
        on_run(variant.name, seed, what)
    return run


def measure(plan: ExperimentPlan, run: RunFolder, runner: Runner) -> dict:
    """The best player's score rate against each evaluation opponent (seeded from the run's seed)."""
    scores = {}
    for index, opponent in enumerate(plan.opponents):
        result = run_match(
            run.best_player_spec,
            opponent,
            plan.evaluation_games,
            seed=derive_seed(run.config.seed, "evaluation", index),
            game=run.config.game,
            settings=run.config.game_settings() or None,
            plugins=run.checked_plugins(),
            runner=runner,
        )
        scores[opponent] = result.score_rate
    if plan.grade_positions:
        bank = load_or_build_bank(plan.grade_bank(), runner=runner)
        scores[GRADE_METRIC] = grade_player(run.best_player_spec, bank).accuracy
    return {"games": plan.evaluation_games, "score": scores}


@dataclass
class VariantSummary:
    """One variant's runs: final strength per opponent (one value per seed) and best-fitness curves."""

    name: str
    strength: dict[str, list[float]]
    curves: list[list[float]]


@dataclass
class Comparison:
    """Two variants compared on one opponent: Mann-Whitney U p-value, Holm-adjusted over the opponent's pairs."""

    opponent: str
    first: str
    second: str
    p_value: float
    adjusted: float


@dataclass
class ExperimentSummary:
    """What an experiment found."""

    plan: ExperimentPlan
    variants: list[VariantSummary]
    comparisons: list[Comparison]


def summarize(out: str | os.PathLike[str]) -> ExperimentSummary:
    """Read a finished experiment and compare its variants (runs not measured yet are an error)."""
    out = Path(out)
    try:
        plan = ExperimentPlan.from_dict(read_plain_file(out / PLAN_FILE, "experiment plan", json_format=True))
    except ValueError as error:
        raise ValueError(f"{out / PLAN_FILE}: {error}") from None
    variants = []
    for variant in plan.variants:
        strength: dict[str, list[float]] = {metric: [] for metric in plan.metrics}
        curves = []
        for seed in plan.seeds:
            folder = run_folder(out, variant.name, seed)
            try:
                # not an object: the TypeError below
                measured = cast(dict, read_plain_file(folder / STRENGTH_FILE, "strength file", json_format=True))[
                    "score"
                ]
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(
                    f"{folder}: not measured yet ({type(error).__name__}); run the experiment again"
                ) from None
            for metric in plan.metrics:
                strength[metric].append(float(measured[metric]))
            curves.append([float(value) for value in open_run(folder).logbook().select("best")])
        variants.append(VariantSummary(variant.name, strength, curves))
    comparisons = []
    for opponent in plan.metrics:
        pairs = [(a, b) for i, a in enumerate(variants) for b in variants[i + 1 :]]
        p_values = [mann_whitney(a.strength[opponent], b.strength[opponent]) for a, b in pairs]
        for (a, b), p_value, adjusted in zip(pairs, p_values, holm(p_values), strict=True):
            comparisons.append(Comparison(opponent, a.name, b.name, p_value, adjusted))
    return ExperimentSummary(plan, variants, comparisons)
