"""cocotb bench for the multi-pass engine's column passes (``cols_...`` and ``icols_...``,
hw/.../multipass/ColumnsPass.scala): one limb, the design's fixed prime, its memory cocotbext-axi's ``AxiRam``.

Each pass starts from a memory image of the model (``polymul.multipass``): the operands a and b (``columns``), or
the image after ``rows`` (``columns_inverse``: Z in x), with random garbage in every slot the pass writes. What
is checked, every pass:

- **the memory afterwards, whole**, against the image before with the written regions replaced by the model's
  image after the pass (``MultipassModel(p).run(..., until=pass)``; ``Memory.to_bytes()``): x and y, or c. A
  stray write, a missing one or a wrong value shows;
- **independently of the model's code**, by pow() on the definitions (docs/polymul_multipass.md, steps 1-2 and
  4-5): a dozen entries of X and Y, X[k1][j2] = (sum_j1 a[j2 + n2 j1] r1^((2 k1 + 1) j1)) psi^((2 k1 + 1 - n1) j2),
  or of c from the Z the pass read, c[j2 + n2 j1] = n1^-1 sum_k1 Z[k1][j2] psi^(-(2 k1 + 1 - n1) j2)
  r1^(-(2 k1 + 1) j1); and after ``columns_inverse`` the whole of c against the schoolbook a b mod (x^n + 1)
  (``polymul.stream.negacyclic_reference``, no NTT);
- **the bursts**: the AR and AW sequences (address, AxLEN) equal the pass's bursts in ``schedule(p)``, in order;
  INCR bursts of the bus's size, none across 4 KB; bursts in flight never exceed ``outstanding``; nothing moves
  after ``done``;
- **the protocol** on AR, AW and W (``axi_memory_bench``): a valid not yet taken stays up with its payload
  unchanged; full WSTRB and WLAST on every burst_beats-th beat.

Cycles: from the rising edge that takes ``start`` to the one that sets ``done``, against the model's cycles for
the pass (``costs(p)``: the larger of the lanes' n / P and the port's beats), and the NTT's latency. They go to
the log and to ``columns_cycles_<test>.json`` beside the simulation, for the pytest entry to report.

Environment: MODFORGE_MANIFEST (required), MODFORGE_SEED (default 1), MODFORGE_PAUSE (probability of a paused
cycle on each AXI channel in the back-pressure test, default 0.3), MODFORGE_CLK_NS.
"""
import logging
import os
import random

import cocotb
from cocotb.triggers import RisingEdge

from axi_memory_bench import AxiMemoryBench
from bench_common import start_bench
from polymul.multipass import MultipassModel
from polymul.multipass_manifest import manifest_params
from polymul.multipass_schedule import Memory, costs, schedule
from polymul.stream import negacyclic_reference

LOG = logging.getLogger("cocotb.multipass_columns")


def params_of(m: dict):
    """The model's parameters for the design's manifest: one limb, the design's prime, the model's psi."""
    p = manifest_params(m)
    assert p.psis[0] == m["psi"], f"the design's psi {m['psi']} is not the model's {p.psis[0]}"
    return p


class ColumnsBench(AxiMemoryBench):
    post_reset_edges = 4     # the NTT unit's reset tree: its streams open two edges after reset

    def __init__(self, dut, m: dict, seed: int):
        super().__init__(dut, m, seed, params_of(m))
        self.model = MultipassModel(self.p)
        self.pass_name = m["pass"]
        self.q = m["prime"]
        self.psi, self.r1 = m["psi"], m["r1"]
        self.reads, self.writes = m["reads"], m["writes"]
        idx = [ps.name for ps, _ in schedule(self.p)].index(self.pass_name)
        self.cost = costs(self.p).passes[idx]
        ps, blocks = list(schedule(self.p))[idx]
        self.ar_expected, self.aw_expected = [], []
        for blk in blocks:
            self.ar_expected += blk.reads
            self.aw_expected += blk.writes
        self.start_edge = 0
        self.reset_counts()

    def reset_counts(self):
        self.ar_seen, self.aw_seen = [], []
        self.w_beats = 0
        self.reset_bursts()
        self.phantom_ticks = 0
        self.marks = {}          # milestone -> edge (from the pass's start): first and last of each stream

    def monitors(self):
        return [self._monitor()]

    async def _monitor(self):
        d = self.dut
        ctrl = d.ntt.control_ctrl     # the NTT unit's StreamControl: its empty (phantom) frames, for the log
        sigs = self.axi_channels()
        while True:
            await RisingEdge(d.clk)
            self.edge += 1
            if int(ctrl.phantom.value) and int(ctrl.io_tick.value):
                self.phantom_ticks += 1
            for name, v, r in (("ar", d.mem_arvalid, d.mem_arready), ("r", d.mem_rvalid, d.mem_rready),
                               ("ntt_in", d.ntt.in_valid, d.ntt.in_ready), ("ntt_out", d.ntt.out_valid, d.ntt.out_ready),
                               ("w", d.mem_wvalid, d.mem_wready)):
                if int(v.value) and int(r.value):
                    self.marks.setdefault(f"first_{name}", self.edge - self.start_edge)
                    self.marks[f"last_{name}"] = self.edge - self.start_edge
            fired = self.handshakes(sigs)
            self.take_bursts(fired, sigs, self.ar_seen, self.aw_seen)
            if fired["w"]:
                self.check_w_beat(self.w_beats, int(d.mem_wstrb.value), int(d.mem_wlast.value))
                self.w_beats += 1
            self.count_bursts(fired["ar"], fired["aw"], self.m["outstanding"], self.m["outstanding"])

    def images(self, a, b):
        """(before, expected) memory images of the pass, and the model's memory before it."""
        p, lay = self.p, self.layout
        if self.pass_name == "columns":
            start = Memory(p)
            start.load("a", 0, a)
            start.load("b", 0, b)
            after = self.model.run([a], [b], until="columns")
        else:
            start = self.model.run([a], [b], until="rows")
            after = self.model.run([a], [b])
        before = list(start.words)
        expect = list(start.words)
        garbage = self.rng
        for region in self.writes:
            lo = lay.base(region, 0) // self.slot_bytes
            hi = lo + lay.region_bytes // self.slot_bytes
            for i in range(lo, hi):
                before[i] = garbage.getrandbits(self.s)
                expect[i] = before[i]
            expect[lo:lo + self.n] = after.words[lo:lo + self.n]
        return self.to_bytes(before), self.to_bytes(expect), start

    # ---- a pass ----
    async def run_pass(self, pattern: str, label: str) -> dict:
        a, b = self.operands(pattern, self.q)
        before, expect, start = self.images(a, b)
        self.ram.write(0, before)
        self.reset_counts()
        cycles = await self.run_to_done(label, 50 * self.cost.cycles() + 5000,
                                        lambda: (len(self.ar_seen), len(self.aw_seen), self.w_beats))
        got = self.ram.read(0, len(expect))
        self.check_bursts(label)
        self.check_definitions(label, got, before, a, b)
        self.diff_memory(label, got, expect, "the model's image")
        model_cycles = self.cost.cycles()
        r = {"test": label, "pattern": pattern, "pause": self.pause, "cycles": cycles, "model_cycles": model_cycles,
             "ratio": round(cycles / model_cycles, 4), "stream_cycles": self.cost.stream_cycles,
             "port_cycles": self.cost.port_cycles, "ntt_latency": self.m["ntt_latency_cycles"],
             "read_bursts": len(self.ar_seen), "write_bursts": len(self.aw_seen),
             "max_reads_in_flight": self.max_reads_in_flight, "max_writes_in_flight": self.max_writes_in_flight,
             "ntt_phantom_ticks": self.phantom_ticks, "milestones": dict(self.marks)}
        LOG.info("%s: milestones (edges after start) %s", label, self.marks)
        LOG.info("%s: %d cycles against the model's %d (lanes %d, port %d; ratio %.3f); NTT latency %d; %d read and "
                 "%d write bursts, at most %d and %d in flight; %d empty NTT ticks", label, cycles, model_cycles, self.cost.stream_cycles,
                 self.cost.port_cycles, cycles / model_cycles, self.m["ntt_latency_cycles"], len(self.ar_seen),
                 len(self.aw_seen), self.max_reads_in_flight, self.max_writes_in_flight, self.phantom_ticks)
        return r

    def check_bursts(self, label):
        for ch, seen, want in (("AR", self.ar_seen, self.ar_expected), ("AW", self.aw_seen, self.aw_expected)):
            for i, (got, bst) in enumerate(zip(seen, want)):
                assert got == (bst.addr, bst.beats - 1), (
                    f"{label}: {ch} burst {i} is {got[0]:#x} len {got[1]}, the schedule's is {bst.addr:#x} len "
                    f"{bst.beats - 1} (region {bst.region}, row {bst.row}, column {bst.col})")
            assert len(seen) == len(want), f"{label}: {len(seen)} {ch} bursts, the schedule has {len(want)}"

    def check_definitions(self, label, got: bytes, before: bytes, a, b):
        """A dozen entries by pow() on the pass's definition (not the model's code); the whole product after
        columns_inverse against the schoolbook."""
        n, n1, n2, q, psi, r1 = self.n, self.n1, self.n2, self.q, self.psi, self.r1
        two_n = 2 * n
        rng = random.Random(self.rng.random())
        spots = [(0, 0), (n1 - 1, n2 - 1), (1, n2 - 1), (n1 - 1, 1)] + \
                [(rng.randrange(n1), rng.randrange(n2)) for _ in range(8)]
        if self.pass_name == "columns":
            for region, src in (("x", a), ("y", b)):
                mem = self.region_words(got, region)
                for k1, j2 in spots:
                    col = sum(src[j2 + n2 * j1] * pow(r1, (2 * k1 + 1) * j1, q) for j1 in range(n1)) % q
                    want = col * pow(psi, (2 * k1 + 1 - n1) * j2 % two_n, q) % q
                    assert mem[k1 * n2 + j2] == want, (
                        f"{label}: {region}[k1 = {k1}][j2 = {j2}] = {mem[k1 * n2 + j2]}, the definition gives {want}")
        else:
            z = self.region_words(before, "x")
            c = self.region_words(got, "c")
            n1_inv = pow(n1, -1, q)
            for j1, j2 in spots:
                acc = sum(z[k1 * n2 + j2] * pow(psi, -((2 * k1 + 1 - n1) * j2) % two_n, q)
                          * pow(r1, -((2 * k1 + 1) * j1) % (2 * n1), q) for k1 in range(n1))
                want = acc * n1_inv % q
                assert c[j2 + n2 * j1] == want, (
                    f"{label}: c[j2 + n2 j1] at j1 = {j1}, j2 = {j2} is {c[j2 + n2 * j1]}, the definition gives {want}")
            ref = negacyclic_reference(a, b, n, q)
            bad = [i for i in range(n) if c[i] != ref[i]]
            assert not bad, f"{label}: c differs from the schoolbook a b mod (x^n + 1) at {len(bad)} coefficients, " \
                            f"first {bad[0]}: {c[bad[0]]}, expected {ref[bad[0]]}"


async def _bench(dut, salt):
    return await start_bench(ColumnsBench, dut, salt)


@cocotb.test()
async def pass_no_pauses(dut):
    """One pass on random operands, every AXI channel ready at every cycle: the pass's own pace."""
    tb = await _bench(dut, 0)
    tb.record("columns", [await tb.run_pass("random", "pass_no_pauses:random")])


@cocotb.test()
async def pass_back_pressure(dut):
    """Three passes back to back on the edge polynomials (all q - 1; a one-hot and x^(n-1); zero and all q - 1),
    with random pauses on AR, R, AW, W and B."""
    tb = await _bench(dut, 1)
    tb.set_pauses(float(os.environ.get("MODFORGE_PAUSE", "0.3")))
    results = []
    for pattern in ("max", "onehot_xn1", "zero_max"):
        results.append(await tb.run_pass(pattern, f"pass_back_pressure:{pattern}"))
    tb.record("columns", results)
