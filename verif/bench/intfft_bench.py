"""cocotb bench for the Integer-FFT block multipliers (``intfft_<group>_parallel``,
``intfft_<group>_folded_p<P>``; docs/intfft.md, "Hardware").

The design is described by its manifest (``MODFORGE_MANIFEST``: k, b, d, the block and product
widths, latency, issue interval). Every product is checked against Python's ``x * y`` and nothing
else: no FFT, no port of the algorithm. The words must leave LSB first, one a clock, ``out_last``
with the last, exactly ``latency`` cycles after the pair was accepted; pairs offered back to back
must be accepted exactly ``issue_interval`` cycles apart.

Environment: MODFORGE_MANIFEST (required), MODFORGE_SEED (default 1), MODFORGE_INTFFT_OPS (random
pairs after the edge operands, default 4), MODFORGE_CLK_NS.
"""
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

from bench_common import env_manifest


class IntFftBench:
    """Inputs change on the falling edge and are sampled at the next rising edge; outputs are read
    at the falling edge (they changed at the rising edge before it). Cycle c ends with rising edge c."""

    def __init__(self, dut, m: dict):
        self.dut, self.m = dut, m
        self.k, self.b, self.d = m["k"], m["b"], m["d"]
        self.block_bits, self.words = m["block_bits"], m["product_words"]
        assert self.block_bits == self.k * self.b // 2 and self.words == self.k * self.b // self.d
        self.cycle = 0

    async def start(self, clk_ns):
        cocotb.start_soon(Clock(self.dut.clk, clk_ns, unit="ns").start())
        d = self.dut
        d.reset.value = 1
        d.in_valid.value = 0
        d.in_x.value = 0
        d.in_y.value = 0
        for _ in range(3):
            await FallingEdge(d.clk)
        d.reset.value = 0
        await FallingEdge(d.clk)

    async def run(self, pairs, back_to_back=True):
        """Offers the pairs (each as soon as in_ready allows when back_to_back, else with an idle gap)
        and collects the products; returns [(accept cycle, first word cycle, words)]."""
        d, todo, accepted, results = self.dut, list(pairs), [], []
        current, wait_gap = None, 0
        limit = (len(todo) + 2) * (self.m["issue_interval"] + self.m["latency"] + self.words) + 100
        for _ in range(limit):
            if d.out_valid.value == 1:
                if current is None:
                    current = (self.cycle, [])
                current[1].append(int(d.out_word.value))
                if d.out_last.value == 1:
                    assert len(current[1]) == self.words, f"{len(current[1])} words before out_last, expected kb/d = {self.words}"
                    results.append(current)
                    current = None
            else:
                assert current is None, f"cycle {self.cycle}: out_valid fell after {len(current[1])} of {self.words} words"
            offer = bool(todo) and wait_gap == 0
            if offer and d.in_ready.value == 1:
                x, y = todo.pop(0)
                d.in_valid.value = 1
                d.in_x.value = x
                d.in_y.value = y
                accepted.append((self.cycle, x, y))
                wait_gap = 0 if back_to_back else 3
            else:
                d.in_valid.value = 0
                d.in_x.value = random.getrandbits(self.block_bits)   # garbage while not valid
                d.in_y.value = random.getrandbits(self.block_bits)
                wait_gap = max(0, wait_gap - 1)
            await FallingEdge(d.clk)
            self.cycle += 1
            if not todo and len(results) == len(accepted):
                break
        assert len(results) == len(accepted), f"{len(accepted)} pairs accepted, {len(results)} products out"
        return [(a[0], r[0], r[1], a[1], a[2]) for a, r in zip(accepted, results)]

    def check(self, runs, back_to_back):
        for accept, first, words, x, y in runs:
            got = sum(w << (i * self.d) for i, w in enumerate(words))
            assert got == x * y, f"{x:#x} * {y:#x}: got {got:#x}, expected {x * y:#x} (difference {got - x * y:#x})"
            assert first - accept == self.m["latency"], f"latency {first - accept}, manifest says {self.m['latency']}"
        if back_to_back:
            gaps = {b[0] - a[0] for a, b in zip(runs, runs[1:])}
            assert gaps <= {self.m["issue_interval"]}, f"accept spacing {gaps}, manifest says {self.m['issue_interval']}"


def edge_pairs(n_bits, b):
    ones = (1 << n_bits) - 1
    digit = (1 << b) - 1
    alt = int("10" * (n_bits // 2), 2)
    return [
        (0, 0), (0, ones), (ones, ones),                      # zero, and (2^(kb/2) - 1)^2: every digit product maximal
        (ones, 1), (1, 1), (1 << (n_bits - 1), 1 << (n_bits - 1)),  # top bit squared: the product's top word
        (alt, alt), (alt, ones ^ alt),
        (digit, ones), (digit << (n_bits - b), ones),          # one all-ones digit at either end
    ]


@cocotb.test()
async def edge_operands(dut):
    tb = IntFftBench(dut, env_manifest())
    await tb.start(float(os.environ.get("MODFORGE_CLK_NS", "10")))
    runs = await tb.run(edge_pairs(tb.block_bits, tb.b))
    tb.check(runs, back_to_back=True)


@cocotb.test()
async def random_operands(dut):
    tb = IntFftBench(dut, env_manifest())
    await tb.start(float(os.environ.get("MODFORGE_CLK_NS", "10")))
    rng = random.Random(int(os.environ.get("MODFORGE_SEED", "1")))
    n = int(os.environ.get("MODFORGE_INTFFT_OPS", "4"))
    pairs = [(rng.getrandbits(tb.block_bits), rng.getrandbits(tb.block_bits)) for _ in range(n)]
    # Half back to back, half with idle cycles between pairs (the gate and the pipeline must not care).
    runs = await tb.run(pairs[: (n + 1) // 2], back_to_back=True)
    tb.check(runs, back_to_back=True)
    runs = await tb.run(pairs[(n + 1) // 2:], back_to_back=False)
    tb.check(runs, back_to_back=False)
