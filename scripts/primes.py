#!/usr/bin/env python3
"""The Proth-l prime toolkit's command line from the repository root (same as
`python -m primetools` run from verif/): list, count, largest, decompose, tables."""
import sys

from primetools.proth_cli import main

if __name__ == "__main__":
    sys.exit(main())
