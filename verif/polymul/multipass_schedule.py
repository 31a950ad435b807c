"""The external-memory schedule of the multi-pass (four-step) polymul engine (issue 40): which
addresses each pass reads and writes, as AXI4 bursts of the bus width, and what that costs (bytes
moved, cycles, bandwidth, time per product, outstanding bursts). The product itself
(``polymul.multipass``) runs on these bursts: it reads and writes its flat memory only through
them, so a wrong address here is a wrong product there.

Every cost is counted from the bursts (:func:`costs` walks :func:`schedule`), not from a closed
formula. docs/polymul_multipass.md gives the formulas the counts obey; the tests check that they agree.

**Layout.** A polynomial of limb l is a region of n words in external memory, coefficient i at word
i: read as an n1 x n2 matrix, row-major (n2 = n / n1), coefficient i = j2 + n2 j1 sits at row j1,
column j2. A word is a slot of ``slot_bits`` (a power of two >= the limb width), so a bus beat holds
e = bus_bits / slot_bits coefficients and a burst be = e * burst_beats of one row. Regions start on
4 KB boundaries, so a burst (at most 4 KB and aligned to its size) never crosses one (AXI4 forbids
it). Per limb five regions, in this order: ``a``, ``b`` (the operands, only read), ``x``, ``y``
(scratch: pass 1's output for a and b) and ``c`` (the product).

**Passes** (the product's arithmetic is in ``polymul.multipass``):

1. ``columns``: n2 / be blocks of be adjacent columns. A block reads one burst per row of a and of b
   (the corner turn: strided reads, each burst contiguous within its row), runs the negacyclic
   n1-point NTT of every column and the middle twiddles, and writes the block to x and y.
2. ``rows``: n1 blocks, one per row. A block reads the row of x and of y (n2 / be bursts each), runs
   their negacyclic n2-point product (the single-pass engine at n2: forward NTTs, pointwise product,
   inverse NTT), and writes the row back over x (in place: a row is read whole before it is written,
   which saves a third scratch region).
3. ``columns_inverse``: as pass 1 on x alone (inverse middle twiddles, inverse column NTTs), writing c.

**Column modes** (``MultipassParams.columns``). ``turn`` (above): a column pass corner-turns each
block on chip, so its bursts go operand by operand, rows in natural order. ``stream``: the column
passes have no corner turn; rows stream straight through an n1-point NTT pipeline that runs the
block's be column transforms interleaved, so a block's bursts go row by row, the operands
alternating, and the spectra's rows (x and y, indexed by k1) in the pipeline's bit-reversed order:
``columns`` reads a's row t then b's row t for t = 0 .. n1 - 1 and writes x's row rev(t) then y's;
``columns_inverse`` reads x's row rev(t) and writes c's row t. Same bursts, other order: the costs
do not change. (The middle twiddles move to ``rows``: ``polymul.multipass``.)

Why three passes and not five: the pointwise product of a row of the spectra needs nothing but that
row, so the forward row NTTs, the product and the inverse row NTT stay on chip in one pass; the
spectra never go to memory. That is 9 n words per limb instead of 15 n.

**Limbs.** ``side``: the L limb engines run each pass at once, their bursts interleaved block by
block on the one port. ``sequence``: one limb engine runs a pass for limb 0, then limb 1, ..., then
the next pass (pass-major, so a product has three pass boundaries, not 3 L).
"""
from dataclasses import dataclass
from functools import lru_cache
from math import ceil
from typing import Iterator, Tuple

PAGE_BYTES = 4096            # AXI4: a burst must not cross a 4 KB boundary
MAX_BURST_BEATS = 256        # AXI4 INCR bursts: AxLEN + 1 <= 256
AXI_DATA_BITS = (8, 16, 32, 64, 128, 256, 512, 1024)  # AXI4's data widths
REGIONS = ("a", "b", "x", "y", "c")
LIMB_MODES = ("side", "sequence")
COLUMN_MODES = ("turn", "stream")
# The regions a column pass indexes by k1 (the column NTT's spectra): in ``stream`` mode the NTT
# pipeline emits (forward) and takes (inverse) their rows in bit-reversed order.
SPECTRA = ("x", "y")

# A pass: its name, whether its blocks are column blocks or rows, the regions it reads (operands in
# order) and the regions it writes (one per result, same order).
PASSES = (
    ("columns", "column", ("a", "b"), ("x", "y")),
    ("rows", "row", ("x", "y"), ("x",)),
    ("columns_inverse", "column", ("x",), ("c",)),
)


# Cycles the burst mover adds to a read burst's round trip (hw/.../multipass/BlockReader.scala): the
# AR command's pipeline register (1) and the beat buffer's read (2).
MOVER_CYCLES = 3


@dataclass(frozen=True)
class Burst:
    """One AXI4 INCR burst: ``beats`` beats from byte address ``addr`` of limb ``limb``'s region
    ``region``, holding ``elements`` coefficients of matrix row ``row`` from column ``col`` on (the
    place the schedule means; ``addr`` is where it goes, and the tests check that the two agree)."""
    region: str
    limb: int
    addr: int
    beats: int
    row: int
    col: int
    elements: int


@dataclass(frozen=True)
class Block:
    """What one engine holds on chip at once in a pass: rows [row0, row0 + rows) by columns
    [col0, col0 + cols) of each region it reads, from ``reads``, written back by ``writes``."""
    pass_name: str
    limb: int
    row0: int
    rows: int
    col0: int
    cols: int
    reads: Tuple[Burst, ...]
    writes: Tuple[Burst, ...]

    @property
    def elements(self) -> int:
        """Coefficients of one operand the block streams through the lanes."""
        return self.rows * self.cols


@dataclass(frozen=True)
class Pass:
    name: str
    kind: str                 # "column" or "row"
    reads: Tuple[str, ...]    # regions read, operands in order
    writes: Tuple[str, ...]   # regions written


class Layout:
    """Addresses of the regions: byte address of (region, limb, row, col). Takes any object with
    n, n1, n2, limb_count, slot_bits, bus_bits, burst_beats and limb_mode (``MultipassParams``;
    :func:`schedule` also reads its ``columns``)."""

    def __init__(self, p):
        self.p = p
        self.slot_bytes = p.slot_bits // 8
        self.beat_bytes = p.bus_bits // 8
        self.per_beat = p.bus_bits // p.slot_bits              # e
        self.burst_elements = self.per_beat * p.burst_beats    # be
        self.burst_bytes = self.beat_bytes * p.burst_beats
        # Regions on page boundaries: bursts are aligned to their size within a region, so none
        # crosses a page.
        self.region_bytes = ceil(p.n * self.slot_bytes / PAGE_BYTES) * PAGE_BYTES
        self.total_bytes = self.region_bytes * len(REGIONS) * p.limb_count

    def base(self, region: str, limb: int) -> int:
        return (limb * len(REGIONS) + REGIONS.index(region)) * self.region_bytes

    def address(self, region: str, limb: int, row: int, col: int) -> int:
        return self.base(region, limb) + (row * self.p.n2 + col) * self.slot_bytes

    def row_bursts(self, region: str, limb: int, row: int, col0: int, cols: int) -> Iterator[Burst]:
        """The bursts that carry columns [col0, col0 + cols) of one row (cols a multiple of be)."""
        be = self.burst_elements
        for col in range(col0, col0 + cols, be):
            yield Burst(region, limb, self.address(region, limb, row, col), self.p.burst_beats, row, col, be)


def passes():
    return [Pass(*x) for x in PASSES]


@lru_cache(maxsize=None)
def bit_reversal(m: int) -> Tuple[int, ...]:
    """rev(t) for t < m (m a power of two): t's log2(m) bits reversed."""
    bits = m.bit_length() - 1
    return tuple(int(format(i, f"0{bits}b")[::-1], 2) for i in range(m)) if bits else (0,)


def _blocks(layout: Layout, ps: Pass, limb: int) -> Iterator[Block]:
    p, be = layout.p, layout.burst_elements
    if ps.kind == "column":
        # be adjacent columns a block: one burst per row and region, the corner turn through memory.
        # (So a burst is exactly one row segment of the block, the shape ``stream`` mode needs.)
        shapes = [(0, p.n1, col0, be) for col0 in range(0, p.n2, be)]
    else:
        shapes = [(row, 1, 0, p.n2) for row in range(p.n1)]
    streamed = ps.kind == "column" and p.columns == "stream"
    for row0, rows, col0, cols in shapes:
        def bursts(regions):
            if not streamed:    # turn: the corner turn takes each operand's block whole, one after the other
                return tuple(b for region in regions for row in range(row0, row0 + rows)
                             for b in layout.row_bursts(region, limb, row, col0, cols))
            # stream: row by row, the operands alternating, as the NTT pipeline takes and emits them
            rev = bit_reversal(rows)
            return tuple(b for t in range(rows) for region in regions
                         for b in layout.row_bursts(region, limb, row0 + (rev[t] if region in SPECTRA else t),
                                                    col0, cols))
        yield Block(ps.name, limb, row0, rows, col0, cols, bursts(ps.reads), bursts(ps.writes))


def schedule(p) -> Iterator[Tuple[Pass, Iterator[Block]]]:
    """The product's passes in order, each with its blocks in issue order: with ``side`` limbs,
    block k of every limb before block k + 1 (the limb engines run together on the one port); with
    ``sequence``, every block of limb 0, then of limb 1, ... (one engine, pass-major)."""
    layout = Layout(p)
    for ps in passes():
        if p.limb_mode == "side":
            def order(ps=ps):
                per_limb = [_blocks(layout, ps, l) for l in range(p.limb_count)]
                for group in zip(*per_limb):
                    yield from group
        else:
            def order(ps=ps):
                for l in range(p.limb_count):
                    yield from _blocks(layout, ps, l)
        yield ps, order()


# ---- What the schedule costs ----
@dataclass(frozen=True)
class PassCost:
    """One pass, counted from its bursts. ``stream_cycles``: the cycles the engine needs to push
    every block's coefficients through P lanes (one coefficient of each operand per lane and cycle;
    with ``side`` limbs the limb engines run at once, with ``sequence`` one after another).
    ``port_cycles``: the AXI read and write data channels each move one beat a cycle, so a pass
    takes at least its larger beat count on the one port."""
    name: str
    read_bursts: int
    write_bursts: int
    read_beats: int
    write_beats: int
    beat_bytes: int
    stream_cycles: int

    @property
    def bytes_read(self) -> int:
        return self.read_beats * self.beat_bytes

    @property
    def bytes_written(self) -> int:
        return self.write_beats * self.beat_bytes

    @property
    def bytes_moved(self) -> int:
        return self.bytes_read + self.bytes_written

    @property
    def port_cycles(self) -> int:
        return max(self.read_beats, self.write_beats)

    def cycles(self, latency_cycles: int = 0, fill_cycles: int = 0) -> int:
        """The pass's cycles: the larger of the lanes' and the port's, plus what a pass boundary
        costs (the pass reads nothing the previous one has not finished writing): the memory's
        round trip ``latency_cycles`` and the pipelines' fill ``fill_cycles`` (the RTL's figure)."""
        return max(self.stream_cycles, self.port_cycles) + latency_cycles + fill_cycles

    def seconds(self, f_hz: float, bandwidth: float, latency_s: float = 0.0, fill_cycles: int = 0) -> float:
        """max(cycles / f_clk, bytes / B) for this pass, plus its boundary (latency and fill)."""
        return max(self.cycles() / f_hz, self.bytes_moved / bandwidth) + latency_s + fill_cycles / f_hz


@dataclass(frozen=True)
class Costs:
    """A product's costs, pass by pass (:func:`costs`)."""
    passes: Tuple[PassCost, ...]

    @property
    def bytes_moved(self) -> int:
        return sum(c.bytes_moved for c in self.passes)

    @property
    def bursts(self) -> int:
        return sum(c.read_bursts + c.write_bursts for c in self.passes)

    def cycles(self, latency_cycles: int = 0, fill_cycles: int = 0) -> int:
        """Engine cycles per product: the passes one after another (a pass starts when the previous
        one's last write has landed), each at the larger of its lanes' and its port's cycles; with
        ``latency_cycles`` and ``fill_cycles`` per pass boundary."""
        return sum(c.cycles(latency_cycles, fill_cycles) for c in self.passes)

    def bandwidth_needed(self, f_hz: float) -> float:
        """Bytes/s that keep the engine busy on average over a product at clock f_hz."""
        return self.bytes_moved * f_hz / self.cycles()

    def peak_bandwidth(self, f_hz: float) -> float:
        """Bytes/s the busiest pass needs to run at its own cycle count (the passes differ: pass 1
        moves 4 n words per limb, pass 3 only 2 n)."""
        return max(c.bytes_moved * f_hz / c.cycles() for c in self.passes)

    def time_bound(self, f_hz: float, bandwidth: float) -> float:
        """The issue's figure: max(cycles / f_clk, bytes / B) over the whole product. Optimistic:
        it lets one pass's traffic spread over another's cycles, which the pass boundaries forbid."""
        return max(self.cycles() / f_hz, self.bytes_moved / bandwidth)

    def time_per_product(self, f_hz: float, bandwidth: float, latency_s: float = 0.0, fill_cycles: int = 0) -> float:
        """Seconds per product pass by pass: the sum of max(cycles_p / f_clk, bytes_p / B), plus one
        memory round trip and the pipelines' fill per pass boundary. >= :meth:`time_bound`; equal
        when every pass is bound the same way and latency and fill are 0."""
        return sum(c.seconds(f_hz, bandwidth, latency_s, fill_cycles) for c in self.passes)

    def outstanding(self, f_hz: float, bandwidth: float, latency_s: float,
                    mover_cycles: int = MOVER_CYCLES) -> Tuple[int, int]:
        """(read, write) bursts in flight that hide a memory latency of latency_s, by Little's law:
        in flight = arrival rate x the time a burst holds its credit, the rate being the busiest pass's
        bursts per second at its pace max(cycles_p / f_clk, bytes_p / B). A burst holds its credit for
        the round trip: the memory's latency, its own beats, and the mover's ``mover_cycles`` (the
        burst mover's AR register and its buffer's 2-cycle read: docs/polymul_multipass.md, "RTL: the
        burst mover", where the sweep on AxiRam measured this round trip). Reads and writes apart:
        AXI4 tracks them apart."""
        def need(count, beats):
            return max(ceil(count(c) / max(c.cycles() / f_hz, c.bytes_moved / bandwidth)
                            * (latency_s + (beats(c) / max(1, count(c)) + mover_cycles) / f_hz) - 1e-9)
                       if count(c) else 0 for c in self.passes)
        return (need(lambda c: c.read_bursts, lambda c: c.read_beats),
                need(lambda c: c.write_bursts, lambda c: c.write_beats))


def costs(p) -> Costs:
    """Walks the schedule and counts each pass's bursts, beats and the lanes' cycles."""
    layout = Layout(p)
    out = []
    for ps, blocks in schedule(p):
        rb = wb = rbeats = wbeats = 0
        per_limb = [0] * p.limb_count   # coefficients of one operand streamed, per limb engine
        for blk in blocks:
            rb += len(blk.reads)
            wb += len(blk.writes)
            rbeats += sum(b.beats for b in blk.reads)
            wbeats += sum(b.beats for b in blk.writes)
            per_limb[blk.limb] += blk.elements
        lane_cycles = [ceil(e / p.lanes) for e in per_limb]
        stream = max(lane_cycles) if p.limb_mode == "side" else sum(lane_cycles)
        out.append(PassCost(ps.name, rb, wb, rbeats, wbeats, layout.beat_bytes, stream))
    return Costs(tuple(out))


# ---- The external memory ----
class Memory:
    """External memory as one flat array of words (slots), moved only in whole bursts. Counts the
    bytes it moves, which the tests compare with :func:`costs`."""

    def __init__(self, p):
        self.layout = Layout(p)
        self.p = p
        self.words = [0] * (self.layout.total_bytes // self.layout.slot_bytes)
        self.bytes_read = 0
        self.bytes_written = 0

    def _span(self, b: Burst) -> slice:
        start = b.addr // self.layout.slot_bytes
        return slice(start, start + b.elements)

    def read(self, b: Burst):
        self.bytes_read += b.beats * self.layout.beat_bytes
        return self.words[self._span(b)]

    def write(self, b: Burst, values):
        if len(values) != b.elements:
            raise ValueError(f"burst of {b.elements} coefficients, given {len(values)}")
        self.bytes_written += b.beats * self.layout.beat_bytes
        self.words[self._span(b)] = list(values)

    # The host's view: a region as the polynomial it holds (coefficient i at word i of the region).
    def load(self, region: str, limb: int, values):
        if len(values) != self.p.n:
            raise ValueError(f"a polynomial has n = {self.p.n} coefficients, got {len(values)}")
        start = self.layout.base(region, limb) // self.layout.slot_bytes
        self.words[start:start + self.p.n] = [int(v) for v in values]

    def unload(self, region: str, limb: int):
        start = self.layout.base(region, limb) // self.layout.slot_bytes
        return self.words[start:start + self.p.n]

    def to_bytes(self) -> bytes:
        """The memory image, little-endian slots: what a bench writes into its AXI slave model."""
        s = self.layout.slot_bytes
        return b"".join(int(w).to_bytes(s, "little") for w in self.words)
