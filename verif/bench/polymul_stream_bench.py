"""cocotb bench for the streaming RNS polynomial multiplier (``polymul_<n>_<logq>_s<P>[_w<w>]``).

The engine is described by its manifest (``MODFORGE_MANIFEST``: n, lanes, limb_bits, primes, Q, the beat
layout, cycles_per_product, latency_cycles, reset_cycles). Operands go in and results come out through
:class:`polymul.stream.Engine` (RNS, beats); every result is checked, per limb and mod Q through the
CRT, against :func:`polymul.stream.negacyclic_reference`, a negacyclic product in Python integers mod Q
(schoolbook, or Kronecker substitution for n > 256): no NTT, no RNS.

The interface's promises, checked here:
 (0) in_ready is 0 until reset_cycles rising edges have sampled reset at 0, then 1;
 (1) with in_valid and out_ready held 1, in_ready stays 1 and a product is accepted every
     cycles_per_product cycles, back to back;
 (2) with out_ready held 1 and no stalls, the first output beat of a product has out_valid = 1
     exactly latency_cycles rising edges after the edge that accepted its first input beat: accepted
     at edge e (in_valid and in_ready high before it), out_valid is first high just after edge
     e + latency_cycles (and so is sampled by the edge after that);
 (3) any stall pattern on either stream gives the same results; no output beat appears that was
     not put in (none after a reset, none when nothing is in flight).

Environment: MODFORGE_MANIFEST (required), MODFORGE_SEED (default 1), MODFORGE_STALL (probability of
a stalled beat on each stream in the stall tests, default 0.3), MODFORGE_POLYMUL_OPS (random products
per test, default 4), MODFORGE_CLK_NS, MODFORGE_SETTLE_NS (bench_common.settle: how long after the falling
edge outputs are read; a timed gate-level run sets it, as in_ready depends on out_ready through gates).
"""
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from bench_common import settle, start_bench

from polymul.stream import Engine, assert_product, negacyclic_reference


class PolymulStreamBench:
    """Drives both streams cycle by cycle.

    Inputs change on the falling edge; after they settle (bench_common.settle: the read-only phase, later
    with gate delays) in_ready and out_valid are read,
    and a beat moves at the next rising edge when valid and ready are both high there. Rising edges
    are counted from the start (`self.rising`: edges so far), so a beat driven now is accepted at
    edge `self.rising + 1`, and an out_valid seen now was set by edge `self.rising`.
    """

    def __init__(self, dut, manifest: dict, seed: int):
        self.dut, self.m = dut, manifest
        self.e = Engine.from_manifest(manifest)
        self.name = manifest["design"]
        self.n, self.frame = self.e.n, self.e.frame
        self.latency = manifest["latency_cycles"]
        self.cpp = manifest["cycles_per_product"]
        self.reset_cycles = manifest["reset_cycles"]
        self.rng = random.Random(seed)
        self.rising = 0
        self.stall = float(os.environ.get("MODFORGE_STALL", "0.3"))
        self.ops = int(os.environ.get("MODFORGE_POLYMUL_OPS", "4"))

    async def _count_edges(self):
        while True:
            await RisingEdge(self.dut.clk)
            self.rising += 1

    async def start(self, clk_ns: float):
        cocotb.start_soon(Clock(self.dut.clk, clk_ns, unit="ns").start())
        cocotb.start_soon(self._count_edges())
        d = self.dut
        for port in ("in_a", "in_b", "out_c"):
            assert len(getattr(d, port)) == self.e.width, (
                f"{self.name}: {port} has {len(getattr(d, port))} bits, the manifest's L*P*w = {self.e.width}")
        d.reset.value = 1
        d.in_valid.value = 0
        d.out_ready.value = 0
        d.in_a.value = 0
        d.in_b.value = 0
        for _ in range(3):
            await FallingEdge(d.clk)
        d.reset.value = 0
        # Promise (0): in_ready is 0 until reset_cycles rising edges have sampled reset at 0, then 1
        # (an idle engine takes a product at once).
        for i in range(self.reset_cycles):
            await settle()
            assert self._bit("in_ready") == 0, (
                f"{self.name}: in_ready 1 after {i} edges with reset 0, the manifest's reset_cycles is {self.reset_cycles}")
            await FallingEdge(d.clk)
        await settle()
        assert self._bit("in_ready") == 1, (
            f"{self.name}: in_ready still 0 after {self.reset_cycles} edges with reset 0 (the manifest's reset_cycles)")
        await FallingEdge(d.clk)

    def _bit(self, name):
        v = getattr(self.dut, name).value
        assert v.is_resolvable, f"{self.name}: {name} is {v} (X/Z) after edge {self.rising}"
        return int(v)

    # ---- Streams ----
    async def run(self, products, in_stall=0.0, out_stall=0.0, gap=0, abort_after=None):
        """Streams `products` (pairs of operand limbs) in and their results out.

        in_stall / out_stall: probability that in_valid / out_ready is low in a cycle (in_valid
        anywhere, mid-product too; garbage is driven on in_a and in_b while in_valid is low);
        gap: up to this many idle cycles (in_valid low) before each product after the first;
        abort_after: stop after this many cycles, results unread (for the reset test).

        Returns {"results": limbs per product, "accepted": the edge that accepted each input beat,
        "first_seen": the edge after which each output beat was first valid, "in_not_ready": edges at
        which in_valid was high and in_ready low, "cycles", "in_stalls": cycles with in_valid low
        mid-product, "out_stalls": cycles with out_valid high and out_ready low}."""
        e, d, rng, f = self.e, self.dut, self.rng, self.frame
        words = [(e.beats(a), e.beats(b)) for a, b in products]
        total = len(products) * f
        accepted, first_seen, out_words, in_not_ready = [], [], [], []
        pending = False      # an output beat seen valid and not read: the next one seen is the same beat
        idle, gapped = 0, 0  # idle cycles left before the next product (gap); the last product gapped
        budget = int(4 * (total + self.latency + 2 * f) / ((1 - in_stall) * (1 - out_stall))) + 200
        cycles = in_stalls = out_stalls = 0
        while len(out_words) < total:
            await FallingEdge(d.clk)
            nxt, mid = divmod(len(accepted), f)
            if gap and mid == 0 and 0 < nxt < len(products) and gapped != nxt:
                idle, gapped = rng.randint(0, gap), nxt
            drive = len(accepted) < total and idle == 0 and not (in_stall and rng.random() < in_stall)
            if idle:
                idle -= 1
            if drive:
                p, t = divmod(len(accepted), f)
                d.in_valid.value = 1
                d.in_a.value, d.in_b.value = words[p][0][t], words[p][1][t]
            else:
                d.in_valid.value = 0
                d.in_a.value, d.in_b.value = rng.getrandbits(e.width), rng.getrandbits(e.width)
            ready = not (out_stall and rng.random() < out_stall)
            d.out_ready.value = int(ready)
            await settle()
            in_ready, out_valid = self._bit("in_ready"), self._bit("out_valid")
            if out_valid:
                k = len(out_words)
                assert k < len(accepted), (
                    f"{self.name}: out_valid after edge {self.rising} for output beat {k}, but only {len(accepted)} "
                    f"input beats were accepted (a beat out that was never put in)")
                if not pending:
                    first_seen.append(self.rising)
                if ready:
                    v = d.out_c.value
                    assert v.is_resolvable, f"{self.name}: out_c = {v} (X/Z) at output beat {k}, edge {self.rising}"
                    out_words.append(int(v))
            pending = bool(out_valid and not ready)
            out_stalls += pending
            in_stalls += (not drive) and mid != 0
            if drive:
                if in_ready:
                    accepted.append(self.rising + 1)
                else:
                    in_not_ready.append(self.rising + 1)
            cycles += 1
            if abort_after is not None and cycles >= abort_after:
                break
            assert cycles < budget, (f"{self.name}: {len(out_words)} of {total} output beats after {cycles} cycles "
                                     f"({len(accepted)} input beats accepted)")
        results = [e.unbeat(out_words[i * f:(i + 1) * f]) for i in range(len(out_words) // f)]
        return {"results": results, "accepted": accepted, "first_seen": first_seen,
                "in_not_ready": in_not_ready, "cycles": cycles, "in_stalls": in_stalls, "out_stalls": out_stalls}

    async def idle(self, cycles, what):
        """`cycles` cycles with in_valid low and out_ready high: out_valid must stay low."""
        d = self.dut
        for _ in range(cycles):
            await FallingEdge(d.clk)
            d.in_valid.value = 0
            d.out_ready.value = 1
            await settle()
            assert self._bit("out_valid") == 0, f"{self.name}: out_valid after edge {self.rising} {what}"

    async def reset_pulse(self, cycles=3):
        """Synchronous reset for `cycles` rising edges, streams idle; out_valid must be low after the first."""
        d = self.dut
        await FallingEdge(d.clk)
        d.reset.value = 1
        d.in_valid.value = 0
        d.out_ready.value = self.rng.getrandbits(1)
        for i in range(cycles):
            await FallingEdge(d.clk)
            if i == cycles - 1:
                d.reset.value = 0
            await settle()
            assert self._bit("out_valid") == 0, f"{self.name}: out_valid after edge {self.rising}, with reset high"

    # ---- Operands and checks ----
    def random_product(self):
        """Two random polynomials mod Q, in RNS."""
        return tuple(self.e.to_rns([self.rng.randrange(self.e.Q) for _ in range(self.n)]) for _ in range(2))

    def limbs_of(self, per_limb):
        """Limbs whose coefficient i of limb l is per_limb(l, q_l, i)."""
        return [[per_limb(l, q, i) for i in range(self.n)] for l, q in enumerate(self.e.primes)]

    def monomial(self, k):
        return self.e.to_rns([int(i == k) for i in range(self.n)])

    def edge_products(self):
        n, e = self.n, self.e
        top = self.limbs_of(lambda l, q, i: q - 1)                     # Q - 1 everywhere
        zero = self.limbs_of(lambda l, q, i: 0)
        one = self.monomial(0)
        r = self.random_product()[0]
        mixed = self.limbs_of(lambda l, q, i: self.rng.choice((0, 1, q - 1, q - 2, q // 2)))  # per limb independently
        alt = self.limbs_of(lambda l, q, i: (q - 1) if (i + l) % 2 else 0)   # limbs disagree: not a small integer mod Q
        out = [(top, top), (zero, r), (r, zero), (one, r), (r, one), (top, one), (mixed, top), (alt, top),
               (mixed, self.random_product()[1])]
        for k in sorted({0, 1, n // 2 - 1, n - 1}):
            out.append((self.monomial(k), r))
        out.append((self.monomial(n - 1), self.monomial(n - 1)))         # x^(2n-2) = -x^(n-2)
        out.append((self.monomial(n - 1), top))
        return out

    def check(self, products, results, what):
        e = self.e
        assert len(results) == len(products), f"{self.name}: {what}: {len(results)} results for {len(products)} products"
        for p, ((a, b), got) in enumerate(zip(products, results)):
            want = negacyclic_reference(e.from_rns(a), e.from_rns(b), self.n, e.Q)
            assert_product(e, got, want, f"{self.name}: {what}, product {p}", self.frame)

    def check_latency(self, rec, what):
        """Promise (2): each product's first output beat valid exactly latency_cycles edges after the
        edge that accepted its first input beat."""
        f = self.frame
        for p in range(len(rec["results"])):
            got = rec["first_seen"][p * f] - rec["accepted"][p * f]
            assert got == self.latency, (
                f"{self.name}: {what}, product {p}: first input beat accepted at edge {rec['accepted'][p * f]}, "
                f"first output beat valid after edge {rec['first_seen'][p * f]}: {got} edges, the manifest's "
                f"latency_cycles is {self.latency}")

    def check_throughput(self, rec, what):
        """Promise (1): in_ready never low, beats accepted on consecutive edges, a product every
        cycles_per_product edges."""
        f = self.frame
        assert self.cpp == f, f"{self.name}: manifest cycles_per_product = {self.cpp}, n/P = {f}"
        assert not rec["in_not_ready"], (f"{self.name}: {what}: in_ready low with in_valid high at edges "
                                         f"{rec['in_not_ready'][:8]}")
        acc = rec["accepted"]
        gaps = [acc[i + 1] - acc[i] for i in range(len(acc) - 1)]
        assert all(g == 1 for g in gaps), f"{self.name}: {what}: beats accepted at edges {acc[:3 * f]}"
        starts = acc[::f]
        assert all(s2 - s1 == self.cpp for s1, s2 in zip(starts, starts[1:])), (
            f"{self.name}: {what}: products accepted at edges {starts}, want one every {self.cpp}")


async def _bench(dut, salt=0) -> PolymulStreamBench:
    return await start_bench(PolymulStreamBench, dut, salt)


@cocotb.test()
async def random_products(dut):
    """Random polynomials mod Q in RNS, back to back, no stalls."""
    tb = await _bench(dut, 1)
    prods = [tb.random_product() for _ in range(tb.ops)]
    rec = await tb.run(prods)
    tb.check(prods, rec["results"], "random")


@cocotb.test()
async def edge_products(dut):
    """Q - 1 (every limb q_l - 1), zero, one, x^i (i = 0, 1, n/2 - 1, n - 1), a * 1, per-limb
    mixtures of 0, 1, q_l - 1, q_l - 2, q_l / 2, back to back."""
    tb = await _bench(dut, 2)
    prods = tb.edge_products()
    rec = await tb.run(prods)
    tb.check(prods, rec["results"], "edge operands")


@cocotb.test()
async def throughput_and_latency(dut):
    """Promises (1) and (2): back to back with both streams always on, then products separated by
    idle gaps on the input (never mid-product) with out_ready held 1, then one product alone."""
    tb = await _bench(dut, 3)
    prods = [tb.random_product() for _ in range(max(3, tb.ops))]
    rec = await tb.run(prods)
    tb.check(prods, rec["results"], "back to back")
    tb.check_throughput(rec, "back to back")
    tb.check_latency(rec, "back to back")
    prods = [tb.random_product() for _ in range(3)]
    rec = await tb.run(prods, gap=2 * tb.frame + 3)
    tb.check(prods, rec["results"], "gaps between products")
    tb.check_latency(rec, "gaps between products")
    await tb.idle(tb.latency + 2 * tb.frame, "with nothing in flight")
    prods = [tb.random_product()]
    rec = await tb.run(prods)
    tb.check(prods, rec["results"], "a product alone")
    tb.check_latency(rec, "a product alone (the engine drains by itself)")
    assert not rec["in_not_ready"], f"{tb.name}: in_ready low for the first beat of a product on an idle engine"


@cocotb.test()
async def stalls(dut):
    """Random stalls on both streams (in_valid low mid-product, out_ready low), then on each alone;
    the results must be the oracle's."""
    tb = await _bench(dut, 4)
    for in_s, out_s in [(tb.stall, tb.stall), (tb.stall, 0.0), (0.0, tb.stall), (0.7, 0.7)]:
        prods = [tb.random_product() for _ in range(tb.ops)] + tb.edge_products()[:2]
        rec = await tb.run(prods, in_stall=in_s, out_stall=out_s)
        tb.check(prods, rec["results"], f"stalls in {in_s}, out {out_s}")
        assert (rec["in_stalls"] > 0) == (in_s > 0) and (rec["out_stalls"] > 0) == (out_s > 0), (
            f"{tb.name}: stalls exercised: {rec['in_stalls']} on the input, {rec['out_stalls']} on the output")


@cocotb.test()
async def reset_in_flight(dut):
    """Reset while products are in flight (mid input product; then with output beats read and
    out_ready stalled); after it no stale beat may come out, and fresh products are right, on
    time and at full rate."""
    tb = await _bench(dut, 5)
    f, lat = tb.frame, tb.latency
    # 1. One and a half products in, nothing out yet.
    await tb.run([tb.random_product() for _ in range(2)], abort_after=f + f // 2)
    await tb.reset_pulse(3)
    await tb.idle(lat + 3 * f, "after a reset mid input")
    prods = [tb.random_product() for _ in range(2)]
    rec = await tb.run(prods)
    tb.check(prods, rec["results"], "after a reset mid input")
    tb.check_latency(rec, "after a reset mid input")
    tb.check_throughput(rec, "after a reset mid input")
    # 2. Three products with stalls, reset once output beats are coming out (out_ready low about half the time).
    await tb.run([tb.random_product() for _ in range(3)], in_stall=0.2, out_stall=0.5, abort_after=lat + 2 * f)
    await tb.reset_pulse(1)
    await tb.idle(lat + 3 * f, "after a reset mid output")
    prods = [tb.random_product() for _ in range(2)]
    rec = await tb.run(prods)
    tb.check(prods, rec["results"], "after a reset mid output")
    tb.check_latency(rec, "after a reset mid output")
    # 3. Reset, then at once products with stalls (no idle time after the reset).
    await tb.run([tb.random_product()], abort_after=lat // 2)
    await tb.reset_pulse(2)
    prods = [tb.random_product() for _ in range(3)]
    rec = await tb.run(prods, in_stall=tb.stall, out_stall=tb.stall)
    tb.check(prods, rec["results"], "straight after a reset, with stalls")
