"""Special-function primitives, as JAX 0.10.2 names them: ``lgamma``, ``digamma``,
``erfc``, ``igamma``, ``igammac``, ``igamma_grad_a``, ``random_gamma_grad``,
``bessel_i0e``, ``bessel_i1e``, ``polygamma``, ``zeta`` and
``regularized_incomplete_beta`` (``lax.betainc``).

Each takes floating operands only (JAX's ``TypeError`` otherwise), of one dtype, with
the broadcasting and weak-type rules of the other elementwise primitives. NumPy rules
evaluate in float64 (``_special_math.py``) and round once to the operand dtype, with
subnormal operands and results flushed as XLA:CPU flushes them; the C lowering
(``codegen/special_c.py``, ``runtime/tp_special.h``) runs the same algorithms. JAX
evaluates float32 in float32, so its results differ from these (closer to the exact
value) by its own rounding error, a few float32 ulp where the function is well
conditioned. ``erfc`` is the C library's, as XLA's float64 one is.

``random_gamma_grad`` is a primitive here (JAX 0.10.2 expands it into ``while`` loops
when traced); its values are JAX's, its jaxpr is one equation.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..interpreters.batching import defbroadcasting, defvectorized
from ..core import ShapedArray
from ._base import broadcasting_shape, check_same_dtypes, set_cost
from . import _special_math as sm
from .elementwise import (REAL_FLOATING, _binop, _check_accepts, _erfc_f64, _transcendental,
                          _unop, _xla)

__all__ = [
    # the lax API
    'lgamma', 'digamma', 'erfc', 'igamma', 'igammac', 'igamma_grad_a', 'random_gamma_grad',
    'bessel_i0e', 'bessel_i1e', 'polygamma', 'zeta', 'betainc',
    # primitives
    'lgamma_p', 'digamma_p', 'erfc_p', 'igamma_p', 'igammac_p', 'igamma_grad_a_p',
    'random_gamma_grad_p', 'bessel_i0e_p', 'bessel_i1e_p', 'polygamma_p', 'zeta_p',
    'regularized_incomplete_beta_p']


def _wide(fn):
    """``fn`` (float64 in, float64 out) on operands of any float dtype: computed in
    float64 and rounded once, operands and result flushed as XLA:CPU does."""
    def wide(*args):
        dt = args[0].dtype
        out = fn(*[np.asarray(a, np.float64) for a in args])
        return np.asarray(out, np.float64).astype(dt) if dt != np.float64 else out
    wide.__name__ = fn.__name__
    return _xla(wide)


lgamma_p = _unop("lgamma", REAL_FLOATING, _wide(sm.lgamma))
digamma_p = _unop("digamma", REAL_FLOATING, _wide(sm.digamma))
erfc_p = _unop("erfc", REAL_FLOATING, _transcendental(_erfc_f64))
bessel_i0e_p = _unop("bessel_i0e", REAL_FLOATING, _wide(sm.i0e))
bessel_i1e_p = _unop("bessel_i1e", REAL_FLOATING, _wide(sm.i1e))
igamma_p = _binop("igamma", REAL_FLOATING, _wide(sm.igamma))
igammac_p = _binop("igammac", REAL_FLOATING, _wide(sm.igammac))
igamma_grad_a_p = _binop("igamma_grad_a", REAL_FLOATING, _wide(sm.igamma_grad_a))
random_gamma_grad_p = _binop("random_gamma_grad", REAL_FLOATING,
                             _wide(sm.random_gamma_grad))
polygamma_p = _binop("polygamma", REAL_FLOATING, _wide(sm.polygamma))
zeta_p = _binop("zeta", REAL_FLOATING, _wide(sm.zeta))

regularized_incomplete_beta_p = core.new_primitive("regularized_incomplete_beta")


@regularized_incomplete_beta_p.def_abstract_eval
def _betainc_abstract(a, b, x):
    # _binop's rule with three operands: each position's category, one dtype, broadcast
    name = "regularized_incomplete_beta"
    for i, v in enumerate((a, b, x)):
        _check_accepts(name, v.dtype, REAL_FLOATING, i)
    dt = check_same_dtypes(name, (a, b, x))
    return ShapedArray(broadcasting_shape(name, a.shape, b.shape, x.shape), dt,
                       a.weak_type and b.weak_type and x.weak_type)


regularized_incomplete_beta_p.def_impl(_wide(sm.betainc))

#: every primitive of this module (the batching and lowering tables read it)
PRIMITIVES = (lgamma_p, digamma_p, erfc_p, bessel_i0e_p, bessel_i1e_p, igamma_p, igammac_p,
              igamma_grad_a_p, random_gamma_grad_p, polygamma_p, zeta_p,
              regularized_incomplete_beta_p)
set_cost(core.Cost.TRANSCENDENTAL, *PRIMITIVES)
# elementwise: one operand keeps its batch axis, several broadcast (JAX's batchers)
for _p in PRIMITIVES:
    (defvectorized if _p in (lgamma_p, digamma_p, erfc_p, bessel_i0e_p, bessel_i1e_p)
     else defbroadcasting)(_p)


# ---------------------------------------------------------------------------------------
# The lax API (JAX's names)

def _doc(p, what, args):
    return (f"Elementwise {what}.\n\nParameters\n----------\n{args} : array_like\n"
            f"    Floating operands of one dtype (broadcast as ``lax.{p.name}``'s "
            f"operands do).\n\nReturns\n-------\nArray\n")


def lgamma(x):
    return lgamma_p.bind(x)


def digamma(x):
    return digamma_p.bind(x)


def erfc(x):
    return erfc_p.bind(x)


def bessel_i0e(x):
    return bessel_i0e_p.bind(x)


def bessel_i1e(x):
    return bessel_i1e_p.bind(x)


def igamma(a, x):
    return igamma_p.bind(a, x)


def igammac(a, x):
    return igammac_p.bind(a, x)


def igamma_grad_a(a, x):
    return igamma_grad_a_p.bind(a, x)


def random_gamma_grad(a, x):
    return random_gamma_grad_p.bind(a, x)


def polygamma(m, x):
    return polygamma_p.bind(m, x)


def zeta(x, q):
    return zeta_p.bind(x, q)


def betainc(a, b, x):
    return regularized_incomplete_beta_p.bind(a, b, x)


for _f, _what, _args in (
        (lgamma, "log of the absolute value of the gamma function", "x"),
        (digamma, "digamma function psi(x), the derivative of lgamma", "x"),
        (erfc, "complementary error function 1 - erf(x)", "x"),
        (bessel_i0e, "exponentially scaled modified Bessel function exp(-|x|) I0(x)", "x"),
        (bessel_i1e, "exponentially scaled modified Bessel function exp(-|x|) I1(x)", "x"),
        (igamma, "regularized lower incomplete gamma function P(a, x)", "a, x"),
        (igammac, "regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)",
         "a, x"),
        (igamma_grad_a, "derivative dP(a, x)/da of the regularized incomplete gamma "
         "function", "a, x"),
        (random_gamma_grad, "derivative dx/da of a sample x of Gamma(a, 1) (implicit "
         "reparameterization: -(dP/da) / (dP/dx))", "a, x"),
        (polygamma, "polygamma function psi^(m)(x), the m-th derivative of digamma "
         "(m a non-negative integer value; NaN otherwise)", "m, x"),
        (zeta, "Hurwitz zeta function sum over k >= 0 of (q + k)^-x", "x, q"),
        (betainc, "regularized incomplete beta function I_x(a, b)", "a, b, x")):
    _f.__doc__ = _doc(globals()[f"{_f.__name__}_p"] if _f is not betainc
                      else regularized_incomplete_beta_p, _what, _args)
