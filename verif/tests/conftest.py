# The verif packages (modmul, reduction, primetools, ntt, intfft), the bench and flow/ are on sys.path
# through the project's editable install (`make setup`, pyproject.toml), here and in the simulator.
