"""The C kernels of ``eig``, ``schur``, ``hessenberg`` and ``householder_product`` for
real and complex operands (``codegen/eig_kernels.py``, ``runtime/tp_eig.h``,
``runtime/tp_eig_complex.h``).

References: JAX 0.10.2's recorded answers (``tests/data/eig_kernels.json``, written by
``tools/record_eig_kernels.py``): eigenvalues within rounding (paired by nearest value,
and in the recorded order where they are well separated), eigenvectors up to a unit
phase, Schur forms by their diagonals and Schur vectors; independently, the residuals
``A V - V diag(w)``, ``Z T Z^H - A`` and unitarity, and ``geev``'s normalisation.
Every case runs eagerly (the NumPy rule) and under ``jit`` (the kernel).
"""
from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
import transpile.scipy.linalg as jsl
from transpile import lax
from linalg_checks import x64_mode

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "eig_kernels.json").read_text())
M = {k: np.array(v, np.float64) for k, v in DATA["matrices"].items() if k != "nan"}
M["nan"] = np.array([[1.0, np.nan], [0.0, 2.0]])
NS = {"lax": lax, "jnp": jnp, "np": np, "jax": transpile, "jsl": jsl, "M": M}
CASES = DATA["cases"]


def recorded(out) -> np.ndarray:
    if "real" in out:
        v = np.array(out["real"]) + 1j * np.array(out["imag"])
    else:
        v = np.array(out["values"])
    return v.astype(out["dtype"]).reshape(out["shape"])


def run(name):
    rec = CASES[name]
    fn, args = eval(rec["program"], NS), eval(rec["args"], NS)
    with x64_mode(rec["x64"]):
        eager = transpile.tree_util.tree_leaves(fn(*args))
        compiled = transpile.tree_util.tree_leaves(transpile.jit(fn)(*args))
    return args, eager, compiled, [recorded(o) for o in rec["outputs"]]


def _tol(dt) -> float:
    return 1e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-10


def _pairing(got, want) -> np.ndarray:
    free, pick = list(range(len(got))), []
    for x in want:
        j = min(free, key=lambda i: abs(got[i] - x))
        free.remove(j)
        pick.append(j)
    return np.array(pick, int)


def _same_up_to_phase(got, want, tol):
    for j in range(want.shape[1]):
        phase = np.vdot(got[:, j], want[:, j])
        assert abs(abs(phase) - 1) < 50 * tol
        np.testing.assert_allclose(got[:, j] * phase, want[:, j], atol=50 * tol)


EIG_CASES = [n for n in CASES if n.startswith("eig_")]


@pytest.mark.parametrize("name", EIG_CASES)
def test_eig(name):
    args, eager, compiled, want = run(name)
    tol = _tol(want[0].dtype)
    program = CASES[name]["program"]
    roles = ["w", "vl", "vr"][:len(want)]
    if "compute_left_eigenvectors=False" in program or program == "jnp.linalg.eig":
        roles = ["w", "vr"]
    a = np.asarray(args[0], np.complex128)
    for outs in (eager, compiled):
        assert [o.dtype for o in outs] == [w.dtype for w in want]
        assert [o.shape for o in outs] == [w.shape for w in want]
        assert not any(o.aval.weak_type for o in outs)
        if name.startswith("eig_nan"):
            assert all(np.isnan(np.asarray(o)).all() for o in outs)
            continue
        n = want[0].shape[-1]
        ws = np.asarray(outs[0]).reshape(-1, n)
        for b in range(ws.shape[0]):
            want_w = want[0].reshape(-1, n)[b]
            p = _pairing(ws[b], want_w)
            # a triple eigenvalue (jordan) is only determined to ~eps^(1/3)
            atol = 1e-4 if name == "eig_jordan" else 10 * tol * max(1, np.abs(want_w).max())
            np.testing.assert_allclose(ws[b][p], want_w, atol=atol)
            ab = a.reshape(-1, n, n)[b]
            for role, got_v, want_v in zip(roles[1:], outs[1:], want[1:]):
                v = np.asarray(got_v).reshape(-1, n, n)[b].astype(np.complex128)
                _same_up_to_phase(v[:, p], want_v.reshape(-1, n, n)[b], tol)
                # independent: the eigen-equations and dgeev's normalisation
                res = (v.conj().T @ ab - ws[b][:, None] * v.conj().T if role == "vl"
                       else ab @ v - v * ws[b][None, :])
                assert np.abs(res).max() < 100 * tol * max(1, np.abs(ab).max())
                np.testing.assert_allclose(np.linalg.norm(v, axis=0), 1, atol=10 * tol)
                # a largest-magnitude component (ties within rounding) is real
                top = np.abs(v) >= np.abs(v).max(axis=0) - 10 * tol
                assert np.all(np.any(top & (np.abs(v.imag) < 10 * tol), axis=0))


def test_eig_kernel_order_is_lapacks():
    """Well-separated eigenvalues come in the order JAX (LAPACK) gives them."""
    args, _, compiled, want = run("eig_r6_f64")
    np.testing.assert_allclose(np.asarray(compiled[0]), want[0], atol=1e-10)


@pytest.mark.parametrize("name", ["schur_r5", "schur_batch", "schur_c5", "schur_cbatch"])
def test_schur(name):
    args, eager, compiled, want = run(name)
    tol = _tol(want[0].dtype)
    n = want[0].shape[-1]
    for outs in (eager, compiled):
        # the kernel runs gees' iteration (JAX's order); the NumPy rule follows
        # numpy.linalg.eig, whose balancing may reorder a complex matrix's eigenvalues
        ordered = outs is compiled or not np.iscomplexobj(want[0])
        assert [o.dtype for o in outs] == [w.dtype for w in want]
        ts = np.asarray(outs[0], np.complex128).reshape(-1, n, n)
        zs = np.asarray(outs[1], np.complex128).reshape(-1, n, n)
        a = np.asarray(args[0], np.complex128).reshape(-1, n, n)
        wt = want[0].reshape(-1, n, n)
        for b in range(ts.shape[0]):
            t, z = ts[b], zs[b]
            p = np.arange(n) if ordered else _pairing(np.diagonal(t), np.diagonal(wt[b]))
            np.testing.assert_allclose(np.diagonal(t)[p], np.diagonal(wt[b]), atol=10 * tol)
            np.testing.assert_allclose(np.diagonal(t, -1) != 0, np.diagonal(wt[b], -1) != 0)
            assert np.all(np.tril(t, -2) == 0)
            for j in np.flatnonzero(np.diagonal(t, -1)):  # dlanv2's standard form
                assert t[j, j] == t[j + 1, j + 1] and t[j, j + 1] * t[j + 1, j] < 0
            np.testing.assert_allclose(z @ t @ z.conj().T, a[b], atol=20 * tol)
            np.testing.assert_allclose(z.conj().T @ z, np.eye(n), atol=10 * tol)
            if np.iscomplexobj(want[0]) and ordered:  # Z: JAX's up to column phases
                _same_up_to_phase(z, want[1].reshape(-1, n, n)[b].astype(np.complex128), tol)


@pytest.mark.parametrize("name", ["hess_r6", "hess_c6"])
def test_hessenberg_kernel(name):
    """The NumPy rule's steps (its sums in einsum's order: equal within rounding)."""
    args, eager, compiled, want = run(name)
    for e, c, w in zip(eager, compiled, want):
        np.testing.assert_allclose(np.asarray(c), np.asarray(e), atol=2e-6)
        np.testing.assert_allclose(np.asarray(c), w, atol=1e-5)
    h, taus = compiled
    q = transpile.jit(lax.linalg.householder_product)(h[1:, :-1], taus)
    q0 = lax.linalg.householder_product(h[1:, :-1], taus)
    np.testing.assert_allclose(np.asarray(q), np.asarray(q0), atol=1e-6)


def test_eig_kernel_residuals_on_random_matrices():
    """Independent of JAX: many sizes in one compiled batch per size."""
    rng = np.random.default_rng(7)
    with x64_mode(True):
        f = transpile.jit(lambda a: lax.linalg.eig(a, compute_left_eigenvectors=False))
        for n in (2, 7, 12):
            a = rng.standard_normal((4, n, n))
            w, v = (np.asarray(x) for x in f(a))
            for b in range(4):
                assert np.abs(a[b] @ v[b] - v[b] * w[b][None]).max() < 1e-12 * n
                np.testing.assert_allclose(np.sort_complex(w[b]),
                                           np.sort_complex(np.linalg.eigvals(a[b])),
                                           atol=1e-12 * n)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_kernels_on_random_matrices(dtype):
    """Independent of JAX: eig's and schur's residuals within a few ulp times n, the
    eigenvalues against numpy.linalg.eigvals in double precision."""
    rng = np.random.default_rng(20)
    eps = np.finfo(dtype).eps
    with x64_mode(dtype == np.complex128):
        f = transpile.jit(lambda a: (lax.linalg.eig(a), lax.linalg.schur(a)))
        assert "tp_eig_c" in f.lower(np.zeros((1, 1), dtype)).compile().as_text()
        for n in (1, 3, 8):
            a = (rng.standard_normal((3, n, n)) + 1j * rng.standard_normal((3, n, n))
                 ).astype(dtype)
            (w, vl, vr), (t, z) = ([np.asarray(x, np.complex128) for x in o] for o in f(a))
            for b in range(3):
                ab = a[b].astype(np.complex128)
                bound = 30 * eps * n * max(1.0, np.abs(ab).max())
                assert np.abs(ab @ vr[b] - vr[b] * w[b][None]).max() < bound
                assert np.abs(vl[b].conj().T @ ab - w[b][:, None] * vl[b].conj().T).max() < bound
                assert np.abs(z[b] @ t[b] @ z[b].conj().T - ab).max() < bound
                assert np.abs(z[b].conj().T @ z[b] - np.eye(n)).max() < 30 * eps * n
                assert np.all(np.tril(t[b], -1) == 0)
                np.testing.assert_allclose(np.diagonal(t[b]), w[b], atol=bound)
                want_w = np.linalg.eigvals(ab)
                np.testing.assert_allclose(w[b][_pairing(w[b], want_w)], want_w, atol=bound)
