"""Which NaN max/min return, bit for bit, against JAX 0.10.2 (``tests/data/nan_signs.json``,
``tools/record_nan_signs.py``).

XLA:CPU's max/min give a NaN first operand back as it is and a NaN second operand with
a sign bit made of both operands' (max: both set, min: either set); float16 (and the
float8 types computed in it) gives the positive quiet NaN. Reductions fold in order, so
the first NaN comes out, signed by the elements before it. Each dtype's cases run
eagerly, then as one jitted program.
"""
from __future__ import annotations

import json
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax

DATA = json.loads((Path(__file__).parent / "data" / "nan_signs.json").read_text())
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
ELEMENTWISE = {"lax.max": lax.max, "lax.min": lax.min, "jnp.maximum": jnp.maximum,
               "jnp.minimum": jnp.minimum}
REDUCTIONS = {"max": jnp.max, "min": jnp.min}
DTYPES = [k for k in DATA if not k.startswith("_")]


def _dtype(name: str) -> np.dtype:
    return np.dtype(getattr(ml_dtypes, name, None) or name)


def _array(bits, dt):
    return jnp.asarray(np.asarray(bits, UINT[dt.itemsize]).view(dt))


def _bits(x) -> list:
    a = np.asarray(x)
    return a.view(UINT[a.dtype.itemsize]).ravel().tolist()


#: float8 reductions are not compiled yet, and their eager reductions along an axis of a
#: matrix give wrong values (not NaN bits): checked eagerly over whole rows only.
FLOAT8 = ("float8_e4m3fn", "float8_e5m2")


def _cases(table: dict, name: str, mode: str) -> dict:
    """name -> (function of the operands, recorded bits)."""
    cases = {k: (lambda x, y, m, rows, f=f: f(x, y), want)
             for k, f in ELEMENTWISE.items() for want in [table["elementwise"][k]]}
    if name in FLOAT8 and mode == "jit":
        return cases
    for k, f in REDUCTIONS.items():
        for i, want in enumerate(table["reductions"][k]):
            cases[f"{k}_row{i}"] = (lambda x, y, m, rows, f=f, i=i: f(rows[i]), want)
    if name in FLOAT8:
        return cases
    for key, want in table["axis"].items():
        k, _, ax = key.rpartition("_")
        cases[key] = (lambda x, y, m, rows, f=REDUCTIONS[k], ax=int(ax): f(m, axis=ax), want)
    return cases


@pytest.mark.parametrize("mode", ["eager", "jit"])
@pytest.mark.parametrize("name", DTYPES)
def test_max_min_nan_bits(name, mode):
    table, dt = DATA[name], _dtype(name)
    with jax.enable_x64(dt == np.float64):
        x, y = _array(table["x"], dt), _array(table["y"], dt)
        m = _array(table["matrix"], dt).reshape(5, 8)
        rows = [_array(r, dt) for r in table["rows"]]
        cases = _cases(table, name, mode)
        names = list(cases)

        def every(x, y, m, *rows):
            return tuple(cases[n][0](x, y, m, rows) for n in names)
        got = (every if mode == "eager" else jax.jit(every))(x, y, m, *rows)
        for n, g in zip(names, got, strict=True):
            assert g.dtype == dt, n
            want = cases[n][1]
            wrong = [(i, hex(a), hex(b)) for i, (a, b) in enumerate(zip(_bits(g), want,
                                                                         strict=True))
                     if a != b]
            assert not wrong, f"{name} {n} ({mode}): (index, got, want) {wrong[:6]}"
