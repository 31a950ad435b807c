"""cocotb bench for the NTT tiles (``ntt_<N>_<k>_p<P>_<arrangement>[_ram][_sram]``).

The tile is described by its manifest (``MODFORGE_MANIFEST``: N, k, P, q, psi, latency, the
cycle counts it promises, command codes). Every result is checked against :mod:`ntt.ntt`,
a direct O(N^2) evaluation of the negacyclic transform at odd powers of psi and a schoolbook
negacyclic product: no butterflies, no twiddle tables. Cycle counts are checked against the
formula below, written here from docs/ntt.md ("Architecture and cycle counts"), and against the
manifest.

Environment: MODFORGE_MANIFEST (required), MODFORGE_SEED (default 1), MODFORGE_STALL (probability
of a stalled beat on the load and unload streams in the stall tests, default 0.3), MODFORGE_CLK_NS.
"""
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

from bench_common import start_bench

from ntt import ntt as model
from ntt.ntt_host import class_prime, modulus_ports, twiddle_writes
from primetools.primes import ntt_prime

LOAD, UNLOAD, NTT, INTT, PWMUL = 0, 1, 2, 3, 4
NAMES = {LOAD: "LOAD", UNLOAD: "UNLOAD", NTT: "NTT", INTT: "INTT", PWMUL: "PWMUL"}
# The multipliers' pipelines (docs/ntt.md, "Architecture and cycle counts" and "Reduction arrangements
# (mont, wlmm, k2red)").
MUL_LATENCY = {"barrett": 4, "shoupbarrett": 4, "gshoup": 6,
               "mont": 4, "wlmm": 6, "k2red": 6}
# PWMUL passes: the reduction arrangements' X Y F, then times C = F^-2 (docs/ntt.md,
# "Reduction arrangements (mont, wlmm, k2red)").
PW_PASSES = {"barrett": 1, "shoupbarrett": 1, "gshoup": 1, "mont": 2, "wlmm": 2, "k2red": 2}


def stage_lag(b, p):
    """docs/ntt.md, "Architecture and cycle counts": the lag of the transition between the stages at pair
    distances 2^b and 2^(b-1) (NTT b then b-1, INTT b-1 then b), b >= 1: the next stage's cycle c
    reads only coefficients the stage before issued by its cycle c + lag."""
    bank_bits = (2 * p).bit_length() - 1
    if p == 1:
        return 1 << (b - 1)
    return (1 << (b - bank_bits)) + 1 if b > bank_bits else (1 if b == bank_bits else 0)


def expected_cycles(op, n, p, arrangement, storage="flops"):
    """docs/ntt.md, "Architecture and cycle counts": butterfly latency L = multiplier + 2 registers; each stage
    issues T = N/(2P) cycles (a PWMUL pass N/P), the next stage starts max(0, lag + L + 2 - T) cycles
    after (a second PWMUL pass max(0, L + 2 - N/P)), and the last results take L + 1 more, done one.
    SRAM storage (docs/sram_tile.md): the synchronous read takes the place of the operand register,
    so only UNLOAD changes: its words are read one cycle ahead and leave the tile from a register,
    N + 3."""
    lat = MUL_LATENCY[arrangement] + 2
    log_n = n.bit_length() - 1
    t = n // (2 * p)
    transform = log_n * t + sum(max(0, stage_lag(b, p) + lat + 2 - t) for b in range(1, log_n)) + lat + 2
    passes = PW_PASSES[arrangement]
    pwmul = passes * (n // p) + (passes - 1) * max(0, lat + 2 - n // p) + lat + 2
    unload = n + 1 + (2 if storage == "sram" else 0)
    return {NTT: transform, INTT: transform, PWMUL: pwmul, LOAD: n + 1, UNLOAD: unload}[op]


class NttBench:
    """Runs programs of tile commands, cycle by cycle.

    Inputs change on the falling edge and are sampled at the next rising edge, so a handshake
    fires when valid is driven while ready is seen high at the same falling edge.
    """

    def __init__(self, dut, manifest: dict, seed: int):
        self.dut, self.m = dut, manifest
        self.name = manifest["design"]
        self.n, self.k, self.p = manifest["n"], manifest["k"], manifest["p"]
        self.q, self.psi = int(manifest["q"]), int(manifest["psi"])
        self.arrangement = manifest["arrangement"]
        self.storage = manifest.get("storage", "flops")
        self.rng = random.Random(seed)
        self.cycle = 0

    async def start(self, clk_ns: float):
        cocotb.start_soon(Clock(self.dut.clk, clk_ns, unit="ns").start())
        d = self.dut
        d.reset.value = 1
        d.cmd_valid.value = 0
        d.load_valid.value = 0
        d.unload_ready.value = 0
        d.cmd_op.value = 0
        d.cmd_slot.value = 0
        d.load_data.value = 0
        if self.m["twiddles"] == "ram":
            d.tw_valid.value = 0
            self.drive_modulus(self.q)
        for _ in range(3):
            await FallingEdge(d.clk)
        d.reset.value = 0
        if self.m["twiddles"] == "ram":
            await self.load_twiddles(self.q, self.psi)

    # ---- RAM tile: modulus ports and twiddle writes (ntt.ntt_host) ----
    def drive_modulus(self, q):
        for name, value in modulus_ports(self.k, q, self.arrangement).items():
            getattr(self.dut, name).value = value

    async def load_twiddles(self, q, psi):
        d = self.dut
        for inverse, index, w, r in twiddle_writes(self.n, self.k, q, psi, self.arrangement):
            await FallingEdge(d.clk)
            d.tw_valid.value, d.tw_inverse.value, d.tw_index.value, d.tw_w.value, d.tw_r.value = 1, inverse, index, w, r
        await FallingEdge(d.clk)
        d.tw_valid.value = 0

    # ---- Commands ----
    async def run(self, program, stall=0.0, gaps=0.0, max_cycles=None):
        """Runs `program`, a list of (op, slot, coefficients for LOAD or None). A command is
        presented in the cycle its predecessor's `done` is seen (back to back) unless `gaps` adds
        idle cycles. `stall` is the probability of a stalled beat on either stream. Returns one dict
        per command: op, slot, cycles (fire to done), stalls, data (UNLOAD)."""
        d, rng = self.dut, self.rng
        max_cycles = max_cycles or 50 * sum(expected_cycles(op, self.n, self.p, self.arrangement, self.storage)
                                            for op, _, _ in program) + 1000
        results, queue, cur = [], list(program), None
        start = self.cycle
        while queue or cur is not None:
            await FallingEdge(d.clk)
            self.cycle += 1
            assert self.cycle - start < max_cycles, f"{self.name}: no done after {max_cycles} cycles ({cur})"
            done, ready = self._bit("done"), self._bit("cmd_ready")
            assert not self._bit("bad_cmd"), f"{self.name}: bad_cmd at cycle {self.cycle}"
            if done:
                assert cur is not None, f"{self.name}: done at cycle {self.cycle} with no command running"
                cur["cycles"] = self.cycle - cur.pop("fire")
                beats = cur.pop("beats")
                assert cur["op"] != LOAD or beats == self.n, f"{self.name}: LOAD took {beats} coefficients"
                if cur["op"] == UNLOAD:
                    assert len(cur["data"]) == self.n, f"{self.name}: UNLOAD gave {len(cur['data'])} coefficients"
                cur.pop("coeffs")
                results.append(cur)
                cur = None
            # Command stream.
            d.cmd_valid.value = 0
            d.cmd_op.value = rng.getrandbits(3)
            d.cmd_slot.value = rng.getrandbits(1)
            if cur is None and queue and not (gaps and rng.random() < gaps):
                op, slot, coeffs = queue[0]
                d.cmd_valid.value, d.cmd_op.value, d.cmd_slot.value = 1, op, slot
                if ready:
                    queue.pop(0)
                    cur = {"op": op, "slot": slot, "fire": self.cycle, "beats": 0, "stalls": 0,
                           "coeffs": coeffs, "data": []}
            # Load stream.
            d.load_valid.value = 0
            d.load_data.value = rng.getrandbits(self.k)
            if self._bit("load_ready"):
                assert cur is not None and cur["op"] == LOAD, f"{self.name}: load_ready outside LOAD"
                if stall and rng.random() < stall:
                    cur["stalls"] += 1
                else:
                    d.load_valid.value, d.load_data.value = 1, cur["coeffs"][cur["beats"]]
                    cur["beats"] += 1
            # Unload stream.
            d.unload_ready.value = 0
            if self._bit("unload_valid"):
                assert cur is not None and cur["op"] == UNLOAD, f"{self.name}: unload_valid outside UNLOAD"
                if stall and rng.random() < stall:
                    cur["stalls"] += 1
                else:
                    v = d.unload_data.value
                    assert v.is_resolvable, f"{self.name}: unload_data = {v} (X/Z) at index {len(cur['data'])}"
                    d.unload_ready.value = 1
                    cur["data"].append(int(v))
        return results

    def _bit(self, name):
        v = getattr(self.dut, name).value
        assert v.is_resolvable, f"{self.name}: {name} is {v} at cycle {self.cycle}"
        return int(v)

    def check_cycles(self, results):
        for r in results:
            want = expected_cycles(r["op"], self.n, self.p, self.arrangement, self.storage) + r["stalls"]
            assert r["cycles"] == want, (f"{self.name}: {NAMES[r['op']]} took {r['cycles']} cycles, the docs/ntt.md "
                                         f"formula gives {want} ({r['stalls']} stalls)")
            assert self.m["cycles"][NAMES[r["op"]]] + r["stalls"] == r["cycles"], f"{self.name}: manifest cycles differ"

    # ---- Operands ----
    def random_poly(self):
        return [self.rng.randrange(self.q) for _ in range(self.n)]

    def edge_polys(self):
        q, n = self.q, self.n
        impulse_last = [0] * (n - 1) + [1]
        return [[0] * n, [q - 1] * n, [(q - 1) * (i & 1) for i in range(n)], [1] + [0] * (n - 1), impulse_last,
                [self.rng.choice((0, 1, q - 1, q - 2, q // 2)) for _ in range(n)]]

    def check(self, got, want, what):
        bad = [i for i, (g, w) in enumerate(zip(got, want)) if g != w]
        assert not bad, (f"{self.name}: {what}: {len(bad)} of {self.n} coefficients wrong, first at index "
                         f"{bad[0]}: got {got[bad[0]]}, expected {want[bad[0]]}")


async def _bench(dut, salt=0) -> NttBench:
    return await start_bench(NttBench, dut, salt)


@cocotb.test()
async def ntt_forward(dut):
    """NTT of random and edge polynomials: natural order in, SEAL's bit-reversed order out."""
    tb = await _bench(dut, 1)
    for a in [tb.random_poly(), tb.random_poly()] + tb.edge_polys():
        res = await tb.run([(LOAD, 0, a), (NTT, 0, None), (UNLOAD, 0, None)])
        tb.check_cycles(res)
        tb.check(res[2]["data"], model.ntt(a, tb.q, tb.psi), "NTT")


@cocotb.test()
async def ntt_inverse(dut):
    """INTT of random and edge vectors in slot 1: bit-reversed in, natural out, N^-1 included."""
    tb = await _bench(dut, 2)
    for y in [tb.random_poly(), tb.random_poly()] + tb.edge_polys():
        res = await tb.run([(LOAD, 1, y), (INTT, 1, None), (UNLOAD, 1, None)])
        tb.check_cycles(res)
        tb.check(res[2]["data"], model.intt(y, tb.q, tb.psi), "INTT")


@cocotb.test()
async def pointwise(dut):
    """PWMUL in both directions: slot 0 *= slot 1, then slot 1 *= slot 0."""
    tb = await _bench(dut, 3)
    for a, b in [(tb.random_poly(), tb.random_poly()), ([tb.q - 1] * tb.n, [tb.q - 1] * tb.n),
                 (tb.edge_polys()[5], tb.random_poly())]:
        c = model.pointwise(a, b, tb.q)
        res = await tb.run([(LOAD, 0, a), (LOAD, 1, b), (PWMUL, 0, None), (UNLOAD, 0, None),
                            (PWMUL, 1, None), (UNLOAD, 1, None)])
        tb.check_cycles(res)
        tb.check(res[3]["data"], c, "PWMUL slot 0")
        tb.check(res[5]["data"], model.pointwise(b, c, tb.q), "PWMUL slot 1")


@cocotb.test()
async def polymul_back_to_back(dut):
    """a*b mod (x^N + 1): LOAD, LOAD, NTT, NTT, PWMUL, INTT, UNLOAD with no idle cycle between
    commands, against a schoolbook negacyclic product."""
    tb = await _bench(dut, 4)
    for a, b in [(tb.random_poly(), tb.random_poly()), ([tb.q - 1] * tb.n, [tb.q - 1] * tb.n),
                 (tb.edge_polys()[4], tb.random_poly())]:
        res = await tb.run([(LOAD, 0, a), (LOAD, 1, b), (NTT, 0, None), (NTT, 1, None), (PWMUL, 0, None),
                            (INTT, 0, None), (UNLOAD, 0, None)])
        tb.check_cycles(res)
        tb.check(res[-1]["data"], model.negacyclic_schoolbook(a, b, tb.q), "a*b mod (x^N+1)")


@cocotb.test()
async def stalls_and_gaps(dut):
    """The same product with stalled beats on both streams and idle cycles between commands;
    then NTT followed by INTT gives the input back."""
    tb = await _bench(dut, 5)
    stall = float(os.environ.get("MODFORGE_STALL", "0.3"))
    a, b = tb.random_poly(), tb.random_poly()
    res = await tb.run([(LOAD, 1, a), (LOAD, 0, b), (NTT, 1, None), (NTT, 0, None), (PWMUL, 1, None),
                        (INTT, 1, None), (UNLOAD, 1, None)], stall=stall, gaps=0.5)
    tb.check_cycles(res)
    assert sum(r["stalls"] for r in res) > 0, "no stall was exercised"
    tb.check(res[-1]["data"], model.negacyclic_schoolbook(a, b, tb.q), "a*b mod (x^N+1) with stalls")
    res = await tb.run([(LOAD, 0, a), (NTT, 0, None), (INTT, 0, None), (UNLOAD, 0, None)], stall=stall)
    tb.check(res[-1]["data"], a, "INTT(NTT(a))")


@cocotb.test()
async def bad_command(dut):
    """Codes 5-7 finish at once with done and bad_cmd and change nothing."""
    tb = await _bench(dut, 6)
    a = tb.random_poly()
    await tb.run([(LOAD, 0, a)])
    d = tb.dut
    for code in (5, 6, 7):
        await FallingEdge(d.clk)
        d.cmd_valid.value, d.cmd_op.value = 1, code
        await FallingEdge(d.clk)
        d.cmd_valid.value = 0
        assert int(d.done.value) == 1 and int(d.bad_cmd.value) == 1, f"code {code}: no done/bad_cmd"
    res = await tb.run([(UNLOAD, 0, None)])
    tb.check(res[0]["data"], a, "slot 0 after bad commands")


@cocotb.test()
async def ram_new_modulus(dut):
    """RAM tiles only: a second q (and psi) at run time, by new modulus ports and twiddle writes."""
    tb = await _bench(dut, 7)
    if tb.m["twiddles"] != "ram":
        return
    if tb.arrangement in ("wlmm", "k2red"):  # another Proth prime of the class, q_h about 8 times smaller
        q2 = class_prime(tb.n, tb.k, tb.arrangement, below=tb.q >> 3)
    else:
        q2 = ntt_prime(max(tb.q.bit_length() - 7, 2 * tb.n.bit_length() + 1), 2 * tb.n)
    psi2 = model.find_psi(tb.n, q2)
    tb.drive_modulus(q2)
    await tb.load_twiddles(q2, psi2)
    tb.q, tb.psi = q2, psi2
    a, b = tb.random_poly(), tb.random_poly()
    res = await tb.run([(LOAD, 0, a), (LOAD, 1, b), (NTT, 0, None), (NTT, 1, None), (PWMUL, 0, None),
                        (INTT, 0, None), (UNLOAD, 0, None)])
    tb.check_cycles(res)
    tb.check(res[-1]["data"], model.negacyclic_schoolbook(a, b, q2), f"a*b mod (x^N+1) with q = {q2}")
