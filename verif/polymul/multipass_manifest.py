"""The schedule model's parameters for a multi-pass design, from its manifest (build/<d>/rtl/<d>.json): what the
benches and the pytest entries compare the RTL with. One place reads the manifest's sizes, bus and limbs."""
from polymul.multipass import MultipassParams


def manifest_primes(m: dict) -> tuple:
    """The design's limb primes: `primes` (limbs side by side) or its one `prime`."""
    return tuple(int(q) for q in m["primes"]) if "primes" in m else (int(m["prime"]),)


def manifest_column_mode(m: dict) -> str:
    """The design's column passes: `column_mode` (`stream`: rows through the column NTTs), absent in designs with a
    corner turn (`turn`)."""
    return m.get("column_mode", "turn")


def manifest_params(m: dict, primes=None, **kw) -> MultipassParams:
    """MultipassParams of a pass's or an engine's manifest; `primes` (default: the design's) to model fewer limbs,
    `kw` for the rest (e.g. limb_mode)."""
    kw.setdefault("columns", manifest_column_mode(m))
    return MultipassParams(n=m["n"], primes=tuple(primes) if primes is not None else manifest_primes(m), n1=m["n1"],
                           lanes=m["lanes"], bus_bits=m["bus_bits"], burst_beats=m["burst_beats"],
                           limb_bits=m["limb_bits"], slot_bits=m["slot_bits"], **kw)
