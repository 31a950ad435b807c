import os
import sys

VERIF = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the verif packages (modmul, reduction, primetools, ntt, intfft) and the bench; the cocotb runner passes sys.path on to the simulator.
sys.path[:0] = [VERIF, os.path.join(VERIF, "bench")]
