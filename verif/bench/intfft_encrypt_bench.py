"""cocotb bench: CMNT and CNT encryption (Cao et al., Eqs. 1-2) as bench-level schedules over the
super-size Barrett design ``intfft_<group>_barrett``: its multiply-only mode for the products, its
Barrett mode for the reductions (verif/bench/intfft_barrett_bench.py). Separate module so that
`make test` runs the Barrett reductions alone; one cocotb test per scheme (select with `testcase`).

Scaling: the paper's Toy groups (Table 1/2, parsed) keep delta and rho; phi and theta are replaced
(encrypt.scaled; the group's name states it, e.g. "Toy[phi=2000,theta=3]"). Environment:
MODFORGE_CMNT_PHI / MODFORGE_CMNT_THETA (defaults 2000 / 3), MODFORGE_CNT_PHI / MODFORGE_CNT_THETA
(defaults 3000 / 4, so that delta = 936 spans four blocks), MODFORGE_SEED; the defaults are
test_intfft_rtl.py's.

The paper's d-bit accumulation module (M + 2R + 2 sum, stage 1 of its schedule) is not built: the
bench adds the products it reads back from the RAM model, plus A0 when M + 2R < 0 so that the
accumulator stays non-negative (encrypt.py _start). C is checked against the scheme's equation
computed with Python integers, not against encrypt.py.
"""
import random

import cocotb

from intfft.schoolbook import RamModel, blocks, model_cycles
from intfft_barrett_bench import barrett_command, env_int, started


class EncryptionSchedule:
    """Products and reductions mod A0 on the RTL; the sum is kept by the bench."""

    def __init__(self, tb, A0: int):
        self.tb, self.g, self.W, self.A0 = tb, tb.g, tb.W, A0

    async def multiply(self, a: int, b: int):
        """a * b on the RTL in multiply-only mode (pass 1 only): a as x (Bx blocks), b as y."""
        g, W = self.g, self.W
        bx, by = blocks(a.bit_length(), g.block_bits), blocks(b.bit_length(), g.block_bits)
        ram = RamModel(g.d, write_buses=2)
        ram.store("a", 0, a, W * bx)
        ram.store("b", W * bx, b, W * by)
        z = W * (bx + by)
        fields = dict(x_base=0, x_hi_base=0, a01_base=W * bx, a0_base=0, q_base=z, q_hi_base=0, r_base=0,
                      y1_base=0, y2_base=0, bx1=bx, by1=by, bx2=1, by2=1, sub_words=1, top_bits=1)
        cycles = await self.tb.run(ram, fields, True, model_cycles(g, bx, by) + 50)
        assert cycles == model_cycles(g, bx, by)
        return ram.load(z, W * (bx + by)), cycles

    async def reduce(self, x: int, gamma: int):
        """x mod A0 on the RTL, x < A0 * 2^gamma."""
        y, cycles, _ = await self.tb.reduce(x, barrett_command(self.A0, gamma, self.g))
        return y, cycles


def _scaled_toy(scheme: str, default_phi: int, default_theta: int):
    from intfft.encrypt import scaled
    from intfft.params import scheme_groups
    toy = next(s for s in scheme_groups() if (s.scheme, s.name) == (scheme, "Toy"))
    return scaled(toy, phi=env_int(f"MODFORGE_{scheme}_PHI", default_phi),
                  theta=env_int(f"MODFORGE_{scheme}_THETA", default_theta))


async def _setup(dut, scheme: str, default_phi: int, default_theta: int, seed_offset: int):
    """The started bench, the scaled Toy group, the random stream (after A0) and the schedule."""
    tb = await started(dut)
    grp = _scaled_toy(scheme, default_phi, default_theta)
    rng = random.Random(env_int("MODFORGE_SEED", 1) + seed_offset)
    A0 = _modulus(rng, grp.phi, grp.rho)
    return tb, grp, rng, EncryptionSchedule(tb, A0)


def _start(M: int, R: int, A0: int) -> int:
    """The accumulator's start M + 2R, plus A0 when negative (encrypt.py _start)."""
    return M + 2 * R + (A0 if M + 2 * R < 0 else 0)


def _modulus(rng, phi: int, rho: int) -> int:
    if phi <= rho + 1:
        raise ValueError(f"phi = {phi} must exceed rho + 1 = {rho + 1}: A0 > 2^(rho+1) keeps the "
                         f"accumulator non-negative (encrypt.py); raise the scaled phi")
    return rng.getrandbits(phi) | (1 << (phi - 1)) | 1


@cocotb.test()
async def cmnt_encryption(dut):
    """CMNT encryption (Eq. 1) over the RTL at a scaled-down Toy group.

    Schedule (encrypt.py, the paper's Section 4): for each (i, j), P_ij = A_i,0 A_j,1 mod A0 (a
    multiply-only pass, then a Barrett reduction with gamma = phi, both on the RTL; the paper's
    timed run takes the P_ij as given, notes section 2.2 A); then the theta^2 products B_ij P_ij
    (multiply-only passes, delta x phi: Bx = 1); the bench accumulates; finally the sum is reduced
    mod A0 on the RTL (gamma = delta + ceil(log2 theta^2) + 3).
    """
    from intfft.encrypt import gamma_for
    tb, grp, rng, hw = await _setup(dut, "CMNT", 2000, 3, 7)
    phi, theta, delta, rho, A0 = grp.phi, grp.theta, grp.delta, grp.rho, hw.A0
    A_0 = [rng.randrange(A0) for _ in range(theta)]
    A_1 = [rng.randrange(A0) for _ in range(theta)]
    B = [[rng.getrandbits(delta) for _ in range(theta)] for _ in range(theta)]
    M, R = rng.getrandbits(1), rng.randrange(-(1 << rho) + 1, 1 << rho)

    pre = 0
    P = {}
    for i in range(theta):
        for j in range(theta):
            prod, c1 = await hw.multiply(A_0[i], A_1[j])
            P[i, j], c2 = await hw.reduce(prod, phi)
            pre += c1 + c2
    acc = _start(M, R, A0)
    timed = 0
    for i in range(theta):
        for j in range(theta):
            prod, c = await hw.multiply(B[i][j], P[i, j])
            acc += 2 * prod
            timed += c
    C, rc = await hw.reduce(acc, gamma_for(delta, theta * theta))
    want = (M + 2 * R + 2 * sum(B[i][j] * A_0[i] * A_1[j] for i in range(theta) for j in range(theta))) % A0
    assert C == want, f"CMNT {grp.name}: C = {C:#x}, Eq. (1) gives {want:#x}"
    cocotb.log.info(f"CMNT {grp.name} on {tb.g.name}: C correct; timed {timed} + reduction {rc} cycles "
                    f"({theta * theta} products), P_ij precompute {pre} cycles")


@cocotb.test()
async def cnt_encryption(dut):
    """CNT encryption (Eq. 2) over the RTL at a scaled-down Toy group: theta products B_i A_i
    (delta x phi, multiply-only passes; delta = 936 bits at Toy spans several blocks, so Bx > 1),
    accumulated by the bench, then one reduction mod A0 on the RTL (gamma = delta +
    ceil(log2 theta) + 3). No precompute: the A_i are the public key itself."""
    from intfft.encrypt import gamma_for
    tb, grp, rng, hw = await _setup(dut, "CNT", 3000, 4, 11)
    theta, delta, rho, A0 = grp.theta, grp.delta, grp.rho, hw.A0
    A = [rng.randrange(A0) for _ in range(theta)]
    B = [rng.getrandbits(delta) for _ in range(theta)]
    B[0] = (1 << delta) - 1                       # the largest delta-bit B_i
    M, R = rng.getrandbits(1), -(1 << rho) + 1    # the most negative R: A0 is added to the start

    acc = _start(M, R, A0)
    timed = 0
    for b, a in zip(B, A):
        prod, c = await hw.multiply(b, a)
        acc += 2 * prod
        timed += c
    C, rc = await hw.reduce(acc, gamma_for(delta, theta))
    want = (M + 2 * R + 2 * sum(b * a for b, a in zip(B, A))) % A0
    assert C == want, f"CNT {grp.name}: C = {C:#x}, Eq. (2) gives {want:#x}"
    cocotb.log.info(f"CNT {grp.name} on {tb.g.name}: C correct; timed {timed} + reduction {rc} cycles "
                    f"({theta} products)")
