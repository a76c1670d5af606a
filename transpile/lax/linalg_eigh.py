"""``eigh``: eigenvalues and eigenvectors of symmetric matrices (JAX's
``lax.linalg.eigh`` and ``eigh_p``).

``eigh_p`` reads the lower (``lower=True``) or upper triangle of each (real symmetric or
complex Hermitian) matrix and gives
``v`` (eigenvectors in columns) and ``w`` (eigenvalues, ascending when
``sort_eigenvalues``), with ``x @ v == v @ diag(w)``: Householder tridiagonalisation
(complex matrices: zhetrd's complex reflectors, which leave a real tridiagonal) then
implicit QL (``runtime/tp_linalg.h`` and ``tp_linalg_complex.h`` say which); the NumPy
rule runs the same operations in the operand's dtype, so eager and compiled results agree
bit for bit. As in LAPACK, the
sign of each eigenvector (and the basis of a repeated eigenvalue's space) is not
defined: it may differ from JAX's. Eigenvalues of a complex matrix are real
(``float32``/``float64``); its JVP uses ``v^H`` and takes the real part of ``dw``.

``lax.linalg.eigh`` symmetrizes its input first (``(x + x^T) / 2``) unless told not to,
as JAX does. JVP (JAX's rule): ``dw = diag(v^T dx v)`` and
``dv = v (F * (v^T dx v))`` with ``F[i, j] = 1 / (w[j] - w[i])`` off the diagonal and 0
on it.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..core import ShapedArray
from ..interpreters import ad
from ..interpreters.ad import Zero
from ..interpreters.batching import moveaxis, primitive_batchers
from . import elementwise as ew
from . import complex_ops, structural
from ._indexing_common import GatherDimensionNumbers, GatherScatterMode
from .indexing import gather
from .linalg_ad import _eye, _matmul
from .linalg_base import (_check_supported, _swap_last, abs2, check_operand,
                          householder_reflector, mul, symmetrize)
from .slicing import broadcasted_iota

__all__ = ["eigh", "eigh_p"]

#: The C kernels' TP_EIGH_SWEEPS (Jacobi sweeps, used by svd) and TP_EIGH_ITERS (QL
#: iterations per eigenvalue).
SWEEPS = 100
ITERS = 60

eigh_p = core.new_primitive("eigh", multiple_results=True)


@eigh_p.def_abstract_eval
def _eigh_abstract(x, *, lower, sort_eigenvalues, subset_by_index, algorithm):
    if x.ndim < 2:
        raise TypeError(f"Input 0 to eigh must have rank at least 2, but got "
                        f"shape={x.shape}")
    check_operand("eigh", x, rank=None)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"Argument to symmetric eigendecomposition must have shape "
                         f"[..., n, n], got shape {x.shape}")
    # a Hermitian matrix's eigenvalues are real
    return [ShapedArray(x.shape, x.dtype, x.weak_type),
            ShapedArray(tuple(x.shape[:-1]), real_dtype(x.dtype), x.weak_type)]


def real_dtype(dtype) -> np.dtype:
    """``float32``/``float64`` for ``complex64``/``complex128``; other dtypes as they are."""
    dt = np.dtype(dtype)
    return np.empty(0, dt).real.dtype


def _first_then(first, rest):
    """``first + rest[0] + rest[1] + ...`` added in order (``rest`` along axis 0)."""
    terms = np.concatenate([first[None], rest], axis=0)
    return np.add.accumulate(terms, axis=0)[-1]


def _tridiagonal_ql_complex(a: np.ndarray, lower: bool, sort: bool):
    """One Hermitian matrix: the complex C kernel's steps (``tp_eigh_c*``): zhetrd's
    reflectors on column ``k`` below the diagonal (the conjugate of row ``k``), which
    leave a real tridiagonal, ``Q`` by backward accumulation, then the real QL with its
    rotations applied to the real and imaginary parts of ``Q^T``'s rows."""
    n = a.shape[0]
    rt = a.real.dtype.type
    rows, cols = np.indices((n, n))
    x = np.where((rows >= cols) if lower else (rows <= cols), a, np.conj(a.T)).copy()
    x[np.arange(n), np.arange(n)] = x.real[np.arange(n), np.arange(n)]
    x, unscale = _scale(x)
    d, e = np.zeros(n, rt), np.zeros(n, rt)
    taus = np.zeros(n, a.dtype)
    half = rt(-0.5)
    for k in range(n - 1):
        hv, blk = x[k, k + 1:], x[k + 1:, k + 1:]
        d[k] = x[k, k].real
        alpha = np.conj(hv[0])
        ar, ai = alpha.real, alpha.imag
        ss = _first_then(rt(0), abs2(hv[1:]))
        if ss == 0 and ai == 0:
            e[k] = ar
            continue
        beta = np.sqrt((ar * ar + ai * ai) + ss)
        if ar >= 0:
            beta = -beta
        tau = np.empty(1, a.dtype)
        tau.real, tau.imag = (beta - ar) / beta, -ai / beta
        scale = alpha - beta
        hv[0] = 1
        hv[1:] = np.conj(hv[1:]) / np.full(1, scale)
        e[k], taus[k] = beta, tau[0]
        p = _first_then(blk[0], mul(np.conj(hv[1:])[:, None], blk[1:]))
        p = mul(tau, np.conj(p))
        yv = _first_then(np.conj(p[0]), mul(np.conj(p[1:]), hv[1:]))
        kk = mul(tau, np.array([yv]))
        kk = _cplx(half * kk.real, half * kk.imag, a.dtype)
        p = p + mul(kk, hv)
        blk[...] = blk - (mul(hv[:, None], np.conj(p)[None, :])
                          + mul(p[:, None], np.conj(hv)[None, :]))
    if n >= 1:
        d[n - 1] = x[n - 1, n - 1].real
    z = np.eye(n, dtype=a.dtype)
    for k in range(n - 2, -1, -1):
        if taus[k] == 0:
            continue
        hv, blk = x[k, k + 1:], z[k + 1:, k + 1:]
        p = _first_then(blk[0], mul(np.conj(hv[1:])[:, None], blk[1:]))
        p = mul(np.array([taus[k]]), p)
        blk[...] = blk - mul(hv[:, None], p[None, :])
    z = z.T.copy()
    _ql(d, e, z.view(rt))
    if unscale != 1:
        d = _ftz(d * rt(unscale))
    order = np.argsort(d, kind="stable") if sort else np.arange(n)
    return z[order].T.copy(), d[order]


def _cplx(re, im, dtype):
    out = np.empty(np.shape(re), dtype)
    out.real, out.imag = re, im
    return out


def work_elements(n: int) -> int:
    """Scratch elements ``tp_eigh_*`` takes for one ``n x n`` matrix (the complex
    kernel's layout; the real one uses ``2 n n + 5 n``, then the panels of Q's
    accumulation: ``TP_HACC_WORK`` of ``runtime/tp_panels.h``, two threads' ``n`` rows
    of 256 bytes and 64 bytes of alignment)."""
    return 2 * n * n + 6 * n + 2 * n * 64 + 16


def _house(x: np.ndarray, k: int):
    """Householder step ``k`` (``tp_eigh_house_*``): row ``k`` right of the diagonal
    becomes the reflector ``v``, the trailing block ``B - (v q^T + q v^T)``. Sums run
    in index order (``np.add.accumulate``), as the C loops add."""
    dt = x.dtype.type
    v = x[k, k + 1:]
    tau, beta = householder_reflector(v)
    if tau == 0:  # nothing to reflect: the block stays
        return tau, beta
    blk = x[k + 1:, k + 1:]
    p = tau * np.add.accumulate(v[:, None] * blk, axis=0)[-1]
    kk = dt(0.5) * tau * np.add.accumulate(p * v)[-1]
    p = p - kk * v
    blk[...] = blk - (np.outer(v, p) + np.outer(p, v))
    return tau, beta


def _tridiagonal_ql(a: np.ndarray, lower: bool, sort: bool):
    """One matrix: the C kernel's steps (``tp_eigh_*``): Householder reduction to a
    tridiagonal ``(d, e)``, ``Q`` by backward accumulation, then implicit QL with the
    rotations applied to the rows of ``Q^T``."""
    n = a.shape[0]
    rows, cols = np.indices((n, n))
    x = np.where((rows >= cols) if lower else (rows <= cols), a, a.T).copy()
    x, unscale = _scale(x)
    d, e, taus = (np.zeros(n, a.dtype) for _ in range(3))
    for k in range(n - 2):
        d[k] = x[k, k]
        taus[k], e[k] = _house(x, k)
    d[max(n - 2, 0):] = np.diagonal(x)[max(n - 2, 0):]
    if n >= 2:
        e[n - 2] = x[n - 2, n - 1]
    z = np.eye(n, dtype=a.dtype)
    for k in range(n - 3, -1, -1):
        if taus[k] == 0:
            continue
        hv, blk = x[k, k + 1:], z[k + 1:, k + 1:]
        p = np.add.accumulate(hv[:, None] * blk, axis=0)[-1]
        blk[...] = blk - np.outer(taus[k] * hv, p)
    z = z.T.copy()
    _ql(d, e, z)
    if unscale != 1:
        d = _ftz(d * d.dtype.type(unscale))
    order = np.argsort(d, kind="stable") if sort else np.arange(n)
    return z[order].T.copy(), d[order]


#: dtype -> the range of a matrix's largest entry that eigh takes as it is (LAPACK's
#: sqrt(safmin / eps) and its inverse: squares neither overflow nor underflow), and the
#: largest exponent of the power of two that scales one outside it (``tp_eigh_*``'s
#: TP_EIGH_LO/HI/EXP: the scale and its inverse both normal).
_SCALED = {np.dtype(np.float32): (2.0 ** -51, 2.0 ** 51, 120),
           np.dtype(np.float64): (2.0 ** -484, 2.0 ** 484, 1000)}


def _scale(x: np.ndarray):
    """``(x scaled, unscale)``: ``x`` times a power of two when its largest magnitude (a
    complex entry's largest part) is outside ``_SCALED``'s range (read with DAZ/FTZ, as the kernel computes), so that the
    reduction's squares stay finite and normal; the eigenvalues are multiplied back by
    ``unscale``. Exact: the eigenvectors and, in range, the eigenvalues are those of
    ``x``."""
    real = x.real.dtype
    lo, hi, cap = _SCALED[real]
    parts = x.view(real) if x.dtype.kind == "c" else x   # a complex entry's largest part
    flushed = _ftz(parts)
    anrm = float(np.max(np.abs(flushed), initial=0.0, where=~np.isnan(flushed)))
    if not (0 < anrm <= np.finfo(real).max) or lo <= anrm <= hi:
        return x, 1.0
    ex = int(np.clip(np.frexp(anrm)[1], -cap, cap))
    return _ftz(flushed * real.type(2.0 ** -ex)).view(x.dtype), 2.0 ** ex


#: float64's QL takes sqrt(f^2 + g^2) where the larger magnitude lies strictly between
#: these (``tp_eigh_hypot_f64``: no square overflows, the larger is normal), libm's
#: hypot elsewhere; float32 always takes hypot.
_HYPOT_RANGE = (2.0 ** -450, 2.0 ** 450)


def _hypot_f64(f, g):
    af, ag = abs(f), abs(g)
    mx = af if af > ag else ag
    if _HYPOT_RANGE[0] < mx < _HYPOT_RANGE[1]:
        return np.sqrt(f * f + g * g)
    return np.hypot(f, g)


def _ftz(x: np.ndarray) -> np.ndarray:
    """``x`` with its subnormal entries flushed to zeros of their sign, as the compiled
    kernel's arithmetic (flush-to-zero and denormals-are-zero, XLA:CPU's mode) leaves
    them. The QL flushes every result: its rotations of converged (tiny) vector entries
    are where subnormals arise (float32 n = 136 test matrices); the reduction and the
    accumulation of Q run unflushed."""
    tiny = np.finfo(x.dtype).tiny
    return np.where(np.abs(x) < tiny, x * 0, x)


def _ql(d: np.ndarray, e: np.ndarray, z: np.ndarray) -> None:
    """Implicit QL with shifts on the tridiagonal ``(d, e)`` in place (``d`` becomes the
    eigenvalues), each rotation applied to rows ``i, i + 1`` of ``z``. Every result is
    flushed (``_ftz``) as the kernel's are."""
    n = d.shape[0]
    dt = d.dtype.type
    one, two = dt(1), dt(2)
    tiny = np.finfo(d.dtype).tiny
    hypot = _hypot_f64 if d.dtype == np.float64 else np.hypot

    def fz(x):  # one scalar result, flushed
        return x * 0 if abs(x) < tiny else x

    for lo in range(n):
        for _ in range(ITERS):
            m = lo
            while m + 1 < n:
                dd = fz(abs(d[m]) + abs(d[m + 1]))
                if fz(abs(e[m]) + dd) == dd:
                    break
                m += 1
            if m == lo:
                break
            g = fz(fz(d[lo + 1] - d[lo]) / fz(two * e[lo]))
            rr = fz(hypot(g, one))
            g = fz(fz(d[m] - d[lo]) + fz(e[lo] / fz(g + (rr if g >= 0 else -rr))))
            s = c = one
            pp = dt(0)
            i = m - 1
            while i >= lo:
                f, bb = fz(s * e[i]), fz(c * e[i])
                rr = fz(hypot(f, g))
                e[i + 1] = rr
                if rr == 0:
                    d[i + 1] = fz(d[i + 1] - pp)
                    e[m] = 0
                    break
                s, c = fz(f / rr), fz(g / rr)
                g = fz(d[i + 1] - pp)
                rr = fz(fz(fz(d[i] - g) * s) + fz(fz(two * c) * bb))
                pp = fz(s * rr)
                d[i + 1] = fz(g + pp)
                g = fz(fz(c * rr) - bb)
                zj = z[i + 1].copy()
                z[i + 1] = _ftz(_ftz(s * z[i]) + _ftz(c * zj))
                z[i] = _ftz(_ftz(c * z[i]) - _ftz(s * zj))
                i -= 1
            if i >= lo:
                continue  # stopped early on a zero rotation
            d[lo] = fz(d[lo] - pp)
            e[lo] = g
            e[m] = 0


@eigh_p.def_impl
def _eigh_impl(x, *, lower, sort_eigenvalues, subset_by_index, algorithm):
    x = np.asarray(x)
    _check_supported(x.dtype, "eigh")
    n = x.shape[-1]
    flat = x.reshape((int(np.prod(x.shape[:-2], dtype=np.int64)), n, n))
    vs = np.empty_like(flat)
    ws = np.empty(flat.shape[:2], real_dtype(x.dtype))
    jacobi = _tridiagonal_ql_complex if x.dtype.kind == "c" else _tridiagonal_ql
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for b in range(flat.shape[0]):
            vs[b], ws[b] = jacobi(flat[b], lower, sort_eigenvalues)
    return [vs.reshape(x.shape), ws.reshape(x.shape[:-1])]


def eigh(x, *, lower: bool = True, symmetrize_input: bool = True,
         sort_eigenvalues: bool = True, subset_by_index=None):
    """Eigenvectors and eigenvalues of each symmetric matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., n, n)``.
    lower : bool
        Read the lower triangle (otherwise the upper) when not symmetrizing.
    symmetrize_input : bool
        Use ``(x + x^T) / 2`` (JAX's default).
    sort_eigenvalues : bool
        Ascending eigenvalues (and their vectors in that order).
    subset_by_index : None
        Only ``None`` (all eigenvalues) is implemented.

    Returns
    -------
    (Array, Array)
        ``v`` (``x``'s shape, eigenvectors in columns) and ``w`` (``(..., n)``).
    """
    if subset_by_index is not None:
        raise NotImplementedError("transpile does not implement eigh's subset_by_index")
    if symmetrize_input:
        x = symmetrize(x)
    v, w = eigh_p.bind(x, lower=bool(lower), sort_eigenvalues=bool(sort_eigenvalues),
                       subset_by_index=None, algorithm=None)
    return v, w


# ---------------------------------------------------------------------------------------
# JVP and batching

def diagonal(x):
    """The main diagonal of each matrix of ``x`` (one gather of ``(i, i)`` points)."""
    aval = core.get_aval(x)
    *batch, n, _ = aval.shape
    nb = len(batch)
    if 0 in aval.shape:
        return structural.reshape(x, tuple(batch) + (n,)) if n == 0 else \
            structural.broadcast_in_dim(np.zeros((), aval.dtype), tuple(batch) + (n,), ())
    idx = broadcasted_iota(np.int32, tuple(batch) + (n, 2), nb)
    axes = tuple(range(nb))
    dnums = GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(nb, nb + 1),
                                   start_index_map=(nb, nb + 1), operand_batching_dims=axes,
                                   start_indices_batching_dims=axes)
    return gather(x, idx, dnums, (1,) * (nb + 2), mode=GatherScatterMode.PROMISE_IN_BOUNDS)


def _eigh_jvp(primals, tangents, **params):
    x, = primals
    dx, = tangents
    v, w = eigh_p.bind(x, **params)
    if isinstance(dx, Zero):
        return [v, w], [Zero(ad.tangent_aval(core.get_aval(v))),
                        Zero(ad.tangent_aval(core.get_aval(w)))]
    aval = core.get_aval(x)
    n, nd = aval.shape[-1], aval.ndim
    shape = aval.shape
    eye = structural.broadcast_in_dim(_eye(aval.dtype, n), shape, (nd - 2, nd - 1))
    batch = tuple(range(nd - 2))
    cplx = aval.dtype.kind == "c"
    wc = ew.convert_element_type(w, aval.dtype) if cplx else w
    # gap[..., i, j] = w[j] - w[i]
    gap = ew.sub(structural.broadcast_in_dim(wc, shape, batch + (nd - 1,)),
                 structural.broadcast_in_dim(wc, shape, batch + (nd - 2,)))
    fmat = ew.sub(ew.integer_pow(ew.add(eye, gap), -1), eye)
    vh = complex_ops.conj(_swap_last(v)) if cplx else _swap_last(v)
    vt_dx_v = _matmul(_matmul(vh, dx), v)
    dv = _matmul(v, ew.mul(fmat, vt_dx_v))
    dw = diagonal(vt_dx_v)
    return [v, w], [dv, complex_ops.real(dw) if cplx else dw]


ad.jvp_rules[eigh_p] = _eigh_jvp


def _eigh_batch(vals, dims, **params):
    (x,), (bdim,) = vals, dims
    return eigh_p.bind(moveaxis(x, bdim, 0), **params), (0, 0)


primitive_batchers[eigh_p] = _eigh_batch
