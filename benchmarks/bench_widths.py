"""Large kernels at a forced team width, one process, transpile alone (no other library's
threads): medians and means over 2 s per kernel.

    TRANSPILE_PAR_WIDTH=1 python benchmarks/bench_widths.py
    TRANSPILE_PAR_WIDTH=2 python benchmarks/bench_widths.py
    python benchmarks/bench_widths.py              # the adaptive width

Run beside `python -c "while True: pass" &` to see what one held core does to each width
(runtime/tp_parallel.h's choices: TP_PAR_BIG_UNITS and the drop to one thread).
"""
import time

import numpy as np

import transpile as tp
import transpile.numpy as tnp


def _softmax(x):
    e = tnp.exp(x - tnp.max(x, axis=1, keepdims=True))
    return e / tnp.sum(e, axis=1, keepdims=True)


def _selu(v):
    return 1.05 * tnp.where(v > 0, v, 1.67 * tnp.exp(v) - 1.67)


def main() -> None:
    rng = np.random.default_rng(0)
    a = tnp.asarray(rng.standard_normal((1024, 1024)).astype(np.float32))
    b = tnp.asarray(rng.standard_normal((1024, 1024)).astype(np.float32))
    s = tnp.asarray(rng.standard_normal(1 << 24).astype(np.float32))
    m = tnp.asarray(rng.standard_normal((4096, 4096)).astype(np.float32))
    x = tnp.asarray(rng.standard_normal((4096, 1024)).astype(np.float32))
    cases = {"matmul 1024^3": (tp.jit(tnp.dot), (a, b)),
             "selu 16M": (tp.jit(_selu), (s,)),
             "sum(axis=1) 4096^2": (tp.jit(lambda v: tnp.sum(v, axis=1)), (m,)),
             "softmax 4096x1024": (tp.jit(_softmax), (x,)),
             "exp 1M": (tp.jit(tnp.exp), (s[:1 << 20],))}
    for name, (f, args) in cases.items():
        f(*args).block_until_ready()
        times = []
        end = time.perf_counter() + 2.0
        while time.perf_counter() < end:
            t = time.perf_counter()
            f(*args).block_until_ready()
            times.append(time.perf_counter() - t)
        print(f"{name:20s} median {np.median(times) * 1e3:8.3f} ms  "
              f"mean {np.mean(times) * 1e3:8.3f} ms  calls {len(times)}", flush=True)


if __name__ == "__main__":
    main()
