"""``transpile.ops`` segment reductions against JAX 0.10.2's recorded answers and a
NumPy loop, eager and under ``jit``, with ``grad`` and ``vmap``."""
from __future__ import annotations

import numpy as np
import pytest

try:
    import api_cases
    import jaxpr_cases
except ImportError:  # collected as a package
    from tests import api_cases, jaxpr_cases

import transpile as jax
import transpile.numpy as jnp
from transpile import ops

API = jaxpr_cases.load_data("api.json")


def _env():
    return {"ops": ops, "np": np, **api_cases.ops_inputs()}


@pytest.mark.parametrize("expr", api_cases.OPS_EXPRS)
def test_segment_matches_jax(expr):
    api_cases.assert_matches(eval(expr, _env()), API["ops"][expr])


@pytest.mark.parametrize("expr", api_cases.OPS_ERRORS)
def test_segment_errors_match_jax(expr):
    want = API["errors"][expr]
    with pytest.raises(Exception) as info:
        eval(expr, _env())
    assert type(info.value).__name__ == want["error"]
    assert str(info.value) == want["message"]


def _numpy_segment(ufunc, identity, data, ids, n):
    out = np.full((n,) + data.shape[1:], identity, data.dtype)
    for row, s in zip(data, ids):
        if 0 <= s < n:
            out[s] = ufunc(out[s], row)
    return out


def test_segments_under_jit_against_numpy():
    rng = np.random.RandomState(1)
    data = rng.randn(7, 2).astype(np.float32)
    ids = np.array([3, 0, 3, 1, 9, -2, 0], np.int32)
    fns = jax.jit(lambda d, i: [ops.segment_sum(d, i, 4), ops.segment_prod(d, i, 4),
                                ops.segment_max(d, i, 4), ops.segment_min(d, i, 4)])
    got = fns(data, ids)
    for g, (uf, ident) in zip(got, [(np.add, 0), (np.multiply, 1),
                                    (np.maximum, -np.inf), (np.minimum, np.inf)]):
        np.testing.assert_allclose(np.asarray(g), _numpy_segment(uf, ident, data, ids, 4),
                                   rtol=1e-6)


def test_segment_sum_grad_and_vmap():
    ids = jnp.array([1, 0, 1], jnp.int32)
    g = jax.grad(lambda d: jnp.sum(ops.segment_sum(d, ids, 2) * jnp.array([10.0, 1.0])))(
        jnp.ones(3))
    np.testing.assert_array_equal(np.asarray(g), [1.0, 10.0, 1.0])
    batched = jax.vmap(lambda d: ops.segment_max(d, ids, 2))(jnp.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(np.asarray(batched), [[1.0, 2.0], [4.0, 5.0]])
