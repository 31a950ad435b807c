"""cocotb bench for every modular multiplier of the registry (RTL or gate-level netlist).

The design under test is described by its manifest (``<design>.json``, written by the generator:
ports, widths, latency), named by ``MODFORGE_MANIFEST``. Operands and moduli come from
:mod:`modmul.vectors`, port values from :func:`modmul.precompute`, and every result is checked
against plain ``a*b % m``, exactly ``latency`` cycles after the operation entered.

Environment: MODFORGE_MANIFEST (required), MODFORGE_OPS (operations in the random stream,
default 2000), MODFORGE_SEED (default 1), MODFORGE_CLK_NS (clock period, default 10; gate-level
runs with unit delays need a longer one).
"""
import os
import random
from collections import deque

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

from bench_common import start_bench

import registry
from modmul import parse_design, precompute
from modmul.vectors import classes_for, last_correction_case, modulus, operand


class ModMulBench:
    """Drives one operation (or an idle cycle) per clock and checks results in order.

    Inputs change on the falling edge and are sampled on the next rising edge; outputs are
    sampled on the falling edge, half a period after the edge that produced them.
    """

    def __init__(self, dut, manifest: dict, seed: int, family: str = None):
        self.dut = dut
        self.design = manifest["design"]
        # The design's meaning from its manifest (the generator's registry entry): no generator call here. A bench
        # built on this one for another kind of design names its family (product_bench: "mul").
        self.family = family or parse_design(registry.remember(manifest["registry"])["design"]).family
        # The lazy K2RED returns t' itself: signed, -m < t' < 2m, t' = a*b mod m
        # (docs/reduction.md, "Ports and the pre-scaled operand").
        self.lazy = bool(manifest.get("lazy"))
        self.out_bits = next(p["width"] for p in manifest["ports"] if p["name"] == "out_t")
        self.latency = manifest["latency"]
        self.inputs = {p["name"]: p["width"] for p in manifest["ports"]
                       if p["dir"] == "in" and p["name"] not in ("clk", "reset", "in_valid")}
        self.rng = random.Random(seed)
        self.cycle = 0
        self.pending = deque()  # (due cycle, expected, description)
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
        """Random values on the data inputs: results must not depend on them while idle."""
        for name, width in self.inputs.items():
            getattr(self.dut, name).value = self.rng.getrandbits(width)

    async def step(self, op=None):
        """One clock: check the outputs, then drive `op` = (ports, expected, description) or idle."""
        await FallingEdge(self.dut.clk)
        self.cycle += 1
        self._check_outputs()
        if op is None:
            self.dut.in_valid.value = 0
            self._scramble()
            return
        ports, expected, what, m = op
        for name, value in ports.items():
            getattr(self.dut, name).value = value
        self.dut.in_valid.value = 1
        # Driven now, sampled at the next rising edge, visible `latency` edges later.
        self.pending.append((self.cycle + self.latency, expected, what, m))

    def _check_outputs(self):
        valid = self.dut.out_valid.value
        assert valid.is_resolvable, f"{self.design}: out_valid is {valid} at cycle {self.cycle}"
        due = self.pending and self.pending[0][0] == self.cycle
        if int(valid) != int(bool(due)):
            expect = f"result of {self.pending[0][2]} due at cycle {self.pending[0][0]}" if self.pending else "no result"
            raise AssertionError(f"{self.design}: out_valid = {int(valid)} at cycle {self.cycle}; expected {expect}")
        if due:
            _, expected, what, m = self.pending.popleft()
            got = self.dut.out_t.value
            assert got.is_resolvable, f"{self.design}: out_t = {got} for {what}"
            if self.lazy:
                v = got.to_signed()
                assert (v - expected) % m == 0 and -m < v < 2 * m, \
                    f"{self.design}: {what}: got {v}, expected {expected} + j*{m} in (-m, 2m) (cycle {self.cycle})"
            else:
                assert got.to_unsigned() == expected, \
                    f"{self.design}: {what}: got {got.to_unsigned()}, expected {expected} (cycle {self.cycle})"
            self.checked += 1

    async def drain(self):
        while self.pending:
            await self.step()
        for _ in range(self.latency + 2):  # and nothing more comes out
            await self.step()

    def op(self, a, b, m, mode=None, cls=""):
        what = f"{a}*{b} mod {m} [{cls}{', ' + mode if mode else ''}]"
        return precompute(self.design, a, b, m, mode=mode), a * b % m, what, m

    def random_op(self, m, cls, mode=None):
        if self.family == "gshoup" and mode is None:
            mode = self.rng.choice(("full", "shoup"))
        return self.op(operand(m, self.rng), operand(m, self.rng), m, mode, cls)

    def moduli(self, n):
        """n moduli cycling through every class of the design."""
        classes = classes_for(self.design)
        return [(classes[i % len(classes)], modulus(self.design, classes[i % len(classes)], self.rng))
                for i in range(n)]


async def _bench(dut, salt=0) -> ModMulBench:
    return await start_bench(ModMulBench, dut, salt)


@cocotb.test()
async def random_stream(dut):
    """Random operations over every modulus class, edge operands, a new modulus every operation
    half of the time, idle gaps in in_valid (with garbage on the data inputs) and, for GShoup,
    a random mode per operation."""
    tb = await _bench(dut)
    n = int(os.environ.get("MODFORGE_OPS", "2000"))
    moduli = tb.moduli(max(8, n // 50))
    cls, m = moduli[0]
    for i in range(n):
        if tb.rng.random() < 0.5:
            cls, m = tb.rng.choice(moduli)
        while tb.rng.random() < 0.25:
            await tb.step()
        await tb.step(tb.random_op(m, cls))
    await tb.drain()
    assert tb.checked == n
    dut._log.info("%s: %d operations checked against a*b %% m", tb.design, tb.checked)


@cocotb.test()
async def edge_operands(dut):
    """Every pair of edge operands (0, 1, m-1) for every modulus class, back to back."""
    tb = await _bench(dut, salt=1)
    modes = ("full", "shoup") if tb.family == "gshoup" else (None,)
    for cls, m in tb.moduli(2 * len(classes_for(tb.design))):
        for a in (0, 1, m - 1):
            for b in (0, 1, m - 1):
                for mode in modes:
                    await tb.step(tb.op(a, b, m, mode, cls))
    await tb.drain()


@cocotb.test()
async def last_correction(dut):
    """Operations that need the design's last, rarest correction step (BarrettOpt line 10,
    GShoup Algorithm 4 line 4): random streams almost never reach it. Half of them land exactly
    on the comparison thresholds (t = 2M', then M')."""
    tb = await _bench(dut, salt=4)
    for i in range(60):
        case = last_correction_case(tb.design, tb.rng, exact=i % 2 == 1)
        # Plantard: its line 3 never fires (docs/reduction.md, "Where we depart from the NTT-reduction
        # paper (Tosun et al.)", 5).
        if case is None:
            break
        a, b, m = case
        await tb.step(tb.op(a, b, m, "full" if tb.family == "gshoup" else None, "last_correction"))
    await tb.drain()


@cocotb.test()
async def alternating_modes(dut):
    """GShoup only: the same products in full and Shoup mode, alternating every cycle."""
    tb = await _bench(dut, salt=2)
    if tb.family != "gshoup":
        return
    # 20 pairs per modulus; fewer with a short random stream (MODFORGE_OPS < 2000), at least 2.
    pairs = min(20, max(2, int(os.environ.get("MODFORGE_OPS", "2000")) // 100))
    for cls, m in tb.moduli(14):
        for _ in range(pairs):
            a, b = operand(m, tb.rng), operand(m, tb.rng)
            await tb.step(tb.op(a, b, m, "full", cls))
            await tb.step(tb.op(a, b, m, "shoup", cls))
    await tb.drain()


@cocotb.test()
async def reset_flushes_pipeline(dut):
    """A reset with operations in flight drops them: no out_valid until new operations arrive."""
    tb = await _bench(dut, salt=3)
    (cls, m), = tb.moduli(1)
    for _ in range(tb.latency):
        await tb.step(tb.random_op(m, cls))
    dut.reset.value = 1
    await FallingEdge(dut.clk)
    dut.reset.value = 0
    tb.pending.clear()
    tb.dut.in_valid.value = 0
    for _ in range(tb.latency + 2):
        await tb.step()
    await tb.step(tb.random_op(m, cls))
    await tb.drain()
