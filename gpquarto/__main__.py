"""``python3 -m gpquarto``: see :mod:`gpquarto.cli`."""

import sys

from gpquarto.cli import main

if __name__ == "__main__":
    sys.exit(main())
