"""Differentiation rules of ``triangular_solve``, ``cholesky`` and ``lu``
(``lax/linalg_base.py``), in the forms JAX 0.10.2 uses, so that differentiated jaxprs print the same equations.

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
* ``lu``: with ``P A = L U`` and ``dA`` permuted the same way, ``X = L^-1 P dA U^-1``
  gives ``dL = L tril(X, -1)`` and ``dU = triu(X) U`` (a non-square ``A`` has ``L`` and
  ``U`` padded to square with an identity block); the tangent of ``lu`` is
  ``dL + dU``, pivots and permutation have none.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..interpreters import ad
from ..interpreters.ad import Zero, is_undefined_primal
from . import elementwise as ew
from . import complex_ops, slicing, structural
from ._indexing_common import GatherDimensionNumbers, GatherScatterMode
from .contraction import Precision, dot, dot_general
from .indexing import gather
from .linalg_base import (_swap_last, cholesky_p, lu_p, triangular_solve, triangular_solve_p,
                     tril, triu)

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
    if conjugate_a:
        g_a = complex_ops.conj(g_a)

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


# ---------------------------------------------------------------------------------------
# lu

def permute_rows(x, permutation):
    """``x[..., permutation, :]`` (one permutation per matrix of the batch) as JAX's
    indexing writes it: negative indices wrapped, then one ``gather`` of whole rows."""
    aval = core.get_aval(x)
    *batch, m, n = aval.shape
    if 0 in aval.shape:
        return x  # nothing to move (and no valid gather slice sizes)
    nb = len(batch)
    it = core.get_aval(permutation).dtype
    neg = ew.lt(permutation, np.zeros((), it))
    idx = ew.select(neg, ew.add(permutation, np.array(m, it)), permutation)
    idx = structural.expand_dims(idx, (nb + 1,))
    axes = tuple(range(nb))
    dnums = GatherDimensionNumbers(offset_dims=(nb + 1,), collapsed_slice_dims=(nb,),
                                   start_index_map=(nb,), operand_batching_dims=axes,
                                   start_indices_batching_dims=axes)
    return gather(x, idx, dnums, (1,) * nb + (1, n),
                  mode=GatherScatterMode.PROMISE_IN_BOUNDS)


def _lu_jvp(primals, tangents):
    a, = primals
    a_dot, = tangents
    lu, pivots, permutation = lu_p.bind(a)
    zeros = [Zero(ad.tangent_aval(core.get_aval(v).strip_weak_type()))
             for v in (pivots, permutation)]
    if isinstance(a_dot, Zero):
        return [lu, pivots, permutation], [Zero(ad.tangent_aval(core.get_aval(lu)))] + zeros
    aval = core.get_aval(a)
    *batch, m, n = aval.shape
    k = min(m, n)
    nd = len(aval.shape)
    dt = aval.dtype
    zero = np.zeros((), dt)
    lu_cols = lu if k == n else slicing.slice(lu, (0,) * nd, tuple(batch) + (m, k))
    lo = slicing.pad(tril(lu_cols, -1), zero, [(0, 0, 0)] * (nd - 1) + [(0, m - k, 0)])
    lo = ew.add(lo, _bcast(_eye(dt, m), nd))
    u_eye = slicing.pad(_eye(dt, n - k), zero, ((k, 0, 0), (k, 0, 0)))
    lu_rows = lu if k == m else slicing.slice(lu, (0,) * nd, tuple(batch) + (k, n))
    up = slicing.pad(triu(lu_rows), zero, [(0, 0, 0)] * (nd - 2) + [(0, n - k, 0), (0, 0, 0)])
    up = ew.add(up, _bcast(u_eye, nd))
    x = permute_rows(a_dot, permutation)
    la = triangular_solve(lo, x, left_side=True, transpose_a=False, lower=True,
                          unit_diagonal=True)
    lau = triangular_solve(up, la, left_side=False, transpose_a=False, lower=False)
    l_dot = _matmul_pref(lo, tril(lau, -1))
    u_dot = _matmul_pref(triu(lau), up)
    return [lu, pivots, permutation], [ew.add(l_dot, u_dot)] + zeros


def _bcast(x, nd: int):
    """``x`` (a matrix) with leading size-1 axes up to rank ``nd`` (jnp's ``+``)."""
    extra = nd - core.get_aval(x).ndim
    return structural.expand_dims(x, tuple(range(extra))) if extra else x


def _matmul_pref(x, y):
    """``x @ y`` as jnp's matmul writes it at the highest precision: one
    ``dot_general`` with the result dtype preferred."""
    nd = core.get_aval(x).ndim
    batch = tuple(range(nd - 2))
    return dot_general(x, y, (((nd - 1,), (nd - 2,)), (batch, batch)),
                       precision=_HIGHEST,
                       preferred_element_type=dtypes.canonicalize_dtype(
                           core.get_aval(x).dtype))


ad.jvp_rules[lu_p] = _lu_jvp
