"""``python3 -m gpquarto``: see :mod:`gpquarto.cli`."""

import sys

try:
    from gpquarto.cli import main
except KeyboardInterrupt:  # Ctrl-C while the command's modules load: one line, as at any later moment
    print("gpquarto: interrupted", file=sys.stderr)
    sys.exit(130)

if __name__ == "__main__":
    sys.exit(main())
