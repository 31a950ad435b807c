"""A single-pass engine of L limbs counted from its limbs' own syntheses (issue 40: "a design whose
synthesis does not fit this machine's 24 GB may be hardened hierarchically: one limb synthesized once,
with the top counting it L times plus its own glue, and the report says so").

The engine (`StreamPolymul`) is one `StreamControl` and L `LimbEngine`s side by side: limb l sees only
its own w-bit fields of the beats, its prime q_l and its root psi_l. The one-limb engine of prime q_l
(`polymul_<n>_<logq'>_s<P>_q<hash>`, PRIMES=q_l: docs/polymul.md, "Your own primes") is therefore
limb l with a control of its own. So the L-limb design is counted as:

  area            = the sum of its limbs' one-limb designs (standard cells and macros): each brings a
                    StreamControl, so the top's one control is counted L times (an over-count);
  critical path   = the largest of theirs (the top's clock-gate tick fans out to L limbs, not one:
                    not measured);
  cycles, latency = the L-limb design's own manifest (its limbs run in lockstep).

A limb matches only a one-limb design of the same n, lanes, limb width, multipliers and storage whose
prime and psi are the limb's. A limb with no such synthesis is counted as another limb's synthesis of
the same shape (the constants differ: the twiddle tables' contents and the reduction's constants), and
the row says which. At least one limb must be measured.
"""


def shape(p: dict) -> tuple:
    """What a limb's circuit depends on besides its prime: (n, lanes, w, multipliers, storage)."""
    return (p["n"], p["lanes"], p["limb_bits"], p["mul"], p["store"])


def one_limb_designs(points: list) -> dict:
    """(shape, prime, psi) -> the measured one-limb point with that prime (the newest of equals)."""
    out = {}
    for p in points:
        if p["status"] == "measured" and p["limbs"] == 1 and p.get("primes"):
            key = (shape(p), p["primes"][0], (p.get("psi") or [None])[0])
            if key not in out or (p.get("date") or "") > (out[key].get("date") or ""):
                out[key] = p
    return out


def counted(p: dict, limbs: dict):
    """The L-limb point p (not measured) counted from its limbs, or None where no limb is measured: its
    standard-cell and macro area, its critical path, and where they come from (`hierarchical` saying how),
    for polymul_best.with_figures."""
    if p["status"] == "measured" or p["limbs"] < 2 or not p.get("primes"):
        return None
    psi = p.get("psi") or [None] * p["limbs"]
    found = [limbs.get((shape(p), q, r)) for q, r in zip(p["primes"], psi)]
    if not any(found):
        return None
    stand_in = next(f for f in found if f)
    used, said = [], []
    for l, (q, f) in enumerate(zip(p["primes"], found)):
        used.append(f or stand_in)
        said.append(f"limb {l} (q = {q}): {f['design']}" if f else
                    f"limb {l} (q = {q}): not synthesized, counted as {stand_in['design']} (same shape, other constants)")
    worst = max(used, key=lambda u: u["critical_path_ns"])
    return {"stdcell_um2": sum(u["stdcell_um2"] for u in used), "macro_um2": sum(u["macro_um2"] for u in used),
            "critical_path_ns": worst["critical_path_ns"], "endpoints": worst.get("endpoints") or {},
            "flow_current": all(u.get("flow_current") for u in used), "date": min(u.get("date") or "" for u in used),
            "tools": worst.get("tools") or {}, "flow": worst.get("flow"), "limb_designs": [u["design"] for u in used],
            "hierarchical": (f"yes: {p['limbs']} limbs synthesized one by one, the area their sum, the clock the slowest "
                             f"({worst['design']}); each counts a control of its own (the top has one): " + "; ".join(said))}
