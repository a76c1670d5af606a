"""Benchmarks of random sampling (issue 5), every contender timed in one process.

Run from the repository root:

    python benchmarks/bench_random.py              # all sections
    python benchmarks/bench_random.py normal_10m

JAX is timed when importable (a scratch virtualenv with ``pip install jax==0.10.2 cffi
jinja2`` and ``PYTHONPATH=.:benchmarks``). Prints medians and ratios (contender time /
ours).
"""
from __future__ import annotations

import sys

import numpy as np

from bench_backend import jax, median_time, row, tp, _ready  # noqa: F401

N = 10_000_000


def _against(label, ours_fn, key_ours, numpy_fn, jax_fn=None, key_jax=None, check=None,
             n=N):
    out = ours_fn(key_ours)
    t_ours = median_time(lambda: _ready(ours_fn(key_ours)), repeat=11)
    row(f"transpile.jit {label}", t_ours)
    t_np = median_time(numpy_fn, repeat=7)
    row(f"NumPy {label}", t_np, None, f"ours is {t_np / t_ours:.2f}x faster")
    if jax is not None and jax_fn is not None:
        ref = jax_fn(key_jax)
        _ready(ref)
        if check is not None:
            check(np.asarray(out), np.asarray(ref))
        t_jax = median_time(lambda: _ready(jax_fn(key_jax)), repeat=11)
        row(f"jax.jit {label}", t_jax, None, f"ours is {t_jax / t_ours:.2f}x faster")
    print(f"  per value: {t_ours / n * 1e9:.2f} ns")


def _close(ours, ref):
    """Our normals carry JAX's bits (XLA's erf_inv and fused multiply-add)."""
    np.testing.assert_array_equal(ours, ref)


def _normal(n):
    print(f"\nnormal, {n:,} float32 values")
    ours = tp.jit(lambda k: tp.random.normal(k, (n,)))
    rng = np.random.default_rng(0)
    jf = None if jax is None else jax.jit(lambda k: jax.random.normal(k, (n,)))
    _against("normal", ours, tp.random.PRNGKey(1234),
             lambda: rng.standard_normal(n, dtype=np.float32), jf,
             None if jax is None else jax.random.PRNGKey(1234), _close, n)


def normal_10m():
    """jit(random.normal)(key, (10M,)) float32 against NumPy's default_rng and JAX."""
    _normal(N)


def normal_2m():
    """The same at 2M values (the size the issue quotes contender times for)."""
    _normal(2_000_000)


def uniform_10m():
    """jit(random.uniform)(key, (10M,)) float32."""
    print(f"\nuniform, {N:,} float32 values")
    ours = tp.jit(lambda k: tp.random.uniform(k, (N,)))
    rng = np.random.default_rng(0)
    jf = None if jax is None else jax.jit(lambda k: jax.random.uniform(k, (N,)))
    _against("uniform", ours, tp.random.PRNGKey(1234),
             lambda: rng.random(N, dtype=np.float32), jf,
             None if jax is None else jax.random.PRNGKey(1234),
             lambda a, b: np.testing.assert_array_equal(a, b))


def bits_10m():
    """jit(random.bits)(key, (10M,)) uint32: the threefry stream alone."""
    print(f"\nbits, {N:,} uint32 values")
    ours = tp.jit(lambda k: tp.random.bits(k, (N,)))
    rng = np.random.default_rng(0)
    jf = None if jax is None else jax.jit(lambda k: jax.random.bits(k, (N,)))
    _against("bits", ours, tp.random.PRNGKey(1234),
             lambda: rng.integers(0, 2**32, N, dtype=np.uint32), jf,
             None if jax is None else jax.random.PRNGKey(1234),
             lambda a, b: np.testing.assert_array_equal(a, b))


SECTIONS = {"normal_10m": normal_10m, "normal_2m": normal_2m, "uniform_10m": uniform_10m,
            "bits_10m": bits_10m}

if __name__ == "__main__":
    for name in sys.argv[1:] or SECTIONS:
        SECTIONS[name]()
