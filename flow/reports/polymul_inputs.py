"""The polymul reports' shared inputs (flow/reports/polymul_best.py, polymul_multipass.py, polymul_engines.py,
flow/dse_polymul.py): the strongest CPU figures per set (data/baselines/cpu_strongest.json) and the SSA paper's
Table I sets and Table IV figures (data/papers/millar.toml). They live here, not in polymul_best, so that the
reports that polymul_best reads (the multi-pass rows) do not import it back.
"""
from pathlib import Path

from reports import cpu_strongest


def cpu_store(path=None):
    """The store of the strongest CPU figures (data/baselines/cpu_strongest.json, or path), or None
    when there is none. A store that cannot be read stops the report (cpu_strongest.StoreError names
    the fix): the figures would otherwise silently be absent."""
    p = Path(path or cpu_strongest.STORE)
    return cpu_strongest.load(p) if p.exists() else None


def measured_on(e) -> str:
    """'AVX-512 IFMA, AMD EPYC, 2026-11-28': the core and date of a stored entry; None when absent."""
    return f"{e['cpu_extensions']}, {e['cpu_model']}, {str(e['date'])[:10]}" if e else None


def baselines(store, n: int, logq: int, pretransformed: bool = False) -> dict:
    """The strongest stored figure per library at a set: its minimum us per product and the core it
    was measured on (None where the store has no checked figure: absent, never a stand-in). tfhe-ntt's
    variant matches the engine's work: the full product, or b already transformed (`pre`) for an
    engine that takes one operand transformed, from the same stored entry; the other libraries time
    the full product only."""
    libs = {k: cpu_strongest.entry(store, n, logq, k) for k in cpu_strongest.LIBRARY_KEYS} if store else {}
    libs = {k: e for k, e in libs.items() if e and e.get("status") == "ok"}

    def fig(key, variant, stat="min"):
        return (libs.get(key) or {}).get(f"{variant}_{stat}_us")
    tv = "pre" if pretransformed else "full"
    t = libs.get("tfhe_ntt") or {}
    configs = t.get("configs") or []
    tfhe, tfhe_med = fig("tfhe_ntt", tv), fig("tfhe_ntt", tv, "median")
    pres = [c for c in configs if c.get("pre_min_us") is not None]
    if tv == "pre" and pres:  # the entry is the fastest full product's size; the fastest pre may be another's
        c = min(pres, key=lambda c: c["pre_min_us"])
        if tfhe is None or c["pre_min_us"] < tfhe:
            tfhe, tfhe_med = c["pre_min_us"], c.get("pre_median_us")
    return {"tfhe_ntt_us": tfhe, "tfhe_ntt_median_us": tfhe_med, "tfhe_ntt_variant": tv,
            "tfhe_ntt_L": t.get("L"), "tfhe_ntt_plan": (f"{t['api'].split('::')[0]}, {t['L']} x {max(t['prime_bits'])} bits"
                                                         if t.get("api") else None),
            "tfhe_ntt_configs": configs,
            # the entry the ratio uses: where and when it was measured
            "tfhe_ntt_cpu": t.get("cpu_model"), "tfhe_ntt_extensions": t.get("cpu_extensions"),
            "tfhe_ntt_date": t.get("date"), "tfhe_ntt_load": t.get("load_average"), "tfhe_ntt_version": t.get("version"),
            "measured_on": {k: measured_on(libs.get(k)) for k in cpu_strongest.LIBRARY_KEYS},
            "flint3_us": fig("flint3", "full"), "flint3_median_us": fig("flint3", "full", "median"),
            "ntl_us": fig("ntl", "full"), "ntl_median_us": fig("ntl", "full", "median"),
            "flint2_us": fig("flint2", "full"), "flint2_median_us": fig("flint2", "full", "median")}


def paper_table4(path=None) -> dict:
    """{(n, logq): {"us", "printed_us", "fmax_mhz", "latency"}} from the paper's Table IV; us = latency / fmax
    (the printed figure is that, rounded)."""
    from ntt import millar_tables as mt
    try:
        rows = mt.paper_table4(path)
    except (OSError, KeyError, ValueError):
        return {}
    return {(r.n, r.logq): {"us": r.latency / r.fmax_mhz, "printed_us": r.fpga_us, "fmax_mhz": r.fmax_mhz,
                            "latency": r.latency} for r in rows}


def paper_sets(path=None) -> set:
    """The (n, log q) of the paper's Table I (empty if its data cannot be read)."""
    from ntt import millar_tables as mt
    try:
        return {(r.n, r.logq) for r in mt.paper_table1(path)}
    except (OSError, KeyError, ValueError):
        return set()
