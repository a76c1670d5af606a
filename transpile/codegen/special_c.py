"""C expressions of the special-function primitives (``lax/special.py``): calls of
``runtime/tp_special.h``, which repeats the NumPy rules' float64 algorithms.

float16 operands are computed by the float64 function and rounded once, as the NumPy
rule rounds; ``erfc`` is the C library's, in double (``emit_c.math_function``).
"""
from __future__ import annotations

import numpy as np

from ..lax import special as sp
from . import emit_c

__all__: list = []

_NAMES = {sp.lgamma_p: "lgamma", sp.digamma_p: "digamma", sp.bessel_i0e_p: "bessel_i0e",
          sp.bessel_i1e_p: "bessel_i1e", sp.igamma_p: "igamma", sp.igammac_p: "igammac",
          sp.igamma_grad_a_p: "igamma_grad_a", sp.random_gamma_grad_p: "random_gamma_grad",
          sp.polygamma_p: "polygamma", sp.zeta_p: "zeta",
          sp.regularized_incomplete_beta_p: "betainc"}


def _call(name: str):
    def rule(args, in_avals, out_aval, **_):
        dt = np.dtype(out_aval.dtype)
        if dt == emit_c.F16:
            wide = ", ".join(f"(double)({a})" for a in args)
            return f"tp_f64_to_f16_round(tp_{name}_f64({wide}))"
        sfx = "f64" if dt == emit_c.F64 else "f32"
        expr = f"tp_{name}_{sfx}({', '.join(args)})"
        # the rule flushes a subnormal float64 result (float32 ones flush in the cast)
        return f"tp_flush_f64({expr})" if dt == emit_c.F64 else expr
    return rule


def _erfc(args, in_avals, out_aval, **_):
    return emit_c.math_function("erfc", out_aval.dtype, args[0])


for _p, _name in _NAMES.items():
    emit_c._def(_p, _call(_name))
emit_c._def(sp.erfc_p, _erfc)
