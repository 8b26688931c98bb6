"""Evolved players: a genome of if/then rules playing through the player protocol.

:class:`RuleListPlayer` is what every evolved player shares; :class:`RulePlayer` plays a genome of any game through
``decide``, and a game may bind a player of its own form instead (Quarto's
:class:`~gpquarto.games.quarto.gp.player.EvolvedPlayer`, which chooses and places for the arena's Quarto loop).
:func:`make_evolved_player` picks the class by the genome's game (its binding's ``player``).
"""

from __future__ import annotations

import random

from gpquarto.games.interface import GameView
from gpquarto.gp.genome import CompiledRules, GameRuleSet, Genome
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.players.base import BasePlayer


class RuleListPlayer(BasePlayer):
    """What every evolved player of rule lists shares: its genome compiled once, a fallback generator, counters, explanations.

    The genome is compiled once, when the player is made. ``decisions``/``fallbacks`` count this player's
    decisions and random fallbacks since it was made (or since :meth:`reset_counters`); ``metadata`` holds what
    a saved player file said about it (fitness, config, versions). Subclasses name the rule set class they
    compile to (``_compiled``) and the games they play (``_games``).
    """

    _compiled: type[CompiledRules]
    _games: tuple[str, ...] | None = None

    def __init__(
        self,
        genome: Genome,
        library: PrimitiveLibrary,
        *,
        seed: int | None = None,
        name: str = "evolved",
        metadata: dict | None = None,
    ) -> None:
        if self._games is not None and genome.game not in self._games:
            raise ValueError(
                f"{type(self).__name__} plays {', '.join(self._games)} genomes, not a {genome.game} genome "
                "(see make_evolved_player)"
            )
        self.genome = genome
        self.library = library
        self.name = name
        self.metadata = dict(metadata or {})
        self._rng = random.Random(seed)
        self.rules = self._compiled(genome, library)

    def seed(self, seed: int | None) -> None:
        self._rng.seed(seed)

    @property
    def decisions(self) -> int:
        """Decisions taken (every kind)."""
        return self.rules.total_decisions

    @property
    def fallbacks(self) -> int:
        """Decisions where no rule fired with a legal action and a random one was played."""
        return self.rules.total_fallbacks

    def explain(self, kind: str | None = None) -> dict:
        """Why the last decision (of ``kind``: ``"choose"``/``"place"`` in Quarto, ``"move"`` in Quixo; default the
        last decision's) was taken: the 1-based number of the rule that fired and its ``if ... then ...`` text, or
        ``rule: None`` when the random fallback decided."""
        kind = kind or self.rules.last_kind or self.genome.kinds[0]
        index = self.rules.last_rule
        if index is None:
            return {"kind": kind, "rule": None, "text": "random fallback: no rule fired with a legal action"}
        return {"kind": kind, "rule": index + 1, "text": str(self.genome.rules(kind)[index])}

    def reset_counters(self) -> None:
        """Zero the decision, fallback and per-rule counters."""
        self.rules.reset_counters()


class RulePlayer(RuleListPlayer, BasePlayer):
    """Plays a genome of any game through ``decide``: first rule of the decision's kind that fires with a legal
    action, else a counted random legal action. ``game`` is the genome's game."""

    _compiled = GameRuleSet
    rules: GameRuleSet

    @property
    def game(self) -> str:  # type: ignore[override]  # read only here, a class attribute of BasePlayer
        """The genome's game."""
        return self.genome.game

    def decide(self, view: GameView) -> int:
        return self.rules.decide(view, self._rng)


def make_evolved_player(
    genome: Genome,
    library: PrimitiveLibrary,
    *,
    seed: int | None = None,
    name: str = "evolved",
    metadata: dict | None = None,
) -> RuleListPlayer:
    """The evolved player of ``genome``'s game (its binding's ``player_class``: :class:`RulePlayer` unless the
    game writes its own); ``library`` must be that game's."""
    if library.game != genome.game:
        raise ValueError(f"a {genome.game} genome cannot play with the {library.game} primitive library")
    return genome.binding.player(genome, library, seed=seed, name=name, metadata=metadata)
