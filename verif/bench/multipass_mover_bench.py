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
import logging
import os

import cocotb
from cocotb.triggers import RisingEdge

from axi_memory_bench import AxiMemoryBench
from bench_common import start_bench
from polymul.multipass import MultipassParams
from polymul.multipass_manifest import manifest_column_mode
from polymul.multipass_schedule import Memory, costs, schedule
from primetools.proth import largest_ntt_primes


LOG = logging.getLogger("cocotb.multipass_mover")


def params_of(m: dict, limb_bits: int) -> MultipassParams:
    """The schedule model's parameters for the mover's manifest: one limb (the prime matters to the model's
    checks only, not to the mover, which moves slots)."""
    q = largest_ntt_primes(limb_bits, m["n"], 1)[0]
    return MultipassParams(n=m["n"], primes=(q,), n1=m["n1"], bus_bits=m["bus_bits"], burst_beats=m["burst_beats"],
                           limb_bits=limb_bits, slot_bits=m["slot_bits"], columns=manifest_column_mode(m))


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


class MoverBench(AxiMemoryBench):
    def __init__(self, dut, m: dict, seed: int):
        limb_bits = int(os.environ.get("MODFORGE_LIMB_BITS", m["slot_bits"]))
        super().__init__(dut, m, seed, params_of(m, min(limb_bits, 64)))
        self.limb_bits = limb_bits
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
        self.queue = []          # words between rdWords and wrWords (the "engine")
        self.queue_depth = 4
        self.reset_counts()

    def reset_counts(self):
        self.ar_seen, self.aw_seen, self.rd_words = [], [], []   # rd_words: (word, last) taken from rdWords
        self.w_beats = 0
        self.reset_bursts()
        self.first_ar_edge = self.first_r_edge = None

    def idle_inputs(self) -> dict:
        return {"io_start": 0, "io_rdWords_ready": 0, "io_wrWords_valid": 0, "io_wrWords_payload": 0}

    def monitors(self):
        return [self._monitor(), self._engine()]

    # The bench's pause probability also stalls both streams (the engine's side): set_pauses sets self.pause.

    # ---- the monitors: one coroutine samples every channel at each rising edge (the values before it) ----
    async def _monitor(self):
        d = self.dut
        sigs = self.axi_channels()
        sigs["rd"] = (d.io_rdWords_valid, d.io_rdWords_ready, (d.io_rdWords_payload_fragment, d.io_rdWords_payload_last))
        while True:
            await RisingEdge(d.clk)
            self.edge += 1
            fired = self.handshakes(sigs)
            self.take_bursts(fired, sigs, self.ar_seen, self.aw_seen)
            if fired["ar"] and self.first_ar_edge is None:
                self.first_ar_edge = self.edge
            if int(d.mem_rvalid.value) and int(d.mem_rready.value) and self.first_r_edge is None:
                self.first_r_edge = self.edge
            if fired["w"]:
                self.check_w_beat(self.w_beats, int(d.mem_wstrb.value), int(d.mem_wlast.value))
                self.w_beats += 1
            if fired["rd"]:
                self.rd_words.append((int(d.io_rdWords_payload_fragment.value), int(d.io_rdWords_payload_last.value)))
            self.count_bursts(fired["ar"], fired["aw"], self.m["outstanding"], self.m["outstanding"])

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
            d.io_rdWords_ready.value = int(len(self.queue) < self.queue_depth and self.rng.random() >= self.pause)
            # A valid stays up until taken; a stall only delays the next one.
            if not presenting and self.queue and self.rng.random() >= self.pause:
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
        before = self.image(pattern)
        self.ram.write(0, before)
        self.reset_counts()
        cycles = await self.run_to_done(label, 50 * self.port_cycles + 2000,
                                        lambda: (len(self.ar_seen), len(self.aw_seen), self.w_beats, len(self.rd_words)))
        self.check_addresses(label)
        self.check_words(label, before)
        want = self.expected_image(before)
        self.diff_memory(label, self.ram.read(0, len(want)), want, "the copy")
        bound = max(self.port_cycles, self.stream_cycles)
        r = {"test": label, "pattern": pattern, "pause": self.pause, "cycles": cycles, "port_cycles": self.port_cycles,
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


async def _bench(dut, salt):
    return await start_bench(MoverBench, dut, salt)


@cocotb.test()
async def copy_no_pauses(dut):
    """One copy pass of random words, every channel and stream ready at every cycle: the mover's own pace."""
    tb = await _bench(dut, 0)
    tb.record("mover", [await tb.run_pass("random", "copy_no_pauses:random")])


@cocotb.test()
async def copy_back_pressure(dut):
    """Four passes back to back (random, all ones in the limb, zeros, random over the whole slot) with
    random pauses on AR, R, AW, W and B and stalls on both streams."""
    tb = await _bench(dut, 1)
    tb.set_pauses(float(os.environ.get("MODFORGE_PAUSE", "0.3")))
    results = []
    for pattern in ("random", "ones", "zeros", "slot_random"):
        results.append(await tb.run_pass(pattern, f"copy_back_pressure:{pattern}"))
    tb.record("mover", results)
