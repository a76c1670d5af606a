"""Extrema of operands holding subnormals, written once for JAX and transpile
(``tools/record_subnormal_extrema.py`` records JAX 0.10.2's answers;
``tests/test_lax_reduction.py`` checks ours): XLA:CPU reads float32/float64 subnormal
operands as zeros of their sign."""
import numpy as np


def operands():
    out = {}
    for dt in (np.float32, np.float64):
        t = np.finfo(dt).tiny
        x = np.array([[t / 4, -1.0, 0.0, -t / 8],
                      [0.0, t / 4, -1.0, 2.0],
                      [-0.0, -t / 4, -0.0, -t / 2],
                      [-1.0, -t / 4, t / 8, -2.0]], dt)
        out[np.dtype(dt).name] = x
    return out


def cases(lax):
    """name -> fn(x), each a reduction over the last axis."""
    return {
        "max": lambda x: lax.reduce_max(x, (1,)),
        "min": lambda x: lax.reduce_min(x, (1,)),
        "argmax": lambda x: lax.argmax(x, 1, np.int32),
        "argmin": lambda x: lax.argmin(x, 1, np.int32),
        "cummax": lambda x: lax.cummax(x, axis=1),
        "cummin": lambda x: lax.cummin(x, axis=1),
    }
