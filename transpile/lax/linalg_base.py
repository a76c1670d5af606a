"""The first linear-algebra primitives of ``transpile.lax.linalg`` (the namespace is
``linalg.py``): cholesky, triangular_solve and lu, with their shared helpers.

``cholesky`` is the lower Cholesky factor of each matrix in the last two axes (leading
axes are batch axes). As on JAX 0.10.2's CPU backend (LAPACK ``potrf``), the primitive
reads only the lower triangle, leaves the upper triangle of its operand in place, and
fills the whole matrix with NaN when a pivot is not positive (``d <= 0``: the matrix is
not positive definite); a NaN pivot is not a failure, it just propagates. The
``cholesky`` function symmetrizes its input first (``(x + x^H) / 2``) unless told not
to, and zeroes the upper triangle afterwards, with the same equations as JAX.

``lu`` is LAPACK ``getrf``'s factorisation with partial pivoting: ``lu`` holds the unit
lower factor below the diagonal and the upper factor on and above it, ``pivots[i]`` is
the row swapped with row ``i`` at step ``i`` and ``permutation`` the row order those
swaps give (``a[permutation] == L @ U``), both ``int32``. A zero pivot is kept (the
column below it is left unscaled), as ``getrf`` does.

The NumPy rules run the recurrences the C kernels run the C kernel runs
(``runtime/tp_linalg.h``), one operation at a time in the operand's dtype, so that eager
and compiled results agree bit for bit.

All three take complex64/complex128 as JAX does (``runtime/tp_linalg_complex.h``):
cholesky of a Hermitian matrix (``L L^H``, the diagonal's imaginary part ignored),
triangular_solve conjugating ``a`` when ``conjugate_a``, and lu choosing the pivot of
largest ``|re| + |im|`` (LAPACK's ``i?amax``), not of largest modulus.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from . import elementwise as ew
from . import complex_ops, slicing, structural
from ._base import numpy_api

__all__ = ["cholesky", "cholesky_p", "triangular_solve", "triangular_solve_p", "lu", "lu_p"]


# ---------------------------------------------------------------------------------------
# cholesky

cholesky_p = core.new_primitive("cholesky")

_ACCEPTED = "floating, complexfloating"


def check_operand(name: str, x, position: int = 0, rank: int | None = 2) -> None:
    """JAX's errors for an operand of a linear-algebra primitive: a float or complex
    dtype, and at least ``rank`` dimensions (None: no rank check)."""
    if dtypes.kind(x.dtype) not in "fc":
        raise TypeError(f"{name} does not accept dtype {x.dtype.name} at position "
                        f"{position}. Accepted dtypes at position {position} are subtypes "
                        f"of {_ACCEPTED}.")
    if rank is not None and x.ndim < rank:
        raise TypeError(f"Input {position} to {name} must have rank at least {rank}, but "
                        f"got shape={x.shape}")


@cholesky_p.def_abstract_eval
def _cholesky_abstract(x):
    check_operand("cholesky", x)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"The input to cholesky must be a square matrix. Got shape "
                         f"{x.shape}.")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


#: The primitives whose NumPy rules and C kernels handle complex64/complex128.
COMPLEX_SUPPORTED = {"cholesky", "triangular_solve", "lu", "qr", "eigh", "svd"}


def _check_supported(dtype, name: str = "cholesky") -> None:
    dt = np.dtype(dtype)
    if dt in (np.complex64, np.complex128) and name in COMPLEX_SUPPORTED:
        return
    if dt.kind == "c":
        raise NotImplementedError(f"transpile does not support {name} of complex "
                                  f"matrices ({dt.name})")
    if dt not in (np.float32, np.float64):
        # What JAX 0.10.2 raises on CPU when it runs a float16 cholesky.
        raise NotImplementedError((KeyError(dt.type), f"Unsupported dtype {dt.name}."))


def abs2(v):
    """``|v|^2`` as the C kernels compute it: ``v * v``, or ``re * re + im * im``."""
    if v.dtype.kind == "c":
        return v.real * v.real + v.imag * v.imag
    return v * v


def mul(a, b):
    """``a * b`` as the C kernels compute it: for complex operands the textbook product
    (``tp_cmul``), in their dtype; NumPy's vector loops fuse multiply-adds."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind != "c" and b.dtype.kind != "c":
        return a * b
    dt = np.result_type(a, b)
    out = np.empty(np.broadcast_shapes(a.shape, b.shape), dt)
    out.real = a.real * b.real - a.imag * b.imag
    out.imag = a.real * b.imag + a.imag * b.real
    return out


def div_real(s, d):
    """``s / d`` for a real ``d``: part by part when ``s`` is complex (what the C kernels
    do, not NumPy's complex division, which rounds differently)."""
    if s.dtype.kind != "c":
        return s / d
    out = np.empty_like(s)
    out.real, out.imag = s.real / d, s.imag / d
    return out


def complex_nan(dtype):
    """NaN, with a NaN imaginary part too for a complex dtype (LAPACK's failure fill)."""
    dt = np.dtype(dtype)
    return np.array(complex(np.nan, np.nan) if dt.kind == "c" else np.nan, dt)


@cholesky_p.def_impl
def _cholesky_impl(x):
    x = np.asarray(x)
    _check_supported(x.dtype)
    n = x.shape[-1]
    lo = x.reshape((int(np.prod(x.shape[:-2])), n, n)).copy()
    ok = np.ones(lo.shape[0], bool)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for j in range(n):
            # Left-looking: column j from the finished columns 0..j-1, one product and
            # one subtraction at a time (the C loop's order and rounding). A Hermitian
            # pivot is real: only the diagonal's real part is read.
            d = lo[:, j, j].real.copy()
            for k in range(j):
                d = d - abs2(lo[:, j, k])
            ok &= ~(d <= 0)
            d = np.sqrt(d)
            lo[:, j, j] = d
            s = lo[:, j + 1:, j].copy()
            for k in range(j):
                s = s - mul(lo[:, j + 1:, k], np.conj(lo[:, j, k])[:, None])
            lo[:, j + 1:, j] = div_real(s, d[:, None])
    lo[~ok] = complex_nan(lo.dtype)
    return lo.reshape(x.shape)


def _tril_mask(n: int, m: int, k: int = 0):
    """``iota(0) + k >= iota(1)``: JAX's lower-triangle mask equations (``lax._tri``;
    the offset is an int32, or an int64 when 64-bit types are on)."""
    it = dtypes.default_int_dtype()
    rows = slicing.broadcasted_iota(it, (n, m), 0)
    rows = ew.add(rows, np.array(k, it))
    cols = slicing.broadcasted_iota(it, (n, m), 1)
    return ew.ge(rows, cols)


def _masked(m, k: int, keep_lower: bool):
    aval = core.get_aval(m)
    *batch, n, cols = aval.shape
    mask = _tril_mask(n, cols, k)
    if batch:
        mask = structural.broadcast(mask, tuple(batch))
    # Zeros like ``m``, weak type included (a weak literal is a Python float).
    weak = aval.weak_type and aval.dtype == dtypes.default_float_dtype()
    zero = structural.broadcast_in_dim(0.0 if weak else np.zeros((), aval.dtype),
                                       aval.shape, ())
    return ew.select(mask, m, zero) if keep_lower else ew.select(mask, zero, m)


def tril(m, k: int = 0):
    """Zero what lies above diagonal ``k`` of each matrix of ``m`` (JAX's equations)."""
    return _masked(m, k, True)


def triu(m, k: int = 0):
    """Zero what lies below diagonal ``k`` of each matrix of ``m`` (JAX's equations:
    the mask of ``tril(k - 1)``, the selection reversed)."""
    return _masked(m, k - 1, False)


def _swap_last(x):
    nd = len(core.get_aval(x).shape)
    perm = tuple(range(nd - 2)) + (nd - 1, nd - 2)
    return structural.transpose(x, perm)


def symmetrize(x):
    """``(x + x^H) / 2`` with NumPy-style promotion (as ``Array`` operators do)."""
    x = numpy_api.ensure_array(x)
    xh = _swap_last(x)
    if dtypes.kind(core.get_aval(x).dtype) == "c":
        xh = complex_ops.conj(xh)
    return numpy_api.true_divide(numpy_api.add(x, xh), 2)


def cholesky(x, *, symmetrize_input: bool = True):
    """The lower Cholesky factor of each (Hermitian positive-definite) matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., n, n)``: leading axes are batch axes.
    symmetrize_input : bool
        Use ``(x + x^H) / 2`` instead of ``x`` (JAX's default); otherwise only the
        lower triangle of ``x`` is read.

    Returns
    -------
    Array
        ``L`` with ``L @ L^H == x`` and zeros above the diagonal; a matrix that is not
        positive definite gives NaN in and below its diagonal.
    """
    if symmetrize_input:
        x = symmetrize(x)
    return tril(cholesky_p.bind(x))


# ---------------------------------------------------------------------------------------
# triangular_solve

triangular_solve_p = core.new_primitive("triangular_solve")


@triangular_solve_p.def_abstract_eval
def _triangular_solve_abstract(a, b, *, left_side, lower, transpose_a, conjugate_a,
                               unit_diagonal):
    # JAX's linalg shape rule: ranks, equal numbers of batch axes, then the matrices;
    # the result takes a's batch axes (sizes are compared only when it runs).
    for i, x in enumerate((a, b)):
        if x.ndim < 2:
            raise TypeError(f"Input {i} to triangular_solve must have rank at least 2, "
                            f"but got shape={x.shape}")
    if a.ndim != b.ndim:
        raise TypeError("All inputs to triangular_solve must have the same number of "
                        "batch dimensions, but got "
                        f"{[a.ndim - 2, b.ndim - 2]} batch dimensions for the inputs.")
    am, bm = tuple(a.shape[-2:]), tuple(b.shape[-2:])
    if am[0] != am[1]:
        raise ValueError("The first input to triangular_solve must be a square matrix. "
                         f"Got shape {am}.")
    if am[1] != bm[-2 if left_side else -1]:
        raise ValueError("Incompatible shapes for arguments to triangular_solve: "
                         f"{am} and {bm}.")
    for i, x in enumerate((a, b)):
        if dtypes.kind(x.dtype) not in "fc":
            raise TypeError(f"triangular_solve does not accept dtype "
                            f"{dtypes.dtype_name(x.dtype)} at position {i}. Accepted "
                            f"dtypes at position {i} are subtypes of {_ACCEPTED}.")
    if a.dtype != b.dtype:
        raise TypeError("lax.triangular_solve requires arguments to have the same dtypes, "
                        f"got {a.dtype.name}, {b.dtype.name}.")
    return ShapedArray(tuple(a.shape[:-2]) + bm, b.dtype, a.weak_type and b.weak_type)


def check_batch(a_shape, b_shape) -> None:
    """Equal batch axes, or the error JAX 0.10.2 raises when it runs the solve."""
    for i, (p, q) in enumerate(zip(a_shape[:-2], b_shape[:-2], strict=True)):
        if p != q:
            raise ValueError(f"Batching dimension 0_{i} corresponds to two sizes: "
                             f"{p} and {q}")


def solve_layout(m: int, n: int, left_side: bool, lower: bool, transpose_a: bool):
    """How the kernel walks one solve of ``b`` (``m x n``, row-major).

    Each right-hand side is a vector ``x`` of ``size`` elements (a column of ``b`` when
    ``left_side``, a row otherwise) solving ``U x = rhs``, where ``U[i, k]`` is
    ``a[k, i]`` when ``flip`` else ``a[i, k]`` (``flip``: exactly one of ``transpose_a``
    and right side). ``U`` is lower triangular exactly when ``lower != flip``: then the
    elements are solved first to last (``forward``), otherwise last to first.

    Returns ``(size, flip, forward)``.
    """
    flip = bool(transpose_a) != (not left_side)
    return (m if left_side else n), flip, bool(lower) != flip


@triangular_solve_p.def_impl
def _triangular_solve_impl(a, b, *, left_side, lower, transpose_a, conjugate_a,
                           unit_diagonal):
    a, b = np.asarray(a), np.asarray(b)
    _check_supported(a.dtype, "triangular_solve")
    check_batch(a.shape, b.shape)
    m, n = b.shape[-2:]
    size, flip, forward = solve_layout(m, n, left_side, lower, transpose_a)
    nb = int(np.prod(b.shape[:-2], dtype=np.int64))
    u = a.reshape((nb, size, size))
    u = np.swapaxes(u, 1, 2) if flip else u
    u = np.conj(u) if conjugate_a else u
    out = b.reshape((nb, m, n)).copy()
    x = out if left_side else np.swapaxes(out, 1, 2)  # x[:, i, s]: element i of rhs s
    order = range(size) if forward else range(size - 1, -1, -1)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for i in order:
            # one product and one subtraction at a time, k ascending (the C loop's order)
            s = x[:, i, :].copy()
            for k in (range(i) if forward else range(i + 1, size)):
                s = s - mul(u[:, i, k][:, None], x[:, k, :])
            if not unit_diagonal:
                s = s / u[:, i, i][:, None]
            x[:, i, :] = s
    return out.reshape(b.shape)


def triangular_solve(a, b, *, left_side: bool = False, lower: bool = False,
                     transpose_a: bool = False, conjugate_a: bool = False,
                     unit_diagonal: bool = False):
    """Solve ``op(a) @ x == b`` (``left_side``) or ``x @ op(a) == b`` for ``x``.

    Parameters
    ----------
    a : Array
        Shape ``(..., m, m)``: triangular matrices (leading axes are batch axes). Only
        the triangle named by ``lower`` is read, and not the diagonal when
        ``unit_diagonal``.
    b : Array
        Shape ``(..., m, n)`` when ``left_side``, else ``(..., n, m)``; or one axis fewer
        than ``a``: a single vector.
    left_side, lower, transpose_a, conjugate_a, unit_diagonal : bool
        Which equation; which triangle of ``a``; ``op(a)`` is ``a`` transposed when
        ``transpose_a``, conjugated when ``conjugate_a`` (no effect on real matrices); a
        diagonal of
        ones assumed.

    Returns
    -------
    Array
        ``x``, of ``b``'s shape and dtype.
    """
    dt = getattr(a, "dtype", None)
    conjugate_a = bool(conjugate_a) and dt is not None and np.dtype(dt).kind == "c"
    singleton = np.ndim(b) == np.ndim(a) - 1
    if singleton:
        b = structural.expand_dims(b, (-1 if left_side else -2,))
    out = triangular_solve_p.bind(a, b, left_side=left_side, lower=lower,
                                  transpose_a=transpose_a, conjugate_a=conjugate_a,
                                  unit_diagonal=unit_diagonal)
    if singleton:
        out = structural.squeeze(out, (-1,) if left_side else (-2,))
    return out


# ---------------------------------------------------------------------------------------
# lu

lu_p = core.new_primitive("lu", multiple_results=True)


@lu_p.def_abstract_eval
def _lu_abstract(x):
    if x.ndim < 2:
        raise TypeError(f"Input 0 to lu must have rank at least 2, but got "
                        f"shape={x.shape}")
    if dtypes.kind(x.dtype) not in "fc":
        raise TypeError(f"lu does not accept dtype {dtypes.dtype_name(x.dtype)} at "
                        f"position 0. Accepted dtypes at position 0 are subtypes of "
                        f"{_ACCEPTED}.")
    *batch, m, n = x.shape
    i32 = np.dtype(np.int32)
    return [ShapedArray(x.shape, x.dtype, x.weak_type),
            ShapedArray(tuple(batch) + (min(m, n),), i32, False),
            ShapedArray(tuple(batch) + (m,), i32, False)]


def lu_pivot(col: np.ndarray) -> np.ndarray:
    """Per row of ``col`` (batch x rows), the first position of the largest magnitude,
    as the C kernel scans it: a later element is taken only when strictly larger, so a
    NaN is never taken after the first element, and a NaN first element is kept."""
    # LAPACK's i?amax: |re| + |im| for complex, not the modulus
    mag = np.abs(col.real) + np.abs(col.imag) if col.dtype.kind == "c" else np.abs(col)
    first_nan = np.isnan(mag[:, 0])
    pick = np.argmax(np.where(np.isnan(mag), -1, mag), axis=1)
    return np.where(first_nan, 0, pick)


def householder_reflector(x: np.ndarray):
    """The NumPy twin of the C kernels' Householder step (``tp_svd_house_*``,
    ``tp_eigh_house_*``) on the 1-D view ``x``, changed in place into the reflector
    ``v`` (``v[0] = 1``): returns ``(tau, beta)``, ``(0, x[0])`` (``x`` untouched) when
    there is nothing to reflect. The sum of squares runs in index order, as the C loop
    adds."""
    dt = x.dtype.type
    alpha = x[0]
    if x.shape[0] < 2:
        return dt(0), alpha
    ss = np.add.accumulate(x[1:] * x[1:])[-1]
    if ss == 0:
        return dt(0), alpha
    beta = np.sqrt(alpha * alpha + ss)
    if alpha >= 0:
        beta = -beta
    tau = (beta - alpha) / beta
    scale = dt(1) / (alpha - beta)
    x[0] = 1
    x[1:] = x[1:] * scale
    return tau, beta


@lu_p.def_impl
def _lu_impl(x):
    x = np.asarray(x)
    _check_supported(x.dtype, "lu")
    *batch, m, n = x.shape
    k = min(m, n)
    nb = int(np.prod(batch, dtype=np.int64))
    a = x.reshape((nb, m, n)).copy()
    piv = np.zeros((nb, k), np.int32)
    perm = np.tile(np.arange(m, dtype=np.int32), (nb, 1))
    rows = np.arange(nb)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for j in range(k):
            p = j + lu_pivot(a[:, j:, j])
            piv[:, j] = p
            # whole rows swap (the finished part of L too), as getf2 does
            a[rows, j], a[rows, p] = a[rows, p].copy(), a[rows, j].copy()
            perm[rows, j], perm[rows, p] = perm[rows, p].copy(), perm[rows, j].copy()
            d = a[:, j, j]
            col = a[:, j + 1:, j]
            a[:, j + 1:, j] = np.where((d != 0)[:, None], col / d[:, None], col)
            # rank-one update: one product and one subtraction per element
            a[:, j + 1:, j + 1:] = (a[:, j + 1:, j + 1:]
                                    - mul(a[:, j + 1:, j][:, :, None], a[:, j, j + 1:][:, None, :]))
    return [a.reshape(x.shape), piv.reshape(tuple(batch) + (k,)),
            perm.reshape(tuple(batch) + (m,))]


def lu(x):
    """LU decomposition with partial pivoting of each matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., m, n)``: leading axes are batch axes.

    Returns
    -------
    [Array, Array, Array]
        ``lu`` (``x``'s shape: the unit lower factor below the diagonal, the upper
        factor on and above it), ``pivots`` (``int32``, ``(..., min(m, n))``: row ``i``
        was swapped with row ``pivots[i]``) and ``permutation`` (``int32``,
        ``(..., m)``: ``x[..., permutation, :] == L @ U``).
    """
    return list(lu_p.bind(x))
