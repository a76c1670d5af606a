"""``jnp.select`` and ``jnp.piecewise`` against NumPy and JAX 0.10.2's recordings.

The recorded programs (``select_*``, ``piecewise_*``) live in
``tests/control_flow_cases.py``; their outputs and error texts are also checked by
``tests/test_lax_control_flow.py``, which also checks ``select``'s jaxpr text against
JAX's. Here: tables against NumPy and the per-element semantics of ``piecewise``.
"""
from __future__ import annotations


import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp


# ---------------------------------------------------------------------------------------
# select against NumPy

SHAPES = [((), (), ()), ((4,), (4,), ()), ((3, 1), (4,), (3, 4)), ((2, 3), (3,), (1, 3))]


@pytest.mark.parametrize("cond_shape,choice_shape,default_shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int8, np.bool_])
@pytest.mark.parametrize("n", [1, 3])
def test_select_matches_numpy(cond_shape, choice_shape, default_shape, dtype, n):
    rng = np.random.default_rng(n)
    conds = [rng.random(cond_shape) < 0.4 for _ in range(n)]
    choices = [(rng.standard_normal(choice_shape) * 5).astype(dtype) for _ in range(n)]
    default = (rng.standard_normal(default_shape) * 5).astype(dtype)
    want = np.select(conds, choices, default)
    got = jnp.select([jnp.asarray(c) for c in conds], [jnp.asarray(c) for c in choices],
                     jnp.asarray(default))
    assert got.shape == want.shape and got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(np.asarray(got), want)


def test_select_first_true_condition_wins_and_default_fills():
    x = jnp.arange(6)
    got = jnp.select([x > 3, x > 1], [x * 10, x * 100], default=-1)
    np.testing.assert_array_equal(np.asarray(got), [-1, -1, 200, 300, 40, 50])


@pytest.mark.parametrize("args,dtype,weak", [
    (([True], [1]), np.int32, True),
    (([True], [1.0]), np.float32, True),
    (([True], [np.int8(1)]), np.int8, False),
    (([True], [np.int8(1)], 2.5), np.float32, True),
    (([True], [np.uint8(1)], -1), np.uint8, False),
    (([True], [True]), np.int32, True),
    (([True], [True], False), np.bool_, False),
])
def test_select_result_types(args, dtype, weak):
    # Recorded from JAX 0.10.2: choices and default promote together, weak types kept.
    got = jnp.select(*args)
    assert (got.dtype, got.weak_type) == (np.dtype(dtype), weak)


# ---------------------------------------------------------------------------------------
# piecewise

@pytest.mark.parametrize("funcs", [
    [lambda x: -x, lambda x: x * 2],
    [-1.0, 1.0, 0.5],
    [lambda x: x + 1, 7.0],
    [0.0, lambda x: x * x, lambda x: x - 1],
])
def test_piecewise_matches_numpy(funcs):
    x = np.linspace(-2, 2, 9).astype(np.float32)
    conds = [x < -1, x > 0.5][:len(funcs) - 1] if len(funcs) == 3 else [x < 0]
    want = np.piecewise(x, conds, funcs)
    got = jnp.piecewise(jnp.asarray(x), [jnp.asarray(c) for c in conds], funcs)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


def test_piecewise_functions_see_scalars():
    """As under JAX's vmap, each function is called on one element."""
    seen = []

    def f(v):
        seen.append(v.shape)
        return v * 0 + v.ndim

    x = jnp.arange(6.0).reshape(2, 3)
    got = jnp.piecewise(x, [x > 2], [f, lambda v: jnp.sum(v)])
    assert set(seen) == {()}
    np.testing.assert_array_equal(np.asarray(got), [[0, 1, 2], [0, 0, 0]])


def test_piecewise_last_true_condition_wins():
    x = jnp.arange(5)
    got = jnp.piecewise(x, [x > 0, x > 2], [10, 20])
    np.testing.assert_array_equal(np.asarray(got), [0, 10, 10, 20, 20])


def test_piecewise_casts_to_input_dtype():
    x = jnp.arange(4)
    got = jnp.piecewise(x, [x < 2], [lambda v: v * 1.5, 9.7])
    assert got.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(got), [0, 1, 9, 9])


def test_piecewise_jaxpr_is_a_map_of_switch():
    """Documented difference: JAX vmaps lax.switch inside jit[name=_piecewise]."""
    text = str(jax.make_jaxpr(lambda x: jnp.piecewise(x, [x < 0], [jnp.sin, jnp.cos]))(
        jnp.arange(3.0)))
    assert "scan[" in text and "cond[" in text
