"""cocotb bench for the multi-pass engine over a batch, its passes overlapped (``mpoly_..._t1``,
hw/.../multipass/MultipassBatch.scala): count products, product j's five regions ``product_stride_bytes`` after
product j - 1's, the memory cocotbext-axi's ``AxiRam``.

A batch: for each product j, a_j and b_j (mod q, each its own operand pattern) are written into product j's regions
a and b (``Memory.to_bytes()`` at j x stride), random garbage into x, y and c; ``io_count`` set; ``start``; wait for
``done``. What is checked:

- **each c_j against an independent oracle:** the negacyclic product a_j b_j mod (x^n + 1, q) in Python big ints
  (``polymul.stream.negacyclic_reference``: schoolbook or one Kronecker-substituted integer product; never an NTT);
- **the memory afterwards, whole,** against the model's image of each product after all passes (x holds Z, y Y, c
  the product) with the garbage wherever no pass writes, and nothing written beyond the batch: a stray write shows;
- **the bursts:** by unit (the ID's two upper bits: 0 columns, 1 rows, 2 columns_inverse) and product (the address
  over the stride), AR and AW equal the pass's bursts in ``schedule(p)`` offset by j x stride, in order for the
  column passes and as a multiset for rows; INCR bursts of the bus's size, none across 4 KB; at most
  3 x ``outstanding`` in flight;
- **the protocol** on AR, AW and W: a valid not yet taken stays up with its payload unchanged; full WSTRB and WLAST
  on every burst_beats-th beat;
- **the order of passes:** a unit's first AR or AW of product j only once the unit before it is done with j (every
  burst of j issued and answered: its R last beats and B responses in), and once the unit itself is done with j - 1;
  nothing moves after ``done``; no error response.

Cycles: from the edge that takes ``start`` to the one that sets ``done``, against the manifest's promise (the first
product's ``latency``, each later one ``steady_cycles_per_product``), and the edges at which every unit was active
(``io_active``). They go to the log and to ``batch_cycles_<test>.json`` beside the simulation.

Environment: MODFORGE_MANIFEST (required), MODFORGE_SEED (default 1), MODFORGE_PAUSE (default 0.3), MODFORGE_CLK_NS,
MODFORGE_BATCH (products per batch, default 4).
"""
import logging
import os
import random
from collections import Counter, deque

import cocotb
from cocotb.triggers import RisingEdge

from axi_memory_bench import AxiMemoryBench, random_pauses
from bench_common import start_bench
from polymul.multipass import MultipassModel
from polymul.multipass_manifest import manifest_params
from polymul.multipass_schedule import Memory, schedule
from polymul.stream import negacyclic_reference

LOG = logging.getLogger("cocotb.multipass_batch")
UNITS = ("columns", "rows", "columns_inverse")


class BatchBench(AxiMemoryBench):
    post_reset_edges = 4     # the NTT units' reset trees: their streams open two edges after reset

    def __init__(self, dut, m: dict, seed: int):
        self.batch = m["batch"]
        self.stride = self.batch["product_stride_bytes"]
        self.count_max = int(os.environ.get("MODFORGE_BATCH", "4"))
        self.count = 0
        p = manifest_params(m)
        super().__init__(dut, m, seed, p)
        assert self.stride == self.layout.total_bytes, (self.stride, self.layout.total_bytes)
        self.q = int(m["prime"])
        assert list(p.psis) == [m["psi"]], f"the design's psi {m['psi']} is not the model's {p.psis}"
        self.model = MultipassModel(self.p)
        self.pass_id_bits = m["batch"]["id_bits"] - m["batch"]["unit_id_bits"]
        # Each unit's bursts for one product (product 0's addresses), in the schedule's order.
        self.expected = {u: ([], []) for u in UNITS}
        for ps, blocks in schedule(self.p):
            for blk in blocks:
                self.expected[ps.name][0].extend((b.addr, b.beats - 1) for b in blk.reads)
                self.expected[ps.name][1].extend((b.addr, b.beats - 1) for b in blk.writes)
        self.reset_counts()

    def ram_bytes(self) -> int:
        return self.stride * self.count_max

    def idle_inputs(self) -> dict:
        return {"io_start": 0, "io_count": 0}

    def reset_counts(self):
        self.seen = {}                                    # (unit, product) -> ([AR], [AW]) at product 0's addresses
        self.w_beats = 0
        self.reset_bursts()
        self.queues = {u: (deque(), deque()) for u in range(3)}   # per unit: products of its reads / writes in flight
        self.active_edges = [0, 0, 0]
        self.all_active_edges = 0
        self.order_errors = []

    def monitors(self):
        return [self._monitor()]

    def _complete(self, unit: int, j: int) -> bool:
        """Unit `unit` is done with product j: all its bursts of j issued and answered."""
        ar, aw = self.seen.get((unit, j), ([], []))
        want = self.expected[UNITS[unit]]
        return (len(ar) == len(want[0]) and len(aw) == len(want[1])
                and j not in self.queues[unit][0] and j not in self.queues[unit][1])

    def _order(self, ch: str, unit: int, j: int):
        first = (unit, j) not in self.seen
        if first and unit > 0 and not self._complete(unit - 1, j):
            self.order_errors.append(f"{UNITS[unit]}'s first {ch} of product {j} before {UNITS[unit - 1]} was done with it")
        if first and j > 0 and not self._complete(unit, j - 1):
            self.order_errors.append(f"{UNITS[unit]}'s first {ch} of product {j} before it was done with product {j - 1}")
        assert not self.order_errors, f"order of passes: {self.order_errors[0]}"   # at once, in the monitor

    async def _monitor(self):
        d = self.dut
        sigs = self.axi_channels("mem")
        s = lambda name: self.sig("mem", name)
        while True:
            await RisingEdge(d.clk)
            self.edge += 1
            act = int(d.io_active.value)
            for u in range(3):
                self.active_edges[u] += (act >> u) & 1
            self.all_active_edges += act == 7
            fired = self.handshakes(sigs, "mem")
            for ch, k in (("ar", 0), ("aw", 1)):
                if fired[ch]:
                    addr, ln, sz, burst = (int(x.value) for x in sigs[ch][2])
                    self.check_burst(ch.upper(), addr, ln, sz, burst)
                    unit = int(s(f"{ch}id").value) >> self.pass_id_bits
                    assert unit < 3, f"{ch.upper()} {addr:#x}: ID {int(s(f'{ch}id').value)} names no unit"
                    j = addr // self.stride
                    assert j < self.count, f"{ch.upper()} {addr:#x}: product {j}, beyond the batch of {self.count}"
                    self._order(ch.upper(), unit, j)
                    self.seen.setdefault((unit, j), ([], []))[k].append((addr - j * self.stride, ln))
                    self.queues[unit][k].append(j)
            if int(s("rvalid").value) and int(s("rready").value) and int(s("rlast").value):
                self.queues[int(s("rid").value) >> self.pass_id_bits][0].popleft()
            if int(s("bvalid").value) and int(s("bready").value):
                self.queues[int(s("bid").value) >> self.pass_id_bits][1].popleft()
            if fired["w"]:
                self.check_w_beat(self.w_beats, int(s("wstrb").value), int(s("wlast").value))
                self.w_beats += 1
            out = 3 * self.m["outstanding"]
            self.count_bursts(fired["ar"], fired["aw"], out, out, "mem")

    # ---- a batch ----
    async def run_batch(self, patterns, label: str) -> dict:
        count = len(patterns)
        assert count <= self.count_max, f"{count} products, the memory holds {self.count_max} (MODFORGE_BATCH)"
        self.count = count
        q, lay, sb = self.q, self.layout, self.slot_bytes
        ops = [self.operands(pt, q) for pt in patterns]
        before, expect = [], []
        for a, b in ops:
            mem = Memory(self.p)
            mem.load("a", 0, a)
            mem.load("b", 0, b)
            words = list(mem.words)
            for region in ("x", "y", "c"):
                lo = lay.base(region, 0) // sb
                for i in range(lo, lo + lay.region_bytes // sb):
                    words[i] = self.rng.getrandbits(self.s)
            after = self.model.run([a], [b])
            want = list(words)
            for region in ("x", "y", "c"):
                lo = lay.base(region, 0) // sb
                want[lo:lo + self.n] = after.words[lo:lo + self.n]
            before.append(self.to_bytes(words))
            expect.append(self.to_bytes(want))
        tail = bytes(self.rng.getrandbits(8) for _ in range(self.ram_bytes() - count * self.stride))
        self.ram.write(0, b"".join(before) + tail)
        self.reset_counts()
        self.dut.io_count.value = count
        traffic = lambda: (sum(len(x[0]) + len(x[1]) for x in self.seen.values()), self.w_beats)
        promise = self.m["latency"] + (count - 1) * self.batch["steady_cycles_per_product"] if count else 0
        cycles = await self.run_to_done(label, 50 * max(promise, 100) + 20000, traffic)
        assert not self.order_errors, f"{label}: order of passes: {self.order_errors[0]}"
        got = self.ram.read(0, self.ram_bytes())
        for j, (a, b) in enumerate(ops):
            img = got[j * self.stride:(j + 1) * self.stride]
            c = self.region_words(img, "c")
            ref = negacyclic_reference(a, b, self.n, q)
            bad = [i for i in range(self.n) if c[i] != ref[i]]
            assert not bad, (f"{label}: product {j} ({patterns[j]}): c differs from the schoolbook a b mod (x^n + 1, {q}) at "
                             f"{len(bad)} coefficients, first c[{bad[0]}] = {c[bad[0]]}, expected {ref[bad[0]]}")
            self.diff_memory(f"{label}: product {j}", img, expect[j], "the model's image")
            for u, name in enumerate(UNITS):
                seen = self.seen.get((u, j), ([], []))
                for ch, k in (("AR", 0), ("AW", 1)):
                    g, w = seen[k], self.expected[name][k]
                    if name == "rows":
                        assert Counter(g) == Counter(w), f"{label}: product {j}: {name} {ch} bursts are not the schedule's as a multiset"
                    else:
                        assert g == w, f"{label}: product {j}: {name} {ch} bursts are not the schedule's, in order"
        assert got[count * self.stride:] == tail, f"{label}: a write beyond the batch's {count} products"
        r = {"test": label, "patterns": list(patterns), "count": count, "pause": self.pause, "cycles": cycles,
             "promise": promise, "ratio": round(cycles / promise, 4) if promise else None,
             "sequential_promise": count * self.m["latency"], "active_edges": dict(zip(UNITS, self.active_edges)),
             "all_units_active_edges": self.all_active_edges, "max_reads_in_flight": self.max_reads_in_flight,
             "max_writes_in_flight": self.max_writes_in_flight}
        LOG.info("%s: %d products in %d cycles; the promise %s (ratio %s); one at a time %d; units active %s, all three %d",
                 label, count, cycles, promise, r["ratio"], r["sequential_promise"], r["active_edges"], self.all_active_edges)
        return r


async def _bench(dut, salt):
    return await start_bench(BatchBench, dut, salt)


@cocotb.test()
async def batch_no_pauses(dut):
    """A batch of four, no pauses: random, all q - 1 both, one-hot times x^(n-1), zero times all q - 1; then a batch
    of one (x^(n-1) squared) and an empty batch."""
    tb = await _bench(dut, 0)
    results = [await tb.run_batch(("random", "max", "onehot_xn1", "zero_max"), "batch_no_pauses:four")]
    results.append(await tb.run_batch(("xn1",), "batch_no_pauses:one"))
    results.append(await tb.run_batch((), "batch_no_pauses:empty"))
    tb.record("batch", results)


@cocotb.test()
async def batch_back_pressure(dut):
    """A batch of three (random, one-hot, random) with AR, R, AW, W and B each paused in 30% of cycles."""
    tb = await _bench(dut, 1)
    tb.set_pauses(float(os.environ.get("MODFORGE_PAUSE", "0.3")))
    tb.record("batch", [await tb.run_batch(("random", "onehot", "random"), "batch_back_pressure:three")])


@cocotb.test()
async def batch_slow_b(dut):
    """A batch of three random products with B alone paused in 90% of cycles: a unit's last B comes late, so a unit
    that started a product before the unit ahead of it was done with it shows in the order check."""
    tb = await _bench(dut, 2)
    rng = random.Random(tb.rng.random())
    tb.ram.write_if.b_channel.set_pause_generator(random_pauses(rng, 0.9))
    tb.pause = 0.9
    tb.record("batch", [await tb.run_batch(("random", "random", "random"), "batch_slow_b:three")])
