"""cocotb bench for the one-limb multi-pass engine (``mpoly_...``, hw/.../multipass/MultipassEngine.scala): the
three passes (columns, rows, columns_inverse) chained behind one AXI4 master, the memory cocotbext-axi's ``AxiRam``.

Each product: a and b (mod q) are written into regions a and b (``Layout``/``Memory`` addressing,
``Memory.to_bytes()``), random garbage into x, y and c; ``start``; wait for ``done``. What is checked:

- **c against an independent oracle:** the negacyclic product a b mod (x^n + 1, q) in Python big ints
  (``polymul.stream.negacyclic_reference``: schoolbook, or one Kronecker-substituted integer product above n = 256;
  never an NTT), sharing no code with the model or the RTL;
- **y against the model after columns** (``MultipassModel(p).run(..., until="columns")``): y is not overwritten
  by the later passes;
- **the memory afterwards, whole,** against the model's image after all passes (``run(...)``: x holds Z, y Y, c
  the product) with the garbage wherever no pass writes: a stray write shows;
- **the bursts:** per pass (by ``io_pass`` at the handshake), AR and AW equal the pass's bursts in ``schedule(p)``,
  in order for the column passes and as a multiset for rows (its order interleaves x and y by chunk,
  docs/polymul_multipass.md); at most ``outstanding`` in flight; INCR bursts of the bus's size, none across 4 KB;
- **the protocol** on AR, AW and W: a valid not yet taken stays up with its payload unchanged; full WSTRB and WLAST
  on every burst_beats-th beat;
- **the pass boundary:** no AR or AW of a pass while a read or a write of the previous pass is outstanding (its
  R beats and B responses all in); nothing moves after ``done``; no error response.

Cycles: from the edge that takes ``start`` to the one that sets ``done``, and per pass (``io_pass``), against the
model's ``costs(p).cycles()`` and the same plus each pass's fill (columns: 2 n1 be / R + the NTT's latency;
rows: the engine's latency). They go to the log and to ``engine_cycles_<test>.json`` beside the simulation.

Environment: MODFORGE_MANIFEST (required), MODFORGE_SEED (default 1), MODFORGE_PAUSE (default 0.3), MODFORGE_CLK_NS.
"""
import logging
import os
import random
from collections import Counter

import cocotb
from cocotb.triggers import RisingEdge

from axi_memory_bench import AxiMemoryBench, random_pauses
from bench_common import start_bench
from polymul.multipass import MultipassModel, MultipassParams
from polymul.multipass_schedule import Memory, costs, schedule
from polymul.stream import negacyclic_reference

LOG = logging.getLogger("cocotb.multipass_engine")
PASSES = ("columns", "rows", "columns_inverse")


class EngineBench(AxiMemoryBench):
    post_reset_edges = 4     # the NTT units' reset trees: their streams open two edges after reset

    def __init__(self, dut, m: dict, seed: int):
        p = MultipassParams(n=m["n"], primes=(m["prime"],), n1=m["n1"], lanes=m["lanes"], bus_bits=m["bus_bits"],
                            burst_beats=m["burst_beats"], limb_bits=m["limb_bits"], slot_bits=m["slot_bits"])
        assert p.psis[0] == m["psi"], f"the design's psi {m['psi']} is not the model's {p.psis[0]}"
        super().__init__(dut, m, seed, p)
        self.model = MultipassModel(self.p)
        for r, base in m["region_bases"].items():
            assert self.layout.base(r, 0) == base, f"region {r}: the design's base {base:#x}, the layout's {self.layout.base(r, 0):#x}"
        self.q = m["prime"]
        self.costs = costs(self.p)
        self.expected = {}
        for ps, blocks in schedule(self.p):
            ar, aw = [], []
            for blk in blocks:
                ar += [(b.addr, b.beats - 1) for b in blk.reads]
                aw += [(b.addr, b.beats - 1) for b in blk.writes]
            self.expected[ps.name] = (ar, aw)
        assert tuple(self.expected) == PASSES, tuple(self.expected)
        be = m["be"]
        self.fills = {
            "columns": 2 * m["n1"] * be // m["columns"]["row_lanes"] + m["columns"]["ntt_latency_cycles"],
            "rows": m["rows"]["engine_latency_cycles"],
            "columns_inverse": 2 * m["n1"] * be // m["columns_inverse"]["row_lanes"] + m["columns_inverse"]["ntt_latency_cycles"],
        }
        self.reset_counts()

    def reset_counts(self):
        self.seen = {ps: ([], []) for ps in PASSES}
        self.w_beats = 0
        self.reset_bursts()
        self.last_pass = None
        self.pass_edges = {}     # pass -> [first edge active, last edge active]
        self.boundary_errors = []

    def monitors(self):
        return [self._monitor()]

    def _boundary(self, ch: str, pidx: int):
        """An AR or AW of pass pidx: the previous pass's reads and writes must all be complete."""
        if pidx == 0:
            self.boundary_errors.append(f"{ch} while no pass is active")
            return
        if self.last_pass is not None and pidx != self.last_pass and (self.reads_in_flight or self.writes_in_flight):
            self.boundary_errors.append(
                f"the first {ch} of {PASSES[pidx - 1]} with {self.reads_in_flight} read and {self.writes_in_flight} write "
                f"bursts of {PASSES[self.last_pass - 1]} outstanding")
        self.last_pass = pidx
        assert not self.boundary_errors, f"pass boundary: {self.boundary_errors[0]}"   # at once, in the monitor

    async def _monitor(self):
        d = self.dut
        sigs = self.axi_channels()
        while True:
            await RisingEdge(d.clk)
            self.edge += 1
            pidx = int(d.io_pass.value)
            if pidx:
                e = self.pass_edges.setdefault(PASSES[pidx - 1], [self.edge, self.edge])
                e[1] = self.edge
            fired = self.handshakes(sigs)
            for ch, k in (("ar", 0), ("aw", 1)):
                if fired[ch]:
                    addr, ln, sz, burst = (int(x.value) for x in sigs[ch][2])
                    self.check_burst(ch.upper(), addr, ln, sz, burst)
                    # Before count_bursts: the boundary check reads the previous pass's bursts still in flight.
                    self._boundary(ch.upper(), pidx)
                    if pidx:
                        self.seen[PASSES[pidx - 1]][k].append((addr, ln))
            if fired["w"]:
                self.check_w_beat(self.w_beats, int(d.mem_wstrb.value), int(d.mem_wlast.value))
                self.w_beats += 1
            self.count_bursts(fired["ar"], fired["aw"], self.m["outstanding"], 3 * self.m["outstanding"])

    # ---- a product ----
    async def run_product(self, pattern: str, label: str) -> dict:
        a, b = self.operands(pattern, self.q)
        lay = self.layout
        mem = Memory(self.p)
        mem.load("a", 0, a)
        mem.load("b", 0, b)
        before = list(mem.words)
        for region in ("x", "y", "c"):
            lo = lay.base(region, 0) // self.slot_bytes
            for i in range(lo, lo + lay.region_bytes // self.slot_bytes):
                before[i] = self.rng.getrandbits(self.s)
        after = self.model.run([a], [b])
        after_columns = self.model.run([a], [b], until="columns")
        expect = list(before)
        for region in ("x", "y", "c"):
            lo = lay.base(region, 0) // self.slot_bytes
            expect[lo:lo + self.n] = after.words[lo:lo + self.n]
        before_bytes, expect_bytes = self.to_bytes(before), self.to_bytes(expect)
        self.ram.write(0, before_bytes)
        self.reset_counts()
        cycles = await self.run_to_done(label, 50 * self.costs.cycles() + 20000,
                                        lambda: (sum(len(x[0]) + len(x[1]) for x in self.seen.values()), self.w_beats))
        assert not self.boundary_errors, f"{label}: pass boundary: {self.boundary_errors[0]}"
        got = self.ram.read(0, len(expect_bytes))

        # c against the independent oracle
        c = self.region_words(got, "c")
        ref = negacyclic_reference(a, b, self.n, self.q)
        bad = [i for i in range(self.n) if c[i] != ref[i]]
        assert not bad, (f"{label}: c differs from the schoolbook a b mod (x^n + 1, {self.q}) at {len(bad)} coefficients, "
                         f"first c[{bad[0]}] = {c[bad[0]]}, expected {ref[bad[0]]}")
        # y against the model after columns
        y = self.region_words(got, "y")
        lo = lay.base("y", 0) // self.slot_bytes
        y_model = after_columns.words[lo:lo + self.n]
        bad = [i for i in range(self.n) if y[i] != y_model[i]]
        assert not bad, f"{label}: y differs from the model's after columns at {len(bad)} slots, first {bad[0]}: {y[bad[0]]}, expected {y_model[bad[0]]}"
        self.diff_memory(label, got, expect_bytes, "the model's image")
        # the bursts, pass by pass
        for ps in PASSES:
            for ch, k in (("AR", 0), ("AW", 1)):
                seen, want = self.seen[ps][k], self.expected[ps][k]
                if ps == "rows":
                    assert Counter(seen) == Counter(want), f"{label}: {ps} {ch} bursts are not the schedule's as a multiset"
                else:
                    for i, (g, w) in enumerate(zip(seen, want)):
                        assert g == w, f"{label}: {ps} {ch} burst {i} is {g[0]:#x} len {g[1]}, the schedule's {w[0]:#x} len {w[1]}"
                    assert len(seen) == len(want), f"{label}: {ps}: {len(seen)} {ch} bursts, the schedule has {len(want)}"

        per_pass = {}
        for ps, cost in zip(PASSES, self.costs.passes):
            first, last = self.pass_edges[ps]
            per_pass[ps] = {"cycles": last - first + 1, "model": cost.cycles(), "fill": self.fills[ps]}
        model = self.costs.cycles()
        fill = sum(self.fills.values())
        r = {"test": label, "pattern": pattern, "pause": self.pause, "cycles": cycles, "model_cycles": model,
             "fill": fill, "ratio": round(cycles / model, 4), "ratio_with_fill": round(cycles / (model + fill), 4),
             "passes": per_pass, "max_reads_in_flight": self.max_reads_in_flight,
             "max_writes_in_flight": self.max_writes_in_flight}
        LOG.info("%s: %d cycles; the model's %d (ratio %.3f), %d with the fills %s (ratio %.3f); per pass %s", label, cycles,
                 model, cycles / model, model + fill, self.fills, cycles / (model + fill), per_pass)
        return r


async def _bench(dut, salt):
    return await start_bench(EngineBench, dut, salt)


@cocotb.test()
async def engine_no_pauses(dut):
    """Products back to back, no pauses: random, all q - 1 both, zero, one-hot, x^(n-1) squared, one-hot times x^(n-1)."""
    tb = await _bench(dut, 0)
    results = []
    for pattern in ("random", "max", "zero", "onehot", "xn1", "onehot_xn1"):
        results.append(await tb.run_product(pattern, f"engine_no_pauses:{pattern}"))
    tb.record("engine", results)


@cocotb.test()
async def engine_back_pressure(dut):
    """Random, all q - 1 and one-hot times x^(n-1) products with AR, R, AW, W and B each paused in 30% of cycles."""
    tb = await _bench(dut, 1)
    tb.set_pauses(float(os.environ.get("MODFORGE_PAUSE", "0.3")))
    results = []
    for pattern in ("random", "max", "onehot_xn1"):
        results.append(await tb.run_product(pattern, f"engine_back_pressure:{pattern}"))
    tb.record("engine", results)


@cocotb.test()
async def engine_slow_b(dut):
    """A random product with B alone paused in 90% of cycles: each pass's last B comes late, so a pass that started
    before the previous pass's writes were all acknowledged shows in the boundary check."""
    tb = await _bench(dut, 2)
    rng = random.Random(tb.rng.random())
    tb.ram.write_if.b_channel.set_pause_generator(random_pauses(rng, 0.9))
    tb.pause = 0.9
    tb.record("engine", [await tb.run_product("random", "engine_slow_b:random")])
