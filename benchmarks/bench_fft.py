"""FFT benchmark of issue 21: transpile's fft kernel against JAX's, medians of jitted
calls, ratio = JAX time / transpile time (> 1: transpile is faster).

Run from the repository root (JAX from the scratch virtualenv):

    PYTHONPATH=. $JAX_PYTHON benchmarks/bench_fft.py

The two contenders' calls are interleaved (bench_busy's rotating order), so a change of
load hits both alike. Besides wall-clock medians it prints each side's median CPU time
per call (all its threads): on a machine shared with other work the wall clock swings
with the load, the CPU time much less.
"""
from __future__ import annotations

import time

import numpy as np

from bench_backend import _ready, jax, jnp, tnp, tp
from bench_busy import _medians


def _c64(*shape, seed=0):
    r = np.random.default_rng(seed)
    return (r.standard_normal(shape) + 1j * r.standard_normal(shape)).astype(np.complex64)


CASES = [
    ("fft 1D 2^20 complex64", _c64(1 << 20), lambda m: m.fft.fft),
    ("fft2 batched 16x256x256 complex64", _c64(16, 256, 256), lambda m: m.fft.fft2),
    ("rfft 1D 2^20 float32", _c64(1 << 20).real.copy(), lambda m: m.fft.rfft),
    ("fft 1D 1000 x 64 (radix 2/5)", _c64(64, 1000), lambda m: m.fft.fft),
    ("fft 1D 1031 x 64 (Bluestein)", _c64(64, 1031), lambda m: m.fft.fft),
]


def _cpu_ms(fn, repeat=15):
    """Median process CPU time of a call, in ms."""
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return float(np.median(times)) * 1e3


def main():
    print(f"{'case':40s} {'transpile ms':>13s} {'JAX ms':>9s} {'ratio':>7s} "
          f"{'CPU ms tp / JAX':>16s}")
    for name, x, fn in CASES:
        f = tp.jit(fn(tnp))
        a = tnp.asarray(x)
        fns = [lambda: _ready(f(a))]
        if jax:
            g = jax.jit(fn(jnp))
            b = jnp.asarray(x)
            fns.append(lambda: _ready(g(b)))
        times = _medians(fns, repeat=21) + [float("nan")]
        t_tp, t_jax = times[0], times[1]
        c_tp = _cpu_ms(fns[0])
        c_jax = _cpu_ms(fns[1]) if jax else float("nan")
        print(f"{name:40s} {t_tp * 1e3:13.2f} {t_jax * 1e3:9.2f} {t_jax / t_tp:7.2f} "
              f"{c_tp:8.2f} / {c_jax:5.2f}")

if __name__ == "__main__":
    main()
