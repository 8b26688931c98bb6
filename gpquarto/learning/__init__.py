"""Learning players by reinforcement, for any game of the interface: afterstate TD with an n-tuple network
(``td-ntuple``), and tabular Q-learning and Monte-Carlo control keyed by canonical position (the seeds'
methods), against themselves, any player spec or a weighted mix; run folders with atomic checkpoints and
bit-identical resume, the same results on any number of workers. The players they make live in
:mod:`gpquarto.learned`.
"""

from gpquarto.learning.config import METHODS, LearnConfig
from gpquarto.learning.run import LearnRun, LearnRunError, learn, open_learn_run, resume

__all__ = ["METHODS", "LearnConfig", "LearnRun", "LearnRunError", "learn", "open_learn_run", "resume"]
