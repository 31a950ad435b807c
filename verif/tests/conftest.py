# The verif packages (modmul, reduction, primetools, ntt, intfft), the bench and flow/ are on sys.path
# through the project's editable install (`make setup`, pyproject.toml), here and in the simulator.


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
