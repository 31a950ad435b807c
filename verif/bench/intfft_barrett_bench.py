"""cocotb bench for the super-size Barrett reduction ``intfft_<group>_barrett`` (docs/intfft.md,
"Hardware", part C; Cao et al. Section 4, Eqs. 9-11). Its helpers also drive the CMNT bench
(intfft_encrypt_bench.py), which uses the design's multiply-only mode.

A0 lives in the RAM, so the bench holds it and precomputes what depends on it
(``barrett_command``): beta and alpha (Eqs. 10-11, ``barrett.beta_alpha``, which refuses an A0 for
which Eq. (10) gives no beta, or alpha <= gamma, with a BarrettParamError naming the condition),
A01 = floor(2^(phi+alpha)/A0) (Step 1), the block counts of the two passes, the RAM layout and the
subtractor's word count. The RTL does the rest: pass 1, pass 2, the serial subtract-and-select.

Results are checked against Python's ``x % A0`` (and the CMNT ciphertext against Eq. (1) computed
with Python integers) only; the cycle count against SuperBarrett.cycles:
pass1 + 1 + pass2 + sub_words + 1, passN = schoolbook.model_cycles.

RAM: schoolbook.py's RamModel with two write buses (Fig. 6(iii)); reads answered in the next clock.

Environment: MODFORGE_MANIFEST, MODFORGE_SEED, MODFORGE_BARRETT_PHI (A0 bits, default 2000),
MODFORGE_BARRETT_GAMMA (default 64), MODFORGE_BARRETT_RUNS (random reductions, default 2),
MODFORGE_BARRETT_EDGES (1: also the edge operands and moduli, the default; 0: random only),
MODFORGE_CLK_NS.
"""
import os
import random
from math import ceil
from typing import NamedTuple

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

from bench_common import env_manifest
from intfft.barrett import BarrettParamError, beta_alpha
from intfft.params import GROUPS
from intfft.schoolbook import RamModel, blocks, model_cycles
from intfft_ram import serve_ram


class BarrettCommand(NamedTuple):
    A0: int
    gamma: int
    phi: int
    beta: int
    alpha: int
    A01: int
    base: dict          # word addresses of x, A01, A0, q, r, y1, y2
    bx1: int
    by1: int
    bx2: int
    by2: int
    sub_words: int
    top_bits: int
    ram_words: int

    def fields(self):
        """The command ports (cmd_<name>) of the RTL."""
        B, d = self.base, self.d
        return dict(x_base=B["x"], x_hi_base=B["x"] + (self.phi + self.beta) // d, a01_base=B["A01"],
                    a0_base=B["A0"], q_base=B["q"], q_hi_base=B["q"] + (self.alpha - self.beta) // d,
                    r_base=B["r"], y1_base=B["y1"], y2_base=B["y2"], bx1=self.bx1, by1=self.by1,
                    bx2=self.bx2, by2=self.by2, sub_words=self.sub_words, top_bits=self.top_bits)

    @property
    def d(self):
        return self.base["d"]


def barrett_command(A0: int, gamma: int, g, base: int = 0) -> BarrettCommand:
    """The A0-dependent precompute of Eqs. (10)-(11) and Step 1, and a RAM layout from word `base`.

    Refuses (BarrettParamError) an A0 < 2, an A0 for which Eq. (10) gives no usable beta (phi + beta
    < 0: a 1- or 2-bit A0), and alpha <= gamma."""
    if A0 < 2:
        raise BarrettParamError(f"A0 = {A0}: the modulus of the super-size Barrett reduction must be >= 2")
    d, W, blk = g.d, g.words_per_block, g.block_bits
    phi = A0.bit_length()
    beta, alpha = beta_alpha(phi, d, gamma)      # raises with the condition and the fix
    assert (phi + beta) % d == 0 and (alpha - beta) % d == 0
    A01 = (1 << (phi + alpha)) // A0
    bx1, by1 = blocks(gamma - beta, blk), blocks(A01.bit_length(), blk)
    bx2, by2 = blocks(gamma + 1, blk), blocks(phi, blk)
    sub_words = ceil((phi + 1) / d)
    top_bits = phi + 1 - d * (sub_words - 1)
    # Each region block-aligned; x padded by Bx1 blocks and q by Bx2 blocks so a pass reading from
    # the middle of a region stays in words the bench wrote (zeros); A0 holds sub_words words.
    sizes = {"x": W * (blocks(phi + gamma, blk) + bx1), "A01": W * by1,
             "A0": max(W * by2, W * ceil(sub_words / W)),
             "q": W * (bx1 + by1 + bx2), "r": W * (bx2 + by2),
             "y1": W * ceil(sub_words / W), "y2": W * ceil(sub_words / W)}
    B, at = {"d": d}, base
    for name, n in sizes.items():
        B[name] = at
        at += n
    B["sizes"] = sizes
    return BarrettCommand(A0, gamma, phi, beta, alpha, A01, B, bx1, by1, bx2, by2, sub_words, top_bits, at)


def barrett_cycles(g, c: BarrettCommand) -> int:
    """SuperBarrett.cycles: the controller takes pass 2 in the clock of pass 1's done (+1), and the
    subtractor writes word u one clock after reading it (+1)."""
    return model_cycles(g, c.bx1, c.by1) + 1 + model_cycles(g, c.bx2, c.by2) + c.sub_words + 1


class BarrettBench:
    def __init__(self, dut, m):
        self.dut, self.m = dut, m
        self.g = GROUPS[m["group"]]
        assert (self.g.k, self.g.b, self.g.d) == (m["k"], m["b"], m["d"])
        self.W = m["words_per_block"]
        self.ram = None

    async def start(self, clk_ns):
        d = self.dut
        cocotb.start_soon(Clock(d.clk, clk_ns, unit="ns").start())
        d.reset.value = 1
        d.cmd_valid.value = 0
        d.cmd_mul_only.value = 0
        for s in ("rd1_data", "rd2_data", "rd3_data", "cmd_x_base", "cmd_x_hi_base", "cmd_a01_base", "cmd_a0_base",
                  "cmd_q_base", "cmd_q_hi_base", "cmd_r_base", "cmd_y1_base", "cmd_y2_base", "cmd_bx1", "cmd_by1",
                  "cmd_bx2", "cmd_by2", "cmd_sub_words", "cmd_top_bits"):
            getattr(d, s).value = 0
        for _ in range(3):
            await FallingEdge(d.clk)
        d.reset.value = 0
        await FallingEdge(d.clk)

    async def run(self, ram: RamModel, fields: dict, mul_only: bool, limit: int) -> int:
        """One command; answers the reads, lands the writes; returns the clocks to done."""
        d = self.dut
        assert d.cmd_ready.value == 1
        d.cmd_valid.value = 1
        d.cmd_mul_only.value = int(mul_only)
        for k, v in fields.items():
            getattr(d, f"cmd_{k}").value = v
        await FallingEdge(d.clk)          # accepted at the rising edge ending this clock
        d.cmd_valid.value = 0
        return await serve_ram(d, ram, limit, write_buses=("wr", "wr2"))

    async def reduce(self, x: int, c: BarrettCommand, ram: RamModel = None) -> tuple:
        """x mod A0 on the RTL; returns (y, cycles, y_is_y1). x, A01 and A0 are stored here unless
        a RAM that already holds them is given."""
        g, W, B = self.g, self.W, c.base
        if ram is None:
            ram = RamModel(g.d, words=max(c.ram_words, 1 << 16), write_buses=2)
            ram.store("x", B["x"], x, B["sizes"]["x"])
        ram.store("A01", B["A01"], c.A01, B["sizes"]["A01"])
        ram.store("A0", B["A0"], c.A0, B["sizes"]["A0"])
        cycles = await self.run(ram, c.fields(), False, barrett_cycles(g, c) + 50)
        sel = bool(self.dut.y_is_y1.value)
        y = ram.load(B["y1"] if sel else B["y2"], c.sub_words)
        return y, cycles, sel

    async def check(self, x: int, A0: int, gamma: int):
        c = barrett_command(A0, gamma, self.g)
        y, cycles, sel = await self.reduce(x, c)
        assert y == x % A0, (f"{x.bit_length()}-bit x mod a {c.phi}-bit A0: got {y:#x}, want {x % A0:#x} "
                             f"(select {'y1' if sel else 'y2'})")
        assert cycles == barrett_cycles(self.g, c), f"{cycles} cycles, want {barrett_cycles(self.g, c)}"
        cocotb.log.info(f"phi = {c.phi}, gamma = {gamma}, beta = {c.beta}, alpha = {c.alpha}, passes "
                        f"{c.bx1}x{c.by1} and {c.bx2}x{c.by2} blocks, {c.sub_words} sub words: {cycles} cycles, "
                        f"y = {'y1' if sel else 'y2'}")
        return sel


def env_int(name, default):
    return int(os.environ.get(name, str(default)))


async def started(dut):
    tb = BarrettBench(dut, env_manifest())
    await tb.start(float(os.environ.get("MODFORGE_CLK_NS", "10")))
    return tb


@cocotb.test()
async def barrett_reductions(dut):
    """Edge and random x mod random A0 (phi = MODFORGE_BARRETT_PHI bits, gamma = MODFORGE_BARRETT_GAMMA)."""
    tb = await started(dut)
    rng = random.Random(env_int("MODFORGE_SEED", 1))
    phi, gamma = env_int("MODFORGE_BARRETT_PHI", 2000), env_int("MODFORGE_BARRETT_GAMMA", 64)
    A0 = rng.getrandbits(phi) | (1 << (phi - 1)) | 1
    top = (1 << (phi + gamma)) - 1
    sels = set()
    edges = env_int("MODFORGE_BARRETT_EDGES", 1)
    # x = 0, A0 - 1, A0, the largest x, the largest multiple of A0 (sigma at its maximum), one below it.
    for x in (0, A0 - 1, A0, top, (top // A0) * A0, (top // A0) * A0 - 1)[:6 if edges else 0]:
        sels.add(await tb.check(x, A0, gamma))
    for _ in range(env_int("MODFORGE_BARRETT_RUNS", 2)):
        A0 = rng.getrandbits(phi) | (1 << (phi - 1))
        sels.add(await tb.check(rng.getrandbits(phi + gamma), A0, gamma))
    # A0 = 2^(phi-1) (A01 a power of two), A0 all ones; a phi that is a multiple of the block size
    # (the subtractor reads one word past A0's blocks).
    for A0 in (1 << (phi - 1), (1 << phi) - 1, rng.getrandbits(tb.g.block_bits * 2) | (1 << (tb.g.block_bits * 2 - 1)))[:3 if edges else 0]:
        sels.add(await tb.check(rng.getrandbits(A0.bit_length() + gamma), A0, gamma))
    cocotb.log.info(f"selects seen: {sorted('y1' if s else 'y2' for s in sels)}")
