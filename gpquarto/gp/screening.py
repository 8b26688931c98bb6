"""Rule screening: a new rule must fire sometimes but not always, and its *then* must usually be legal.

A rule is measured alone (first and only rule of its kind, everything else random fallback) over a few
games against the random player: its *true rate* (share of its kind's decisions where the *if* held) must lie
in ``(0, max_true_rate]`` (default 66%: a rule true all the time would overshadow the rules after it) and its
*legal rate* (share of those where the *then* gave a legal action) must reach ``min_legal_rate``. A failing
rule is mutated again, at most ``tries`` times. A measurement depends only on the rule's text and the run
seed, so it is memoised and repeats in any process, and a resumed run screens exactly as the first. Rules that went
through screening are marked and not screened again when copied into offspring.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gpquarto.gp.generation import TreeGenerator
from gpquarto.gp.genome import CHOOSE, KINDS, PLACE, Genome, Rule
from gpquarto.gp.player import EvolvedPlayer
from gpquarto.gp.variation import mutate_rule
from gpquarto.players.registry import make_named_player
from gpquarto.seeding import derive_seed


@dataclass(frozen=True)
class ScreeningConfig:
    """Screening games per rule, the accepted true-rate band, the minimum legal rate and the retry bound."""

    games: int = 3
    max_true_rate: float = 0.66
    min_legal_rate: float = 0.5
    tries: int = 5


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
    """Measures rules and re-mutates the ones outside the band."""

    _CACHE_LIMIT = 200_000

    def __init__(self, library, config: ScreeningConfig, seed: int) -> None:
        self.library = library
        self.config = config
        self.seed = seed
        self._cache: dict[tuple, RuleMeasure] = {}
        self._opponent = make_named_player("random")

    def measure(self, kind: str, rule: Rule) -> RuleMeasure:
        """Play the screening games with ``rule`` as the only rule of ``kind``."""
        key = (kind, *rule.texts())
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        genome = Genome([rule] if kind == CHOOSE else [], [rule] if kind == PLACE else [])
        player = EvolvedPlayer(genome, self.library, seed=0)  # play_game reseeds it for every game
        from gpquarto.arena.game import play_game

        for game in range(self.config.games):
            players = (player, self._opponent) if game % 2 == 0 else (self._opponent, player)
            play_game(players, seed=derive_seed(self.seed, "screening", game))
        compiled = (player.rules.choose_rules if kind == CHOOSE else player.rules.place_rules)[0]
        result = RuleMeasure(player.rules.decisions[kind], compiled.true, compiled.legal)
        if len(self._cache) >= self._CACHE_LIMIT:
            self._cache.clear()
        self._cache[key] = result
        return result

    def accepts(self, kind: str, rule: Rule) -> bool:
        """True when the rule's true rate and legal rate are inside the band."""
        measure = self.measure(kind, rule)
        return 0 < measure.true_rate <= self.config.max_true_rate and measure.legal_rate >= self.config.min_legal_rate

    def screen_rule(self, rng: random.Random, kind: str, rule: Rule, generator: TreeGenerator) -> Rule:
        """``rule`` if accepted, else mutated until accepted or out of tries (the last try is kept).

        A rule already screened (``rule.screened``) is returned as it is: only new or changed rules are screened.
        """
        if rule.screened:
            return rule
        for _ in range(self.config.tries):
            if self.accepts(kind, rule):
                break
            rule = mutate_rule(rng, rule, generator)
        rule.screened = True
        return rule

    def screen_genome(self, rng: random.Random, genome: Genome, generator: TreeGenerator) -> Genome:
        """A genome whose rules have all been through :meth:`screen_rule`."""
        lists = {kind: [self.screen_rule(rng, kind, rule, generator) for rule in genome.rules(kind)] for kind in KINDS}
        return Genome(lists[CHOOSE], lists[PLACE])
