"""Benchmarks of compiled control flow (issue 4), every contender timed in one process.

Run from the repository root:

    python benchmarks/bench_control_flow.py             # all sections
    python benchmarks/bench_control_flow.py while_1m

JAX is timed when importable (a scratch virtualenv with ``pip install jax==0.10.2 cffi
jinja2`` and ``PYTHONPATH=.``). Prints medians and ratios (contender time / ours).
"""
from __future__ import annotations

import sys

import numpy as np

from bench_backend import jax, jnp, median_time, row, tnp, tp, _ready  # noqa: F401

N = 1_000_000


def while_1m():
    """A million iterations of a two-scalar body: the loop overhead itself."""
    print(f"\nwhile_loop, {N:,} iterations of c = c * 0.999 + 0.5 (f32 scalar carry)")
    lax = tp.lax

    def loop(lax, np_):
        def f(n, x):
            return lax.while_loop(lambda c: c[0] < n,
                                  lambda c: (c[0] + 1, c[1] * np_.float32(0.999)
                                             + np_.float32(0.5)), (0, x))[1]
        return f
    ours = tp.jit(loop(lax, tnp))
    n, x0 = np.int32(N), np.float32(1.0)
    got = float(ours(n, x0))
    t_ours = median_time(ours, n, x0, repeat=7)
    row("transpile.jit while_loop", t_ours)

    def numpy_loop(n, x):
        c = np.float32(x)
        a, b = np.float32(0.999), np.float32(0.5)
        i = 0
        while i < n:
            c = c * a + b
            i += 1
        return c
    want = float(numpy_loop(N, x0))
    assert abs(got - want) <= 1e-3 * abs(want), (got, want)
    t_np = median_time(numpy_loop, N, x0, repeat=3, warmup=1)
    row("NumPy scalars in a Python loop", t_np, None, f"ours is {t_np / t_ours:,.0f}x faster")
    if jax is not None:
        jf = jax.jit(loop(jax.lax, jnp))
        _ready(jf(n, x0))
        t_jax = median_time(lambda: _ready(jf(n, x0)), repeat=7)
        row("jax.jit while_loop", t_jax, None, f"ours is {t_jax / t_ours:.2f}x faster")
    print(f"  per iteration: {t_ours / N * 1e9:.2f} ns")


def fori_array():
    """1000 iterations of an elementwise update of a 4096-element carry."""
    x = np.linspace(-1, 1, 4096, dtype=np.float32)
    for label, update in (("v * 0.9 + x", lambda np_, v, x: v * np_.float32(0.9) + x),
                          ("v * 0.9 + exp(x)  (exp(x) is loop-invariant)",
                           lambda np_, v, x: v * np_.float32(0.9) + np_.exp(x)),
                          ("tanh(v) * 0.9 + x",
                           lambda np_, v, x: np_.tanh(v) * np_.float32(0.9) + x)):
        print(f"\nfori_loop, 1000 iterations of v = {label} on f32[4096]")

        def body(np_, lax, update=update):
            def f(x):
                return lax.fori_loop(0, 1000, lambda i, v: update(np_, v, x), x)
            return f
        ours = tp.jit(body(tnp, tp.lax))
        _ready(ours(x))
        t_ours = median_time(ours, x, repeat=7)
        row("transpile.jit fori_loop", t_ours)

        def numpy_loop(x, update=update):
            v = x
            for _ in range(1000):
                v = update(np, v, x)
            return v
        np.testing.assert_allclose(np.asarray(ours(x)), numpy_loop(x), rtol=1e-5,
                                   atol=1e-5)
        t_np = median_time(numpy_loop, x, repeat=5)
        row("NumPy, a Python loop of array ops", t_np, None,
            f"ours is {t_np / t_ours:.1f}x faster")
        if jax is not None:
            jf = jax.jit(body(jnp, jax.lax))
            _ready(jf(x))
            t_jax = median_time(lambda: _ready(jf(x)), repeat=7)
            row("jax.jit fori_loop", t_jax, None, f"ours is {t_jax / t_ours:.2f}x faster")


def scan_1m():
    """A linear recurrence over a million elements: y[t] = c; c = 0.9 c + x[t]."""
    print(f"\nscan over {N:,} scalars: (c, x) -> (0.9 c + x, c)")

    def f_of(lax):
        def f(xs):
            return lax.scan(lambda c, x: (c * np.float32(0.9) + x, c), np.float32(0), xs)
        return f
    ours = tp.jit(f_of(tp.lax))
    xs = np.random.default_rng(0).standard_normal(N).astype(np.float32)
    _ready(ours(xs)[1])
    t_ours = median_time(lambda: ours(xs), repeat=7)
    row("transpile.jit scan", t_ours)

    def numpy_loop(xs):
        ys = np.empty_like(xs)
        c = np.float32(0)
        for t in range(len(xs)):
            ys[t] = c
            c = c * np.float32(0.9) + xs[t]
        return c, ys
    c, ys = ours(xs)
    wc, wys = numpy_loop(xs)
    np.testing.assert_allclose(np.asarray(ys), wys, rtol=1e-4, atol=1e-4)
    t_np = median_time(numpy_loop, xs, repeat=3, warmup=1)
    row("NumPy scalars in a Python loop", t_np, None, f"ours is {t_np / t_ours:,.0f}x faster")
    if jax is not None:
        jf = jax.jit(f_of(jax.lax))
        _ready(jf(xs)[1])
        t_jax = median_time(lambda: _ready(jf(xs)[1]), repeat=7)
        row("jax.jit scan", t_jax, None, f"ours is {t_jax / t_ours:.2f}x faster")


def index_loops():
    """x[i] reads and in-place .at[j].add updates inside loops."""
    n = N
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    cases = (
        (f"fori_loop over {n:,} steps of c = max(c, x[i]) * 0.999",
         lambda lax, np_: lambda x: lax.fori_loop(
             0, n, lambda i, c: np_.maximum(c, x[i]) * np.float32(0.999), np.float32(-1e30))),
        (f"1000 x c.at[j].add(1) on a carry of {n:,} f32 (in place)",
         lambda lax, np_: lambda x: lax.fori_loop(
             0, 1000, lambda i, c: c.at[(i * 7919) % n].add(1.0), x)))
    for label, make in cases:
        print(f"\n{label}")
        ours = tp.jit(make(tp.lax, tnp))
        _ready(ours(x))
        t_ours = median_time(ours, x, repeat=7)
        row("transpile.jit", t_ours)
        if jax is not None:
            jf = jax.jit(make(jax.lax, jnp))
            np.testing.assert_allclose(np.asarray(ours(x)), np.asarray(jf(x)), rtol=1e-5)
            t_jax = median_time(lambda: _ready(jf(x)), repeat=7)
            row("jax.jit", t_jax, None, f"ours is {t_jax / t_ours:.2f}x faster")


SECTIONS = {"while_1m": while_1m, "fori_array": fori_array, "scan_1m": scan_1m,
            "index_loops": index_loops}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(SECTIONS):
        SECTIONS[name]()
