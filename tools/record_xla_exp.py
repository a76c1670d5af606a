"""Record the bits of JAX's float32 exp, tanh and logistic on CPU into
``tests/data/xla_exp.npz``, for ``tests/test_runtime_xla_exp.py``.

Run with the JAX scratch environment (never by the test suite)::

    <jax-venv>/bin/python tools/record_xla_exp.py [--full]

The file holds (uint32 bit patterns of float32 values):

``x``
    about 60,000 inputs shared by the three functions: random bit patterns over the
    whole domain, random values in the working ranges, dense runs of consecutive floats
    around the places where the algorithms clamp, switch or flush (exp: -87.8, 88.8, the
    overflow and underflow thresholds, n = -126/-127, the rounding of n at +-ln2/2;
    tanh: 0.0004, the clamp 7.9988, 20; logistic: where 1 + exp(-x) passes 2^126), and
    special values (zeros, subnormals, infinities, quiet and signalling NaNs).
``exp``, ``tanh``, ``logistic``
    ``jax.jit(f)(x)`` for ``jnp.exp``, ``jnp.tanh`` and ``jax.nn.sigmoid``, evaluated on
    the whole array at once (XLA:CPU's vector path).
``sha256_exp``, ``sha256_tanh``, ``sha256_logistic`` (with ``--full`` only)
    the SHA-256 of the result bits of ``jax.jit(f)`` over all 2^32 float32 bit patterns
    in increasing order, computed in chunks of 2^24 (a few minutes each), for
    ``tools/check_xla_exp_full.py``.
``jax_version``
    the JAX version that wrote it.
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import numpy as np

import jax
import jax.numpy as jnp

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "xla_exp.npz"
FNS = {"exp": jnp.exp, "tanh": jnp.tanh, "logistic": jax.nn.sigmoid}
CHUNK = 1 << 24


def _bits(v) -> int:
    return int(np.array(v, np.float32).view(np.uint32))


def _run(center: float, half: int) -> np.ndarray:
    """``half`` consecutive float32 values on each side of ``center`` (either sign)."""
    c = _bits(abs(center))
    k = np.arange(c - half, c + half, dtype=np.int64)
    k = k[(k >= 0) & (k < 0x7F800000)].astype(np.uint32)
    return k | np.uint32(0x80000000) if center < 0 else k


def inputs() -> np.ndarray:
    rng = np.random.default_rng(20262)
    f32 = np.float32
    parts = [
        rng.integers(0, 2**32, 20_000, dtype=np.uint64).astype(np.uint32),
        rng.uniform(-90, 90, 10_000).astype(f32).view(np.uint32),
        rng.uniform(-3, 3, 10_000).astype(f32).view(np.uint32),
        rng.uniform(-21, 21, 5_000).astype(f32).view(np.uint32),
    ]
    ln2 = float(np.log(2))
    centers = [-87.8, 88.8, 88.72284, -87.33655, -87.0, -103.0, 0.0, 1e-20, ln2 / 2,
               -ln2 / 2, 3 * ln2 / 2, 125.5 * ln2, -125.5 * ln2, -126.5 * ln2,       # exp
               0.0004, -0.0004, 7.9988117, -7.9988117, 20.0, -20.0, 1.0,              # tanh
               87.33655, 87.8, 88.0]                                                  # logistic
    for c in centers:
        parts.append(_run(c, 300))
    special = [0, 0x80000000, 1, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000,
               0x80800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000,
               0xFFC00000, 0x7F800001, 0xFF812345, 0x7FA00000, 0x7FFFFFFF, 0xFFFFFFFF,
               0x3F800000, 0xBF800000]
    parts.append(np.array(special, np.uint32))
    return np.concatenate(parts)


def full_checksum(fn) -> str:
    """SHA-256 of ``jax.jit(fn)``'s result bits over all 2^32 float32 inputs."""
    jf = jax.jit(fn)
    h = hashlib.sha256()
    for k in range(2**32 // CHUNK):
        x = np.arange(k * CHUNK, (k + 1) * CHUNK, dtype=np.uint64).astype(np.uint32)
        h.update(np.asarray(jf(x.view(np.float32))).view(np.uint32).tobytes())
    return h.hexdigest()


def main(argv) -> int:
    x = inputs()
    xf = x.view(np.float32)
    data = {"x": x, "jax_version": np.array(jax.__version__)}
    for name, fn in FNS.items():
        data[name] = np.asarray(jax.jit(fn)(xf)).view(np.uint32)
        if "--full" in argv:
            data["sha256_" + name] = np.array(full_checksum(fn))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, **data)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {x.size} inputs, jax {jax.__version__})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
