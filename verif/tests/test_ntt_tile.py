"""cocotb tests of the NTT tiles (verif/bench/ntt_bench.py), one pytest case per tile.

The tiles are generated here, in one generator call, into build/ntt_tests/<case>/. The fast set
(make test) covers the three multiplier arrangements, P = 1, 2 and 4, the RAM twiddles and
moduli near 2^k, near 2^(k-1) and far below, and the three reduction arrangements (mont, wlmm,
k2red: pre-scaled twiddles, two-pass PWMUL) with ROM and RAM twiddles at P = 1 and 2, and two
N = 64 tiles whose stages overlap (NttSchedule.stageGap: a gap after the first NTT stage, none
after the others; the two PWMUL passes back to back);
MODFORGE_NTT_LONG=1 (make test-long) adds the tiles of reports/ntt_table.md at their sizes.
"""
import json
import os
import subprocess

import pytest

from ntt.ntt_host import class_prime, rom_sha256
from primetools.primes import ntt_prime
from runner import BUILD, ROOT, run_bench

OUT = BUILD / "ntt_tests"

# (design, q or None for the generator's default: the largest q = 1 mod 2N below 2^(k-1))
FAST = [
    ("ntt_16_32_p1_gshoup", None),
    ("ntt_16_32_p2_barrett", ntt_prime(32, 32)),       # near 2^k: only Barrett takes q > 2^(k-1)
    ("ntt_16_32_p4_shoupbarrett", None),
    ("ntt_32_32_p2_gshoup", 193),                     # far below 2^k
    ("ntt_8_16_p1_barrett", 17),                      # the smallest k, q = 2N + 1
    ("ntt_16_32_p2_gshoup_ram", None),
    ("ntt_16_24_p2_shoupbarrett_ram", ntt_prime(20, 32)),
    # Reduction arrangements (default q: the largest in the class, Montgomery's below 2^k).
    ("ntt_16_32_p1_mont", None),
    ("ntt_16_32_p2_mont_ram", 193),                   # Montgomery takes any odd q: far below 2^k
    ("ntt_16_32_p2_wlmm", None),                      # Proth, log q_h = 16
    ("ntt_16_24_p1_wlmm_ram", None),                  # log q_h = 12
    ("ntt_16_32_p1_k2red_ram", None),                 # log q_h = 16, F = 2^-32
    ("ntt_8_16_p2_k2red", class_prime(8, 16, "k2red", below=1 << 14)),  # the smallest k, log q_h = 8
    # Overlapped stages: at N = 64, P = 2 (16 cycles a stage) only the transition 32 <-> 16 waits.
    ("ntt_64_32_p2_gshoup", None),                    # L = 8: gap of 3 cycles, then none
    ("ntt_64_32_p2_k2red_ram", None),                 # L = 8, PWMUL's second pass at once
]
LONG = [
    ("ntt_256_64_p2_barrett", None),
    ("ntt_256_64_p2_shoupbarrett", None),
    ("ntt_256_64_p2_gshoup", None),
    ("ntt_256_64_p2_mont", None),
    ("ntt_256_64_p2_wlmm", None),
    ("ntt_256_64_p2_k2red", None),
    ("ntt_256_64_p2_mont_ram", None),
    ("ntt_256_64_p2_wlmm_ram", None),
    ("ntt_256_64_p2_k2red_ram", None),
    ("ntt_64_128_p1_gshoup", None),
    ("ntt_64_64_p4_gshoup_ram", ntt_prime(40, 128)),
]
CASES = FAST + (LONG if os.environ.get("MODFORGE_NTT_LONG") == "1" else [])


def case_dir(design, q):
    return OUT / f"{design}_q{q or 'default'}"


@pytest.fixture(scope="session")
def generated():
    """All tiles in one generator run (options apply to the designs after them)."""
    args = []
    for design, q in CASES:
        args += ["--out", str(case_dir(design, q)), "--ntt-q", str(q or "default"), design]
    subprocess.run(["./mill", "-i", "hw.runMain", "modforge.Generate", *args], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    return True


@pytest.mark.parametrize("design,q", CASES, ids=[f"{d}-q{q or 'default'}" for d, q in CASES])
def test_ntt_tile(generated, design, q):
    rtl = case_dir(design, q) / design / "rtl" / f"{design}.v"
    run_bench(design, [rtl], kind="rtl", test_module="ntt_bench", manifest=rtl.with_suffix(".json"))


@pytest.mark.parametrize("design,q", CASES, ids=[f"{d}-q{q or 'default'}" for d, q in CASES])
def test_twiddle_rom_matches_model(generated, design, q):
    """The ROM the generator computed, against the table recomputed here from (q, psi)."""
    m = json.loads((case_dir(design, q) / design / "rtl" / f"{design}.json").read_text())
    if m["twiddles"] != "rom":
        assert m["twiddle_rom_sha256"] is None
        return
    assert m["twiddle_rom_sha256"] == rom_sha256(m["n"], m["k"], int(m["q"]), int(m["psi"]), m["arrangement"])
