"""The RNS polynomial multipliers' Python side. ``polymul.stream``: the streaming engine's
(``polymul_<n>_<logq>_s<P>[_w<w>]``) host helpers driven by the design's manifest (RNS in and out,
the beat layout of the ports) and an independent oracle for a*b mod (x^n + 1, Q) in Python integers
(schoolbook, or Kronecker substitution for large n; never an NTT); it imports nothing of the project.
``polymul.stream_model``: the streaming engine's arithmetic on one limb (its NTT loops), which the
multi-pass engine's rows pass runs at n2. ``polymul.multipass`` and ``polymul.multipass_schedule``:
the multi-pass (four-step) engine's bit-exact model and its external-memory schedule (issue 40,
docs/polymul_multipass.md); they build on ``stream`` (RNS, CRT), ``stream_model`` (the rows),
``primetools`` (primality, NTT-friendly primes) and ``ntt.ntt.find_psi``."""
