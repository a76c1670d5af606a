"""Record the bits of JAX's float32 log, log1p and erf_inv on CPU into
``tests/data/xla_math.npz``, for ``tests/test_runtime_xla_math.py``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_xla_math.py

The file holds (all uint32 bit patterns of float32 values):

``x``
    about 200,000 inputs shared by the three functions: random bit patterns over the
    whole domain, random values in each function's working ranges, dense runs of
    consecutive floats around the places where the algorithms switch or cancel
    (1, sqrt(1/2), sqrt(2) - 1, -1, erf_inv's w = 5 switch, +-1), and special values
    (zeros, subnormals, infinities, NaNs with several payloads).
``log``, ``log1p``, ``erf_inv``
    ``jax.jit(f)(x)`` for the three functions, evaluated on the whole array at once
    (XLA:CPU's vector path; for a lone ``log`` on some small arrays, sizes 3, 7 and 11
    seen, XLA calls libm's logf for some elements instead, which this file does not
    cover).
``normal_u``, ``normal``, ``gumbel_u``, ``gumbel``
    ``jax.random.normal`` / ``gumbel`` of ``PRNGKey(0)``, 4096 draws each, and the
    uniform draws they start from (the same key and shape), so the composition
    ``sqrt(2) * erf_inv(u)`` and ``-log(-log(u))`` can be checked on its own.
``x64``, ``log64``, ``log1p64``, ``erf_inv64``
    the same for float64 under ``jax_enable_x64`` (uint64 bit patterns of about 40,000
    shared inputs: random bit patterns, each function's working range, values near
    +-1 and tiny ones, dense runs around the switch points and special values).
``normal64_u``, ``normal64``
    ``jax.random.normal(PRNGKey(k), (1000,), float64)`` for k = 0..3 (shape (4, 1000)),
    and the uniform draws on (-1, 1) they start from.
``erf_inv64_ref``
    mpmath's erfinv of ``x64`` rounded once to float64 (0 where ``x64`` lies outside
    [-1, 1] or is NaN), for the accuracy test.
``jax_version``
    the JAX version that wrote it.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import jax
import jax.numpy as jnp
from jax import lax

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "xla_math.npz"


def _bits(v) -> np.uint32:
    return np.array(v, np.float32).view(np.uint32)[()]


def _run(center: float, half: int) -> np.ndarray:
    """``half`` consecutive float32 bit patterns on each side of ``center``."""
    c = int(_bits(center))
    return np.arange(c - half, c + half, dtype=np.int64).astype(np.uint32)


def inputs() -> np.ndarray:
    rng = np.random.default_rng(20260)
    f32 = np.float32
    parts = [
        rng.integers(0, 2**32, 60_000, dtype=np.uint64).astype(np.uint32),
        rng.uniform(0.25, 4.0, 20_000).astype(f32).view(np.uint32),            # log
        np.exp(rng.uniform(-87, 88, 10_000)).astype(f32).view(np.uint32),
        rng.uniform(-0.5, 0.5, 20_000).astype(f32).view(np.uint32),            # log1p
        (rng.uniform(-1, 1, 10_000) * np.exp2(rng.uniform(-60, 0, 10_000))).astype(f32)
        .view(np.uint32),
        rng.uniform(-1, 1, 30_000).astype(f32).view(np.uint32),                # erf_inv
        (1 - np.exp2(rng.uniform(-24, -1, 10_000))).astype(f32).view(np.uint32),
        # the grid random.uniform produces for normal: k 2^-23 * 2 - 1
        ((rng.integers(0, 2**23, 10_000) * 2.0**-23) * 2 - 1).astype(f32).view(np.uint32),
    ]
    for center in (1.0, 0.70710677, 1.4142135, 0.5, 2.0):
        parts.append(_run(center, 1000))
    for center in (0.41421357, -0.41421357, -0.99999994, 0.0, 1e-20):
        parts.append(_run(center, 1000))
    w5 = float(np.sqrt(-np.expm1(-5.0)))                                       # w = 5
    for center in (w5, -w5, 0.99999994, -0.99999994, 0.5, 0.99):
        parts.append(_run(center, 1000))
    parts.append(_run(1.3264034e-38, 500))                                     # see below
    special = [0, 0x80000000, 1, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000,
               0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000,
               0xFFC00000, 0x7F800001, 0xFF812345, 0x7FFFFFFF, 0xFFFFFFFF,
               0x3F800000, 0xBF800000, 0x3F7FFFFF, 0xBF7FFFFF, 0x3F800001, 0xBF800001,
               # erf_inv's product rounds up to 2^-126 here, and FTZ flushes it
               0x00906EBB, 0x80906EBB]
    parts.append(np.array(special, np.uint32))
    return np.concatenate(parts)


def _run64(center: float, half: int) -> np.ndarray:
    """``half`` consecutive float64 bit patterns on each side of ``center``."""
    c = int(np.array(abs(center), np.float64).view(np.uint64))
    c = -c if center < 0 else c   # ordered: consecutive integers are adjacent floats
    k = np.arange(c - half, c + half, dtype=np.int64)
    return np.where(k < 0, (-k).astype(np.uint64) | np.uint64(1 << 63), k.astype(np.uint64))


def inputs64() -> np.ndarray:
    rng = np.random.default_rng(20261)
    sign = rng.choice([-1.0, 1.0], 40_000)
    parts = [
        rng.integers(0, 2**64, 9_000, dtype=np.uint64),
        rng.uniform(-1, 1, 6_000).view(np.uint64),                                # erf_inv
        ((1 - np.exp2(rng.uniform(-53, -1, 5_000))) * sign[:5_000]).view(np.uint64),
        (rng.uniform(-0.5, 0.5, 4_000)).view(np.uint64),                          # log1p
        (np.exp2(rng.uniform(-80, 0, 4_000)) * sign[5_000:9_000]).view(np.uint64),
        rng.uniform(0, 4, 3_000).view(np.uint64),                                 # log
        np.exp(rng.uniform(-745, 709.7, 2_000)).view(np.uint64),
        # the grid random.uniform produces for normal: k 2^-52 * 2 - 1
        ((rng.integers(0, 2**52, 2_000) * 2.0**-52) * 2 - 1).view(np.uint64),
    ]
    sqrt2m1 = float.fromhex("0x1.a827999fcef32p-2")
    for w in (6.25, 16.0):   # erf_inv's switches: -log1p(-x^2) = w
        c = float(np.sqrt(-np.expm1(-w)))
        parts += [_run64(c, 200), _run64(-c, 200)]
    for c in (sqrt2m1, -sqrt2m1, 1.0, -1.0, 0.5, 2.0 ** -55, 2.0 ** -511, 0.0,
              float.fromhex("0x1.20dd750429b6cp-1022"), 1 - 2.0 ** -53):
        parts.append(_run64(c, 200))
    parts.append(_run64(np.nextafter(-1.0, 0), 200))
    special = [0, 1 << 63, 1, (1 << 63) | 1, 0x000FFFFFFFFFFFFF, 0x800FFFFFFFFFFFFF,
               0x0010000000000000, 0x8010000000000000, 0x7FEFFFFFFFFFFFFF,
               0xFFEFFFFFFFFFFFFF, 0x7FF0000000000000, 0xFFF0000000000000,
               0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001,
               0xFFF4000000001234, 0x7FFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF,
               0x3FF0000000000000, 0xBFF0000000000000, 0x4000000000000000,
               0xC000000000000000]
    parts.append(np.array(special, np.uint64))
    return np.concatenate(parts)


def record_f64() -> dict:
    import mpmath
    jax.config.update("jax_enable_x64", True)
    try:
        x = inputs64()
        xf = x.view(np.float64)
        data = {"x64": x}
        for name, fn in (("log", jnp.log), ("log1p", jnp.log1p), ("erf_inv", lax.erf_inv)):
            data[name + "64"] = np.asarray(jax.jit(fn)(xf)).view(np.uint64)
        lo = np.nextafter(-1.0, 0.0)
        us, ns = [], []
        for k in range(4):
            key = jax.random.PRNGKey(k)
            us.append(np.asarray(jax.random.uniform(key, (1000,), jnp.float64, minval=lo,
                                                    maxval=1.0)))
            ns.append(np.asarray(jax.random.normal(key, (1000,), jnp.float64)))
        data["normal64_u"] = np.stack(us).view(np.uint64)
        data["normal64"] = np.stack(ns).view(np.uint64)
        mpmath.mp.prec = 200
        ref = np.zeros(xf.shape)
        for i, v in enumerate(xf):
            if abs(v) < 1:   # mpf -> float rounds once
                ref[i] = float(mpmath.erfinv(mpmath.mpf(float(v))))
            elif abs(v) == 1:
                ref[i] = np.copysign(np.inf, v)
        data["erf_inv64_ref"] = ref.view(np.uint64)
        return data
    finally:
        jax.config.update("jax_enable_x64", False)


def main() -> int:
    x = inputs()
    xf = x.view(np.float32)
    data = {"x": x, "jax_version": np.array(jax.__version__)}
    for name, fn in (("log", jnp.log), ("log1p", jnp.log1p), ("erf_inv", lax.erf_inv)):
        data[name] = np.asarray(jax.jit(fn)(xf)).view(np.uint32)
    key = jax.random.PRNGKey(0)
    lo = np.nextafter(np.float32(-1), np.float32(0))
    data["normal_u"] = np.asarray(jax.random.uniform(key, (4096,), minval=lo, maxval=1.0)
                                  ).view(np.uint32)
    data["normal"] = np.asarray(jax.random.normal(key, (4096,))).view(np.uint32)
    data["gumbel_u"] = np.asarray(jax.random.uniform(
        key, (4096,), minval=np.finfo(np.float32).tiny, maxval=1.0)).view(np.uint32)
    data["gumbel"] = np.asarray(jax.random.gumbel(key, (4096,))).view(np.uint32)
    data.update(record_f64())
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, **data)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {x.size} inputs, jax {jax.__version__})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
