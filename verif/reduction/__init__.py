"""The reduction family of the NTT-reduction paper (Tosun et al.): names, precomputation, models."""
from .names import FAMILIES, ReductionDesign
from .precompute import PreconditionError, check_modulus, reduction_ports
from .models import model

__all__ = ["FAMILIES", "ReductionDesign", "PreconditionError", "check_modulus", "reduction_ports",
           "model"]
