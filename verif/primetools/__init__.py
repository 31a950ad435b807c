"""The prime toolkit: test and NTT-friendly primes (``primes``), the Proth and Proth-l primes of
Tosun et al. (``proth``, with the C counter ``proth_native``), the paper's prime counts and the
notes' Proth-2l lists (``paper_tables``, from data/papers/tosun.toml) and the command line (``proth_cli``; ``python -m primetools`` from
verif/, or scripts/primes.py from the repository root).

This package imports nothing from the other verif packages but ``papers`` (the papers' data, a
leaf): reduction, modmul and ntt build on it.
"""
