"""Record JAX 0.10.2's answers on its 2- and 4-bit integers (int4, uint4, int2, uint2)
into ``tests/data/int4.json``.

Run with the JAX interpreter ($JAX_PYTHON), x64 off::

    $JAX_PYTHON tools/record_int4.py

Every computed case runs eagerly and under ``jax.jit``; the recorder checks both give
the same values (stored as Python ints, floats as their uint32 bits).
"""
from __future__ import annotations

import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "int4.json"

INTS = ["int4", "uint4", "int2", "uint2"]
OTHERS = ["bool", "int8", "uint8", "int32", "float32", "int", "float"]
BINARY = ["add", "sub", "mul", "div", "rem", "max", "min", "eq", "lt", "and", "or", "xor",
          "shift_left", "shift_right_arithmetic", "shift_right_logical"]
UNARY = ["neg", "abs", "sign", "not", "population_count", "clz"]
FROM_I32 = list(range(-20, 21)) + [127, 128, 255, 256, -129, 2 ** 31 - 1, -(2 ** 31)]
FROM_F32 = [0.0, -0.0, 0.4, 0.5, 0.6, 1.5, 2.5, -1.5, -2.5, 3.7, -3.7, 7.0, 7.5, 8.0, -8.0,
            -8.5, -9.0, 15.0, 15.9, 16.0, 17.0, 100.0, -100.0, 1e10, -1e10, float("inf"),
            float("-inf"), float("nan")]


def values(x) -> list:
    a = np.asarray(x)
    if a.dtype == np.float32:
        return a.view(np.uint32).ravel().tolist()
    return a.astype(np.int64).ravel().tolist()


def answer(fn, *args) -> dict:
    outs = []
    for run in (fn, jax.jit(fn)):
        r = run(*args)
        outs.append({"dtype": str(r.dtype), "weak_type": bool(r.aval.weak_type),
                     "shape": list(r.shape), "values": values(r)})
    assert outs[0] == outs[1], (fn, outs)
    return outs[0]


def attempt(fn, *args) -> dict:
    """:func:`answer`, or the error JAX raises (it refuses most operations on these
    types: "Support for narrow-width integers is platform-dependent and limited")."""
    try:
        return answer(fn, *args)
    except (TypeError, ValueError, jax.errors.JaxRuntimeError) as e:
        return {"error": type(e).__name__, "message": str(e).split("\n")[0]}


def error(fn) -> dict:
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001  (recording whatever JAX raises)
        return {"error": type(e).__name__, "message": str(e)}
    return {"result": str(r)}


def every(name: str):
    info = jnp.iinfo(name)
    return np.arange(int(info.min), int(info.max) + 1)


def record() -> dict:
    out = {"_meta": {"jax": jax.__version__, "numpy": np.__version__,
                     "recorded_by": "tools/record_int4.py"}}
    out["names"] = sorted(n for n in dir(jnp) if n in INTS)
    out["result_type"] = {
        f"{a},{b}": error(lambda a=a, b=b: jnp.result_type(a, {"int": int,
                                                               "float": float}.get(b, b)))
        for a in INTS for b in INTS + OTHERS}
    out["iinfo"] = {n: {k: int(getattr(jnp.iinfo(n), k)) for k in ("min", "max", "bits")}
                    | {"dtype": str(jnp.iinfo(n).dtype)} for n in INTS}
    out["repr"] = {n: repr(jnp.array([1, 0, 1], n)) for n in INTS}
    out["jaxpr"] = {n: str(jax.make_jaxpr(lambda a: (a + a, a.astype(jnp.int32)))(
        jnp.zeros(3, n))) for n in INTS}
    # creation with an explicit dtype: Python ints out of range wrap (no overflow check)
    out["creation"] = {n: {k: answer(fn) for k, fn in {
        "zeros": lambda n=n: jnp.zeros((2,), n), "ones": lambda n=n: jnp.ones((2,), n),
        "full": lambda n=n: jnp.full((2,), 9, n), "array_list": lambda n=n: jnp.array([9, 1], n),
        "array_scalar": lambda n=n: jnp.array(9, n), "plus_int": lambda n=n: jnp.ones(2, n) + 9,
    }.items()} for n in INTS}
    rec = {}
    for n in INTS:
        v = every(n)
        x = jnp.asarray(np.repeat(v, len(v)).astype(n))
        y = jnp.asarray(np.tile(v, len(v)).astype(n))
        r = {"x": values(x), "y": values(y)}
        r["binary"] = {}
        for b in BINARY:
            fn = {"and": lax.bitwise_and, "or": lax.bitwise_or,
                  "xor": lax.bitwise_xor}.get(b, getattr(lax, b, None))
            r["binary"][b] = attempt(fn, x, jnp.where(y == 0, jnp.ones_like(y), y)) \
                if b in ("div", "rem") else attempt(fn, x, y)
        r["unary"] = {u: attempt({"not": lax.bitwise_not}.get(u) or getattr(lax, u), x)
                      for u in UNARY if not (u in ("neg", "abs", "sign") and n[0] == "u")}
        r["weak"] = attempt(lambda a: a * 3 + 1, x)
        r["from_i32"] = attempt(lambda a, n=n: a.astype(n), jnp.asarray(FROM_I32, jnp.int32))
        r["from_f32"] = attempt(lambda a, n=n: a.astype(n), jnp.asarray(FROM_F32, jnp.float32))
        r["from_bool"] = attempt(lambda a, n=n: a.astype(n), jnp.asarray([True, False]))
        conv = {"to_i32": jnp.int32, "to_u8": jnp.uint8, "to_i8": jnp.int8,
                "to_f32": jnp.float32, "to_bool": jnp.bool_, "to_f16": jnp.float16}
        r["convert"] = {k: attempt(lambda a, t=t: a.astype(t), x) for k, t in conv.items()}
        r["sum"] = attempt(jnp.sum, x)
        r["max"] = attempt(jnp.max, x)
        rec[n] = r
    out["ops"] = rec
    return out


def main() -> None:
    assert jax.__version__ == "0.10.2", jax.__version__
    assert not jax.config.jax_enable_x64
    data = record()
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
