"""``python -m primetools ...`` (from verif/): the prime toolkit's command line, see :mod:`primetools.proth_cli`."""
import sys

from .proth_cli import main

if __name__ == "__main__":
    sys.exit(main())
