"""Record JAX 0.10.2's bfloat16 answers into ``tests/data/bfloat16.json``.

Run with the JAX interpreter ($JAX_PYTHON), x64 off::

    $JAX_PYTHON tools/record_bfloat16.py

bfloat16 values are stored as their uint16 bit patterns (exact, NaN payloads kept).
Every case is run eagerly and under ``jax.jit``; the recorder checks that JAX gives the
same bits both ways (XLA:CPU rounds every bfloat16 operation, also inside fusions) and
stores one answer.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "bfloat16.json"
BF16 = jnp.bfloat16

#: Operand values (as float32, each exactly a bfloat16): signs, zeros, the subnormal
#: range (read as zero by XLA:CPU), large values, infinities and NaN.
VALUES = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 0.1, -0.7, 1.5, 2.5, -2.5, 3.14, -9.5, 0.999,
          1e-3, 1e-30, 3e-39, -3e-39, 88.0, -100.0, 1e4, 3e38, float("inf"), float("-inf"),
          float("nan"), 0.3, 0.75, 7.0]
#: Second operands for binary primitives (same length).
VALUES2 = [1.0, 2.0, -0.5, 0.3, 0.0, -0.0, 3.0, 2.5, -1.5, 0.5, 7.0, -2.0, 0.25, 1e-3,
           100.0, 2.0, 1.0, 5e-39, 1.1, 3.0, -1e4, 2.0, 1.0, float("nan"), 1.0, -0.3,
           float("inf"), -7.0]

UNARY = ["neg", "sign", "floor", "ceil", "round", "is_finite", "exp", "exp2", "expm1", "log",
         "log1p", "tanh", "logistic", "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
         "cosh", "asinh", "acosh", "atanh", "sqrt", "rsqrt", "cbrt", "erf", "erf_inv", "abs",
         "square"]
#: float16 operands: VALUES with float16's own subnormals and largest value in place of
#: bfloat16's extremes (XLA:CPU computes float16 in float32 as it does bfloat16).
VALUES_F16 = [*VALUES[:15], 1e-5, 6e-8, -3e-6, *VALUES[18:21], 65504.0, *VALUES[22:]]
BINARY = ["add", "sub", "mul", "div", "rem", "pow", "max", "min", "atan2", "nextafter",
          "eq", "lt", "ne", "ge"]


def bits(x) -> list:
    a = np.asarray(x)
    if a.dtype == BF16:
        return a.view(np.uint16).ravel().tolist()
    if a.dtype == np.float32:
        return a.view(np.uint32).ravel().tolist()
    if a.dtype == np.float16:
        return a.view(np.uint16).ravel().tolist()
    return a.ravel().tolist()


def answer(fn, *args) -> dict:
    """fn's result, eager and jit (asserted equal), as dtype/weak/shape/bits."""
    outs = []
    for run in (fn, jax.jit(fn)):
        r = run(*args)
        outs.append({"dtype": str(r.dtype), "weak_type": bool(r.aval.weak_type),
                     "shape": list(r.shape), "bits": bits(r)})
    assert outs[0] == outs[1], (fn, outs)
    return outs[0]


def bf(vals):
    return jnp.asarray(np.asarray(vals, np.float32)).astype(BF16)


def record() -> dict:
    x, y = bf(VALUES), bf(VALUES2)
    out = {"_meta": {"jax": jax.__version__, "numpy": np.__version__,
                     "recorded_by": "tools/record_bfloat16.py"},
           "values": bits(x), "values2": bits(y)}
    out["unary"] = {name: answer(getattr(lax, name), x) for name in UNARY}
    out["unary"]["integer_pow_3"] = answer(lambda a: lax.integer_pow(a, 3), x)
    out["unary"]["integer_pow_-2"] = answer(lambda a: lax.integer_pow(a, -2), x)
    out["binary"] = {name: answer(getattr(lax, name), x, y) for name in BINARY}
    h = jnp.asarray(np.asarray(VALUES_F16, np.float32)).astype(jnp.float16)
    h2 = jnp.asarray(np.asarray(VALUES2, np.float32)).astype(jnp.float16)
    f16 = {"values": bits(h), "values2": bits(h2)}
    f16["unary"] = {name: answer(getattr(lax, name), h) for name in UNARY}
    f16["binary"] = {name: answer(getattr(lax, name), h, h2) for name in BINARY}
    out["float16"] = f16

    p, q, r = bf([0.1, 0.7, 1.3, 2.9, -3.1]), bf([1.1, 3.7, 0.3, 2.2, 5.5]), \
        bf([0.01, 100.3, -7.7, 1e-3, 3.3])
    out["chain_operands"] = [bits(p), bits(q), bits(r)]
    out["chains"] = {
        "exp_mul_add": answer(lambda a, b, c: jnp.exp(a) * b + c, p, q, r),
        "sin_div": answer(lambda a, b, c: jnp.sin(a) / (b + 1.0) - c * c, p, q, r),
        "weak_scalars": answer(lambda a, b, c: (a * 0.1 + 3) * b - 2.5 * c, p, q, r),
    }

    rng = np.random.default_rng(0)
    m = bf(rng.standard_normal((4, 6)) * 3)
    out["matrix"] = bits(m)
    red = {}
    for name in ("sum", "prod", "max", "min", "mean", "var", "argmax"):
        for axis in (None, 0, 1):
            red[f"{name}_{axis}"] = answer(lambda a, n=name, ax=axis: getattr(jnp, n)(a, axis=ax),
                                           m)
    for name in ("cumsum", "cumprod", "cummax", "cummin"):
        for axis in (0, 1):
            red[f"{name}_{axis}"] = answer(
                lambda a, n=name, ax=axis: getattr(lax, n)(a, axis=ax), m)
    red["jnp_cumsum_1"] = answer(lambda a: jnp.cumsum(a, axis=1), m)
    out["reductions"] = red

    big = bf(rng.standard_normal(300) + 1.0)
    out["long_vector"] = bits(big)
    out["long_sum"] = answer(jnp.sum, big)
    out["long_cumsum"] = answer(jnp.cumsum, big)
    # Scans longer than 16: XLA:CPU splits them into blocks of 16 (ReduceWindowRewriter)
    srng = np.random.default_rng(1)  # its own stream: the other operands stay as they were
    near1 = bf(1.0 + srng.standard_normal((3, 40)) * 0.05)
    wide = bf(srng.standard_normal((3, 40)) * 4)
    tall = bf(srng.standard_normal((300, 2)) + 0.5)
    out["scan_operands"] = {"near1": bits(near1), "wide": bits(wide), "tall": bits(tall)}
    out["scans"] = {
        "cumsum_wide_1": answer(lambda a: lax.cumsum(a, axis=1), wide),
        "cumsum_wide_1_rev": answer(lambda a: lax.cumsum(a, axis=1, reverse=True), wide),
        "cumsum_tall_0": answer(lambda a: lax.cumsum(a, axis=0), tall),
        "cumsum_tall_0_rev": answer(lambda a: lax.cumsum(a, axis=0, reverse=True), tall),
        "cumsum_17": answer(lambda a: lax.cumsum(a[0, :17], axis=0), wide),
        "cumsum_16": answer(lambda a: lax.cumsum(a[0, :16], axis=0), wide),
        "cumprod_near1_1": answer(lambda a: lax.cumprod(a, axis=1), near1),
        "cumprod_near1_1_rev": answer(lambda a: lax.cumprod(a, axis=1, reverse=True), near1),
        "jnp_cumsum_tall": answer(jnp.cumsum, tall),
        "mean_wide_1": answer(lambda a: jnp.mean(a, axis=1), wide),
        "mean_tall_0": answer(lambda a: jnp.mean(a, axis=0), tall),
        "mean_tall": answer(jnp.mean, tall),
        "var_tall_0": answer(lambda a: jnp.var(a, axis=0), tall),
    }
    out["jaxpr_mean"] = str(jax.make_jaxpr(lambda u: jnp.mean(u, axis=1))(wide))

    s = bf([3.0, -0.0, 0.0, float("nan"), -1.5, float("inf"), 2.0, -float("inf"), 1e-3, -7.0])
    out["sort_operand"] = bits(s)
    out["sort"] = {"sort": answer(jnp.sort, s), "argsort": answer(jnp.argsort, s)}

    a = bf(rng.standard_normal((3, 40)))
    b = bf(rng.standard_normal((40, 5)))
    out["dot_operands"] = [bits(a), bits(b)]
    out["dot"] = {
        "matmul": answer(jnp.matmul, a, b),
        "pref_f32": answer(lambda u, v: lax.dot_general(
            u, v, (((1,), (0,)), ((), ())), preferred_element_type=jnp.float32), a, b),
        "vecdot": answer(lambda u: jnp.dot(u[0], u[1]), a),
    }

    f32 = np.array([1.00390625, 1.01171875, -1.00390625, 3.0e-39, 1.0e-45, 3.4e38, -3.4e38,
                    0.1, 65504.0, 1e10], np.float32)
    f32_nan = np.array([0x7FC00001, 0xFFC12345, 0x7F800001, 0x7FFFFFFF], np.uint32).view(
        np.float32)
    f32 = np.concatenate([f32, f32_nan])
    f64 = np.array([1.0 + 2.0 ** -8 + 2.0 ** -30, 1.0 + 2.0 ** -8 - 2.0 ** -40,
                    1.0 + 2.0 ** -8, 0.1, -1e300, 1e-300], np.float64)
    out["convert_operands"] = {"f32": bits(f32), "f64": f64.tolist()}
    conv = {
        "f32_to_bf16": answer(lambda u: u.astype(BF16), jnp.asarray(f32)),
        "bf16_to_f32": answer(lambda u: u.astype(jnp.float32), x),
        "bf16_to_f16": answer(lambda u: u.astype(jnp.float16), x),
        "f16_to_bf16": answer(lambda u: u.astype(BF16), x.astype(jnp.float16)),
        "bf16_to_i32": answer(lambda u: u.astype(jnp.int32), x),
        "bf16_to_u8": answer(lambda u: u.astype(jnp.uint8), x),
        "bf16_to_bool": answer(lambda u: u.astype(jnp.bool_), x),
        "i32_to_bf16": answer(lambda u: u.astype(BF16),
                              jnp.asarray(np.array([1, 257, 259, -65535, 2 ** 30 + 1, 7],
                                                   np.int32))),
        "bitcast_u16": answer(lambda u: lax.bitcast_convert_type(u, jnp.uint16), x),
        "bitcast_from_i16": answer(lambda u: lax.bitcast_convert_type(u, BF16),
                                   jnp.asarray(np.array([0x3F80, -0x4080, 0x7FC1, 1, -1],
                                                        np.int16))),
    }
    jax.config.update("jax_enable_x64", True)
    try:
        conv["f64_to_bf16"] = answer(lambda u: u.astype(BF16), jnp.asarray(f64))
    finally:
        jax.config.update("jax_enable_x64", False)
    out["convert"] = conv

    key = jax.random.key(0)
    out["random"] = {
        "uniform": answer(lambda k: jax.random.uniform(k, (12,), BF16), key),
        "uniform_range": answer(lambda k: jax.random.uniform(k, (12,), BF16, -2.0, 3.0), key),
        "normal": answer(lambda k: jax.random.normal(k, (12,), BF16), key),
    }

    g = jax.grad(lambda u: jnp.sum(jnp.sin(u) * u))
    gx = bf([0.5, -1.25, 2.0, 3.0])
    out["grad_operand"] = bits(gx)
    out["grad"] = answer(g, gx)

    fi = jnp.finfo(BF16)
    out["finfo"] = {k: float(getattr(fi, k)) for k in
                    ("eps", "epsneg", "max", "min", "tiny", "smallest_normal",
                     "smallest_subnormal", "resolution")}
    out["finfo"].update({k: int(getattr(fi, k)) for k in
                         ("bits", "nmant", "nexp", "maxexp", "minexp", "precision",
                          "machep", "negep", "iexp")})
    out["finfo"]["dtype"] = str(fi.dtype)
    out["jaxpr"] = str(jax.make_jaxpr(lambda u: jnp.sin(u) * 2.0 + 1)(x[:2]))
    return out


def main() -> None:
    assert jax.__version__ == "0.10.2", jax.__version__
    assert not jax.config.jax_enable_x64
    data = record()
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
