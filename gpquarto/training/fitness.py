"""Fitness: games against a weighted mix of opponents, both seats, the same games for a whole generation.

An :class:`EvaluationTask` is plain data (the genome's rule texts, the games to play, the fallback weight,
which primitive library to load, whose game is the game played, and the game's settings), so it can be sent
to any worker; :func:`evaluate` rebuilds the genome there from the library and plays.
score = (wins + draw_value x draws) / games - fallback_weight x fallback rate (a draw worth half a win by default:
:func:`game_score`), where the fallback rate is the share of the player's decisions that fell back to a random
action.

Seeds: the games of generation ``g`` are seeded from ``(run seed, g, game pair)`` and are the same for every
genome of the generation; ``play_game`` reseeds both players (the evolved player's fallback generator and
the opponent) from the game seed. So a result depends only on the genome and those seeds, never on which
worker plays it or how many workers there are. With ``openings=K`` both games of a pair start from the same
position, ``K`` random plies drawn from the pair's seed (:func:`~gpquarto.arena.openings.random_opening`), so a
deterministic opponent is met in other positions than the two games it plays from the start.

Facts: the genomes of a generation meet many positions in common (the same games, the same opponents, the same
training bank), so a Quarto rule player reads its decisions' facts from the process's :func:`position_facts`, which
computes each position's facts, and the value there of each rule tree the genomes share, once for all of them
(Quarto's :class:`~gpquarto.games.quarto.gp.features.PositionFacts`; the decisions are those of fresh features).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from gpquarto.arena.game import play_game
from gpquarto.arena.openings import random_opening
from gpquarto.games.interface import GameState
from gpquarto.games.registry import DEFAULT_GAME, get_game
from gpquarto.gp.genome import Genome
from gpquarto.gp.library import LibraryConfig, get_library
from gpquarto.gp.player import RuleListPlayer, make_evolved_player
from gpquarto.gp.primitives import PrimitiveLibrary
from gpquarto.grading.bank import BankPosition
from gpquarto.grading.grade import decide
from gpquarto.players.base import Player
from gpquarto.resolve import make_unattended_player
from gpquarto.seeding import derive_seed

#: The opponent name that means "a member of the run's own hall of fame" (past champions).
HALL_OF_FAME = "hof"


@dataclass(frozen=True)
class FitnessGame:
    """One fitness game: the opponent's spec, the evolved player's seat (0 opens) and the game seed;
    ``member`` picks the hall of fame member for ``hof`` games (counted modulo the hall's size); the game
    starts after ``opening`` random plies seeded from ``seed`` (0: from the start position)."""

    opponent: str
    seat: int
    seed: int
    member: int = 0
    opening: int = 0


@dataclass(frozen=True)
class EvaluationTask:
    """Everything needed to evaluate one genome, as plain data; ``hall_of_fame`` holds the genomes (as
    text) that ``hof`` games are played against, best first (empty: ``hof`` games are played against
    ``random``)."""

    genome: dict
    games: tuple[FitnessGame, ...]
    fallback_weight: float
    library: LibraryConfig
    hall_of_fame: tuple[dict, ...] = ()
    accuracy_weight: float = 0.0
    #: Solved decisions ``(position text, best actions)`` graded after the games (the training bank).
    accuracy_positions: tuple[tuple[str, tuple[int, ...]], ...] = ()
    #: The settings of the games (sorted ``(name, value)`` pairs; empty: the game's defaults). The game is the
    #: library's.
    settings: tuple[tuple[str, object], ...] = ()
    #: What a draw is worth (:attr:`~gpquarto.training.config.EvolutionConfig.draw_value`).
    draw_value: float = 0.5
    #: Score taken off per node of the genome (:attr:`~gpquarto.training.config.EvolutionConfig.parsimony`).
    parsimony: float = 0.0


def game_score(wins: int, draws: int, games: int, draw_value: float = 0.5) -> float:
    """The score of ``games`` games: ``(wins + draw_value x draws) / games``, a win worth 1, a loss 0 (0.0 for no
    games). With the default 0.5 it is the points of a match, ``(wins + draws / 2) / games``, to the last bit."""
    return (wins + draw_value * draws) / games if games else 0.0


@dataclass(frozen=True)
class EvaluationResult:
    """What the games gave: score, game results, decisions and fallbacks, genome size, and the share of the
    training bank's decisions that keep the solver's value (None without an accuracy term)."""

    score: float
    wins: int
    draws: int
    losses: int
    fallbacks: int
    decisions: int
    size: int
    accuracy: float | None = None

    @property
    def fallback_rate(self) -> float:
        """Share of decisions that fell back to a random action."""
        return self.fallbacks / self.decisions if self.decisions else 0.0

    def as_dict(self) -> dict:
        """Plain dict of the fields."""
        return asdict(self)


def parse_opponents(text: str) -> list[tuple[str, float]]:
    """``"random:1,novice:2"`` -> ``[("random", 1.0), ("novice", 2.0)]``; specs may carry parameters
    (``"minimax:depth=2:3"`` is minimax with depth 2, weight 3); a missing weight is 1."""
    entries: list[list] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise ValueError(f"bad opponent mix {text!r}: empty entry")
        head, colon, tail = item.rpartition(":")
        weight = None
        if colon:
            try:
                weight = float(tail)
            except ValueError:
                weight = None
        spec = head if weight is not None else item
        if entries and "=" in spec.split(":")[0] and entries[-1][1] is None:
            entries[-1][0] += "," + spec  # continuation of the previous spec's parameters
            entries[-1][1] = weight
        else:
            entries.append([spec, weight])
    result = []
    for spec, weight in entries:
        weight = 1.0 if weight is None else weight
        if not spec or not math.isfinite(weight) or weight <= 0:
            raise ValueError(f"bad opponent mix {text!r}: each entry is SPEC or SPEC:WEIGHT with a weight > 0")
        result.append((spec, weight))
    return result


def allocate(weights: list[float], count: int) -> list[int]:
    """Split ``count`` among entries in proportion to ``weights`` (largest remainder, ties to the first)."""
    total = sum(weights)
    shares = [count * weight / total for weight in weights]
    counts = [math.floor(share) for share in shares]
    order = sorted(range(len(weights)), key=lambda index: (-(shares[index] - counts[index]), index))
    for index in order[: count - sum(counts)]:
        counts[index] += 1
    return counts


def game_plan(
    opponents: list[tuple[str, float]], games: int, run_seed: int, generation: int | str, openings: int = 0
) -> tuple[FitnessGame, ...]:
    """The games every genome of ``generation`` plays: pairs with the same seed and swapped seats, each pair
    from the same opening of ``openings`` random plies (0: the start position).

    ``generation`` may also be a label (``"final"``) for games outside the generations.
    """
    if games < 2 or games % 2:
        raise ValueError(f"the number of fitness games must be a positive even number (both seats), got {games}")
    pairs = allocate([weight for _, weight in opponents], games // 2)
    plan = []
    pair = 0
    for (spec, _), count in zip(opponents, pairs, strict=True):
        for member in range(count):
            seed = derive_seed(run_seed, "fitness", generation, pair)
            plan += [FitnessGame(spec, 0, seed, member, openings), FitnessGame(spec, 1, seed, member, openings)]
            pair += 1
    return tuple(plan)


def check_opponents(text: str, game: str = DEFAULT_GAME) -> list[tuple[str, float]]:
    """Parse an opponent mix and make sure every opponent can play ``game`` unattended (``hof`` is always fine)."""
    opponents = parse_opponents(text)
    for spec, _ in opponents:
        if spec != HALL_OF_FAME:
            make_unattended_player(spec, game=game)  # an unknown, interactive or other game's opponent fails here
    return opponents


def parse_schedule(text: str, game: str = DEFAULT_GAME) -> list[tuple[int, str]]:
    """``"30:random:1,minimax:depth=1:1;60:minimax:depth=2:1,hof:1"`` -> ``[(30, mix), (60, mix)]``: from
    generation 30 on, play the first mix; from 60 on, the second. Generations must increase."""
    steps: list[tuple[int, str]] = []
    for item in (part.strip() for part in text.split(";")):
        start, colon, mix = item.partition(":")
        if not colon or not start.strip().isdigit() or not mix.strip():
            raise ValueError(f"bad schedule {text!r}: each step is GENERATION:MIX, got {item!r}")
        if steps and int(start) <= steps[-1][0]:
            raise ValueError(f"bad schedule {text!r}: the generations must increase")
        check_opponents(mix, game)
        steps.append((int(start), mix.strip()))
    return steps


def opponents_at(opponents: str, schedule: str, generation: int) -> str:
    """The opponent mix of ``generation``: ``opponents`` until the schedule's first step, then each step's mix."""
    mix = opponents
    for start, step_mix in parse_schedule(schedule) if schedule else ():
        if generation >= start:
            mix = step_mix
    return mix


_OPPONENTS: dict[tuple[str, str], object] = {}


def _opponent(spec: str, game: str = DEFAULT_GAME):
    player = _OPPONENTS.get((game, spec))
    if player is None:
        player = _OPPONENTS[game, spec] = make_unattended_player(spec, game=game)
    return player


def play(
    players: tuple,
    seed: int,
    game: str = DEFAULT_GAME,
    settings: dict[str, object] | None = None,
    start: GameState | None = None,
) -> int | None:
    """Play one game of ``game`` (under ``settings``) from ``start`` (default: the start position); the winning
    seat, or None for a draw."""
    return play_game(players, seed=seed, game=game, settings=settings, start=start).winner


def fitness_start(fitness_game: FitnessGame, game: str, settings: dict[str, object] | None) -> GameState | None:
    """The position ``fitness_game`` starts from: its random opening (seeded from the game seed, shared by the
    two games of a pair), or None for the start position."""
    if not fitness_game.opening:
        return None
    return random_opening(
        get_game(game), settings or {}, fitness_game.opening, derive_seed(fitness_game.seed, "opening")
    )


#: The facts of the positions this process's rule players met, one store per primitive library (made by the rule
#: set's ``new_facts``: Quarto's :class:`~gpquarto.games.quarto.gp.features.PositionFacts`): the genomes of a
#: generation play the same games, so they meet many positions in common, and compute their facts (and the values
#: of the rule trees they share) once.
_POSITION_FACTS: dict[PrimitiveLibrary, Any] = {}


def position_facts(library: PrimitiveLibrary, new_facts: Callable[[], Any]) -> Any:
    """This process's store of position facts for the rule players of ``library`` (made by ``new_facts`` the first
    time)."""
    facts = _POSITION_FACTS.get(library)
    if facts is None:
        if len(_POSITION_FACTS) >= 8:
            _POSITION_FACTS.clear()
        facts = _POSITION_FACTS[library] = new_facts()
    return facts


def share_position_facts(player: Player) -> None:
    """Let a rule player whose rule set shares position facts (``share_facts`` and ``new_facts``: Quarto's) read
    its decisions' facts from its library's :func:`position_facts` (the same decisions; other players are left as
    they are)."""
    rules = getattr(player, "rules", None)
    share = getattr(rules, "share_facts", None)
    if share is not None:
        share(position_facts(player.library, rules.new_facts))  # type: ignore[attr-defined, union-attr]  # a rule player's


_HALL_OF_FAME_PLAYERS: dict[tuple, RuleListPlayer] = {}


def _hall_of_fame_player(data: dict, library: PrimitiveLibrary) -> RuleListPlayer:
    """A past champion, built once per process while it stays in the hall of fame (a small cache)."""
    key = (library.game, *(tuple(map(tuple, rules)) for rules in data.values()))
    player = _HALL_OF_FAME_PLAYERS.get(key)
    if player is None:
        if len(_HALL_OF_FAME_PLAYERS) > 64:
            _HALL_OF_FAME_PLAYERS.clear()
        genome = Genome.from_data(data, library.primitive_set(), library.game)
        player = _HALL_OF_FAME_PLAYERS[key] = make_evolved_player(genome, library, seed=0, name="hof")
        share_position_facts(player)
    return player


def play_games(
    player: Player,
    games: tuple[FitnessGame, ...],
    hall_of_fame: tuple = (),
    library: PrimitiveLibrary | None = None,
    member_player: Callable[[Any], Player] | None = None,
    *,
    game: str = DEFAULT_GAME,
    settings: dict[str, object] | None = None,
) -> tuple[int, int, int]:
    """Play ``games`` of ``game`` (under ``settings``) with ``player``; (wins, draws, losses). ``hof`` games are
    played against the member of ``hall_of_fame`` they name, made a player by ``member_player`` (default: a rule
    genome's data, played as an evolved player), or against ``random`` while the hall is empty."""
    wins = draws = losses = 0
    for fitness_game in games:
        if fitness_game.opponent != HALL_OF_FAME:
            opponent = _opponent(fitness_game.opponent, game)
        elif hall_of_fame:
            member = hall_of_fame[fitness_game.member % len(hall_of_fame)]
            opponent = member_player(member) if member_player else _hall_of_fame_player(member, library)  # type: ignore[arg-type]  # given with rule genomes
        else:
            opponent = _opponent("random", game)
        players = (player, opponent) if fitness_game.seat == 0 else (opponent, player)
        winner = play(players, fitness_game.seed, game, settings, fitness_start(fitness_game, game, settings))
        if winner is None:
            draws += 1
        elif winner == fitness_game.seat:
            wins += 1
        else:
            losses += 1
    return wins, draws, losses


def evaluate(task: EvaluationTask) -> EvaluationResult:
    """Rebuild the genome from its texts and play the task's games (a module-level function: picklable)."""
    library = get_library(task.library)
    genome = Genome.from_data(task.genome, library.primitive_set(), library.game)
    player = make_evolved_player(genome, library, seed=0)  # play_game reseeds it for every game
    share_position_facts(player)
    settings = dict(task.settings) or None
    wins, draws, losses = play_games(
        player, task.games, task.hall_of_fame, library, game=library.game, settings=settings
    )
    games = len(task.games)
    decisions, fallbacks = player.decisions, player.fallbacks
    rate = fallbacks / decisions if decisions else 0.0
    score = game_score(wins, draws, games, task.draw_value) - task.fallback_weight * rate
    accuracy = (
        bank_accuracy(player, task.accuracy_positions, library.game, task.settings) if task.accuracy_positions else None
    )
    if accuracy is not None:
        score += task.accuracy_weight * accuracy
    if task.parsimony:
        score -= task.parsimony * genome.size
    return EvaluationResult(score, wins, draws, losses, fallbacks, decisions, genome.size, accuracy)


def bank_accuracy(
    player: Player,
    positions: tuple[tuple[str, tuple[int, ...]], ...],
    game: str = DEFAULT_GAME,
    settings: tuple[tuple[str, object], ...] = (),
) -> float:
    """The share of ``positions`` (solved decisions of ``game`` under ``settings``, sorted ``(name, value)`` pairs:
    those a position's text does not carry, such as Quixo's ply limit) where ``player`` takes an action that keeps
    the value; each decision is seeded from its index, as ``grade`` does."""
    correct = 0
    for index, (text, best_actions) in enumerate(positions):
        state = _parsed_state(text, game, settings)
        position = _ParsedPosition(text, 0, best_actions, index, game, settings=settings, state=state)
        action, _, _ = decide(player, position, derive_seed("accuracy", index))
        correct += action in best_actions
    return correct / len(positions)


@dataclass(frozen=True)
class _ParsedPosition(BankPosition):
    """A bank position whose state was parsed before: :meth:`board` hands out a copy of it."""

    state: GameState | None = None

    def board(self) -> GameState:
        """A fresh copy of the parsed state."""
        assert self.state is not None
        return self.state.copy()


_PARSED: dict[tuple[str, tuple[tuple[str, object], ...], str], GameState] = {}


def _parsed_state(text: str, game: str, settings: tuple[tuple[str, object], ...] = ()) -> GameState:
    """The state of a bank position's text under ``settings``, parsed once per process (every genome is graded on
    the same bank)."""
    key = (game, settings, text)
    state = _PARSED.get(key)
    if state is None:
        if len(_PARSED) >= 10_000:
            _PARSED.clear()
        state = _PARSED[key] = BankPosition(text, 0, (), 0, game, settings=settings).board()
    return state
