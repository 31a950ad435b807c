"""How long LibreLane's Classic flow takes against a design's post-synthesis cell count, on this machine.

The model is t = t0 + a * cells^b seconds, fitted to finished layouts by least squares in the relative
error (each run weighs the same whatever its length). The constant t0 is the part no design escapes
(the flow's ~80 steps start a tool each; detailed routing's pin access and its first passes over an
empty die). A pure power law (t0 = 0), fitted first, let that constant set its exponent from the
smallest runs, and under-predicted the largest ones (reports/pnr.md lists each run against the model).
Two models are fitted on the same runs: the whole flow, and detailed routing
alone, the step that dominates every large run. A 2.5 h limit stops a design in detailed routing when
the steps before it and detailed routing together pass the limit: the steps before it are the fitted
rest of the flow times `pre_share`, the share of the rest that comes before detailed routing in the runs
whose steps are known.
"""
import math

B_GRID = [round(0.5 + 0.01 * i, 2) for i in range(201)]  # exponents 0.50 .. 2.50


def fit(points) -> dict:
    """points: [(cells, seconds)] of at least 2 different cell counts, else None. Returns {t0, a, b, rms_rel}:
    for each b of B_GRID the (t0 >= 0, a > 0) that minimize sum(((t0 + a c^b) / t - 1)^2), the best b kept."""
    pts = [(float(c), float(t)) for c, t in points if c and t]
    if len({c for c, _ in pts}) < 2:
        return None
    best = None
    for b in B_GRID:
        # rows (1/t, c^b/t) against 1: the 2x2 normal equations
        u = [(1 / t, c ** b / t) for c, t in pts]
        s11 = sum(x * x for x, _ in u)
        s12 = sum(x * y for x, y in u)
        s22 = sum(y * y for _, y in u)
        r1 = sum(x for x, _ in u)
        r2 = sum(y for _, y in u)
        det = s11 * s22 - s12 * s12
        t0, a = ((r1 * s22 - r2 * s12) / det, (s11 * r2 - s12 * r1) / det) if det > 0 else (-1, 0)
        if t0 < 0 or a <= 0:  # no constant: a alone
            t0, a = 0.0, r2 / s22
        err = sum(((t0 + a * c ** b) / t - 1) ** 2 for c, t in pts)
        if best is None or err < best[0]:
            best = (err, t0, a, b)
    err, t0, a, b = best
    return {"t0": t0, "a": a, "b": b, "rms_rel": math.sqrt(err / len(pts)), "points": pts}


def predict(model: dict, cells: float) -> float:
    return model["t0"] + model["a"] * cells ** model["b"]


def cells_within(model: dict, seconds: float) -> float:
    """The cell count whose predicted time is `seconds` (the model grows with cells)."""
    if seconds <= model["t0"]:
        return 0.0
    return ((seconds - model["t0"]) / model["a"]) ** (1 / model["b"])


def stop_step(flow_s: float, routing_s: float, pre_share: float, budget_s: float) -> str:
    """Where a run of budget_s stops, from the predicted flow and detailed-routing times: None if it ends."""
    if flow_s <= budget_s:
        return None
    before = pre_share * max(flow_s - routing_s, 0.0)
    if before >= budget_s:
        return "before detailed routing"
    if before + routing_s >= budget_s:
        return "detailed routing"
    return "the checks after detailed routing"


def stopped_class(step: str, steps_finished) -> str:
    """The stop_step class of a step a time limit stopped a run in: "detailed routing" (OpenROAD.DetailedRouting),
    "the checks after detailed routing" (a step after it: detailed routing among the finished steps), else "before
    detailed routing". steps_finished: the run's finished step names (LibreLane's run folders, lower case)."""
    if step == "OpenROAD.DetailedRouting":
        return "detailed routing"
    if any("detailedrouting" in s for s in steps_finished or ()):
        return "the checks after detailed routing"
    return "before detailed routing"
