"""``hessenberg``, ``householder_product`` and ``schur`` (JAX's ``lax.linalg`` functions
and primitives of those names).

``hessenberg_p`` is LAPACK ``gehrd``'s reduction ``a = Q H Q^H`` with
``Q = H_0 H_1 ... H_{n-2}``, ``H_j = I - tau_j v_j v_j^H``: the output holds ``H`` on and
above the first subdiagonal and reflector ``j``'s vector below it (a leading 1 implied
at row ``j + 1``), and ``taus`` (``(..., n - 1)``) their scales. Each reflector is
``larfg``'s: ``beta = -sign(Re alpha) sqrt(|alpha|^2 + ||x||^2)`` (real),
``tau = (beta - alpha) / beta``, ``v = x / (alpha - beta)``; no reflection (``tau = 0``)
when the part to annihilate is zero and ``alpha`` real, so for a real matrix the last
one is the identity. It is applied from the right (all rows), then from the left, as
``gehd2`` does.

``householder_product_p`` is ``orgqr``: the first ``n`` columns of
``H_0 ... H_{k-1}`` from reflectors stored below the diagonal of an ``m x n`` matrix
(``m >= n``), accumulated backwards.

``schur_p`` is ``gees``' Schur decomposition ``a = Z T Z^H``: ``T`` upper triangular for
complex input, quasi-upper-triangular (real Schur form, 2 x 2 blocks for complex
conjugate pairs with equal diagonal entries, as ``lanv2`` standardises them) for real
input, ``Z`` unitary. Its NumPy rule deflates one eigenvector (or the real basis
``[Re v, Im v]`` of a conjugate pair) at a time: a complete QR of that basis changes the
trailing block's coordinates, and the part below it is set to zero. The eigenvalues come
along ``T``'s diagonal in the order ``numpy.linalg.eig`` (LAPACK ``geev``, the same
Hessenberg QR iteration) gives them; the Schur vectors match JAX's up to the sign
(phase) of each column. It computes in double precision and rounds the results.
``sort_eig_vals`` is refused, as JAX refuses it.

None of them has a derivative rule (JAX has none). Compiled code runs C kernels
(``codegen/eig_kernels.py``, ``runtime/tp_eig.h``, ``tp_eig_complex.h``: the Hessenberg
kernel runs this rule's steps, the Schur kernel dlahqr's (real) or zlahqr's (complex)
iteration, equal to this rule within rounding, a complex matrix's eigenvalues in gees'
order where balancing reorders numpy.linalg.eig's); the CUDA backend refuses them.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..interpreters.batching import moveaxis, primitive_batchers
from . import structural
from .linalg_base import check_operand

__all__ = ["hessenberg", "hessenberg_p", "householder_product", "householder_product_p",
           "schur", "schur_p"]

hessenberg_p = core.new_primitive("hessenberg", multiple_results=True)
householder_product_p = core.new_primitive("householder_product")
schur_p = core.new_primitive("schur", multiple_results=True)


def _check_input(name: str, x, position: int = 0) -> None:
    check_operand(name, x, position, rank=2 - position)


def _check_supported(dtype, name: str) -> None:
    dt = np.dtype(dtype)
    if dt not in (np.float32, np.float64, np.complex64, np.complex128):
        # What JAX 0.10.2 raises on CPU for half precision.
        raise NotImplementedError(f"Unsupported dtype {dt.name} in {name}")


def _flat(x: np.ndarray) -> np.ndarray:
    *batch, m, n = x.shape
    return x.reshape((int(np.prod(batch, dtype=np.int64)), m, n)).copy()


# ---------------------------------------------------------------------------------------
# hessenberg

@hessenberg_p.def_abstract_eval
def _hessenberg_abstract(a):
    _check_input("hessenberg", a)
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"Argument to Hessenberg reduction must have shape [..., n, n], "
                         f"got shape {a.shape}")
    n = a.shape[-1]
    return [ShapedArray(a.shape, a.dtype, a.weak_type),
            ShapedArray(tuple(a.shape[:-2]) + (max(n - 1, 0),), a.dtype, a.weak_type)]


def _apply_left(v, tau, y) -> None:
    """``y -= tau v (v^H y)`` for each matrix of the batch (``v`` batch x rows)."""
    w = np.einsum("bi,bij->bj", v.conj(), y)
    y -= v[:, :, None] * (tau[:, None] * w)[:, None, :]


@hessenberg_p.def_impl
def _hessenberg_impl(a):
    a = np.asarray(a)
    _check_supported(a.dtype, "hessenberg")
    x = _flat(a)
    nb, n, _ = x.shape
    taus = np.zeros((nb, max(n - 1, 0)), a.dtype)
    real = np.dtype(dtypes.real_dtype(a.dtype))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for j in range(n - 1):
            alpha = x[:, j + 1, j].copy()
            ss = np.zeros(nb, real)
            for i in range(j + 2, n):
                ss = ss + (x[:, i, j] * x[:, i, j].conj()).real
            # larfg: no reflection when nothing is to annihilate and alpha is real
            go = (ss != 0) | (alpha.imag != 0)
            beta = np.sqrt(np.abs(alpha) ** 2 + ss).astype(real)
            beta = np.where(alpha.real >= 0, -beta, beta)
            tau = np.where(go, (beta - alpha) / beta, 0).astype(a.dtype)
            x[:, j + 2:, j] = np.where(go[:, None], x[:, j + 2:, j] / (alpha - beta)[:, None],
                                       x[:, j + 2:, j])
            x[:, j + 1, j] = np.where(go, beta, alpha)
            taus[:, j] = tau
            v = np.concatenate([np.ones((nb, 1), a.dtype), x[:, j + 2:, j]], axis=1)
            # from the right (all rows, columns j+1..): X -= tau (X v) v^H
            w = np.einsum("bij,bj->bi", x[:, :, j + 1:], v)
            x[:, :, j + 1:] -= (tau[:, None] * w)[:, :, None] * v.conj()[:, None, :]
            # then from the left (rows and columns j+1..) with conj(tau)
            _apply_left(v, tau.conj(), x[:, j + 1:, j + 1:])
    return [x.reshape(a.shape), taus.reshape(tuple(a.shape[:-2]) + taus.shape[1:])]


def hessenberg(a):
    """Reduce each square matrix of ``a`` to upper Hessenberg form (LAPACK ``gehrd``).

    Parameters
    ----------
    a : Array
        Shape ``(..., n, n)``, floating.

    Returns
    -------
    (Array, Array)
        ``H`` with the reflectors' vectors below its first subdiagonal, and their
        scales ``taus`` (``(..., n - 1)``).
    """
    return tuple(hessenberg_p.bind(a))


# ---------------------------------------------------------------------------------------
# householder_product

@householder_product_p.def_abstract_eval
def _householder_product_abstract(a, taus):
    _check_input("householder_product", a)
    _check_input("householder_product", taus, 1)
    *batch, m, n = a.shape
    if m < n:
        raise ValueError(f"The first argument to householder_product must have at least "
                         f"as many rows as columns, got shape {a.shape}")
    if taus.ndim - 1 != len(batch):
        raise TypeError(f"All inputs to householder_product must have the same number of "
                        f"batch dimensions, but got {[len(batch), taus.ndim - 1]} batch "
                        f"dimensions for the inputs.")
    if tuple(taus.shape[:-1]) != tuple(batch):
        raise ValueError(f"householder_product's batch dimensions must agree, got shapes "
                         f"{a.shape} and {taus.shape}")
    if taus.shape[-1] > n:
        raise ValueError("The second argument to householder_product must not have more "
                         "rows than the minimum of the first argument's rows and columns.")
    if taus.dtype != a.dtype:
        raise TypeError(f"householder_product requires both arguments to have the same "
                        f"dtype, got {a.dtype.name} and {taus.dtype.name}")
    return ShapedArray(a.shape, a.dtype, a.weak_type)


@householder_product_p.def_impl
def _householder_product_impl(a, taus):
    a, taus = np.asarray(a), np.asarray(taus)
    _check_supported(a.dtype, "householder_product")
    x = _flat(a)
    nb, m, n = x.shape
    t = taus.reshape((nb, taus.shape[-1])).astype(a.dtype)
    q = np.zeros_like(x)
    q[:, np.arange(n), np.arange(n)] = 1
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for j in range(t.shape[1] - 1, -1, -1):  # orgqr: backwards, H_j on rows j..
            v = np.concatenate([np.ones((nb, 1), a.dtype), x[:, j + 1:, j]], axis=1)
            _apply_left(v, t[:, j], q[:, j:, j:])
    return q.reshape(a.shape)


def householder_product(a, taus):
    """The product of Householder reflectors (LAPACK ``orgqr``).

    Parameters
    ----------
    a : Array
        Shape ``(..., m, n)``, ``m >= n``: reflector ``j``'s vector below the diagonal of
        column ``j`` (a leading 1 implied on the diagonal).
    taus : Array
        Shape ``(..., k)``, ``k <= n``: the reflectors' scales.

    Returns
    -------
    Array
        The first ``n`` columns of ``H_0 H_1 ... H_{k-1}`` (``a``'s shape).
    """
    return householder_product_p.bind(a, taus)


# ---------------------------------------------------------------------------------------
# schur

@schur_p.def_abstract_eval
def _schur_abstract(x, *, compute_schur_vectors, sort_eig_vals, select_callable):
    _check_input("schur", x)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"The input to schur must be a square matrix. Got shape "
                         f"{tuple(x.shape[-2:])}.")
    out = ShapedArray(x.shape, x.dtype, x.weak_type)
    return [out, out] if compute_schur_vectors else [out]


def _standardise(t: np.ndarray, z: np.ndarray, j: int) -> None:
    """Rotate rows/columns ``j, j + 1`` so that the 2 x 2 block there has equal diagonal
    entries (``lanv2``'s standard form of a complex conjugate pair)."""
    def diff(theta):
        c, s = np.cos(theta), np.sin(theta)
        g = np.array([[c, s], [-s, c]])
        b = g.T @ t[j:j + 2, j:j + 2] @ g
        return b[0, 0] - b[1, 1]
    theta = 0.5 * np.arctan2(-diff(0.0), diff(np.pi / 4))
    c, s = np.cos(theta), np.sin(theta)
    g = np.array([[c, s], [-s, c]])
    t[j:j + 2, :] = g.T @ t[j:j + 2, :]
    t[:, j:j + 2] = t[:, j:j + 2] @ g
    z[:, j:j + 2] = z[:, j:j + 2] @ g
    t[j, j] = t[j + 1, j + 1] = 0.5 * (t[j, j] + t[j + 1, j + 1])


def _schur_one(a: np.ndarray):
    """``(T, Z)`` of one finite matrix, in double precision."""
    real = a.dtype.kind == "f"
    t = a.astype(np.float64 if real else np.complex128)
    n = t.shape[0]
    z = np.eye(n, dtype=t.dtype)
    targets = list(np.linalg.eig(t)[0])
    j = 0
    while j < n:
        w, v = np.linalg.eig(t[j:, j:])
        i = int(np.argmin(np.abs(w - targets[j])))
        pair = real and w[i].imag != 0 and j + 1 < n
        if pair:
            basis = np.stack([v[:, i].real, v[:, i].imag], axis=1)
        else:
            basis = (v[:, i].real if real else v[:, i])[:, None]
        q = np.linalg.qr(basis, mode="complete")[0]
        t[j:, :] = q.conj().T @ t[j:, :]
        t[:, j:] = t[:, j:] @ q
        z[:, j:] = z[:, j:] @ q
        size = 2 if pair else 1
        t[j + size:, j:j + size] = 0
        if pair:
            _standardise(t, z, j)
        j += size
    return t, z


@schur_p.def_impl
def _schur_impl(x, *, compute_schur_vectors, sort_eig_vals, select_callable):
    x = np.asarray(x)
    if sort_eig_vals:
        raise NotImplementedError("The sort feature of LAPACK's gees routine is not "
                                  "implemented.")
    _check_supported(x.dtype, "schur")
    flat = _flat(x)
    ts, zs = np.empty_like(flat), np.empty_like(flat)
    for b in range(flat.shape[0]):
        if np.all(np.isfinite(flat[b])):
            ts[b], zs[b] = _schur_one(flat[b])
        else:  # a failed gees: NaN, as JAX gives
            ts[b] = zs[b] = np.nan
    outs = [ts.reshape(x.shape)]
    return outs + [zs.reshape(x.shape)] if compute_schur_vectors else outs


def schur(x, *, compute_schur_vectors: bool = True, sort_eig_vals: bool = False,
          select_callable=None):
    """Schur decomposition ``x = Z T Z^H`` of each square matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., n, n)``, floating or complex.
    compute_schur_vectors : bool
        Also return ``Z``.
    sort_eig_vals, select_callable
        LAPACK's eigenvalue sorting: not implemented (as in JAX).

    Returns
    -------
    tuple of Array
        ``(T, Z)``, or ``(T,)`` without Schur vectors.
    """
    return tuple(schur_p.bind(x, compute_schur_vectors=bool(compute_schur_vectors),
                              sort_eig_vals=bool(sort_eig_vals),
                              select_callable=select_callable))


# ---------------------------------------------------------------------------------------
# batching (no derivative rules: JAX has none)

def _batch_first(p):
    def rule(vals, dims, **params):
        size = next(core.get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
        moved = [moveaxis(v, d, 0) if d is not None else
                 _broadcast_front(v, size) for v, d in zip(vals, dims)]
        out = p.bind(*moved, **params)
        return (out, [0] * len(out)) if p.multiple_results else (out, 0)
    return rule


def _broadcast_front(v, size):
    aval = core.get_aval(v)
    from_dims = tuple(range(1, aval.ndim + 1))
    return structural.broadcast_in_dim(v, (size,) + tuple(aval.shape), from_dims)


for _p in (hessenberg_p, householder_product_p, schur_p):
    primitive_batchers[_p] = _batch_first(_p)
