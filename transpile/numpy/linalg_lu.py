"""``jnp.linalg`` functions computed from ``lax.linalg.lu``: solve, inv, det, slogdet.

As in JAX 0.10.2, each is a ``jit`` named after it, integer and boolean operands are
promoted to the default float dtype, and leading axes are batch axes (broadcast between
``a`` and ``b`` in ``solve``). ``solve`` factors ``a`` outside differentiation
(``stop_gradient``) and solves in a ``custom_linear_solve`` whose ``solve`` and
``transpose_solve`` are ``lu_solve`` (a ``jit`` named ``_lu_solve``: the rows permuted,
then the unit-lower and the upper ``triangular_solve``; or the transposed solves and the
inverse permutation), so derivatives reuse the factors and the jaxprs read as JAX's.
``inv`` solves against the identity (``solve``'s jit inside ``inv``'s). ``det`` and
``slogdet`` read the diagonal of ``U`` and the parity of the pivots (``det`` of 2x2 and
3x3 matrices is JAX's closed form instead), with JAX's custom JVPs
(``linalg_det.py``): ``tr(A^-1 dA)`` for ``slogdet``, the adjugate for ``det``.
Batch axes are vmapped around the unbatched solve, as ``jnp.vectorize`` does.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import lax
from ..jit import internal_jit as jit
from ..lax import linalg as lax_linalg
from ..lax.linalg_ad import permute_rows
from ..lax.linear_solve import linear_solve_with
from ..vmapping import vmap
from . import _util, linalg_det

__all__ = ["solve", "inv", "det", "slogdet", "SlogdetResult"]


class SlogdetResult(NamedTuple):
    """``slogdet``'s result: ``sign * exp(logabsdet)`` is the determinant."""
    sign: object
    logabsdet: object


def _named_jit(fn, name: str):
    """``jit`` of ``fn`` under JAX's name for it (the name its jaxpr equation shows)."""
    fn.__name__ = fn.__qualname__ = name
    return jit(fn)


def _check_square(a, message: str) -> None:
    shape = _util.aval(a).shape
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(message.format(shape=tuple(shape)))


def _lu_solve(lu, permutation, b):
    """``A^-1 b`` for ``b`` of shape ``(..., n, k)``, ``P A = L U`` packed in ``lu``."""
    x = permute_rows(b, permutation)
    x = lax_linalg.triangular_solve(lu, x, left_side=True, lower=True, unit_diagonal=True)
    return lax_linalg.triangular_solve(lu, x, left_side=True, lower=False)


def _lu_solve_transposed(lu, permutation, b, conjugate: bool = False):
    """``A^-T b`` (``A^-H b`` when ``conjugate``): the two transposed triangular solves,
    then the rows put back where the permutation took them (its inverse, by a stable
    sort of its entries)."""
    x = lax_linalg.triangular_solve(lu, b, left_side=True, lower=False, transpose_a=True,
                                    conjugate_a=conjugate)
    x = lax_linalg.triangular_solve(lu, x, left_side=True, lower=True, unit_diagonal=True,
                                    transpose_a=True, conjugate_a=conjugate)
    perm_aval = _util.aval(permutation)
    iota = lax.broadcasted_iota(np.int32, perm_aval.shape, perm_aval.ndim - 1)
    _, inverse = lax.sort_key_val(permutation, iota, dimension=perm_aval.ndim - 1)
    return permute_rows(x, inverse)


def _lu_solve_jit_impl(lu, permutation, b, trans):
    batch = _util.aval(lu).shape[:-2]
    vector = _util.aval(b).ndim == len(batch) + 1
    if vector:
        b = lax.expand_dims(b, (_util.aval(b).ndim,))
    if trans == 0:
        x = _lu_solve(lu, permutation, b)
    else:
        x = _lu_solve_transposed(lu, permutation, b, conjugate=trans == 2)
    return lax.squeeze(x, (_util.aval(x).ndim - 1,)) if vector else x


_lu_solve_impl_named = _lu_solve_jit_impl
_lu_solve_impl_named.__name__ = _lu_solve_impl_named.__qualname__ = "_lu_solve"
#: JAX's ``lax.linalg.lu_solve`` (a ``jit`` named ``_lu_solve``, ``trans`` static):
#: ``x`` with ``A x == b`` (``trans=0``), ``A^T x == b`` (1) or ``A^H x == b`` (2).
lu_solve_jit = jit(_lu_solve_impl_named, static_argnums=(3,))


def _matvec(a, x):
    """``a @ x`` over the last axes (batch axes leading), at the highest precision."""
    nb = _util.aval(a).ndim - 2
    batch = tuple(range(nb))
    return lax.dot_general(a, x, (((nb + 1,), (nb,)), (batch, batch)),
                           precision=lax.Precision.HIGHEST)


def _vecmat(a, y):
    """The transpose of :func:`_matvec` in ``x``, with the equations JAX's transposition
    stages for it (the no-op broadcast of ``x`` transposes to ``reduce_sum(axes=())``)."""
    nb = _util.aval(a).ndim - 2
    batch = tuple(range(nb))
    out = lax.dot_general(y, a, (((nb,), (nb,)), (batch, batch)),
                          precision=lax.Precision.HIGHEST)
    return lax.reduce_sum_p.bind(out, axes=(), out_sharding=None)


def _solve_core(a, b):
    """JAX's ``lax.linalg._solve``: ``a`` factored once (outside differentiation), the
    solve a ``custom_linear_solve`` whose derivatives reuse the factors."""
    lu, _, permutation = lax_linalg.lu(lax.stop_gradient(a))
    a_nd, b_nd = _util.aval(a).ndim, _util.aval(b).ndim

    def custom_solve(rhs):
        return linear_solve_with(
            lambda x: _matvec(a, x), rhs,
            lambda _, x: lu_solve_jit(lu, permutation, x, 0),
            lambda _, x: lu_solve_jit(lu, permutation, x, 1),
            vecmat=lambda y: _vecmat(a, y))
    if a_nd == b_nd + 1:
        return custom_solve(b)
    return vmap(custom_solve, b_nd - 1, max(a_nd, b_nd) - 1)(b)


def vectorized(fn, operands, cores):
    """``fn`` over the broadcast batch axes of ``operands`` (``cores[i]`` trailing core
    axes each), as ``jnp.vectorize`` applies it: one ``vmap`` per batch axis, an operand
    without batch axes passed unbatched, one with some broadcast first."""
    shapes = [tuple(_util.aval(x).shape) for x in operands]
    batch = tuple(_util.broadcast_shapes(*[s[:len(s) - c] for s, c in zip(shapes, cores)]))
    args, axes = [], []
    for x, s, c in zip(operands, shapes, cores):
        if not s[:len(s) - c]:
            args.append(x)
            axes.append(None)
            continue
        if s[:len(s) - c] != batch:
            nd = len(batch) + c
            x = lax.broadcast_in_dim(x, batch + s[len(s) - c:], tuple(range(nd - len(s), nd)))
        args.append(x)
        axes.append(0)
    for _ in batch:
        fn = vmap(fn, in_axes=tuple(axes))
    return fn(*args)


def _solve_impl(a, b):
    a, b = _util.promote_dtypes_inexact(_util.ensure_array(a), _util.ensure_array(b))
    return vectorized(_solve_core, (a, b), (2, 1 if _util.aval(b).ndim == 1 else 2))


_solve = _named_jit(_solve_impl, "solve")


def solve(a, b):
    """Solve ``a @ x == b`` for ``x``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``.
    b : array_like
        Shape ``(n,)`` (one vector) or ``(..., n, k)``; batch axes broadcast with
        ``a``'s.

    Returns
    -------
    Array
        ``x``, of ``b``'s shape (batch axes broadcast).
    """
    _util.check_arraylike("jnp.linalg.solve", a, b)
    a_shape, b_shape = np.shape(a), np.shape(b)
    if len(a_shape) < 2:
        raise ValueError(f"left hand array must be at least two dimensional; got "
                         f"a.shape={tuple(a_shape)}")
    if (len(b_shape) > 1 and len(a_shape) == len(b_shape) + 1
            and a_shape[-1] == b_shape[-1] and a_shape[-1] != b_shape[-2]):
        raise ValueError(f"Invalid shapes for solve: {tuple(a_shape)}, {tuple(b_shape)}. "
                         "Prior to JAX v0.5.0, this would have been treated as a batched "
                         "1-dimensional solve. To recover this behavior, use "
                         "solve(a, b[..., None]).squeeze(-1).")
    # jnp.vectorize's check: 'm' is bound by a's rows, then compared in order.
    vector = len(b_shape) == 1
    signature = "(m,m),(m)->(m)" if vector else "(m,m),(m,n)->(m,n)"
    for size in (a_shape[-1], b_shape[0] if vector else b_shape[-2]):
        if size != a_shape[-2]:
            raise ValueError(f"inconsistent size for core dimension 'm': {size} vs "
                             f"{a_shape[-2]} on vectorized function with "
                             f"excluded=frozenset() and signature={signature!r}")
    return _solve(a, b)


def _eye(dtype, n: int):
    """``jnp.eye(n, dtype=dtype)`` in its equations' order: both iotas, then the
    offset (0) added to the rows."""
    rows = lax.broadcasted_iota(np.int32, (n, n), 0)
    cols = lax.broadcasted_iota(np.int32, (n, n), 1)
    return lax.convert_element_type(lax.eq(lax.add(rows, np.int32(0)), cols), dtype)


def _inv_impl(a):
    a = _util.ensure_array(a)
    aval = _util.aval(a)
    eye = _eye(aval.dtype, aval.shape[-1])
    return _solve(a, lax.broadcast(eye, tuple(aval.shape[:-2])))


_inv = _named_jit(_inv_impl, "inv")


def inv(a):
    """The inverse of each matrix of ``a``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``.

    Returns
    -------
    Array
        Of ``a``'s shape; infinities or NaNs for a singular matrix.
    """
    _util.check_arraylike("jnp.linalg.inv", a)
    _check_square(a, "Argument to inv must have shape [..., n, n], got {shape}.")
    return _inv(a)


def _lu_diagonal_and_parity(a):
    """The diagonal of ``U`` and whether the pivots make an odd permutation."""
    lu, pivots, _ = lax_linalg.lu(a)
    aval = _util.aval(lu)
    diag = _diagonal(lu)
    it = _util.aval(pivots).dtype
    swaps = lax.ne(pivots, lax.broadcasted_iota(it, _util.aval(pivots).shape,
                                                len(aval.shape) - 2))
    count = lax.reduce_sum(lax.convert_element_type(swaps, np.int32), (aval.ndim - 2,))
    odd = lax.eq(lax.rem(count, np.int32(2)), np.int32(1))
    return diag, odd


def _diagonal(x):
    """The main diagonal of each matrix of ``x``: one ``gather`` of ``(i, i)`` points
    (an iota index, no constants), batch axes as gather batching axes."""
    aval = _util.aval(x)
    *batch, n, _ = aval.shape
    if 0 in aval.shape:
        return lax.slice_in_dim(x[..., 0], 0, 0, axis=-1) if n else x[..., 0]
    nb = len(batch)
    idx = lax.broadcasted_iota(np.int32, tuple(batch) + (n, 2), nb)
    axes = tuple(range(nb))
    dnums = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(nb, nb + 1),
                                       start_index_map=(nb, nb + 1),
                                       operand_batching_dims=axes,
                                       start_indices_batching_dims=axes)
    return lax.gather(x, idx, dnums, (1,) * (nb + 2),
                      mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS)


def _slogdet_value(a):
    """``(sign, log|det|)`` from the LU factors (the value of ``_slogdet_lu``)."""
    dt = _util.aval(a).dtype
    diag, odd = _lu_diagonal_and_parity(a)
    axis = _util.aval(diag).ndim - 1
    zero = np.zeros((), dt)
    singular = lax.reduce_or(lax.eq(diag, zero), (axis,))
    one = np.ones((), dt)
    if np.dtype(dt).kind == "c":
        # a complex sign: the product of the pivots' phases, then the swaps' parity
        phase = linalg_det.reductions.prod(
            lax.div(diag, lax.convert_element_type(lax.abs(diag), dt)), axis=-1)
        flip = odd
    else:
        negatives = lax.reduce_sum(
            lax.convert_element_type(lax.lt(diag, zero), np.int32), (axis,))
        flip = lax.ne(odd, lax.eq(lax.rem(negatives, np.int32(2)), np.int32(1)))
        phase = lax.broadcast(one, _util.aval(flip).shape)
    sign = lax.select(flip, lax.neg(phase), phase)
    sign = lax.select(singular, lax.broadcast(zero, _util.aval(flip).shape), sign)
    logabs = lax.reduce_sum(lax.log(lax.abs(diag)), (axis,))
    real_dt = _util.aval(logabs).dtype
    logabs = lax.select(singular, lax.broadcast(np.array(-np.inf, real_dt),
                                                _util.aval(flip).shape), logabs)
    return sign, logabs


def _slogdet_impl(a):
    a, = _util.promote_dtypes_inexact(_util.ensure_array(a))
    return tuple(_slogdet_lu(a))


_slogdet = _named_jit(_slogdet_impl, "slogdet")
# JAX's custom JVPs: d log|det| = tr(A^-1 dA) through ``solve``; ``det``'s through the
# adjugate (``linalg_det.py``).
_slogdet_lu = linalg_det.make_slogdet_lu(_slogdet_value, _slogdet, lambda a, b: _solve(a, b))
_det_lu = linalg_det.make_det(_slogdet)


def slogdet(a, *, method=None):
    """The sign and the log of the absolute value of each determinant of ``a``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``.
    method : None or "lu"
        Only the LU method exists (JAX's default).

    Returns
    -------
    SlogdetResult
        ``sign`` (-1, 0 or 1) and ``logabsdet`` (``-inf`` for a singular matrix).
    """
    _util.check_arraylike("jnp.linalg.slogdet", a)
    _check_square(a, "Argument to slogdet() must have shape [..., n, n], got {shape}")
    if method not in (None, "lu"):
        raise ValueError(f"Unrecognized slogdet method {method!r}. Supported methods "
                         "are: 'lu' or 'qr'.")
    return SlogdetResult(*_slogdet(a))


def _entry(a, i: int, j: int):
    """``a[..., i, j]`` as JAX's closed-form determinants read it: slice, squeeze."""
    shape = _util.aval(a).shape
    nd = len(shape)
    part = lax.slice(a, (0,) * (nd - 2) + (i, j), tuple(shape[:-2]) + (i + 1, j + 1))
    return lax.squeeze(part, (nd - 2, nd - 1))


def _det_2x2(a):
    e = lambda i, j: _entry(a, i, j)  # noqa: E731
    return lax.sub(lax.mul(e(0, 0), e(1, 1)), lax.mul(e(0, 1), e(1, 0)))


def _det_3x3(a):
    """The rule of Sarrus in JAX's order of operations."""
    e = lambda i, j: _entry(a, i, j)  # noqa: E731
    t = lambda p, q, r: lax.mul(lax.mul(e(*p), e(*q)), e(*r))  # noqa: E731
    out = lax.add(t((0, 0), (1, 1), (2, 2)), t((0, 1), (1, 2), (2, 0)))
    out = lax.add(out, t((0, 2), (1, 0), (2, 1)))
    out = lax.sub(out, t((0, 2), (1, 1), (2, 0)))
    out = lax.sub(out, t((0, 0), (1, 2), (2, 1)))
    return lax.sub(out, t((0, 1), (1, 0), (2, 2)))


def _det_impl(a):
    a, = _util.promote_dtypes_inexact(_util.ensure_array(a))
    n = _util.aval(a).shape[-1]
    if n == 2:
        return _det_2x2(a)
    if n == 3:
        return _det_3x3(a)
    return _det_lu(a)


_det = _named_jit(_det_impl, "det")


def det(a):
    """The determinant of each matrix of ``a``.

    Parameters
    ----------
    a : array_like
        Shape ``(..., n, n)``.

    Returns
    -------
    Array
        Shape ``a.shape[:-2]``.
    """
    _util.check_arraylike("jnp.linalg.det", a)
    _check_square(a, "Argument to _det() must have shape [..., n, n], got {shape}")
    return _det(a)
