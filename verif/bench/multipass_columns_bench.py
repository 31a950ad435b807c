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
  bursts in flight never exceed ``outstanding``; nothing moves after ``done``.

Cycles: from the rising edge that takes ``start`` to the one that sets ``done``, against the model's cycles for
the pass (``costs(p)``: the larger of the lanes' n / P and the port's beats), and the NTT's latency. They go to
the log and to ``columns_cycles_<test>.json`` beside the simulation, for the pytest entry to report.

Environment: MODFORGE_MANIFEST (required), MODFORGE_SEED (default 1), MODFORGE_PAUSE (probability of a paused
cycle on each AXI channel in the back-pressure test, default 0.3), MODFORGE_CLK_NS.
"""
import json
import logging
import os
import random
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge

from cocotbext.axi import AxiBus, AxiRam

from bench_common import start_bench
from polymul.multipass import MultipassModel, MultipassParams
from polymul.multipass_schedule import Layout, Memory, costs, schedule
from polymul.stream import negacyclic_reference

LOG = logging.getLogger("cocotb.multipass_columns")


def params_of(m: dict) -> MultipassParams:
    """The model's parameters for the design's manifest: one limb, the design's prime, the model's psi."""
    p = MultipassParams(n=m["n"], primes=(m["prime"],), n1=m["n1"], lanes=m["lanes"], bus_bits=m["bus_bits"],
                        burst_beats=m["burst_beats"], limb_bits=m["limb_bits"], slot_bits=m["slot_bits"])
    assert p.psis[0] == m["psi"], f"the design's psi {m['psi']} is not the model's {p.psis[0]}"
    return p


def random_pauses(rng: random.Random, p: float):
    while True:
        yield rng.random() < p


class ColumnsBench:
    def __init__(self, dut, m: dict, seed: int):
        self.dut, self.m = dut, m
        self.rng = random.Random(seed)
        self.p = params_of(m)
        self.model = MultipassModel(self.p)
        self.layout = Layout(self.p)
        assert self.layout.region_bytes == m["region_bytes"], (self.layout.region_bytes, m["region_bytes"])
        self.pass_name = m["pass"]
        self.n, self.n1, self.n2, self.q = m["n"], m["n1"], m["n2"], m["prime"]
        self.psi, self.r1 = m["psi"], m["r1"]
        self.s = m["slot_bits"]
        self.slot_bytes = self.s // 8
        self.reads, self.writes = m["reads"], m["writes"]
        idx = [ps.name for ps, _ in schedule(self.p)].index(self.pass_name)
        self.cost = costs(self.p).passes[idx]
        ps, blocks = list(schedule(self.p))[idx]
        self.ar_expected, self.aw_expected = [], []
        for blk in blocks:
            self.ar_expected += blk.reads
            self.aw_expected += blk.writes
        self.ram = AxiRam(AxiBus.from_prefix(dut, "mem"), dut.clk, dut.reset, size=self.layout.total_bytes)
        for log in (self.ram.write_if.log, self.ram.read_if.log):
            log.setLevel(logging.WARNING)   # one INFO line per burst otherwise
        self.pause = 0.0
        self.edge = 0
        self.start_edge = 0
        self.reset_counts()

    def reset_counts(self):
        self.ar_seen, self.aw_seen = [], []
        self.w_beats = 0
        self.reads_in_flight = self.writes_in_flight = 0
        self.max_reads_in_flight = self.max_writes_in_flight = 0
        self.phantom_ticks = 0
        self.marks = {}          # milestone -> edge (from the pass's start): first and last of each stream

    async def start(self, clk_ns: float):
        d = self.dut
        cocotb.start_soon(Clock(d.clk, clk_ns, unit="ns").start())
        d.io_start.value = 0
        d.reset.value = 1
        for _ in range(4):
            await RisingEdge(d.clk)
        d.reset.value = 0
        for _ in range(4):   # the NTT unit's reset tree: its streams open two edges after reset
            await RisingEdge(d.clk)
        cocotb.start_soon(self._monitor())

    def set_pauses(self, p: float):
        """Random pauses on every AXI channel (AxiRam's side: AR, AW, W ready and R, B valid); p = 0: none."""
        chans = (self.ram.read_if.ar_channel, self.ram.read_if.r_channel, self.ram.write_if.aw_channel,
                 self.ram.write_if.w_channel, self.ram.write_if.b_channel)
        for ch in chans:
            ch.set_pause_generator(random_pauses(random.Random(self.rng.random()), p) if p else None)
        self.pause = p

    async def _monitor(self):
        d = self.dut
        ctrl = d.ntt.control_ctrl     # the NTT unit's StreamControl: its empty (phantom) frames, for the log
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
            if int(d.mem_arvalid.value) and int(d.mem_arready.value):
                self.ar_seen.append((int(d.mem_araddr.value), int(d.mem_arlen.value)))
                self.reads_in_flight += 1
                self.max_reads_in_flight = max(self.max_reads_in_flight, self.reads_in_flight)
            if int(d.mem_rvalid.value) and int(d.mem_rready.value) and int(d.mem_rlast.value):
                self.reads_in_flight -= 1
            if int(d.mem_awvalid.value) and int(d.mem_awready.value):
                self.aw_seen.append((int(d.mem_awaddr.value), int(d.mem_awlen.value)))
                self.writes_in_flight += 1
                self.max_writes_in_flight = max(self.max_writes_in_flight, self.writes_in_flight)
            if int(d.mem_wvalid.value) and int(d.mem_wready.value):
                self.w_beats += 1
            if int(d.mem_bvalid.value) and int(d.mem_bready.value):
                self.writes_in_flight -= 1
            assert self.reads_in_flight <= self.m["outstanding"], f"{self.reads_in_flight} read bursts in flight"
            assert self.writes_in_flight <= self.m["outstanding"], f"{self.writes_in_flight} write bursts unacknowledged"

    # ---- operands ----
    def operands(self, pattern: str):
        """(a, b), residues mod q: random, or the edge polynomials (all q - 1, zero, one-hot, x^(n-1))."""
        n, q, rng = self.n, self.q, self.rng
        rand = [rng.randrange(q) for _ in range(n)]
        if pattern == "random":
            return rand, [rng.randrange(q) for _ in range(n)]
        if pattern == "max":            # all q - 1, both
            return [q - 1] * n, [q - 1] * n
        if pattern == "onehot":         # a random one-hot coefficient, and x^(n-1)
            a = [0] * n
            a[rng.randrange(n)] = rng.randrange(1, q)
            b = [0] * n
            b[n - 1] = 1
            return a, b
        if pattern == "zero":           # zero, and all q - 1
            return [0] * n, [q - 1] * n
        raise ValueError(pattern)

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

    def to_bytes(self, words) -> bytes:
        return b"".join(int(w).to_bytes(self.slot_bytes, "little") for w in words)

    def region(self, data: bytes, region: str):
        at = self.layout.base(region, 0)
        sb = self.slot_bytes
        return [int.from_bytes(data[at + i * sb:at + (i + 1) * sb], "little") for i in range(self.n)]

    # ---- a pass ----
    async def run_pass(self, pattern: str, label: str) -> dict:
        d = self.dut
        a, b = self.operands(pattern)
        before, expect, start = self.images(a, b)
        self.ram.write(0, before)
        self.reset_counts()
        while int(d.io_busy.value):
            await RisingEdge(d.clk)
        d.io_start.value = 1
        await RisingEdge(d.clk)      # the edge that takes start
        self.start_edge = self.edge
        d.io_start.value = 0
        edges, limit = 0, 50 * self.cost.cycles() + 5000
        while True:
            await RisingEdge(d.clk)
            edges += 1
            if int(d.io_done.value):
                break
            assert edges < limit, f"{label}: no done after {limit} cycles"
        # Values read just after an edge are those before it: done seen after edge k was set by edge k - 1.
        cycles = edges - 1
        counts = (len(self.ar_seen), len(self.aw_seen), self.w_beats)
        for _ in range(20):
            await RisingEdge(d.clk)
        assert counts == (len(self.ar_seen), len(self.aw_seen), self.w_beats), f"{label}: traffic after done"
        assert not int(d.io_respError.value), f"{label}: an error response"
        got = self.ram.read(0, len(expect))
        self.check_bursts(label)
        self.check_definitions(label, got, before, a, b)
        self.check_memory(label, got, expect)
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
                mem = self.region(got, region)
                for k1, j2 in spots:
                    col = sum(src[j2 + n2 * j1] * pow(r1, (2 * k1 + 1) * j1, q) for j1 in range(n1)) % q
                    want = col * pow(psi, (2 * k1 + 1 - n1) * j2 % two_n, q) % q
                    assert mem[k1 * n2 + j2] == want, (
                        f"{label}: {region}[k1 = {k1}][j2 = {j2}] = {mem[k1 * n2 + j2]}, the definition gives {want}")
        else:
            z = self.region(before, "x")
            c = self.region(got, "c")
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

    def check_memory(self, label, got: bytes, want: bytes):
        if got != want:
            sb = self.slot_bytes
            bad = [i for i in range(0, len(want), sb) if got[i:i + sb] != want[i:i + sb]]
            at = bad[0]
            region = at // self.layout.region_bytes
            slot = (at % self.layout.region_bytes) // sb
            raise AssertionError(
                f"{label}: {len(bad)} slots differ from the model's image; first at byte {at:#x} (region "
                f"{'abxyc'[region] if region < 5 else '?'}, slot {slot} = row {slot // self.n2}, column "
                f"{slot % self.n2}): {int.from_bytes(got[at:at + sb], 'little')}, expected "
                f"{int.from_bytes(want[at:at + sb], 'little')}")

    def record(self, results):
        out = Path(os.environ.get("COCOTB_RESULTS_FILE", "results.xml")).parent
        name = results[0]["test"].split(":")[0]
        (out / f"columns_cycles_{name}.json").write_text(json.dumps(results, indent=1) + "\n")


async def _bench(dut, salt):
    return await start_bench(ColumnsBench, dut, salt)


@cocotb.test()
async def pass_no_pauses(dut):
    """One pass on random operands, every AXI channel ready at every cycle: the pass's own pace."""
    tb = await _bench(dut, 0)
    tb.record([await tb.run_pass("random", "pass_no_pauses:random")])


@cocotb.test()
async def pass_back_pressure(dut):
    """Three passes back to back on the edge polynomials (all q - 1; a one-hot and x^(n-1); zero and all q - 1),
    with random pauses on AR, R, AW, W and B."""
    tb = await _bench(dut, 1)
    tb.set_pauses(float(os.environ.get("MODFORGE_PAUSE", "0.3")))
    results = []
    for pattern in ("max", "onehot", "zero"):
        results.append(await tb.run_pass(pattern, f"pass_back_pressure:{pattern}"))
    tb.record(results)
