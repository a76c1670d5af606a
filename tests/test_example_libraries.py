"""``transpile.example_libraries`` (``optimizers``, ``stax``): the classic stax MLP
trained a few steps (loss per step) and every optimizer's and schedule's parameter path
on a small quadratic, against JAX 0.10.2's recorded values; layer outputs; schedules;
state packing; errors."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

try:
    import api_cases
    import jaxpr_cases
except ImportError:  # collected as a package
    from tests import api_cases, jaxpr_cases

import transpile as jax
import transpile.numpy as jnp
from transpile.example_libraries import optimizers, stax

API = jaxpr_cases.load_data("api.json")


@pytest.fixture(scope="module")
def losses():
    return api_cases.training_losses(jax, jnp, optimizers, stax)


@pytest.mark.parametrize("name", list(API["training"]))
def test_training_loss_matches_jax(name, losses):
    np.testing.assert_allclose(losses[name], API["training"][name], rtol=2e-6)


@pytest.fixture(scope="module")
def paths():
    return api_cases.optimizer_paths(jax, jnp, optimizers)


@pytest.mark.parametrize("name", list(API["optimizer_paths"]))
def test_optimizer_updates_match_jax(name, paths):
    for got, want in zip(paths[name], API["optimizer_paths"][name], strict=True):
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-7, err_msg=name)


def test_stax_layers_match_jax():
    got = api_cases.stax_outputs(jax, jnp, stax)
    assert list(got) == list(API["stax"])
    for name, (shape, values) in API["stax"].items():
        assert list(got[name][0]) == shape, name
        np.testing.assert_allclose(got[name][1], values, rtol=2e-6, atol=1e-7,
                                   err_msg=name)


@pytest.mark.parametrize("name", ["dropout without rng", "piecewise_constant lengths",
                                  "sgd mismatched grads"])
def test_errors_match_jax(name):
    calls = {
        "dropout without rng": lambda: stax.Dropout(0.5)[1]((), jnp.ones(2)),
        "piecewise_constant lengths": lambda: optimizers.piecewise_constant([1, 2],
                                                                            [0.1, 0.2]),
        "sgd mismatched grads": lambda: optimizers.sgd(0.1)[1](
            0, [1.0, 2.0], optimizers.sgd(0.1)[0]((1.0, 2.0))),
    }
    want = API["errors"][name]
    with pytest.raises(Exception) as info:
        calls[name]()
    assert type(info.value).__name__ == want["error"]
    assert str(info.value) == want["message"]


def test_schedules():
    assert optimizers.constant(0.3)(100) == 0.3
    np.testing.assert_allclose(float(optimizers.exponential_decay(1.0, 10, 0.5)(20)), 0.25)
    np.testing.assert_allclose(
        float(optimizers.inverse_time_decay(1.0, 2, 1.0, staircase=True)(3)), 0.5)
    np.testing.assert_allclose(float(optimizers.polynomial_decay(1.0, 4, 0.0, 2.0)(2)),
                               0.25)
    np.testing.assert_allclose(float(optimizers.polynomial_decay(1.0, 4, 0.1)(9)), 0.1)
    sched = optimizers.piecewise_constant([2, 5], [1.0, 0.5, 0.1])
    np.testing.assert_array_equal([sched(i) for i in (0, 2, 3, 5, 6)],
                                  np.float32([1.0, 1.0, 0.5, 0.5, 0.1]))
    assert optimizers.make_schedule(sched) is sched
    with pytest.raises(TypeError):
        optimizers.make_schedule([0.1, 0.2])


def test_state_pack_unpack_and_utilities():
    init, update, get_params = optimizers.adam(0.1)
    params = {"w": jnp.ones((2, 2)), "b": (jnp.zeros(2), 3.0)}
    state = update(0, jax.tree.map(jnp.ones_like, params), init(params))
    marked = optimizers.unpack_optimizer_state(state)
    assert all(isinstance(j, optimizers.JoinPoint) for j in jax.tree.leaves(marked))
    restored = optimizers.pack_optimizer_state(pickle.loads(pickle.dumps(
        jax.tree.map(lambda j: optimizers.JoinPoint(jax.tree.map(np.asarray, j.subtree)),
                     marked))))
    for a, b in zip(jax.tree.leaves(get_params(restored)),
                    jax.tree.leaves(get_params(state)), strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    # OptimizerState is a pytree: its leaves are the per-parameter states
    assert len(jax.tree.leaves(state)) == 3 * 3
    g = {"a": jnp.array([3.0, 4.0]), "b": jnp.array(12.0)}
    assert float(optimizers.l2_norm(g)) == 13.0
    clipped = optimizers.clip_grads(g, 1.3)
    np.testing.assert_allclose(float(optimizers.l2_norm(clipped)), 1.3, rtol=1e-6)
    same = optimizers.clip_grads(g, 100.0)
    np.testing.assert_array_equal(np.asarray(same["a"]), [3.0, 4.0])
