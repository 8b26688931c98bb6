"""The last module a forkserver of worker processes imports (:func:`gpquarto.runner.processes.worker_context`),
after the modules its workers need.

* It loads the machine code numba cached for gpquarto (:func:`~gpquarto.runner.compiled_code.load_compiled_code`),
  so that every worker starts with it instead of reading it at its first search.
* Then it freezes the server's objects out of the garbage collector's reach (:func:`gc.freeze`), as Python's
  documentation advises before forking without exec: a worker's collections would otherwise walk every object the
  server imported, writing to each one's page and so copying it, at every full collection, inside whatever the
  worker was doing (a timed decision, a fitness game). Frozen, those pages stay shared.
"""

import gc

from gpquarto.runner.compiled_code import load_compiled_code

load_compiled_code()
gc.freeze()
