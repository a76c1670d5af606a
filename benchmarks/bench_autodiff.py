"""Benchmarks of compiled gradients (issue 6), every contender timed in one process.

Run from the repository root:

    python benchmarks/bench_autodiff.py            # all sections
    python benchmarks/bench_autodiff.py mlp_grad

JAX is timed when importable (a scratch virtualenv with ``pip install jax==0.10.2 cffi
jinja2`` and ``PYTHONPATH=.:benchmarks``). Prints medians and ratios (contender time /
ours).
"""
from __future__ import annotations

import sys

import numpy as np

from bench_backend import jax, jnp, median_time, row, tnp, tp, _ready  # noqa: F401

BATCH, D_IN, HIDDEN, D_OUT = 256, 512, 512, 10


def _mlp_loss(np_):
    def loss(params, x, y):
        w1, b1, w2, b2 = params
        h = np_.tanh(x @ w1 + b1)
        err = h @ w2 + b2 - y
        return np_.mean(err * err)
    return loss


def _numpy_grad(params, x, y):
    """The same gradient written by hand in NumPy (float32 throughout)."""
    w1, b1, w2, b2 = params
    h = np.tanh(x @ w1 + b1)
    err = h @ w2 + b2 - y
    d_out = err * np.float32(2.0 / err.size)
    g_w2 = h.T @ d_out
    g_b2 = d_out.sum(0)
    d_h = (d_out @ w2.T) * (np.float32(1) - h * h)
    g_w1 = x.T @ d_h
    g_b1 = d_h.sum(0)
    return g_w1, g_b1, g_w2, g_b2


def mlp_grad():
    """jit(grad(loss)) of a 2-layer MLP (matmul, tanh, mean squared error) on a
    256x512 batch, against the gradient written by hand in NumPy and JAX's."""
    print(f"\ngrad of a 2-layer MLP loss, batch {BATCH}x{D_IN}, hidden {HIDDEN}, "
          f"out {D_OUT} (float32)")
    rng = np.random.default_rng(0)
    params = (rng.standard_normal((D_IN, HIDDEN)).astype(np.float32) * 0.05,
              np.zeros(HIDDEN, np.float32),
              rng.standard_normal((HIDDEN, D_OUT)).astype(np.float32) * 0.05,
              np.zeros(D_OUT, np.float32))
    x = rng.standard_normal((BATCH, D_IN)).astype(np.float32)
    y = rng.standard_normal((BATCH, D_OUT)).astype(np.float32)
    ours = tp.jit(tp.grad(_mlp_loss(tnp)))
    got = ours(params, x, y)
    want = _numpy_grad(params, x, y)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(np.asarray(g), w, rtol=2e-3, atol=1e-5)
    t_ours = median_time(lambda: [_ready(g) for g in ours(params, x, y)], repeat=21)
    row("transpile.jit(grad(loss))", t_ours)
    t_np = median_time(lambda: _numpy_grad(params, x, y), repeat=21)
    row("NumPy, gradient by hand", t_np, None, f"ours is {t_np / t_ours:.2f}x faster")
    if jax is not None:
        jf = jax.jit(jax.grad(_mlp_loss(jnp)))
        jp = tuple(jnp.asarray(p) for p in params)
        jx, jy = jnp.asarray(x), jnp.asarray(y)
        [_ready(g) for g in jf(jp, jx, jy)]
        t_jax = median_time(lambda: [_ready(g) for g in jf(jp, jx, jy)], repeat=21)
        row("jax.jit(grad(loss))", t_jax, None, f"ours is {t_jax / t_ours:.2f}x faster")


SECTIONS = {"mlp_grad": mlp_grad}

if __name__ == "__main__":
    for name in sys.argv[1:] or SECTIONS:
        SECTIONS[name]()
