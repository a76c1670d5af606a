"""Record which NaN JAX 0.10.2's max/min return, bit for bit, into ``tests/data/nan_signs.json``.

Run with the JAX interpreter ($JAX_PYTHON), x64 on (float64 is recorded too)::

    $JAX_PYTHON tools/record_nan_signs.py

For every float dtype, ``lax.max``/``lax.min`` (and ``jnp.maximum``/``jnp.minimum``) of
every pair of a set of special values (NaNs of both signs, with payloads, signalling,
numbers, zeros, infinities), and ``jnp.max``/``jnp.min`` reductions of rows holding NaNs,
eager and under ``jax.jit``. Values are stored as their unsigned bit patterns; the
recorder checks that eager and jit agree and stores one answer.
"""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
from jax import lax

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "nan_signs.json"
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}

#: Special values per dtype, as bit patterns: NaNs (quiet +/-, with a payload,
#: signalling where the type has one), then numbers: 1, -1, +0, -0, inf, -inf
#: (the largest finite value where the type has no infinity).
SPECIALS = {
    "float32": [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFC12345, 0x3F800000, 0xBF800000, 0,
                0x80000000, 0x7F800000, 0xFF800000],
    "float64": [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001,
                0xFFF8000012345000, 0x3FF0000000000000, 0xBFF0000000000000, 0,
                0x8000000000000000, 0x7FF0000000000000, 0xFFF0000000000000],
    "bfloat16": [0x7FC0, 0xFFC0, 0x7F81, 0xFFC1, 0x3F80, 0xBF80, 0, 0x8000, 0x7F80, 0xFF80],
    "float16": [0x7E00, 0xFE00, 0x7C01, 0xFE09, 0x3C00, 0xBC00, 0, 0x8000, 0x7C00, 0xFC00],
    "float8_e4m3fn": [0x7F, 0xFF, 0x38, 0xB8, 0, 0x80, 0x7E, 0xFE],
    "float8_e5m2": [0x7E, 0xFE, 0x7D, 0xFF, 0x3C, 0xBC, 0, 0x80, 0x7C, 0xFC],
}
ELEMENTWISE = {"lax.max": lax.max, "lax.min": lax.min, "jnp.maximum": jnp.maximum,
               "jnp.minimum": jnp.minimum}
REDUCTIONS = {"max": jnp.max, "min": jnp.min}


def dtype_of(name: str) -> np.dtype:
    return np.dtype(getattr(ml_dtypes, name, None) or name)


def as_array(bits, dtype):
    dt = np.dtype(dtype)
    return jnp.asarray(np.asarray(bits, UINT[dt.itemsize]).view(dt))


def bits(x) -> list:
    a = np.asarray(x)
    return a.view(UINT[a.dtype.itemsize]).ravel().tolist()


def answer(fn, *args) -> list:
    eager, jitted = bits(fn(*args)), bits(jax.jit(fn)(*args))
    assert eager == jitted, (fn, eager, jitted)
    return eager


def rows_with_nans(name: str, rng) -> list:
    """Rows of numbers with NaNs of both signs placed at random (and a few fixed rows)."""
    sp = SPECIALS[name]
    nans, nums = [b for b in sp if np.isnan(as_array([b], dtype_of(name)))[0]], \
        bits(jnp.asarray(rng.standard_normal(400).astype(np.float32)).astype(
            dtype_of(name)))
    rows = [[sp[4], sp[1], sp[4]], [nums[0], nans[0], nums[1]], [sp[1], sp[3]],
            [sp[3], sp[1]], [sp[-1], sp[0], sp[-2]], [sp[5], sp[6], sp[0]]]
    for n in (5, 17, 40, 130):
        row = nums[:n]
        for j in rng.integers(0, n, 2):
            row[int(j)] = nans[int(rng.integers(0, len(nans)))]
        rows.append(row)
    return rows


def record() -> dict:
    out = {"_meta": {"jax": jax.__version__, "numpy": np.__version__,
                     "recorded_by": "tools/record_nan_signs.py"}}
    rng = np.random.default_rng(0)
    for name, sp in SPECIALS.items():
        dt = dtype_of(name)
        x, y = zip(*itertools.product(sp, sp), strict=True)
        xa, ya = as_array(x, dt), as_array(y, dt)
        table = {"x": list(x), "y": list(y),
                 "elementwise": {k: answer(f, xa, ya) for k, f in ELEMENTWISE.items()}}
        rows = rows_with_nans(name, rng)
        table["rows"] = rows
        table["reductions"] = {k: [answer(f, as_array(r, dt)) for r in rows]
                               for k, f in REDUCTIONS.items()}
        m = as_array(rows[-2][:40], dt).reshape(5, 8)
        table["matrix"] = bits(m)
        table["axis"] = {f"{k}_{ax}": answer(lambda u, f=f, ax=ax: f(u, axis=ax), m)
                         for k, f in REDUCTIONS.items() for ax in (0, 1)}
        out[name] = table
    return out


def main() -> None:
    assert jax.__version__ == "0.10.2", jax.__version__
    jax.config.update("jax_enable_x64", True)
    data = record()
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
