import os
import sys

VERIF = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the verif packages (modmul, reduction, primetools, ntt, intfft) and the bench; the cocotb runner passes sys.path on to the simulator.
sys.path[:0] = [VERIF, os.path.join(VERIF, "bench")]


def pytest_collection_modifyitems(session, config, items):
    """Asks the generator once for every string parameter of the collected tests (the design names
    among them; verif/registry.py caches the answers), instead of once per test that names a design."""
    names = sorted({v for it in items if hasattr(it, "callspec") for v in it.callspec.params.values()
                    if isinstance(v, str) and v and " " not in v and len(v) < 80})
    if names:
        import registry
        try:
            registry.describe_many(names)
        except RuntimeError as e:  # the generator does not build: the tests that need it say so themselves
            print(f"conftest: {e}")
