"""The multi-pass engine with its primes loaded at run time (``mpoly_..._t1_d1``, docs/polymul_multipass.md, "Primes
loaded at run time").

Quick (make test): the host helper ``polymul.multipass_loaded`` on a manifest of its own: the primes it refuses and the
image it builds, each constant checked against its definition (psi^e s^-1 mod q, Shoup's floor(W 2^k / q), Barrett's
M' and floor(4^w / M')).

Long (make test-long, MODFORGE_POLYMUL_LONG=1): the n = 1024 engine run by the batch bench
(verif/bench/multipass_batch_bench.py) on AxiRam with primes it was not generated for: three limbs of 30, 26 and 20
bits; SEAL's n = 1024 prime with a 17-bit one under back-pressure; the reference prime alone with B slow; the 29 primes
of (32768, 886) through a 31-bit engine, with back-pressure; the engine behind its AXI4-Lite configuration port. Each c
against a schoolbook product mod each prime and its CRT mod Q; each item's constants loads against the image's bursts.
A flipped bit of one constant must turn the bench red.
"""
import json
import random

import pytest

from multipass_runs import LONG_ONLY, generate, refusal, run
from polymul.multipass import MultipassError
from polymul.multipass_loaded import check_primes, form_value, image, limb_image, loaded_primes
from runner import BUILD

OUT = BUILD / "multipass_loaded_tests"
DESIGN = "mpoly_1024_x32_b256_l1_s32_p2_mpaper_t1_d1"
# Limbs none of which is the design's reference prime (1073707009): 30, 26 and 20 bits, all = 1 mod 2048.
THREE = "1073698817,67090433,1032193"
# SEAL's default BFV modulus for n = 1024 (one 27-bit prime, 0x7e00001) and a 17-bit prime.
SEAL_1024 = 0x7E00001
TWO = f"{SEAL_1024},114689"

# A manifest of the helper's own (the form list of a tiny design), for the quick tests.
FAKE = {
    "design": "fake", "n": 1024, "n1": 32, "lanes": 2, "bus_bits": 256, "burst_beats": 1, "limb_bits": 30, "slot_bits": 32,
    "batch": {"limbs_bits": 7},
    "loaded": {"n": 1024, "limb_bits": 30, "k": 31, "cell_bits": 62, "word_bytes": 8, "align_bytes": 512,
               "limb_image_bytes": 1024, "max_limbs": 127,
               "units": [{"name": "columns", "offset_bytes": 0, "image_bytes": 512, "words": 4,
                          "forms": [["q"], ["barrett", 0], ["barrett", 1], ["barrett", 2]]},
                         {"name": "rows", "offset_bytes": 512, "image_bytes": 512, "words": 3,
                          "forms": [["pair", 5, 1], ["pair", 7, 32], ["pow", 2047, 1]]}]},
}


@pytest.mark.parametrize("primes, says", [
    ([1073698817 + 2048], "is not prime"),
    ([536896513], "not 1"),                             # prime, = 1025 mod 2048
    ([2147352577], "wider than the 30-bit limb"),        # 31 bits
    ([12289], "fewer than 17"),
    ([1073698817, 1073698817], "given twice"),
    ([], "1 to 127 limbs"),
])
def test_refuses_primes(primes, says):
    with pytest.raises(MultipassError) as e:
        check_primes(FAKE, primes)
    assert says in str(e.value), str(e.value)


def test_refuses_fixed_design():
    m = dict(FAKE)
    del m["loaded"]
    with pytest.raises(MultipassError) as e:
        image(m, [1073698817])
    assert "fixes its prime at generation" in str(e.value)


def test_refuses_wrong_psi():
    with pytest.raises(MultipassError) as e:
        limb_image(FAKE, 1073698817, psi=3)
    assert "not a primitive 2048-th root" in str(e.value)


def test_image_words():
    """Each word of a limb's image is its form's value, little-endian, at its unit's offset; the padding is zero."""
    q = 67090433
    psi = next(g for g in (pow(x, (q - 1) // 2048, q) for x in range(2, 200)) if pow(g, 1024, q) == q - 1)
    img = limb_image(FAKE, q, psi)
    assert len(img) == 1024
    word = lambda at: int.from_bytes(img[at:at + 8], "little")
    w, k = 30, 31
    l = w - q.bit_length()
    mp = q << l
    assert [word(i * 8) for i in range(4)] == [q, mp, (1 << 2 * w) // mp, l]
    for i, (e, s) in enumerate([(5, 1), (7, 32)]):
        v = word(512 + i * 8)
        W, Wr = v >> k, v & ((1 << k) - 1)
        assert W * s % q == pow(psi, e, q) and W < q
        assert Wr * q <= W << k < (Wr + 1) * q             # Shoup's W' = floor(W 2^k / q)
    assert word(512 + 16) * pow(psi, 1, q) % q == 1         # psi^2047 = psi^-1
    assert set(img[32:512]) == {0} and set(img[512 + 24:]) == {0}
    two = image(FAKE, [q, 1032193])
    assert two[:1024] == limb_image(FAKE, q) and len(two) == 2048


def _is_prime_trial(q: int) -> bool:
    """Trial division: the oracle, independent of the project's prime test."""
    return q > 1 and all(q % d for d in range(2, int(q ** 0.5) + 1))


@pytest.mark.parametrize("n,logq,w", [(32768, 886, 25), (32768, 616, 26), (16384, 443, 25), (4096, 62, 21)])
def test_loaded_primes_chain(n, logq, w):
    """The report's chain for a run-time-primes engine: every prime q = 1 mod 2n of 17 to w bits, from the largest
    down, until Q >= 2^logq, found here by walking q down and dividing."""
    want, prod = [], 1
    q = ((1 << w) - 1) // (2 * n) * (2 * n) + 1
    while prod < 1 << logq:
        assert q >= 1 << 16, "the oracle ran out of primes"
        if _is_prime_trial(q):
            want.append(q)
            prod *= q
        q -= 2 * n
    assert list(loaded_primes(n, logq, w)) == want
    with pytest.raises(MultipassError, match="use a wider limb"):
        loaded_primes(32768, 1800, 20)


def test_form_value_random():
    """pow and pair against their definitions for random primes and exponents."""
    rng = random.Random(5)
    from primetools.proth import largest_ntt_primes
    from ntt.ntt import find_psi
    for q in largest_ntt_primes(30, 1024, 3):
        psi = find_psi(1024, q)
        for _ in range(20):
            e, s = rng.randrange(2048), rng.choice([1, 32, 1024])
            t = form_value(["pow", e, s], q, psi, 30, 1024)
            assert t * s % q == pow(psi, e, q)
            p = form_value(["pair", e, s], q, psi, 30, 1024)
            assert p >> 31 == t and p & ((1 << 31) - 1) == (t << 31) // q


# ---- the engine, long ----

@pytest.fixture(scope="session")
def generated():
    generate(OUT, [DESIGN])
    return json.loads((OUT / DESIGN / "rtl" / f"{DESIGN}.json").read_text())


def _check(m, r):
    print(f"{DESIGN} {r['test']}: {r['count']} products of {r['limbs']} limbs in {r['cycles']} cycles; the promise "
          f"{r['promise']} (ratio {r['ratio']})")
    if r["count"] and r["pause"] == 0:
        assert 0.95 * r["promise"] <= r["cycles"] < 1.05 * r["promise"], f"without pauses not within 5% of the promise: {r}"


@LONG_ONLY
@pytest.mark.parametrize("test, primes", [
    ("batch_no_pauses", THREE),
    ("batch_back_pressure", TWO),
    ("batch_slow_b", "1073707009"),
])
def test_loaded_batch(generated, test, primes):
    m, records = run(OUT, DESIGN, "multipass_batch_bench", "batch", (test,), testcase=test,
                     extra_env={"MODFORGE_BATCH": "4", "MODFORGE_PRIMES": primes})
    for r in records[test]:
        assert r["limbs"] == len(primes.split(","))
        _check(m, r)


# The engine at (32768, 886)'s own limbs: its 29 primes of 31 bits (stream_primes(32768, 886, 31), = 1 mod 65536, so
# also 1 mod 2048), through a 31-bit n = 1024 engine: every limb's image, the 7-bit limb count, 58 items a batch.
WIDE31 = "mpoly_1024_x32_b256_l1_s32_p2_w31_mpaper_t1_d1"


@pytest.fixture(scope="session")
def generated31():
    generate(OUT, [WIDE31])
    return True


@LONG_ONLY
def test_loaded_29_limbs(generated31):
    from polymul.multipass import stream_primes
    primes = stream_primes(32768, 886, 31)
    assert len(primes) == 29 and all(q % 65536 == 1 for q in primes)
    m, records = run(OUT, WIDE31, "multipass_batch_bench", "batch", ("batch_two",), testcase="batch_two",
                     extra_env={"MODFORGE_BATCH": "2", "MODFORGE_BATCH_TWO": "1", "MODFORGE_PRIMES": ",".join(map(str, primes))})
    (r,) = records["batch_two"]
    assert r["limbs"] == 29 and r["count"] == 2
    print(f"{WIDE31} {r['test']}: 2 products of 29 limbs, 30% pauses, in {r['cycles']} cycles; the promise {r['promise']} "
          f"(ratio {r['ratio']})")


# The same engine behind an AXI4-Lite configuration port (`_a1`, MultipassBatchLite): count, limbs and const_base
# written and read back, the start a register write, done polled in `status`, the cycles the design's own register.
LITE = "mpoly_1024_x32_b256_l1_s32_p2_mpaper_t1_d1_a1"


@LONG_ONLY
def test_lite_port():
    generate(OUT, [LITE])
    m, records = run(OUT, LITE, "multipass_batch_bench", "batch", ("batch_no_pauses",), testcase="batch_no_pauses",
                     extra_env={"MODFORGE_BATCH": "4", "MODFORGE_PRIMES": THREE})
    assert [r["name"] for r in m["config"]["registers"]] == ["control", "status", "count", "limbs", "const_base", "cycles"]
    assert not {"io_start", "io_count", "io_limbs", "io_const_base"} & {p["name"] for p in m["ports"]}
    for r in records["batch_no_pauses"]:
        _check(m, r)


@LONG_ONLY
def test_loaded_manifest(generated):
    m = generated
    ld = m["loaded"]
    assert m["kind"] == "multipass_batch" and ld["reference_prime"] == 1073707009
    assert [u["name"] for u in ld["units"]] == ["columns", "rows", "columns_inverse"]
    offs = [u["offset_bytes"] for u in ld["units"]]
    assert offs[0] == 0 and all(o % ld["align_bytes"] == 0 for o in offs)
    assert ld["limb_image_bytes"] == sum(u["image_bytes"] for u in ld["units"])
    assert {p["name"] for p in m["ports"]} >= {"io_limbs", "io_const_base"}


@LONG_ONLY
def test_wrong_constant_goes_red(generated):
    """One bit of one rows twiddle flipped in the image: the bench must fail (its oracle is independent of the image)."""
    sim = OUT / DESIGN / "sim_rtl"
    with pytest.raises((Exception, SystemExit, pytest.fail.Exception)):   # cocotb exits 1 on a failed test
        run(OUT, DESIGN, "multipass_batch_bench", "batch", ("batch_no_pauses",), testcase="batch_no_pauses",
            extra_env={"MODFORGE_BATCH": "4", "MODFORGE_PRIMES": "1073698817", "MODFORGE_IMAGE_FAULT": "1:5"})
    xml = max(sim.glob("*.xml"), key=lambda p: p.stat().st_mtime).read_text()
    assert "differs from the schoolbook" in xml or "the model's image" in xml, xml[-3000:]


@LONG_ONLY
@pytest.mark.parametrize("name, says", [
    ("mpoly_1024_x32_b256_l1_s32_p2_mpaper_d1", "_d1: primes loaded at run time run in a batch engine (_t1)"),
    ("mpoly_1024_x32_b256_l1_s32_p2_mpaper_t1_d2", "_d2: _d1 loads the primes at run time"),
    ("mpoly_1024_x32_b256_l1_s32_p2_mpaper_a1", "_a1: the AXI4-Lite configuration port drives a batch engine (_t1)"),
])
def test_refuses(name, says):
    out = refusal("modforge.Generate", OUT, name)
    assert says in out, out[-2000:]


def test_cli(tmp_path, capsys):
    """`python -m polymul.multipass_loaded MANIFEST --primes ... --out FILE`: the image written; a bad prime refused
    with exit 2 and the fix, nothing written."""
    from polymul.multipass_loaded import main
    man = tmp_path / "m.json"
    man.write_text(json.dumps(FAKE))
    out = tmp_path / "img.bin"
    assert main([str(man), "--primes", "67090433,1032193", "--out", str(out)]) == 0
    assert out.read_bytes() == image(FAKE, [67090433, 1032193])
    bad = tmp_path / "bad.bin"
    assert main([str(man), "--primes", "12345", "--out", str(bad)]) == 2
    assert "fewer than 17" in capsys.readouterr().err and not bad.exists()
