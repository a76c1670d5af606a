"""Benchmark of runtime/tp_matmul.h (tp_gemm_f32 / tp_gemm_f64) against numpy.dot and, when
importable, a jitted jax.numpy.dot.

    python benchmarks/bench_matmul_kernel.py [--sizes 256,512,1024,2048]
        [--shapes 1x1024x1024,1024x1x1024,9x9x9,64x64x64] [--repeats 7] [--threads 1,2]
        [--dtypes float32,float64] [--no-jax]

The header is compiled with the flags of generated code. The kernel's thread count is set
with omp_set_num_threads; NumPy's BLAS and XLA use their own pools (all cores), so the ratio
column compares the kernel's best thread count with the best contender at full width. Each
timing is the median over repeats of a batch of back-to-back calls. The machine peak is
estimated by timing a register-only FMA loop compiled alongside. Figures from a loaded
machine mean little: the load average is printed first.
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "runtime"
FLAGS = ["-std=c99", "-O3", "-march=native", "-fno-math-errno", "-fopenmp", "-fPIC", "-shared"]

C_SOURCE = r"""
#include "tp_matmul.h"
#include <omp.h>

void bench_set_threads(int n) { omp_set_num_threads(n); }

#define WRAP(T, SFX)                                                                        \
int64_t bench_ws_##SFX(int64_t m, int64_t n, int64_t k)                                     \
{ return tp_gemm_workspace_bytes_##SFX(m, n, k); }                                          \
/* seconds per call, over reps back-to-back calls on row-major operands */                  \
double bench_gemm_##SFX(int64_t m, int64_t n, int64_t k, const T *a, const T *b, T *c,      \
                        void *ws, int reps)                                                 \
{                                                                                           \
    double t0 = omp_get_wtime();                                                            \
    int r;                                                                                  \
    for (r = 0; r < reps; r++) tp_gemm_##SFX(m, n, k, a, k, 1, b, n, 1, c, n, ws);          \
    return (omp_get_wtime() - t0) / reps;                                                   \
}
WRAP(float, f32)
WRAP(double, f64)

typedef float bench_v8sf __attribute__((vector_size(32)));

/* FMA throughput, one loop per thread: 12 independent chains cover the latency. */
double bench_peak_gflops(int nthreads, int sizeof_elem)
{
    double total = 0;
    const long iters = 20000000;
    #pragma omp parallel num_threads(nthreads) reduction(+:total)
    {
#if defined(__FMA__) && defined(__AVX__)
        bench_v8sf x = {0}, y = {0}, acc[12];
        double t0, t;
        long it;
        int i;
        x += 0.999f;
        y += 1e-6f;
        for (i = 0; i < 12; i++) acc[i] = x * (float)i;
        t0 = omp_get_wtime();
        for (it = 0; it < iters; it++)
            for (i = 0; i < 12; i++) acc[i] = __builtin_ia32_vfmaddps256(acc[i], x, y);
        t = omp_get_wtime() - t0;
        for (i = 1; i < 12; i++) acc[0] += acc[i];
        total += iters * 12.0 * 16.0 / t / 1e9 + 0.0 * acc[0][0];
#endif
    }
    return total * 4.0 / sizeof_elem;
}
"""

CDEF = """
void bench_set_threads(int n);
int64_t bench_ws_f32(int64_t m, int64_t n, int64_t k);
int64_t bench_ws_f64(int64_t m, int64_t n, int64_t k);
double bench_gemm_f32(int64_t m, int64_t n, int64_t k, const float *a, const float *b, float *c,
                      void *ws, int reps);
double bench_gemm_f64(int64_t m, int64_t n, int64_t k, const double *a, const double *b,
                      double *c, void *ws, int reps);
double bench_peak_gflops(int nthreads, int sizeof_elem);
"""


def build(tmp):
    import cffi
    src = pathlib.Path(tmp) / "bench_gemm.c"
    lib = pathlib.Path(tmp) / "bench_gemm.so"
    src.write_text(C_SOURCE)
    t0 = time.perf_counter()
    subprocess.run(["gcc", *FLAGS, "-I", str(RUNTIME), str(src), "-o", str(lib)], check=True)
    print(f"compiled the benchmark library in {time.perf_counter() - t0:.2f} s")
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    return ffi, ffi.dlopen(str(lib))


def aligned_bytes(nbytes):
    buf = np.zeros(nbytes + 64, np.uint8)
    off = (-buf.ctypes.data) % 64
    return buf[off:off + nbytes]


def settle():
    # OpenMP and OpenBLAS workers spin for a while after a call; let them go idle so that
    # one contender's pool does not take the cores from the next.
    time.sleep(0.2)


def batch(flop):
    return max(1, int(3e8 / flop))   # calls per timing: tens of ms at the least


def median_time(fn, flop, repeats):
    settle()
    fn()
    reps = batch(flop)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        times.append((time.perf_counter() - t0) / reps)
    return statistics.median(times)


def jax_dot():
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None
    jax.config.update("jax_enable_x64", True)
    f = jax.jit(jnp.dot)

    def run(a, b):
        a, b = jnp.asarray(a), jnp.asarray(b)
        return lambda: f(a, b).block_until_ready()
    return run


def parse_shapes(args):
    shapes = [(n, n, n) for n in (int(s) for s in args.sizes.split(",") if s)]
    shapes += [tuple(int(d) for d in s.split("x")) for s in args.shapes.split(",") if s]
    return shapes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="256,512,1024,2048")
    ap.add_argument("--shapes", default="1x1024x1024,1024x1x1024,9x9x9,64x64x64")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--dtypes", default="float32,float64")
    ap.add_argument("--no-jax", action="store_true")
    args = ap.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    jd = None if args.no_jax else jax_dot()
    print(f"cpus: {os.cpu_count()}   load average: {os.getloadavg()[0]:.2f}   "
          f"jax: {'yes' if jd else 'not importable'}")
    with tempfile.TemporaryDirectory() as tmp:
        ffi, lib = build(tmp)
        for nt in sorted(set(threads) | {os.cpu_count() or 1}):
            peak = max(lib.bench_peak_gflops(nt, 4) for _ in range(3))   # least disturbed
            print(f"estimated peak, {nt} thread(s): f32 {peak:.0f} GFLOP/s, "
                  f"f64 {peak / 2:.0f} GFLOP/s")
        rng = np.random.default_rng(0)
        print("GFLOP/s, median of repeats; ratio = best tp / best of numpy and jax")
        print(f"{'dtype':8} {'shape':>16} " + " ".join(f"{'tp ' + str(t) + 'T':>8}"
                                                     for t in threads)
              + f" {'numpy':>8} {'jax':>8} {'ratio':>6}")
        for dname in args.dtypes.split(","):
            dt = np.dtype(dname)
            sfx = "f32" if dt == np.float32 else "f64"
            gemm = getattr(lib, "bench_gemm_" + sfx)
            ctype = "float *" if sfx == "f32" else "double *"
            for m, n, k in parse_shapes(args):
                a = rng.standard_normal((m, k)).astype(dt)
                b = rng.standard_normal((k, n)).astype(dt)
                c = np.empty((m, n), dt)
                ws = aligned_bytes(getattr(lib, "bench_ws_" + sfx)(m, n, k))
                pa, pb = ffi.cast(ctype, a.ctypes.data), ffi.cast(ctype, b.ctypes.data)
                pc, pw = ffi.cast(ctype, c.ctypes.data), ffi.cast("void *", ws.ctypes.data)
                flop = 2.0 * m * n * k
                tp = []
                for nt in threads:
                    lib.bench_set_threads(nt)
                    settle()
                    gemm(m, n, k, pa, pb, pc, pw, 1)
                    ts = [gemm(m, n, k, pa, pb, pc, pw, batch(flop))
                          for _ in range(args.repeats)]
                    tp.append(flop / statistics.median(ts) / 1e9)
                ref = a.astype(np.float64) @ b.astype(np.float64)
                err = np.max(np.abs(c - ref)) / (np.max(np.abs(ref)) + 1e-300)
                assert err < 1e-4, f"wrong result: relative error {err}"
                tnp = flop / median_time(lambda: np.dot(a, b), flop, args.repeats) / 1e9
                tjx = (flop / median_time(jd(a, b), flop, args.repeats) / 1e9
                       if jd else float("nan"))
                best = max(tnp, tjx) if jd else tnp
                print(f"{dname:8} {f'{m}x{n}x{k}':>16} " + " ".join(f"{g:8.1f}" for g in tp)
                      + f" {tnp:8.1f} {tjx:8.1f} {max(tp) / best:6.2f}", flush=True)


if __name__ == "__main__":
    main()
