"""Bit-exact models of the three datapaths, at the RTL's widths.

Each model takes the port values that :func:`modmul.precompute` returns (what the RTL sees)
and returns what the RTL puts on ``out_t``. Every operation wraps at the width the RTL gives
it. ``trace``, if given, receives ``name -> (true value, RTL width in bits)`` for each
intermediate, so tests can check that the true value always fits (nothing is lost by the
wrap-around except where the algorithm intends it: the subtractions of line 5/8).

These are descriptions of the hardware, not the oracle: tests compare them with ``a*b % m``.

Truncated quotient products (``truncate``, ``truncate_r``, ``truncate_q``; 0, the default, is
the exact product of the default designs): see :func:`mul_high_truncated` and
:func:`trunc_error`, twins of ``Multiplier.highTruncated`` and ``Truncation`` in the generator.
The models take Python ints or, for the exhaustive tests, numpy integer arrays (elementwise).
"""


def _wrap(v: int, bits: int) -> int:
    return v & ((1 << bits) - 1)


def _note(trace, name, value, bits):
    if trace is not None:
        trace[name] = (value, bits)
    return _wrap(value, bits)


def _csub(t, m):
    """One conditional subtraction: t - m if t >= m else t (elementwise on arrays)."""
    return t - m * (t >= m)


def _clog2(n: int) -> int:
    return (n - 1).bit_length()


# ---------------------------------------------------------------- truncated products
def mul_high_truncated(a, b, b_bits, shift, drop):
    """floor(T / 2^shift), T = sum of a_i b_j 2^(i+j) over i + j >= drop (Multiplier.highTruncated):
    row j of the array keeps a's bits i >= drop - j. drop = 0 is the exact floor(a b / 2^shift)."""
    if drop == 0:
        return (a * b) >> shift
    total = 0
    for j in range(b_bits):
        lo = max(0, drop - j)
        total = total + ((b >> j) & 1) * (((a >> lo) << lo) << j)
    return total >> shift


def dropped_max(drop: int) -> int:
    """Largest value the dropped columns 0..drop-1 can have: column s holds at most s+1 partial
    products, so D <= sum_{s<drop} (s+1) 2^s = (drop-1) 2^drop + 1 (0 for drop = 0)."""
    return (drop - 1) * (1 << drop) + 1 if drop > 0 else 0


def trunc_error(drop: int, shift: int) -> int:
    """E(c, s) = ceil(dropped_max(c) / 2^s): floor(ab/2^s) - E <= truncated <= floor(ab/2^s)."""
    return -(-dropped_max(drop) // (1 << shift))


def _ceil_minus_one(num: int, den: int) -> int:
    """Conditional subtractions for t < (num/den) M (strict): ceil(num/den) - 1."""
    return -(-num // den) - 1


def barrett_bound(k: int, truncate: int = 0):
    """(num, den): before the corrections t < (num/den) M' = (5/2 + D/2^(k+1)) M', D =
    dropped_max(truncate). Proof in BarrettOpt.scala; 5/2 gives the two corrections of Algorithm 1."""
    return 5 * (1 << k) + dropped_max(truncate), 1 << (k + 1)


def barrett_corrections(k: int, truncate: int = 0) -> int:
    """Conditional subtractions of BarrettOpt (2 for truncate = 0)."""
    return _ceil_minus_one(*barrett_bound(k, truncate))


def barrett_sub_bits(k: int, truncate: int = 0) -> int:
    """Width of r1, r2 and t: t < (N+1) M' < (N+1) 2^k for N corrections (k+2 for N = 2)."""
    return k + _clog2(barrett_corrections(k, truncate) + 1)


def shoup_bound(k: int, truncate: int = 0):
    """(num, den): Shoup's t < (3/2 + D/2^k) M before line 6 (ShoupCore.scala)."""
    return 3 * (1 << (k - 1)) + dropped_max(truncate), 1 << k


def gshoup_bound(k: int, truncate_r: int = 0, truncate_q: int = 0):
    """(num, den): GShoup's t < (5/2 + D_R/2^(k-1) + D_Q/2^k) M' before the core's line 6: the
    paper's Proposition (t < 3M') extended to truncated products (GShoup.scala)."""
    return 5 * (1 << (k - 1)) + 2 * dropped_max(truncate_r) + dropped_max(truncate_q), 1 << k


def shoup_corrections(k: int, truncate: int = 0) -> int:
    """Shoup's conditional subtractions, all at line 6 (1 for truncate = 0)."""
    return _ceil_minus_one(*shoup_bound(k, truncate))


def gshoup_corrections(k: int, truncate_r: int = 0, truncate_q: int = 0):
    """(core's line 6, Algorithm 4 line 4): one in the core, the rest at line 4 ((1, 1) untruncated)."""
    return 1, _ceil_minus_one(*gshoup_bound(k, truncate_r, truncate_q)) - 1


def shoup_core_bits(k: int, core: int, line4: int):
    """(subtractor width, core output width): t < (core + line4 + 1) M before the core's
    corrections and < (line4 + 1) M after, with M < 2^(k-1) ((k+1, k) untruncated)."""
    return max(k + 1, k - 1 + _clog2(core + line4 + 1)), max(k, k - 1 + _clog2(line4 + 1))


def barrett_opt(k, in_a, in_b, in_m, in_r, in_l, sub_bits=None, trace=None, truncate=0,
                corrections=None, **_):
    """Algorithm 1 (BarrettOpt.scala). `sub_bits` is the width of r1, r2 and t: k+2 in the RTL;
    the paper prints k+1, which fails (see the erratum in BarrettOpt.scala). `truncate` drops
    that many columns of x'r; `corrections` overrides the number of conditional subtractions
    (tests only: the RTL has barrett_corrections(k, truncate))."""
    w = barrett_sub_bits(k, truncate) if sub_bits is None else sub_bits
    n = barrett_corrections(k, truncate) if corrections is None else corrections
    a_sh = _note(trace, "A'", in_a << in_l, k)                      # line 1
    x = _note(trace, "x", a_sh * in_b, 2 * k)                       # line 2, register (line 3)
    xq = _note(trace, "x'", x >> (k - 1), k + 1)                    # line 3
    if truncate:
        q = _note(trace, "q", mul_high_truncated(xq, in_r, k + 1, k + 1, truncate), k + 1)
    else:
        xr = _note(trace, "x'r", xq * in_r, 2 * k + 2)              # line 4, register before shift
        q = _note(trace, "q", xr >> (k + 1), k + 1)                 # line 4
    r1 = _wrap(x, w)                                                # line 5
    r2 = _wrap(q * in_m, w)                                         # line 6
    _note(trace, "t8", x - q * in_m, w)                             # lines 7-8: true t must fit
    t = _wrap(r1 - r2, w)                                           # what the subtractor gives
    for line in range(9, 9 + n):                                   # lines 9-10 (and extra ones)
        t = _csub(t, in_m)
        _note(trace, f"t{line}", t, w)
    return _note(trace, "out_t", t >> in_l, k)                      # line 11


def shoup_core(k, a, b, m, r, trace=None, truncate=0, corrections=1, sub_bits=None, out_bits=None):
    """Algorithm 3 (ShoupCore.scala): t < 2M for r one short of Shoup's, t < M for Shoup's r.
    `truncate` drops that many columns of A r; `corrections` conditional subtractions at line 6."""
    w = k + 1 if sub_bits is None else sub_bits
    q = _note(trace, "q", mul_high_truncated(a, r, k, k, truncate), k)  # line 1
    r1 = _wrap(a * b, w)                                            # line 2
    r2 = _wrap(q * m, w)                                            # line 3
    _note(trace, "t5", a * b - q * m, w)                            # line 5: true t must fit
    t = _wrap(r1 - r2, w)
    for _ in range(corrections):                                    # line 6
        t = _csub(t, m)
    return _note(trace, "core_t", t, k if out_bits is None else out_bits)


def shoup(k, in_a, in_b, in_m, in_r, trace=None, truncate=0, corrections=None, **_):
    """Shoup multiplier (Shoup.scala): the Algorithm 3 core alone."""
    core = shoup_corrections(k, truncate)
    n = core if corrections is None else corrections
    sub, out = shoup_core_bits(k, core, 0)
    return shoup_core(k, in_a, in_b, in_m, in_r, trace, truncate, n, sub, out)


def gshoup(k, in_a, in_b, in_m, in_l, in_g, in_r, in_mode, trace=None, truncate_r=0, truncate_q=0,
           corrections=None, **_):
    """Algorithm 4 (GShoup.scala), both modes. `truncate_r` drops columns of B g (line 1),
    `truncate_q` of the core's A' r; `corrections` = (core's, line 4's) overrides (tests only)."""
    core, line4 = gshoup_corrections(k, truncate_r, truncate_q)
    sub, out = shoup_core_bits(k, core, line4)
    if corrections is not None:
        core, line4 = corrections
    r_full = _note(trace, "r_full", mul_high_truncated(in_b, in_g, k, k - 2, truncate_r), k)  # line 1
    r = in_r if in_mode else r_full
    a_sh = _note(trace, "A'", in_a << in_l, k)                      # line 2
    t = shoup_core(k, a_sh, in_b, in_m, r, trace, truncate_q, core, sub, out)  # line 3
    for _ in range(line4):                                          # line 4
        t = _csub(t, in_m)
    return _note(trace, "out_t", t >> in_l, k)                      # line 5


MODELS = {"barrett": barrett_opt, "shoup": shoup, "gshoup": gshoup}


def model(design_family: str, k: int, ports: dict, trace=None) -> int:
    """Run the model of `design_family` on the port values from precompute()."""
    return MODELS[design_family](k, trace=trace, **ports)
