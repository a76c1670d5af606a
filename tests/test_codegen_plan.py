"""Kernel planning: what fuses into one loop, what gets a kernel of its own, and how
temporaries share the workspace."""
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.codegen.plan import plan_program
from transpile.passes import optimize

X = np.ones((64, 32), np.float32)


def _plan(f, *args):
    return plan_program(optimize(jax.make_jaxpr(f)(*args)), "f")


@pytest.mark.parametrize("name, fn, kernels, templates", [
    ("elementwise chain", lambda x: jnp.tanh(x) * 2 + jnp.exp(-x), 1, ["kernel_loop.j2"]),
    ("selu", lambda x: 1.05 * jnp.where(x > 0, x, 1.67 * jnp.exp(x) - 1.67), 1,
     ["kernel_loop.j2"]),
    ("sum of a chain", lambda x: jnp.sum(x ** 2 - x ** 3 - x), 1, ["kernel_reduce.j2"]),
    ("transpose and broadcast fuse", lambda x: x.T * x[0][:, None] + 1, 1,
     ["kernel_loop.j2"]),
    ("reduction then elementwise", lambda x: x / jnp.sum(x), 2,
     ["kernel_reduce.j2", "kernel_loop.j2"]),
    ("matmul then bias", lambda x: jnp.tanh(x @ x.T + 1.0), 2,
     ["kernel_dot.j2", "kernel_loop.j2"]),
    ("producer of a matmul is materialised", lambda x: (x * 2) @ x.T, 2,
     ["kernel_loop.j2", "kernel_dot.j2"]),
    ("sort", lambda x: jnp.sort(x * 3, axis=0), 2, ["kernel_loop.j2", "kernel_sort.j2"]),
    ("cumsum", lambda x: jnp.cumsum(x, axis=1) + 1, 2,
     ["kernel_cumulative.j2", "kernel_loop.j2"]),
    ("concatenate", lambda x: jnp.concatenate([x, x], 0) * 2, 2,
     ["kernel_concatenate.j2", "kernel_loop.j2"]),
])
def test_fusion_groups(name, fn, kernels, templates):
    program = _plan(fn, X)
    assert [k.template for k in program.kernels] == templates, name
    assert len(program.kernels) == kernels


def test_a_value_used_twice_in_one_loop_is_computed_once():
    program = _plan(lambda x: jnp.sin(x) * jnp.sin(x) + jnp.sin(x), X)
    body = program.kernels[0].fields.body
    assert sum("sin" in line and "=" in line for line in body if
               not line.startswith("/*")) == 1


def test_outputs_and_inputs_are_not_temporaries():
    program = _plan(lambda x: (x * 2, x, 3.0, x * 2), X)
    assert [b.kind for b in program.outputs] == ["output"]
    assert [s[0] for s in program.out_sources] == ["buffer", "input", "literal", "buffer"]
    assert program.temps == []


def test_dead_temporaries_share_workspace():
    def f(x):
        a = jnp.sort(x * 2, axis=0)
        b = jnp.sort(a * 3, axis=0)
        c = jnp.sort(b * 4, axis=0)
        return jnp.sort(c * 5, axis=0)
    program = _plan(f, X)
    nbytes = X.nbytes
    assert len(program.temps) >= 6
    # Only a few temporaries are live at once, so the workspace is far below their sum.
    assert program.workspace_bytes <= 3 * nbytes
    assert sum(t.nbytes for t in program.temps) >= 6 * nbytes


def test_expensive_values_are_not_recomputed_under_a_broadcast():
    program = _plan(lambda v, x: x * jnp.exp(v)[None, :], X[0], X)
    assert [k.template for k in program.kernels] == ["kernel_loop.j2", "kernel_loop.j2"]


def test_parallel_only_above_the_threshold():
    small = _plan(lambda x: x * 2, np.ones(100, np.float32)).kernels[0]
    big = _plan(lambda x: x * 2, np.ones(1 << 20, np.float32)).kernels[0]
    assert not small.fields.parallel and big.fields.parallel


def _dot_scalar_left(x):
    return lax.dot_general(np.float32(2), x, (((), ()), ((), ())))


def _dot_scalar_in_loop(x):
    return lax.fori_loop(0, 2, lambda i, c: lax.dot_general(c, np.float32(2),
                                                            (((), ()), ((), ()))), x)


def _grad_of_reshaped_matmul(x0, x1):
    # grad folds reshape(1.0) into a literal operand of the dot_general of the VJP
    m = jnp.maximum(jnp.where(jnp.sin(jnp.concatenate((x1, x0))) > 0,
                              jnp.sin(jnp.concatenate((x1, x0))), 0.1), 0.)
    return jnp.sum(jnp.reshape(jnp.matmul(x0, x0), ())) + jnp.sum(m)


X5 = np.linspace(-1, 1, 5).astype(np.float32) + 0.1
X1 = np.array([0.5], np.float32)


@pytest.mark.parametrize("fn, args, want", [
    (_dot_scalar_left, (X5,), lambda x: 2 * x),
    (_dot_scalar_in_loop, (X5,), lambda x: 4 * x),
    (jax.value_and_grad(_grad_of_reshaped_matmul, argnums=(0, 1)), (X5, X1),
     lambda x0, x1: (x0 @ x0 + np.sum(np.maximum(np.where(
         np.sin(np.r_[x1, x0]) > 0, np.sin(np.r_[x1, x0]), 0.1), 0)),
         (2 * x0 + np.where(np.sin(x0) > 0, np.cos(x0), 0), np.where(
             np.sin(x1) > 0, np.cos(x1), 0)))),
])
def test_literal_operand_of_a_dot_is_buffered(fn, args, want):
    got = jax.tree_util.tree_leaves(jax.jit(fn)(*args))
    ref = jax.tree_util.tree_leaves(want(*[a.astype(np.float64) for a in args]))
    for g, r in zip(got, ref, strict=True):
        np.testing.assert_allclose(np.asarray(g), r, rtol=1e-5, atol=1e-6)
