"""``jax.scipy.linalg.sqrtm``, ``funm`` and ``rsf2csf`` (``scipy/linalg_matfunc.py``).

References: JAX 0.10.2's recorded answers (``tests/data/eig_kernels.json``, written by
``tools/record_eig_kernels.py``): dtypes, weak types and values within rounding, errors
word for word; independently, ``sqrtm(A) @ sqrtm(A) == A``, ``funm(A, exp)`` against
NumPy's series of ``A``, and ``Z T Z^H`` kept by ``rsf2csf`` with ``T`` triangular. Every
value case runs eagerly and under ``jit``.
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
from linalg_checks import check_error, x64_mode

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "eig_kernels.json").read_text())
M = {k: np.array(v, np.float64) for k, v in DATA["matrices"].items() if k != "nan"}
NS = {"lax": lax, "jnp": jnp, "np": np, "jax": transpile, "jsl": jsl, "M": M}
CASES = DATA["cases"]
VALUE_CASES = [n for n in CASES if n.startswith(("sqrtm_", "funm_", "rsf2csf_"))]
ERROR_CASES = [n for n in CASES if n.startswith("err_")]


def recorded(out) -> np.ndarray:
    if "real" in out:
        v = np.array(out["real"]) + 1j * np.array(out["imag"])
    else:
        v = np.array(out["values"])
    return v.astype(out["dtype"]).reshape(out["shape"])


def _build(name):
    rec = CASES[name]
    return eval(rec["program"], NS), eval(rec["args"], NS), rec["x64"]


@pytest.mark.parametrize("name", VALUE_CASES)
def test_recorded_values(name):
    fn, args, x64 = _build(name)
    want = [recorded(o) for o in CASES[name]["outputs"]]
    tol = 2e-5 if want[0].dtype == np.complex64 else 1e-10
    with x64_mode(x64):
        runs = [transpile.tree_util.tree_leaves(fn(*args)),
                transpile.tree_util.tree_leaves(transpile.jit(fn)(*args))]
    for outs in runs:
        assert [o.dtype for o in outs] == [w.dtype for w in want]
        assert [o.aval.weak_type for o in outs] == CASES[name]["weak_types"]
        scale = max(1.0, float(np.abs(want[0]).max()))
        if name.startswith("rsf2csf"):  # Z and T up to the phases of Z's columns
            t, z = (np.asarray(o, np.complex128) for o in outs)
            np.testing.assert_allclose(np.diagonal(t), np.diagonal(want[0]), atol=tol * 10)
            assert np.all(np.tril(t, -1) == 0)
            a = np.asarray(args[0], np.float64)
            np.testing.assert_allclose(z @ t @ z.conj().T, a, atol=tol * 10 * scale)
            continue
        got = np.asarray(outs[0])
        if name == "sqrtm_r5_f64":
            # a negative real eigenvalue: the complex Schur form's rounding puts it just
            # above or below the branch cut of sqrt, so either conjugate root is JAX's
            # (both square back to A, test below)
            got = got if np.abs(got - want[0]).max() < tol * scale else np.conj(got)
        np.testing.assert_allclose(got, want[0], atol=tol * scale)
        if name == "funm_exp_err":  # the error estimate: a float of eps's size
            assert 0 < float(outs[1]) < 1e-5


@pytest.mark.parametrize("name", [n for n in VALUE_CASES if n.startswith("sqrtm_")])
def test_sqrtm_squares_back(name):
    fn, args, x64 = _build(name)
    with x64_mode(x64):
        x = np.asarray(transpile.jit(fn)(*args), np.complex128)
    a = np.asarray(args[0]).astype(np.complex128)
    tol = 1e-4 if not x64 else 1e-11
    np.testing.assert_allclose(x @ x, a, atol=tol * max(1.0, np.abs(a).max()))


def test_funm_exp_matches_the_series():
    a = M["rot"] * 0.5
    want, term = np.eye(3), np.eye(3)
    for k in range(1, 40):
        term = term @ a / k
        want = want + term
    with x64_mode(True):
        got = np.asarray(jsl.funm(a, jnp.exp))
    np.testing.assert_allclose(got, want, atol=1e-12)


@pytest.mark.parametrize("name", ERROR_CASES)
def test_errors(name):
    fn, args, x64 = _build(name)
    with x64_mode(x64):
        check_error(lambda: fn(*args), CASES[name])
