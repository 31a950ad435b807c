"""The report generators and software baselines (issue 26): each writes reports/<x>.* or build/<x>/
from the flow's results; common.py holds what they share. Run them from the repository root as
`python flow/reports/<x>.py` (the Makefile's `reports`, `bench-flow` and `sw-baseline` targets)."""
