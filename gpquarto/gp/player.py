"""The evolved player: a genome of if/then rules playing through the player protocol."""

from __future__ import annotations

import random

from gpquarto.games.quarto.board import BoardView
from gpquarto.gp.genome import Genome, RuleSet
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.players.base import QuartoPlayer


class EvolvedPlayer(QuartoPlayer):
    """Plays a :class:`~gpquarto.gp.genome.Genome`: first rule that fires with a legal action, else a counted random fallback.

    The genome is compiled once, when the player is made. ``decisions``/``fallbacks`` count this player's
    decisions and random fallbacks since it was made (or since :meth:`reset_counters`); ``metadata`` holds
    what a saved player file said about it (fitness, config, versions).
    """

    def __init__(
        self,
        genome: Genome,
        library: PrimitiveLibrary,
        *,
        seed: int | None = None,
        name: str = "evolved",
        metadata: dict | None = None,
    ) -> None:
        self.genome = genome
        self.library = library
        self.name = name
        self.metadata = dict(metadata or {})
        self.rules = RuleSet(genome, library)
        self._rng = random.Random(seed)

    def seed(self, seed: int | None) -> None:
        self._rng.seed(seed)

    def choose_piece(self, board: BoardView) -> int:
        return self.rules.choose_piece(board, self._rng)

    def place_piece(self, board: BoardView, piece: int) -> int:
        return self.rules.place_piece(board, self._rng)

    @property
    def decisions(self) -> int:
        """Decisions taken (both kinds)."""
        return self.rules.total_decisions

    @property
    def fallbacks(self) -> int:
        """Decisions where no rule fired with a legal action and a random one was played."""
        return self.rules.total_fallbacks

    def explain(self, kind: str) -> dict:
        """Why the last decision of ``kind`` (``"choose"`` or ``"place"``) was taken: the 1-based number of the
        rule that fired and its ``if ... then ...`` text, or ``rule: None`` when the random fallback decided."""
        index = self.rules.last_rule
        if index is None:
            return {"kind": kind, "rule": None, "text": "random fallback: no rule fired with a legal action"}
        return {"kind": kind, "rule": index + 1, "text": str(self.genome.rules(kind)[index])}

    def reset_counters(self) -> None:
        """Zero the decision, fallback and per-rule counters."""
        self.rules.reset_counters()
