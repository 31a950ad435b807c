"""The streaming RNS polynomial multiplier's Python side (``polymul_<n>_<logq>_s<P>[_w<w>]``):
``polymul.stream`` has the host helpers driven by the design's manifest (RNS in and out, the beat
layout of the ports) and an independent oracle for a*b mod (x^n + 1, Q) in Python integers
(schoolbook, or Kronecker substitution for large n; never an NTT). Imports nothing of the project."""
