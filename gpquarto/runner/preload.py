"""The last module a forkserver of worker processes imports (:func:`gpquarto.runner.processes.worker_context`):
it loads the machine code numba cached for gpquarto (:func:`~gpquarto.runner.compiled_code.load_compiled_code`),
so that every worker forked from the server starts with it instead of reading it at its first search."""

from gpquarto.runner.compiled_code import load_compiled_code

load_compiled_code()
