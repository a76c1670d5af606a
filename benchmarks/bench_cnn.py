"""A CNN training step (issue 22's target): two 3x3 conv layers (16 and 32 channels,
NCHW), ReLU and a 2x2 max-pool after each, a dense layer, softmax cross-entropy,
``value_and_grad`` and an SGD update, batch 64 of 1x28x28; transpile against JAX in one
process, medians of interleaved repetitions, ratio = JAX time / transpile time.

Run from the repository root with JAX's interpreter (``--hog``: one core kept busy):

    PYTHONPATH=. $JAX_PYTHON benchmarks/bench_cnn.py [--hog]
"""
from __future__ import annotations

import subprocess
import sys

import numpy as np

from bench_backend import jax, median_time, tp


def _step(lib):
    """The jitted training step, written once for both libraries."""
    jnp, lax = lib.numpy, lib.lax

    def pool(x):
        return lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    def loss(params, x, y):
        w1, b1, w2, b2, w3, b3 = params
        h = pool(jnp.maximum(lax.conv_general_dilated(x, w1, (1, 1), "SAME")
                             + b1[None, :, None, None], 0.0))
        h = pool(jnp.maximum(lax.conv_general_dilated(h, w2, (1, 1), "SAME")
                             + b2[None, :, None, None], 0.0))
        z = h.reshape(h.shape[0], -1) @ w3 + b3
        logp = z - jax_logsumexp(jnp, z)
        return -jnp.mean(jnp.sum(logp * y, axis=1))

    def step(params, x, y):
        value, grads = lib.value_and_grad(loss)(params, x, y)
        return value, tuple(p - 0.01 * g for p, g in zip(params, grads))
    return lib.jit(step)


def jax_logsumexp(jnp, z):
    m = jnp.max(z, axis=1, keepdims=True)
    return m + jnp.log(jnp.sum(jnp.exp(z - m), axis=1, keepdims=True))


def _data():
    rng = np.random.default_rng(0)
    params = (rng.standard_normal((16, 1, 3, 3)).astype(np.float32) * 0.3,
              np.zeros(16, np.float32),
              rng.standard_normal((32, 16, 3, 3)).astype(np.float32) * 0.1,
              np.zeros(32, np.float32),
              rng.standard_normal((32 * 7 * 7, 10)).astype(np.float32) * 0.02,
              np.zeros(10, np.float32))
    x = rng.standard_normal((64, 1, 28, 28)).astype(np.float32)
    y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 64)]
    return params, x, y


def run() -> None:
    params, x, y = _data()
    fns = {}
    for name, lib in (("transpile", tp), ("JAX", jax)):
        if lib is None:
            continue
        step = _step(lib)
        p = tuple(lib.numpy.asarray(a) for a in params)
        xa, ya = lib.numpy.asarray(x), lib.numpy.asarray(y)
        fns[name] = (lambda s=step, p=p, xa=xa, ya=ya, lib=lib:
                     lib.block_until_ready(s(p, xa, ya)))
    if "JAX" in fns:
        got, want = fns["transpile"]()[0], fns["JAX"]()[0]
        assert abs(float(got) - float(want)) < 1e-4 * max(1.0, abs(float(want))), (got, want)
    for fn in fns.values():
        fn()
    samples = {k: [] for k in fns}
    for _ in range(9):
        for k, fn in fns.items():
            samples[k].append(median_time(fn, repeat=1, number=5, warmup=0))
    t = {k: sorted(v)[len(v) // 2] for k, v in samples.items()}
    ratio = f"{t['JAX'] / t['transpile']:.2f}x" if "JAX" in t else "-"
    print(f"CNN train step, batch 64x1x28x28: transpile {t['transpile'] * 1e3:.2f} ms, "
          f"JAX {t.get('JAX', float('nan')) * 1e3:.2f} ms, JAX/transpile {ratio}")


def main(argv) -> None:
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"]) \
        if "--hog" in argv else None
    try:
        run()
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()


if __name__ == "__main__":
    main(sys.argv[1:])
