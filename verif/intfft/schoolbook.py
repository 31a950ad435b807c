"""The block-schoolbook controller of the super-size multiplier (Cao et al., Section 3.1 Steps 1-3.3,
Section 3.4 / Fig. 5; the notes' section 2.2 H), cycle-accurate at the bus level, over a RAM model.

x (n_x bits) is split into Bx = ceil(n_x / (kb/2)) blocks x_i, y into By blocks y_j; each block is
W = kb/(2d) = 8 bus words of d bits. For i < Bx, for j < By (Step 3.3's order), block pair n =
i By + j:

  Step 1    x_i, y_j read on read buses 1 and 2, one word each per clock: cycles [W n, W n + W).
  Step 2    z_ij = x_i y_j by the Integer-FFT block multiplier (fft.py) and addition recovery
            (recovery.py): 2W words, available L = 2 N_F log2 k + N_PW + N_AR = 16 log2 k + 16
            cycles after the last read word.
  Step 3.2  word u of block n is written at cycle W + L + W n + u (one write bus, one word per clock)
            to position i + j of z (block address z_base + W (i + j)):
                LSB(z_ij)[u] + MSB(z_i,j-1)[u] (j > 0) + z_{i+j}[u] (i > 0) + carry
            where MSB(z_i,j-1) is the on-chip register array (Fig. 5) and the carry (< 3, two bits)
            runs serially across the words and blocks of a row. The read-back z_{i+j} (Step 3.1,
            read bus 3, same cycle) comes from the RAM for j < By - 1; for j = By - 1 position
            i + By - 1 holds only the previous row's top block, which is kept in registers (the
            "pending" block: MSB(z_{i-1,By-1}) plus that row's final carry, which always fits in
            kb/2 bits), so no extra write is needed at the end of a row and every block product
            costs W write cycles, as the paper states for j == By - 1 ("(kb)/(2d)").
  flush     after the last row, the pending block (position Bx + By - 1) is written: W cycles.

Total cycles (reads, latency, writes; the last write ends the multiplication):
    T = W + L + W Bx By + W  =  8 Bx By + 16 log2 k + 32     (W = 8, N_F = N_PW = N_AR = 8)
against the paper's Eq. (12) (latency.eq12): T - Eq12 = 16 Bx, made of
    8        Eq. (12)'s constant 16(log2 k + 1) is 8 cycles below the preparation latency the
             text describes, kb/(2d) + 2 N_F log2 k + N_PW + N_AR = 16 log2 k + 24 (the notes' point);
    8        the final flush of the top block, which Eq. (12) does not count;
    16(Bx-1) Eq. (12)'s "- n_x + kb/2" term, -16 (Bx - 1) cycles, which no schedule with one
             d-bit write bus and W words per block product can achieve (Eq. (12) even drops below
             the write bound W Bx By for Bx > 2 log2 k + 4). For Bx = 1 (the CMNT runs) it is 0.

Step 3.1 as printed reads z_{i+j} only "when both i > 0 and j > 0", but Step 3.2's case i > 0,
j == 0 needs it too; the model reads it whenever i > 0.

RamModel: a word-addressed d-bit RAM with a capacity (default 2^22 words); an operand, or the
product, that does not fit is refused with RamError naming the operand and the sizes. It checks the
bus budget (3 reads and 1 write per clock) and that every read-back was written on an earlier clock.
"""
from collections import defaultdict
from math import ceil
from typing import NamedTuple

from .fft import IntegerFFT, N_F, N_PW
from .params import FftGroup, check_group
from .recovery import N_AR, recover

DEFAULT_RAM_WORDS = 1 << 22
READ_BUSES, WRITE_BUSES = 3, 1


class RamError(ValueError):
    """An operand or result that does not fit the RAM model, or a bus/ordering violation."""


class RamModel:
    def __init__(self, d: int, words: int = DEFAULT_RAM_WORDS, write_buses: int = WRITE_BUSES):
        self.d, self.words, self.mask = d, words, (1 << d) - 1
        self.write_buses = write_buses
        self.mem, self.written_at = {}, {}
        self.reads, self.writes = defaultdict(int), defaultdict(int)

    def check_fits(self, what: str, base: int, nwords: int, bits: int = None):
        if base < 0 or base + nwords > self.words:
            size = f"{bits} bits = " if bits is not None else ""
            raise RamError(f"{what} ({size}{nwords} words of d = {self.d} bits at word {base}) does not fit "
                           f"the RAM model of {self.words} words (it would end at word {base + nwords}); "
                           f"give RamModel(words=...) at least {base + nwords} words or use shorter operands")

    def store(self, what: str, base: int, value: int, nwords: int):
        """Preloads value (before the run) as nwords words from base."""
        if value < 0 or value >> (nwords * self.d):
            raise RamError(f"{what} ({value.bit_length()} bits) is longer than its {nwords} words of {self.d} bits")
        self.check_fits(what, base, nwords, value.bit_length())
        for u in range(nwords):
            self.mem[base + u] = (value >> (u * self.d)) & self.mask
            self.written_at[base + u] = -1

    def load(self, base: int, nwords: int) -> int:
        return sum(self.mem.get(base + u, 0) << (u * self.d) for u in range(nwords))

    def read(self, addr: int, cycle: int) -> int:
        self.reads[cycle] += 1
        if self.reads[cycle] > READ_BUSES:
            raise RamError(f"cycle {cycle}: more than {READ_BUSES} RAM reads")
        if addr in self.written_at and self.written_at[addr] >= cycle:
            raise RamError(f"cycle {cycle}: word {addr} read before its write at cycle {self.written_at[addr]} lands")
        return self.mem.get(addr, 0)

    def write(self, addr: int, word: int, cycle: int):
        self.writes[cycle] += 1
        if self.writes[cycle] > self.write_buses:
            raise RamError(f"cycle {cycle}: more than {self.write_buses} RAM write(s)")
        if not 0 <= addr < self.words:
            raise RamError(f"cycle {cycle}: write to word {addr} outside the RAM model of {self.words} words")
        assert 0 <= word <= self.mask
        self.mem[addr] = word
        self.written_at[addr] = cycle


class Product(NamedTuple):
    product: int
    cycles: int         # clock of the last write + 1
    first_write: int    # the preparation latency (clock of the first written word)
    bx: int
    by: int
    z_base: int
    z_words: int


def blocks(nbits: int, block_bits: int) -> int:
    return max(1, ceil(nbits / block_bits))


def model_cycles(group: FftGroup, bx: int, by: int) -> int:
    """The controller's cycle count in closed form: W + L + W Bx By + W."""
    w = group.words_per_block
    return w + pipeline_latency(group) + w * bx * by + w


def pipeline_latency(group: FftGroup) -> int:
    """L = 2 N_F log2 k + N_PW + N_AR: last read word to first product word."""
    return 2 * N_F * group.log2k + N_PW + N_AR


class SchoolbookMultiplier:
    """block_mul: "fft" (the Integer-FFT model, default), "exact" (Python's x_i*y_j, to test the
    controller alone), or a callable (x_i, y_j) -> int."""

    def __init__(self, group: FftGroup, block_mul="fft", organisation="parallel"):
        self.g = check_group(group)
        self.W = group.words_per_block
        self.fft = IntegerFFT(group, organisation) if block_mul == "fft" else None
        self.block_mul = block_mul

    def _block_words(self, xi, yj, cache_x, cache_y) -> list:
        g = self.g
        if self.fft is not None:
            X = cache_x.get(xi)
            if X is None:
                X = cache_x[xi] = self.fft.forward(self.fft.digits(xi))
            Y = cache_y.get(yj)
            if Y is None:
                Y = cache_y[yj] = self.fft.forward(self.fft.digits(yj))
            return recover(self.fft.coefficients(xi, yj, X, Y), g.b, g.d)
        z = xi * yj if self.block_mul == "exact" else self.block_mul(xi, yj)
        return [(z >> (u * g.d)) & ((1 << g.d) - 1) for u in range(2 * self.W)]

    def multiply(self, x: int, y: int, n_x: int = None, n_y: int = None, ram: RamModel = None) -> Product:
        """x * y with x at word 0, y after it, z after y, in a fresh RamModel unless one is given."""
        if x < 0 or y < 0:
            raise ValueError("the super-size multiplier takes non-negative operands")
        g, W = self.g, self.W
        n_x = x.bit_length() if n_x is None else n_x
        n_y = y.bit_length() if n_y is None else n_y
        bx, by = blocks(n_x, g.block_bits), blocks(n_y, g.block_bits)
        ram = ram or RamModel(g.d)
        ram.store(f"operand x ({bx} blocks)", 0, x, W * bx)
        ram.store(f"operand y ({by} blocks)", W * bx, y, W * by)
        return self.multiply_ram(ram, 0, bx, W * bx, by, W * (bx + by))

    def multiply_ram(self, ram: RamModel, x_base: int, bx: int, y_base: int, by: int, z_base: int,
                     start: int = 0) -> Product:
        """The controller proper: operands already in the RAM, product written from z_base; the
        run begins at clock `start` (Product.cycles is its duration)."""
        g, W, d = self.g, self.W, self.g.d
        ram.check_fits(f"the product ({bx + by} blocks)", z_base, W * (bx + by))
        mask = (1 << d) - 1
        L = pipeline_latency(g)
        t0 = start + W + L
        cache_x, cache_y = {}, {}
        pending = None
        for i in range(bx):
            held, carry = None, 0
            for j in range(by):
                n = i * by + j
                xi = sum(ram.read(x_base + W * i + u, start + W * n + u) << (u * d) for u in range(W))
                yj = sum(ram.read(y_base + W * j + u, start + W * n + u) << (u * d) for u in range(W))
                words = self._block_words(xi, yj, cache_x, cache_y)
                pos = z_base + W * (i + j)
                for u in range(W):
                    c = t0 + W * n + u
                    acc = words[u] + carry
                    if j > 0:
                        acc += held[u]
                    if i > 0:
                        acc += pending[u] if j == by - 1 else ram.read(pos + u, c)
                    ram.write(pos + u, acc & mask, c)
                    carry = acc >> d
                    assert carry < 3
                held = words[W:]
            pending, c2 = [], carry
            for u in range(W):
                s = held[u] + c2
                pending.append(s & mask)
                c2 = s >> d
            assert c2 == 0, "the top block of a row overflowed kb/2 bits"
        top = z_base + W * (bx - 1 + by)
        end = t0 + W * bx * by
        for u in range(W):
            ram.write(top + u, pending[u], end + u)
        cycles = end + W - start
        assert cycles == model_cycles(g, bx, by)
        return Product(ram.load(z_base, W * (bx + by)), cycles, t0 - start, bx, by, z_base, W * (bx + by))
