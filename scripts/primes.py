#!/usr/bin/env python3
"""The Proth-l prime toolkit's command line from the repository root (same as
`python -m primetools` run from verif/): list, count, largest, decompose, tables."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "verif"))
from primetools.proth_cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
