"""Benchmarks of the C backend (issue 3), every contender timed in the same process.

Run from the repository root:

    python benchmarks/bench_backend.py            # all sections
    python benchmarks/bench_backend.py overhead selu

JAX (and Numba) are timed when importable; they are not dependencies. To include JAX,
run this script with an interpreter that has it, e.g. a scratch virtualenv with
``pip install jax==0.10.2 cffi jinja2`` and ``PYTHONPATH=.``. Prints medians and ratios.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("TRANSPILE_CACHE_DIR", os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build_cache"))

import transpile as tp  # noqa: E402
import transpile.numpy as tnp  # noqa: E402

try:
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_platform_name", "cpu")
except ImportError:
    jax = jnp = None

N16M = 16 * 1024 * 1024


def median_time(fn, *args, repeat=11, number=1, warmup=2) -> float:
    for _ in range(warmup):
        fn(*args)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn(*args)
        times.append((time.perf_counter() - t0) / number)
    times.sort()
    return times[len(times) // 2]


def row(label, seconds, base=None, extra=""):
    ratio = f"{base / seconds:8.2f}x" if base else " " * 9
    print(f"  {label:38s} {seconds * 1e3:10.4f} ms {ratio} {extra}")


def _ready(x):
    return x.block_until_ready() if hasattr(x, "block_until_ready") else x


# ---------------------------------------------------------------------------------------

def overhead():
    print("Cached call overhead: jit(lambda x: sin(x) + cos(x)) on 9 float32")
    x = np.linspace(0, 1, 9, dtype=np.float32)
    f = tp.jit(lambda v: tnp.sin(v) + tnp.cos(v))
    xa = tnp.asarray(x)
    f(xa)
    t_tp = median_time(f, xa, number=20000, repeat=7)
    print(f"  transpile (Array input)                {t_tp * 1e6:8.2f} us")
    t_np = median_time(f, x, number=20000, repeat=7)
    print(f"  transpile (NumPy input)                {t_np * 1e6:8.2f} us")
    t_ref = median_time(lambda v: np.sin(v) + np.cos(v), x, number=20000, repeat=7)
    print(f"  NumPy sin+cos (no jit)                 {t_ref * 1e6:8.2f} us")
    if jax is not None:
        g = jax.jit(lambda v: jnp.sin(v) + jnp.cos(v))
        xj = jnp.asarray(x)
        g(xj).block_until_ready()
        t_j = median_time(lambda v: g(v), xj, number=20000, repeat=7)
        print(f"  JAX jit                                {t_j * 1e6:8.2f} us  "
              f"(transpile is {t_j / t_tp:.2f}x JAX's speed)")


_COPY_C = r"""
#include <stdint.h>
void copy_scale(const float *restrict x, float *restrict y, int64_t n) {
    #pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; i++) y[i] = x[i];
}
"""


def _copy_baseline():
    import cffi
    d = tempfile.mkdtemp()
    src = os.path.join(d, "copy.c")
    with open(src, "w") as fh:
        fh.write(_COPY_C)
    so = os.path.join(d, "libcopy.so")
    subprocess.run(["cc", "-O3", "-march=native", "-fopenmp", "-shared", "-fPIC", src,
                    "-o", so], check=True)
    ffi = cffi.FFI()
    ffi.cdef("void copy_scale(void *x, void *y, int64_t n);")
    return ffi, ffi.dlopen(so)


def bandwidth():
    print("Memory-bound fused kernels on 16M float32")
    ffi, lib = _copy_baseline()
    x = np.random.default_rng(0).standard_normal(N16M).astype(np.float32)
    b = np.random.default_rng(1).standard_normal(N16M).astype(np.float32)
    y = np.empty_like(x)
    y[:] = 0
    t_copy = median_time(lambda: lib.copy_scale(ffi.from_buffer(x), ffi.from_buffer(y),
                                                N16M))
    t_copy_fresh = median_time(lambda: lib.copy_scale(
        ffi.from_buffer(x), ffi.from_buffer(np.empty_like(x)), N16M))
    gbs = 2 * x.nbytes / t_copy / 1e9
    print(f"  C copy loop, touched output: {t_copy * 1e3:.3f} ms ({gbs:.1f} GB/s); "
          f"fresh output: {t_copy_fresh * 1e3:.3f} ms "
          f"({2 * x.nbytes / t_copy_fresh / 1e9:.1f} GB/s)")
    xa, ba = tnp.asarray(x), tnp.asarray(b)
    for label, fn, args, nbytes in (
            ("2*x + 1", lambda v: 2 * v + 1, (xa,), 2 * x.nbytes),
            ("triad a + s*b", lambda a, c: a + 3.0 * c, (xa, ba), 3 * x.nbytes)):
        f = tp.jit(fn)
        t = median_time(f, *args)
        floor = t_copy * nbytes / (2 * x.nbytes)
        print(f"  transpile {label:20s} {t * 1e3:8.3f} ms  {nbytes / t / 1e9:6.1f} GB/s  "
              f"{floor / t * 100:5.1f}% of copy bandwidth")
        t_np = median_time(lambda *a: fn(*[np.asarray(v) for v in a]), *args)
        print(f"  NumPy     {label:20s} {t_np * 1e3:8.3f} ms")
        if jax is not None:
            g = jax.jit(fn)
            ja = [jnp.asarray(np.asarray(v)) for v in args]
            tj = median_time(lambda *a: g(*a).block_until_ready(), *ja)
            print(f"  JAX       {label:20s} {tj * 1e3:8.3f} ms  "
                  f"{floor / tj * 100:5.1f}% of copy bandwidth")


def selu():
    print("selu on 16M float32")

    def selu_fn(np_):
        return lambda v: 1.05 * np_.where(v > 0, v, 1.67 * np_.exp(v) - 1.67)
    x = np.random.default_rng(0).standard_normal(N16M).astype(np.float32)
    f = tp.jit(selu_fn(tnp))
    xa = tnp.asarray(x)
    t = median_time(f, xa)
    row("transpile", t)
    t_np = median_time(selu_fn(np), x, repeat=5)
    row("NumPy", t_np, extra=f"(transpile {t_np / t:.1f}x faster)")
    if jax is not None:
        g = jax.jit(selu_fn(jnp))
        xj = jnp.asarray(x)
        tj = median_time(lambda v: g(v).block_until_ready(), xj)
        row("JAX jit", tj, extra=f"(transpile {tj / t:.1f}x faster)")


def reduction():
    print("sum(x**2 - x**3 - x) on 16M float32")
    x = (np.random.default_rng(0).standard_normal(N16M) * 0.5).astype(np.float32)

    def fn(np_):
        return lambda v: np_.sum(v ** 2 - v ** 3 - v)
    f = tp.jit(fn(tnp))
    xa = tnp.asarray(x)
    t = median_time(f, xa)
    row("transpile", t, extra=f"= {float(f(xa))!r}")
    t_np = median_time(fn(np), x, repeat=5)
    row("NumPy", t_np)
    if jax is not None:
        g = jax.jit(fn(jnp))
        xj = jnp.asarray(x)
        tj = median_time(lambda v: g(v).block_until_ready(), xj)
        row("JAX jit", tj, extra=f"(transpile {tj / t:.2f}x faster)")
    code = textwrap.dedent("""
        import numpy as np, transpile as tp, transpile.numpy as tnp
        x = (np.random.default_rng(0).standard_normal(16 * 1024 * 1024) * 0.5)
        x = x.astype(np.float32)
        print(np.asarray(tp.jit(lambda v: tnp.sum(v ** 2 - v ** 3 - v))(x)).tobytes().hex())
    """)
    bits = {}
    for threads in ("1", "2"):
        env = dict(os.environ, OMP_NUM_THREADS=threads, PYTHONPATH=os.getcwd())
        bits[threads] = subprocess.run([sys.executable, "-c", code], env=env,
                                       capture_output=True, text=True,
                                       check=True).stdout.strip()
    print(f"  bits with 1 thread {bits['1']}, with 2 threads {bits['2']}: "
          f"{'identical' if bits['1'] == bits['2'] else 'DIFFERENT'}")


def matmul():
    print("float32 matmul 1024x1024x1024 via jnp.dot")
    n = 1024
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    flop = 2 * n ** 3
    f = tp.jit(tnp.dot)
    aa, ba = tnp.asarray(a), tnp.asarray(b)
    t = median_time(f, aa, ba)
    t_np = median_time(np.dot, a, b)
    best = t_np
    print(f"  transpile {flop / t / 1e9:7.1f} GFLOP/s   NumPy {flop / t_np / 1e9:7.1f} GFLOP/s")
    if jax is not None:
        g = jax.jit(jnp.dot)
        aj, bj = jnp.asarray(a), jnp.asarray(b)
        tj = median_time(lambda p, q: g(p, q).block_until_ready(), aj, bj)
        best = min(best, tj)
        print(f"  JAX       {flop / tj / 1e9:7.1f} GFLOP/s")
    print(f"  transpile reaches {best / t * 100:.0f}% of the best contender; "
          f"machine peak about 530 GFLOP/s (2 cores x AVX2 FMA)")


def compile_latency():
    print("Compile latency of selu")
    with tempfile.TemporaryDirectory() as d:
        code = textwrap.dedent("""
            import time, numpy as np
            t0 = time.perf_counter()
            import transpile as tp, transpile.numpy as tnp
            t1 = time.perf_counter()
            f = tp.jit(lambda v: 1.05 * tnp.where(v > 0, v, 1.67 * tnp.exp(v) - 1.67))
            f(np.ones(1000, np.float32)).block_until_ready()
            t2 = time.perf_counter()
            print(f"{t1 - t0:.4f} {t2 - t1:.4f}")
        """)
        env = dict(os.environ, TRANSPILE_CACHE_DIR=d, PYTHONPATH=os.getcwd())
        cold = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, check=True).stdout.split()
        warm = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                               text=True, check=True).stdout.split() for _ in range(5)]
        warm_first = sorted(float(w[1]) for w in warm)[2]
        print(f"  cold (trace + compile + first call): {float(cold[1]):.3f} s "
              f"(import {float(cold[0]):.3f} s)")
        print(f"  warm disk cache, first call after import in a fresh process: "
              f"{warm_first * 1e3:.1f} ms (median of 5 processes)")


SECTIONS = {"overhead": overhead, "bandwidth": bandwidth, "selu": selu,
            "reduction": reduction, "matmul": matmul, "compile": compile_latency}

if __name__ == "__main__":
    names = sys.argv[1:] or list(SECTIONS)
    print(f"transpile {tp.__version__}; NumPy {np.__version__}; "
          f"JAX {jax.__version__ if jax else 'not installed'}; {os.cpu_count()} CPUs")
    for name in names:
        SECTIONS[name]()
        print()
