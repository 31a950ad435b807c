"""cocotb bench for the multi-pass engine (``mpoly_...``, hw/.../multipass/MultipassEngine.scala): the three passes
(columns, rows, columns_inverse) chained behind one AXI4 master, the memory cocotbext-axi's ``AxiRam``; or L such
engines side by side (``mpoly_..._k<L>``, MultipassLimbs.scala), each limb's bursts told apart by the ID's upper
bits, a and b drawn mod Q = q_0 ... q_(L-1), each limb checked mod q_l and their CRT mod Q.

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

Environment: MODFORGE_MANIFEST (required), MODFORGE_SEED (default 1), MODFORGE_PAUSE (default 0.3), MODFORGE_CLK_NS,
MODFORGE_ENGINE_INPUTS (engine_no_pauses's products, comma-separated; default all six).
"""
import logging
import os
import random
from collections import Counter

import cocotb
from cocotb.triggers import RisingEdge

from axi_memory_bench import AxiMemoryBench, random_pauses
from bench_common import start_bench
from polymul.multipass import MultipassModel
from polymul.multipass_manifest import manifest_params, manifest_primes
from polymul.multipass_schedule import Memory, costs, schedule
from polymul.stream import negacyclic_reference

LOG = logging.getLogger("cocotb.multipass_engine")
PASSES = ("columns", "rows", "columns_inverse")
ALL_INPUTS = ("random", "max", "zero", "onehot", "xn1", "onehot_xn1")
INPUTS = tuple(x for x in os.environ.get("MODFORGE_ENGINE_INPUTS", ",".join(ALL_INPUTS)).split(",") if x)
assert set(INPUTS) <= set(ALL_INPUTS), f"MODFORGE_ENGINE_INPUTS: {INPUTS} not among {ALL_INPUTS}"


class EngineBench(AxiMemoryBench):
    """One engine (``multipass_engine``: one limb) or L side by side (``multipass_limbs``): engine l on limb l's
    regions, its bursts told apart by the ID's upper bits (the arbiters put the limb above the engine's one ID bit)."""
    post_reset_edges = 4     # the NTT units' reset trees: their streams open two edges after reset

    def __init__(self, dut, m: dict, seed: int):
        primes = manifest_primes(m)
        p = manifest_params(m, limb_mode="side")
        psis = m["psis"] if "psis" in m else [m["psi"]]
        assert list(p.psis) == list(psis), f"the design's psi {psis} are not the model's {p.psis}"
        super().__init__(dut, m, seed, p)
        self.model = MultipassModel(self.p)
        self.L = len(primes)
        self.primes = primes
        self.Q = 1
        for q in primes:
            self.Q *= q
        bases = m["region_bases"] if isinstance(m["region_bases"], list) else [m["region_bases"]]
        for l, rb in enumerate(bases):
            for r, base in rb.items():
                assert self.layout.base(r, l) == base, f"limb {l}, region {r}: the design's base {base:#x}, the layout's {self.layout.base(r, l):#x}"
        # The model's cycles: the limbs on one port share its beats; with a port per limb, each port carries one limb's.
        one = manifest_params(m, primes[:1])
        self.costs = costs(self.p if m.get("axi_ports", 1) == 1 else one)
        self.expected = [{ps: ([], []) for ps in PASSES} for _ in range(self.L)]
        for ps, blocks in schedule(self.p):
            for blk in blocks:
                for b in blk.reads:
                    self.expected[b.limb][ps.name][0].append((b.addr, b.beats - 1))
                for b in blk.writes:
                    self.expected[b.limb][ps.name][1].append((b.addr, b.beats - 1))
        be = m["be"]
        if m.get("column_mode", "turn") == "stream":
            # Streamed columns (_c1): no corner turn; each column pass's fill is its NTT's latency, the rows pass's
            # the engine's and its two middle-twiddle stages' (the manifest's fill_cycles, MultipassEngineConfig).
            self.fills = dict(zip(PASSES, m["fill_cycles"]))
        else:
            self.fills = {
                "columns": 2 * m["n1"] * be // m["columns"]["row_lanes"] + m["columns"]["ntt_latency_cycles"],
                "rows": m["rows"]["engine_latency_cycles"],
                "columns_inverse": 2 * m["n1"] * be // m["columns_inverse"]["row_lanes"] + m["columns_inverse"]["ntt_latency_cycles"],
            }
        self.engine_id_bits = m["id_bits"] - (self.L - 1).bit_length() if self.L > 1 and len(self.ports) == 1 else None
        self.reset_counts()

    def reset_counts(self):
        self.seen = [{ps: ([], []) for ps in PASSES} for _ in range(self.L)]
        self.w_beats = {pfx: 0 for pfx in self.ports}      # per port: WLAST falls on every burst_beats-th beat of each
        self.reset_bursts()
        self.limb_reads = [0] * self.L       # each engine's bursts in flight, for its own pass boundaries
        self.limb_writes = [0] * self.L
        self.last_pass = [None] * self.L
        self.pass_edges = [{} for _ in range(self.L)]     # limb -> pass -> [first edge active, last edge active]
        self.boundary_errors = []

    def monitors(self):
        return [self._monitor()]

    def limb_of(self, sig) -> int:
        return int(sig.value) >> self.engine_id_bits if self.L > 1 else 0

    def _boundary(self, ch: str, limb: int, pidx: int):
        """An AR or AW of engine `limb`'s pass pidx: that engine's previous pass's reads and writes must all be complete."""
        if pidx == 0:
            self.boundary_errors.append(f"limb {limb}: {ch} while no pass is active")
        elif self.last_pass[limb] is not None and pidx != self.last_pass[limb] and (self.limb_reads[limb] or self.limb_writes[limb]):
            self.boundary_errors.append(
                f"limb {limb}: the first {ch} of {PASSES[pidx - 1]} with {self.limb_reads[limb]} read and {self.limb_writes[limb]} "
                f"write bursts of {PASSES[self.last_pass[limb] - 1]} outstanding")
        self.last_pass[limb] = pidx
        assert not self.boundary_errors, f"pass boundary: {self.boundary_errors[0]}"   # at once, in the monitor

    async def _monitor(self):
        d = self.dut
        ports = [(pfx, self.axi_channels(pfx)) for pfx in self.ports]
        passes = [d.io_pass] if self.L == 1 else [getattr(d, f"io_pass_{l}") for l in range(self.L)]
        shared = len(self.ports) == 1
        while True:
            await RisingEdge(d.clk)
            self.edge += 1
            pidx = [int(x.value) for x in passes]
            for l, pi in enumerate(pidx):
                if pi:
                    e = self.pass_edges[l].setdefault(PASSES[pi - 1], [self.edge, self.edge])
                    e[1] = self.edge
            for port, (pfx, sigs) in enumerate(ports):
                # One port: the limb is the ID's upper bits; a port per limb: the port's limb.
                limb_of = self.limb_of if shared else (lambda sig, port=port: port)
                fired = self.handshakes(sigs, pfx)
                for ch, k in (("ar", 0), ("aw", 1)):
                    if fired[ch]:
                        addr, ln, sz, burst = (int(x.value) for x in sigs[ch][2])
                        self.check_burst(ch.upper(), addr, ln, sz, burst)
                        idsig = self.sig(pfx, f"{ch}id")
                        limb = limb_of(idsig)
                        assert limb < self.L, f"{pfx} {ch.upper()} {addr:#x}: ID {int(idsig.value)} names no limb"
                        # Before counting: the boundary check reads the previous pass's bursts still in flight.
                        self._boundary(ch.upper(), limb, pidx[limb])
                        if pidx[limb]:
                            self.seen[limb][PASSES[pidx[limb] - 1]][k].append((addr, ln))
                        if k == 0:
                            self.limb_reads[limb] += 1
                        else:
                            self.limb_writes[limb] += 1
                if int(self.sig(pfx, "rvalid").value) and int(self.sig(pfx, "rready").value) and int(self.sig(pfx, "rlast").value):
                    self.limb_reads[limb_of(self.sig(pfx, "rid"))] -= 1
                if int(self.sig(pfx, "bvalid").value) and int(self.sig(pfx, "bready").value):
                    self.limb_writes[limb_of(self.sig(pfx, "bid"))] -= 1
                if fired["w"]:
                    self.check_w_beat(self.w_beats[pfx], int(self.sig(pfx, "wstrb").value), int(self.sig(pfx, "wlast").value))
                    self.w_beats[pfx] += 1
                out = self.m["outstanding"] * (self.L if shared else 1)
                self.count_bursts(fired["ar"], fired["aw"], out, 3 * out, pfx)

    # ---- a product ----
    async def run_product(self, pattern: str, label: str) -> dict:
        a, b = self.operands(pattern, self.Q)          # mod Q = q_0 ... q_(L-1); limb l holds them mod q_l
        al = [[x % q for x in a] for q in self.primes]
        bl = [[x % q for x in b] for q in self.primes]
        lay = self.layout
        mem = Memory(self.p)
        for l in range(self.L):
            mem.load("a", l, al[l])
            mem.load("b", l, bl[l])
        before = list(mem.words)
        for l in range(self.L):
            for region in ("x", "y", "c"):
                lo = lay.base(region, l) // self.slot_bytes
                for i in range(lo, lo + lay.region_bytes // self.slot_bytes):
                    before[i] = self.rng.getrandbits(self.s)
        after = self.model.run(al, bl)
        after_columns = self.model.run(al, bl, until="columns")
        expect = list(before)
        for l in range(self.L):
            for region in ("x", "y", "c"):
                lo = lay.base(region, l) // self.slot_bytes
                expect[lo:lo + self.n] = after.words[lo:lo + self.n]
        before_bytes, expect_bytes = self.to_bytes(before), self.to_bytes(expect)
        for ram in self.rams:
            ram.write(0, before_bytes)
        self.reset_counts()
        traffic = lambda: (sum(len(x[0]) + len(x[1]) for s in self.seen for x in s.values()), sum(self.w_beats.values()))
        cycles = await self.run_to_done(label, 50 * self.costs.cycles() + 20000, traffic)
        assert not self.boundary_errors, f"{label}: pass boundary: {self.boundary_errors[0]}"
        if len(self.rams) == 1:
            got = self.ram.read(0, len(expect_bytes))
        else:
            # A port per limb: limb l's five regions from memory l, and every memory otherwise untouched.
            imgs = [ram.read(0, len(expect_bytes)) for ram in self.rams]
            span = 5 * lay.region_bytes
            got = b"".join(imgs[l][l * span:(l + 1) * span] for l in range(self.L))
            for l, img in enumerate(imgs):
                want = before_bytes[:l * span] + expect_bytes[l * span:(l + 1) * span] + before_bytes[(l + 1) * span:]
                self.diff_memory(f"{label}: memory {l}", img, want, f"port {l}'s image (limb {l}'s regions written, the rest untouched)")

        # c against the independent oracle: each limb mod q_l, and their CRT against the product mod Q
        cs = [self.region_words(got, "c", l) for l in range(self.L)]
        for l, q in enumerate(self.primes):
            ref = negacyclic_reference(al[l], bl[l], self.n, q)
            bad = [i for i in range(self.n) if cs[l][i] != ref[i]]
            assert not bad, (f"{label}: limb {l}: c differs from the schoolbook a b mod (x^n + 1, {q}) at {len(bad)} "
                             f"coefficients, first c[{bad[0]}] = {cs[l][bad[0]]}, expected {ref[bad[0]]}")
        if self.L > 1:
            ref_Q = negacyclic_reference(a, b, self.n, self.Q)
            crt = [sum(cs[l][i] * (self.Q // q) * pow(self.Q // q, -1, q) for l, q in enumerate(self.primes)) % self.Q
                   for i in range(self.n)]
            assert crt == ref_Q, f"{label}: the CRT of the limbs is not a b mod (x^n + 1, Q)"
        # y against the model after columns
        for l in range(self.L):
            y = self.region_words(got, "y", l)
            lo = lay.base("y", l) // self.slot_bytes
            y_model = after_columns.words[lo:lo + self.n]
            bad = [i for i in range(self.n) if y[i] != y_model[i]]
            assert not bad, f"{label}: limb {l}: y differs from the model's after columns at {len(bad)} slots, first {bad[0]}"
        self.diff_memory(label, got, expect_bytes, "the model's image")
        # the bursts, limb by limb and pass by pass
        for l in range(self.L):
            for ps in PASSES:
                for ch, k in (("AR", 0), ("AW", 1)):
                    seen, want = self.seen[l][ps][k], self.expected[l][ps][k]
                    if ps == "rows":
                        assert Counter(seen) == Counter(want), f"{label}: limb {l}: {ps} {ch} bursts are not the schedule's as a multiset"
                    else:
                        for i, (g, w) in enumerate(zip(seen, want)):
                            assert g == w, f"{label}: limb {l}: {ps} {ch} burst {i} is {g[0]:#x} len {g[1]}, the schedule's {w[0]:#x} len {w[1]}"
                        assert len(seen) == len(want), f"{label}: limb {l}: {ps}: {len(seen)} {ch} bursts, the schedule has {len(want)}"

        per_pass = {}
        for ps, cost in zip(PASSES, self.costs.passes):
            spans = [self.pass_edges[l][ps] for l in range(self.L)]
            per_pass[ps] = {"cycles": max(e[1] for e in spans) - min(e[0] for e in spans) + 1, "model": cost.cycles(),
                            "fill": self.fills[ps]}
        model = self.costs.cycles()
        fill = sum(self.fills.values())
        r = {"test": label, "pattern": pattern, "pause": self.pause, "limbs": self.L, "ports": len(self.ports), "cycles": cycles, "model_cycles": model,
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
    # MODFORGE_ENGINE_INPUTS picks some (a gate-level run: verif/tests/test_gls.py, a product in some 17 minutes)
    for pattern in INPUTS:
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
    for ram in tb.rams:
        ram.write_if.b_channel.set_pause_generator(random_pauses(rng, 0.9))
    tb.pause = 0.9
    tb.record("engine", [await tb.run_product("random", "engine_slow_b:random")])


@cocotb.test(skip=os.environ.get("MODFORGE_ENGINE_LARGE") != "1")
async def engine_large(dut):
    """The large sets' run (verif/tests/test_multipass_large.py, under Verilator; skipped unless MODFORGE_ENGINE_LARGE=1):
    a random product without pauses, its cycles against the promise, then all q - 1 and one-hot times x^(n-1) with AR,
    R, AW, W and B each paused in 30% of cycles. Three products, where the other tests run ten: at n = 32768 a product
    is some 100,000 cycles a port. MODFORGE_LARGE_EDGES: the paused products' patterns (default "max,onehot_xn1")."""
    tb = await _bench(dut, 3)
    results = [await tb.run_product("random", "engine_large:random")]
    tb.set_pauses(float(os.environ.get("MODFORGE_PAUSE", "0.3")))
    for pattern in os.environ.get("MODFORGE_LARGE_EDGES", "max,onehot_xn1").split(","):
        results.append(await tb.run_product(pattern, f"engine_large:{pattern}"))
    tb.record("engine", results)
