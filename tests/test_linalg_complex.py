"""Linear algebra on complex64/complex128 (issue 21): cholesky, triangular_solve, lu,
qr, eigh, svd and what is built on them (det, slogdet, inv, solve, pinv, lstsq, cond,
``jax.scipy.linalg``'s solvers), against JAX 0.10.2's recorded answers
(``tests/data/complex_linalg.json``, written by ``tools/record_complex_linalg.py``),
NumPy in complex128, and finite differences for derivatives. Each runs eagerly and under
``jit``; eigen- and singular vectors (defined up to a phase) are checked through the
decomposition's residual and orthonormality, not compared with JAX's."""
from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import transpile
import transpile.numpy as jnp
from transpile import lax
from complex_linalg_cases import COMPLEX, VECTORS
from linalg_checks import build, check_error, x64_mode

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "complex_linalg.json").read_text())
OK = [n for n, rec in DATA.items() if "error" not in rec["eager"]]
ERRORS = [n for n, rec in DATA.items() if "error" in rec["eager"]]


def _tol(dtype) -> float:
    """Relative accuracy expected of well-conditioned cases (a few hundred ulp)."""
    return 1e-4 if np.dtype(dtype) in (np.complex64, np.float32) else 1e-11


def _expected(rec) -> np.ndarray:
    def part(vals):
        return np.array([np.nan if v is None else v for v in vals], np.float64)
    out = part(rec["real"])
    if "imag" in rec:
        out = out + 1j * part(rec["imag"])
    return out.astype(rec["dtype"]).reshape(rec["shape"])


def _leaves(x) -> list:
    if isinstance(x, (list, tuple)):
        return [leaf for item in x for leaf in _leaves(item)]
    return [x]


def _close(got, want) -> None:
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    if want.dtype.kind in "iub":
        np.testing.assert_array_equal(got, want)
        return
    assert np.array_equal(np.isnan(got), np.isnan(want))
    finite = ~np.isnan(want)
    tol = _tol(want.dtype)
    scale = float(np.max(np.abs(want[finite]), initial=1.0))
    np.testing.assert_allclose(got[finite], want[finite], rtol=tol, atol=tol * scale)


def test_every_case_recorded():
    assert set(DATA) == set(COMPLEX)


@pytest.mark.parametrize("name", OK)
def test_matches_jax(name):
    fn, args, x64 = build(COMPLEX, name)
    want = [_expected(r) for r in DATA[name]["eager"]]
    with x64_mode(x64):
        runs = [_leaves(fn(*args)), _leaves(transpile.jit(fn)(*args))]
    for got in runs:
        assert len(got) == len(want)
        for i, (g, w) in enumerate(zip(got, want)):
            if i in VECTORS.get(name, ()):
                assert np.asarray(g).dtype == w.dtype and np.shape(g) == w.shape
            else:
                _close(g, w)


@pytest.mark.parametrize("name", ERRORS)
def test_errors_match_jax(name):
    fn, args, x64 = build(COMPLEX, name)
    with x64_mode(x64):
        check_error(lambda: fn(*args), DATA[name]["eager"])


# --- decompositions against NumPy ----------------------------------------------------

def _random(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


def _adj(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _eye_like(x):
    return np.broadcast_to(np.eye(x.shape[-1]), x.shape)


def _small(x, bound) -> None:
    """Every ``|x|`` at most ``bound`` (broadcast: one bound per matrix)."""
    assert np.all(np.abs(x) <= bound), np.max(np.abs(x))


def _check_unitary_columns(q, tol):
    q = np.asarray(q, np.complex128)
    np.testing.assert_allclose(_adj(q) @ q, _eye_like(_adj(q) @ q), atol=tol)


DECOMPOSITIONS = [(kind, dt, shape) for dt in (np.complex64, np.complex128)
                  for kind, shape in (("qr", (2, 4, 3)), ("qr", (3, 5)), ("eigh", (2, 4, 4)),
                                      ("svd", (2, 4, 3)), ("svd", (3, 5)))]


@pytest.mark.parametrize("kind,dtype,shape", DECOMPOSITIONS,
                         ids=[f"{k}-{np.dtype(d).name}-{'x'.join(map(str, s))}"
                              for k, d, s in DECOMPOSITIONS])
def test_decomposition_residuals(kind, dtype, shape):
    """Residual and orthonormality within a few ulp times the size (the matrices are
    well conditioned), eigen- and singular values as NumPy's."""
    a = _random(shape, dtype, seed=len(shape) + shape[-1])
    if kind == "eigh":
        a = (a + _adj(a)).astype(dtype)
    fns = {"qr": lambda x: lax.linalg.qr(x, full_matrices=False),
           "eigh": lambda x: lax.linalg.eigh(x),
           "svd": lambda x: lax.linalg.svd(x, full_matrices=False)}
    tol = 50 * np.finfo(np.dtype(dtype).char.lower()).eps * shape[-1]
    a128 = a.astype(np.complex128)
    norm = np.linalg.norm(a128, axis=(-2, -1))[..., None, None]
    with x64_mode(dtype == np.complex128):
        for out in (fns[kind](a), transpile.jit(fns[kind])(a)):
            out = [np.asarray(o) for o in out]
            if kind == "qr":
                q, r = out
                assert np.allclose(np.tril(r, -1), 0)
                assert np.all(np.diagonal(r, axis1=-2, axis2=-1).imag == 0)
                _small(q @ r - a128, tol * norm)
                _check_unitary_columns(q, tol)
            elif kind == "eigh":
                v, w = out
                assert w.dtype == np.dtype(dtype).char.lower() and w.dtype.kind == "f"
                np.testing.assert_allclose(w, np.linalg.eigvalsh(a128),
                                           atol=tol * norm.max())
                resid = a128 @ v - v * w[..., None, :]
                _small(resid, tol * norm)
                _check_unitary_columns(v, tol)
            else:
                u, s, vt = out
                assert s.dtype.kind == "f"
                np.testing.assert_allclose(s, np.linalg.svd(a128, compute_uv=False),
                                           atol=tol * norm.max())
                _small((u * s[..., None, :]) @ vt - a128, tol * norm)
                _check_unitary_columns(u, tol)
                _check_unitary_columns(_adj(vt), tol)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_solvers_against_numpy(dtype):
    a = _random((2, 4, 4), dtype, 3) + 4 * np.eye(4, dtype=dtype)
    b = _random((2, 4, 2), dtype, 4)
    hpd = (a @ _adj(a)).astype(dtype)
    a128, b128, h128 = (x.astype(np.complex128) for x in (a, b, hpd))
    tol = _tol(dtype)
    cases = [(jnp.linalg.inv, (a,), np.linalg.inv(a128)),
             (jnp.linalg.solve, (a, b), np.linalg.solve(a128, b128)),
             (jnp.linalg.det, (a,), np.linalg.det(a128)),
             (lambda x: jnp.linalg.slogdet(x)[0], (a,), np.linalg.slogdet(a128)[0]),
             (lambda x: jnp.linalg.slogdet(x)[1], (a,), np.linalg.slogdet(a128)[1]),
             (jnp.linalg.cholesky, (hpd,), np.linalg.cholesky(h128)),
             (jnp.linalg.pinv, (a[0, :, :3],), np.linalg.pinv(a128[0, :, :3]))]
    with x64_mode(dtype == np.complex128):
        for fn, args, want in cases:
            for got in (fn(*args), transpile.jit(fn)(*args)):
                np.testing.assert_allclose(np.asarray(got), want, rtol=tol,
                                           atol=tol * np.abs(want).max())


# --- derivatives against finite differences -------------------------------------------

JVP_FUNCTIONS = {
    "det": jnp.linalg.det,
    "inv": jnp.linalg.inv,
    "logabsdet": lambda a: jnp.linalg.slogdet(a)[1],
    "cholesky": lambda a: jnp.linalg.cholesky(a @ jnp.conj(a.T) + 4 * jnp.eye(3)),
    "qr_r": lambda a: jnp.linalg.qr(a)[1],
    "lu": lambda a: lax.linalg.lu(a)[0],
    "triangular_solve": lambda a: lax.linalg.triangular_solve(
        a + 3 * jnp.eye(3), a[:, :2], left_side=True, lower=True, conjugate_a=True,
        transpose_a=True),
    "eigvalsh": lambda a: jnp.linalg.eigvalsh(a + jnp.conj(a.T)),
    "svdvals": jnp.linalg.svdvals,
}


@pytest.mark.parametrize("name", list(JVP_FUNCTIONS))
def test_jvp_matches_finite_differences(name):
    fn = JVP_FUNCTIONS[name]
    a = _random((3, 3), np.complex128, 7) + 2 * np.eye(3)
    t = _random((3, 3), np.complex128, 8)
    h = 1e-6
    with x64_mode(True):
        _, tangent = transpile.jvp(fn, (a,), (t,))
        numeric = (np.asarray(fn(a + h * t)) - np.asarray(fn(a - h * t))) / (2 * h)
    np.testing.assert_allclose(np.asarray(tangent), numeric, rtol=1e-6, atol=1e-6)


def test_grad_of_real_function_is_conjugate_wirtinger():
    """JAX's convention: grad f = df/dx - i df/dy for real f of z = x + iy."""
    a = _random((3, 3), np.complex128, 9)
    f = lambda m: jnp.abs(jnp.linalg.det(m)) ** 2  # noqa: E731
    h = 1e-6
    want = np.zeros((3, 3), complex)
    with x64_mode(True):
        got = np.asarray(transpile.grad(f)(a))
        for i in range(3):
            for j in range(3):
                e = np.zeros((3, 3))
                e[i, j] = h
                dx = (float(f(a + e)) - float(f(a - e))) / (2 * h)
                dy = (float(f(a + 1j * e)) - float(f(a - 1j * e))) / (2 * h)
                want[i, j] = dx - 1j * dy
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_vmap_matches_a_loop():
    a = _random((3, 4, 4), np.complex64, 10)
    for fn in (lambda x: lax.linalg.lu(x)[0], lambda x: lax.linalg.qr(x)[1],
               lambda x: lax.linalg.eigh(x + jnp.conj(x.T))[1], jnp.linalg.svdvals):
        got = np.asarray(transpile.vmap(fn)(a))
        want = np.stack([np.asarray(fn(m)) for m in a])
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_cuda_refuses_complex_linalg_clearly():
    a = _random((3, 3), np.complex64, 11)
    with pytest.raises(NotImplementedError, match="complex linear-algebra"):
        transpile.jit(lax.linalg.lu, backend="cuda").lower(a).as_text()
