"""Record JAX 0.10.2's complex64/complex128 answers into ``tests/data/complex.json``.

Run with the JAX interpreter ($JAX_PYTHON)::

    $JAX_PYTHON tools/record_complex.py

Each case is a Python expression over ``x``, ``y`` (complex operands), ``r`` (a real
operand of the matching float dtype), ``m`` (a complex matrix) and the modules ``jax``,
``jnp``, ``lax``, ``np``; the test evaluates the same text with transpile. Cases run with
x64 off on complex64 operands and with x64 on (a subprocess) on complex128 operands,
eagerly and under ``jax.jit``. Complex values are stored as ``[re, im]`` pairs; results
that differ between eager and jit keep both.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "complex.json"

X = [1 + 2j, -0.5 + 0.25j, 3 - 4j, -1j, 0.75 + 0j, -2 - 0.5j]
Y = [0.5 - 1j, 2 + 0j, -1 + 1j, 0.25 + 0.75j, -0.5 - 2j, 1.5 + 1.5j]
R = [0.5, -1.0, 2.0, 0.0, -3.0, 1.25]
M = [[1 + 1j, 2 - 1j, 0.5j], [-1 + 0j, 0.25 + 2j, 3 - 0.5j]]

UNARY = ["neg", "sign", "exp", "log", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos", "tan",
         "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "abs",
         "square", "real", "imag", "conj", "logistic", "exp2", "is_finite", "floor", "ceil",
         "round", "cbrt", "erf"]
BINARY = ["add", "sub", "mul", "div", "pow", "eq", "ne", "max", "min", "lt", "le", "gt",
          "ge", "atan2", "rem", "nextafter"]
JNP = ["jnp.real(x)", "jnp.imag(x)", "jnp.conj(x)", "jnp.conjugate(x)", "jnp.angle(x)",
       "jnp.angle(x, deg=True)", "jnp.abs(x)", "jnp.sign(x)", "jnp.exp(x)", "jnp.log(x)",
       "jnp.sqrt(x)", "jnp.log10(x)", "jnp.log2(x)", "jnp.square(x)", "jnp.reciprocal(x)",
       "x * 1j", "x + 1j", "1j * r", "r + x", "x / 2", "x ** 2", "x ** 0.5", "x ** y",
       "jnp.power(x, 3)", "-x", "x == y", "x != y", "jnp.isnan(x)", "jnp.isfinite(x)",
       "jnp.isinf(x)", "jnp.sum(x)", "jnp.prod(x)", "jnp.mean(x)", "jnp.cumsum(x)",
       "jnp.cumprod(x)", "jnp.max(x)", "jnp.min(x)", "jnp.argmax(x)", "jnp.argmin(x)",
       "jnp.maximum(x, y)", "jnp.minimum(x, y)", "jnp.sort(x)", "jnp.argsort(x)",
       "jnp.dot(x, y)", "jnp.vdot(x, y)", "m @ m.T", "jnp.matmul(m, x[:3])",
       "jnp.sum(m, axis=0)", "jnp.where(r > 0, x, y)", "jnp.concatenate([x, y])",
       "jnp.reshape(x, (2, 3)).T", "x[::2]", "x[jnp.array([3, 0, 1])]",
       "x.at[jnp.array([1, 1, 4])].add(y[:3])", "x.at[2].set(5j)",
       "lax.dynamic_slice(x, (2,), (3,))", "jnp.stack([x, y], 1)",
       "lax.complex(r, r * 2)", "lax.complex(1.0, 2.0)", "jnp.complex64(3)",
       "jnp.asarray(2 + 3j)", "jnp.array([1, 2j])", "jnp.zeros(2, jnp.complex64)",
       "jnp.ones(2, complex)", "x.astype(jnp.float32)", "r.astype(jnp.complex64)",
       "x.real", "x.imag", "x.conj()", "jnp.iscomplex(x)", "jnp.isreal(x)",
       "jnp.iscomplexobj(x)", "jnp.isrealobj(r)", "jnp.floor(x)", "jnp.less(x, y)",
       "jnp.arctan2(x, y)", "jnp.exp(1j)", "jnp.linspace(0, 1j, 3)", "1j + 2",
       "jnp.sinh(x)", "jnp.arccosh(x)", "jnp.tanh(x)", "jnp.mod(x, y)",
       "jnp.floor_divide(x, y)", "jnp.round(x)", "jnp.clip(x, 0, 1)",
       "lax.cumsum(x)", "lax.cummax(x)", "lax.sort(x)", "lax.reduce_max(x, (0,))",
       "jnp.sum(x * jnp.conj(x)).real", "lax.select(r > 0, x, y)",
       "lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * (1 + 1j)), (0, x))[1]",
       "lax.scan(lambda c, e: (c + e, c * e), 0j, x)",
       "lax.fori_loop(0, 3, lambda i, c: c * c, x)",
       "lax.cond(True, lambda a: a * 1j, lambda a: a, x)",
       "jax.vmap(lambda a, b: a * jnp.conj(b))(x, y)",
       "jnp.finfo(jnp.complex64).eps", "str(jnp.result_type(1j, jnp.float32))",
       "str(jnp.result_type(1j, 2.0))", "jnp.result_type(1j, jnp.float16)",
       "jnp.var(x)", "jnp.std(x)", "jnp.isclose(x, y)", "jnp.allclose(x, x)",
       "jnp.einsum('i,i->', x, y)", "jnp.outer(x[:2], y[:3])", "jnp.trace(m[:, :2])",
       "jnp.full(3, 1j)", "jnp.eye(2, dtype=jnp.complex64)", "jnp.zeros_like(x)",
       "jnp.ones_like(r, dtype=complex)", "jnp.nansum(x)", "jnp.cumsum(m, axis=1)",
       "jnp.flip(x)", "jnp.roll(x, 2)", "jnp.tile(x[:2], 2)", "jnp.take(x, jnp.array([0, 5]))",
       "jnp.argsort(-x)", "jnp.diff(x)", "jnp.polyval(y[:3], x)", "jnp.linalg.norm(x)",
       "jnp.sqrt(-1 + 0j)", "jnp.power(x, 0.5j)", "jnp.exp2(x)", "jnp.expm1(x)",
       "jnp.log1p(x)", "jnp.real(3)", "jnp.imag(3.0)", "jnp.conj(2)", "jnp.angle(1.0)",
       "jnp.angle(r)", "jnp.angle(2)", "jnp.iscomplex(3)", "x.sum()", "x.mean()",
       "jnp.dot(m, m.T.conj())", "lax.dot_general(m, m, (((1,), (1,)), ((), ())))",
       "lax.reduce_prod(x, (0,))", "lax.cumprod(x)", "lax.cummin(x)",
       "lax.argmax(x, 0, jnp.int32)", "lax.sort((x, r), num_keys=1)",
       "lax.pad(x, 0j, [(1, 2, 1)])", "lax.rev(x, (0,))", "x.at[1].mul(2j)",
       "x.at[jnp.array([0, 0])].set(y[:2])", "jax.vmap(lax.real)(m)",
       "jax.vmap(lambda a: lax.complex(a, a))(r)", "jax.vmap(jnp.conj)(m)",
       "jax.vmap(jnp.sort)(m)", "jax.vmap(jnp.sum, in_axes=1)(m)",
       "jax.vmap(lambda a, b: jnp.dot(a, b))(m, m)", "jnp.unique(jnp.concatenate([x, x]))",
       "jnp.where(x == x[0], 1j, x)", "jnp.select([r > 0], [x], 2j)",
       "lax.convert_element_type(x, jnp.int32)", "lax.convert_element_type(x, jnp.bool_)",
       "lax.convert_element_type(x, jnp.float16)", "lax.convert_element_type(r, jnp.complex64)",
       "lax.abs(lax.complex(r, -r))", "lax.sign(jnp.zeros(2, jnp.complex64))",
       "lax.conj(r)", "lax.real(r)", "lax.complex(x, x)", "lax.complex(r, r.astype(jnp.float16))",
       "lax.complex(r.astype(jnp.int32), r.astype(jnp.int32))",
       ]
AD = ["jax.grad(lambda a: jnp.sum(jnp.abs(a) ** 2))(x)",
      "jax.grad(lambda a: jnp.sum((a * jnp.conj(a)).real))(x)",
      "jax.grad(lambda a: jnp.sum(jnp.real(jnp.exp(a))))(x)",
      "jax.grad(lambda a: jnp.sum(jnp.imag(jnp.sin(a) * a)))(x)",
      "jax.grad(lambda a: jnp.abs(jnp.sum(a * y)))(x)",
      "jax.grad(lambda a: jnp.sum(jnp.angle(a)))(x)",
      "jax.grad(lambda a: jnp.sum(lax.complex(a, a * a).imag * 2))(r)",
      "jax.grad(lambda a: jnp.sum(jnp.abs(jnp.sqrt(a))))(x)",
      "jax.grad(lambda a: jnp.sum(jnp.abs(a / y + jnp.log(a))))(x)",
      "jax.grad(lambda a: jnp.real(jnp.dot(a, jnp.conj(a))))(x)",
      "jax.grad(lambda a: jnp.sum(a * a))(x)",
      "jax.grad(lambda a: a * a, holomorphic=True)(x[0])",
      "jax.grad(lambda a: jnp.sum(jnp.exp(a) * a), holomorphic=True)(x)",
      "jax.grad(lambda a: jnp.sum(jnp.sin(a) / y), holomorphic=True)(x)",
      "jax.grad(lambda a: jnp.sum(a), holomorphic=True)(r)",
      "jax.jvp(lambda a: jnp.exp(a) * jnp.conj(a), (x,), (y,))",
      "jax.vjp(lambda a: jnp.exp(a) * jnp.conj(a), x)[1](y)",
      "jax.vjp(lambda a: jnp.abs(a), x)[1](r)",
      "jax.vjp(lambda a: lax.complex(a, 2 * a), r)[1](x)",
      "jax.jacfwd(lambda a: a * jnp.conj(a))(x[:2])",
      "jax.jacrev(lambda a: a * jnp.conj(a))(x[:2])",
      "jax.jacfwd(lambda a: a * a, holomorphic=True)(x[:2])",
      "jax.jacrev(lambda a: a * a, holomorphic=True)(x[:2])",
      "jax.jacfwd(lambda a: jnp.abs(a))(x[:2])",
      "jax.jacrev(lambda a: jnp.abs(a))(x[:2])",
      "jax.vmap(jax.grad(lambda a: jnp.abs(a) ** 2))(x)",
      "jax.grad(lambda a: jnp.sum(jnp.cumsum(a) * jnp.conj(a)).real)(x)",
      "jax.grad(lambda a: jnp.abs(jnp.prod(a)))(x)",
      "jax.grad(lambda a: jnp.abs(jnp.sum(m @ jnp.conj(a[:3]))))(x)",
      "jax.jvp(jnp.sqrt, (x,), (y,))", "jax.jvp(lambda a: a ** y, (x,), (y,))",
      "jax.jvp(jnp.abs, (x,), (y,))", "jax.jvp(lambda a: a ** 3, (x,), (y,))",
      "jax.grad(lambda a: jnp.abs(a ** 1.5).sum())(x)",
      "jax.grad(lambda a: jnp.real(jnp.sum(jnp.arctan(a) * jnp.tanh(a))))(x)",
      "jax.grad(lambda a: jnp.abs(lax.complex(a, a[::-1])).sum())(r)",
      "jax.grad(lambda a: jnp.max(jnp.abs(a)))(x)",
      "jax.grad(lambda a: jnp.sum(jnp.sort(a).real * r))(x)",
      "jax.grad(lambda a: lax.fori_loop(0, 3, lambda i, c: c * a, a).real.sum())(x)",
      "jax.grad(lambda a: lax.scan(lambda c, e: (c * e, c), 1 + 0j, a)[0].imag)(x)",
      "jax.grad(lambda a: jnp.abs(lax.cond(True, lambda b: b * 1j, lambda b: b, a)).sum())(x)",
      "jax.grad(lambda a: jnp.abs(a[jnp.array([0, 2])]).sum())(x)",
      "jax.grad(lambda a: jnp.abs(a.at[1].add(a[0])).sum())(x)",
      "jax.grad(lambda a: jnp.abs(jnp.concatenate([a, a * 2j])).sum())(x)",
      "jax.grad(lambda a: jnp.abs(jnp.cumprod(a)).sum())(x)",
      "jax.grad(lambda a: jnp.abs(a.reshape(2, 3) @ m.T).sum())(x)",
      "jax.grad(lambda a: (a * a.conj()).real.sum() + jnp.angle(a).sum())(x)",
      "jax.vmap(jax.grad(lambda a: jnp.abs(jnp.sin(a))))(x)",
      "jax.jit(jax.grad(lambda a: jnp.abs(jnp.exp(a)).sum()))(x)",
      "jax.grad(lambda a: jnp.real(a.astype(x.dtype) * 1j * a).sum())(r)",
      "jax.grad(lambda a: jnp.abs(a) ** 2, holomorphic=True)(x[0])",
      ]
#: Expressions whose jaxpr text (``make_jaxpr`` of the expression over x, y, r, m) is kept.
JAXPRS = ["x * 1j + 2", "jnp.abs(x)", "jnp.angle(x, deg=True)", "jnp.conj(x) + jnp.real(x)",
          "lax.complex(r, r)", "jnp.var(x)", "jnp.linalg.norm(x)", "x < y", "jnp.round(x)",
          "jnp.sum(x)", "jnp.mean(x)", "x.astype(jnp.float32)", "jnp.sort(x)",
          "jnp.isclose(x, y)", "jnp.iscomplex(x)",
          "jax.grad(lambda a: jnp.abs(a) ** 2)(x[0])",
          "jax.grad(lambda a: (a * a).real)(x[0])",
          "jax.grad(lambda a: a * a, holomorphic=True)(x[0])",
          "jax.vjp(lambda a: lax.complex(a, a), r)[1](x)",
          "jax.grad(lambda a: jnp.sum(jnp.angle(a)))(x)"]
AD_ERRORS = ["jax.grad(lambda a: a * a)(x[0])",
             "jax.grad(lambda a: jnp.sum(a))(r)",
             "jax.grad(lambda a: a.real, holomorphic=True)(x[0])",
             "jax.grad(lambda a: a, holomorphic=True)(r[0])",
             "jax.jacrev(lambda a: a * a)(x)"]


def enc(v):
    a = np.asarray(v)
    if a.dtype.kind == "c":
        return np.stack([a.real, a.imag], -1).tolist()
    return a.tolist()


def result(v):
    if isinstance(v, str):
        return {"str": v}
    if isinstance(v, (tuple, list)):
        return {"tuple": [result(e) for e in v]}
    if isinstance(v, type) or isinstance(v, np.dtype):
        return {"str": str(np.dtype(v))}
    a = np.asarray(v)
    return {"dtype": str(a.dtype), "weak_type": bool(getattr(v, "weak_type", False)),
            "shape": list(a.shape), "values": enc(a)}


def error(e):
    msg = str(e).split("\n")[0]
    return {"error": type(e).__name__, "message": msg}


def record_mode():
    import jax
    import jax.numpy as jnp
    from jax import lax
    x64 = bool(jax.config.jax_enable_x64)
    cdt, rdt = (np.complex128, np.float64) if x64 else (np.complex64, np.float32)
    env = {"jax": jax, "jnp": jnp, "lax": lax, "np": np}
    args = {"x": jnp.asarray(np.array(X, cdt)), "y": jnp.asarray(np.array(Y, cdt)),
            "r": jnp.asarray(np.array(R, rdt)), "m": jnp.asarray(np.array(M, cdt))}
    cases = [(f"lax.{n}(x)", "lax") for n in UNARY]
    cases += [(f"lax.{n}(x, y)", "lax") for n in BINARY]
    cases += [("lax.integer_pow(x, 3)", "lax"), ("lax.integer_pow(x, -2)", "lax")]
    cases += [(e, "jnp") for e in JNP] + [(e, "ad") for e in AD + AD_ERRORS]
    out = []
    for expr in JAXPRS:
        fn = eval("lambda x, y, r, m: " + expr, env)
        out.append({"expr": expr, "group": "jaxpr",
                    "jaxpr": str(jax.make_jaxpr(fn)(**args))})
    for expr, group in cases:
        fn = eval("lambda x, y, r, m: " + expr, env)
        row = {"expr": expr, "group": group}
        try:
            row["eager"] = result(jax.tree_util.tree_map(lambda v: v, fn(**args)))
        except Exception as e:
            row["eager"] = error(e)
        if group != "ad":
            try:
                row["jit"] = result(jax.jit(fn)(**args))
            except Exception as e:
                row["jit"] = error(e)
            if row["jit"] == row["eager"]:
                del row["jit"]
        out.append(row)
    return out


def main(argv):
    if "--mode" in argv:
        print(json.dumps(record_mode()))
        return
    modes = {}
    for name, flag in (("x64_off", "0"), ("x64_on", "1")):
        env = dict(os.environ, JAX_ENABLE_X64=flag)
        proc = subprocess.run([sys.executable, __file__, "--mode"], env=env,
                              capture_output=True, text=True, check=True)
        modes[name] = json.loads(proc.stdout)
    import jax
    data = {"_meta": {"jax": jax.__version__, "x": enc(X), "y": enc(Y), "r": R, "m": enc(M)},
            **modes}
    OUT.write_text(json.dumps(data, separators=(",", ":")))
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main(sys.argv[1:])
