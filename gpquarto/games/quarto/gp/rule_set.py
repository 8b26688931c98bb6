"""Quarto's rule set: a Quarto genome compiled for play, written out for Quarto's two decisions (the evolution's
hot path; other games decide through :class:`~gpquarto.gp.genome.GameRuleSet`)."""

from __future__ import annotations

import random
from collections.abc import Callable

from gpquarto.games.interface import DecisionKind
from gpquarto.games.quarto.board import PLACE_OFFSET, Board, BoardView
from gpquarto.games.quarto.gp.features import Features, PositionFacts
from gpquarto.gp.binding import pick as _pick
from gpquarto.gp.genome import CompiledRules, Genome
from gpquarto.gp.primitives import PrimitiveLibrary


class RuleSet(CompiledRules):
    """A Quarto genome ready to decide: compiled once, with decision, fallback and per-rule counters.

    Written out for Quarto's two decisions (:meth:`choose_piece`, :meth:`place_piece`): it is the evolution's
    hot path, so a decision does no lookup through the game's binding. ``last_rule`` explains the last
    decision (a choice or a placement, whichever method was called last) at the cost of one attribute store.
    """

    def __init__(self, genome: Genome, library: PrimitiveLibrary) -> None:
        super().__init__(genome, library)
        self.choose_rules = self.compiled[DecisionKind.CHOOSE]
        self.place_rules = self.compiled[DecisionKind.PLACE]
        self._features: Callable[[BoardView | Board], Features] = Features

    def share_facts(self, facts: PositionFacts | None) -> None:
        """Read each decision's features from ``facts`` (shared with the other rule sets that read them there:
        the same decisions, each position's facts computed once, and each rule tree's value there, by its text,
        once for all the genomes that have that tree), or build them afresh (None, the default). ``facts`` must
        serve rule sets of this one's library only (a tree's text means its value in one library)."""
        self._features = Features if facts is None else facts.features
        for rule in self.choose_rules + self.place_rules:
            rule.remember_values(facts is not None)

    def choose_piece(self, view, rng: random.Random) -> int:
        """The piece to give: the first rule that fires with a legal piece, else a random legal piece."""
        self.decisions[DecisionKind.CHOOSE] += 1
        features = self._features(view)
        available = view.available_mask
        for rule in self.choose_rules:
            if rule.condition(features):
                rule.true += 1
                piece = rule.action(features)
                if 0 <= piece < 16 and available >> piece & 1:
                    rule.legal += 1
                    self.last_rule = rule.index
                    return int(piece)
        self.fallbacks[DecisionKind.CHOOSE] += 1
        self.last_rule = None
        return _pick(view.legal_pieces(), rng)

    def place_piece(self, view, rng: random.Random) -> int:
        """The square for the piece in hand: the first rule that fires with an empty square, else a random one."""
        self.decisions[DecisionKind.PLACE] += 1
        features = self._features(view)
        occupied = view.occupied_mask
        for rule in self.place_rules:
            if rule.condition(features):
                rule.true += 1
                square = rule.action(features)
                if 0 <= square < 16 and not occupied >> square & 1:
                    rule.legal += 1
                    self.last_rule = rule.index
                    return int(square)
        self.fallbacks[DecisionKind.PLACE] += 1
        self.last_rule = None
        return _pick(view.legal_squares(), rng)

    def decide(self, view, rng: random.Random) -> int:
        """The game's action for the decision due, as every rule set gives it: a piece, or ``16 + square``."""
        return self.choose_piece(view, rng) if view.choice_due else PLACE_OFFSET + self.place_piece(view, rng)

    @staticmethod
    def new_facts() -> PositionFacts:
        """An empty store of position facts that rule sets of one library share (:meth:`share_facts`)."""
        return PositionFacts()
