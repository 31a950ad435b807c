"""What the cocotb benches share: the manifest they are run on, and how a bench starts."""
import json
import os


def env_manifest() -> dict:
    """The design's manifest, named by MODFORGE_MANIFEST (set by runner.run_bench)."""
    with open(os.environ["MODFORGE_MANIFEST"]) as f:
        return json.load(f)


async def start_bench(bench_class, dut, salt=0):
    """A bench of `bench_class` on `dut`, seeded by MODFORGE_SEED + salt, clock MODFORGE_CLK_NS (default 10 ns)."""
    tb = bench_class(dut, env_manifest(), int(os.environ.get("MODFORGE_SEED", "1")) + salt)
    await tb.start(float(os.environ.get("MODFORGE_CLK_NS", "10")))
    return tb
