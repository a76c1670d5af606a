"""Convolutions (issue 22): transpile's compiled conv_general_dilated against JAX's, in one
process, medians of interleaved repetitions, ratio = JAX time / transpile time (> 1:
transpile is faster). The target row is the ResNet-style layer (batch 32, 64 -> 64
channels, 56 x 56, 3 x 3, NHWC).

Run from the repository root with JAX's interpreter:

    PYTHONPATH=. $JAX_PYTHON benchmarks/bench_conv.py [row substrings...]
"""
from __future__ import annotations

import sys

import numpy as np

from bench_backend import _ready, jax, median_time, tp

NHWC = ("NHWC", "HWIO", "NHWC")

# name, lhs shape, rhs shape, keyword arguments, repetitions
ROWS = [
    ("resnet 32x56x56x64 -> 64, 3x3, NHWC", (32, 56, 56, 64), (3, 3, 64, 64),
     dict(window_strides=(1, 1), padding="SAME", dimension_numbers=NHWC), 5),
    ("resnet 32x64x56x56 -> 64, 3x3, NCHW", (32, 64, 56, 56), (64, 64, 3, 3),
     dict(window_strides=(1, 1), padding="SAME"), 5),
    ("stride 2, 8x56x56x64 -> 128, 3x3, NHWC", (8, 56, 56, 64), (3, 3, 64, 128),
     dict(window_strides=(2, 2), padding="SAME", dimension_numbers=NHWC), 7),
    ("1x1, 8x28x28x256 -> 64, NHWC", (8, 28, 28, 256), (1, 1, 256, 64),
     dict(window_strides=(1, 1), padding="VALID", dimension_numbers=NHWC), 7),
    ("depthwise 8x56x56x64, 3x3, NHWC", (8, 56, 56, 64), (3, 3, 1, 64),
     dict(window_strides=(1, 1), padding="SAME", dimension_numbers=NHWC,
          feature_group_count=64), 7),
    ("small 4x3x16x16 -> 8, 3x3, NCHW", (4, 3, 16, 16), (8, 3, 3, 3),
     dict(window_strides=(1, 1), padding="SAME"), 15),
]


def _fmt(t: float) -> str:
    return f"{t * 1e3:10.3f} ms"


def run(selected) -> None:
    print(f"{'convolution':42s} {'transpile':>13s} {'JAX':>13s}  JAX/transpile")
    for name, ls, rs, kw, repeat in ROWS:
        if selected and not any(s in name for s in selected):
            continue
        rng = np.random.default_rng(0)
        x = rng.standard_normal(ls).astype(np.float32)
        w = rng.standard_normal(rs).astype(np.float32)
        f_tp = tp.jit(lambda a, b: tp.lax.conv_general_dilated(a, b, **kw))
        xa, wa = tp.numpy.asarray(x), tp.numpy.asarray(w)
        fns = {"transpile": lambda: _ready(f_tp(xa, wa))}
        if jax:
            f_jax = jax.jit(lambda a, b: jax.lax.conv_general_dilated(a, b, **kw))
            xj, wj = jax.numpy.asarray(x), jax.numpy.asarray(w)
            fns["JAX"] = lambda: _ready(f_jax(xj, wj))
            got, want = np.asarray(fns["transpile"]()), np.asarray(fns["JAX"]())
            err = np.abs(got - want).max() / max(np.abs(want).max(), 1.0)
            assert err < 1e-4, (name, err)
        for fn in fns.values():
            fn()
        samples = {k: [] for k in fns}
        for _ in range(repeat):  # interleaved, so load bursts fall on both
            for k, fn in fns.items():
                samples[k].append(median_time(fn, repeat=1, number=1, warmup=0))
        times = {k: sorted(v)[len(v) // 2] for k, v in samples.items()}
        ratio = f"{times['JAX'] / times['transpile']:8.2f}x" if "JAX" in times else ""
        print(f"{name:42s} {_fmt(times['transpile']):>13s} "
              f"{_fmt(times['JAX']) if 'JAX' in times else '-':>13s}  {ratio}", flush=True)


if __name__ == "__main__":
    run(sys.argv[1:])
