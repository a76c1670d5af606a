"""Record JAX 0.10.2's answers on its float8/float4 (and 2/4-bit integer) dtypes into
``tests/data/float8.json``.

Run with the JAX interpreter ($JAX_PYTHON), x64 off::

    $JAX_PYTHON tools/record_float8.py

Values are stored as their uint8 bit patterns (float32 as uint32). Every computed case
runs eagerly and under ``jax.jit``; the recorder checks both give the same bits.
"""
from __future__ import annotations

import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "float8.json"

FLOATS = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3b11fnuz", "float8_e4m3fnuz",
          "float8_e5m2fnuz", "float8_e3m4", "float8_e4m3", "float8_e8m0fnu", "float4_e2m1fn"]
INTS = ["int4", "uint4", "int2", "uint2"]
OTHERS = ["bool", "int8", "uint8", "int32", "float16", "bfloat16", "float32"]
UNARY = ["neg", "abs", "sign", "exp", "sqrt", "tanh", "floor", "log"]
BINARY = ["add", "sub", "mul", "div", "max", "min", "pow", "eq", "lt"]
N = 24


def bits(x) -> list:
    a = np.asarray(x)
    if a.dtype.itemsize == 1 and a.dtype != np.bool_:
        return a.view(np.uint8).ravel().tolist()
    if a.dtype == np.float32:
        return a.view(np.uint32).ravel().tolist()
    if a.dtype.itemsize == 2 and a.dtype.kind not in "iu":
        return a.view(np.uint16).ravel().tolist()
    return a.ravel().tolist()


def answer(fn, *args) -> dict:
    outs = []
    for run in (fn, jax.jit(fn)):
        r = run(*args)
        outs.append({"dtype": str(r.dtype), "weak_type": bool(r.aval.weak_type),
                     "shape": list(r.shape), "bits": bits(r)})
    assert outs[0] == outs[1], (fn, outs)
    return outs[0]


def error(fn) -> dict:
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001  (recording whatever JAX raises)
        return {"error": type(e).__name__, "message": str(e)}
    return {"result": str(r)}


def operands(name: str, rng) -> tuple[np.ndarray, np.ndarray]:
    """Two operand vectors of ``name``: random bit patterns plus specials."""
    dt = jnp.dtype(name)
    mask = 0x0F if name.startswith("float4") else 0xFF
    a = rng.integers(0, mask + 1, N).astype(np.uint8)
    b = rng.integers(0, mask + 1, N).astype(np.uint8)
    # zeros, ones, a tie for rounding sums (1 + eps/2...), overflow pairs
    special = np.array([0.0, 1.0, -1.0, 2.0, 1.5, -0.5, 0.25, float(jnp.finfo(dt).max)],
                       np.float32).astype(dt).view(np.uint8)
    special2 = np.array([0.0, 1.0, 3.0, -2.0, 1.5, 0.75, -0.25, float(jnp.finfo(dt).max)],
                        np.float32).astype(dt).view(np.uint8)
    a[:8], b[:8] = special, special2
    return jnp.asarray(a.view(dt)), jnp.asarray(b.view(dt))


def convert_inputs(name: str) -> np.ndarray:
    """float32 values around each representable value of ``name``: the values, the
    midpoints (ties), just above/below them, overflow, infinities and NaN."""
    dt = jnp.dtype(name)
    n = 16 if name.startswith("float4") else 256
    v = np.arange(n, dtype=np.uint8).view(dt).astype(np.float32)
    v = np.unique(v[np.isfinite(v)])
    mid = (v[:-1].astype(np.float64) + v[1:]) / 2
    fmax = float(jnp.finfo(dt).max)
    extra = [fmax * 1.0625, fmax * 1.2, fmax * 2, 1e30, np.inf, -np.inf, np.nan, -0.0,
             1e-30, -1e-30]
    out = np.concatenate([v, mid, mid * (1 + 2 ** -20), mid * (1 - 2 ** -20), extra,
                          np.negative(extra)]).astype(np.float32)
    # a sample keeps the file small: every tie, a few of the rest
    rng = np.random.default_rng(1)
    keep = rng.choice(len(out) - 2 * len(extra), 48, replace=False)
    return np.concatenate([out[keep], mid.astype(np.float32)[:40],
                           out[-2 * len(extra):]]).astype(np.float32)


def _values(name: str, lo: float, hi: float, shape, rng) -> np.ndarray:
    """Random representable values of ``name`` with ``lo <= |v| <= hi`` (or zero)."""
    dt = jnp.dtype(name)
    every = np.arange(16 if name.startswith("float4") else 256, dtype=np.uint8).view(dt)
    v = every.astype(np.float32)
    ok = np.isfinite(v) & (((np.abs(v) >= lo) & (np.abs(v) <= hi)) | (v == 0))
    return rng.choice(every[ok], shape)


#: Reductions, scans, sorts and products of small floats (XLA:CPU computes them in
#: float16 -- float32 for e8m0fnu -- rounding every step to the small float; dot in
#: float32): operands x (3, 40) with NaN, -0 and inf in row 0, p (3, 40) near one
#: (products), y (40, 2).
JIT_OPS = {
    "sum1": lambda x, p, y: jnp.sum(x, axis=1),
    "sum_all": lambda x, p, y: jnp.sum(x),
    "sum0": lambda x, p, y: jnp.sum(x, axis=0),
    "prod1": lambda x, p, y: jnp.prod(p, axis=1),
    "sum_fused": lambda x, p, y: jnp.sum(x * p, axis=1),
    "sum_long": lambda x, p, y: jnp.sum(jnp.tile(x, (1, 30)), axis=1),
    "max1": lambda x, p, y: jnp.max(x, axis=1),
    "min0": lambda x, p, y: jnp.min(x, axis=0),
    "argmax1": lambda x, p, y: jnp.argmax(x, axis=1),
    "argmin1": lambda x, p, y: jnp.argmin(x, axis=1),
    "cumsum1": lambda x, p, y: jnp.cumsum(x, axis=1),
    "cumsum_rev": lambda x, p, y: lax.cumsum(x, axis=1, reverse=True),
    "cumprod1": lambda x, p, y: jnp.cumprod(p, axis=1),
    "cummax1": lambda x, p, y: lax.cummax(x, axis=1),
    "cummin_rev": lambda x, p, y: lax.cummin(x, axis=1, reverse=True),
    "sort1": lambda x, p, y: jnp.sort(x, axis=1),
    "argsort1": lambda x, p, y: jnp.argsort(x, axis=1),
    "top_k": lambda x, p, y: lax.top_k(x, 5)[0],
    "top_k_index": lambda x, p, y: lax.top_k(x, 5)[1],
    "dot": lambda x, p, y: x @ y,
    "dot_f32": lambda x, p, y: lax.dot(x, y, preferred_element_type=jnp.float32),
}


def jit_ops(name: str, rng) -> dict:
    dt = jnp.dtype(name)
    x = _values(name, 2 ** -3, 8, (3, 40), rng)
    specials = [np.nan, -0.0, np.inf] if name != "float8_e8m0fnu" else [np.nan]
    for i, s in enumerate(specials):
        x[0, 3 + 2 * i] = np.float32(s).astype(dt)
    p = _values(name, 0.5, 2, (3, 40), rng)
    y = _values(name, 2 ** -2, 4, (40, 2), rng)
    x, p, y = (jnp.asarray(a) for a in (x, p, y))
    rec = {"x": bits(x), "p": bits(p), "y": bits(y)}
    for k, f in JIT_OPS.items():
        try:
            rec[k] = answer(f, x, p, y)
        except jax.errors.JaxRuntimeError as e:  # XLA fails on some formats (float4)
            rec[k] = {"error": type(e).__name__, "message": str(e).splitlines()[0]}
    return rec


def record() -> dict:
    rng = np.random.default_rng(0)
    out = {"_meta": {"jax": jax.__version__, "numpy": np.__version__,
                     "recorded_by": "tools/record_float8.py"}}
    out["names"] = sorted(n for n in dir(jnp) if any(
        k in n for k in ("float8", "float4", "int4", "int2")))
    everything = FLOATS + INTS + OTHERS
    promo = {}
    for a in everything:
        for b in FLOATS + INTS + OTHERS + ["int", "float"]:
            if a not in FLOATS + INTS and b not in FLOATS + INTS:
                continue
            bb = {"int": int, "float": float}.get(b, b)
            promo[f"{a},{b}"] = error(lambda a=a, bb=bb: jnp.result_type(a, bb))
    out["result_type"] = promo
    out["weak"] = {n: answer(lambda u: u * 2.0 + 1, jnp.ones(3, n)) for n in FLOATS}
    out["finfo"] = {}
    for n in FLOATS:
        fi = jnp.finfo(n)
        rec = {k: float(getattr(fi, k)) for k in
               ("eps", "epsneg", "max", "min", "tiny", "smallest_normal",
                "smallest_subnormal", "resolution")}
        rec.update({k: int(getattr(fi, k)) for k in
                    ("bits", "nmant", "nexp", "maxexp", "minexp", "precision", "machep",
                     "negep", "iexp")})
        rec["dtype"] = str(fi.dtype)
        out["finfo"][n] = rec
    out["iinfo"] = {n: {"min": int(jnp.iinfo(n).min), "max": int(jnp.iinfo(n).max),
                        "bits": int(jnp.iinfo(n).bits)} for n in INTS}
    out["repr"] = {n: repr(jnp.array([1, 0.5, -3, 0], n if n in FLOATS else "float32")
                           .astype(n)) for n in FLOATS + INTS}
    out["creation"] = {n: {"zeros": answer(lambda n=n: jnp.zeros(3, n)),
                           "ones": answer(lambda n=n: jnp.ones((2,), n)),
                           "array": answer(lambda n=n: jnp.array([1.0, 0.0, 1.0], n)),
                           "full": answer(lambda n=n: jnp.full((2,), 1, n))}
                       for n in FLOATS + INTS}
    out["jaxpr"] = {n: str(jax.make_jaxpr(lambda a, b: a + b)(jnp.ones(2, n), jnp.ones(2, n)))
                    for n in FLOATS}

    conv = {}
    for n in FLOATS:
        src = convert_inputs(n)
        f8 = jnp.asarray(np.arange(16 if n.startswith("float4") else 256,
                                   dtype=np.uint8).view(jnp.dtype(n)))
        conv[n] = {"f32_operand": bits(src),
                   "from_f32": answer(lambda u, n=n: u.astype(n), jnp.asarray(src)),
                   "to_f32": answer(lambda u: u.astype(jnp.float32), f8),
                   "to_f16": answer(lambda u: u.astype(jnp.float16), f8),
                   "to_bf16": answer(lambda u: u.astype(jnp.bfloat16), f8),
                   "to_i32": answer(lambda u: u.astype(jnp.int32), f8),
                   "to_bool": answer(lambda u: u.astype(jnp.bool_), f8),
                   "from_f16": answer(lambda u, n=n: u.astype(n),
                                      jnp.asarray(src.astype(np.float16))),
                   "from_i32": answer(lambda u, n=n: u.astype(n),
                                      jnp.asarray(np.array([0, 1, -3, 7, 17, 1000, -100000],
                                                           np.int32))),
                   "to_e5m2": answer(lambda u: u.astype(jnp.float8_e5m2), f8)}
    out["convert"] = conv

    arith = {}
    for n in FLOATS:
        x, y = operands(n, rng)
        rec = {"x": bits(x), "y": bits(y)}
        rec["unary"] = {}
        for u in UNARY:
            rec["unary"][u] = answer(getattr(lax, u), x)
        rec["binary"] = {b: answer(getattr(lax, b), x, y) for b in BINARY}
        rec["chain"] = answer(lambda a, b: a * b + a, x, y)
        rec["sum"] = answer(jnp.sum, x)
        arith[n] = rec
    out["arith"] = arith
    out["jit_ops"] = {n: jit_ops(n, rng) for n in FLOATS}
    return out


def main() -> None:
    assert jax.__version__ == "0.10.2", jax.__version__
    assert not jax.config.jax_enable_x64
    data = record()
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
