"""The derivative rules JAX 0.10.2 gives ``jnp.linalg.det`` and ``slogdet``, as
``custom_jvp`` functions (``_det``, ``_slogdet_lu``) that ``linalg_lu.py`` calls.

* ``slogdet``: ``d log|det A| = tr(A^-1 dA)`` (one ``solve``), the sign's tangent zero.
* ``det`` (beyond the 2x2 and 3x3 closed forms): ``d det A = tr(adj(A) dA)``, the
  adjugate product computed by ``_cofactor_solve`` from the LU factors with the last
  pivot replaced so that it stays finite for a singular ``A`` (where ``det A``'s
  derivative is the adjugate, not ``det A * A^-1``, which is NaN there).
"""
from __future__ import annotations

import numpy as np

from .. import lax
from ..custom_derivatives import custom_jvp
from ..lax import linalg as lax_linalg
from ..lax.linalg_ad import permute_rows
from . import _util
from . import reductions

__all__: list = []


def _trace_last(x):
    """``trace(x, axis1=-1, axis2=-2)``: the sum of each matrix's diagonal."""
    aval = _util.aval(x)
    n = aval.shape[-1]
    eye = lax.eq(lax.broadcasted_iota(np.int32, (n, n), 0),
                 lax.broadcasted_iota(np.int32, (n, n), 1))
    eye = lax.broadcast_in_dim(eye, aval.shape, (aval.ndim - 2, aval.ndim - 1))
    zero = lax.full(aval.shape, 0, aval.dtype)
    return reductions.sum(lax.select(eye, x, zero), axis=(-2, -1))


def make_slogdet_lu(slogdet_value, slogdet_jit, solve):
    """``_slogdet_lu``: ``slogdet_value`` (``a -> (sign, logabsdet)`` by LU) with JAX's
    JVP, which differentiates through ``slogdet_jit`` and ``solve``."""
    def _slogdet_lu(a):
        return slogdet_value(a)
    f = custom_jvp(_slogdet_lu)

    def _slogdet_jvp(primals, tangents):
        x, = primals
        g, = tangents
        sign, ans = slogdet_jit(x)
        ans_dot = _trace_last(solve(x, g))
        if np.dtype(_util.aval(x).dtype).kind == "c":
            # d sign = i Im(tr(A^-1 dA)) sign; d log|det| = Re(tr(A^-1 dA))
            re = lax.convert_element_type(lax.real(ans_dot), _util.aval(ans_dot).dtype)
            return (sign, ans), (lax.mul(lax.sub(ans_dot, re), sign), lax.real(ans_dot))
        return (sign, ans), (lax.full_like(sign, 0), ans_dot)
    f.defjvp(_slogdet_jvp)
    return f


def _cofactor_solve(a, b):
    """``(det a, adj(a) @ b)`` for square ``a`` and ``b`` of its shape, finite for a
    singular ``a`` of rank ``n - 1`` (LU with the last pivot made the reciprocal of the
    product of the others, so the two triangular solves build the adjugate)."""
    a_shape = _util.aval(a).shape
    n = a_shape[-1]
    if n == 1:
        return a[..., 0, 0], b
    lu, pivots, permutation = lax_linalg.lu(a)
    dtype = _util.aval(a).dtype
    diag = _diagonal(lu)
    iota = lax.broadcasted_iota(np.int32, _util.aval(pivots).shape,
                                _util.aval(pivots).ndim - 1)
    parity = reductions.count_nonzero(lax.ne(pivots, iota), axis=-1)
    sign = lax.convert_element_type(-2 * (parity % 2) + 1, dtype)
    partial_det = reductions.cumprod(diag, axis=-1) * sign[..., None]
    lu = lu.at[..., -1, -1].set(1.0 / partial_det[..., -2])
    # rows whose solve blows up (rank below n - 1): their products are zeros
    d = lax.full(tuple(a_shape[:-1]), 1, dtype)
    d = lax_linalg.triangular_solve(lu, d, left_side=True, lower=False)
    d = reductions.any(lax.bitwise_or(lax.ne(d, d), lax.eq(lax.abs(d), np.inf)), axis=-1)
    d = lax.broadcast_in_dim(d, tuple(_util.aval(b).shape),
                             tuple(range(_util.aval(d).ndim)))
    zeros = lax.full_like(b, 0)
    x = lax.select(d, zeros, b)
    x = permute_rows(x, permutation)
    x = lax_linalg.triangular_solve(lu, x, left_side=True, lower=True, unit_diagonal=True)
    head = x[..., :-1, :] * partial_det[..., -1, None, None]
    x = lax.concatenate((head, x[..., -1:, :]), _util.aval(x).ndim - 2)
    x = lax_linalg.triangular_solve(lu, x, left_side=True, lower=False)
    return partial_det[..., -1], lax.select(d, zeros, x)


def _diagonal(x):
    n = _util.aval(x).shape[-1]
    return x[..., np.arange(n), np.arange(n)]


def make_det(slogdet_jit):
    """``_det``: ``sign * exp(logabsdet)`` of ``slogdet_jit`` with the adjugate JVP."""
    def _det(a):
        sign, logdet = slogdet_jit(a)
        return sign * lax.convert_element_type(lax.exp(logdet), _util.aval(sign).dtype)
    f = custom_jvp(_det)

    def _det_jvp(primals, tangents):
        x, = primals
        g, = tangents
        y, z = _cofactor_solve(x, g)
        return y, _trace_last(z)
    f.defjvp(_det_jvp)
    return f
