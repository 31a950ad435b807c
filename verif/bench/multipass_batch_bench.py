"""cocotb bench for the multi-pass engine over a batch, its passes overlapped (``mpoly_..._t1``,
hw/.../multipass/MultipassBatch.scala), or L such engines side by side (``mpoly_..._k<L>..._t1``, MultipassLimbs.scala):
count products, product j's regions (five a limb) ``product_stride_bytes`` after product j - 1's, the memory
cocotbext-axi's ``AxiRam`` (one per port). With L limbs, a_j and b_j are drawn mod Q = q_0 ... q_(L-1), each limb is
checked mod q_l and their CRT mod Q, and bursts are told to their limb by the ID's upper bits or by their port.

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

**Primes loaded at run time** (``_t1_d1``, manifest ``loaded``): the limbs are MODFORGE_PRIMES (comma-separated, any
primes the engine takes; default the design's reference prime), ``io_limbs`` their count; their constants image
(``polymul.multipass_loaded.image``, the documented host helper) is placed after the batch at ``io_const_base``. Each
item's loads (ID unit 3) are checked as a multiset against the image's bursts for that limb and unit, and no other
read may touch the image.

Environment: MODFORGE_MANIFEST (required), MODFORGE_SEED (default 1), MODFORGE_PAUSE (default 0.3), MODFORGE_CLK_NS,
MODFORGE_BATCH (products per batch, default 4), MODFORGE_MEM_LATENCY (edges of memory latency beyond AxiRam's, default 0:
axi_latency), MODFORGE_PRIMES (a ``_d1`` design's limb primes), MODFORGE_IMAGE_FAULT (``<unit>:<word>``: flip a bit of
that word of limb 0's constants image, a test that must then fail).
"""
import logging
import os
import random
from collections import Counter, deque

import cocotb
from cocotb.triggers import RisingEdge

from cocotbext.axi import AxiLiteBus, AxiLiteMaster

from axi_memory_bench import AxiMemoryBench, random_pauses
from bench_common import start_bench
from polymul.multipass import MultipassModel
from polymul.multipass_loaded import check_primes, image as loaded_image
from polymul.multipass_manifest import manifest_params, manifest_primes
from polymul.multipass_schedule import Memory, schedule
from polymul.stream import negacyclic_reference

LOG = logging.getLogger("cocotb.multipass_batch")
UNITS = ("columns", "rows", "columns_inverse")


class BatchBench(AxiMemoryBench):
    """One batch engine (``multipass_batch``, one limb) or L side by side (``_k<L>_t1``): engine l on limb l's regions of
    every product, its bursts told apart by the ID's limb bits (one port) or by its port (``_y<L>``)."""
    post_reset_edges = 4     # the NTT units' reset trees: their streams open two edges after reset

    def __init__(self, dut, m: dict, seed: int):
        self.batch = m["batch"]
        self.count_max = int(os.environ.get("MODFORGE_BATCH", "4"))
        self.count = 0
        self.loaded = "loaded" in m
        if self.loaded:
            # Primes loaded at run time: any limbs the engine takes, a product L limbs' five regions each.
            given = os.environ.get("MODFORGE_PRIMES", str(m["loaded"]["reference_prime"]))
            self.primes = check_primes(m, [int(x) for x in given.split(",") if x.strip()])
            self.stride = len(self.primes) * self.batch["limb_stride_bytes"]
            self.image = loaded_image(m, self.primes)                # the documented host helper's image
            fault = os.environ.get("MODFORGE_IMAGE_FAULT")           # "<unit>:<word>": a wrong constant, to see red
            if fault:
                ld = m["loaded"]
                u, i = (int(x) for x in fault.split(":"))
                at = ld["units"][u]["offset_bytes"] + i * ld["word_bytes"]
                img = bytearray(self.image)
                img[at + (ld["k"] // 8)] ^= 1 << (ld["k"] % 8)           # W's lowest bit (a pair's) or bit k of a scalar
                self.image = bytes(img)
            self.const_base = -(-self.stride * self.count_max // 4096) * 4096
        else:
            self.primes = manifest_primes(m)
            self.stride = self.batch["product_stride_bytes"]
        p = manifest_params(m, primes=self.primes, limb_mode="side")
        super().__init__(dut, m, seed, p)
        assert self.stride == self.layout.total_bytes, (self.stride, self.layout.total_bytes)
        if not self.loaded:
            psis = m["psis"] if "psis" in m else [m["psi"]]
            assert list(p.psis) == list(psis), f"the design's psi {psis} are not the model's {p.psis}"
        self.L = len(self.primes)
        self.Q = 1
        for q in self.primes:
            self.Q *= q
        self.model = MultipassModel(self.p)
        self.shared = len(self.ports) == 1
        # Engines: one a limb (side by side), or with limbs in sequence (`_r<rounds>`, manifest `engine_limbs`) each
        # engine's limbs one after another; a burst's limb is then its address's, its engine the ID's (or port's).
        self.engine_limbs = ([list(range(self.L))] if self.loaded else
                             [list(ls) for ls in m.get("engine_limbs", [[l] for l in range(self.L)])])
        self.engine_of = {l: e for e, ls in enumerate(self.engine_limbs) for l in ls}
        self.E = len(self.engine_limbs)
        self.multi_top = "limbs" in m          # MultipassLimbs (io_active_<e>), not the one-limb MultipassBatch
        # The ID: the passes' own bit(s), the unit above them, the limb above that (one port shared by L engines).
        self.pass_id_bits = self.batch["id_bits"] - self.batch["unit_id_bits"]
        self.engine_id_bits = self.batch["id_bits"]
        # Each engine's units' bursts for one product (product 0's addresses), in the schedule's order.
        self.expected = {(l, u): ([], []) for l in range(self.L) for u in UNITS}
        for ps, blocks in schedule(self.p):
            for blk in blocks:
                for b in blk.reads:
                    self.expected[(b.limb, ps.name)][0].append((b.addr, b.beats - 1))
                for b in blk.writes:
                    self.expected[(b.limb, ps.name)][1].append((b.addr, b.beats - 1))
        self.span = 5 * self.layout.region_bytes                     # one limb's five regions
        if self.loaded:
            ld = m["loaded"]
            assert self.const_base % ld["align_bytes"] == 0
            # Each (limb, unit)'s loader bursts: the unit's image words in bursts of up to align_bytes (one burst).
            beat = m["bus_bits"] // 8
            burst = ld["align_bytes"] // beat
            self.loads = {}
            for l in range(self.L):
                for u, unit in enumerate(ld["units"]):
                    beats = max(1, -(-unit["words"] * ld["word_bytes"] // beat))
                    at = self.const_base + l * ld["limb_image_bytes"] + unit["offset_bytes"]
                    bursts = []
                    while beats:
                        b = min(burst, beats)
                        bursts.append((at, b - 1))
                        at += b * beat
                        beats -= b
                    self.loads[(l, u)] = bursts
        # An AXI4-Lite configuration port (`_a1`, manifest `config`): the batch's parameters and start are registers.
        self.regs = {r["name"]: r["offset"] for r in m["config"]["registers"]} if "config" in m else None
        self.lite = None
        if self.regs is not None:
            self.lite = AxiLiteMaster(AxiLiteBus.from_prefix(dut, m["config"]["prefix"]), dut.clk, dut.reset)
            self.lite.write_if.log.setLevel(logging.WARNING)
            self.lite.read_if.log.setLevel(logging.WARNING)
        self.reset_counts()

    def ram_bytes(self) -> int:
        if self.loaded:
            return self.const_base + len(self.image)
        return self.stride * self.count_max

    def idle_inputs(self) -> dict:
        if "config" in self.m:
            return {}
        if self.loaded:
            return {"io_start": 0, "io_count": 0, "io_limbs": 0, "io_const_base": 0}
        return {"io_start": 0, "io_count": 0}

    def reset_counts(self):
        self.seen = {}                                    # (limb, unit, product) -> ([AR], [AW]) at product 0's addresses
        self.w_beats = {pfx: 0 for pfx in self.ports}
        self.reset_bursts()
        self.queues = {(e, u): (deque(), deque()) for e in range(self.E) for u in range(4)}  # (product, limb) in flight
        self.loader_bursts = []                            # the loader's AR (ID unit 3), as taken
        self.active_edges = [0, 0, 0]                     # engine 0's units
        self.all_active_edges = 0
        self.order_errors = []

    def monitors(self):
        return [self._monitor()]

    def _complete(self, limb: int, unit: int, j: int) -> bool:
        """Limb `limb`'s unit `unit` is done with product j: all its bursts of j issued and answered."""
        ar, aw = self.seen.get((limb, unit, j), ([], []))
        want = self.expected[(limb, UNITS[unit])]
        q = self.queues[(self.engine_of[limb], unit)]
        return len(ar) == len(want[0]) and len(aw) == len(want[1]) and (j, limb) not in q[0] and (j, limb) not in q[1]

    def _previous(self, limb: int, j: int):
        """The item an engine's unit takes before (product j, limb): the engine's limb before, or its last of product j - 1."""
        ls = self.engine_limbs[self.engine_of[limb]]
        i = ls.index(limb)
        return (j, ls[i - 1]) if i > 0 else ((j - 1, ls[-1]) if j > 0 else None)

    def _order(self, ch: str, limb: int, unit: int, j: int):
        first = (limb, unit, j) not in self.seen
        if first and unit > 0 and not self._complete(limb, unit - 1, j):
            self.order_errors.append(f"limb {limb}: {UNITS[unit]}'s first {ch} of product {j} before {UNITS[unit - 1]} was done with it")
        prev = self._previous(limb, j)
        if first and prev is not None and not self._complete(prev[1], unit, prev[0]):
            self.order_errors.append(f"limb {limb}: {UNITS[unit]}'s first {ch} of product {j} before it was done with product "
                                     f"{prev[0]}'s limb {prev[1]}")
        assert not self.order_errors, f"order of passes: {self.order_errors[0]}"   # at once, in the monitor

    def _who(self, port: int, idval: int):
        """(engine, unit) of a burst or response by its port and ID."""
        unit = (idval >> self.pass_id_bits) & 3
        engine = (idval >> self.engine_id_bits) if self.shared else port
        return engine, unit

    async def _monitor(self):
        d = self.dut
        ports = [(i, pfx, self.axi_channels(pfx)) for i, pfx in enumerate(self.ports)]
        actives = [getattr(d, f"io_active_{e}") for e in range(self.E)] if self.multi_top else [d.io_active]
        out = 3 * self.m["outstanding"] * (self.E if self.shared else 1) + (2 if self.loaded else 0)   # the loader: 2 bursts
        while True:
            await RisingEdge(d.clk)
            self.edge += 1
            act = int(actives[0].value)
            for u in range(3):
                self.active_edges[u] += (act >> u) & 1
            self.all_active_edges += act == 7
            for port, pfx, sigs in ports:
                s = lambda name, pfx=pfx: self.sig(pfx, name)
                fired = self.handshakes(sigs, pfx)
                for ch, k in (("ar", 0), ("aw", 1)):
                    if fired[ch]:
                        addr, ln, sz, burst = (int(x.value) for x in sigs[ch][2])
                        self.check_burst(ch.upper(), addr, ln, sz, burst)
                        engine, unit = self._who(port, int(s(f"{ch}id").value))
                        if self.loaded and unit == 3:
                            # The constants loader: reads only, within the image.
                            assert ch == "ar", f"{pfx} AW {addr:#x} from the constants loader's ID"
                            assert self.const_base <= addr < self.const_base + len(self.image), \
                                f"{pfx} loader AR {addr:#x} outside the constants image"
                            self.loader_bursts.append((addr, ln))
                            self.queues[(engine, 3)][0].append(None)
                            continue
                        assert unit < 3 and engine < self.E, f"{pfx} {ch.upper()} {addr:#x}: ID {int(s(f'{ch}id').value)} names no unit"
                        j = addr // self.stride
                        if self.loaded:
                            assert addr < self.const_base, f"{pfx} {ch.upper()} {addr:#x}: a pass unit in the constants image"
                        assert j < self.count, f"{pfx} {ch.upper()} {addr:#x}: product {j}, beyond the batch of {self.count}"
                        limb = (addr - j * self.stride) // self.span
                        assert self.engine_of.get(limb) == engine, (f"{pfx} {ch.upper()} {addr:#x}: limb {limb}'s regions, "
                                                                    f"from engine {engine}, which does not serve it")
                        self._order(ch.upper(), limb, unit, j)
                        self.seen.setdefault((limb, unit, j), ([], []))[k].append((addr - j * self.stride, ln))
                        self.queues[(engine, unit)][k].append((j, limb))
                if int(s("rvalid").value) and int(s("rready").value) and int(s("rlast").value):
                    self.queues[self._who(port, int(s("rid").value))][0].popleft()
                if int(s("bvalid").value) and int(s("bready").value):
                    self.queues[self._who(port, int(s("bid").value))][1].popleft()
                if fired["w"]:
                    self.check_w_beat(self.w_beats[pfx], int(s("wstrb").value), int(s("wlast").value))
                    self.w_beats[pfx] += 1
                self.count_bursts(fired["ar"], fired["aw"], out, out, pfx)

    async def run_to_done(self, label: str, limit: int, traffic) -> int:
        """With an AXI4-Lite port: the parameters written to their registers (and read back), the start a write of
        `control`, done polled in `status`; the cycles are the design's own `cycles` register (no more than the edges
        since the start's write began)."""
        if self.lite is None:
            return await super().run_to_done(label, limit, traffic)
        d, r = self.dut, self.regs
        while int(d.io_busy.value):
            await RisingEdge(d.clk)
        await self.lite.write_dword(r["count"], self.count)
        if self.loaded:
            await self.lite.write_dword(r["limbs"], self.L)
            await self.lite.write_dword(r["const_base"], self.const_base)
            assert await self.lite.read_dword(r["limbs"]) == self.L
        assert await self.lite.read_dword(r["count"]) == self.count, f"{label}: count did not read back"
        before = self.edge
        await self.lite.write_dword(r["control"], 1)
        self.start_edge = self.edge
        # The host polls `status` (its done bit is sticky: an empty batch is done before the start's B returns).
        while not (await self.lite.read_dword(r["status"])) & 0b10:
            assert self.edge - before < limit, f"{label}: no done after {limit} cycles"
        await self.quiet_after_done(label, traffic)
        status = await self.lite.read_dword(r["status"])
        assert status & 0b111 == 0b010, f"{label}: status {status:#x} after done: want done, not busy, no error"
        cycles = await self.lite.read_dword(r["cycles"])
        assert cycles <= self.edge - before, f"{label}: the cycles register says {cycles}, more than the edges since the start's write"
        return cycles

    # ---- a batch ----
    async def run_batch(self, patterns, label: str) -> dict:
        count = len(patterns)
        assert count <= self.count_max, f"{count} products, the memory holds {self.count_max} (MODFORGE_BATCH)"
        self.count = count
        lay, sb, L = self.layout, self.slot_bytes, self.L
        ops = [self.operands(pt, self.Q) for pt in patterns]      # mod Q; limb l holds them mod q_l
        limbs = [([[x % q for x in a] for q in self.primes], [[x % q for x in b] for q in self.primes]) for a, b in ops]
        before, expect = [], []
        for al, bl in limbs:
            mem = Memory(self.p)
            for l in range(L):
                mem.load("a", l, al[l])
                mem.load("b", l, bl[l])
            words = list(mem.words)
            for l in range(L):
                for region in ("x", "y", "c"):
                    lo = lay.base(region, l) // sb
                    for i in range(lo, lo + lay.region_bytes // sb):
                        words[i] = self.rng.getrandbits(self.s)
            after = self.model.run(al, bl)
            want = list(words)
            for l in range(L):
                for region in ("x", "y", "c"):
                    lo = lay.base(region, l) // sb
                    want[lo:lo + self.n] = after.words[lo:lo + self.n]
            before.append(self.to_bytes(words))
            expect.append(self.to_bytes(want))
        tail = bytearray(self.rng.getrandbits(8) for _ in range(self.ram_bytes() - count * self.stride))
        if self.loaded:
            at = self.const_base - count * self.stride
            tail[at:at + len(self.image)] = self.image
            if self.lite is None:
                self.dut.io_limbs.value = L
                self.dut.io_const_base.value = self.const_base
        tail = bytes(tail)
        for ram in self.rams:
            ram.write(0, b"".join(before) + tail)
        self.reset_counts()
        if self.lite is None:
            self.dut.io_count.value = count
        traffic = lambda: (sum(len(x[0]) + len(x[1]) for x in self.seen.values()), sum(self.w_beats.values()))
        items = count * L if self.loaded else count
        steady = self.batch["steady_cycles_per_item" if self.loaded else "steady_cycles_per_product"]
        promise = self.m["latency"] + (items - 1) * steady if count else 0
        cycles = await self.run_to_done(label, 50 * max(promise, 100) + 20000, traffic)
        assert not self.order_errors, f"{label}: order of passes: {self.order_errors[0]}"
        span = 5 * lay.region_bytes                                  # one limb's five regions
        imgs = [ram.read(0, self.ram_bytes()) for ram in self.rams]
        for j in range(count):
            at = j * self.stride
            if self.shared:
                got = imgs[0][at:at + self.stride]
                self.diff_memory(f"{label}: product {j}", got, expect[j], "the model's image")
            else:
                # A port per engine: limb l's regions from its engine's memory, every other byte of that memory as
                # written before (side by side: engine l is limb l's).
                got = b"".join(imgs[self.engine_of[l]][at + l * span:at + (l + 1) * span] for l in range(L))
                for e, img in enumerate(imgs):
                    want = bytearray(before[j])
                    for l in self.engine_limbs[e]:
                        want[l * span:(l + 1) * span] = expect[j][l * span:(l + 1) * span]
                    self.diff_memory(f"{label}: product {j}, memory {e}", img[at:at + self.stride], bytes(want),
                                     f"port {e}'s image (its limbs' regions {self.engine_limbs[e]} written, the rest untouched)")
            al, bl = limbs[j]
            cs = [self.region_words(got, "c", l) for l in range(L)]
            for l, q in enumerate(self.primes):
                ref = negacyclic_reference(al[l], bl[l], self.n, q)
                bad = [i for i in range(self.n) if cs[l][i] != ref[i]]
                assert not bad, (f"{label}: product {j} ({patterns[j]}), limb {l}: c differs from the schoolbook a b mod "
                                 f"(x^n + 1, {q}) at {len(bad)} coefficients, first c[{bad[0]}] = {cs[l][bad[0]]}, expected {ref[bad[0]]}")
            if L > 1:
                a, b = ops[j]
                crt = [sum(cs[l][i] * (self.Q // q) * pow(self.Q // q, -1, q) for l, q in enumerate(self.primes)) % self.Q
                       for i in range(self.n)]
                assert crt == negacyclic_reference(a, b, self.n, self.Q), f"{label}: product {j}: the CRT of the limbs is not a b mod (x^n + 1, Q)"
            for l in range(L):
                for u, name in enumerate(UNITS):
                    seen = self.seen.get((l, u, j), ([], []))
                    for ch, k in (("AR", 0), ("AW", 1)):
                        g, w = seen[k], self.expected[(l, name)][k]
                        if name == "rows":
                            assert Counter(g) == Counter(w), f"{label}: product {j}, limb {l}: {name} {ch} bursts are not the schedule's as a multiset"
                        else:
                            assert g == w, f"{label}: product {j}, limb {l}: {name} {ch} bursts are not the schedule's, in order"
        for img in imgs:
            assert img[count * self.stride:] == tail, f"{label}: a write beyond the batch's {count} products"
        if self.loaded:
            want = Counter(b for j in range(count) for l in range(L) for u in range(3) for b in self.loads[(l, u)])
            assert Counter(self.loader_bursts) == want, (f"{label}: the constants loader's bursts are not each item's "
                                                        f"image, limb by limb: {len(self.loader_bursts)} taken, "
                                                        f"{sum(want.values())} expected")
        r = {"test": label, "patterns": list(patterns), "count": count, "limbs": L, "ports": len(self.ports), "pause": self.pause,
             "cycles": cycles, "promise": promise, "ratio": round(cycles / promise, 4) if promise else None,
             "sequential_promise": items * self.m["latency"] if count else 0, "active_edges": dict(zip(UNITS, self.active_edges)),
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
    for ram in tb.rams:
        ram.write_if.b_channel.set_pause_generator(random_pauses(rng, 0.9))
    tb.pause = 0.9
    tb.record("batch", [await tb.run_batch(("random", "random", "random"), "batch_slow_b:three")])


@cocotb.test(skip=os.environ.get("MODFORGE_BATCH_TWO") != "1")
async def batch_two(dut):
    """A batch of two (random, all q - 1 both) with AR, R, AW, W and B each paused in 30% of cycles: the large sets'
    test (many limbs, or a large n under Verilator), where a batch of four would take hours. Run only with
    MODFORGE_BATCH_TWO=1, so that the other designs' runs of every test do not take it too."""
    tb = await _bench(dut, 3)
    tb.set_pauses(float(os.environ.get("MODFORGE_PAUSE", "0.3")))
    tb.record("batch", [await tb.run_batch(("random", "max"), "batch_two:two")])
