"""The champion simplified for reading: ``best_player.simplified.json`` beside ``best_player.json``.

Training ends by simplifying its champion (:func:`gpquarto.gp.simplify.simplify_genome`): rules that can never
decide go, trees are folded, and rules that never decided in the first ``USAGE_GAMES`` final games (the
``"final"`` games of the run's last opponent mix, seats alternating; ``hof`` is played as ``random``; fewer when
the run plays fewer final games) go too, as long as the simplified player decides exactly like the original at
every position of twice as many other seeded games (against the same mix, ``random`` and ``novice``: the
original's own decisions). The original stays the run's player; the simplified one is a player file of its own
that carries what was removed (``"simplification"``), and ``show`` prints it. Every game with a GP binding is
treated alike: its games are played under the run's settings and from the run's random openings, as its final
games were. Evaluator runs do the same with their formula (:func:`simplify_evaluator`: algebraic folding, checked
on seeded leaf positions).
"""

from __future__ import annotations

from collections.abc import Mapping

from gpquarto.arena.game import play_game
from gpquarto.games.interface import GameState
from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.evaluator_files import evolved_evaluators
from gpquarto.gp.genome import Genome
from gpquarto.gp.player import make_evolved_player
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.gp.simplify import Simplification, simplify_evaluator_tree, simplify_genome
from gpquarto.players.base import Player
from gpquarto.players.registry import available_players
from gpquarto.resolve import make_unattended_player
from gpquarto.training.fitness import HALL_OF_FAME, fitness_start, game_plan, parse_opponents

#: Final games (at most) whose decisions show which rules are used; twice as many other games check the result.
USAGE_GAMES = 200
#: Opponents the check games add to the run's mix, those of them that play the game (Quixo has no ``novice``).
CHECK_OPPONENTS = ("random", "novice")


def decision_positions(
    genome: Genome,
    library: PrimitiveLibrary,
    opponents: str,
    games: int,
    seed: int,
    label: str,
    *,
    settings: Mapping[str, object] | None = None,
    openings: int = 0,
) -> list[GameState]:
    """Every position where ``genome`` decided in ``games`` seeded games of its game (under ``settings``, from
    ``openings`` random plies) against the mix ``opponents`` (both seats, :func:`~gpquarto.training.fitness.game_plan`
    under ``label``; ``hof`` played as ``random``)."""
    game_name, settings = genome.game, dict(settings or {})
    player = make_evolved_player(genome, library, seed=0)
    opponents_by_spec: dict[str, Player] = {}
    positions: list[GameState] = []
    for game in game_plan(parse_opponents(opponents), games, seed, label, openings):
        spec = "random" if game.opponent == HALL_OF_FAME else game.opponent
        opponent = opponents_by_spec.get(spec) or opponents_by_spec.setdefault(
            spec, make_unattended_player(spec, game=game_name)
        )
        players = (player, opponent) if game.seat == 0 else (opponent, player)
        start = fitness_start(game, game_name, settings)
        record = play_game(players, seed=game.seed, game=game_name, settings=settings or None, start=start)
        for state, action in record.states():
            if action is not None and state.player == game.seat:
                positions.append(state.copy())
    return positions


def simplify_champion(
    genome: Genome,
    library: PrimitiveLibrary,
    opponents: str,
    seed: int,
    final_games: int,
    *,
    settings: Mapping[str, object] | None = None,
    openings: int = 0,
) -> tuple[Genome, Simplification]:
    """The champion simplified, checked on the positions of other games (see the module docstring); a run that
    played ``final_games`` final games (or, without them, ``final_games`` fitness games) uses as many, up to
    ``USAGE_GAMES``; ``settings`` and ``openings`` are the run's."""
    games = max(2, min(USAGE_GAMES, final_games) // 2 * 2)
    usage = decision_positions(genome, library, opponents, games, seed, "final", settings=settings, openings=openings)
    known = {info.name for info in available_players(genome.game)}
    extra = "".join(f",{spec}" for spec in CHECK_OPPONENTS if spec in known)
    check = decision_positions(
        genome,
        library,
        opponents + extra,
        2 * games,
        seed,
        "simplification check",
        settings=settings,
        openings=openings,
    )
    return simplify_genome(genome, library, usage, check)


#: Leaf positions at which a simplified evaluator must score exactly like the original.
EVALUATOR_CHECK_POSITIONS = 2000


def simplify_evaluator(genome: EvaluatorGenome, library: PrimitiveLibrary, seed: int) -> tuple[EvaluatorGenome, dict]:
    """The evaluator folded (:func:`~gpquarto.gp.simplify.simplify_evaluator_tree`) if it scores like the original at
    ``EVALUATOR_CHECK_POSITIONS`` seeded leaf positions of its game, and what changed (nodes before and after)."""
    leaves = evolved_evaluators(library.game).check_features(EVALUATOR_CHECK_POSITIONS, seed)
    tree = simplify_evaluator_tree(genome.tree, library, leaves)
    report = {"nodes_before": len(genome.tree), "nodes_after": len(tree), "checked_positions": len(leaves)}
    return EvaluatorGenome(tree), report
