"""A memory latency for cocotbext-axi's ``AxiRam``, which answers a burst about two cycles after it takes the address
and has no latency setting of its own (issue 40: "the memory latency must be hidden by outstanding bursts").

``add_latency(ram, clk, cycles)`` keeps AxiRam as it is (its memory, its bursts, its checks) and moves two points in
time, as a DRAM or HBM controller with a deep command queue would:

- **reads:** an AR the RAM takes is held ``cycles`` edges before AxiRam's read process sees it, so its first R beat
  comes ``cycles`` later than AxiRam alone would send it. ARs keep being taken meanwhile (the queue is not
  bounded here: the design's own outstanding limit is what bounds it, and the bench counts it), so bursts issued
  back to back see the latency once, overlapped, as from a pipelined memory;
- **writes:** a B response AxiRam sends is held ``cycles`` edges, without stalling the next burst's AW and W
  (posted writes: only the acknowledgement comes late, which is what holds a writer's credit).

The stand-ins wrap AxiRam's own channel objects (``read_if.ar_channel``, ``write_if.b_channel``): every other use
(pause generators, reset's ``clear``) reaches the wrapped object.
"""
from collections import deque

import cocotb
from cocotb.triggers import Event, RisingEdge


class _Edges:
    """Rising edges of a clock, counted from when it is made."""

    def __init__(self, clk):
        self.clk, self.count = clk, 0
        cocotb.start_soon(self._run())

    async def _run(self):
        while True:
            await RisingEdge(self.clk)
            self.count += 1

    async def until(self, edge: int):
        while self.count < edge:
            await RisingEdge(self.clk)


class DelayedAddressSink:
    """Stands in for AxiRam's AR sink: takes every AR at once and hands it to the read process ``cycles`` edges
    after the edge that took it."""

    def __init__(self, sink, edges: _Edges, cycles: int):
        self._sink, self._edges, self._cycles = sink, edges, cycles
        self._queue, self._ready = deque(), Event()
        cocotb.start_soon(self._take())

    async def _take(self):
        while True:
            item = await self._sink.recv()
            self._queue.append((self._edges.count, item))
            self._ready.set()

    async def recv(self):
        while not self._queue:
            self._ready.clear()
            await self._ready.wait()
        taken, item = self._queue.popleft()
        await self._edges.until(taken + self._cycles)
        return item

    def __getattr__(self, name):
        return getattr(self._sink, name)


class DelayedResponseSource:
    """Stands in for AxiRam's B source: ``send`` returns at once (the write process goes on to the next burst) and
    the response goes out ``cycles`` edges later, in order."""

    def __init__(self, source, edges: _Edges, cycles: int):
        self._source, self._edges, self._cycles = source, edges, cycles
        self._queue, self._ready = deque(), Event()
        cocotb.start_soon(self._forward())

    async def send(self, item):
        self._queue.append((self._edges.count, item))
        self._ready.set()

    async def _forward(self):
        while True:
            while not self._queue:
                self._ready.clear()
                await self._ready.wait()
            sent, item = self._queue.popleft()
            await self._edges.until(sent + self._cycles)
            await self._source.send(item)

    def __getattr__(self, name):
        return getattr(self._source, name)


def add_latency(ram, clk, cycles: int):
    """``cycles`` more edges of read latency (AR taken to its first R beat) and of write response (last W beat to
    B) on an AxiRam; 0 leaves it as it is."""
    if cycles < 0:
        raise ValueError(f"memory latency {cycles} cycles: give 0 or more")
    if cycles == 0:
        return
    edges = _Edges(clk)
    ram.read_if.ar_channel = DelayedAddressSink(ram.read_if.ar_channel, edges, cycles)
    ram.write_if.b_channel = DelayedResponseSource(ram.write_if.b_channel, edges, cycles)
