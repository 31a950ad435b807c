"""The external RAM of the integer-FFT controllers' benches (intfft_schoolbook_bench.py,
intfft_barrett_bench.py): verif/intfft/schoolbook.py's RamModel answering the controller's buses."""
from cocotb.triggers import FallingEdge, RisingEdge, Timer

from intfft.schoolbook import RamModel


async def serve_ram(d, ram: RamModel, limit: int, write_buses=("wr",)) -> int:
    """Plays the external RAM for the controller `d`, clock by clock, until `done`: mid-clock t it takes
    the clock's read requests (three buses) and lands its writes (each bus of `write_buses`), and just
    after the edge that ends clock t it answers the reads (one clock of read latency). Returns the clock
    of `done`; raises if `done` does not come within `limit` clocks."""
    for t in range(limit + 1):
        # Mid-clock t: this clock's requests (the write may depend on read-back data driven at its start).
        pending = [(bus, int(getattr(d, f"rd{bus}_addr").value)) for bus in (1, 2, 3)
                   if getattr(d, f"rd{bus}_en").value == 1]
        for w in write_buses:
            if getattr(d, f"{w}_en").value == 1:
                ram.write(int(getattr(d, f"{w}_addr").value), int(getattr(d, f"{w}_data").value), t)
        if d.done.value == 1:
            break
        # Clock t + 1 begins: answer clock t's reads just after the edge.
        await RisingEdge(d.clk)
        await Timer(1, unit="ns")
        for bus, addr in pending:
            getattr(d, f"rd{bus}_data").value = ram.read(addr, t)
        await FallingEdge(d.clk)
    else:
        raise AssertionError(f"no done within {limit} clocks")
    await FallingEdge(d.clk)
    return t
