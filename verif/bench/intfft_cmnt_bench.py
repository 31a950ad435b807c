"""cocotb bench: CMNT encryption (Cao et al., Eq. 1) as a bench-level schedule over the super-size
Barrett design ``intfft_<group>_barrett`` (its multiply-only mode for the products, its Barrett mode
for the reductions; verif/bench/intfft_barrett_bench.py). Separate module so that `make test` runs
the Barrett reductions alone. Environment: MODFORGE_CMNT_PHI, MODFORGE_CMNT_THETA, MODFORGE_SEED.
"""
import random

import cocotb

from intfft.schoolbook import RamModel, blocks, model_cycles
from intfft_barrett_bench import barrett_command, env_int, started


@cocotb.test()
async def cmnt_encryption(dut):
    """CMNT encryption (Eq. 1) as a bench-level schedule over the RTL, at a scaled-down Toy group.

    Scaling: the paper's CMNT Toy group (Table 1, parsed) keeps delta and rho; phi is replaced by
    MODFORGE_CMNT_PHI (default 1000 bits; Toy has 160,000) and theta by MODFORGE_CMNT_THETA (default
    2; Toy has 158), so the group is "Toy[phi=1000,theta=2]" (encrypt.scaled).

    Schedule (encrypt.py, the paper's Section 4): for each (i, j), P_ij = A_i,0 A_j,1 mod A0 (a
    multiply-only pass of the RTL, then its Barrett reduction with gamma = phi, both on the RTL;
    the paper's timed run takes the P_ij as given, notes section 2.2 A); then the theta^2 products
    B_ij P_ij (multiply-only passes, delta x phi: Bx = 1); the accumulation M + 2R + 2 sum (the
    paper's d-bit accumulation module, not built) is done by the bench on the products read from
    the RAM; finally the sum is reduced mod A0 on the RTL (gamma = delta + ceil(log2 theta^2) + 3).
    C is checked against Eq. (1) with Python integers.
    """
    from intfft.encrypt import gamma_for, scaled
    from intfft.params import scheme_groups
    tb = await started(dut)
    g, W = tb.g, tb.W
    rng = random.Random(env_int("MODFORGE_SEED", 1) + 7)
    toy = next(s for s in scheme_groups() if (s.scheme, s.name) == ("CMNT", "Toy"))
    grp = scaled(toy, phi=env_int("MODFORGE_CMNT_PHI", 1000),
                 theta=env_int("MODFORGE_CMNT_THETA", 2))
    phi, theta, delta, rho = grp.phi, grp.theta, grp.delta, grp.rho
    A0 = rng.getrandbits(phi) | (1 << (phi - 1)) | 1
    A_0 = [rng.randrange(A0) for _ in range(theta)]
    A_1 = [rng.randrange(A0) for _ in range(theta)]
    B = [[rng.getrandbits(delta) for _ in range(theta)] for _ in range(theta)]
    M, R = rng.getrandbits(1), rng.randrange(-(1 << rho) + 1, 1 << rho)
    blk = g.block_bits

    async def multiply(a, b):
        """a * b on the RTL in multiply-only mode (pass 1 only): a as x (Bx blocks), b as y."""
        bx, by = blocks(a.bit_length(), blk), blocks(b.bit_length(), blk)
        ram = RamModel(g.d, write_buses=2)
        ram.store("a", 0, a, W * bx)
        ram.store("b", W * bx, b, W * by)
        z = W * (bx + by)
        fields = dict(x_base=0, x_hi_base=0, a01_base=W * bx, a0_base=0, q_base=z, q_hi_base=0, r_base=0,
                      y1_base=0, y2_base=0, bx1=bx, by1=by, bx2=1, by2=1, sub_words=1, top_bits=1)
        cycles = await tb.run(ram, fields, True, model_cycles(g, bx, by) + 50)
        assert cycles == model_cycles(g, bx, by)
        return ram.load(z, W * (bx + by)), cycles

    async def reduce(x, gamma):
        c = barrett_command(A0, gamma, g)
        y, cycles, _ = await tb.reduce(x, c)
        return y, cycles

    pre = 0
    P = {}
    for i in range(theta):
        for j in range(theta):
            prod, c1 = await multiply(A_0[i], A_1[j])
            P[i, j], c2 = await reduce(prod, phi)
            pre += c1 + c2
    acc = M + 2 * R + (A0 if M + 2 * R < 0 else 0)    # kept non-negative (encrypt.py _start)
    timed = 0
    for i in range(theta):
        for j in range(theta):
            prod, c = await multiply(B[i][j], P[i, j])
            acc += 2 * prod
            timed += c
    gamma = gamma_for(delta, theta * theta)
    C, rc = await reduce(acc, gamma)
    want = (M + 2 * R + 2 * sum(B[i][j] * A_0[i] * A_1[j] for i in range(theta) for j in range(theta))) % A0
    assert C == want, f"CMNT {grp.name}: C = {C:#x}, Eq. (1) gives {want:#x}"
    cocotb.log.info(f"CMNT {grp.name} on {g.name}: C correct; timed {timed} + reduction {rc} cycles "
                    f"({theta * theta} products), P_ij precompute {pre} cycles")
