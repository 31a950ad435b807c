"""cocotb bench of the bare products, `mul_<k>` (RTL or gate-level netlist): out_t = a*b, 2k bits.

The design under test is described by its manifest (MODFORGE_MANIFEST: ports, widths, latency). Every
result is checked against Python's a*b, exactly `latency` cycles after the operation entered, and
out_valid must be high then and only then.

Environment: MODFORGE_MANIFEST (required), MODFORGE_OPS (random operations, default 2000), MODFORGE_SEED
(default 1), MODFORGE_CLK_NS (default 10), MODFORGE_PRODUCT_ALL (1: every pair of operands, back to back;
default 1 where that is at most 2^16 pairs, i.e. k <= 8, else 0).
"""
import os

import cocotb

from bench_common import start_bench
from modmul_bench import ModMulBench


class ProductBench(ModMulBench):
    """The modular multipliers' bench (one operation or an idle cycle per clock, results checked in order, exactly
    `latency` cycles after they entered, garbage on the operands while idle), with a*b for the expected result:
    a bare product has no modulus and no precomputation."""

    def __init__(self, dut, manifest: dict, seed: int):
        super().__init__(dut, manifest, seed, family="mul")
        self.k = manifest["k"]

    def pair(self, a, b):
        return {"in_a": a, "in_b": b}, a * b, f"{a}*{b}", None

    def random_pair(self):
        return self.pair(self.rng.getrandbits(self.k), self.rng.getrandbits(self.k))

    def edges(self):
        top = (1 << self.k) - 1
        return sorted({0, 1, 2, 1 << (self.k - 1), (1 << (self.k - 1)) - 1, top - 1, top})


async def _bench(dut, salt=0) -> ProductBench:
    return await start_bench(ProductBench, dut, salt)


@cocotb.test()
async def edge_operands(dut):
    """Every pair of edge operands (0, 1, 2, 2^(k-1) - 1, 2^(k-1), 2^k - 2, 2^k - 1), back to back."""
    tb = await _bench(dut)
    for a in tb.edges():
        for b in tb.edges():
            await tb.step(tb.pair(a, b))
    await tb.drain()
    assert tb.checked == len(tb.edges()) ** 2


@cocotb.test()
async def random_stream(dut):
    """Random operands, with idle gaps (garbage on the operands) in a quarter of the cycles."""
    tb = await _bench(dut, salt=1)
    n = int(os.environ.get("MODFORGE_OPS", "2000"))
    for _ in range(n):
        while tb.rng.random() < 0.25:
            await tb.step()
        await tb.step(tb.random_pair())
    await tb.drain()
    assert tb.checked == n
    dut._log.info("%s: %d products checked against a*b", tb.design, tb.checked)


@cocotb.test()
async def all_pairs(dut):
    """Every pair of k-bit operands, back to back (MODFORGE_PRODUCT_ALL; by default where k <= 8)."""
    tb = await _bench(dut, salt=2)
    if os.environ.get("MODFORGE_PRODUCT_ALL", "1" if tb.k <= 8 else "0") != "1":
        return
    for a in range(1 << tb.k):
        for b in range(1 << tb.k):
            await tb.step(tb.pair(a, b))
    await tb.drain()
    assert tb.checked == 1 << (2 * tb.k)
    dut._log.info("%s: all %d pairs checked against a*b", tb.design, tb.checked)


@cocotb.test()
async def reset_flushes_pipeline(dut):
    """A reset with operations in flight drops them: no out_valid until new operations arrive."""
    tb = await _bench(dut, salt=3)
    for _ in range(tb.latency):
        await tb.step(tb.random_pair())
    dut.reset.value = 1
    tb.pending.clear()
    await tb.step()
    dut.reset.value = 0
    await tb.drain()
    await tb.step(tb.pair(tb.edges()[-1], tb.edges()[-1]))
    await tb.drain()
    assert tb.checked == 1
