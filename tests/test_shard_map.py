"""``shard_map`` (``transpile/shard_map.py``, ``lax/shard_map_call.py``) against JAX 0.10.2's
recorded values, jaxpr text and errors with 4 CPU devices (``tests/data/shard_map.json``),
eager and under ``jit``; the compiled program has no collective left in it."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as jax
from transpile import lax
from transpile.lax import shard_map_call
from transpile.sharding import Mesh, PartitionSpec as P

from shard_map_checks import check_case, device_count, names

JIT_CASES = ["sm_psum", "sm_all_gather", "sm_ppermute", "sm_psum_scatter",
             "sm_all_to_all_untiled", "sm_axis_index", "sm_2d_psum_y", "sm_2d_joint"]


@pytest.mark.parametrize("name", names("sm_"))
def test_shard_map_matches_jax(name):
    check_case(name)


@pytest.mark.parametrize("name", JIT_CASES)
def test_shard_map_under_jit(name):
    check_case(name, use_jit=True)


def test_compiled_shard_map_is_one_program_of_ordinary_ops():
    with device_count(2):
        mesh = Mesh(np.array(jax.devices()), ("x",))
        f = jax.shard_map(lambda v: lax.psum(v * v, "x"), mesh=mesh, in_specs=P("x"),
                          out_specs=P())
        x = np.arange(8.0, dtype=np.float32)
        text = jax.jit(f).lower(x).as_text()
        for word in ("shard_map", "psum", "for (int dev"):
            assert word not in text
        np.testing.assert_array_equal(np.asarray(jax.jit(f)(x)),
                                      (x * x).reshape(2, 4).sum(0))


def test_ambient_mesh_from_set_mesh():
    with device_count(2):
        mesh = Mesh(np.array(jax.devices()), ("x",))
        with jax.set_mesh(mesh):
            out = jax.shard_map(lambda v: lax.psum(v, "x"), in_specs=P("x"),
                                out_specs=P())(np.arange(4.0, dtype=np.float32))
        np.testing.assert_array_equal(np.asarray(out), [2.0, 4.0])


def test_empty_context_mesh_is_an_error():
    with pytest.raises(ValueError, match="The context mesh cannot be empty"):
        jax.shard_map(lambda v: v, in_specs=P(), out_specs=P())(1.0)


def test_data_parallel_step_sums_the_shard_gradients():
    # with check_vma, the gradient of a replicated parameter is summed over the devices
    # (pvary's transpose is psum_invariant); pmean of that invariant leaves it (JAX)
    with device_count(2):
        mesh = Mesh(np.array(jax.devices()), ("x",))
        rng = np.random.default_rng(0)
        w = rng.standard_normal((3,)).astype(np.float32)
        xs = rng.standard_normal((8, 3)).astype(np.float32)
        ys = rng.standard_normal((8,)).astype(np.float32)

        def loss(w, xb, yb):
            return ((xb @ w - yb) ** 2).mean()

        def step(w, xb, yb):
            return lax.pmean(jax.grad(loss)(w, xb, yb), "x")
        g = jax.jit(jax.shard_map(step, mesh=mesh, in_specs=(P(), P("x"), P("x")),
                                  out_specs=P()))(w, xs, ys)
        want = sum(np.asarray(jax.grad(loss)(w, xs[i:i + 4], ys[i:i + 4]))
                   for i in (0, 4))
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-5, atol=1e-6)


def test_jit_and_cond_inside_the_body():
    with device_count(2):
        mesh = Mesh(np.array(jax.devices()), ("x",))
        x = np.arange(8.0, dtype=np.float32).reshape(4, 2)
        f = jax.shard_map(lambda v: jax.jit(lambda u: lax.psum(jax.numpy.sin(u), "x"))(v),
                          mesh=mesh, in_specs=P("x"), out_specs=P())
        want = np.sin(x).reshape(2, 2, 2).sum(0)
        np.testing.assert_allclose(np.asarray(f(x)), want, rtol=1e-6)
        np.testing.assert_allclose(np.asarray(jax.jit(f)(x)), want, rtol=1e-6)
        g = jax.shard_map(lambda v: lax.cond(v.sum() > 2, lambda: v * 2, lambda: v),
                          mesh=mesh, in_specs=P("x"), out_specs=P("x"))
        np.testing.assert_array_equal(np.asarray(g(x)),
                                      np.concatenate([x[:2] * 2, x[2:] * 2]))


class _Remote(jax.CpuDevice):
    """A CPU device of another process (only its process index differs)."""

    def __init__(self, id, process):  # noqa: A002 - JAX's name
        super().__init__(id)
        self.process_index = process


def _mesh_of(processes, shape, names):
    devs = np.array([_Remote(i, p) for i, p in enumerate(processes)], dtype=object)
    return Mesh(devs.reshape(shape), names)


def test_axes_spanning_processes_and_their_offsets():
    mesh = _mesh_of([0, 0, 1, 1], (2, 2), ("x", "y"))
    # each process holds one row of the mesh: "x" spans the processes, "y" does not
    assert shard_map_call._spanning(mesh, ["x", "y"]) == {"x": ((0, 1), 1, 2)}
    assert shard_map_call._spanning(_mesh_of([0, 0, 0, 1, 1, 1], (6,), ("x",)),
                                    ["x"]) == {"x": ((0, 3), 3, 6)}
    assert shard_map_call._spanning(_mesh_of([0, 0, 0, 0], (4,), ("x",)), ["x"]) == {}


@pytest.mark.parametrize("processes, shape, order, message", [
    ([0, 1, 1, 0], (4,), ["x"], "contiguous block"),        # process 0's devices split
    ([0, 0, 1, 1, 1, 1], (6,), ["x"], "one size"),          # blocks of 2 and 4
    ([0, 0, 1, 1], (2, 2), ["y"], "not manual"),            # "x" spans but is automatic
])
def test_meshes_shard_map_cannot_split_over_processes(processes, shape, order, message):
    names = ("x",) if len(shape) == 1 else ("x", "y")
    with pytest.raises(NotImplementedError, match=message):
        shard_map_call._spanning(_mesh_of(processes, shape, names), order)
