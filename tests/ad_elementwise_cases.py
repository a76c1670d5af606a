"""Differentiated elementwise programs whose jaxpr text is recorded from JAX 0.10.2.

``programs(jax, jnp, lax, np)`` returns an ordered dict ``name -> Case``;
``tools/record_ad_elementwise.py`` records ``str(jax.make_jaxpr(case.fn)(*case.args()))``
(or the error it raises) into ``tests/data/ad_elementwise.json``, and
``tests/test_lax_elementwise_ad.py`` replays them against ``transpile``. Nothing here
imports jax or transpile: the API modules are parameters.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

__all__ = ["Case", "programs"]


class Case(NamedTuple):
    fn: Callable
    args: Callable
    x64: bool = False


def programs(jax, jnp, lax, np) -> dict:
    P = {}

    def arr(*vals, dtype=np.float32):
        return lambda: tuple(jnp.asarray(np.array(v, dtype)) for v in vals)

    def scal(*vals):
        return lambda: vals

    def g(name, f, args, x64=False, **kw):
        assert f"grad/{name}" not in P, name
        P[f"grad/{name}"] = Case(jax.grad(f, **kw), args, x64)

    def j(name, f, args, x64=False):
        """make_jaxpr of jvp with tangents as extra arguments."""
        n = len(args())

        def fn(*a):
            return jax.jvp(f, a[:n], a[n:])
        P[f"jvp/{name}"] = Case(fn, lambda: args() + args(), x64)

    def vj(name, f, args, x64=False):
        """make_jaxpr of a pullback applied to a cotangent argument."""
        def fn(*a):
            out, pullback = jax.vjp(f, *a[:-1])
            return pullback(a[-1])
        P[f"vjp/{name}"] = Case(fn, args, x64)

    v3 = [0.5, -0.25, 0.75]
    pos3 = [0.5, 1.25, 2.0]
    unary = {  # name -> (function, scalar point, vector point)
        "exp": (lax.exp, 0.5, v3), "exp2": (lax.exp2, 0.5, v3), "log": (lax.log, 2.0, pos3),
        "expm1": (lax.expm1, 0.5, v3), "log1p": (lax.log1p, 0.5, pos3),
        "tanh": (lax.tanh, 0.5, v3), "logistic": (lax.logistic, 0.5, v3),
        "sin": (lax.sin, 0.5, v3), "cos": (lax.cos, 0.5, v3), "tan": (lax.tan, 0.5, v3),
        "asin": (lax.asin, 0.5, v3), "acos": (lax.acos, 0.5, v3),
        "atan": (lax.atan, 0.5, v3), "sinh": (lax.sinh, 0.5, v3),
        "cosh": (lax.cosh, 0.5, v3), "asinh": (lax.asinh, 0.5, v3),
        "acosh": (lax.acosh, 2.0, [1.5, 2.0, 3.0]), "atanh": (lax.atanh, 0.5, v3),
        "sqrt": (lax.sqrt, 2.0, pos3), "rsqrt": (lax.rsqrt, 2.0, pos3),
        "cbrt": (lax.cbrt, 2.0, v3), "square": (lax.square, 2.0, v3),
        "erf": (lax.erf, 0.5, v3), "erf_inv": (lax.erf_inv, 0.5, v3),
        "abs": (lax.abs, -2.0, v3), "sign": (lax.sign, -2.0, v3),
        "floor": (lax.floor, 1.5, v3), "ceil": (lax.ceil, 1.5, v3),
        "round": (lax.round, 1.5, v3), "neg": (lax.neg, 1.5, v3),
        "integer_pow0": (lambda x: lax.integer_pow(x, 0), 1.5, v3),
        "integer_pow1": (lambda x: lax.integer_pow(x, 1), 1.5, v3),
        "integer_pow2": (lambda x: lax.integer_pow(x, 2), 1.5, v3),
        "integer_pow3": (lambda x: lax.integer_pow(x, 3), 1.5, v3),
        "integer_pow-2": (lambda x: lax.integer_pow(x, -2), 1.5, pos3),
    }
    for name, (f, s, v) in unary.items():
        g(f"{name} scalar", f, scal(s))
        g(f"{name} f32[3]", lambda x, f=f: lax.reduce_sum(f(x), (0,)), arr(v))
        vj(f"{name} f32[3]", f, arr(v, [1.0, -2.0, 0.5]))
    for name, (f, s, v) in unary.items():
        j(name, f, arr(v))
        g(f"grad {name} scalar", jax.grad(f), scal(s))
    for name in ("exp", "log", "tanh", "logistic", "sqrt", "erf_inv", "abs", "atanh"):
        f, s, v = unary[name]
        g(f"{name} f64", f, arr(s, dtype=np.float64), x64=True)
    j("integer_pow3", unary["integer_pow3"][0], arr(v3))

    binary = {  # name -> (function, x, y)
        "add": (lax.add, 1.5, 0.5), "sub": (lax.sub, 1.5, 0.5), "mul": (lax.mul, 1.5, 0.5),
        "div": (lax.div, 1.5, 0.5), "rem": (lax.rem, 1.75, 0.5), "pow": (lax.pow, 1.5, 0.5),
        "atan2": (lax.atan2, 1.5, 0.5), "max": (lax.max, 1.5, 0.5),
        "min": (lax.min, 1.5, 0.5), "max tie": (lax.max, 1.5, 1.5),
    }
    for name, (f, x, y) in binary.items():
        g(f"{name} wrt both", f, scal(x, y), argnums=(0, 1))
        g(f"{name} wrt y", f, scal(x, y), argnums=1)
        g(f"{name} f32[3],f32[] wrt both",
          lambda a, b, f=f: lax.reduce_sum(f(a, b), (0,)), arr([x, y, x], y),
          argnums=(0, 1))
        j(name, f, arr([x, y, x], [y, x, y]))
        g(f"grad {name} wrt x", jax.grad(f), scal(x, y))
        vj(f"{name} f32[3],f32[3]", f, arr([x, y, x], [y, x, y], [1.0, -2.0, 0.5]))
        vj(f"{name} f32[2,3],f32[1,3]", f,
           arr([[x, y, x], [y, x, y]], [[y, x, y]], [[1.0, -2.0, 0.5], [0.25, 1.5, -1.0]]))
    g("pow int exponent", lambda x: lax.pow(x, 3), scal(1.5))
    g("pow int32[3] exponent",
      lambda x: lax.reduce_sum(lax.pow(x, np.array([1, 2, 0], np.int32)), (0,)), arr(v3))
    g("pow f64", lax.pow, arr(1.5, 2.5, dtype=np.float64), x64=True, argnums=(0, 1))
    for name in ("sqrt", "erf", "logistic", "cbrt", "atanh", "integer_pow3"):
        f, sv, v = unary[name]
        g(f"{name} f16[3]", lambda x, f=f: lax.reduce_sum(f(x), (0,)),
          arr(v, dtype=np.float16))
    g("add f32[1,3]+f32[2,3] wrt x", lambda x, y: lax.reduce_sum(lax.add(x, y), (0, 1)),
      arr([[0.5, 1.0, 1.5]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    g("sub f32[]-f32[3] wrt y", lambda x, y: lax.reduce_sum(lax.sub(x, y), (0,)),
      arr(0.5, [1.0, 2.0, 3.0]), argnums=1)
    g("rem f32[2,3],f32[1,3] wrt x", lambda x, y: lax.reduce_sum(lax.rem(x, y), (0, 1)),
      arr([[1.5, 2.5, 3.5], [4.5, 5.5, 6.5]], [[1.0, 2.0, 3.0]]))
    g("max f32[3],f32[] wrt y", lambda x, y: lax.reduce_sum(lax.max(x, y), (0,)),
      arr(v3, 0.5), argnums=1)
    j("clamp", lax.clamp, arr([0.0, 0.0, 0.0], [-1.0, 1.0, 3.0], [2.0, 2.0, 2.0]))
    j("select", lambda x, y: lax.select(x > y, x, y), arr(v3, pos3))
    j("convert f32->f16", lambda x: lax.convert_element_type(x, np.float16), arr(v3))
    j("convert f32->i32->f32", lambda x: lax.convert_element_type(
        lax.convert_element_type(x, np.int32), np.float32) * x, arr(v3))
    j("pow int exponent", lambda x: lax.pow(x, np.int32(3)), arr(v3))
    j("square then sqrt", lambda x: lax.sqrt(lax.square(x) + 1.0), arr(v3))
    g("x**2 jnp", lambda x: x ** 2, scal(3.0))
    g("x**2.5 jnp", lambda x: x ** 2.5, scal(3.0))
    g("jnp.power(x, y)", lambda x, y: jnp.power(x, y), scal(2.0, 3.0), argnums=(0, 1))
    g("clamp wrt all", lax.clamp, scal(0.0, 1.5, 2.0), argnums=(0, 1, 2))
    g("clamp f32[3]", lambda x: lax.reduce_sum(lax.clamp(0.0, x, 2.0), (0,)),
      arr([-1.0, 1.0, 3.0]))
    vj("clamp f32[3]", lambda lo, x, hi: lax.clamp(lo, x, hi),
       arr([0.0, 0.0, 0.0], [-1.0, 1.0, 3.0], [2.0, 2.0, 2.0], [1.0, 2.0, 3.0]))
    vj("select f32[3]", lambda x, y: lax.select(x > y, x, y),
       arr(v3, pos3, [1.0, 2.0, 3.0]))
    vj("select_n int32 f32[3]",
       lambda x, y, z: lax.select_n(
           lax.clamp(np.int32(0), lax.convert_element_type(x, np.int32), np.int32(2)),
           x, y, z),
       arr([0.5, 1.5, 2.5], pos3, v3, [1.0, 2.0, 3.0]))
    g("jnp.clip", lambda x: jnp.sum(jnp.clip(x, -0.3, 0.6)), arr(v3))
    g("select", lambda x, y: lax.select(x > y, x * 2.0, y), scal(1.5, 0.5), argnums=(0, 1))
    g("select f32[3]", lambda x: lax.reduce_sum(lax.select(x > 0.0, lax.sin(x), x), (0,)),
      arr(v3))
    g("select_n int which",
      lambda x: lax.reduce_sum(lax.select_n(np.array([0, 1, 2], np.int32), x, 2.0 * x,
                                            lax.sin(x)), (0,)), arr(v3))
    g("select const case", lambda x: lax.select(x > 0.0, x, 3.0), scal(1.5))
    g("convert f32->f16->f32",
      lambda x: lax.convert_element_type(lax.convert_element_type(x, np.float16) * x,
                                         np.float32), scal(1.5))
    g("convert f32->i32",
      lambda x: lax.convert_element_type(lax.convert_element_type(x, np.int32),
                                         np.float32) + x, scal(1.5))
    g("convert x64", lambda x: lax.convert_element_type(x, np.float32) * 2.0,
      arr(1.5, dtype=np.float64), x64=True)
    g("jnp.where", lambda x: jnp.where(x > 1.0, jnp.exp(x), x * x), scal(1.5))
    g("jnp.maximum relu", lambda x: jnp.sum(jnp.maximum(x, 0.0)), arr(v3))
    g("comparisons", lambda x: lax.convert_element_type(x < 2.0, np.float32) * x, scal(1.5))
    g("nextafter", lambda x: lax.nextafter(x, 2.0), scal(1.5))
    g("is_finite", lambda x: lax.select(lax.is_finite(x), x, 0.0), scal(1.5))
    g("grad grad tanh", jax.grad(lax.tanh), scal(0.5))
    g("grad grad logistic", jax.grad(lax.logistic), scal(0.5))
    g("grad grad div", jax.grad(lambda x: 1.0 / x), scal(0.5))
    g("grad grad max", jax.grad(lambda x: lax.max(x, 0.25) * x), scal(0.5))
    g("grad grad pow", jax.grad(lambda x: lax.pow(x, x)), scal(1.5))
    g("mixed chain", lambda x: lax.log1p(lax.exp(x)) * lax.sqrt(x * x + 1.0), scal(0.5))
    g("broadcast add f32[1,3]+f32[2,3]",
      lambda x, y: lax.reduce_sum(lax.mul(lax.add(x, y), y), (0, 1)),
      arr([[0.5, 1.0, 1.5]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), argnums=(0, 1))
    return P
