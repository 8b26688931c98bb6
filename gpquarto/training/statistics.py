"""The logbook's statistics: one row per generation, computed from the evaluated population."""

from __future__ import annotations

import math
from collections.abc import Sequence

from deap import tools

from gpquarto.gp.evaluator import EvaluatorGenome
from gpquarto.gp.genome import Genome


def _fallback_rate(genome: Genome | EvaluatorGenome) -> float:
    record = genome.record
    return record["fallbacks"] / record["decisions"] if record["decisions"] else 0.0


def generation_row(
    generation: int,
    evaluations: int,
    population: Sequence[Genome | EvaluatorGenome],
    hall_of_fame: tools.HallOfFame,
    *,
    accuracy: bool,
    fallbacks: bool = True,
) -> dict:
    """The logbook row of ``generation``: scores (best, mean, std, worst), the best genome's games (with pooled
    fitness, every game it has played: its wins, draws and losses may add up to several generations'), (with
    ``fallbacks``: rule players) fallback rates, sizes, the hall of fame's best and (with ``accuracy``) the
    accuracy term's share of good decisions."""
    scores = [genome.fitness.values[0] for genome in population]
    best = max(population, key=lambda genome: genome.fitness.wvalues)
    mean = sum(scores) / len(scores)
    row = {
        "generation": generation,
        "evaluations": evaluations,
        "best": best.fitness.values[0],
        "mean": mean,
        "std": math.sqrt(sum((score - mean) ** 2 for score in scores) / len(scores)),
        "worst": min(scores),
        "best_wins": best.record["wins"],
        "best_draws": best.record["draws"],
        "best_losses": best.record["losses"],
    }
    if fallbacks:
        rates = [_fallback_rate(genome) for genome in population]
        row["best_fallback_rate"] = _fallback_rate(best)
        row["mean_fallback_rate"] = sum(rates) / len(rates)
    row["best_size"] = best.record["size"]
    row["mean_size"] = sum(genome.record["size"] for genome in population) / len(population)
    row["hall_of_fame_best"] = hall_of_fame[0].fitness.values[0]
    if accuracy:
        accuracies = [genome.record["accuracy"] for genome in population]
        row["best_accuracy"] = best.record["accuracy"]
        row["mean_accuracy"] = sum(accuracies) / len(accuracies)
    return row
