"""cocotb bench for the multi-pass engine's AXI4 burst mover (``mover_<n>_x<n1>...``, hw/.../multipass/MoverTop.scala).

The mover runs one ``columns`` pass of the schedule as a copy: region a (and b) to region x (and y), block by
block. Its memory is cocotbext-axi's ``AxiRam``, a maintained AXI4 slave model, not one written here. The
bench plays the engine between the mover's two streams: it takes the words the reader delivers (``rdWords``)
and gives them back to the writer (``wrWords``), with random stalls on either side when asked.

What is checked, every pass:

- **the memory afterwards**, whole, against an image computed independently: the image before, with the
  n words of region a copied to region x by address (and b to y). Garbage fills every other slot, so a
  stray or missing write shows;
- **the reader's words**, in order, against the doc's column-block order computed in plain Python
  (for each block of be columns, for each operand region, for each of the n1 rows, be words from that
  row), and ``last`` on each block's final word;
- **the addresses**: the AR and AW sequences (address, AxLEN, AxSIZE, INCR) equal the bursts of
  ``multipass_schedule.schedule(p)``'s ``columns`` pass (its reads of a and b, its writes of x and y),
  in order; no burst crosses a 4 KB boundary; bursts in flight never exceed the mover's ``outstanding``;
- **the protocol** on the channels the mover drives (AR, AW, W, rdWords): a valid not yet taken stays up
  with its payload unchanged; W has full strobes and WLAST on every burst_beats-th beat; nothing moves
  after ``done``.

Cycles: from the rising edge that takes ``start`` to the one that sets ``done``, against the schedule's
port cycles for the pass (the larger of its read and write beats: the AXI data channels move a beat a
cycle each) and against the mover's stream (operands x n / lanes words, one a cycle), whichever is larger.
The figures and their ratios go to the log and to ``mover_cycles_<test>.json`` beside the simulation, for
the pytest entry to report.

Environment: MODFORGE_MANIFEST (required), MODFORGE_SEED (default 1), MODFORGE_LIMB_BITS (w, default the
slot width: the edge pattern is 2^w - 1), MODFORGE_PAUSE (probability of a paused cycle on each AXI channel
and of a stalled cycle on each stream in the back-pressure test, default 0.3), MODFORGE_CLK_NS.
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
from polymul.multipass import MultipassParams
from polymul.multipass_schedule import PAGE_BYTES, Layout, Memory, costs, schedule
from primetools.proth import largest_ntt_primes


LOG = logging.getLogger("cocotb.multipass_mover")


def params_of(m: dict, limb_bits: int) -> MultipassParams:
    """The schedule model's parameters for the mover's manifest: one limb (the prime matters to the model's
    checks only, not to the mover, which moves slots)."""
    q = largest_ntt_primes(limb_bits, m["n"], 1)[0]
    return MultipassParams(n=m["n"], primes=(q,), n1=m["n1"], bus_bits=m["bus_bits"], burst_beats=m["burst_beats"],
                           limb_bits=limb_bits, slot_bits=m["slot_bits"])


def schedule_bursts(p: MultipassParams, reads, writes):
    """The ``columns`` pass's bursts from the schedule model, in issue order, restricted to the regions the
    mover copies: (AR bursts, AW bursts)."""
    ps, blocks = next(iter(schedule(p)))
    assert ps.name == "columns", ps.name
    ar, aw = [], []
    for blk in blocks:
        ar += [b for b in blk.reads if b.region in reads]
        aw += [b for b in blk.writes if b.region in writes]
    return ar, aw


def random_pauses(rng: random.Random, p: float):
    while True:
        yield rng.random() < p


class MoverBench:
    def __init__(self, dut, m: dict, seed: int):
        self.dut, self.m = dut, m
        self.rng = random.Random(seed)
        self.limb_bits = int(os.environ.get("MODFORGE_LIMB_BITS", m["slot_bits"]))
        self.p = params_of(m, min(self.limb_bits, 64))
        self.layout = Layout(self.p)
        assert self.layout.region_bytes == m["region_bytes"], (self.layout.region_bytes, m["region_bytes"])
        self.n, self.n1, self.n2 = m["n"], m["n1"], m["n2"]
        self.s = m["slot_bits"]
        self.slot_bytes = self.s // 8
        self.lanes, self.e, self.be = m["lanes"], m["e"], m["be"]
        self.reads, self.writes = m["reads"], m["writes"]
        self.ar_expected, self.aw_expected = schedule_bursts(self.p, self.reads, self.writes)
        read_beats = sum(b.beats for b in self.ar_expected)
        write_beats = sum(b.beats for b in self.aw_expected)
        self.port_cycles = max(read_beats, write_beats)
        if m["operands"] == 2:  # the whole columns pass: the model's own count
            assert self.port_cycles == costs(self.p).passes[0].port_cycles
        # The mover's one stream carries the operands one after the other, `lanes` slots a word: with fewer
        # lanes than e it, not the port, sets the pace.
        self.stream_cycles = len(self.reads) * self.n // self.lanes
        self.ram = AxiRam(AxiBus.from_prefix(dut, "mem"), dut.clk, dut.reset, size=self.layout.total_bytes)
        for log in (self.ram.write_if.log, self.ram.read_if.log):
            log.setLevel(logging.WARNING)   # one INFO line per burst otherwise
        self.stall = 0.0
        self.queue = []          # words between rdWords and wrWords (the "engine")
        self.queue_depth = 4
        self.rd_words = []       # (word, last) taken from rdWords this pass
        self.edge = 0
        self.reset_counts()

    def reset_counts(self):
        self.ar_seen, self.aw_seen, self.rd_words = [], [], []
        self.w_beats = 0
        self.reads_in_flight = self.writes_in_flight = 0
        self.max_reads_in_flight = self.max_writes_in_flight = 0
        self.first_ar_edge = self.first_r_edge = None

    async def start(self, clk_ns: float):
        d = self.dut
        cocotb.start_soon(Clock(d.clk, clk_ns, unit="ns").start())
        d.io_start.value = 0
        d.io_rdWords_ready.value = 0
        d.io_wrWords_valid.value = 0
        d.io_wrWords_payload.value = 0
        d.reset.value = 1
        for _ in range(4):
            await RisingEdge(d.clk)
        d.reset.value = 0
        await RisingEdge(d.clk)
        cocotb.start_soon(self._monitor())
        cocotb.start_soon(self._engine())

    def set_pauses(self, p: float):
        """Random pauses on every AXI channel (AxiRam's side: AR, AW, W ready and R, B valid) and stalls on
        both streams (the bench's side); p = 0 turns them off."""
        chans = (self.ram.read_if.ar_channel, self.ram.read_if.r_channel, self.ram.write_if.aw_channel,
                 self.ram.write_if.w_channel, self.ram.write_if.b_channel)
        for ch in chans:
            ch.set_pause_generator(random_pauses(random.Random(self.rng.random()), p) if p else None)
        self.stall = p

    # ---- the monitors: one coroutine samples every channel at each rising edge (the values before it) ----
    async def _monitor(self):
        d = self.dut
        held = {}   # channel -> payload of a valid not yet taken at the last edge
        beat_bytes = self.m["bus_bits"] // 8
        size = beat_bytes.bit_length() - 1
        full_strb = (1 << beat_bytes) - 1
        while True:
            await RisingEdge(d.clk)
            self.edge += 1
            sigs = {
                "ar": (d.mem_arvalid, d.mem_arready, (d.mem_araddr, d.mem_arlen, d.mem_arsize, d.mem_arburst)),
                "aw": (d.mem_awvalid, d.mem_awready, (d.mem_awaddr, d.mem_awlen, d.mem_awsize, d.mem_awburst)),
                "w": (d.mem_wvalid, d.mem_wready, (d.mem_wdata, d.mem_wstrb, d.mem_wlast)),
                "rd": (d.io_rdWords_valid, d.io_rdWords_ready, (d.io_rdWords_payload_fragment, d.io_rdWords_payload_last)),
            }
            fired = {}
            for ch, (v, r, payload) in sigs.items():
                valid, ready = int(v.value), int(r.value)
                if ch in held:
                    assert valid, f"{ch}: valid dropped before it was taken (edge {self.edge})"
                    now = tuple(int(x.value) for x in payload)
                    assert now == held[ch], f"{ch}: payload changed while waiting, {held[ch]} -> {now} (edge {self.edge})"
                if valid and not ready:
                    held[ch] = tuple(int(x.value) for x in payload)
                else:
                    held.pop(ch, None)
                fired[ch] = valid and ready
            if fired["ar"]:
                addr, ln, sz, burst = (int(x.value) for x in sigs["ar"][2])
                self._check_burst("AR", addr, ln, sz, burst, size)
                self.ar_seen.append((addr, ln))
                self.reads_in_flight += 1
                self.max_reads_in_flight = max(self.max_reads_in_flight, self.reads_in_flight)
                if self.first_ar_edge is None:
                    self.first_ar_edge = self.edge
            if int(d.mem_rvalid.value) and int(d.mem_rready.value):
                if self.first_r_edge is None:
                    self.first_r_edge = self.edge
                if int(d.mem_rlast.value):
                    self.reads_in_flight -= 1
            if fired["aw"]:
                addr, ln, sz, burst = (int(x.value) for x in sigs["aw"][2])
                self._check_burst("AW", addr, ln, sz, burst, size)
                self.aw_seen.append((addr, ln))
                self.writes_in_flight += 1
                self.max_writes_in_flight = max(self.max_writes_in_flight, self.writes_in_flight)
            if int(d.mem_bvalid.value) and int(d.mem_bready.value):
                self.writes_in_flight -= 1
            if fired["w"]:
                strb, last = int(d.mem_wstrb.value), int(d.mem_wlast.value)
                assert strb == full_strb, f"W beat {self.w_beats}: WSTRB {strb:#x}, not full"
                self.w_beats += 1
                want_last = self.w_beats % self.m["burst_beats"] == 0
                assert last == want_last, f"W beat {self.w_beats - 1}: WLAST {last}, expected {int(want_last)}"
            if fired["rd"]:
                self.rd_words.append((int(d.io_rdWords_payload_fragment.value), int(d.io_rdWords_payload_last.value)))
            assert self.reads_in_flight <= self.m["outstanding"], f"{self.reads_in_flight} read bursts in flight"
            assert self.writes_in_flight <= self.m["outstanding"], f"{self.writes_in_flight} write bursts unacknowledged"

    def _check_burst(self, ch, addr, ln, sz, burst, size):
        nbytes = (ln + 1) << sz
        assert burst == 1, f"{ch} {addr:#x}: burst type {burst}, not INCR"
        assert sz == size, f"{ch} {addr:#x}: AxSIZE {sz}, not the bus width ({size})"
        assert addr // PAGE_BYTES == (addr + nbytes - 1) // PAGE_BYTES, \
            f"{ch} burst {addr:#x} + {nbytes} bytes crosses a {PAGE_BYTES}-byte boundary"

    # ---- the engine's place: rdWords -> a short queue -> wrWords, with stalls on both sides ----
    async def _engine(self):
        d = self.dut
        presenting = False
        while True:
            await RisingEdge(d.clk)
            if int(d.io_rdWords_valid.value) and int(d.io_rdWords_ready.value):
                self.queue.append(int(d.io_rdWords_payload_fragment.value))
            if presenting and int(d.io_wrWords_ready.value):
                self.queue.pop(0)
                presenting = False
            d.io_rdWords_ready.value = int(len(self.queue) < self.queue_depth and self.rng.random() >= self.stall)
            # A valid stays up until taken; a stall only delays the next one.
            if not presenting and self.queue and self.rng.random() >= self.stall:
                presenting = True
            d.io_wrWords_valid.value = int(presenting)
            d.io_wrWords_payload.value = self.queue[0] if presenting else 0

    # ---- a pass ----
    def image(self, pattern: str) -> bytes:
        """Garbage in every slot (random s-bit words), then the operands a (and b) by ``pattern``."""
        mem = Memory(self.p)
        rng, s, w = self.rng, self.s, self.limb_bits
        mem.words = [rng.getrandbits(s) for _ in mem.words]
        for region in self.reads:
            if pattern == "random":
                vals = [rng.getrandbits(w) for _ in range(self.n)]
            elif pattern == "ones":
                vals = [(1 << w) - 1] * self.n
            elif pattern == "zeros":
                vals = [0] * self.n
            elif pattern == "slot_random":   # every bit of the slot, beyond the limb
                vals = [rng.getrandbits(s) for _ in range(self.n)]
            else:
                raise ValueError(pattern)
            mem.load(region, 0, vals)
        return mem.to_bytes()

    def expected_image(self, before: bytes) -> bytes:
        """The copy by address, independent of the mover: region x's n slots become region a's."""
        out = bytearray(before)
        nbytes = self.n * self.slot_bytes
        for src, dst in zip(self.reads, self.writes):
            a, x = self.layout.base(src, 0), self.layout.base(dst, 0)
            out[x:x + nbytes] = before[a:a + nbytes]
        return bytes(out)

    def expected_words(self, before: bytes):
        """What rdWords carries, from the doc's definition of a column block: for each block of be columns,
        each operand, each of the n1 rows, the be words of that row; `lanes` slots a word, little-endian;
        last on a block's final word."""
        sb = self.slot_bytes
        words = []
        for col0 in range(0, self.n2, self.be):
            for region in self.reads:
                base = self.layout.base(region, 0)
                slots = []
                for row in range(self.n1):
                    for col in range(col0, col0 + self.be):
                        at = base + (row * self.n2 + col) * sb
                        slots.append(int.from_bytes(before[at:at + sb], "little"))
                for k in range(0, len(slots), self.lanes):
                    word = sum(v << (self.s * j) for j, v in enumerate(slots[k:k + self.lanes]))
                    words.append((word, int(k + self.lanes == len(slots))))
        return words

    async def run_pass(self, pattern: str, label: str) -> dict:
        d = self.dut
        before = self.image(pattern)
        self.ram.write(0, before)
        self.reset_counts()
        while int(d.io_busy.value):
            await RisingEdge(d.clk)
        d.io_start.value = 1
        await RisingEdge(d.clk)      # the edge that takes start
        d.io_start.value = 0
        edges, limit = 0, 50 * self.port_cycles + 2000
        while True:
            await RisingEdge(d.clk)
            edges += 1
            if int(d.io_done.value):
                break
            assert edges < limit, f"{label}: no done after {limit} cycles"
        # Values read just after an edge are those before it: done seen after edge k was set by edge k - 1.
        cycles = edges - 1
        counts = (len(self.ar_seen), len(self.aw_seen), self.w_beats, len(self.rd_words))
        for _ in range(20):
            await RisingEdge(d.clk)
        assert counts == (len(self.ar_seen), len(self.aw_seen), self.w_beats, len(self.rd_words)), \
            f"{label}: traffic after done: {counts} -> AR/AW/W/words {len(self.ar_seen), len(self.aw_seen), self.w_beats, len(self.rd_words)}"
        assert not int(d.io_respError.value), f"{label}: an error response"
        self.check_addresses(label)
        self.check_words(label, before)
        self.check_memory(label, before)
        bound = max(self.port_cycles, self.stream_cycles)
        r = {"test": label, "pattern": pattern, "pause": self.stall, "cycles": cycles, "port_cycles": self.port_cycles,
             "ratio": round(cycles / self.port_cycles, 4), "stream_cycles": self.stream_cycles,
             "ratio_to_bound": round(cycles / bound, 4), "read_bursts": len(self.ar_seen),
             "write_bursts": len(self.aw_seen), "max_reads_in_flight": self.max_reads_in_flight,
             "max_writes_in_flight": self.max_writes_in_flight,
             "first_read_latency": (self.first_r_edge - self.first_ar_edge) if self.first_r_edge else None}
        LOG.info("%s: %d cycles against the schedule's %d port cycles (ratio %.3f; the stream's %d words, ratio %.3f to "
                 "the larger); %d read and %d write bursts, at most %d and %d in flight; first R beat %s edges after "
                 "the first AR", label, cycles, self.port_cycles, cycles / self.port_cycles, self.stream_cycles,
                 cycles / bound, len(self.ar_seen), len(self.aw_seen),
                    self.max_reads_in_flight, self.max_writes_in_flight, r["first_read_latency"])
        return r

    def check_addresses(self, label):
        for ch, seen, want in (("AR", self.ar_seen, self.ar_expected), ("AW", self.aw_seen, self.aw_expected)):
            for i, (got, b) in enumerate(zip(seen, want)):
                assert got == (b.addr, b.beats - 1), (
                    f"{label}: {ch} burst {i} is {got[0]:#x} len {got[1]}, the schedule's is {b.addr:#x} len "
                    f"{b.beats - 1} (region {b.region}, row {b.row}, column {b.col})")
            assert len(seen) == len(want), f"{label}: {len(seen)} {ch} bursts, the schedule has {len(want)}"

    def check_words(self, label, before):
        want = self.expected_words(before)
        for i, (got, exp) in enumerate(zip(self.rd_words, want)):
            assert got == exp, f"{label}: rdWords word {i} is {got[0]:#x} last {got[1]}, expected {exp[0]:#x} last {exp[1]}"
        assert len(self.rd_words) == len(want), f"{label}: {len(self.rd_words)} words out of the reader, expected {len(want)}"

    def check_memory(self, label, before):
        want = self.expected_image(before)
        got = self.ram.read(0, len(want))
        if got != want:
            sb = self.slot_bytes
            bad = [i for i in range(0, len(want), sb) if got[i:i + sb] != want[i:i + sb]]
            at = bad[0]
            region = at // self.layout.region_bytes
            raise AssertionError(
                f"{label}: {len(bad)} slots differ from the copy; first at byte {at:#x} (region "
                f"{'abxyc'[region] if region < 5 else '?'}, slot {(at % self.layout.region_bytes) // sb}): "
                f"{int.from_bytes(got[at:at + sb], 'little'):#x}, expected {int.from_bytes(want[at:at + sb], 'little'):#x}")

    def record(self, results):
        out = Path(os.environ.get("COCOTB_RESULTS_FILE", "results.xml")).parent
        name = results[0]["test"].split(":")[0]
        (out / f"mover_cycles_{name}.json").write_text(json.dumps(results, indent=1) + "\n")


async def _bench(dut, salt):
    return await start_bench(MoverBench, dut, salt)


@cocotb.test()
async def copy_no_pauses(dut):
    """One copy pass of random words, every channel and stream ready at every cycle: the mover's own pace."""
    tb = await _bench(dut, 0)
    tb.record([await tb.run_pass("random", "copy_no_pauses:random")])


@cocotb.test()
async def copy_back_pressure(dut):
    """Four passes back to back (random, all ones in the limb, zeros, random over the whole slot) with
    random pauses on AR, R, AW, W and B and stalls on both streams."""
    tb = await _bench(dut, 1)
    tb.set_pauses(float(os.environ.get("MODFORGE_PAUSE", "0.3")))
    results = []
    for pattern in ("random", "ones", "zeros", "slot_random"):
        results.append(await tb.run_pass(pattern, f"copy_back_pressure:{pattern}"))
    tb.record(results)
