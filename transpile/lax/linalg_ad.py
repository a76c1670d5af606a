"""Differentiation rules of ``triangular_solve`` and ``cholesky`` (``lax/linalg.py``), in
the forms JAX 0.10.2 uses, so that differentiated jaxprs print the same equations.

* ``triangular_solve(a, b)`` is linear in ``b``: its tangent for ``db`` is the same solve
  of ``db``, and a cotangent ``ct`` goes back to ``b`` as the solve of ``ct`` with
  ``transpose_a`` flipped (``a`` is never a linear input). Its tangent for ``da`` is
  ``-op(a)^-1 op(da) x`` (left side) or ``-x op(da) op(a)^-1`` (right side), ``da``
  restricted to the triangle the solve reads (without the diagonal when it is a unit
  one); the product is taken first or the solve first, whichever is cheaper, as JAX
  does.
* ``cholesky``: with ``L`` the factor and ``dS`` the input's tangent,
  ``dL = L phi(L^-1 dS L^-T)``, where ``phi`` keeps the lower triangle and halves the
  diagonal (Murray, arXiv:1602.07527); the two solves are ``triangular_solve``\\ s.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..interpreters import ad
from ..interpreters.ad import Zero, is_undefined_primal
from . import elementwise as ew
from . import slicing, structural
from .contraction import Precision, dot, dot_general
from .linalg import (_swap_last, cholesky_p, triangular_solve, triangular_solve_p, tril,
                     triu)

__all__: list = []

_HIGHEST = Precision.HIGHEST


def _matmul(x, y):
    """``lax.dot`` of two matrices, or ``lax.batch_matmul`` over leading batch axes, at
    the highest precision."""
    nd = core.get_aval(x).ndim
    if nd == 2:
        return dot(x, y, precision=_HIGHEST)
    batch = tuple(range(nd - 2))
    return dot_general(x, y, (((nd - 1,), (nd - 2,)), (batch, batch)),
                       precision=_HIGHEST)


# ---------------------------------------------------------------------------------------
# triangular_solve

def _triangular_solve_jvp_a(g_a, ans, a, b, *, left_side, lower, transpose_a,
                            conjugate_a, unit_diagonal):
    m, n = core.get_aval(b).shape[-2:]
    k = 1 if unit_diagonal else 0
    g_a = tril(g_a, -k) if lower else triu(g_a, k)
    g_a = ew.neg(g_a)
    if transpose_a:
        g_a = _swap_last(g_a)
    # conjugate_a is False for real matrices (the only ones transpile solves)

    def a_inverse(rhs):
        return triangular_solve(a, rhs, left_side=left_side, lower=lower,
                                transpose_a=transpose_a, conjugate_a=conjugate_a,
                                unit_diagonal=unit_diagonal)

    # A solve costs about what a product does: the cheaper order first.
    if left_side:
        return a_inverse(_matmul(g_a, ans)) if m > n else _matmul(a_inverse(g_a), ans)
    return a_inverse(_matmul(ans, g_a)) if m < n else _matmul(ans, a_inverse(g_a))


def _triangular_solve_jvp_b(g_b, ans, a, b, **params):
    return triangular_solve(a, g_b, **params)


def _triangular_solve_transpose(cts, a, b, *, left_side, lower, transpose_a, conjugate_a,
                                unit_diagonal):
    ct, = cts
    if is_undefined_primal(a) or not is_undefined_primal(b):
        raise NotImplementedError("triangular_solve is linear only in its second operand")
    if isinstance(ct, Zero):
        return [None, None]
    ct_b = triangular_solve(a, ct, left_side=left_side, lower=lower,
                            transpose_a=not transpose_a, conjugate_a=conjugate_a,
                            unit_diagonal=unit_diagonal)
    return [None, ct_b]


ad.defjvp2(triangular_solve_p, _triangular_solve_jvp_a, _triangular_solve_jvp_b)
ad.transpose_rules[triangular_solve_p] = _triangular_solve_transpose


# ---------------------------------------------------------------------------------------
# cholesky

def _eye(dtype, n: int):
    """JAX's ``lax._eye``: ``iota(0) + 0 == iota(1)`` in int32, converted."""
    rows = ew.add(slicing.broadcasted_iota(np.int32, (n, n), 0), np.int32(0))
    cols = slicing.broadcasted_iota(np.int32, (n, n), 1)
    return ew.convert_element_type(ew.eq(rows, cols), dtype)


def _phi(x):
    """The lower triangle of ``x`` with its diagonal halved."""
    aval = core.get_aval(x)
    low = tril(x)
    n = aval.shape[-1]
    denom = ew.add(np.ones((), aval.dtype), _eye(aval.dtype, n))
    denom = structural.expand_dims(denom, tuple(range(aval.ndim - 2)))
    return ew.div(low, denom)


def _cholesky_jvp(primals, tangents):
    x, = primals
    sigma_dot, = tangents
    lo = tril(cholesky_p.bind(x))
    if isinstance(sigma_dot, Zero):
        return lo, Zero(ad.tangent_aval(core.get_aval(lo)))
    tmp = triangular_solve(lo, sigma_dot, left_side=False, transpose_a=True,
                           conjugate_a=True, lower=True)
    inner = triangular_solve(lo, tmp, left_side=True, transpose_a=False, lower=True)
    return lo, _matmul(lo, _phi(inner))


ad.jvp_rules[cholesky_p] = _cholesky_jvp
