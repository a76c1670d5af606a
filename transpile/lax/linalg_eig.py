"""``eig``: eigenvalues and eigenvectors of general square matrices (JAX's
``lax.linalg.eig`` and ``eig_p``).

``eig_p`` gives ``w`` (the eigenvalues, ``(..., n)``), then the left eigenvectors ``vl``
when ``compute_left_eigenvectors`` and the right ones ``vr`` when
``compute_right_eigenvectors`` (in columns: ``x @ vr == vr @ diag(w)`` and
``vl^H @ x == diag(w) @ vl^H``). All outputs are complex (``float32 -> complex64``,
``float64 -> complex128``), never weak. As LAPACK's ``geev`` (what JAX 0.10.2 runs on
CPU), each eigenvector has unit 2-norm and a real largest-magnitude component; the
order of the eigenvalues is the order ``geev``'s Hessenberg QR iteration finds them (not
sorted). A matrix with a NaN or infinity gives NaN outputs, as JAX's failed ``geev``.

The NumPy rule runs ``numpy.linalg.eig`` (LAPACK ``geev`` in the operand's precision)
and gets the left eigenvectors from the inverse of the right ones (the rows of
``vr^-1`` are the conjugated left eigenvectors), normalised as ``geev`` normalises
them; a real left eigenvector's sign may differ from JAX's. Compiled code runs a C
kernel (``codegen/eig_kernels.py``, ``runtime/tp_eig.h``: gehrd's reduction, dlahqr's
double-shift QR for real and zlahqr's single-shift QR for complex operands, back
substitution; equal within rounding, the eigenvalues in LAPACK's order but for rare
convergence paths of ``geev``'s balancing); the CUDA backend refuses it.

JVP (JAX's rules, from first-order perturbation theory): with ``P = vr^-1 dx vr``,
``dw = diag(P)``. Eigenvector derivatives need ``enable_eigvec_derivs=True`` (they hold
only for distinct eigenvalues): ``U = vr (F * P)`` with ``F[i, j] = 1 / (w[j] - w[i])``
off the diagonal and 0 on it, then ``dvr_j = U_j + c_j vr_j`` where ``c_j`` keeps the
``geev`` normalisation: ``c_j = -Re(vr_j^H U_j) - i Im(U[k, j]) / vr[k, j]`` with ``k``
the largest-magnitude component. ``vl`` takes the same rule for ``x^H`` (eigenvalues
``conj(w)``). ``vr^-1`` comes from the left eigenvectors (``vr^-1[j] = vl_j^H /
(vl_j^H vr_j)``), so no complex linear solve is needed.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..interpreters import ad
from ..interpreters.ad import Zero
from ..interpreters.batching import moveaxis, primitive_batchers
from . import complex_ops
from . import elementwise as ew
from . import structural
from .linalg_ad import _eye, _matmul
from .linalg_base import _swap_last, check_operand
from .linalg_eigh import diagonal
from .reduction import argmax, reduce_sum
from .slicing import broadcasted_iota

__all__ = ["eig", "eig_p", "EigImplementation"]

eig_p = core.new_primitive("eig", multiple_results=True)


class EigImplementation:
    """JAX's choices of eigendecomposition algorithm (only ``LAPACK`` runs here, on
    the host CPU)."""
    CUSOLVER = "cusolver"
    MAGMA = "magma"
    LAPACK = "lapack"


def _complex_of(dtype) -> np.dtype:
    dt = np.dtype(dtype)
    return dt if dt.kind == "c" else np.dtype(dtypes.COMPLEX_OF.get(dt, np.complex64))


@eig_p.def_abstract_eval
def _eig_abstract(x, *, compute_left_eigenvectors, compute_right_eigenvectors,
                  enable_eigvec_derivs, implementation):
    check_operand("eig", x)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"The input to eig must be a square matrix. Got shape "
                         f"{tuple(x.shape[-2:])}.")
    ct = _complex_of(x.dtype)
    count = int(bool(compute_left_eigenvectors)) + int(bool(compute_right_eigenvectors))
    return ([ShapedArray(tuple(x.shape[:-1]), ct, False)]
            + [ShapedArray(tuple(x.shape), ct, False)] * count)


def _check_supported(dtype) -> None:
    dt = np.dtype(dtype)
    if dt not in (np.float32, np.float64, np.complex64, np.complex128):
        # What JAX 0.10.2 raises on CPU for a half-precision eig.
        raise NotImplementedError(f"Unsupported dtype {dt.name}")


def _geev_normalise(v: np.ndarray) -> np.ndarray:
    """Unit 2-norm columns whose largest-magnitude component is real and positive
    (``geev``'s choice for complex vectors)."""
    v = v / np.linalg.norm(v, axis=0, keepdims=True)
    k = np.argmax(np.abs(v), axis=0)
    top = v[k, np.arange(v.shape[1])]
    return v * (np.conj(top) / np.where(top == 0, 1, np.abs(top)))[None, :]


def _one(a: np.ndarray, ct: np.dtype, left: bool):
    """``(w, vl, vr)`` of one matrix, NaN where ``geev`` would fail."""
    n = a.shape[0]
    nan = np.full((n, n), np.nan, ct)
    if not np.all(np.isfinite(a)):
        return np.full(n, np.nan, ct), nan, nan
    try:
        w, vr = np.linalg.eig(a)
    except np.linalg.LinAlgError:
        return np.full(n, np.nan, ct), nan, nan
    vr = vr.astype(ct)
    vl = nan
    if left:
        try:
            vl = _geev_normalise(np.conj(np.linalg.inv(vr)).T.astype(ct)).astype(ct)
            if a.dtype.kind == "f":  # a real eigenvalue's left vector is real
                vl[:, w.imag == 0] = vl[:, w.imag == 0].real
        except np.linalg.LinAlgError:
            pass  # defective matrix: no basis of left eigenvectors from vr
    return w.astype(ct), vl, vr


@eig_p.def_impl
def _eig_impl(x, *, compute_left_eigenvectors, compute_right_eigenvectors,
              enable_eigvec_derivs, implementation):
    x = np.asarray(x)
    _check_supported(x.dtype)
    ct = _complex_of(x.dtype)
    *batch, n, _ = x.shape
    flat = x.reshape((int(np.prod(batch, dtype=np.int64)), n, n))
    ws = np.empty((flat.shape[0], n), ct)
    vls = np.empty(flat.shape, ct)
    vrs = np.empty(flat.shape, ct)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for b in range(flat.shape[0]):
            ws[b], vls[b], vrs[b] = _one(flat[b], ct, compute_left_eigenvectors)
    outs = [ws.reshape(tuple(batch) + (n,))]
    if compute_left_eigenvectors:
        outs.append(vls.reshape(x.shape))
    if compute_right_eigenvectors:
        outs.append(vrs.reshape(x.shape))
    return outs


def eig(x, *, compute_left_eigenvectors: bool = True,
        compute_right_eigenvectors: bool = True, enable_eigvec_derivs: bool = False,
        implementation=None, use_magma=None):
    """Eigendecomposition of each general square matrix of ``x``.

    Parameters
    ----------
    x : Array
        Shape ``(..., n, n)``, floating or complex.
    compute_left_eigenvectors, compute_right_eigenvectors : bool
        Which eigenvectors to return.
    enable_eigvec_derivs : bool
        Allow differentiating the eigenvectors (valid only for distinct eigenvalues).
    implementation : None or EigImplementation.LAPACK
        Only the host LAPACK-style algorithm is available.
    use_magma : None
        Accepted for compatibility (a GPU option of JAX).

    Returns
    -------
    list of Array
        ``[w]``, then ``vl`` and/or ``vr`` when asked for, all complex.
    """
    if implementation not in (None, EigImplementation.LAPACK):
        raise NotImplementedError(f"transpile only implements eig with implementation="
                                  f"None or LAPACK, got {implementation!r}")
    return list(eig_p.bind(x, compute_left_eigenvectors=bool(compute_left_eigenvectors),
                           compute_right_eigenvectors=bool(compute_right_eigenvectors),
                           enable_eigvec_derivs=bool(enable_eigvec_derivs),
                           implementation=implementation))


# ---------------------------------------------------------------------------------------
# JVP and batching

def _colsum(x):
    """Sum over the rows of each matrix (``x.sum(-2)``)."""
    return reduce_sum(x, (core.get_aval(x).ndim - 2,))


def _row_bcast(x, shape):
    """``x[..., None, :]`` broadcast to ``shape``."""
    nd = len(shape)
    return structural.broadcast_in_dim(x, shape, tuple(range(nd - 2)) + (nd - 1,))


def _inverse_rows(v, u):
    """``v^-1`` from the other side's eigenvectors: row ``j`` is
    ``u_j^H / (u_j^H v_j)``."""
    uh = complex_ops.conj(u)
    scale = _colsum(ew.mul(uh, v))  # u_j^H v_j
    shape = core.get_aval(v).shape
    return _swap_last(ew.div(uh, _row_bcast(scale, shape)))


def _vector_jvp(w, v, v_inv, da):
    """``(dw, dv)`` of ``a v = v diag(w)`` under ``geev``'s normalisation."""
    aval = core.get_aval(v)
    shape, nd, n = aval.shape, aval.ndim, aval.shape[-1]
    p = _matmul(_matmul(v_inv, da), v)
    eye = structural.broadcast_in_dim(_eye(aval.dtype, n), shape, (nd - 2, nd - 1))
    batch = tuple(range(nd - 2))
    gap = ew.sub(structural.broadcast_in_dim(w, shape, batch + (nd - 1,)),
                 structural.broadcast_in_dim(w, shape, batch + (nd - 2,)))
    fmat = ew.sub(ew.div(np.ones((), aval.dtype), ew.add(eye, gap)), eye)
    u = _matmul(v, ew.mul(fmat, p))
    k = argmax(ew.abs(v), nd - 2, np.int32)
    rows = broadcasted_iota(np.int32, shape, nd - 2)
    mask = ew.convert_element_type(
        ew.eq(rows, structural.broadcast_in_dim(k, shape, batch + (nd - 1,))), aval.dtype)
    re = ew.neg(complex_ops.real(_colsum(ew.mul(complex_ops.conj(v), u))))
    im = ew.neg(ew.div(complex_ops.imag(_colsum(ew.mul(mask, u))),
                       complex_ops.real(_colsum(ew.mul(mask, v)))))
    c = complex_ops.complex(re, im)
    return diagonal(p), ew.add(u, ew.mul(v, _row_bcast(c, shape)))


def _eig_jvp(primals, tangents, *, compute_left_eigenvectors, compute_right_eigenvectors,
             enable_eigvec_derivs, implementation):
    x, = primals
    dx, = tangents
    vectors = compute_left_eigenvectors or compute_right_eigenvectors
    if vectors and not enable_eigvec_derivs:
        raise NotImplementedError(
            "Derivatives of non-symmetric eigenvectors are only valid under assumptions "
            "on the input that JAX cannot check (see the enable_eigvec_derivs argument "
            "to jax.lax.linalg.eig). Pass enable_eigvec_derivs=True to "
            "jax.lax.linalg.eig to opt in. See https://github.com/jax-ml/jax/issues/2748 "
            "for discussion.")
    params = dict(compute_left_eigenvectors=compute_left_eigenvectors,
                  compute_right_eigenvectors=compute_right_eigenvectors,
                  enable_eigvec_derivs=enable_eigvec_derivs, implementation=implementation)
    if isinstance(dx, Zero):
        outs = eig_p.bind(x, **params)
        return outs, [Zero(ad.tangent_aval(core.get_aval(o))) for o in outs]
    w, vl, vr = eig_p.bind(x, compute_left_eigenvectors=True,
                           compute_right_eigenvectors=True,
                           enable_eigvec_derivs=enable_eigvec_derivs,
                           implementation=implementation)
    ct = core.get_aval(w).dtype
    da = ew.convert_element_type(dx, ct)
    vr_inv = _inverse_rows(vr, vl)
    if not vectors:
        # diag(vr^-1 da vr) without the full product
        dw = reduce_sum(ew.mul(_matmul(vr_inv, da), _swap_last(vr)),
                        (core.get_aval(vr).ndim - 1,))
        return [w], [dw]
    dw, dvr = _vector_jvp(w, vr, vr_inv, da)
    primal, tangent = [w], [dw]
    if compute_left_eigenvectors:
        _, dvl = _vector_jvp(complex_ops.conj(w), vl, _inverse_rows(vl, vr),
                             complex_ops.conj(_swap_last(da)))
        primal.append(vl)
        tangent.append(dvl)
    if compute_right_eigenvectors:
        primal.append(vr)
        tangent.append(dvr)
    return primal, tangent


ad.jvp_rules[eig_p] = _eig_jvp


def _eig_batch(vals, dims, **params):
    (x,), (bdim,) = vals, dims
    outs = eig_p.bind(moveaxis(x, bdim, 0), **params)
    return outs, [0] * len(outs)


primitive_batchers[eig_p] = _eig_batch
