"""Benchmarks of batching (issue 8), every contender timed in one process.

Run from the repository root:

    python benchmarks/bench_vmap.py              # all sections
    python benchmarks/bench_vmap.py per_example_grads

JAX is timed when importable (``PYTHONPATH=.:benchmarks`` with the scratch virtualenv).
"""
from __future__ import annotations

import sys

import numpy as np

from bench_autodiff import _mlp_loss as _loss
from bench_backend import jax, jnp, median_time, row, tnp, tp, _ready  # noqa: F401

BATCH, D_IN, HIDDEN, D_OUT = 128, 32, 64, 4


def per_example_grads():
    """Per-example gradients of a small MLP: jit(vmap(grad(loss), in_axes=(None, 0, 0)))
    against a Python loop over the examples of jit(grad(loss))."""
    print(f"\nper-example gradients of an MLP {D_IN}-{HIDDEN}-{D_OUT}, {BATCH} examples "
          "(float32)")
    rng = np.random.default_rng(0)
    params = (rng.standard_normal((D_IN, HIDDEN)).astype(np.float32) * 0.1,
              np.zeros(HIDDEN, np.float32),
              rng.standard_normal((HIDDEN, D_OUT)).astype(np.float32) * 0.1,
              np.zeros(D_OUT, np.float32))
    x = rng.standard_normal((BATCH, D_IN)).astype(np.float32)
    y = rng.standard_normal((BATCH, D_OUT)).astype(np.float32)
    g = tp.grad(_loss(tnp))
    batched = tp.jit(tp.vmap(g, in_axes=(None, 0, 0)))
    one = tp.jit(g)
    got = batched(params, x, y)
    for i in (0, BATCH - 1):
        want = one(params, x[i], y[i])
        for a, b in zip(got, want, strict=True):
            np.testing.assert_allclose(np.asarray(a)[i], np.asarray(b), rtol=1e-5,
                                       atol=1e-6)
    t_ours = median_time(lambda: [_ready(a) for a in batched(params, x, y)], repeat=21)
    row("transpile.jit(vmap(grad(loss)))", t_ours)

    def loop():
        return [one(params, x[i], y[i]) for i in range(BATCH)]
    t_loop = median_time(loop, repeat=5)
    row("Python loop of transpile.jit(grad)", t_loop, None,
        f"vmap is {t_loop / t_ours:.1f}x faster")
    if jax is not None:
        jf = jax.jit(jax.vmap(jax.grad(_loss(jnp)), in_axes=(None, 0, 0)))
        jp = tuple(jnp.asarray(p) for p in params)
        [_ready(a) for a in jf(jp, x, y)]
        t_jax = median_time(lambda: [_ready(a) for a in jf(jp, x, y)], repeat=21)
        row("jax.jit(vmap(grad(loss)))", t_jax, None, f"ours is {t_jax / t_ours:.2f}x faster")


SECTIONS = {"per_example_grads": per_example_grads}

if __name__ == "__main__":
    for name in sys.argv[1:] or SECTIONS:
        SECTIONS[name]()
