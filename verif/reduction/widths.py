"""Widths of the reduction family's intermediates, as the RTL sizes them (the Scala generator
computes the same numbers in hw/src/main/scala/modforge/reduction/). The model tests check that
every true value fits.

Word-level Montgomery (WLM, WLM-Mixed): iteration i takes t (bound B_i) to
t_h + (q_h t' << delta_i) + c, where q_h t' << delta_i < 2^k (q_h < 2^(k-w), t' < 2^w_i,
w_i + delta_i = w) and c <= 1, so B_{i+1} = (B_i >> w_i) + 2^k, from B_0 = (2^k - 1)^2.
"""


def wlm_schedule(family: str, k: int, w: int = None, h: int = None, tile=None):
    """[(w_i, delta_i)] of the word-level Montgomery iterations.

    WLM (Alg. 2): ceil(k/w) words of w bits, no shift. WLM-Mixed (Alg. 8, read as two
    iterations): w1 = min(GA, w), w0 = k - w1, delta_i = w - w_i, with w = k - h."""
    if family == "wlm":
        return [(w, 0)] * -(-k // w)
    omega = k - h
    w1 = min(tile[0], omega)
    w0 = k - w1
    return [(w0, omega - w0), (w1, omega - w1)]


def wlm_bounds(k: int, schedule):
    """Upper bounds B_0..B_n of t before and after each iteration."""
    b = [((1 << k) - 1) ** 2]
    for wi, _ in schedule:
        b.append((b[-1] >> wi) + (1 << k))
    return b
