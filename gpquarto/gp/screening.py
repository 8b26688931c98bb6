"""Rule screening: a new rule must fire at least sometimes, and its *then* must usually be legal.

A rule is measured alone (first and only rule of its kind, everything else random fallback) over a few
games of the library's game (under the screening config's game ``settings``) against the random player: its *true rate* (share of its kind's decisions where the *if* held) must lie
in ``(0, max_true_rate]`` (default 1, every decision: a rule true all the time is an *otherwise* rule, as in the strongest
hand-written rule lists, and when its *then* has no legal action the rules after it still decide) and its
*legal rate* (share of those where the *then* gave a legal action) must reach ``min_legal_rate``. A failing
rule is mutated again, at most ``tries`` times. A measurement depends only on the rule's text, its kind and
the run seed, so it is memoised and repeats in any process, and a resumed run screens exactly as the first.
Rules that went through screening are marked and not screened again when copied into offspring.

:meth:`RuleScreen.screen_genomes` screens a whole generation on a runner: it draws one seed per unscreened
rule from the evolution's generator, in a fixed order, and each rule is screened (measured, re-mutated with a
generator of its own seed, measured again...) by :func:`screen_task` wherever the runner puts it. So the
population bred does not depend on the runner or on the number of workers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gpquarto.arena.game import play_game
from gpquarto.gp.bindings import gp_game
from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import Genome, Rule
from gpquarto.gp.library import LibraryConfig, get_library
from gpquarto.gp.player import make_evolved_player
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.gp.variation import mutate_rule
from gpquarto.players.registry import make_named_player
from gpquarto.runner import SERIAL, Runner
from gpquarto.seeding import derive_seed

#: The largest seed drawn for a rule's own generator.
_SEED_RANGE = 2**63


@dataclass(frozen=True)
class ScreeningConfig:
    """Screening games per rule, the accepted true-rate band, the minimum legal rate, the retry bound, and the
    settings of the games played (``(name, value)`` pairs, e.g. Quixo's size; empty: the game's defaults)."""

    games: int = 3
    max_true_rate: float = 1.0
    min_legal_rate: float = 0.5
    tries: int = 5
    settings: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class RuleMeasure:
    """How a rule behaved in its screening games."""

    decisions: int
    true: int
    legal: int

    @property
    def true_rate(self) -> float:
        """Share of decisions where the *if* held."""
        return self.true / self.decisions if self.decisions else 0.0

    @property
    def legal_rate(self) -> float:
        """Share of firings where the *then* gave a legal action."""
        return self.legal / self.true if self.true else 0.0


class RuleScreen:
    """Measures rules and re-mutates the ones outside the band.

    ``library_config`` says how a worker loads ``library`` (:meth:`screen_genomes` sends it with each rule).
    """

    _CACHE_LIMIT = 200_000

    def __init__(
        self,
        library: PrimitiveLibrary,
        config: ScreeningConfig,
        seed: int,
        *,
        library_config: LibraryConfig | None = None,
    ) -> None:
        self.library = library
        self.config = config
        self.seed = seed
        self.library_config = library_config or LibraryConfig()
        self._cache: dict[tuple, RuleMeasure] = {}
        self.game = library.game
        self._settings = dict(config.settings) or None
        self._opponent = make_named_player("random", game=self.game)

    def measure(self, kind: str, rule: Rule) -> RuleMeasure:
        """Play the screening games with ``rule`` as the only rule of ``kind``."""
        key = (kind, *rule.texts())
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        genome = _alone(self.game, kind, rule)
        player = make_evolved_player(genome, self.library, seed=0)  # play_game reseeds it for every game
        for game in range(self.config.games):
            players = (player, self._opponent) if game % 2 == 0 else (self._opponent, player)
            play_game(players, seed=derive_seed(self.seed, "screening", game), game=self.game, settings=self._settings)
        compiled = player.rules.compiled[kind][0]
        result = RuleMeasure(player.rules.decisions[kind], compiled.true, compiled.legal)
        self._remember(key, result)
        return result

    def _remember(self, key: tuple, measure: RuleMeasure) -> None:
        if len(self._cache) >= self._CACHE_LIMIT:
            self._cache.clear()
        self._cache[key] = measure

    def _in_band(self, measure: RuleMeasure) -> bool:
        return 0 < measure.true_rate <= self.config.max_true_rate and measure.legal_rate >= self.config.min_legal_rate

    def accepts(self, kind: str, rule: Rule) -> bool:
        """True when the rule's true rate and legal rate are inside the band."""
        return self._in_band(self.measure(kind, rule))

    def screen_rule(self, rng: random.Random, kind: str, rule: Rule, generator: TreeGenerator) -> Rule:
        """``rule`` if accepted, else mutated until accepted or out of tries (the last try is kept).

        A rule already screened (``rule.screened``) is returned as it is: only new or changed rules are screened.
        """
        if rule.screened:
            return rule
        rule, _ = self._tries(rng, kind, rule, generator)
        rule.screened = True
        return rule

    def _tries(
        self, rng: random.Random, kind: str, rule: Rule, generator: TreeGenerator
    ) -> tuple[Rule, list[tuple[tuple[str, str], RuleMeasure]]]:
        """Measure, and mutate while rejected, at most ``tries`` times: the rule kept and every measure taken."""
        measures = []
        for _ in range(self.config.tries):
            measure = self.measure(kind, rule)
            measures.append((rule.texts(), measure))
            if self._in_band(measure):
                break
            rule = mutate_rule(rng, rule, generator)
        return rule, measures

    def screen_genomes(
        self, rng: random.Random, genomes: list[Genome], generator: TreeGenerator, runner: Runner = SERIAL
    ) -> list[Genome]:
        """``genomes`` with every unscreened rule screened on ``runner`` (one map for the whole batch).

        One seed per unscreened rule is drawn from ``rng``, genome by genome, kind by kind in genome order;
        rule ``i`` is then screened by :meth:`screen_rule` with ``random.Random(seed_i)``. Rules this screen
        has measured and accepted before stay here; the others travel as :class:`ScreeningTask`. The result
        depends only on the rules and ``rng``, not on the runner nor on what the memo holds.
        """
        lists = [{kind: list(rules) for kind, rules in genome.rule_lists.items()} for genome in genomes]
        slots = [
            (number, kind, index, rng.randrange(_SEED_RANGE))
            for number, rules in enumerate(lists)
            for kind in rules
            for index, rule in enumerate(rules[kind])
            if not rule.screened
        ]
        tasks, sent = [], []
        for number, kind, index, seed in slots:
            rule = lists[number][kind][index]
            known = self._cache.get((kind, *rule.texts()))
            if known is not None and self._in_band(known):
                rule.screened = True  # what screen_rule would do with it, wherever it ran
                continue
            tasks.append(
                ScreeningTask(
                    kind, rule.texts(), seed, self.library_config, self.config, self.seed, generator.height_limit
                )
            )
            sent.append((number, kind, index))
        results: list[ScreeningResult] = runner.map(screen_task, tasks)
        pset = self.library.primitive_set()
        for (number, kind, index), task, result in zip(sent, tasks, results, strict=True):
            for texts, measure in result.measures:
                self._remember((kind, *texts), measure)
            rule = lists[number][kind][index]
            if result.texts != task.texts:
                rule = _parse_rule(kind, result.texts, pset, self.game)
            rule.screened = True
            lists[number][kind][index] = rule
        return [Genome.of(self.game, rules) for rules in lists]


@dataclass(frozen=True)
class ScreeningTask:
    """One rule to screen on a worker, as plain data: its kind and texts, the seed of the generator that
    mutates it when it is rejected, and what rebuilds the screen there (library, settings, run seed, height
    limit of the trees)."""

    kind: str
    texts: tuple[str, str]
    seed: int
    library: LibraryConfig
    config: ScreeningConfig
    screening_seed: int
    height_limit: int


@dataclass(frozen=True)
class ScreeningResult:
    """The texts of the rule kept, and every measure taken on the way (for the caller's memo)."""

    texts: tuple[str, str]
    measures: tuple[tuple[tuple[str, str], RuleMeasure], ...]


#: Per process: the screens (each with its memo) and tree generators of the runs whose rules it screens,
#: keyed by the library object (a plugin file changed on disk is a new library) and the run's settings.
_SCREENS: dict[tuple, tuple[RuleScreen, TreeGenerator]] = {}
_SCREENS_LIMIT = 8


def screen_task(task: ScreeningTask) -> ScreeningResult:
    """Screen one rule (a module-level function, so any runner can send it): :meth:`RuleScreen.screen_rule`
    with ``random.Random(task.seed)``, on a screen and a generator rebuilt once per process."""
    library = get_library(task.library)
    key = (library, task.config, task.screening_seed, task.height_limit)
    found = _SCREENS.get(key)
    if found is None:
        if len(_SCREENS) >= _SCREENS_LIMIT:
            _SCREENS.clear()
        screen = RuleScreen(library, task.config, task.screening_seed, library_config=task.library)
        found = _SCREENS[key] = (screen, TreeGenerator(library.primitive_set(), task.height_limit))
    screen, generator = found
    rule = _parse_rule(task.kind, task.texts, library.primitive_set(), library.game)
    kept, measures = screen._tries(random.Random(task.seed), task.kind, rule, generator)
    return ScreeningResult(kept.texts(), tuple(measures))


def _alone(game: str, kind: str, rule: Rule) -> Genome:
    """A genome of ``game`` whose only rule is ``rule``, of ``kind``."""
    return Genome.of(game, {other: [rule] if other == kind else [] for other in gp_game(game).kinds})


def _parse_rule(kind: str, texts: tuple[str, str], pset, game: str) -> Rule:
    data = {other: [list(texts)] if other == kind else [] for other in gp_game(game).kinds}
    return Genome.from_data(data, pset, game).rules(kind)[0]
