"""cocotb bench for the block-schoolbook controller ``intfft_<group>_schoolbook`` (docs/intfft.md,
"Hardware", part B), with the external RAM modelled here on verif/intfft/schoolbook.py's RamModel
(a d-bit word RAM with its bus checks: at most 3 reads and 1 write a clock, and a read-back only
after its write).

Each multiplication stores x at word 0, y after it and lets the controller write the product after
y. The product is checked against Python's ``x * y``; the cycle count against the closed form
W + L + W Bx By + W (schoolbook.py ``model_cycles``) and so against Eq. (12): T - eq12 = 16 Bx
(the notes' 8 cycles plus the flush plus Eq. (12)'s "- n_x + kb/2" term); the clock of every
written word against the model's schedule (``RamModel.written_at`` of the model run with exact block
products, which shares no arithmetic with the RTL).

RAM timing: an address presented in clock t is answered in clock t + 1 (driven 1 ns after the
rising edge that starts t + 1); requests are sampled at the falling edge, a write presented in
clock t lands at the end of t. A read of a word written in the same or a later clock is an error
(RamModel).

Environment: MODFORGE_MANIFEST, MODFORGE_SEED, MODFORGE_SCHOOLBOOK_BITS (random operand bits,
default 10000), MODFORGE_SCHOOLBOOK_RUNS (random multiplications, default 1), MODFORGE_CLK_NS.
"""
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

from bench_common import env_manifest
from intfft.latency import eq12
from intfft.params import GROUPS
from intfft_ram import serve_ram
from intfft.schoolbook import RamModel, SchoolbookMultiplier, blocks, model_cycles


class SchoolbookBench:
    def __init__(self, dut, m):
        self.dut, self.m = dut, m
        self.g = GROUPS[m["group"]]
        assert (self.g.k, self.g.b, self.g.d) == (m["k"], m["b"], m["d"])
        self.W = m["words_per_block"]
        self.cycle = 0

    async def start(self, clk_ns):
        d = self.dut
        cocotb.start_soon(Clock(d.clk, clk_ns, unit="ns").start())
        d.reset.value = 1
        d.cmd_valid.value = 0
        for s in ("rd1_data", "rd2_data", "rd3_data", "cmd_x_base", "cmd_y_base", "cmd_z_base", "cmd_bx", "cmd_by"):
            getattr(d, s).value = 0
        for _ in range(3):
            await FallingEdge(d.clk)
        d.reset.value = 0
        await FallingEdge(d.clk)

    async def multiply(self, x, y, n_x=None, n_y=None):
        """One multiplication through the RTL; returns (product, cycles, ram)."""
        g, W, d = self.g, self.W, self.dut
        n_x = x.bit_length() if n_x is None else n_x
        n_y = y.bit_length() if n_y is None else n_y
        bx, by = blocks(n_x, g.block_bits), blocks(n_y, g.block_bits)
        ram = RamModel(g.d)
        ram.store("x", 0, x, W * bx)
        ram.store("y", W * bx, y, W * by)
        z_base = W * (bx + by)
        ram.check_fits("the product", z_base, W * (bx + by))
        assert d.cmd_ready.value == 1
        d.cmd_valid.value = 1
        d.cmd_x_base.value, d.cmd_y_base.value, d.cmd_z_base.value = 0, W * bx, z_base
        d.cmd_bx.value, d.cmd_by.value = bx, by
        await FallingEdge(d.clk)          # accepted at the rising edge ending this cycle
        d.cmd_valid.value = 0
        start = 0                          # the model's clock 0: the first read
        limit = model_cycles(g, bx, by) + 50
        t = await serve_ram(d, ram, limit)
        cycles = t - start
        return ram.load(z_base, W * (bx + by)), cycles, ram, bx, by, z_base

    async def check(self, x, y, n_x=None, n_y=None):
        g = self.g
        prod, cycles, ram, bx, by, z_base = await self.multiply(x, y, n_x, n_y)
        assert prod == x * y, f"{x.bit_length()} x {y.bit_length()} bits: product wrong (xor {prod ^ (x * y):#x})"
        assert cycles == model_cycles(g, bx, by), f"{cycles} cycles, the model's W + L + W Bx By + W is {model_cycles(g, bx, by)}"
        assert cycles - eq12(g.k, g.b, g.d, bx * g.block_bits, by * g.block_bits) == 16 * bx
        # Every write on the model's clock (the model run with exact block products).
        ref = RamModel(g.d)
        ref.store("x", 0, x, self.W * bx)
        ref.store("y", self.W * bx, y, self.W * by)
        SchoolbookMultiplier(g, block_mul="exact").multiply_ram(ref, 0, bx, self.W * bx, by, z_base)
        got = {a: c for a, c in ram.written_at.items() if a >= z_base}
        want = {a: c for a, c in ref.written_at.items() if a >= z_base}
        assert got == want, f"write clocks differ from the model at {sorted(a for a in want if got.get(a) != want[a])[:5]}"
        cocotb.log.info(f"{x.bit_length()} x {y.bit_length()} bits, Bx = {bx}, By = {by}: {cycles} cycles "
                        f"(Eq. 12: {float(eq12(g.k, g.b, g.d, bx * g.block_bits, by * g.block_bits)):.0f})")


@cocotb.test()
async def edge_multiplications(dut):
    tb = SchoolbookBench(dut, env_manifest())
    await tb.start(float(os.environ.get("MODFORGE_CLK_NS", "10")))
    n = tb.g.block_bits
    ones = lambda bits: (1 << bits) - 1
    # One block each; By = 1 (only pending blocks), Bx = 1; all-ones operands (the largest carries);
    # a zero operand; a one-bit operand.
    for x, y, nx, ny in [(ones(n), ones(n), None, None), (ones(3 * n), ones(n), None, None),
                         (ones(n), ones(3 * n), None, None), (ones(2 * n), ones(3 * n), None, None),
                         (0, ones(2 * n), 2 * n, None), (1, ones(2 * n) - 12345, None, None)]:
        await tb.check(x, y, nx, ny)


@cocotb.test()
async def random_multiplications(dut):
    tb = SchoolbookBench(dut, env_manifest())
    await tb.start(float(os.environ.get("MODFORGE_CLK_NS", "10")))
    rng = random.Random(int(os.environ.get("MODFORGE_SEED", "1")))
    bits = int(os.environ.get("MODFORGE_SCHOOLBOOK_BITS", "10000"))
    for _ in range(int(os.environ.get("MODFORGE_SCHOOLBOOK_RUNS", "1"))):
        x = rng.getrandbits(bits) | (1 << (bits - 1))
        y = rng.getrandbits(bits) | (1 << (bits - 1))
        await tb.check(x, y)
