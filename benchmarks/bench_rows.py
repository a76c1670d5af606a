"""Issue 19 part 4: reductions that feed elementwise work (softmax, layernorm,
logsumexp) and column/row sums, transpile as it plans now ("new") against the same code
with row fusion and chunked column reductions turned off ("old") and JAX.

Run from the repository root with an interpreter that has JAX (``$JAX_PYTHON``, a scratch virtualenv with JAX 0.10.2):

    PYTHONPATH=. $JAX_PYTHON benchmarks/bench_rows.py [case substrings...]

"old" is planned with ``plan_program(..., fuse_rows=False)`` and one pass down each
block of columns (``kernels._row_chunks`` returning no chunks), under its own lowering
fingerprint so the two do not share a cached library. All three run in this one process,
interleaved per repetition; medians; ratios are JAX time / transpile time.
"""
from __future__ import annotations

import sys
import time

import jax
import jax.numpy as jnp
import numpy as np

import transpile as tp
import transpile.numpy as tnp
import transpile.stages as stages
from transpile.codegen import kernels

REPEAT = int(__import__("os").environ.get("BENCH_REPEAT", 25))


def _softmax(np_):
    def f(x):
        e = np_.exp(x - np_.max(x, axis=1, keepdims=True))
        return e / np_.sum(e, axis=1, keepdims=True)
    return f


def _layernorm(np_):
    def f(x):
        m = np_.mean(x, axis=1, keepdims=True)
        v = np_.mean((x - m) * (x - m), axis=1, keepdims=True)
        return (x - m) / np_.sqrt(v + np.float32(1e-5))
    return f


def _logsumexp(np_):
    def f(x):
        m = np_.max(x, axis=1, keepdims=True)
        return np_.log(np_.sum(np_.exp(x - m), axis=1)) + m[:, 0]
    return f


def _cases():
    rng = np.random.default_rng(0)
    big = rng.standard_normal((4096, 4096)).astype(np.float32)
    rows = rng.standard_normal((4096, 1024)).astype(np.float32)
    return [("softmax 4096x1024", _softmax, rows),
            ("layernorm 4096x1024", _layernorm, rows),
            ("logsumexp 4096x1024", _logsumexp, rows),
            ("sum(axis=0) 4096^2", lambda m: (lambda a: m.sum(a, axis=0)), big),
            ("sum(axis=1) 4096^2", lambda m: (lambda a: m.sum(a, axis=1)), big),
            ("copy floor: x*2 4096^2", lambda m: (lambda a: a * np.float32(2)), big)]


def _old(fn, x):
    """``fn`` jitted and compiled with this part's changes turned off."""
    plan, fingerprint, chunks = stages.plan_program, stages._fingerprint, kernels._row_chunks
    stages.plan_program = lambda *a, **k: plan(*a, **{**k, "fuse_rows": False})
    stages._fingerprint = lambda *a, **k: fingerprint(*a, **k) + "-old"
    kernels._row_chunks = lambda rows: (0, 0)
    try:
        out = tp.jit(fn)
        out(x)
        return out
    finally:
        stages.plan_program, stages._fingerprint, kernels._row_chunks = \
            plan, fingerprint, chunks


def main(argv):
    print(f"  {'case':24s} {'new':>9s} {'old':>9s} {'JAX':>9s} {'JAX/new':>8s} {'JAX/old':>8s}")
    for name, make, x in _cases():
        if argv and not any(s in name for s in argv):
            continue
        old = _old(make(tnp), x)
        new = tp.jit(make(tnp))
        theirs = jax.jit(make(jnp))
        jx = jnp.asarray(x)
        np.testing.assert_allclose(np.asarray(new(x)), np.asarray(theirs(jx)),
                                   rtol=2e-3, atol=2e-3)
        fns = [lambda: new(x), lambda: old(x), lambda: theirs(jx).block_until_ready()]
        times = [[], [], []]
        for r in range(REPEAT):
            for i in ((0, 1, 2) if r % 2 else (2, 1, 0)):
                t0 = time.perf_counter()
                fns[i]()
                times[i].append(time.perf_counter() - t0)
        m = [sorted(t)[len(t) // 2] * 1e3 for t in times]
        lo = [min(t) * 1e3 for t in times]
        print(f"  {name:24s} {m[0]:6.2f} ms {m[1]:6.2f} ms {m[2]:6.2f} ms "
              f"{m[2] / m[0]:7.2f}x {m[2] / m[1]:7.2f}x   (fastest: {lo[0]:.2f} / "
              f"{lo[1]:.2f} / {lo[2]:.2f} ms)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
