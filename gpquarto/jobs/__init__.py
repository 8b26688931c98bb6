"""Work started by the CLI, the web app or a script, given players by spec and run on a runner.

Matches and tournaments (:mod:`gpquarto.jobs.matches`) and experiments over many seeds
(:mod:`gpquarto.jobs.experiment`). Training runs live in :mod:`gpquarto.training`.
"""
