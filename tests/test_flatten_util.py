"""``transpile.flatten_util.ravel_pytree`` against JAX 0.10.2's recorded answers:
the flat vector's values, dtype and weak type, and the leaves ``unravel`` gives back."""
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
from transpile.flatten_util import ravel_pytree

API = jaxpr_cases.load_data("api.json")


@pytest.mark.parametrize("expr", api_cases.RAVEL_EXPRS)
def test_ravel_matches_jax(expr):
    tree = eval(expr, {"np": np})
    flat, unravel = ravel_pytree(tree)
    want = API["ravel"][expr]
    api_cases.assert_matches(flat, want["flat"])
    back = unravel(flat)
    assert jax.tree.structure(back) == jax.tree.structure(tree)
    for leaf, w in zip(jax.tree.leaves(back), want["leaves"], strict=True):
        api_cases.assert_matches(leaf, w)


def test_unravel_dtype_error_matches_jax():
    want = API["errors"]["unravel dtype"]
    _, unravel = ravel_pytree([np.float32(1), np.int32(2)])
    with pytest.raises(TypeError) as info:
        unravel(jnp.ones(2, jnp.int32))
    assert str(info.value) == want["message"]


def test_ravel_under_jit_and_grad():
    params = {"w": jnp.arange(6.0).reshape(2, 3), "b": jnp.ones(2)}
    flat, unravel = ravel_pytree(params)

    def loss(v):
        p = unravel(v)
        return jnp.sum(p["w"] ** 2) + jnp.sum(p["b"])

    g = jax.jit(jax.grad(loss))(flat)
    np.testing.assert_array_equal(np.asarray(g), [1.0, 1.0, 0, 2, 4, 6, 8, 10])
    out = jax.jit(lambda p: ravel_pytree(p)[0])(params)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(flat))
