"""Benchmarks of the CUDA backend (issue 9) on an NVIDIA GPU, every contender timed in one
process.

Run from the repository root on a machine with a GPU and nvcc:

    python benchmarks/bench_cuda.py            # all sections
    python benchmarks/bench_cuda.py selu sum

Each section times the jitted function with its inputs already on the device, as the
median of many calls each synchronised (``block_until_ready``), and prints it with the
figure the issue asks for:

- ``copy``: device-to-device copy bandwidth of the card (bytes read + written / time),
  measured with ``cudaMemcpyAsync`` through the same runtime, the reference of the
  bandwidth targets;
- ``selu``: jit(selu) on 64M float32: bytes moved / time as a fraction of ``copy``
  (target 70%);
- ``sum``: jnp.sum on 64M float32: bytes read / time as a fraction of ``copy``
  (target 60%);
- ``matmul``: float32 4096^3 against cuBLAS through CuPy or PyTorch when importable
  (target 30%), TF32 off on both sides.

Where JAX with a GPU backend is importable, each section also times ``jax.jit`` of the
same function on the same card (TF32 off: ``jax_default_matmul_precision="highest"``;
no preallocation, so the contenders share the card's memory) and prints its ratio.

Without a GPU it says why and exits with status 0.
"""
from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# before any contender initialises CUDA: JAX would otherwise take 75% of the card, and
# CuPy reads its TF32 switch once
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
os.environ["CUPY_TF32"] = "0"
os.environ.setdefault("TRANSPILE_CACHE_DIR", os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build_cache"))

import transpile as tp  # noqa: E402
import transpile.numpy as tnp  # noqa: E402
from transpile.memory import cuda_runtime  # noqa: E402

N64M = 64 * 1024 * 1024


def gpu_median(fn, repeat=21, warmup=3) -> float:
    """Median seconds of ``fn()`` including the wait for the GPU."""
    for _ in range(warmup):
        _sync(fn())
    times = []
    for _ in range(repeat):
        cuda_runtime.synchronize()
        t0 = time.perf_counter()
        _sync(fn())
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2]


def gpu_queued(fn, calls=50) -> float:
    """Seconds per call of ``calls`` calls queued back to back with one wait at the end:
    the host's dispatch overlaps the GPU's work, as in a training loop."""
    _sync(fn())
    cuda_runtime.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        r = fn()
    _sync(r)
    return (time.perf_counter() - t0) / calls


def host_median(fn, repeat=21) -> float:
    """Median seconds until ``fn()`` returns, the GPU's work not waited for (waited
    for outside the timing): the host's dispatch, allocations and launches."""
    times = []
    for _ in range(repeat):
        _sync(fn())
        t0 = time.perf_counter()
        r = fn()
        times.append(time.perf_counter() - t0)
        _sync(r)
    times.sort()
    return times[len(times) // 2]


def _sync(x):
    """Wait for ``x`` as a user would: ``block_until_ready`` on its arrays (one wait
    for the device), or a device synchronisation when it holds none."""
    waited = False
    for leaf in tp.tree_util.tree_leaves(x):
        if hasattr(leaf, "block_until_ready"):
            leaf.block_until_ready()
            waited = True
    if not waited:
        cuda_runtime.synchronize()


def row(label, seconds, extra=""):
    print(f"  {label:44s} {seconds * 1e3:10.4f} ms  {extra}")


_JAX: list = []


def _jax():
    """``(jax, jax.numpy, gpu device)`` when JAX has a GPU backend here, else None."""
    if not _JAX:
        try:
            import jax
            import jax.numpy as jnp
            jax.config.update("jax_default_matmul_precision", "highest")
            gpus = [d for d in jax.devices() if d.platform == "gpu"]
            _JAX.append((jax, jnp, gpus[0]) if gpus else None)
            if not gpus:
                print("  (JAX has no GPU backend here: no JAX figures)")
        except Exception as e:  # noqa: BLE001 - any failure only drops the contender
            print(f"  (JAX is not usable here: {type(e).__name__}: {e})")
            _JAX.append(None)
    return _JAX[0]


def synced_median(fn, sync, repeat=21) -> float:
    """Median seconds of ``fn(); sync()`` for another library's ``fn``."""
    for _ in range(3):
        fn()
    sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2]


def timed_contender(label, fn, sync, ours, work, unit, ours_queued):
    """Print per-call (synchronised) and queued rows of another library's ``fn``,
    with the ratios its time / ours."""
    t = synced_median(fn, sync)
    row(label, t, f"{work / t / 1e9:8.1f} {unit}; {label.split()[0]}/ours = {t / ours:.2f}x")
    t0 = time.perf_counter()
    for _ in range(50):
        fn()
    sync()
    tq = (time.perf_counter() - t0) / 50
    row(f"{label}, 50 calls queued", tq,
        f"{work / tq / 1e9:8.1f} {unit}; {label.split()[0]}/ours = {tq / ours_queued:.2f}x")


def cupy_row(make, host, ours, work, unit, ours_queued):
    """Time CuPy's ``make(cupy)`` on ``host`` placed on the GPU, when CuPy is importable."""
    try:
        import cupy
    except ImportError:
        return
    try:
        fn = make(cupy)
        x = cupy.asarray(host)
        timed_contender(f"CuPy {cupy.__version__}", lambda: fn(x),
                        cupy.cuda.Device().synchronize, ours, work, unit, ours_queued)
    except Exception as e:  # noqa: BLE001 - any failure only drops the contender
        print(f"  (CuPy failed: {type(e).__name__}: {e})")


def jax_row(make, host_args, ours, work=None, unit="", ours_queued=None):
    """Time ``jax.jit(make(jnp))`` on ``host_args`` placed on JAX's GPU and print it
    with the ratio JAX time / ours (above 1: ours is faster); with ``ours_queued``, also
    50 calls queued back to back against ours so."""
    j = _jax()
    if j is None:
        return
    jax, jnp, dev = j
    f = jax.jit(make(jnp))
    args = [jax.device_put(a, dev) for a in host_args]
    for _ in range(3):
        f(*args).block_until_ready()
    times = []
    for _ in range(21):
        t0 = time.perf_counter()
        f(*args).block_until_ready()
        times.append(time.perf_counter() - t0)
    t = sorted(times)[len(times) // 2]
    rate = f"{work / t / 1e9:8.1f} {unit}; " if work else ""
    row(f"jax.jit ({jax.__version__}, {dev.device_kind})", t,
        f"{rate}JAX/ours = {t / ours:.2f}x")
    if ours_queued is not None:
        f(*args).block_until_ready()
        t0 = time.perf_counter()
        for _ in range(50):
            r = f(*args)
        r.block_until_ready()
        tq = (time.perf_counter() - t0) / 50
        rate = f"{work / tq / 1e9:8.1f} {unit}; " if work else ""
        row("jax.jit, 50 calls queued", tq, f"{rate}JAX/ours = {tq / ours_queued:.2f}x")


_COPY_BW: list = []


def copy():
    """Device-to-device copy bandwidth (the reference of the bandwidth targets)."""
    nbytes = N64M * 4
    src = cuda_runtime.malloc(nbytes)
    dst = cuda_runtime.malloc(nbytes)
    try:
        t = gpu_median(lambda: cuda_runtime.copy_device_to_device(dst, src, nbytes))
    finally:
        cuda_runtime.free(src)
        cuda_runtime.free(dst)
    bw = 2 * nbytes / t
    _COPY_BW.append(bw)
    print(f"\ndevice-to-device copy of {nbytes >> 20} MiB "
          f"({cuda_runtime.device_name(0)})")
    row("cudaMemcpyAsync", t, f"{bw / 1e9:8.1f} GB/s (read + write)")
    row("cudaDeviceSynchronize of an idle GPU", gpu_median(lambda: None, repeat=51))
    return bw


def _copy_bw():
    return _COPY_BW[0] if _COPY_BW else copy()


def selu():
    bw = _copy_bw()
    host = np.random.default_rng(0).standard_normal(N64M).astype(np.float32)
    x = tp.device_put(host, tp.devices("cuda")[0])

    def make(np_):
        return lambda v: 1.0507 * np_.where(v > 0, v, 1.67326 * (np_.exp(v) - 1))
    f = tp.jit(make(tnp))
    t = gpu_median(lambda: f(x))
    moved = 2 * N64M * 4
    print(f"\nselu on {N64M >> 20}M float32")
    row("transpile.jit (cuda)", t, f"{moved / t / 1e9:8.1f} GB/s = "
                                   f"{moved / t / bw:.0%} of copy (target 70%)")
    tq = gpu_queued(lambda: f(x))
    row("transpile.jit (cuda), 50 calls queued", tq, f"{moved / tq / 1e9:8.1f} GB/s = "
                                                    f"{moved / tq / bw:.0%} of copy")
    row("  of which the host, until the call returns", host_median(lambda: f(x)))
    jax_row(make, [host], t, moved, "GB/s", tq)
    def cupy_selu(cp):
        def selu(v):  # a named function: cupy.fuse names its kernel after it
            return make(cp)(v)
        return cp.fuse(selu)
    cupy_row(cupy_selu, host, t, moved, "GB/s", tq)


def sum_():
    bw = _copy_bw()
    host = np.random.default_rng(0).standard_normal(N64M).astype(np.float32)
    x = tp.device_put(host, tp.devices("cuda")[0])
    f = tp.jit(tnp.sum)
    t = gpu_median(lambda: f(x))
    read = N64M * 4
    print(f"\nsum of {N64M >> 20}M float32")
    row("transpile.jit (cuda)", t, f"{read / t / 1e9:8.1f} GB/s = "
                                   f"{read / t / bw:.0%} of copy (target 60%)")
    tq = gpu_queued(lambda: f(x))
    row("transpile.jit (cuda), 50 calls queued", tq, f"{read / tq / 1e9:8.1f} GB/s = "
                                                    f"{read / tq / bw:.0%} of copy")
    row("  of which the host, until the call returns", host_median(lambda: f(x)))
    jax_row(lambda np_: np_.sum, [host], t, read, "GB/s", tq)
    cupy_row(lambda cp: cp.sum, host, t, read, "GB/s", tq)


def _cublas_matmul(a, b):
    """cuBLAS float32 (no TF32) through CuPy or PyTorch, or None."""
    try:
        import cupy
        ca, cb = cupy.asarray(a), cupy.asarray(b)
        return "cuBLAS via CuPy", (lambda: ca @ cb), cupy.cuda.Device().synchronize
    except ImportError:
        pass
    try:
        import torch
        torch.backends.cuda.matmul.allow_tf32 = False
        ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
        return "cuBLAS via PyTorch", (lambda: ta @ tb), torch.cuda.synchronize
    except ImportError:
        return None


def matmul():
    n = 4096
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    dev = tp.devices("cuda")[0]
    da, db = tp.device_put(a, dev), tp.device_put(b, dev)
    f = tp.jit(tnp.matmul)
    t = gpu_median(lambda: f(da, db), repeat=11)
    flops = 2 * n ** 3
    print(f"\nfloat32 matmul {n}^3")
    row("transpile.jit (cuda)", t, f"{flops / t / 1e12:8.2f} TFLOP/s")
    jax_row(lambda np_: np_.matmul, [a, b], t, flops / 1e3, "TFLOP/s")
    other = _cublas_matmul(a, b)
    if other is None:
        print("  (neither CuPy nor PyTorch is importable: no cuBLAS figure)")
        return
    label, fn, sync = other
    t_ref = synced_median(fn, sync, repeat=11)
    row(label, t_ref, f"{flops / t_ref / 1e12:8.2f} TFLOP/s; ours is "
                      f"{t_ref / t:.0%} of cuBLAS (target 30%)")


SECTIONS = {"copy": copy, "selu": selu, "sum": sum_, "matmul": matmul}

if __name__ == "__main__":
    if not cuda_runtime.available():
        print(f"no GPU: {cuda_runtime.unavailable_reason()}")
        sys.exit(0)
    for name in sys.argv[1:] or SECTIONS:
        SECTIONS[name]()
