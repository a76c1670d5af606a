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
