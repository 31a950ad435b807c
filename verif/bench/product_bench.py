"""cocotb bench of the bare products, `mul_<k>` (RTL or gate-level netlist): out_t = a*b, 2k bits.

The design under test is described by its manifest (MODFORGE_MANIFEST: ports, widths, latency). Every
result is checked against Python's a*b, exactly `latency` cycles after the operation entered, and
out_valid must be high then and only then.

Environment: MODFORGE_MANIFEST (required), MODFORGE_OPS (random operations, default 2000), MODFORGE_SEED
(default 1), MODFORGE_CLK_NS (default 10), MODFORGE_PRODUCT_ALL (1: every pair of operands, back to back;
default 1 where that is at most 2^16 pairs, i.e. k <= 8, else 0).
"""
import os
import random
from collections import deque

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

from bench_common import start_bench


class ProductBench:
    """One operation (or an idle cycle) per clock; inputs change on the falling edge, outputs are read
    on the falling edge, half a period after the rising edge that produced them."""

    def __init__(self, dut, manifest: dict, seed: int):
        self.dut = dut
        self.design = manifest["design"]
        self.k = manifest["k"]
        self.latency = manifest["latency"]
        self.rng = random.Random(seed)
        self.cycle = 0
        self.pending = deque()  # (due cycle, a, b)
        self.checked = 0

    async def start(self, clk_ns: float):
        cocotb.start_soon(Clock(self.dut.clk, clk_ns, unit="ns").start())
        self.dut.reset.value = 1
        self.dut.in_valid.value = 0
        self._scramble()
        for _ in range(3):
            await FallingEdge(self.dut.clk)
        self.dut.reset.value = 0

    def _scramble(self):
        """Garbage on the operands while idle: nothing may come out of it."""
        self.dut.in_a.value = self.rng.getrandbits(self.k)
        self.dut.in_b.value = self.rng.getrandbits(self.k)

    def _check_outputs(self):
        valid = self.dut.out_valid.value
        assert valid.is_resolvable, f"{self.design}: out_valid is {valid} at cycle {self.cycle}"
        due = bool(self.pending) and self.pending[0][0] == self.cycle
        if int(valid) != int(due):
            expect = f"{self.pending[0][1]}*{self.pending[0][2]} due at cycle {self.pending[0][0]}" if self.pending else "nothing"
            raise AssertionError(f"{self.design}: out_valid = {int(valid)} at cycle {self.cycle}; expected {expect}")
        if due:
            _, a, b = self.pending.popleft()
            got = self.dut.out_t.value
            assert got.is_resolvable, f"{self.design}: out_t = {got} for {a}*{b}"
            assert got.to_unsigned() == a * b, \
                f"{self.design}: {a}*{b}: got {got.to_unsigned()}, expected {a * b} (cycle {self.cycle})"
            self.checked += 1

    async def step(self, ab=None):
        """One clock: check the outputs, then drive the pair `ab` or idle."""
        await FallingEdge(self.dut.clk)
        self.cycle += 1
        self._check_outputs()
        if ab is None:
            self.dut.in_valid.value = 0
            self._scramble()
            return
        a, b = ab
        self.dut.in_a.value, self.dut.in_b.value, self.dut.in_valid.value = a, b, 1
        self.pending.append((self.cycle + self.latency, a, b))

    async def drain(self):
        while self.pending:
            await self.step()
        for _ in range(self.latency + 2):  # and nothing more comes out
            await self.step()

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
            await tb.step((a, b))
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
        await tb.step((tb.rng.getrandbits(tb.k), tb.rng.getrandbits(tb.k)))
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
            await tb.step((a, b))
    await tb.drain()
    assert tb.checked == 1 << (2 * tb.k)
    dut._log.info("%s: all %d pairs checked against a*b", tb.design, tb.checked)


@cocotb.test()
async def reset_flushes_pipeline(dut):
    """A reset with operations in flight drops them: no out_valid until new operations arrive."""
    tb = await _bench(dut, salt=3)
    for _ in range(tb.latency):
        await tb.step((tb.rng.getrandbits(tb.k), tb.rng.getrandbits(tb.k)))
    dut.reset.value = 1
    tb.pending.clear()
    await tb.step()
    dut.reset.value = 0
    await tb.drain()
    await tb.step((tb.edges()[-1], tb.edges()[-1]))
    await tb.drain()
    assert tb.checked == 1
