"""Issue 20: linear algebra, transpile vs JAX (LAPACK on CPU) vs NumPy (LAPACK).

Run from the repository root with an interpreter that has JAX (``$JAX_PYTHON``, a scratch virtualenv with JAX 0.10.2):

    PYTHONPATH=. $JAX_PYTHON benchmarks/bench_linalg.py [n]

``jit``-compiled ``jnp.linalg.solve`` (one right-hand side), ``eigh`` and (when
transpile has it) ``svd`` of an ``n x n`` matrix (256 by default), float32 and float64;
then ``svd`` of a complex64 and a complex128 matrix.
Every contender runs in this one process, calls interleaved; the figures are medians.
Ratios are JAX time / transpile time (above 1: transpile is faster).
"""
from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_backend import _ready, jax, jnp, tnp, tp  # noqa: E402
from transpile.config import enable_x64  # noqa: E402


def _block(out):
    for leaf in (out if isinstance(out, tuple) else (out,)):
        _ready(leaf)


def _medians(fns, repeat=int(os.environ.get("BENCH_REPEAT", 15)), warmup=2):
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


def _cases(n, dtype):
    rng = np.random.default_rng(0)
    m = rng.standard_normal((n, n))
    a = (m + n * np.eye(n)).astype(dtype)
    s = (m + m.T).astype(dtype)
    b = rng.standard_normal(n).astype(dtype)
    cases = [("solve", (a, b), lambda L: L.solve, np.linalg.solve),
             ("eigh", (s,), lambda L: L.eigh, np.linalg.eigh)]
    if np.dtype(dtype).kind == "c":  # complex: svd only
        c = (m + 1j * rng.standard_normal((n, n))).astype(dtype)
        return [("svd", (c,), lambda L: L.svd, np.linalg.svd)]
    if hasattr(tnp.linalg, "svd"):
        cases.append(("svd", (a,), lambda L: L.svd, np.linalg.svd))
    return cases


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    jax.config.update("jax_enable_x64", True)
    print(f"n = {n}; medians in ms; ratio = JAX / transpile")
    print(f"{'op':8} {'dtype':8} {'transpile':>10} {'JAX':>10} {'NumPy':>10} {'ratio':>7}")
    for dtype in (np.float32, np.float64, np.complex64, np.complex128):
        for name, args, pick, np_fn in _cases(n, dtype):
            with enable_x64(dtype in (np.float64, np.complex128)):
                f_tp = tp.jit(pick(tnp.linalg))
                f_tp(*args)
                f_jax = jax.jit(pick(jnp.linalg))
                ja = [jnp.asarray(x) for x in args]
                t_tp, t_jax, t_np = _medians([
                    lambda: _block(f_tp(*args)), lambda: _block(f_jax(*ja)),
                    lambda: np_fn(*args)])
            print(f"{name:8} {np.dtype(dtype).name:8} {t_tp * 1e3:10.2f} "
                  f"{t_jax * 1e3:10.2f} {t_np * 1e3:10.2f} {t_jax / t_tp:7.2f}")


if __name__ == "__main__":
    main()
