"""``lax.linalg.eig`` and ``jnp.linalg.eig``/``eigvals``: the nonsymmetric eigenproblem.

Recorded from JAX 0.10.2 (``tests/data/linalg_eig.json``, written by
``tools/record_linalg_eig.py``, whose programs the cases here run): jaxpr text, dtypes
and weak types, errors word for word, eigenvalues within rounding (paired by nearest
value: the order is LAPACK's, not documented) and eigenvectors up to a unit phase.
Independent references: the residuals ``A vr - vr diag(w)`` and
``vl^H A - diag(w) vl^H``, unit norms and real largest components (``geev``'s
normalisation), and central finite differences for the JVP. Every value case runs
eagerly and under ``jit`` (real operands: the C kernel of ``codegen/eig_kernels.py``).
"""
from __future__ import annotations

import json
import pathlib
import re

import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
import transpile.scipy.linalg as jsl
from transpile import lax
from transpile.config import enable_x64

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "linalg_eig.json").read_text())
CASES = DATA["cases"]
M = {k: (np.array(v["real"]) + 1j * np.array(v["imag"]) if isinstance(v, dict)
         else np.array(v)) for k, v in DATA["matrices"].items()}
NS = {"lax": lax, "jnp": jnp, "np": np, "jax": transpile, "jsl": jsl, "M": M}
EXC = {"ValueError": ValueError, "TypeError": TypeError,
       "NotImplementedError": NotImplementedError}

#: the outputs of each eigendecomposition case: w, then vl and/or vr
ROLES = {"eig_f32_real": "w vr", "eig_f32_pairs": "w vr", "eig_f64_pairs": "w vr",
         "eig_c64": "w vr", "eig_batch": "w vr", "eig_1x1": "w vr", "eig_int": "w vr",
         "eig_weak": "w vr", "eigvals_f32": "w", "eigvals_bool": "w",
         "lax_eig_left": "w vl vr", "lax_eig_left_only": "w vl", "vmap_eigvals": "w",
         "jvp_eigvals": "w dw", "jvp_eig_vectors": "w vr dw dvr",
         "jvp_eig_left": "w vl vr dw dvl dvr"}
JAXPR_CASES = ["eig_f32_real", "eig_int", "eig_batch", "eigvals_f32", "eigvals_bool",
               "lax_eig_left", "lax_eig_left_only", "eig_c64", "qrp_lax", "qrp_scipy",
               "qrp_scipy_r", "hess_f32", "hess_scipy", "hess_scipy_q", "hhp_tall",
               "schur_f32", "schur_no_vectors", "schur_scipy", "schur_scipy_complex"]
ERROR_CASES = [n for n, r in CASES.items() if "error" in r and n in
               {k for k in CASES if k.startswith(("err_", "eig_list"))}]


def build(name):
    rec = CASES[name]
    with enable_x64(rec["x64"]):
        return eval(rec["program"], NS), eval(rec["args"], NS), rec["x64"]


def recorded(out) -> np.ndarray:
    if "real" in out:
        return (np.array(out["real"]) + 1j * np.array(out["imag"])).astype(out["dtype"]) \
            .reshape(out["shape"])
    return np.array(out["values"], out["dtype"]).reshape(out["shape"])


def run(name, jit=False):
    fn, args, x64 = build(name)
    with enable_x64(x64):
        outs = (transpile.jit(fn) if jit else fn)(*args)
        return args, transpile.tree_util.tree_leaves(outs)


def _pairing(got_w, want_w) -> np.ndarray:
    """For each recorded eigenvalue, the index of the nearest computed one (distinct)."""
    free, pick = list(range(len(got_w))), []
    for x in want_w:
        j = min(free, key=lambda i: abs(got_w[i] - x))
        free.remove(j)
        pick.append(j)
    return np.array(pick, int)


def _tol(dt) -> float:
    return 2e-4 if np.dtype(dt) in (np.complex64, np.float32) else 1e-9


def _check_vectors(got, want, tol, dgot=None, dwant=None):
    """Columns equal up to a unit phase (and the tangents with the same phase)."""
    for j in range(want.shape[1]):
        phase = np.vdot(got[:, j], want[:, j])
        assert abs(abs(phase) - 1) < 10 * tol
        np.testing.assert_allclose(got[:, j] * phase, want[:, j], atol=10 * tol)
        if dgot is not None:
            np.testing.assert_allclose(dgot[:, j] * phase, dwant[:, j], atol=100 * tol)


def _check_geev_form(a, w, v, left: bool, tol):
    """Independent: eigen-equations, unit norms, real largest components."""
    a = np.asarray(a, np.complex128)
    v = np.asarray(v, np.complex128)
    w = np.asarray(w, np.complex128)
    scale = max(1.0, np.abs(a).max())
    if left:
        res = v.conj().T @ a - w[:, None] * v.conj().T
    else:
        res = a @ v - v * w[None, :]
    assert np.abs(res).max() < 50 * tol * scale
    np.testing.assert_allclose(np.linalg.norm(v, axis=0), 1, atol=10 * tol)
    top = v[np.argmax(np.abs(v), axis=0), np.arange(v.shape[1])]
    assert np.abs(top.imag).max() < 10 * tol


@pytest.mark.parametrize("name", [n for n in ROLES if not n.startswith("jvp")])
def test_values(name):
    args, got = run(name)
    _, compiled = run(name, jit=True)
    want = [recorded(o) for o in CASES[name]["outputs"]]
    roles = ROLES[name].split()
    assert len(got) == len(compiled) == len(want) == len(roles)
    for g, c, w in zip(got, compiled, want):
        assert g.dtype == c.dtype == w.dtype and g.shape == c.shape == w.shape
        assert not g.aval.weak_type
    for outs in (got, compiled):  # the NumPy rule, then the C kernel (eig_kernels.py)
        _check_recorded(name, args, outs, want, roles)


def _check_recorded(name, args, got, want, roles):
    tol = _tol(want[0].dtype)
    gw = np.asarray(got[0]).reshape(-1, want[0].shape[-1])
    ww = want[0].reshape(gw.shape)
    for b in range(gw.shape[0]):
        p = _pairing(gw[b], ww[b])
        np.testing.assert_allclose(gw[b][p], ww[b], rtol=tol, atol=tol)
        for role, g, w in zip(roles[1:], got[1:], want[1:]):
            n = w.shape[-1]
            g = np.asarray(g).reshape(-1, n, n)[b]
            _check_vectors(g[:, p], w.reshape(-1, n, n)[b], tol)
            if name != "vmap_eigvals" and args:
                a = np.asarray(args[0]).reshape(-1, n, n)[b]
                _check_geev_form(a, gw[b], g, role == "vl", tol)


@pytest.mark.parametrize("name", JAXPR_CASES)
def test_jaxpr_text(name):
    fn, args, x64 = build(name)
    with enable_x64(x64):
        assert str(transpile.make_jaxpr(fn)(*args)) == CASES[name]["jaxpr"]


@pytest.mark.parametrize("name", ERROR_CASES)
def test_errors(name):
    fn, args, x64 = build(name)
    rec = CASES[name]
    with enable_x64(x64), pytest.raises(EXC[rec["error"]],
                                        match="^" + re.escape(rec["message"]) + "$"):
        fn(*args)


@pytest.mark.parametrize("name", ["jvp_eigvals", "jvp_eig_vectors", "jvp_eig_left"])
def test_jvp_recorded(name):
    _, got = run(name)
    want = [recorded(o) for o in CASES[name]["outputs"]]
    roles = ROLES[name].split()
    half = len(roles) // 2
    tol = _tol(want[0].dtype)
    p = _pairing(np.asarray(got[0]), want[0])
    np.testing.assert_allclose(np.asarray(got[half])[p], want[half], rtol=1e-7, atol=1e-7)
    for k in range(1, half):
        _check_vectors(np.asarray(got[k])[:, p], want[k], tol,
                       np.asarray(got[half + k])[:, p], want[half + k])


def test_grad_eigvals_recorded():
    _, got = run("grad_eigvals")
    np.testing.assert_allclose(np.asarray(got[0]), recorded(CASES["grad_eigvals"]["outputs"][0]),
                               atol=1e-9)


def _eig_fd(a, t, eps=1e-6):
    """Central differences of eigenvalues and right eigenvectors (paired, phase-fixed
    by ``geev``'s normalisation) along ``t``."""
    w0, v0 = np.linalg.eig(a)
    res = []
    for s in (1, -1):
        w, v = np.linalg.eig(a + s * eps * t)
        p = _pairing(w, w0)
        v = v[:, p]
        k = np.argmax(np.abs(v0), axis=0)
        top0, top = v0[k, range(len(k))], v[k, range(len(k))]
        v = v * (top0 / np.abs(top0) * np.abs(top) / top)[None, :]  # v0's phase
        res.append((w[p], v))
    return (res[0][0] - res[1][0]) / (2 * eps), (res[0][1] - res[1][1]) / (2 * eps)


@pytest.mark.parametrize("matrix,tangent", [("pairs4", "tangent4"), ("real3", "tangent3")])
def test_jvp_finite_differences(matrix, tangent):
    a, t = M[matrix], M[tangent]
    with enable_x64(True):
        (w, v), (dw, dv) = transpile.jvp(
            lambda x: lax.linalg.eig(x, compute_left_eigenvectors=False,
                                     enable_eigvec_derivs=True), (a,), (t,))
        jitted = transpile.jit(lambda x, y: transpile.jvp(jnp.linalg.eigvals, (x,), (y,)))
        dw_jit = jitted(a, t)[1]
    fw, fv = _eig_fd(a, t)
    p = _pairing(np.asarray(w), np.linalg.eig(a)[0])
    np.testing.assert_allclose(np.asarray(dw)[p], fw, atol=1e-6)
    np.testing.assert_allclose(np.asarray(dw_jit)[p], fw, atol=1e-6)
    np.testing.assert_allclose(np.asarray(v)[:, p], np.linalg.eig(a)[1], atol=1e-12)
    np.testing.assert_allclose(np.asarray(dv)[:, p], fv, atol=1e-5)


def test_vmap_matches_loop_and_batch_axis():
    x = M["batch"].astype(np.float32)
    moved = np.moveaxis(x, 0, 2)
    got = transpile.vmap(lambda m: jnp.linalg.eig(m)[0], in_axes=2)(moved)
    np.testing.assert_array_equal(np.asarray(got),
                                  np.stack([np.asarray(jnp.linalg.eigvals(m)) for m in x]))


def test_nonfinite_gives_nan():
    a = np.array([[1.0, np.nan], [0.0, 2.0]], np.float32)
    w, v = jnp.linalg.eig(a)
    assert np.isnan(np.asarray(w)).all() and np.isnan(np.asarray(v)).all()


def test_vector_derivatives_need_opt_in():
    rec = CASES["err_jvp_vectors"]
    with pytest.raises(NotImplementedError, match="^" + re.escape(rec["message"]) + "$"):
        transpile.jvp(jnp.linalg.eig, (M["real3"],), (M["tangent3"],))


def test_half_precision_refused():
    with pytest.raises(NotImplementedError, match="Unsupported dtype float16"):
        lax.linalg.eig(np.eye(2, dtype=np.float16))


def test_cuda_refuses_eig():
    lowered = transpile.jit(jnp.linalg.eigvals, backend="cuda")
    with pytest.raises(NotImplementedError, match=r"CUDA backend has no kernel for eig"):
        lowered.lower(M["real3"].astype(np.float32))


# ---------------------------------------------------------------------------------------
# Column-pivoted QR (recorded in the same file: lax.linalg.qr and jax.scipy.linalg.qr)

QRP_CASES = [n for n in CASES if n.startswith("qrp_")]


@pytest.mark.parametrize("name", QRP_CASES)
def test_pivoted_qr_values(name):
    args, got = run(name)
    _, compiled = run(name, jit=True)
    want = [recorded(o) for o in CASES[name]["outputs"]]
    assert len(got) == len(compiled) == len(want)
    for g, c, w in zip(got, compiled, want):
        assert np.asarray(c).tobytes() == np.asarray(g).tobytes()  # C kernel == NumPy rule
        assert g.dtype == w.dtype and g.shape == w.shape
    p, wp = np.asarray(got[-1]), want[-1]
    np.testing.assert_array_equal(p, wp)  # geqp3's column choice
    tol = _tol(want[0].dtype)
    for g, w in zip(got[:-1], want[:-1]):  # same reflector conventions: same signs
        np.testing.assert_allclose(np.asarray(g), w, atol=10 * tol)
    if len(got) == 3:  # independent: a[..., :, p] == q r, q orthonormal, r triangular
        a = np.asarray(args[0], np.float64)
        q, r = (np.asarray(v, np.float64) for v in got[:2])
        ap = np.take_along_axis(a, p[..., None, :].astype(int).repeat(a.shape[-2], -2), -1)
        np.testing.assert_allclose(q @ r, ap, atol=10 * tol)
        np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q, np.eye(q.shape[-1]) +
                                   0 * q[..., :1, :1], atol=10 * tol)
        assert np.allclose(r, np.triu(r))
        d = np.abs(np.diagonal(r, axis1=-2, axis2=-1))
        assert np.all(d[..., :-1] >= d[..., 1:] - 10 * tol)  # pivoting orders |r_jj|


def test_pivoted_qr_jvp():
    a = M["real3"].astype(np.float32)
    rec = CASES["jvp_qrp"]["outputs"]
    primal, tangent = transpile.jvp(lambda x: lax.linalg.qr(x, pivoting=True), (a,), (a,))
    assert np.asarray(tangent[2]).dtype == transpile.dtypes.float0
    # jit returns no float0: the permutation's tangent stays inside
    compiled = transpile.jit(lambda x: (lambda o: (o[0], o[1][:2]))(
        transpile.jvp(lambda y: lax.linalg.qr(y, pivoting=True), (x,), (x,))))(a)
    for p, t in ((primal, tangent), compiled):
        np.testing.assert_array_equal(np.asarray(p[2]), recorded(rec[2]))
        for g, w in zip(t[:2], rec[3:5]):
            np.testing.assert_allclose(np.asarray(g), recorded(w), atol=1e-4)


def test_pivoted_qr_jvp_finite_differences():
    a, t = M["tall"], np.cos(np.arange(15.0)).reshape(5, 3)
    with enable_x64(True):
        f = lambda x: lax.linalg.qr(x, pivoting=True, full_matrices=False)[:2]  # noqa: E731
        _, (dq, dr) = transpile.jvp(f, (a,), (t,))
        eps = 1e-6
        (q1, r1), (q0, r0) = f(a + eps * t), f(a - eps * t)
    np.testing.assert_allclose(np.asarray(dq), (np.asarray(q1) - np.asarray(q0)) / (2 * eps),
                               atol=1e-6)
    np.testing.assert_allclose(np.asarray(dr), (np.asarray(r1) - np.asarray(r0)) / (2 * eps),
                               atol=1e-6)


# ---------------------------------------------------------------------------------------
# Hessenberg reduction and householder_product: gehrd's reflectors, recorded values

HESS_CASES = [n for n in CASES if n.startswith(("hess_", "hhp_", "vmap_hess"))]


@pytest.mark.parametrize("name", HESS_CASES)
def test_hessenberg_values(name):
    args, got = run(name)
    _, compiled = run(name, jit=True)
    want = [recorded(o) for o in CASES[name]["outputs"]]
    assert len(got) == len(compiled) == len(want)
    tol = _tol(want[0].dtype)
    for g, c, w in zip(got, compiled, want):
        assert g.dtype == c.dtype == w.dtype and g.shape == c.shape == w.shape
        np.testing.assert_allclose(np.asarray(g), w, atol=10 * tol)
        np.testing.assert_allclose(np.asarray(c), w, atol=10 * tol)  # the C kernel
    if name.startswith("hess_scipy_q"):  # independent: a == Q H Q^H, H Hessenberg
        a = np.asarray(args[0], np.complex128)
        h, q = (np.asarray(v, np.complex128) for v in got)
        np.testing.assert_allclose(q @ h @ np.swapaxes(q, -1, -2).conj(), a, atol=10 * tol)
        assert np.all(np.tril(h, -2) == 0)


# ---------------------------------------------------------------------------------------
# Schur decomposition: T's diagonal in LAPACK's order, Z up to column signs

SCHUR_CASES = [n for n in CASES if n.startswith("schur_")]


def _quasi_triangular(t, real, tol):
    n = t.shape[-1]
    below = np.tril(t, -1)
    if not real:
        assert np.all(below == 0)
        return
    sub = np.diagonal(t, -1)
    assert np.all(np.tril(t, -2) == 0)
    for j in np.flatnonzero(sub):  # a 2 x 2 block: lanv2's standard form
        assert j + 1 < n and (j == 0 or sub[j - 1] == 0) and (j + 2 >= n or sub[j + 1] == 0)
        assert abs(t[j, j] - t[j + 1, j + 1]) < 10 * tol * max(1, abs(t[j, j]))
        assert t[j, j + 1] * t[j + 1, j] < 0


@pytest.mark.parametrize("name", SCHUR_CASES)
def test_schur_values(name):
    args, got = run(name)
    _, compiled = run(name, jit=True)
    want = [recorded(o) for o in CASES[name]["outputs"]]
    assert len(got) == len(compiled) == len(want)
    for g, c, w in zip(got, compiled, want):
        assert g.dtype == c.dtype == w.dtype and g.shape == c.shape == w.shape
    for outs in (got, compiled):  # the NumPy rule, then the C kernel (eig_kernels.py)
        _check_schur(args, outs, want)


def _check_schur(args, got, want):
    tol = _tol(want[0].dtype)
    t = np.asarray(got[0]).reshape((-1,) + want[0].shape[-2:])
    wt = want[0].reshape(t.shape)
    for b in range(t.shape[0]):
        np.testing.assert_allclose(np.diagonal(t[b]), np.diagonal(wt[b]), atol=10 * tol)
        real = t.dtype.kind == "f"
        _quasi_triangular(t[b], real, tol)
        if len(got) == 2:
            z = np.asarray(got[1]).reshape(t.shape)[b].astype(np.complex128)
            wz = want[1].reshape(t.shape)[b]
            a = np.asarray(args[0]).reshape(t.shape)[b]
            if np.dtype(want[0].dtype).kind == "c":
                a = a.astype(want[0].dtype)
            np.testing.assert_allclose(z @ t[b] @ z.conj().T, a, atol=20 * tol)
            np.testing.assert_allclose(z.conj().T @ z, np.eye(len(z)), atol=10 * tol)
            if np.all(np.diagonal(t[b], -1) == 0) if real else True:
                # triangular T: each Schur vector is fixed up to a unit phase
                _check_vectors(z, wz, tol)


_X2 = np.stack([M["tall"][:3], M["real3"]]).astype(np.float32)  # (2, 3, 3)
_T2 = np.array([[1.2, 0.5], [0.3, 1.9]], np.float32)


@pytest.mark.parametrize("fn, args, in_axes", [
    (lax.linalg.householder_product, (_X2, _T2[0]), (0, None)),
    (lax.linalg.householder_product, (np.moveaxis(_X2, 0, 2), _T2), (2, 0)),
    (lambda x, s: lax.linalg.schur(x * s), (_X2, np.float32(2)), (0, None)),
    (lambda x, s: lax.linalg.hessenberg(x * s), (np.moveaxis(_X2, 0, 1), _T2[:, 0]), (1, 0)),
])
def test_vmap_of_host_primitives_matches_a_loop(fn, args, in_axes):
    got = transpile.tree_util.tree_leaves(transpile.vmap(fn, in_axes=in_axes)(*args))
    for b in range(2):
        lane = [a if ax is None else np.take(a, b, axis=ax) for a, ax in zip(args, in_axes)]
        want = transpile.tree_util.tree_leaves(fn(*lane))
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(np.asarray(g)[b], np.asarray(w))
