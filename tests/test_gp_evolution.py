"""The evolution loop: reproducible, resumable to the bit, screening rules, refusing mismatched configs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gpquarto.games.interface import DecisionKind
from gpquarto.gp.genome import Genome
from gpquarto.gp.library import LibraryConfig, get_library
from gpquarto.gp.screening import RuleScreen, ScreeningConfig
from gpquarto.gp.variation import random_genome
from gpquarto.runner import SerialRunner
from gpquarto.runner.processes import ProcessRunner
from gpquarto.training.evolution import Evolution, EvolutionConfig, make_generator
from gpquarto.training.hall_of_fame import restored_hall_of_fame

TINY = {
    "population": 6,
    "games": 4,
    "opponents": "random:1",
    "min_rules": 2,
    "max_rules": 3,
    "immigrant_every": 2,
    "screening_games": 2,
    "seed": 13,
}


@pytest.fixture(scope="module")
def library():
    return get_library(LibraryConfig())


def run(config: EvolutionConfig, library, generations: int | None = None) -> Evolution:
    evolution = Evolution.start(config, library)
    if generations is not None:
        while evolution.generation < generations:
            evolution.step(SerialRunner())
    else:
        evolution.run(SerialRunner())
    return evolution


def summary(evolution: Evolution) -> tuple:
    hall = [(genome.to_data(), genome.fitness.values, genome.record) for genome in evolution.hall_of_fame]
    return (
        evolution.generation,
        [genome.to_data() for genome in evolution.population],
        evolution.rng.getstate(),
        hall,
        evolution.logbook,
    )


def straight_resumed_and_parallel(
    config: EvolutionConfig, library, checkpoint: Path, stop_after: int = 2
) -> tuple[Evolution, Evolution, Evolution, Evolution]:
    """The run of ``config`` three ways: straight in this process; stopped after ``stop_after`` generations, saved
    to ``checkpoint`` and resumed; and on two processes. Returns (straight, interrupted, resumed, parallel)."""
    straight = run(config, library)
    interrupted = run(config, library, generations=stop_after)
    interrupted.save_checkpoint(str(checkpoint))
    resumed = Evolution.load_checkpoint(str(checkpoint), library, config)
    resumed.run(SerialRunner())
    with ProcessRunner(2) as pool:
        parallel = Evolution.start(config, library, pool)
        parallel.run(pool)
    return straight, interrupted, resumed, parallel


def test_same_seed_same_run_and_the_log_tracks_every_generation(library):
    config = EvolutionConfig(generations=3, **TINY)
    first, second = run(config, library), run(config, library)
    assert summary(first) == summary(second)
    assert [row["generation"] for row in first.logbook] == [0, 1, 2]
    assert all(row["best"] >= row["mean"] >= row["worst"] for row in first.logbook)
    scores = [genome.fitness.values[0] for genome in first.hall_of_fame]
    assert scores == sorted(scores, reverse=True) and scores[0] <= max(row["best"] for row in first.logbook)
    other = run(EvolutionConfig(generations=3, **{**TINY, "seed": 14}), library)
    assert summary(other)[1] != summary(first)[1]


def test_resumed_run_is_bit_identical(library, tmp_path):
    config = EvolutionConfig(generations=4, **TINY)
    straight = run(config, library)
    interrupted = run(config, library, generations=2)
    path = tmp_path / "checkpoint.dill"
    interrupted.save_checkpoint(str(path))
    resumed = Evolution.load_checkpoint(str(path), library, config)
    assert resumed.generation == 2
    resumed.run(SerialRunner())
    assert summary(resumed) == summary(straight)


def test_resume_refuses_another_config_but_may_extend_generations(library, tmp_path):
    config = EvolutionConfig(generations=1, **TINY)
    evolution = run(config, library)
    path = tmp_path / "checkpoint.dill"
    evolution.save_checkpoint(str(path))
    with pytest.raises(ValueError, match="config differs from the checkpoint's in games"):
        Evolution.load_checkpoint(str(path), library, EvolutionConfig(generations=1, **{**TINY, "games": 6}))
    longer = Evolution.load_checkpoint(str(path), library, EvolutionConfig(generations=2, **TINY))
    assert longer.generation == 1
    (tmp_path / "junk.dill").write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="junk.dill: corrupt or foreign checkpoint"):
        Evolution.load_checkpoint(str(tmp_path / "junk.dill"), library)


def test_immigrants_arrive_every_k_generations(library):
    config = EvolutionConfig(
        generations=0,
        **{**TINY, "crossover_rate": 0.0, "mutation_rate": 0.0, "elite": 0, "tournament_size": 1, "immigrants": 2},
    )
    evolution = Evolution.start(config, library)
    for genome in evolution.population:
        genome.fitness.values = (0.5, float(genome.size))
    before = [genome.to_data() for genome in evolution.population]
    evolution.breed()  # to generation 1: no immigrants; offspring are plain copies
    arrived = [genome.to_data() for genome in evolution.population]
    for genome in evolution.population:
        genome.fitness.values = (0.5, float(genome.size))
    evolution.breed()  # to generation 2: the last two places go to fresh genomes
    after = [genome.to_data() for genome in evolution.population]
    assert all(data in before for data in arrived)
    assert all(data not in before + arrived for data in after[-2:])


def test_bad_configs_are_refused():
    with pytest.raises(ValueError, match="positive even number"):
        EvolutionConfig(games=5)
    with pytest.raises(ValueError, match="elite"):
        EvolutionConfig(population=4, elite=4)
    with pytest.raises(ValueError, match="bad opponent mix"):
        EvolutionConfig(opponents="random:0")
    with pytest.raises(ValueError, match="unknown player 'nosuch'"):
        EvolutionConfig(opponents="random:1,nosuch:1")
    with pytest.raises(ValueError, match="player 'human' needs a person at the terminal"):
        EvolutionConfig(opponents="human:1")
    with pytest.raises(ValueError, match="unknown config keys: colour"):
        EvolutionConfig.from_dict({"colour": 1})


@pytest.mark.parametrize("field", ["fallback_weight", "accuracy_weight", "mutation_rate", "crossover_rate"])
@pytest.mark.parametrize("value", [float("inf"), float("nan")])
def test_float_settings_must_be_finite(field, value):
    with pytest.raises(ValueError, match=f"{field} must be a finite number"):
        EvolutionConfig(**{field: value})


def test_a_config_saved_before_a_setting_existed_keeps_what_it_trained_with():
    saved = EvolutionConfig().as_dict()
    del saved["lookahead"], saved["accuracy_weight"], saved["hall_of_fame_per_generation"]  # written before them
    old = EvolutionConfig.from_dict(saved)
    assert old.lookahead is False and old.accuracy_weight == 0.0 and old.hall_of_fame_per_generation is False
    assert EvolutionConfig.from_dict(EvolutionConfig().as_dict()) == EvolutionConfig()
    assert EvolutionConfig().accuracy_weight > 0 and EvolutionConfig().lookahead
    assert EvolutionConfig().hall_of_fame_per_generation


def rule(library, kind: str, condition: str, action: str):
    genome = Genome.from_data(
        {
            DecisionKind.CHOOSE: [[condition, action]] if kind == DecisionKind.CHOOSE else [],
            DecisionKind.PLACE: [[condition, action]] if kind == DecisionKind.PLACE else [],
        },
        library.primitive_set(),
    )
    return genome.rules(kind)[0]


def test_screening_keeps_rules_inside_the_band(library):
    screen = RuleScreen(library, ScreeningConfig(games=4, max_true_rate=0.66), seed=0)
    never = rule(
        library, DecisionKind.CHOOSE, "at_most(pieces_left, 0)", "safe_piece"
    )  # a piece is always left to choose
    always = rule(library, DecisionKind.CHOOSE, "greater_than(pieces_left, 0)", "safe_piece")
    sometimes = rule(
        library,
        DecisionKind.CHOOSE,
        "greater_than(pieces_left, add(4, mul(4, 2)))",
        "first_available_piece(safe_piece, tall_piece)",
    )
    rarely_legal = rule(library, DecisionKind.PLACE, "greater_than(pieces_left, mul(4, 2))", "winning_square")
    assert screen.measure(DecisionKind.CHOOSE, never).true == 0 and not screen.accepts(DecisionKind.CHOOSE, never)
    assert screen.measure(DecisionKind.CHOOSE, always).true_rate == 1.0 and not screen.accepts(
        DecisionKind.CHOOSE, always
    )
    measure = screen.measure(DecisionKind.CHOOSE, sometimes)
    assert (
        0 < measure.true_rate <= 0.66 and measure.legal_rate == 1.0 and screen.accepts(DecisionKind.CHOOSE, sometimes)
    )
    assert screen.measure(DecisionKind.PLACE, rarely_legal).legal_rate < 0.5 and not screen.accepts(
        DecisionKind.PLACE, rarely_legal
    )
    assert (
        screen.screen_rule(random.Random(0), DecisionKind.CHOOSE, sometimes, None) is sometimes and sometimes.screened
    )
    fixed = screen.screen_rule(random.Random(0), DecisionKind.CHOOSE, always, make_generator(library, 8))
    assert fixed != always and fixed.screened
    assert screen.screen_rule(random.Random(0), DecisionKind.CHOOSE, fixed, None) is fixed  # screened once only


def test_by_default_an_always_true_rule_is_welcome_but_a_never_true_one_is_not(library):
    screen = RuleScreen(library, ScreeningConfig(games=4), seed=0)
    always = rule(library, DecisionKind.PLACE, "True", "tightest_safe_square")
    assert screen.measure(DecisionKind.PLACE, always).true_rate == 1.0 and screen.accepts(DecisionKind.PLACE, always)
    assert not screen.accepts(
        DecisionKind.CHOOSE, rule(library, DecisionKind.CHOOSE, "at_most(pieces_left, 0)", "safe_piece")
    )


def unscreened_genomes(library, count: int = 8) -> list[Genome]:
    rng, generator = random.Random(5), make_generator(library, 8)
    return [random_genome(rng, generator, min_rules=2, max_rules=4, min_height=1, max_height=4) for _ in range(count)]


def test_a_screened_batch_is_the_same_on_any_runner_and_whatever_the_memo_holds(library):
    def screened(screen: RuleScreen, runner) -> list[dict]:
        genomes = screen.screen_genomes(
            random.Random(3), unscreened_genomes(library), make_generator(library, 8), runner
        )
        assert all(
            rule.screened
            for genome in genomes
            for kind in (DecisionKind.CHOOSE, DecisionKind.PLACE)
            for rule in genome.rules(kind)
        )
        return [genome.to_data() for genome in genomes]

    warm = RuleScreen(library, ScreeningConfig(games=2), seed=0, library_config=LibraryConfig())
    on_serial = screened(warm, SerialRunner())
    with ProcessRunner(2) as pool:
        on_pool = screened(RuleScreen(library, ScreeningConfig(games=2), seed=0, library_config=LibraryConfig()), pool)
    assert on_pool == on_serial == screened(warm, SerialRunner())  # the second serial pass answers from the memo
    assert on_serial != [genome.to_data() for genome in unscreened_genomes(library)]  # some rules were re-mutated


def test_bred_generations_are_the_same_on_processes_and_after_a_resume(library, tmp_path):
    config = EvolutionConfig(generations=3, **{**TINY, "mutation_rate": 1.0})
    serial = run(config, library, generations=1)
    path = tmp_path / "checkpoint.dill"
    serial.save_checkpoint(str(path))
    serial.run(SerialRunner())
    resumed = Evolution.load_checkpoint(str(path), library, config)
    resumed.run(SerialRunner())
    with ProcessRunner(2) as pool:
        pooled = Evolution.start(config, library, pool)
        pooled.run(pool)
    assert summary(pooled) == summary(serial) == summary(resumed)


def test_a_per_generation_hall_of_fame_keeps_each_generation_best_and_changes_nothing_else(library, tmp_path):
    settings = {**TINY, "hall_of_fame": 4, "population": 8, "accuracy_weight": 0.0}
    plain = run(EvolutionConfig(generations=6, hall_of_fame_per_generation=False, **settings), library)
    per_generation = run(EvolutionConfig(generations=6, hall_of_fame_per_generation=True, **settings), library)
    plain_generations = [genome.record["generation"] for genome in plain.hall_of_fame]
    assert len(set(plain_generations)) < len(plain_generations)  # a plain hall holds one generation's near-copies
    generations = [genome.record["generation"] for genome in per_generation.hall_of_fame]
    assert len(generations) == 4 and len(set(generations)) == 4
    assert summary(per_generation)[:3] == summary(plain)[:3]  # without hof opponents, evolution is unchanged
    # Each member is its generation's best (the smaller on equal scores), and no genome takes two places.
    members = {genome.record["generation"]: genome for genome in per_generation.hall_of_fame}
    # The first member holds the run's best score. (Not always the plain hall's: like DEAP's, that one keeps the
    # first score of a genome bred again unchanged, and a later generation's games may score it higher.)
    assert per_generation.hall_of_fame[0].fitness.values[0] == max(row["best"] for row in per_generation.logbook)
    for generation, member in members.items():
        row = per_generation.logbook[generation]
        assert member.fitness.values[0] == row["best"] and member.record["size"] == row["best_size"]
    keys = [genome.key() for genome in per_generation.hall_of_fame]
    assert len(set(keys)) == len(keys)

    halfway = run(EvolutionConfig(generations=6, hall_of_fame_per_generation=True, **settings), library, 3)
    halfway.save_checkpoint(str(tmp_path / "checkpoint.dill"))
    resumed = Evolution.load_checkpoint(str(tmp_path / "checkpoint.dill"), library)
    resumed.run(SerialRunner())
    assert summary(resumed) == summary(per_generation)


@pytest.mark.parametrize("per_generation", [True, False])
def test_a_restored_hall_of_fame_keeps_its_order_ties_included_and_its_rules(library, per_generation):
    config = EvolutionConfig(
        generations=1, **{**TINY, "hall_of_fame": 5, "hall_of_fame_per_generation": per_generation}
    )
    limits = {"min_rules": 1, "max_rules": 2, "min_height": 1, "max_height": 3}
    genomes = [random_genome(random.Random(seed), make_generator(library, 8), **limits) for seed in range(4)]
    for generation, (genome, score) in enumerate(zip(genomes, (0.9, 0.5, 0.5, 0.5), strict=True)):
        genome.fitness.values = (score, 3.0)
        genome.record = {"generation": generation}
    for order in (genomes, [genomes[0], genomes[3], genomes[1], genomes[2]]):
        restored = restored_hall_of_fame(config, list(order))
        assert [genome.key() for genome in restored] == [genome.key() for genome in order]
        better = random_genome(random.Random(99), make_generator(library, 8), **limits)  # goes first, as before
        better.fitness.values = (1.0, 3.0)
        better.record = {"generation": 9}
        restored.update([better])
        assert restored[0].fitness.values == (1.0, 3.0) and len(restored) == 5
