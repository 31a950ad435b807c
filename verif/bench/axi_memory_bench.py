"""What the multi-pass benches share (the mover, the rows pass, the column passes, the engine): a design that is an
AXI4 master (``mem_*`` ports) started by ``io_start`` and finished by ``io_done``, whose memory is cocotbext-axi's
``AxiRam``, a maintained AXI4 slave model, not one written here.

``AxiMemoryBench`` holds the pieces every such bench repeats:

- the memory (``AxiRam`` over the layout's footprint, its per-burst INFO lines silenced), random pauses on
  every channel AxiRam drives (``set_pauses``), and a memory latency beyond AxiRam's own (MODFORGE_MEM_LATENCY
  edges, ``axi_latency``);
- reset and the clock (``start``), the design's own idle inputs and monitors given by the subclass; under Verilator
  the reset copies start in reset (``power_on``);
- the channel checks: a valid not yet taken stays up with its payload unchanged (``handshakes``); a burst is
  INCR, of the bus's AxSIZE, and does not cross a 4 KB boundary (``check_burst``); bursts in flight, counted
  from AR/R-last and AW/B, never exceed a limit (``count_bursts``);
- a run (``run_to_done``): a start pulse, the cycles until done, nothing moving after done, no error response;
- the memory image (``region_words``, ``to_bytes``, ``diff_memory`` naming the first wrong slot by region, row and
  column) and the operand patterns (``operands``: random and the edge polynomials mod q);
- the cycle figures as JSON beside the simulation (``record``), for the pytest entry to report.
"""
import json
import logging
import os
import random
import time
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge

from cocotbext.axi import AxiBus, AxiRam

from axi_latency import add_latency
from power_on import hold_reset_copies

from polymul.multipass_schedule import PAGE_BYTES, Layout

# Cycles between two progress lines of run_to_done.
PROGRESS_EDGES = 1 << 17

LOG = logging.getLogger("cocotb.axi_memory_bench")

REGIONS = "abxyc"     # the layout's region order (polymul.multipass_schedule.Layout)


def random_pauses(rng: random.Random, p: float):
    """A pause generator for cocotbext-axi: each cycle paused with probability p."""
    while True:
        yield rng.random() < p


class AxiMemoryBench:
    post_reset_edges = 1     # edges after reset before the monitors start (the NTT units' reset trees want 4)

    def __init__(self, dut, m: dict, seed: int, params):
        self.dut, self.m = dut, m
        self.rng = random.Random(seed)
        self.p = params
        self.layout = Layout(params)
        assert self.layout.region_bytes == m["region_bytes"], (self.layout.region_bytes, m["region_bytes"])
        self.n, self.n1, self.n2 = m["n"], m["n1"], m["n2"]
        self.s = m["slot_bits"]
        self.slot_bytes = self.s // 8
        # One AxiRam per AXI4 port: `mem`, or `mems_0` .. `mems_<P-1>` (a design with a port per limb, manifest
        # `axi_ports`); each holds the whole layout.
        ports = m.get("axi_ports", 1)
        self.ports = ["mem"] if ports == 1 else [f"mems_{i}" for i in range(ports)]
        self.rams = [AxiRam(AxiBus.from_prefix(dut, pfx), dut.clk, dut.reset, size=self.ram_bytes())
                     for pfx in self.ports]
        self.ram = self.rams[0]
        # MODFORGE_MEM_LATENCY: edges of read latency and of write response added to AxiRam's own (axi_latency)
        self.mem_latency = int(os.environ.get("MODFORGE_MEM_LATENCY", "0"))
        for ram in self.rams:
            for log in (ram.write_if.log, ram.read_if.log):
                log.setLevel(logging.WARNING)   # one INFO line per burst otherwise
            add_latency(ram, dut.clk, self.mem_latency)
        self.pause = 0.0
        self.edge = 0
        self._held = {}
        beat_bytes = m["bus_bits"] // 8
        self.axsize = beat_bytes.bit_length() - 1
        self.full_strb = (1 << beat_bytes) - 1

    def ram_bytes(self) -> int:
        """Bytes each AxiRam holds: the layout's footprint (a batch bench: its products')."""
        return self.layout.total_bytes

    # ---- start ----
    def idle_inputs(self) -> dict:
        """The design's inputs besides clk, reset and the memory, and their value at reset."""
        return {"io_start": 0}

    def monitors(self):
        """The coroutines to start once reset is over."""
        return []

    async def start(self, clk_ns: float):
        d = self.dut
        if "verilator" in cocotb.SIM_NAME.lower():
            # Verilator's random start would let a reset copy leave reset at the first edge (power_on says why).
            v = Path(os.environ["MODFORGE_MANIFEST"]).with_suffix(".v")
            LOG.info("power-on: %d one-bit keep registers start at 1 (the reset copies in reset)",
                     hold_reset_copies(d, v, v.stem))
        d.reset.value = 1
        cocotb.start_soon(Clock(d.clk, clk_ns, unit="ns").start())
        for name, v in self.idle_inputs().items():
            getattr(d, name).value = v
        for _ in range(4):
            await RisingEdge(d.clk)
        d.reset.value = 0
        for _ in range(self.post_reset_edges):
            await RisingEdge(d.clk)
        for c in self.monitors():
            cocotb.start_soon(c)

    def set_pauses(self, p: float):
        """Random pauses on every AXI channel AxiRam drives (AR, AW, W ready; R, B valid); p = 0: none."""
        for ram in self.rams:
            chans = (ram.read_if.ar_channel, ram.read_if.r_channel, ram.write_if.aw_channel,
                     ram.write_if.w_channel, ram.write_if.b_channel)
            for ch in chans:
                ch.set_pause_generator(random_pauses(random.Random(self.rng.random()), p) if p else None)
        self.pause = p

    # ---- channel checks (called by a monitor after each rising edge: the values are those before it) ----
    def reset_bursts(self):
        self.reads_in_flight = self.writes_in_flight = 0          # of the port last counted (one port: the port's)
        self.max_reads_in_flight = self.max_writes_in_flight = 0  # the most on any port
        self._in_flight = {pfx: [0, 0] for pfx in self.ports}

    def sig(self, port: str, name: str):
        """A port's signal: sig("mem_1", "arvalid") is mem_1_arvalid."""
        return getattr(self.dut, f"{port}_{name}")

    def handshakes(self, sigs: dict, port: str = "mem") -> dict:
        """``sigs``: channel -> (valid, ready, payload signals) of one port. Checks that a valid not yet taken stays up
        with its payload unchanged (AXI4 A3.2.1); returns channel -> taken at this edge."""
        fired = {}
        for ch, (v, r, payload) in sigs.items():
            key = (port, ch)
            valid, ready = int(v.value), int(r.value)
            if key in self._held:
                assert valid, f"{port} {ch}: valid dropped before it was taken (edge {self.edge})"
                now = tuple(int(x.value) for x in payload)
                assert now == self._held[key], f"{port} {ch}: payload changed while waiting, {self._held[key]} -> {now} (edge {self.edge})"
            if valid and not ready:
                self._held[key] = tuple(int(x.value) for x in payload)
            else:
                self._held.pop(key, None)
            fired[ch] = bool(valid and ready)
        return fired

    def axi_channels(self, port: str = "mem") -> dict:
        """The channels the design drives on a port, for ``handshakes``: AR, AW (address, AxLEN, AxSIZE, AxBURST), W."""
        s = lambda name: self.sig(port, name)
        return {
            "ar": (s("arvalid"), s("arready"), (s("araddr"), s("arlen"), s("arsize"), s("arburst"))),
            "aw": (s("awvalid"), s("awready"), (s("awaddr"), s("awlen"), s("awsize"), s("awburst"))),
            "w": (s("wvalid"), s("wready"), (s("wdata"), s("wstrb"), s("wlast"))),
        }

    def check_burst(self, ch: str, addr: int, ln: int, sz: int, burst: int):
        nbytes = (ln + 1) << sz
        assert burst == 1, f"{ch} {addr:#x}: burst type {burst}, not INCR"
        assert sz == self.axsize, f"{ch} {addr:#x}: AxSIZE {sz}, not the bus width ({self.axsize})"
        assert addr // PAGE_BYTES == (addr + nbytes - 1) // PAGE_BYTES, \
            f"{ch} burst {addr:#x} + {nbytes} bytes crosses a {PAGE_BYTES}-byte boundary"

    def take_bursts(self, fired: dict, sigs: dict, ar_seen: list, aw_seen: list):
        """The AR and AW taken at this edge (``handshakes``' result): each checked (``check_burst``) and appended as
        (address, AxLEN) to its list."""
        for ch, seen in (("ar", ar_seen), ("aw", aw_seen)):
            if fired[ch]:
                addr, ln, sz, burst = (int(x.value) for x in sigs[ch][2])
                self.check_burst(ch.upper(), addr, ln, sz, burst)
                seen.append((addr, ln))

    def count_bursts(self, ar: bool, aw: bool, read_limit: int, write_limit: int, port: str = "mem"):
        """Bursts in flight on a port: a read from its AR to its RLAST beat, a write from its AW to its B."""
        s = lambda name: int(self.sig(port, name).value)
        c = self._in_flight[port]
        if ar:
            c[0] += 1
        if s("rvalid") and s("rready") and s("rlast"):
            c[0] -= 1
        if aw:
            c[1] += 1
        if s("bvalid") and s("bready"):
            c[1] -= 1
        self.reads_in_flight, self.writes_in_flight = c
        self.max_reads_in_flight = max(self.max_reads_in_flight, c[0])
        self.max_writes_in_flight = max(self.max_writes_in_flight, c[1])
        assert c[0] <= read_limit, f"{port}: {c[0]} read bursts in flight (at most {read_limit})"
        assert c[1] <= write_limit, f"{port}: {c[1]} write bursts unacknowledged (at most {write_limit})"

    def check_w_beat(self, beat: int, strb: int, last: int):
        """W beat number ``beat`` (from 0) of the run: full strobes, WLAST on every burst_beats-th beat."""
        assert strb == self.full_strb, f"W beat {beat}: WSTRB {strb:#x}, not full"
        want_last = (beat + 1) % self.m["burst_beats"] == 0
        assert last == want_last, f"W beat {beat}: WLAST {last}, expected {int(want_last)}"

    # ---- a run ----
    async def run_to_done(self, label: str, limit: int, traffic) -> int:
        """Pulses ``io_start`` once the design is idle and returns the cycles from the edge that takes it to the one
        that sets ``done``; then checks for 20 cycles that ``traffic()`` (a tuple of counts) stays put, and that no
        error response came."""
        d = self.dut
        while int(d.io_busy.value):
            await RisingEdge(d.clk)
        d.io_start.value = 1
        await RisingEdge(d.clk)      # the edge that takes start
        self.start_edge = self.edge
        d.io_start.value = 0
        edges = 0
        t0 = time.monotonic()
        while True:
            await RisingEdge(d.clk)
            edges += 1
            if int(d.io_done.value):
                break
            assert edges < limit, f"{label}: no done after {limit} cycles"
            if edges % PROGRESS_EDGES == 0:
                # A progress line on long runs (the large sets run for an hour or more under Verilator).
                dt = time.monotonic() - t0
                d._log.warning(f"{label}: {edges:,} cycles, {dt:.0f} s, {1e3 * dt / edges:.2f} ms a cycle")
        # Values read just after an edge are those before it: done seen after edge k was set by edge k - 1.
        cycles = edges - 1
        await self.quiet_after_done(label, traffic)
        assert not int(d.io_respError.value), f"{label}: an error response"
        return cycles

    async def quiet_after_done(self, label: str, traffic):
        """No traffic (``traffic()``, a tuple of counts) in the 20 cycles after done."""
        counts = traffic()
        for _ in range(20):
            await RisingEdge(self.dut.clk)
        assert counts == traffic(), f"{label}: traffic after done: {counts} -> {traffic()}"

    # ---- the memory ----
    def to_bytes(self, words) -> bytes:
        return b"".join(int(w).to_bytes(self.slot_bytes, "little") for w in words)

    def region_words(self, data: bytes, region: str, limb: int = 0):
        """The n slots of ``region`` (limb ``limb``) in a memory image, in address order."""
        at = self.layout.base(region, limb)
        sb = self.slot_bytes
        return [int.from_bytes(data[at + i * sb:at + (i + 1) * sb], "little") for i in range(self.n)]

    def where(self, at: int) -> str:
        """A byte address as the layout names it: region, slot, row and column."""
        region = at // self.layout.region_bytes
        slot = (at % self.layout.region_bytes) // self.slot_bytes
        name = REGIONS[region] if region < len(REGIONS) else "?"
        return f"region {name}, slot {slot} = row {slot // self.n2}, column {slot % self.n2}"

    def diff_memory(self, label: str, got: bytes, want: bytes, what: str):
        """Asserts that two memory images are equal, naming the first slot that differs."""
        if got == want:
            return
        sb = self.slot_bytes
        bad = [i for i in range(0, len(want), sb) if got[i:i + sb] != want[i:i + sb]]
        at = bad[0]
        raise AssertionError(
            f"{label}: {len(bad)} slots differ from {what}; first at byte {at:#x} ({self.where(at)}): "
            f"{int.from_bytes(got[at:at + sb], 'little'):#x}, expected {int.from_bytes(want[at:at + sb], 'little'):#x}")

    def operands(self, pattern: str, q: int):
        """(a, b), residues mod q: ``random``; the edge polynomials ``max`` (all q - 1, both), ``zero`` (zero times
        random), ``zero_max`` (zero times all q - 1), ``onehot`` (one random coefficient at a random place, times
        random), ``xn1`` (x^(n-1) squared = -x^(n-2)), ``onehot_xn1`` (a one-hot times x^(n-1))."""
        n, rng = self.n, self.rng

        def rand():
            return [rng.randrange(q) for _ in range(n)]

        def onehot():
            a = [0] * n
            a[rng.randrange(n)] = rng.randrange(1, q)
            return a

        xn1 = [0] * n
        xn1[n - 1] = 1
        patterns = {
            "random": lambda: (rand(), rand()),
            "max": lambda: ([q - 1] * n, [q - 1] * n),
            "zero": lambda: ([0] * n, rand()),
            "zero_max": lambda: ([0] * n, [q - 1] * n),
            "onehot": lambda: (onehot(), rand()),
            "xn1": lambda: (list(xn1), list(xn1)),
            "onehot_xn1": lambda: (onehot(), list(xn1)),
        }
        if pattern not in patterns:
            raise ValueError(f"operand pattern {pattern!r}: one of {', '.join(patterns)}")
        return patterns[pattern]()

    def record(self, kind: str, results):
        """``<kind>_cycles_<test>.json`` beside the simulation's results file; ``<test>_lat<N>`` with N more edges of
        memory latency (MODFORGE_MEM_LATENCY), so that such a run does not replace the same test's record at AxiRam's."""
        out = Path(os.environ.get("COCOTB_RESULTS_FILE", "results.xml")).parent
        name = results[0]["test"].split(":")[0] + (f"_lat{self.mem_latency}" if self.mem_latency else "")
        # The simulator, so that a report can say which one measured the cycles (Icarus or Verilator).
        sim = f"{cocotb.SIM_NAME} {cocotb.SIM_VERSION}".strip()
        results = [{**r, "mem_latency_cycles": self.mem_latency, "simulator": sim} for r in results]
        (out / f"{kind}_cycles_{name}.json").write_text(json.dumps(results, indent=1) + "\n")
