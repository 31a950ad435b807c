"""cocotb bench for the multi-pass engine's ``rows`` pass in RTL (``rows_<n>_x<n1>...``, hw/.../multipass/RowsPass.scala).

The pass reads row k1 of regions x and y (X and Y, the ``columns`` pass's output), multiplies them as
negacyclic n2-point polynomials mod q with the single-pass streaming engine, and writes the product over row
k1 of x. The memory is cocotbext-axi's ``AxiRam``, a maintained AXI4 slave model.

Each pass starts from the memory the model leaves after ``columns``: ``MultipassModel(p).run(a, b,
until="columns")``, its ``Memory.to_bytes()`` image, with random garbage in region c (which the pass must not
touch). What is checked:

- **the memory afterwards, whole**, against the model's image after ``rows`` (``run(..., until="rows")``, with
  the same garbage in c): region x holds Z, everything else is unchanged;
- **every row, independently**, against a schoolbook negacyclic n2-point product mod q of that row of X and Y,
  taken from the image before the pass (Python integers, no NTT, nothing shared with the model or the RTL);
- **the bursts**: AR and AW (address, AxLEN, AxSIZE, INCR) equal the pass's documented order, computed here
  from its definition (per row, per chunk: x's P lane segments then y's; writes: x's), and as a multiset the
  read and write bursts of ``multipass_schedule.schedule(p)``'s ``rows`` pass; no burst crosses 4 KB; bursts in
  flight never exceed ``outstanding``;
- **in place without a hazard**: no AW and no W beat of row k1 leaves before every R beat of row k1 of x has
  arrived (AXI4 orders nothing between the read and write channels, so the pass must);
- **the protocol** on the channels the pass drives (AR, AW, W): a valid not yet taken stays up with its payload
  unchanged; full WSTRB and WLAST on every burst_beats-th beat; nothing moves after ``done``.

Cycles: from the rising edge that takes ``start`` to the one that sets ``done``, against the schedule's
``costs(p)`` for the rows pass: ``cycles()`` = max(stream cycles n / P, port cycles 2 n / e), and
``cycles(fill_cycles=<the engine's latency>)``, the same with the pass boundary's pipeline fill. The engine's
empty ticks (ticks without an input beat: the final drain, and the phantom products its flow control inserts
when a row is late at a frame boundary, those before the pass's last input beat) are counted from its internal
signals. The figures and their ratios go
to the log and to ``rows_cycles_<test>.json`` beside the simulation.

Environment: MODFORGE_MANIFEST (required), MODFORGE_SEED (default 1), MODFORGE_PAUSE (probability of a paused
cycle on each AXI channel in the back-pressure test, default 0.3), MODFORGE_CLK_NS.
"""
import logging
import os
from collections import Counter

import cocotb
from cocotb.triggers import RisingEdge

from axi_memory_bench import AxiMemoryBench
from bench_common import start_bench
from polymul.multipass import MultipassModel
from polymul.multipass_manifest import manifest_params
from polymul.multipass_schedule import costs, schedule
from polymul.stream import negacyclic_schoolbook


LOG = logging.getLogger("cocotb.multipass_rows")


def params_of(m: dict):
    """The model's parameters for the pass's manifest: one limb, the design's prime (its psi for n is the
    model's own; the rows' product does not depend on the root)."""
    return manifest_params(m)


class RowsBench(AxiMemoryBench):
    def __init__(self, dut, m: dict, seed: int):
        super().__init__(dut, m, seed, params_of(m))
        self.model = MultipassModel(self.p)
        self.q, self.w = int(m["prime"]), m["limb_bits"]
        self.sb = self.slot_bytes
        self.P, self.e, self.be = m["lanes"], m["e"], m["be"]
        self.ar_expected, self.aw_expected = self.documented_bursts()
        ps, blocks = list(schedule(self.p))[1]
        assert ps.name == "rows", ps.name
        sched_r, sched_w = [], []
        for blk in blocks:
            sched_r += [(b.addr, b.beats - 1) for b in blk.reads]
            sched_w += [(b.addr, b.beats - 1) for b in blk.writes]
        assert Counter(self.ar_expected) == Counter(sched_r), "the documented read order is not the schedule's bursts"
        assert Counter(self.aw_expected) == Counter(sched_w), "the documented write order is not the schedule's bursts"
        self.cost = costs(self.p).passes[1]
        assert self.cost.name == "rows"
        self.reset_counts()

    def documented_bursts(self):
        """The pass's AR and AW order from its definition (docs/polymul_multipass.md, "RTL: the rows pass"):
        rows in order; a row in groups of chunk k = 0 .. groups_per_row - 1; a group reads chunk k of each of
        the P lane segments (n2 / P coefficients each) of x, then of y, chunk_bursts bursts each, and writes
        the same of x."""
        m, lay = self.m, self.layout
        frame, cc = self.n2 // self.P, m["chunk_coeffs"]
        ar, aw = [], []
        for row in range(self.n1):
            for k in range(m["groups_per_row"]):
                def bursts(region):
                    return [(lay.address(region, 0, row, j * frame + k * cc + i * self.be), m["burst_beats"] - 1)
                            for j in range(self.P) for i in range(m["chunk_bursts"])]
                ar += bursts("x") + bursts("y")
                aw += bursts("x")
        return ar, aw

    def reset_counts(self):
        self.ar_seen, self.aw_seen = [], []
        self.w_beats = 0
        self.r_pending = []            # (addr, beats left) of read bursts in flight, in order (one ID)
        self.row_beats_read = Counter()
        self.reset_bursts()
        self.empty_ticks = 0           # engine ticks without an input beat (phantom products, the final drain)
        self.phantom_ticks = 0         # of those, the ones before the pass's last input beat (phantom products)
        self.accepted = 0              # input beats the engine took

    def monitors(self):
        return [self._monitor()]

    def row_of(self, addr):
        """(region, row) of a byte address."""
        region = "abxyc"[addr // self.layout.region_bytes]
        return region, (addr % self.layout.region_bytes) // (self.n2 * self.sb)

    async def _monitor(self):
        d = self.dut
        sigs = self.axi_channels()
        row_beats = self.n2 // self.e   # beats of one row of one region
        try:   # the engine's flow control, to count its empty ticks (RTL only; a netlist has no such names)
            ctrl = d.engine.control_ctrl
            ctrl.tick, ctrl.accept
        except AttributeError:
            ctrl = None
        while True:
            await RisingEdge(d.clk)
            self.edge += 1
            fired = self.handshakes(sigs)
            if fired["ar"]:
                addr, ln, sz, burst = (int(x.value) for x in sigs["ar"][2])
                self.check_burst("AR", addr, ln, sz, burst)
                self.ar_seen.append((addr, ln))
                self.r_pending.append([addr, ln + 1])
            if int(d.mem_rvalid.value) and int(d.mem_rready.value):
                assert self.r_pending, "an R beat with no read burst in flight"
                head = self.r_pending[0]
                region, row = self.row_of(head[0])
                self.row_beats_read[(region, row)] += 1
                head[1] -= 1
                if head[1] == 0:
                    self.r_pending.pop(0)
                    assert int(d.mem_rlast.value), "RLAST missing on a burst's last beat"
            if fired["aw"]:
                addr, ln, sz, burst = (int(x.value) for x in sigs["aw"][2])
                self.check_burst("AW", addr, ln, sz, burst)
                region, row = self.row_of(addr)
                got = self.row_beats_read[("x", row)]
                assert region == "x" and got == row_beats, (
                    f"AW {len(self.aw_seen)} to {addr:#x} (region {region}, row {row}) issued with {got} of the row's "
                    f"{row_beats} read beats of x returned: the pass writes a row only after reading it")
                self.aw_seen.append((addr, ln))
            if ctrl is not None and int(d.io_busy.value) and int(ctrl.tick.value):
                if int(ctrl.accept.value):
                    self.accepted += 1
                else:
                    self.empty_ticks += 1
                    self.phantom_ticks += self.accepted < self.n // self.P
            if fired["w"]:
                burst = self.w_beats // self.m["burst_beats"]
                assert burst < len(self.aw_expected), f"W beat {self.w_beats}: more W beats than the pass writes"
                # Its burst's address: the AW already taken, or (W may lead AW) the one the pass will send.
                region, row = self.row_of((self.aw_seen if burst < len(self.aw_seen) else self.aw_expected)[burst][0])
                got = self.row_beats_read[("x", row)]
                assert got == row_beats, (f"W beat {self.w_beats} (burst {burst}, row {row} of x) leaves with only {got} "
                                          f"of the row's {row_beats} read beats of x returned: a write before its read")
                self.check_w_beat(self.w_beats, int(d.mem_wstrb.value), int(d.mem_wlast.value))
                self.w_beats += 1
            self.count_bursts(fired["ar"], fired["aw"], self.m["outstanding"], self.m["outstanding"])

    # ---- the operands ----
    def images(self, pattern: str):
        a, b = self.operands(pattern, self.q)
        before = self.model.run([a], [b], until="columns")
        after = self.model.run([a], [b], until="rows")
        garbage = [self.rng.getrandbits(self.s) for _ in range(self.n)]   # region c: the pass must not touch it
        before.load("c", 0, garbage)
        after.load("c", 0, garbage)
        assert after.unload("y", 0) == before.unload("y", 0)
        return before, after

    async def run_pass(self, pattern: str, label: str) -> dict:
        before, after = self.images(pattern)
        self.ram.write(0, before.to_bytes())
        self.reset_counts()
        cycles = await self.run_to_done(label, 50 * self.cost.cycles() + 5000,
                                        lambda: (len(self.ar_seen), len(self.aw_seen), self.w_beats))
        got = self.ram.read(0, self.layout.total_bytes)
        self.check_rows_schoolbook(label, before, got)
        self.diff_memory(label, got, after.to_bytes(), "the model's memory after rows")
        self.check_bursts(label)
        c = self.cost
        bound = c.cycles()
        with_fill = c.cycles(fill_cycles=self.m["engine_latency_cycles"])   # the boundary term: the engine's fill
        r = {"test": label, "pattern": pattern, "pause": self.pause, "cycles": cycles,
             "model_cycles": bound, "stream_cycles": c.stream_cycles, "port_cycles": c.port_cycles,
             "ratio": round(cycles / bound, 4), "engine_latency": self.m["engine_latency_cycles"],
             "model_cycles_with_fill": with_fill, "ratio_with_fill": round(cycles / with_fill, 4),
             "engine_empty_ticks": self.empty_ticks, "engine_phantom_ticks": self.phantom_ticks,
             "read_bursts": len(self.ar_seen), "write_bursts": len(self.aw_seen),
             "max_reads_in_flight": self.max_reads_in_flight, "max_writes_in_flight": self.max_writes_in_flight}
        LOG.info("%s: %d cycles against the model's %d for the rows pass (max of %d stream, %d port cycles): ratio "
                 "%.3f; %.3f to the model's %d with the engine's latency %d as the fill; %d empty ticks, %d of them before the "
                 "last input beat; %d read and %d write bursts, at most %d and %d in flight", label, cycles, bound,
                 c.stream_cycles, c.port_cycles, cycles / bound, cycles / with_fill, with_fill,
                 self.m["engine_latency_cycles"], self.empty_ticks, self.phantom_ticks,
                 len(self.ar_seen), len(self.aw_seen), self.max_reads_in_flight, self.max_writes_in_flight)
        return r

    def check_bursts(self, label):
        for ch, seen, want in (("AR", self.ar_seen, self.ar_expected), ("AW", self.aw_seen, self.aw_expected)):
            for i, (got, exp) in enumerate(zip(seen, want)):
                assert got == exp, (f"{label}: {ch} burst {i} is {got[0]:#x} len {got[1]}, the pass's order has "
                                    f"{exp[0]:#x} len {exp[1]} (region, row {self.row_of(exp[0])})")
            assert len(seen) == len(want), f"{label}: {len(seen)} {ch} bursts, the pass has {len(want)}"

    def check_rows_schoolbook(self, label, before, got: bytes):
        """Every row of x against the schoolbook negacyclic n2-point product of the rows of X and Y before the pass
        (``polymul.stream.negacyclic_schoolbook``: Python integers, term by term)."""
        img = before.to_bytes()
        xw, yw, zw = self.region_words(img, "x"), self.region_words(img, "y"), self.region_words(got, "x")
        n2 = self.n2
        for k1 in range(self.n1):
            row = slice(k1 * n2, (k1 + 1) * n2)
            want = negacyclic_schoolbook(xw[row], yw[row], n2, self.q)
            if zw[row] != want:
                bad = next(i for i in range(n2) if zw[row][i] != want[i])
                raise AssertionError(f"{label}: row {k1} of x is not the schoolbook product X[{k1}] Y[{k1}] mod "
                                     f"(y^{n2} + 1, {self.q}): column {bad} is {zw[row][bad]}, expected {want[bad]}")


async def _bench(dut, salt):
    return await start_bench(RowsBench, dut, salt)


@cocotb.test()
async def rows_no_pauses(dut):
    """Two passes back to back (random operands, then a = b = x^(n-1)), every AXI channel ready at every cycle:
    the pass's own pace."""
    tb = await _bench(dut, 0)
    tb.record("rows", [await tb.run_pass(pat, f"rows_no_pauses:{pat}") for pat in ("random", "xn1")])


@cocotb.test()
async def rows_back_pressure(dut):
    """Four passes back to back (random, all q - 1, zero, one-hot) with random pauses on AR, R, AW, W and B."""
    tb = await _bench(dut, 1)
    tb.set_pauses(float(os.environ.get("MODFORGE_PAUSE", "0.3")))
    tb.record("rows", [await tb.run_pass(pat, f"rows_back_pressure:{pat}") for pat in ("random", "max", "zero", "onehot")])
