"""The reduction family of the NTT-reduction paper (Tosun et al.): names, precomputation, models."""
from .names import FAMILIES, ReductionDesign, parse_reduction
from .precompute import PreconditionError, check_modulus, reduction_ports
from .models import model

__all__ = ["FAMILIES", "ReductionDesign", "parse_reduction", "PreconditionError", "check_modulus", "reduction_ports",
           "model"]
