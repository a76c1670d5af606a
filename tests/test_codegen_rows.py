"""Row-fused kernels (codegen/row_kernels.py): a reduction over trailing axes with the
loops before and after it on the same rows, one kernel. Results against NumPy in float64;
what fuses and what does not (a value of the run read at another row)."""
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile.config import enable_x64
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


def _row_extreme(x, op):
    """NumPy's max/min of each row after flushing subnormals, with -0 < +0."""
    tiny = np.finfo(x.dtype).tiny
    f = np.where(np.abs(x) < tiny, np.copysign(0.0, x), x).astype(x.dtype)
    out = (np.max if op == "max" else np.min)(f, axis=1)
    for i, row in enumerate(f):
        if np.isnan(row).any():
            out[i] = np.nan
        elif out[i] == 0:
            pos = (row == 0) & ~np.signbit(row)
            neg = (row == 0) & np.signbit(row)
            out[i] = 0.0 if (pos.any() if op == "max" else not neg.any()) else -0.0
    return out


def _fused_extremes(v):
    hi = jnp.max(v, axis=1, keepdims=True)
    lo = jnp.min(v, axis=1, keepdims=True)
    return hi[:, 0], lo[:, 0], (v - hi) * (v - lo)


def _plain_extremes(v):
    return jnp.max(v, axis=1)


def _plain_min(v):
    return jnp.min(v, axis=1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("f, template", [(_fused_extremes, "kernel_rows.j2"),
                                         (_plain_extremes, "kernel_reduce.j2")])
def test_row_max_min_keep_nan_signed_zero_and_flush_rules(dtype, f, template):
    # rows of 300 (the vectorised fold, then the in-order one where it must) mixing zeros of both signs, subnormals, NaN, -inf
    tiny = np.finfo(dtype).tiny
    rows = [np.full(300, -0.0), np.zeros(300), np.full(300, -np.inf),
            np.full(300, tiny / 4), np.full(300, -tiny / 4)]
    for at in (5, 100, 299):  # one zero of the other sign, late in its lane
        row = np.full(300, -0.0)
        row[at] = 0.0
        rows.append(row)
        rows.append(-row)
        row = np.full(300, -1.0)
        row[at] = -tiny / 4
        rows.append(row)
    rng = np.random.default_rng(3)
    for k in range(11):
        row = rng.choice(np.array([-0.0, 0.0, tiny / 8, -tiny / 8, -1.0, 1.0, -np.inf]),
                         300)
        if k % 3 == 0:
            row[rng.integers(0, 300)] = np.nan
        rows.append(row)
    x = np.stack(rows).astype(dtype)

    with enable_x64(dtype == np.float64):
        assert template in _templates(f, x)
        if f is _plain_extremes:  # max and min of the same rows would be one row kernel
            hi, lo = jax.jit(f)(x), jax.jit(_plain_min)(x)
        else:
            hi, lo = jax.jit(f)(x)[:2]
    assert hi.dtype == lo.dtype == dtype
    for got, op in ((hi, "max"), (lo, "min")):
        want = _row_extreme(x, op)
        got = np.asarray(got)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        ok = ~np.isnan(want)
        np.testing.assert_array_equal(got[ok], want[ok])
        np.testing.assert_array_equal(np.signbit(got[ok]), np.signbit(want[ok]))


def _full_cases(dtype):
    """Vectors of 100,000 (several fixed chunks) whose extreme is decided by one element."""
    tiny = np.finfo(dtype).tiny
    base = np.random.default_rng(4).uniform(-2.0, -1.0, 100_000)
    cases = []
    for at in (0, 40_000, 99_999):
        for v in (np.nan, -np.nan, 0.0, -0.0, tiny / 4, -tiny / 4, np.inf, 5.0):
            x = base.copy()
            x[at] = v
            cases.append(x)
            cases.append(-x)
    zeros = np.full(100_000, -0.0)
    zeros[77_777] = 0.0
    cases += [zeros, -zeros, np.full(100_000, -np.inf), np.full(100_000, np.inf)]
    return [c.astype(dtype) for c in cases]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_full_max_min_keep_nan_signed_zero_and_flush_rules(dtype):
    # one output: each chunk folded vectorised, in order where the chunk's result is a
    # NaN, a zero or a subnormal; the chunks combined in order
    f = jax.jit(lambda v: (jnp.max(v), jnp.min(v)))
    with enable_x64(dtype == np.float64):
        assert "kernel_reduce.j2" in _templates(lambda v: jnp.max(v), _full_cases(dtype)[0])
        results = [(x, f(x)) for x in _full_cases(dtype)]
    for x, outs in results:
        for got, op in zip(outs, ("max", "min"), strict=True):
            assert got.dtype == dtype
            want = _row_extreme(x[None], op)[0]
            got = np.asarray(got)
            assert np.isnan(got) == np.isnan(want)
            if not np.isnan(want):
                assert got == want and np.signbit(got) == np.signbit(want), (op, got, want)
