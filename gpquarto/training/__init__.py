"""Training as a library: evolve rule players, or evaluators for a search's leaves (``genome="evaluator"``:
:mod:`gpquarto.training.genome_kinds`), in run folders that can be resumed and reopened.

``train(config, run_dir)`` starts a run, ``resume(run_dir)`` continues one, ``open_run(run_dir)`` reads a
finished (or interrupted) one: its logbook (a DEAP ``Logbook``), hall of fame and best player.
The command ``gpquarto train`` is argument parsing over these functions.
"""

from gpquarto.training.config import EvolutionConfig
from gpquarto.training.evolution import Evolution
from gpquarto.training.run import RunError, RunFolder, open_run, resume, train

__all__ = ["Evolution", "EvolutionConfig", "RunError", "RunFolder", "open_run", "resume", "train"]
