"""Reductions over leading axes (the "cols" mode of kernel_reduce.j2): big ones reduce
fixed chunks of whole rows into partial rows, combined in chunk order. Results against
NumPy (float64 for sums, exact for max/min/integers/booleans)."""
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile.codegen.plan import plan_program
from transpile.passes import optimize

RNG = np.random.default_rng(0)
F = RNG.standard_normal((1000, 300)).astype(np.float32)
F_NAN = F.copy()
F_NAN[517, 3] = np.nan
I = RNG.integers(-1000, 1000, (700, 130)).astype(np.int32)
B = RNG.random((300, 257)) > 0.995

# (name, function of jnp or np, input, exact)
CASES = [
    ("sum axis 0", lambda m, x: m.sum(x, axis=0), F, False),
    ("sum of a fused chain", lambda m, x: m.sum(x * x - 1, axis=0), F, False),
    ("max axis 0 with a NaN", lambda m, x: m.max(x, axis=0), F_NAN, True),
    ("min axis 0", lambda m, x: m.min(x, axis=0), F, True),
    ("prod axis 0", lambda m, x: m.prod(1 + x * 1e-3, axis=0), F, False),
    ("int sum axis 0", lambda m, x: m.sum(x, axis=0), I, True),
    ("two leading axes", lambda m, x: m.sum(x.reshape(50, 20, 300), axis=(0, 1)), F, False),
    ("rank 3 first axis", lambda m, x: m.max(x.reshape(100, 10, 300), axis=0), F, True),
    ("any axis 0", lambda m, x: m.any(x, axis=0), B, True),
    ("ragged last chunk", lambda m, x: m.sum(x[:997], axis=0), F, False),
]


@pytest.mark.parametrize("name, f, x, exact", CASES, ids=[c[0] for c in CASES])
def test_column_reductions_match_numpy(name, f, x, exact):
    got = np.asarray(jax.jit(lambda v: f(jnp, v))(x))
    if exact:
        want = f(np, x)
        np.testing.assert_array_equal(got, want.astype(got.dtype))
    else:
        want = f(np, x.astype(np.float64))
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_big_column_sums_take_chunks_of_rows_small_ones_do_not():
    def fields(x):
        k = plan_program(optimize(jax.make_jaxpr(lambda v: jnp.sum(v, axis=0))(x)),
                         "f").kernels[0]
        return k.fields
    big = fields(F)
    assert big.mode == "cols" and big.row_chunks == 16 and big.row_chunk == 64
    assert big.scratch[0].nbytes == 16 * 300 * 8  # double partials
    assert fields(np.ones((40, 30), np.float32)).row_chunks == 0
