"""Collectives (``lax/parallel.py``) under ``vmap``'s ``axis_name``, against JAX 0.10.2's
recorded values, jaxpr text and errors (``tests/data/shard_map.json``), eager and under
``jit``; gradients through ``psum`` against finite differences."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as jax
from transpile import lax

from shard_map_checks import check_case, names

VMAP_CASES = names("vmap_") + names("unbound_")
JIT_CASES = ["vmap_psum", "vmap_all_gather", "vmap_ppermute", "vmap_all_to_all",
             "vmap_psum_scatter"]


@pytest.mark.parametrize("name", VMAP_CASES)
def test_vmap_collective_matches_jax(name):
    check_case(name)


@pytest.mark.parametrize("name", JIT_CASES)
def test_vmap_collective_under_jit(name):
    check_case(name, use_jit=True)


def test_grad_through_psum_matches_finite_differences():
    def f(v):
        return jax.vmap(lambda y: lax.psum(jax.numpy.sin(y) * y, "i"), axis_name="i")(v)[0]
    x = np.array([0.3, -1.2, 2.0], np.float64)
    g = np.asarray(jax.grad(f)(x.astype(np.float32)), np.float64)
    eps = 1e-3
    fd = [(float(f((x + eps * e).astype(np.float32))) -
           float(f((x - eps * e).astype(np.float32)))) / (2 * eps) for e in np.eye(3)]
    np.testing.assert_allclose(g, fd, rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("perm", [[(0, 1), (1, 2), (2, 0)], [(0, 2)]])
def test_ppermute_transpose_is_inverse_permutation(perm):
    # <ppermute(x), w> == <x, ppermute^T(w)>
    x = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    w = np.linspace(-1, 1, 6, dtype=np.float32).reshape(3, 2)

    def f(v):
        return (jax.vmap(lambda y: lax.ppermute(y, "i", perm), axis_name="i")(v) * w).sum()
    g = np.asarray(jax.grad(f)(x))
    want = np.zeros_like(w)
    for src, dst in perm:
        want[src] = w[dst]
    np.testing.assert_array_equal(g, want)


def test_psum_of_several_axes_sums_in_order():
    x = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)
    f = jax.vmap(jax.vmap(lambda v: lax.psum(v, ("i", "j")), axis_name="j"), axis_name="i")
    np.testing.assert_array_equal(np.asarray(f(x)),
                                  np.broadcast_to(x.sum((0, 1)), x.shape))


def test_jit_body_with_a_collective_under_vmap():
    g = jax.vmap(jax.jit(lambda u: lax.psum(u * u, "i")), axis_name="i")
    x = np.arange(3.0, dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(g(x)), np.full(3, (x * x).sum()))
