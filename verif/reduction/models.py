"""Bit-exact models of the reduction family's datapaths, at the RTL's widths.

Each model takes the port values of :func:`modmul.precompute` and returns what the RTL puts on
out_t. Every intermediate wraps at the width the RTL gives it; ``trace`` (if given) receives
``name -> (true value, bits, signed)`` so tests can check that nothing is lost. These describe
the hardware; the tests compare them with plain ``a*b % m``, never with each other.

All start with the k x k product x = A * B (the register after it is the first pipeline stage).
"""
from .widths import wlm_bounds, wlm_schedule


def _wrap(v, bits):
    return v & ((1 << bits) - 1)


def _swrap(v, bits):
    v = _wrap(v, bits)
    return v - (1 << bits) if v >> (bits - 1) else v


def _note(trace, name, value, bits, signed=False):
    if trace is not None:
        trace[name] = (value, bits, signed)
    return _swrap(value, bits) if signed else _wrap(value, bits)


def montgomery(k, in_a, in_b, in_m, in_mp, trace=None, **_):
    """Alg. 1 on x = A B: t = (x q') mod 2^k, b = (x + t q) >> k, one correction.
    x + t q = 0 mod 2^k, so (x + tq) >> k = x_h + (tq)_h + [x_l != 0]: no 2k-bit adder."""
    x = _note(trace, "x", in_a * in_b, 2 * k)
    t = _note(trace, "t", _wrap(_wrap(x, k) * in_mp, k), k)          # line 1 (low half)
    tq = _note(trace, "tq", t * in_m, 2 * k)                         # line 2
    b = _note(trace, "b", (x >> k) + (tq >> k) + (_wrap(x, k) != 0), k + 1)
    if b >= in_m:                                                    # line 3
        b -= in_m
    return _note(trace, "out_t", b, k)


def classical_barrett(k, in_a, in_b, in_m, in_r, trace=None, **_):
    """Alg. 4: t = (x q') >> 2k, b = x - t q in k+1 bits (b < 2q), one correction."""
    x = _note(trace, "x", in_a * in_b, 2 * k)
    t = _note(trace, "t", (x * in_r) >> (2 * k), k)                  # line 1
    _note(trace, "b_true", x - t * in_m, k + 1)                      # line 2: true value fits
    b = _wrap(_wrap(x, k + 1) - _wrap(t * in_m, k + 1), k + 1)
    if b >= in_m:                                                    # line 3
        b -= in_m
    return _note(trace, "out_t", b, k)


def plantard(k, in_a, in_b, in_m, trace=None, **_):
    """Alg. 5 with the constant operand pre-multiplied (in_b = B q' mod 2^2k):
    c' = (A in_b mod 2^2k) >> k, c = ((c'+1) q) >> k, c = q -> 0."""
    x = _note(trace, "x", _wrap(in_a * in_b, 2 * k), 2 * k)         # line 1 (k x 2k, low 2k bits)
    c1 = _note(trace, "c'", x >> k, k)
    c = _note(trace, "c", ((c1 + 1) * in_m) >> k, k)                 # line 2; c <= q < 2^k
    return _note(trace, "out_t", 0 if c == in_m else c, k)           # line 3


def word_montgomery(k, in_a, in_b, in_m, schedule, trace=None):
    """Alg. 2 / Alg. 8, fixed: t <- t_h + ((q_h t') << delta_i) + c with t' = -t_l mod 2^w_i
    (the paper prints q_h t_l), c = t'[w_i-1] | t[w_i-1] (= [t_l != 0])."""
    omega = schedule[0][0] + schedule[0][1]
    qh = in_m >> omega
    bounds = wlm_bounds(k, schedule)
    t = _note(trace, "x", in_a * in_b, 2 * k)
    for i, (wi, di) in enumerate(schedule):
        tl, th = _wrap(t, wi), t >> wi
        tn = _wrap(-tl, wi)                                          # line 4 / 6
        c = (tn >> (wi - 1)) | (tl >> (wi - 1))                      # line 5 / 7
        p = _note(trace, f"p{i}", (qh * tn) << di, k)
        t = _note(trace, f"t{i + 1}", th + p + c, bounds[i + 1].bit_length())
    _note(trace, "t_final", t, bounds[-1].bit_length())
    if t >= in_m:                                                    # line 7 / 9
        t -= in_m
    return _note(trace, "out_t", t, k)


def _k2red_tail(k, h, in_m, t, trace, lazy, qh_times):
    """Lines 3-7 of Alg. 3 / Alg. 7, from t = q_h a_l - a_h."""
    omega = k - h
    tl, th = _wrap(t, omega), t >> omega                             # line 3 (arithmetic shift)
    _note(trace, "t_h", th, 2 * h + 1, signed=True)
    p2 = _note(trace, "p2", qh_times(tl), k)
    tp = _note(trace, "t'", p2 - th, k + 2, signed=True)             # line 4
    if lazy:
        return _note(trace, "out_t", tp, k + 2, signed=True) & ((1 << (k + 2)) - 1)
    if tp >= in_m:                                                   # lines 5-7
        tp -= in_m
    elif tp < 0:
        tp += in_m
    return _note(trace, "out_t", tp, k)


def k2red(k, h, in_a, in_b, in_m, lazy=False, trace=None, **_):
    """Alg. 3: t = q_h a_l - a_h, t' = q_h t_l - t_h, corrections both ways (unless lazy)."""
    omega = k - h
    qh = in_m >> omega
    x = _note(trace, "x", in_a * in_b, 2 * k)
    al, ah = _wrap(x, omega), x >> omega                             # line 1
    p1 = _note(trace, "p1", qh * al, k)
    t = _note(trace, "t", p1 - ah, 2 * k - omega + 1, signed=True)   # line 2
    return _k2red_tail(k, h, in_m, t, trace, lazy, lambda v: qh * v)


def _shift_qh(k, h, v, l1, l2, l3):
    """q_h v by shifts: (v << (h-1)) + (v << l1) - (v << l2) [+ (v << l3)]."""
    return (v << (h - 1)) + (v << l1) - (v << l2) + ((v << l3) if l3 is not None else 0)


def k2red_shift(k, h, in_a, in_b, in_m, in_l1, in_l2, in_l3=None, trace=None, **_):
    """Alg. 7: K2RED with q_h = 2^(h-1) + 2^l1 - 2^l2 [+ 2^l3] applied by barrel shifters."""
    omega = k - h
    x = _note(trace, "x", in_a * in_b, 2 * k)
    al, ah = _wrap(x, omega), x >> omega
    p1 = _note(trace, "p1", _shift_qh(k, h, al, in_l1, in_l2, in_l3), k)
    t = _note(trace, "t", p1 - ah, 2 * k - omega + 1, signed=True)   # line 2
    return _k2red_tail(k, h, in_m, t, trace, False, lambda v: _shift_qh(k, h, v, in_l1, in_l2, in_l3))


def montgomery_shift(k, h, in_a, in_b, in_m, in_l1, in_l2, in_l3=None, trace=None, **_):
    """Alg. 6, fixed (line 1 reads a_l <- a mod 2^k): q' = q_h 2^w - 1 and q by shifts."""
    omega = k - h
    x = _note(trace, "x", in_a * in_b, 2 * k)
    al, ah = _wrap(x, k), x >> k                                      # line 1
    qh_al = _shift_qh(k, h, al, in_l1, in_l2, in_l3)
    t = _note(trace, "t", _wrap((qh_al << omega) - al, k), k)         # line 2: a_l q' mod 2^k
    tq = _note(trace, "t'", (_shift_qh(k, h, t, in_l1, in_l2, in_l3) << omega) + t, 2 * k)  # line 3: t q
    c = ((tq >> (k - 1)) & 1) | (al >> (k - 1))                       # line 4
    b = _note(trace, "b'", ah + (tq >> k) + c, k + 1)                 # line 5
    if b >= in_m:                                                     # lines 6-7
        b -= in_m
    return _note(trace, "out_t", b, k)


def model(d, ports: dict, trace=None) -> int:
    """Run the model of reduction design `d` (a ReductionDesign) on precompute()'s ports."""
    f, k = d.family, d.k
    if f == "mont":
        return montgomery(k, trace=trace, **ports)
    if f == "cbarrett":
        return classical_barrett(k, trace=trace, **ports)
    if f == "plantard":
        return plantard(k, trace=trace, **ports)
    if f in ("wlm", "wlmm"):
        return word_montgomery(k, ports["in_a"], ports["in_b"], ports["in_m"],
                               wlm_schedule(f, k, d.w, d.h, d.tile), trace)
    if f == "k2red":
        return k2red(k, d.h, lazy=d.lazy, trace=trace, **ports)
    if f == "k2reds":
        return k2red_shift(k, d.h, trace=trace, **ports)
    if f == "monts":
        return montgomery_shift(k, d.h, trace=trace, **ports)
    raise ValueError(f)
