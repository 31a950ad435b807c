"""cocotb bench for the one-limb multi-pass engine (``mpoly_...``, hw/.../multipass/MultipassEngine.scala): the
three passes (columns, rows, columns_inverse) chained behind one AXI4 master, the memory cocotbext-axi's ``AxiRam``.

Each product: a and b (mod q) are written into regions a and b (``Layout``/``Memory`` addressing,
``Memory.to_bytes()``), random garbage into x, y and c; ``start``; wait for ``done``. What is checked:

- **c against an independent oracle:** the negacyclic product a b mod (x^n + 1, q) computed here with Python big
  ints (Kronecker substitution: one integer product, then the wrap), sharing no code with the model or the RTL;
- **y against the model after columns** (``MultipassModel(p).run(..., until="columns")``): y is not overwritten
  by the later passes;
- **the memory afterwards, whole,** against the model's image after all passes (``run(...)``: x holds Z, y Y, c
  the product) with the garbage wherever no pass writes: a stray write shows;
- **the bursts:** per pass (by ``io_pass`` at the handshake), AR and AW equal the pass's bursts in ``schedule(p)``,
  in order for the column passes and as a multiset for rows (its order interleaves x and y by chunk,
  docs/polymul_multipass.md); at most ``outstanding`` in flight;
- **the pass boundary:** no AR or AW of a pass while a read or a write of the previous pass is outstanding (its
  R beats and B responses all in); nothing moves after ``done``; no error response.

Cycles: from the edge that takes ``start`` to the one that sets ``done``, and per pass (``io_pass``), against the
model's ``costs(p).cycles()`` and the same plus each pass's fill (columns: 2 n1 be / R + the NTT's latency;
rows: the engine's latency). They go to the log and to ``engine_cycles_<test>.json`` beside the simulation.

Environment: MODFORGE_MANIFEST (required), MODFORGE_SEED (default 1), MODFORGE_PAUSE (default 0.3), MODFORGE_CLK_NS.
"""
import json
import logging
import os
import random
from collections import Counter
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge

from cocotbext.axi import AxiBus, AxiRam

from bench_common import start_bench
from polymul.multipass import MultipassModel, MultipassParams
from polymul.multipass_schedule import Layout, Memory, costs, schedule

LOG = logging.getLogger("cocotb.multipass_engine")
PASSES = ("columns", "rows", "columns_inverse")


def schoolbook_negacyclic(a, b, n, q):
    """a b mod (x^n + 1, q) by Kronecker substitution in Python big ints (no NTT, nothing of the model's)."""
    k = 2 * q.bit_length() + n.bit_length() + 2       # a coefficient of the full product fits k bits
    A = sum(int(x) << (k * i) for i, x in enumerate(a))
    B = sum(int(x) << (k * i) for i, x in enumerate(b))
    C = A * B
    mask = (1 << k) - 1
    full = [(C >> (k * i)) & mask for i in range(2 * n)]
    return [(full[i] - full[i + n]) % q for i in range(n)]


def random_pauses(rng: random.Random, p: float):
    while True:
        yield rng.random() < p


class EngineBench:
    def __init__(self, dut, m: dict, seed: int):
        self.dut, self.m = dut, m
        self.rng = random.Random(seed)
        self.p = MultipassParams(n=m["n"], primes=(m["prime"],), n1=m["n1"], lanes=m["lanes"], bus_bits=m["bus_bits"],
                                 burst_beats=m["burst_beats"], limb_bits=m["limb_bits"], slot_bits=m["slot_bits"])
        assert self.p.psis[0] == m["psi"], f"the design's psi {m['psi']} is not the model's {self.p.psis[0]}"
        self.model = MultipassModel(self.p)
        self.layout = Layout(self.p)
        assert self.layout.region_bytes == m["region_bytes"], (self.layout.region_bytes, m["region_bytes"])
        for r, base in m["region_bases"].items():
            assert self.layout.base(r, 0) == base, f"region {r}: the design's base {base:#x}, the layout's {self.layout.base(r, 0):#x}"
        self.n, self.n1, self.n2, self.q = m["n"], m["n1"], m["n2"], m["prime"]
        self.s = m["slot_bits"]
        self.slot_bytes = self.s // 8
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
        self.ram = AxiRam(AxiBus.from_prefix(dut, "mem"), dut.clk, dut.reset, size=self.layout.total_bytes)
        for log in (self.ram.write_if.log, self.ram.read_if.log):
            log.setLevel(logging.WARNING)
        self.pause = 0.0
        self.edge = 0
        self.reset_counts()

    def reset_counts(self):
        self.seen = {ps: ([], []) for ps in PASSES}
        self.w_beats = 0
        self.reads_in_flight = self.writes_in_flight = 0
        self.max_reads_in_flight = self.max_writes_in_flight = 0
        self.last_pass = None
        self.pass_edges = {}     # pass -> [first edge active, last edge active]
        self.boundary_errors = []

    async def start(self, clk_ns: float):
        d = self.dut
        cocotb.start_soon(Clock(d.clk, clk_ns, unit="ns").start())
        d.io_start.value = 0
        d.reset.value = 1
        for _ in range(4):
            await RisingEdge(d.clk)
        d.reset.value = 0
        for _ in range(4):
            await RisingEdge(d.clk)
        cocotb.start_soon(self._monitor())

    def set_pauses(self, p: float):
        chans = (self.ram.read_if.ar_channel, self.ram.read_if.r_channel, self.ram.write_if.aw_channel,
                 self.ram.write_if.w_channel, self.ram.write_if.b_channel)
        for ch in chans:
            ch.set_pause_generator(random_pauses(random.Random(self.rng.random()), p) if p else None)
        self.pause = p

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
        while True:
            await RisingEdge(d.clk)
            self.edge += 1
            pidx = int(d.io_pass.value)
            if pidx:
                e = self.pass_edges.setdefault(PASSES[pidx - 1], [self.edge, self.edge])
                e[1] = self.edge
            if int(d.mem_arvalid.value) and int(d.mem_arready.value):
                self._boundary("AR", pidx)
                if pidx:
                    self.seen[PASSES[pidx - 1]][0].append((int(d.mem_araddr.value), int(d.mem_arlen.value)))
                self.reads_in_flight += 1
                self.max_reads_in_flight = max(self.max_reads_in_flight, self.reads_in_flight)
            if int(d.mem_rvalid.value) and int(d.mem_rready.value) and int(d.mem_rlast.value):
                self.reads_in_flight -= 1
            if int(d.mem_awvalid.value) and int(d.mem_awready.value):
                self._boundary("AW", pidx)
                if pidx:
                    self.seen[PASSES[pidx - 1]][1].append((int(d.mem_awaddr.value), int(d.mem_awlen.value)))
                self.writes_in_flight += 1
                self.max_writes_in_flight = max(self.max_writes_in_flight, self.writes_in_flight)
            if int(d.mem_wvalid.value) and int(d.mem_wready.value):
                self.w_beats += 1
            if int(d.mem_bvalid.value) and int(d.mem_bready.value):
                self.writes_in_flight -= 1
            assert self.reads_in_flight <= self.m["outstanding"], f"{self.reads_in_flight} read bursts in flight"
            assert self.writes_in_flight <= 3 * self.m["outstanding"], f"{self.writes_in_flight} write bursts unacknowledged"

    # ---- operands ----
    def operands(self, pattern: str):
        n, q, rng = self.n, self.q, self.rng
        if pattern == "random":
            return [rng.randrange(q) for _ in range(n)], [rng.randrange(q) for _ in range(n)]
        if pattern == "max":            # all q - 1, both
            return [q - 1] * n, [q - 1] * n
        if pattern == "zero":           # zero, and random
            return [0] * n, [rng.randrange(q) for _ in range(n)]
        if pattern == "onehot":         # a random one-hot coefficient, and random
            a = [0] * n
            a[rng.randrange(n)] = rng.randrange(1, q)
            return a, [rng.randrange(q) for _ in range(n)]
        if pattern == "xn1":            # x^(n-1) times x^(n-1) = -x^(n-2)
            a = [0] * n
            a[n - 1] = 1
            return a, list(a)
        if pattern == "onehot_xn1":     # a one-hot coefficient times x^(n-1)
            a = [0] * n
            a[rng.randrange(n)] = rng.randrange(1, q)
            b = [0] * n
            b[n - 1] = 1
            return a, b
        raise ValueError(pattern)

    def to_bytes(self, words) -> bytes:
        return b"".join(int(w).to_bytes(self.slot_bytes, "little") for w in words)

    def region(self, data: bytes, region: str):
        at = self.layout.base(region, 0)
        sb = self.slot_bytes
        return [int.from_bytes(data[at + i * sb:at + (i + 1) * sb], "little") for i in range(self.n)]

    # ---- a product ----
    async def run_product(self, pattern: str, label: str) -> dict:
        d = self.dut
        a, b = self.operands(pattern)
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
        while int(d.io_busy.value):
            await RisingEdge(d.clk)
        d.io_start.value = 1
        await RisingEdge(d.clk)
        start_edge = self.edge
        d.io_start.value = 0
        edges, limit = 0, 50 * self.costs.cycles() + 20000
        while True:
            await RisingEdge(d.clk)
            edges += 1
            if int(d.io_done.value):
                break
            assert edges < limit, f"{label}: no done after {limit} cycles"
        cycles = edges - 1
        counts = (sum(len(x[0]) + len(x[1]) for x in self.seen.values()), self.w_beats)
        for _ in range(20):
            await RisingEdge(d.clk)
        assert counts == (sum(len(x[0]) + len(x[1]) for x in self.seen.values()), self.w_beats), f"{label}: traffic after done"
        assert not int(d.io_respError.value), f"{label}: an error response"
        assert not self.boundary_errors, f"{label}: pass boundary: {self.boundary_errors[0]}"
        got = self.ram.read(0, len(expect_bytes))

        # c against the independent oracle
        c = self.region(got, "c")
        ref = schoolbook_negacyclic(a, b, self.n, self.q)
        bad = [i for i in range(self.n) if c[i] != ref[i]]
        assert not bad, (f"{label}: c differs from the schoolbook a b mod (x^n + 1, {self.q}) at {len(bad)} coefficients, "
                         f"first c[{bad[0]}] = {c[bad[0]]}, expected {ref[bad[0]]}")
        # y against the model after columns
        y = self.region(got, "y")
        lo = lay.base("y", 0) // self.slot_bytes
        y_model = after_columns.words[lo:lo + self.n]
        bad = [i for i in range(self.n) if y[i] != y_model[i]]
        assert not bad, f"{label}: y differs from the model's after columns at {len(bad)} slots, first {bad[0]}: {y[bad[0]]}, expected {y_model[bad[0]]}"
        # the whole memory
        if got != expect_bytes:
            sb = self.slot_bytes
            badb = [i for i in range(0, len(expect_bytes), sb) if got[i:i + sb] != expect_bytes[i:i + sb]]
            at = badb[0]
            region = at // lay.region_bytes
            raise AssertionError(f"{label}: {len(badb)} slots differ from the model's image; first at byte {at:#x} (region "
                                 f"{'abxyc'[region] if region < 5 else '?'}): {int.from_bytes(got[at:at + sb], 'little')}, "
                                 f"expected {int.from_bytes(expect_bytes[at:at + sb], 'little')}")
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

    def record(self, name, results):
        out = Path(os.environ.get("COCOTB_RESULTS_FILE", "results.xml")).parent
        (out / f"engine_cycles_{name}.json").write_text(json.dumps(results, indent=1) + "\n")


async def _bench(dut, salt):
    return await start_bench(EngineBench, dut, salt)


@cocotb.test()
async def engine_no_pauses(dut):
    """Products back to back, no pauses: random, all q - 1 both, zero, one-hot, x^(n-1) squared, one-hot times x^(n-1)."""
    tb = await _bench(dut, 0)
    results = []
    for pattern in ("random", "max", "zero", "onehot", "xn1", "onehot_xn1"):
        results.append(await tb.run_product(pattern, f"engine_no_pauses:{pattern}"))
    tb.record("engine_no_pauses", results)


@cocotb.test()
async def engine_back_pressure(dut):
    """Random, all q - 1 and one-hot times x^(n-1) products with AR, R, AW, W and B each paused in 30% of cycles."""
    tb = await _bench(dut, 1)
    tb.set_pauses(float(os.environ.get("MODFORGE_PAUSE", "0.3")))
    results = []
    for pattern in ("random", "max", "onehot_xn1"):
        results.append(await tb.run_product(pattern, f"engine_back_pressure:{pattern}"))
    tb.record("engine_back_pressure", results)


@cocotb.test()
async def engine_slow_b(dut):
    """A random product with B alone paused in 90% of cycles: each pass's last B comes late, so a pass that started
    before the previous pass's writes were all acknowledged shows in the boundary check."""
    tb = await _bench(dut, 2)
    rng = random.Random(tb.rng.random())
    tb.ram.write_if.b_channel.set_pause_generator(random_pauses(rng, 0.9))
    tb.pause = 0.9
    tb.record("engine_slow_b", [await tb.run_product("random", "engine_slow_b:random")])
