"""Machine code that numba cached for gpquarto's compiled functions, loaded ahead of use.

numba reads a compiled function's machine code from its on-disk cache at the function's first call in a process: a
few hundredths of a second per function, a few tenths for a search's kernels. A process that forks others (the
forkserver of the worker processes, see :mod:`gpquarto.runner.preload`) loads it once with
:func:`load_compiled_code`, and every process forked from it starts with the code in memory, exactly the code it
would have read itself.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def load_compiled_code(loaded: set[tuple[object, object]] | None = None) -> None:
    """Import every gpquarto module that numba has cached code of, and load that code (every cached signature
    compiled on this machine). ``loaded`` remembers what was loaded, so that a later call loads only what was
    cached since. Best effort: without numba, or should a cache be half written or numba's internals differ, it
    loads what it can and leaves the rest to be read at first use, as always."""
    import gpquarto

    loaded = set() if loaded is None else loaded
    try:
        package = Path(gpquarto.__file__).parent
        for index in package.rglob("__pycache__/*.nbi"):  # numba's cache indexes: module.function-line.tag.nbi
            stem = index.name.split(".")[0]
            name = ".".join(["gpquarto", *index.parent.parent.relative_to(package).parts, stem])
            if name not in sys.modules and (index.parent.parent / f"{stem}.py").is_file():
                importlib.import_module(name)
        if "numba" not in sys.modules:
            return
        from numba.core.registry import CPUDispatcher

        for name, module in list(sys.modules.items()):
            if not name.startswith("gpquarto") or module is None:
                continue
            for function in list(vars(module).values()):
                cache = getattr(function, "_cache", None) if isinstance(function, CPUDispatcher) else None
                if cache is None:
                    continue
                machine = function.targetctx.codegen().magic_tuple()
                for key in cache._cache_file._load_index():  # (argument types, machine, source stamp)
                    signature, target = key[0], key[1]
                    if target == machine and (function, signature) not in loaded:
                        loaded.add((function, signature))
                        function.compile(signature)  # read from the cache, where its entry is
    except Exception:  # noqa: BLE001, S110 - a speed-up only: the code is read at first use instead
        pass
