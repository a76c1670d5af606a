"""Issue 19: transpile vs JAX (and NumPy) on a quiet machine and on a busy one.

Run from the repository root with an interpreter that has JAX (``$JAX_PYTHON``, a scratch virtualenv with JAX 0.10.2):

    PYTHONPATH=. $JAX_PYTHON benchmarks/bench_busy.py          # both conditions
    PYTHONPATH=. $JAX_PYTHON benchmarks/bench_busy.py --hog    # busy only
    PYTHONPATH=. $JAX_PYTHON benchmarks/bench_busy.py --quiet  # quiet only

"Busy" starts a CPU hog (``python -c "while True: pass"``) pinned to one core for the
whole table and kills it at the end: fewer cores are free than OpenMP has threads, which
is what made the OpenMP teams collapse. Every contender runs in this one process,
interleaved per row; the figures are medians. Ratios are JAX time / transpile time
(above 1: transpile is faster).
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_backend import _ready, jax, jnp, tnp, tp  # noqa: E402

BATCH, D_IN, HIDDEN, D_OUT = 128, 784, 512, 10
LR = np.float32(0.01)


def _medians(fns, repeat=41, warmup=3):
    """Median seconds of each of ``fns``, calls interleaved so that a load change hits
    every contender alike, in a rotating order: a thread pool that spins after its call
    (OpenBLAS's, libgomp's) slows whichever contender comes next."""
    for fn in fns:
        for _ in range(warmup):
            fn()
    times = [[] for _ in fns]
    for r in range(repeat):
        for i in range(len(fns)):
            j = (i + r) % len(fns)
            t0 = time.perf_counter()
            fns[j]()
            times[j].append(time.perf_counter() - t0)
    return [sorted(ts)[len(ts) // 2] for ts in times]


def _mlp_step(np_, nn, value_and_grad):
    def loss(params, x, y):
        w1, b1, w2, b2 = params
        h = nn.relu(x @ w1 + b1)
        logits = h @ w2 + b2
        return -np_.mean(np_.sum(nn.log_softmax(logits) * y, axis=1))

    def step(params, x, y):
        value, grads = value_and_grad(loss)(params, x, y)
        return value, tuple(p - LR * g for p, g in zip(params, grads))
    return step


def _layernorm(np_):
    def f(x):
        m = np_.mean(x, axis=1, keepdims=True)
        v = np_.mean((x - m) * (x - m), axis=1, keepdims=True)
        return (x - m) / np_.sqrt(v + np.float32(1e-5))
    return f


def _softmax(np_):
    def f(x):
        e = np_.exp(x - np_.max(x, axis=1, keepdims=True))
        return e / np_.sum(e, axis=1, keepdims=True)
    return f


def _cases():
    rng = np.random.default_rng(0)
    f32 = np.float32
    params = (rng.standard_normal((D_IN, HIDDEN)).astype(f32) * f32(0.05),
              np.zeros(HIDDEN, f32),
              rng.standard_normal((HIDDEN, D_OUT)).astype(f32) * f32(0.05),
              np.zeros(D_OUT, f32))
    x = rng.standard_normal((BATCH, D_IN)).astype(f32)
    y = np.eye(D_OUT, dtype=f32)[rng.integers(0, D_OUT, BATCH)]
    a256 = rng.standard_normal((256, 256)).astype(f32)
    a1k = rng.standard_normal((1024, 1024)).astype(f32)
    big = rng.standard_normal((4096, 4096)).astype(f32)
    rows = rng.standard_normal((4096, 1024)).astype(f32)
    return [
        ("MLP train step 784-512-10, b128",
         lambda m, n, vg: _mlp_step(m, n, vg), (params, x, y), None),
        ("matmul 256^3 f32", lambda m, n, vg: (lambda a, b: a @ b), (a256, a256),
         lambda a, b: a @ b),
        ("matmul 1024^3 f32", lambda m, n, vg: (lambda a, b: a @ b), (a1k, a1k),
         lambda a, b: a @ b),
        ("sum(axis=1) 4096^2 f32", lambda m, n, vg: (lambda a: m.sum(a, axis=1)), (big,),
         lambda a: a.sum(axis=1)),
        ("softmax rows 4096x1024", lambda m, n, vg: _softmax(m), (rows,), _softmax(np)),
        ("layernorm 4096x1024", lambda m, n, vg: _layernorm(m), (rows,), _layernorm(np)),
    ]


def _blocked(fn, args):
    def run():
        out = fn(*args)
        for leaf in jax.tree_util.tree_leaves(out) if jax else [out]:
            _ready(leaf)
    return run


def table(title):
    print(f"\n{title}")
    print(f"  {'case':34s} {'transpile':>11s} {'JAX':>11s} {'NumPy':>11s} {'JAX/ours':>9s}")
    for label, make, args, np_fn in _cases():
        ours = tp.jit(make(tnp, tp.nn, tp.value_and_grad))
        theirs = jax.jit(make(jnp, jax.nn, jax.value_and_grad))
        jargs = jax.tree_util.tree_map(jnp.asarray, args)
        fns = [_blocked(ours, args), _blocked(theirs, jargs)]
        if np_fn is not None:
            fns.append(lambda: np_fn(*args))
        got = jax.tree_util.tree_leaves(ours(*args))
        want = jax.tree_util.tree_leaves(theirs(*jargs))
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=2e-3, atol=2e-3)
        ts = _medians(fns)
        t_np = f"{ts[2] * 1e3:8.3f} ms" if np_fn is not None else f"{'-':>11s}"
        print(f"  {label:34s} {ts[0] * 1e3:8.3f} ms {ts[1] * 1e3:8.3f} ms {t_np} "
              f"{ts[1] / ts[0]:8.2f}x", flush=True)


def _start_hog():
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(hog.pid, {sorted(os.sched_getaffinity(0))[-1]})
    time.sleep(0.5)
    return hog


def main(argv):
    if jax is None:
        sys.exit("bench_busy needs JAX: run it with an interpreter that has JAX (see the docstring)")
    print(f"cores: {len(os.sched_getaffinity(0))}, OMP_NUM_THREADS="
          f"{os.environ.get('OMP_NUM_THREADS', '(unset)')}")
    if "--hog" not in argv:
        table("quiet (no hog)")
    if "--quiet" not in argv:
        hog = _start_hog()
        try:
            table("busy (a CPU hog pinned to one core)")
        finally:
            hog.kill()
            hog.wait()


if __name__ == "__main__":
    main(sys.argv[1:])
