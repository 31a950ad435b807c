"""What the cocotb benches share: the manifest they are run on, and how a bench starts."""
import json
import os

from cocotb.triggers import ReadOnly, Timer


def env_manifest() -> dict:
    """The design's manifest, named by MODFORGE_MANIFEST (set by runner.run_bench)."""
    with open(os.environ["MODFORGE_MANIFEST"]) as f:
        return json.load(f)


async def start_bench(bench_class, dut, salt=0):
    """A bench of `bench_class` on `dut`, seeded by MODFORGE_SEED + salt, clock MODFORGE_CLK_NS (default 10 ns)."""
    tb = bench_class(dut, env_manifest(), int(os.environ.get("MODFORGE_SEED", "1")) + salt)
    await tb.start(float(os.environ.get("MODFORGE_CLK_NS", "10")))
    return tb


async def settle():
    """Wait until outputs that depend on inputs just driven can be read: MODFORGE_SETTLE_NS (default 0,
    the same time step: RTL, and the functional cell models, whose combinational logic has no delay),
    then the read-only phase. A timed run (runner.run_gls_sdf: cells with their SDF delays) sets it below
    half the clock period, so a bench that drives on the falling edge still reads before the rising edge."""
    ns = float(os.environ.get("MODFORGE_SETTLE_NS", "0"))
    if ns:
        await Timer(ns, unit="ns")
    await ReadOnly()
