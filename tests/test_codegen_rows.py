"""Row-fused kernels (codegen/row_kernels.py): a reduction over trailing axes with the
loops before and after it on the same rows, one kernel. Results against NumPy in float64;
what fuses and what does not (a value of the run read at another row)."""
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile.codegen.plan import plan_program
from transpile.passes import optimize


def _softmax(np_):
    def f(x):
        e = np_.exp(x - np_.max(x, axis=-1, keepdims=True))
        return e / np_.sum(e, axis=-1, keepdims=True)
    return f


def _layernorm(np_):
    def f(x):
        m = np_.mean(x, axis=-1, keepdims=True)
        v = np_.mean((x - m) * (x - m), axis=-1, keepdims=True)
        return (x - m) / np_.sqrt(v + 1e-5)
    return f


def _logsumexp(np_):
    def f(x):
        m = np_.max(x, axis=-1, keepdims=True)
        return np_.log(np_.sum(np_.exp(x - m), axis=-1)) + m[..., 0]
    return f


def _l1_normalise(np_):
    return lambda x: x / np_.sum(np_.abs(x), axis=-1, keepdims=True)


def _tanh_then_row_stats(np_):
    # the producer of the reduction (tanh, read twice) is a phase of the row kernel too
    def f(x):
        t = np_.tanh(x)
        return t - np_.mean(t, axis=-1, keepdims=True), np_.max(t, axis=-1)
    return f


def _two_trailing_axes(np_):
    return lambda x: x - np_.mean(x, axis=(1, 2), keepdims=True)


def _other_row(np_):
    # e is read at a reversed row: the run is not fused (each group its own kernel)
    def f(x):
        e = np_.exp(x - np_.max(x, axis=-1, keepdims=True))
        return e[::-1] / np_.sum(e, axis=-1, keepdims=True)
    return f


RNG = np.random.default_rng(0)
# (name, function maker, input, row kernels expected, tolerance)
CASES = [
    ("softmax", _softmax, RNG.standard_normal((300, 257)), 1, 1e-5),
    ("softmax big (parallel)", _softmax, RNG.standard_normal((512, 1024)) * 4, 1, 1e-5),
    ("layernorm", _layernorm, RNG.standard_normal((300, 257)) + 3, 1, 1e-4),
    ("logsumexp", _logsumexp, RNG.standard_normal((300, 257)), 1, 1e-5),
    ("l1 normalise", _l1_normalise, RNG.standard_normal((64, 33)), 1, 1e-5),
    ("producer read twice", _tanh_then_row_stats, RNG.standard_normal((128, 96)), 1, 1e-5),
    ("two trailing axes", _two_trailing_axes, RNG.standard_normal((16, 8, 12)), 1, 1e-5),
    ("rank 3 softmax", _softmax, RNG.standard_normal((6, 50, 40)), 1, 1e-5),
    ("read at another row", _other_row, RNG.standard_normal((40, 30)), 0, 1e-5),
]


def _templates(f, x):
    return [k.template for k in plan_program(optimize(jax.make_jaxpr(f)(x)), "f").kernels]


@pytest.mark.parametrize("name, make, x, row_kernels, tol", CASES, ids=[c[0] for c in CASES])
def test_row_fused_kernels_match_numpy_float64(name, make, x, row_kernels, tol):
    x32 = x.astype(np.float32)
    assert _templates(make(jnp), x32).count("kernel_rows.j2") == row_kernels
    got = jax.jit(make(jnp))(x32)
    want = make(np)(x32.astype(np.float64))
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,), strict=True):
        np.testing.assert_allclose(np.asarray(g, np.float64), w, rtol=tol, atol=tol)


@pytest.mark.parametrize("make, kernels", [(_softmax, 1), (_layernorm, 1), (_logsumexp, 1)])
def test_one_kernel_per_row_normalisation(make, kernels):
    assert len(_templates(make(jnp), np.ones((8, 16), np.float32))) == kernels


def test_float16_rows_and_nan_rows():
    x = RNG.standard_normal((32, 64)).astype(np.float16)
    got = np.asarray(jax.jit(_softmax(jnp))(x), np.float64)
    np.testing.assert_allclose(got, _softmax(np)(x.astype(np.float64)), rtol=2e-3, atol=2e-3)
    y = RNG.standard_normal((4, 300)).astype(np.float32)
    y[1, 7] = np.nan
    got = np.asarray(jax.jit(_softmax(jnp))(y))
    assert np.isnan(got[1]).all() and not np.isnan(got[[0, 2, 3]]).any()


def test_a_row_temporary_needs_no_workspace():
    # e (exp of the row) lives in a row-sized local array; the statistics in locals
    prog = plan_program(optimize(jax.make_jaxpr(_softmax(jnp))(
        np.ones((64, 32), np.float32))), "f")
    assert prog.workspace_bytes == 0
