"""Bit-exact models of the three datapaths, at the RTL's widths.

Each model takes the port values that :func:`modmul.precompute` returns (what the RTL sees)
and returns what the RTL puts on ``out_t``. Every operation wraps at the width the RTL gives
it. ``trace``, if given, receives ``name -> (true value, RTL width in bits)`` for each
intermediate, so tests can check that the true value always fits (nothing is lost by the
wrap-around except where the algorithm intends it: the subtractions of line 5/8).

These are descriptions of the hardware, not the oracle: tests compare them with ``a*b % m``.
"""


def _wrap(v: int, bits: int) -> int:
    return v & ((1 << bits) - 1)


def _note(trace, name, value, bits):
    if trace is not None:
        trace[name] = (value, bits)
    return _wrap(value, bits)


def barrett_opt(k, in_a, in_b, in_m, in_r, in_l, sub_bits=None, trace=None, **_):
    """Algorithm 1 (BarrettOpt.scala). `sub_bits` is the width of r1, r2 and t: k+2 in the RTL;
    the paper prints k+1, which fails (see the erratum in BarrettOpt.scala)."""
    w = k + 2 if sub_bits is None else sub_bits
    a_sh = _note(trace, "A'", in_a << in_l, k)                      # line 1
    x = _note(trace, "x", a_sh * in_b, 2 * k)                       # line 2, register (line 3)
    xq = _note(trace, "x'", x >> (k - 1), k + 1)                    # line 3
    xr = _note(trace, "x'r", xq * in_r, 2 * k + 2)                  # line 4, register before shift
    q = _note(trace, "q", xr >> (k + 1), k + 1)                     # line 4
    r1 = _wrap(x, w)                                                # line 5
    r2 = _wrap(q * in_m, w)                                         # line 6
    _note(trace, "t8", x - q * in_m, w)                             # lines 7-8: true t must fit
    t = _wrap(r1 - r2, w)                                           # what the subtractor gives
    for line in (9, 10):
        if t >= in_m:
            t -= in_m
        _note(trace, f"t{line}", t, w)
    return _note(trace, "out_t", t >> in_l, k)                      # line 11


def shoup_core(k, a, b, m, r, trace=None):
    """Algorithm 3 (ShoupCore.scala): t < 2M for r one short of Shoup's, t < M for Shoup's r."""
    q = _note(trace, "q", (a * r) >> k, k)                          # line 1
    r1 = _wrap(a * b, k + 1)                                        # line 2
    r2 = _wrap(q * m, k + 1)                                        # line 3
    _note(trace, "t5", a * b - q * m, k + 1)                        # line 5: true t must fit
    t = _wrap(r1 - r2, k + 1)
    if t >= m:                                                      # line 6
        t -= m
    return _note(trace, "core_t", t, k)


def shoup(k, in_a, in_b, in_m, in_r, trace=None, **_):
    """Shoup multiplier (Shoup.scala): the Algorithm 3 core alone."""
    return shoup_core(k, in_a, in_b, in_m, in_r, trace)


def gshoup(k, in_a, in_b, in_m, in_l, in_g, in_r, in_mode, trace=None, **_):
    """Algorithm 4 (GShoup.scala), both modes."""
    r_full = _note(trace, "r_full", (in_b * in_g) >> (k - 2), k)    # line 1
    r = in_r if in_mode else r_full
    a_sh = _note(trace, "A'", in_a << in_l, k)                      # line 2
    t = shoup_core(k, a_sh, in_b, in_m, r, trace)                   # line 3
    if t >= in_m:                                                   # line 4
        t -= in_m
    return _note(trace, "out_t", t >> in_l, k)                      # line 5


MODELS = {"barrett": barrett_opt, "shoup": shoup, "gshoup": gshoup}


def model(design_family: str, k: int, ports: dict, trace=None) -> int:
    """Run the model of `design_family` on the port values from precompute()."""
    return MODELS[design_family](k, trace=trace, **ports)
