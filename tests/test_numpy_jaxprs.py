"""jaxpr text, dtypes, weak types and values of jnp programs, compared with JAX 0.10.2.

Each case is a program and its arguments, written as source text and evaluated with
``jnp``/``np``/``lax`` and the sample arrays of ``SAMPLES`` in scope. The expected data
was recorded by running the same text under JAX 0.10.2 (CPU, x64 off):
``str(jax.make_jaxpr(fn)(*args))``, and for the eager call ``fn(*args)`` (NumPy array
arguments passed through ``jnp.asarray``) each output's ``[dtype, weak_type, shape,
values]`` (NaN and infinities as strings). Nothing here imports jax.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import transpile.numpy as jnp
from transpile import lax
from transpile.jit import make_jaxpr

from test_numpy_eager import check_outputs, run

SAMPLES = """
f32 = np.array([0.5, -1.5, 2.0], np.float32)
f32b = np.array([1.0, 2.5, -3.0], np.float32)
i32 = np.array([1, -2, 3], np.int32)
i32b = np.array([2, 3, -1], np.int32)
u8 = np.array([1, 2, 250], np.uint8)
i8 = np.array([1, -2, 100], np.int8)
f16 = np.array([0.5, -1.5, 2.0], np.float16)
b3 = np.array([True, False, True])
x5 = np.arange(5, dtype=np.float32)
m23 = np.arange(6, dtype=np.float32).reshape(2, 3)
m34 = np.arange(12, dtype=np.float32).reshape(3, 4) / 4
m234 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
i23 = np.arange(6, dtype=np.int32).reshape(2, 3)
f0 = np.float32(2.5)
e0 = np.zeros((0,), np.float32)
e03 = np.zeros((0, 3), np.float32)
"""

_ENV = {"jnp": jnp, "np": np, "lax": lax}
exec(SAMPLES, _ENV)

# Cases whose JAX jaxpr uses a primitive transpile.lax does not provide (yet); they are
# expected to differ until it does. name prefix -> (lax attribute, what JAX uses)
NEEDS = {
    "signbit_": ("bitcast_convert_type", "signbit reads the sign bit with bitcast_convert_type"),
    "copysign_": ("bitcast_convert_type", "copysign calls signbit (bitcast_convert_type)"),
    "stack": ("stack", "jnp.stack binds the stack primitive"),
    "split": ("split", "jnp.split binds the split primitive"),
    "array_split": ("split", "jnp.array_split binds the split primitive"),
    "tile": ("tile", "jnp.tile binds the tile primitive"),
    "array_copy": ("copy_p", "jnp.array copies a tracer with the copy primitive"),
}


def _needs(name):
    for prefix, need in NEEDS.items():
        if name.startswith(prefix) and not hasattr(lax, need[0]):
            return need
    return None


# name: (program, arguments, jaxpr text, eager outputs), recorded from JAX 0.10.2. The
# ufunc cases have no eager outputs here: test_numpy_dtypes and test_numpy_ufuncs cover
# their dtypes and values.
CASES = {
    'negative_f32': (
        'lambda x: jnp.negative(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = neg a in (b,) }',
        None),
    'negative_i32': (
        'lambda x: jnp.negative(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:i32[3] = neg a in (b,) }',
        None),
    'negative_b3': (
        'lambda x: jnp.negative(x)',
        '(b3,)',
        'ERR TypeError: neg does not accept dtype bool. Accepted dtypes are subtypes of integer, floating, complexfloating.',
        None),
    'negative_2.5': (
        'lambda x: jnp.negative(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = neg a in (b,) }',
        None),
    'positive_f32': (
        'lambda x: jnp.positive(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let  in (a,) }',
        None),
    'positive_i32': (
        'lambda x: jnp.positive(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let  in (a,) }',
        None),
    'positive_b3': (
        'lambda x: jnp.positive(x)',
        '(b3,)',
        '{ lambda ; a:bool[3]. let  in (a,) }',
        None),
    'positive_2.5': (
        'lambda x: jnp.positive(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let  in (a,) }',
        None),
    'abs_f32': (
        'lambda x: jnp.abs(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = abs a in (b,) }',
        None),
    'abs_i32': (
        'lambda x: jnp.abs(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:i32[3] = abs a in (b,) }',
        None),
    'abs_b3': (
        'lambda x: jnp.abs(x)',
        '(b3,)',
        '{ lambda ; a:bool[3]. let  in (a,) }',
        None),
    'abs_2.5': (
        'lambda x: jnp.abs(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = abs a in (b,) }',
        None),
    'sign_f32': (
        'lambda x: jnp.sign(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = sign a in (b,) }',
        None),
    'sign_i32': (
        'lambda x: jnp.sign(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:i32[3] = sign a in (b,) }',
        None),
    'sign_b3': (
        'lambda x: jnp.sign(x)',
        '(b3,)',
        'ERR TypeError: sign does not accept dtype bool. Accepted dtypes are subtypes of integer, floating, complexfloating.',
        None),
    'sign_2.5': (
        'lambda x: jnp.sign(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = sign a in (b,) }',
        None),
    'floor_f32': (
        'lambda x: jnp.floor(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = floor a in (b,) }',
        None),
    'floor_i32': (
        'lambda x: jnp.floor(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let  in (a,) }',
        None),
    'floor_b3': (
        'lambda x: jnp.floor(x)',
        '(b3,)',
        '{ lambda ; a:bool[3]. let  in (a,) }',
        None),
    'floor_2.5': (
        'lambda x: jnp.floor(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = floor a in (b,) }',
        None),
    'ceil_f32': (
        'lambda x: jnp.ceil(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = ceil a in (b,) }',
        None),
    'ceil_i32': (
        'lambda x: jnp.ceil(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let  in (a,) }',
        None),
    'ceil_b3': (
        'lambda x: jnp.ceil(x)',
        '(b3,)',
        '{ lambda ; a:bool[3]. let  in (a,) }',
        None),
    'ceil_2.5': (
        'lambda x: jnp.ceil(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = ceil a in (b,) }',
        None),
    'round_f32': (
        'lambda x: jnp.round(x)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = jit[
      name=round
      jaxpr={ lambda ; a:f32[3]. let
          b:f32[3] = round[rounding_method=1] a
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'round_i32': (
        'lambda x: jnp.round(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:i32[3] = jit[name=round jaxpr={ lambda ; a:i32[3]. let  in (a,) }] a
  in (b,) }""",
        None),
    'round_b3': (
        'lambda x: jnp.round(x)',
        '(b3,)',
        "ERR ValueError: data type <class 'numpy.bool'> not inexact",
        None),
    'round_2.5': (
        'lambda x: jnp.round(x)',
        '(2.5,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[] = jit[
      name=round
      jaxpr={ lambda ; a:f32[]. let
          b:f32[] = round[rounding_method=1] a
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'rint_f32': (
        'lambda x: jnp.rint(x)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = jit[
      name=rint
      jaxpr={ lambda ; a:f32[3]. let
          b:f32[3] = round[rounding_method=1] a
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'rint_i32': (
        'lambda x: jnp.rint(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = jit[
      name=rint
      jaxpr={ lambda ; a:i32[3]. let
          b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'rint_b3': (
        'lambda x: jnp.rint(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = jit[
      name=rint
      jaxpr={ lambda ; a:bool[3]. let
          b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'rint_2.5': (
        'lambda x: jnp.rint(x)',
        '(2.5,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[] = jit[
      name=rint
      jaxpr={ lambda ; a:f32[]. let
          b:f32[] = round[rounding_method=1] a
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'trunc_f32': (
        'lambda x: jnp.trunc(x)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = jit[
      name=trunc
      jaxpr={ lambda ; a:f32[3]. let
          c:bool[3] = lt a 0.0:f32[]
          d:f32[3] = ceil a
          e:f32[3] = floor a
          b:f32[3] = jit[
            name=_where
            jaxpr={ lambda ; c:bool[3] d:f32[3] e:f32[3]. let
                b:f32[3] = select_n c e d
              in (b,) }
          ] c d e
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'trunc_i32': (
        'lambda x: jnp.trunc(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:i32[3] = jit[name=trunc jaxpr={ lambda ; a:i32[3]. let  in (a,) }] a
  in (b,) }""",
        None),
    'trunc_b3': (
        'lambda x: jnp.trunc(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:bool[3] = jit[name=trunc jaxpr={ lambda ; a:bool[3]. let  in (a,) }] a
  in (b,) }""",
        None),
    'trunc_2.5': (
        'lambda x: jnp.trunc(x)',
        '(2.5,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[] = jit[
      name=trunc
      jaxpr={ lambda ; a:f32[]. let
          c:bool[] = lt a 0.0:f32[]
          d:f32[] = ceil a
          e:f32[] = floor a
          b:f32[] = jit[
            name=_where
            jaxpr={ lambda ; c:bool[] d:f32[] e:f32[]. let
                b:f32[] = select_n c e d
              in (b,) }
          ] c d e
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'exp_f32': (
        'lambda x: jnp.exp(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = exp a in (b,) }',
        None),
    'exp_i32': (
        'lambda x: jnp.exp(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = exp b
  in (c,) }""",
        None),
    'exp_b3': (
        'lambda x: jnp.exp(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = exp b
  in (c,) }""",
        None),
    'exp_2.5': (
        'lambda x: jnp.exp(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = exp a in (b,) }',
        None),
    'exp2_f32': (
        'lambda x: jnp.exp2(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = exp2 a in (b,) }',
        None),
    'exp2_i32': (
        'lambda x: jnp.exp2(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = exp2 b
  in (c,) }""",
        None),
    'exp2_b3': (
        'lambda x: jnp.exp2(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = exp2 b
  in (c,) }""",
        None),
    'exp2_2.5': (
        'lambda x: jnp.exp2(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = exp2 a in (b,) }',
        None),
    'expm1_f32': (
        'lambda x: jnp.expm1(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = expm1 a in (b,) }',
        None),
    'expm1_i32': (
        'lambda x: jnp.expm1(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = expm1 b
  in (c,) }""",
        None),
    'expm1_b3': (
        'lambda x: jnp.expm1(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = expm1 b
  in (c,) }""",
        None),
    'expm1_2.5': (
        'lambda x: jnp.expm1(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = expm1 a in (b,) }',
        None),
    'log_f32': (
        'lambda x: jnp.log(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = log a in (b,) }',
        None),
    'log_i32': (
        'lambda x: jnp.log(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = log b
  in (c,) }""",
        None),
    'log_b3': (
        'lambda x: jnp.log(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = log b
  in (c,) }""",
        None),
    'log_2.5': (
        'lambda x: jnp.log(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = log a in (b,) }',
        None),
    'log2_f32': (
        'lambda x: jnp.log2(x)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = log a
    c:f32[] = log 2.0:f32[]
    d:f32[3] = div b c
  in (d,) }""",
        None),
    'log2_i32': (
        'lambda x: jnp.log2(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = log b
    d:f32[] = log 2.0:f32[]
    e:f32[3] = div c d
  in (e,) }""",
        None),
    'log2_b3': (
        'lambda x: jnp.log2(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = log b
    d:f32[] = log 2.0:f32[]
    e:f32[3] = div c d
  in (e,) }""",
        None),
    'log2_2.5': (
        'lambda x: jnp.log2(x)',
        '(2.5,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[] = log a
    c:f32[] = log 2.0:f32[]
    d:f32[] = div b c
  in (d,) }""",
        None),
    'log10_f32': (
        'lambda x: jnp.log10(x)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = log a
    c:f32[3] = mul b 0.4342944920063019:f32[]
  in (c,) }""",
        None),
    'log10_i32': (
        'lambda x: jnp.log10(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = log b
    d:f32[3] = mul c 0.4342944920063019:f32[]
  in (d,) }""",
        None),
    'log10_b3': (
        'lambda x: jnp.log10(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = log b
    d:f32[3] = mul c 0.4342944920063019:f32[]
  in (d,) }""",
        None),
    'log10_2.5': (
        'lambda x: jnp.log10(x)',
        '(2.5,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[] = log a
    c:f32[] = mul b 0.4342944920063019:f32[]
  in (c,) }""",
        None),
    'log1p_f32': (
        'lambda x: jnp.log1p(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = log1p a in (b,) }',
        None),
    'log1p_i32': (
        'lambda x: jnp.log1p(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = log1p b
  in (c,) }""",
        None),
    'log1p_b3': (
        'lambda x: jnp.log1p(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = log1p b
  in (c,) }""",
        None),
    'log1p_2.5': (
        'lambda x: jnp.log1p(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = log1p a in (b,) }',
        None),
    'sqrt_f32': (
        'lambda x: jnp.sqrt(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = sqrt a in (b,) }',
        None),
    'sqrt_i32': (
        'lambda x: jnp.sqrt(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = sqrt b
  in (c,) }""",
        None),
    'sqrt_b3': (
        'lambda x: jnp.sqrt(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = sqrt b
  in (c,) }""",
        None),
    'sqrt_2.5': (
        'lambda x: jnp.sqrt(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = sqrt a in (b,) }',
        None),
    'cbrt_f32': (
        'lambda x: jnp.cbrt(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = cbrt a in (b,) }',
        None),
    'cbrt_i32': (
        'lambda x: jnp.cbrt(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = cbrt b
  in (c,) }""",
        None),
    'cbrt_b3': (
        'lambda x: jnp.cbrt(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = cbrt b
  in (c,) }""",
        None),
    'cbrt_2.5': (
        'lambda x: jnp.cbrt(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = cbrt a in (b,) }',
        None),
    'square_f32': (
        'lambda x: jnp.square(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = square a in (b,) }',
        None),
    'square_i32': (
        'lambda x: jnp.square(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:i32[3] = square a in (b,) }',
        None),
    'square_b3': (
        'lambda x: jnp.square(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    c:i32[3] = square b
  in (c,) }""",
        None),
    'square_2.5': (
        'lambda x: jnp.square(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = square a in (b,) }',
        None),
    'reciprocal_f32': (
        'lambda x: jnp.reciprocal(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = integer_pow[y=-1] a in (b,) }',
        None),
    'reciprocal_i32': (
        'lambda x: jnp.reciprocal(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = integer_pow[y=-1] b
  in (c,) }""",
        None),
    'reciprocal_b3': (
        'lambda x: jnp.reciprocal(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = integer_pow[y=-1] b
  in (c,) }""",
        None),
    'reciprocal_2.5': (
        'lambda x: jnp.reciprocal(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = integer_pow[y=-1] a in (b,) }',
        None),
    'sin_f32': (
        'lambda x: jnp.sin(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = sin a in (b,) }',
        None),
    'sin_i32': (
        'lambda x: jnp.sin(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = sin b
  in (c,) }""",
        None),
    'sin_b3': (
        'lambda x: jnp.sin(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = sin b
  in (c,) }""",
        None),
    'sin_2.5': (
        'lambda x: jnp.sin(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = sin a in (b,) }',
        None),
    'cos_f32': (
        'lambda x: jnp.cos(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = cos a in (b,) }',
        None),
    'cos_i32': (
        'lambda x: jnp.cos(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = cos b
  in (c,) }""",
        None),
    'cos_b3': (
        'lambda x: jnp.cos(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = cos b
  in (c,) }""",
        None),
    'cos_2.5': (
        'lambda x: jnp.cos(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = cos a in (b,) }',
        None),
    'tan_f32': (
        'lambda x: jnp.tan(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = tan a in (b,) }',
        None),
    'tan_i32': (
        'lambda x: jnp.tan(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = tan b
  in (c,) }""",
        None),
    'tan_b3': (
        'lambda x: jnp.tan(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = tan b
  in (c,) }""",
        None),
    'tan_2.5': (
        'lambda x: jnp.tan(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = tan a in (b,) }',
        None),
    'arcsin_f32': (
        'lambda x: jnp.arcsin(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = asin a in (b,) }',
        None),
    'arcsin_i32': (
        'lambda x: jnp.arcsin(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = asin b
  in (c,) }""",
        None),
    'arcsin_b3': (
        'lambda x: jnp.arcsin(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = asin b
  in (c,) }""",
        None),
    'arcsin_2.5': (
        'lambda x: jnp.arcsin(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = asin a in (b,) }',
        None),
    'arccos_f32': (
        'lambda x: jnp.arccos(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = acos a in (b,) }',
        None),
    'arccos_i32': (
        'lambda x: jnp.arccos(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = acos b
  in (c,) }""",
        None),
    'arccos_b3': (
        'lambda x: jnp.arccos(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = acos b
  in (c,) }""",
        None),
    'arccos_2.5': (
        'lambda x: jnp.arccos(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = acos a in (b,) }',
        None),
    'arctan_f32': (
        'lambda x: jnp.arctan(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = atan a in (b,) }',
        None),
    'arctan_i32': (
        'lambda x: jnp.arctan(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = atan b
  in (c,) }""",
        None),
    'arctan_b3': (
        'lambda x: jnp.arctan(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = atan b
  in (c,) }""",
        None),
    'arctan_2.5': (
        'lambda x: jnp.arctan(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = atan a in (b,) }',
        None),
    'sinh_f32': (
        'lambda x: jnp.sinh(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = sinh a in (b,) }',
        None),
    'sinh_i32': (
        'lambda x: jnp.sinh(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = sinh b
  in (c,) }""",
        None),
    'sinh_b3': (
        'lambda x: jnp.sinh(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = sinh b
  in (c,) }""",
        None),
    'sinh_2.5': (
        'lambda x: jnp.sinh(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = sinh a in (b,) }',
        None),
    'cosh_f32': (
        'lambda x: jnp.cosh(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = cosh a in (b,) }',
        None),
    'cosh_i32': (
        'lambda x: jnp.cosh(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = cosh b
  in (c,) }""",
        None),
    'cosh_b3': (
        'lambda x: jnp.cosh(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = cosh b
  in (c,) }""",
        None),
    'cosh_2.5': (
        'lambda x: jnp.cosh(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = cosh a in (b,) }',
        None),
    'tanh_f32': (
        'lambda x: jnp.tanh(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = tanh a in (b,) }',
        None),
    'tanh_i32': (
        'lambda x: jnp.tanh(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = tanh b
  in (c,) }""",
        None),
    'tanh_b3': (
        'lambda x: jnp.tanh(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = tanh b
  in (c,) }""",
        None),
    'tanh_2.5': (
        'lambda x: jnp.tanh(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = tanh a in (b,) }',
        None),
    'arcsinh_f32': (
        'lambda x: jnp.arcsinh(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = asinh a in (b,) }',
        None),
    'arcsinh_i32': (
        'lambda x: jnp.arcsinh(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = asinh b
  in (c,) }""",
        None),
    'arcsinh_b3': (
        'lambda x: jnp.arcsinh(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = asinh b
  in (c,) }""",
        None),
    'arcsinh_2.5': (
        'lambda x: jnp.arcsinh(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = asinh a in (b,) }',
        None),
    'arccosh_f32': (
        'lambda x: jnp.arccosh(x)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = jit[
      name=arccosh
      jaxpr={ lambda ; a:f32[3]. let b:f32[3] = acosh a in (b,) }
    ] a
  in (b,) }""",
        None),
    'arccosh_i32': (
        'lambda x: jnp.arccosh(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = jit[
      name=arccosh
      jaxpr={ lambda ; a:i32[3]. let
          c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
          b:f32[3] = acosh c
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'arccosh_b3': (
        'lambda x: jnp.arccosh(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = jit[
      name=arccosh
      jaxpr={ lambda ; a:bool[3]. let
          c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
          b:f32[3] = acosh c
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'arccosh_2.5': (
        'lambda x: jnp.arccosh(x)',
        '(2.5,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[] = jit[
      name=arccosh
      jaxpr={ lambda ; a:f32[]. let b:f32[] = acosh a in (b,) }
    ] a
  in (b,) }""",
        None),
    'arctanh_f32': (
        'lambda x: jnp.arctanh(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = atanh a in (b,) }',
        None),
    'arctanh_i32': (
        'lambda x: jnp.arctanh(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = atanh b
  in (c,) }""",
        None),
    'arctanh_b3': (
        'lambda x: jnp.arctanh(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = atanh b
  in (c,) }""",
        None),
    'arctanh_2.5': (
        'lambda x: jnp.arctanh(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = atanh a in (b,) }',
        None),
    'isnan_f32': (
        'lambda x: jnp.isnan(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:bool[3] = ne a a in (b,) }',
        None),
    'isnan_i32': (
        'lambda x: jnp.isnan(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:bool[3] = ne a a in (b,) }',
        None),
    'isnan_b3': (
        'lambda x: jnp.isnan(x)',
        '(b3,)',
        '{ lambda ; a:bool[3]. let b:bool[3] = ne a a in (b,) }',
        None),
    'isnan_2.5': (
        'lambda x: jnp.isnan(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:bool[] = ne a a in (b,) }',
        None),
    'isinf_f32': (
        'lambda x: jnp.isinf(x)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:bool[3] = jit[
      name=isinf
      jaxpr={ lambda ; a:f32[3]. let
          c:f32[3] = abs a
          b:bool[3] = eq c inf:f32[]
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'isinf_i32': (
        'lambda x: jnp.isinf(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:bool[3] = jit[
      name=isinf
      jaxpr={ lambda ; a:i32[3]. let
          b:bool[3] = broadcast_in_dim False:bool[]
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'isinf_b3': (
        'lambda x: jnp.isinf(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:bool[3] = jit[
      name=isinf
      jaxpr={ lambda ; a:bool[3]. let
          b:bool[3] = broadcast_in_dim False:bool[]
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'isinf_2.5': (
        'lambda x: jnp.isinf(x)',
        '(2.5,)',
        """\
{ lambda ; a:f32[]. let
    b:bool[] = jit[
      name=isinf
      jaxpr={ lambda ; a:f32[]. let
          c:f32[] = abs a
          b:bool[] = eq c inf:f32[]
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'isfinite_f32': (
        'lambda x: jnp.isfinite(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:bool[3] = is_finite a in (b,) }',
        None),
    'isfinite_i32': (
        'lambda x: jnp.isfinite(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:bool[3] = broadcast_in_dim True:bool[] in (b,) }',
        None),
    'isfinite_b3': (
        'lambda x: jnp.isfinite(x)',
        '(b3,)',
        '{ lambda ; a:bool[3]. let b:bool[3] = broadcast_in_dim True:bool[] in (b,) }',
        None),
    'isfinite_2.5': (
        'lambda x: jnp.isfinite(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:bool[] = is_finite a in (b,) }',
        None),
    'signbit_f32': (
        'lambda x: jnp.signbit(x)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:bool[3] = jit[
      name=signbit
      jaxpr={ lambda ; a:f32[3]. let
          c:i32[3] = bitcast_convert_type[new_dtype=int32] a
          d:i32[3] = shift_right_arithmetic c 31:i32[]
          b:bool[3] = convert_element_type[new_dtype=bool weak_type=False] d
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'signbit_i32': (
        'lambda x: jnp.signbit(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:bool[3] = jit[
      name=signbit
      jaxpr={ lambda ; a:i32[3]. let b:bool[3] = lt a 0:i32[] in (b,) }
    ] a
  in (b,) }""",
        None),
    'signbit_b3': (
        'lambda x: jnp.signbit(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:bool[3] = jit[
      name=signbit
      jaxpr={ lambda ; a:bool[3]. let
          b:bool[3] = broadcast_in_dim False:bool[]
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'signbit_2.5': (
        'lambda x: jnp.signbit(x)',
        '(2.5,)',
        """\
{ lambda ; a:f32[]. let
    b:bool[] = jit[
      name=signbit
      jaxpr={ lambda ; a:f32[]. let
          c:i32[] = bitcast_convert_type[new_dtype=int32] a
          d:i32[] = shift_right_arithmetic c 31:i32[]
          b:bool[] = convert_element_type[new_dtype=bool weak_type=False] d
        in (b,) }
    ] a
  in (b,) }""",
        None),
    'deg2rad_f32': (
        'lambda x: jnp.deg2rad(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = mul a 0.01745329238474369:f32[] in (b,) }',
        None),
    'deg2rad_i32': (
        'lambda x: jnp.deg2rad(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = mul b 0.01745329238474369:f32[]
  in (c,) }""",
        None),
    'deg2rad_b3': (
        'lambda x: jnp.deg2rad(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = mul b 0.01745329238474369:f32[]
  in (c,) }""",
        None),
    'deg2rad_2.5': (
        'lambda x: jnp.deg2rad(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = mul a 0.017453292519943295:f32[] in (b,) }',
        None),
    'rad2deg_f32': (
        'lambda x: jnp.rad2deg(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = mul a 57.295780181884766:f32[] in (b,) }',
        None),
    'rad2deg_i32': (
        'lambda x: jnp.rad2deg(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = mul b 57.295780181884766:f32[]
  in (c,) }""",
        None),
    'rad2deg_b3': (
        'lambda x: jnp.rad2deg(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = mul b 57.295780181884766:f32[]
  in (c,) }""",
        None),
    'rad2deg_2.5': (
        'lambda x: jnp.rad2deg(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:f32[] = mul a 57.29577951308232:f32[] in (b,) }',
        None),
    'logical_not_f32': (
        'lambda x: jnp.logical_not(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:bool[3] = ne a 0.0:f32[]; c:bool[3] = not b in (c,) }',
        None),
    'logical_not_i32': (
        'lambda x: jnp.logical_not(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:bool[3] = ne a 0:i32[]; c:bool[3] = not b in (c,) }',
        None),
    'logical_not_b3': (
        'lambda x: jnp.logical_not(x)',
        '(b3,)',
        '{ lambda ; a:bool[3]. let b:bool[3] = not a in (b,) }',
        None),
    'logical_not_2.5': (
        'lambda x: jnp.logical_not(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let b:bool[] = ne a 0.0:f32[]; c:bool[] = not b in (c,) }',
        None),
    'invert_f32': (
        'lambda x: jnp.invert(x)',
        '(f32,)',
        'ERR TypeError: not does not accept dtype float32. Accepted dtypes are subtypes of integer, bool.',
        None),
    'invert_i32': (
        'lambda x: jnp.invert(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:i32[3] = not a in (b,) }',
        None),
    'invert_b3': (
        'lambda x: jnp.invert(x)',
        '(b3,)',
        '{ lambda ; a:bool[3]. let b:bool[3] = not a in (b,) }',
        None),
    'invert_2.5': (
        'lambda x: jnp.invert(x)',
        '(2.5,)',
        'ERR TypeError: not does not accept dtype float32. Accepted dtypes are subtypes of integer, bool.',
        None),
    'conj_f32': (
        'lambda x: jnp.conj(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let  in (a,) }',
        None),
    'conj_i32': (
        'lambda x: jnp.conj(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let  in (a,) }',
        None),
    'conj_b3': (
        'lambda x: jnp.conj(x)',
        '(b3,)',
        '{ lambda ; a:bool[3]. let  in (a,) }',
        None),
    'conj_2.5': (
        'lambda x: jnp.conj(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let  in (a,) }',
        None),
    'real_f32': (
        'lambda x: jnp.real(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let  in (a,) }',
        None),
    'real_i32': (
        'lambda x: jnp.real(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let  in (a,) }',
        None),
    'real_b3': (
        'lambda x: jnp.real(x)',
        '(b3,)',
        '{ lambda ; a:bool[3]. let  in (a,) }',
        None),
    'real_2.5': (
        'lambda x: jnp.real(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let  in (a,) }',
        None),
    'imag_f32': (
        'lambda x: jnp.imag(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = broadcast_in_dim 0.0:f32[] in (b,) }',
        None),
    'imag_i32': (
        'lambda x: jnp.imag(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:i32[3] = broadcast_in_dim 0:i32[] in (b,) }',
        None),
    'imag_b3': (
        'lambda x: jnp.imag(x)',
        '(b3,)',
        '{ lambda ; a:bool[3]. let b:bool[3] = broadcast_in_dim False:bool[] in (b,) }',
        None),
    'imag_2.5': (
        'lambda x: jnp.imag(x)',
        '(2.5,)',
        '{ lambda ; a:f32[]. let  in (0.0:f32[],) }',
        None),
    'add_f32_f32b': (
        'lambda x, y: jnp.add(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:f32[3] = add a b in (c,) }',
        None),
    'add_i32_i32b': (
        'lambda x, y: jnp.add(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:i32[3] = add a b in (c,) }',
        None),
    'add_i32_2': (
        'lambda x, y: jnp.add(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:i32[3] = add a c
  in (d,) }""",
        None),
    'add_u8_i32': (
        'lambda x, y: jnp.add(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = add c b
  in (d,) }""",
        None),
    'add_b3_b3': (
        'lambda x, y: jnp.add(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = or a b in (c,) }',
        None),
    'add_2.5_i32': (
        'lambda x, y: jnp.add(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:f32[3] = add a c
  in (d,) }""",
        None),
    'add_f32_m23': (
        'lambda x, y: jnp.add(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,3] = add c b
  in (d,) }""",
        None),
    'subtract_f32_f32b': (
        'lambda x, y: jnp.subtract(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:f32[3] = sub a b in (c,) }',
        None),
    'subtract_i32_i32b': (
        'lambda x, y: jnp.subtract(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:i32[3] = sub a b in (c,) }',
        None),
    'subtract_i32_2': (
        'lambda x, y: jnp.subtract(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:i32[3] = sub a c
  in (d,) }""",
        None),
    'subtract_u8_i32': (
        'lambda x, y: jnp.subtract(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = sub c b
  in (d,) }""",
        None),
    'subtract_b3_b3': (
        'lambda x, y: jnp.subtract(x, y)',
        '(b3, b3)',
        'ERR TypeError: sub does not accept dtype bool at position 0. Accepted dtypes at position 0 are subtypes of integer, floating, complexfloating.',
        None),
    'subtract_2.5_i32': (
        'lambda x, y: jnp.subtract(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:f32[3] = sub a c
  in (d,) }""",
        None),
    'subtract_f32_m23': (
        'lambda x, y: jnp.subtract(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,3] = sub c b
  in (d,) }""",
        None),
    'multiply_f32_f32b': (
        'lambda x, y: jnp.multiply(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:f32[3] = mul a b in (c,) }',
        None),
    'multiply_i32_i32b': (
        'lambda x, y: jnp.multiply(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:i32[3] = mul a b in (c,) }',
        None),
    'multiply_i32_2': (
        'lambda x, y: jnp.multiply(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:i32[3] = mul a c
  in (d,) }""",
        None),
    'multiply_u8_i32': (
        'lambda x, y: jnp.multiply(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = mul c b
  in (d,) }""",
        None),
    'multiply_b3_b3': (
        'lambda x, y: jnp.multiply(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = and a b in (c,) }',
        None),
    'multiply_2.5_i32': (
        'lambda x, y: jnp.multiply(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:f32[3] = mul a c
  in (d,) }""",
        None),
    'multiply_f32_m23': (
        'lambda x, y: jnp.multiply(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,3] = mul c b
  in (d,) }""",
        None),
    'divide_f32_f32b': (
        'lambda x, y: jnp.divide(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:f32[3] = div a b in (c,) }',
        None),
    'divide_i32_i32b': (
        'lambda x, y: jnp.divide(x, y)',
        '(i32, i32b)',
        """\
{ lambda ; a:i32[3] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = div c d
  in (e,) }""",
        None),
    'divide_i32_2': (
        'lambda x, y: jnp.divide(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = div c d
  in (e,) }""",
        None),
    'divide_u8_i32': (
        'lambda x, y: jnp.divide(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = div c d
  in (e,) }""",
        None),
    'divide_b3_b3': (
        'lambda x, y: jnp.divide(x, y)',
        '(b3, b3)',
        """\
{ lambda ; a:bool[3] b:bool[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = div c d
  in (e,) }""",
        None),
    'divide_2.5_i32': (
        'lambda x, y: jnp.divide(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:f32[3] = div a c
  in (d,) }""",
        None),
    'divide_f32_m23': (
        'lambda x, y: jnp.divide(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,3] = div c b
  in (d,) }""",
        None),
    'true_divide_f32_f32b': (
        'lambda x, y: jnp.true_divide(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:f32[3] = div a b in (c,) }',
        None),
    'true_divide_i32_i32b': (
        'lambda x, y: jnp.true_divide(x, y)',
        '(i32, i32b)',
        """\
{ lambda ; a:i32[3] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = div c d
  in (e,) }""",
        None),
    'true_divide_i32_2': (
        'lambda x, y: jnp.true_divide(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = div c d
  in (e,) }""",
        None),
    'true_divide_u8_i32': (
        'lambda x, y: jnp.true_divide(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = div c d
  in (e,) }""",
        None),
    'true_divide_b3_b3': (
        'lambda x, y: jnp.true_divide(x, y)',
        '(b3, b3)',
        """\
{ lambda ; a:bool[3] b:bool[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = div c d
  in (e,) }""",
        None),
    'true_divide_2.5_i32': (
        'lambda x, y: jnp.true_divide(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:f32[3] = div a c
  in (d,) }""",
        None),
    'true_divide_f32_m23': (
        'lambda x, y: jnp.true_divide(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,3] = div c b
  in (d,) }""",
        None),
    'floor_divide_f32_f32b': (
        'lambda x, y: jnp.floor_divide(x, y)',
        '(f32, f32b)',
        """\
let floor_divide = { lambda ; a:f32[3] b:f32[3]. let
    c:f32[3] = rem a b
    d:bool[3] = eq b 0.0:f32[]
    e:f32[3] = sub a c
    f:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; d:bool[3] a:f32[3] e:f32[3]. let
          f:f32[3] = select_n d e a
        in (f,) }
    ] d a e
    g:f32[3] = div f b
    h:bool[3] = ne c 0.0:f32[]
    i:f32[3] = sign b
    j:f32[3] = sign c
    k:bool[3] = ne i j
    l:bool[3] = and h k
    m:f32[3] = add c b
    n:f32[3] = select_n l c m
    o:f32[3] = sub g 1.0:f32[]
    p:f32[3] = select_n l g o
    q:f32[3] = round[rounding_method=0] p
  in (q,) } in
{ lambda ; r:f32[3] s:f32[3]. let
    t:f32[3] = jit[name=floor_divide jaxpr=floor_divide] r s
  in (t,) }""",
        None),
    'floor_divide_i32_i32b': (
        'lambda x, y: jnp.floor_divide(x, y)',
        '(i32, i32b)',
        """\
{ lambda ; a:i32[3] b:i32[3]. let
    c:i32[3] = jit[
      name=floor_divide
      jaxpr={ lambda ; a:i32[3] b:i32[3]. let
          d:i32[3] = div a b
          e:i32[3] = sign a
          f:i32[3] = sign b
          g:bool[3] = ne e f
          h:i32[3] = rem a b
          i:bool[3] = ne h 0:i32[]
          j:bool[3] = and g i
          k:i32[3] = sub d 1:i32[]
          c:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; j:bool[3] k:i32[3] d:i32[3]. let
                c:i32[3] = select_n j d k
              in (c,) }
          ] j k d
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'floor_divide_i32_2': (
        'lambda x, y: jnp.floor_divide(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[3] = jit[
      name=floor_divide
      jaxpr={ lambda ; a:i32[3] b:i32[]. let
          d:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
          e:i32[3] = div a d
          f:i32[3] = sign a
          g:i32[] = sign d
          h:bool[3] = ne f g
          i:i32[3] = rem a d
          j:bool[3] = ne i 0:i32[]
          k:bool[3] = and h j
          l:i32[3] = sub e 1:i32[]
          c:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; k:bool[3] l:i32[3] e:i32[3]. let
                c:i32[3] = select_n k e l
              in (c,) }
          ] k l e
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'floor_divide_u8_i32': (
        'lambda x, y: jnp.floor_divide(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = jit[
      name=floor_divide
      jaxpr={ lambda ; a:u8[3] b:i32[3]. let
          d:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
          e:i32[3] = div d b
          f:i32[3] = sign d
          g:i32[3] = sign b
          h:bool[3] = ne f g
          i:i32[3] = rem d b
          j:bool[3] = ne i 0:i32[]
          k:bool[3] = and h j
          l:i32[3] = sub e 1:i32[]
          c:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; k:bool[3] l:i32[3] e:i32[3]. let
                c:i32[3] = select_n k e l
              in (c,) }
          ] k l e
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'floor_divide_b3_b3': (
        'lambda x, y: jnp.floor_divide(x, y)',
        '(b3, b3)',
        """\
let floor_divide = { lambda ; a:bool[3] b:bool[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] b
    e:i32[3] = div c d
    f:i32[3] = sign c
    g:i32[3] = sign d
    h:bool[3] = ne f g
    i:i32[3] = rem c d
    j:bool[3] = ne i 0:i32[]
    k:bool[3] = and h j
    l:i32[3] = sub e 1:i32[]
    m:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; k:bool[3] l:i32[3] e:i32[3]. let
          m:i32[3] = select_n k e l
        in (m,) }
    ] k l e
  in (m,) } in
{ lambda ; n:bool[3] o:bool[3]. let
    p:i32[3] = jit[name=floor_divide jaxpr=floor_divide] n o
  in (p,) }""",
        None),
    'floor_divide_2.5_i32': (
        'lambda x, y: jnp.floor_divide(x, y)',
        '(2.5, i32)',
        """\
let floor_divide = { lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:f32[3] = rem a c
    e:bool[3] = eq c 0.0:f32[]
    f:f32[3] = sub a d
    g:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; e:bool[3] a:f32[] f:f32[3]. let
          h:f32[3] = broadcast_in_dim a
          g:f32[3] = select_n e f h
        in (g,) }
    ] e a f
    i:f32[3] = div g c
    j:bool[3] = ne d 0.0:f32[]
    k:f32[3] = sign c
    l:f32[3] = sign d
    m:bool[3] = ne k l
    n:bool[3] = and j m
    o:f32[3] = add d c
    p:f32[3] = select_n n d o
    q:f32[3] = sub i 1.0:f32[]
    r:f32[3] = select_n n i q
    s:f32[3] = round[rounding_method=0] r
  in (s,) } in
{ lambda ; t:f32[] u:i32[3]. let
    v:f32[3] = jit[name=floor_divide jaxpr=floor_divide] t u
  in (v,) }""",
        None),
    'floor_divide_f32_m23': (
        'lambda x, y: jnp.floor_divide(x, y)',
        '(f32, m23)',
        """\
let floor_divide = { lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,3] = rem c b
    e:bool[2,3] = eq b 0.0:f32[]
    f:f32[2,3] = sub c d
    g:f32[2,3] = jit[
      name=_where
      jaxpr={ lambda ; e:bool[2,3] c:f32[1,3] f:f32[2,3]. let
          h:f32[2,3] = broadcast_in_dim[broadcast_dimensions=(0, 1)] c
          g:f32[2,3] = select_n e f h
        in (g,) }
    ] e c f
    i:f32[2,3] = div g b
    j:bool[2,3] = ne d 0.0:f32[]
    k:f32[2,3] = sign b
    l:f32[2,3] = sign d
    m:bool[2,3] = ne k l
    n:bool[2,3] = and j m
    o:f32[2,3] = add d b
    p:f32[2,3] = select_n n d o
    q:f32[2,3] = sub i 1.0:f32[]
    r:f32[2,3] = select_n n i q
    s:f32[2,3] = round[rounding_method=0] r
  in (s,) } in
{ lambda ; t:f32[3] u:f32[2,3]. let
    v:f32[2,3] = jit[name=floor_divide jaxpr=floor_divide] t u
  in (v,) }""",
        None),
    'remainder_f32_f32b': (
        'lambda x, y: jnp.remainder(x, y)',
        '(f32, f32b)',
        """\
{ lambda ; a:f32[3] b:f32[3]. let
    c:f32[3] = jit[
      name=remainder
      jaxpr={ lambda ; a:f32[3] b:f32[3]. let
          d:f32[3] = rem a b
          e:bool[3] = ne d 0.0:f32[]
          f:bool[3] = lt d 0.0:f32[]
          g:bool[3] = lt b 0.0:f32[]
          h:bool[3] = ne f g
          i:bool[3] = and h e
          j:f32[3] = add d b
          c:f32[3] = select_n i d j
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'remainder_i32_i32b': (
        'lambda x, y: jnp.remainder(x, y)',
        '(i32, i32b)',
        """\
let remainder = { lambda ; a:i32[3] b:i32[3]. let
    c:bool[3] = eq b 0:i32[]
    d:i32[3] = broadcast_in_dim 1:i32[]
    e:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; c:bool[3] d:i32[3] b:i32[3]. let
          e:i32[3] = select_n c b d
        in (e,) }
    ] c d b
    f:i32[3] = rem a e
    g:bool[3] = ne f 0:i32[]
    h:bool[3] = lt f 0:i32[]
    i:bool[3] = lt e 0:i32[]
    j:bool[3] = ne h i
    k:bool[3] = and j g
    l:i32[3] = add f e
    m:i32[3] = select_n k f l
  in (m,) } in
{ lambda ; n:i32[3] o:i32[3]. let
    p:i32[3] = jit[name=remainder jaxpr=remainder] n o
  in (p,) }""",
        None),
    'remainder_i32_2': (
        'lambda x, y: jnp.remainder(x, y)',
        '(i32, 2)',
        """\
let remainder = { lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:bool[] = eq c 0:i32[]
    e:i32[] = jit[
      name=_where
      jaxpr={ lambda ; d:bool[] f:i32[] c:i32[]. let
          e:i32[] = select_n d c f
        in (e,) }
    ] d 1:i32[] c
    g:i32[3] = rem a e
    h:bool[3] = ne g 0:i32[]
    i:bool[3] = lt g 0:i32[]
    j:bool[] = lt e 0:i32[]
    k:bool[3] = ne i j
    l:bool[3] = and k h
    m:i32[3] = add g e
    n:i32[3] = select_n l g m
  in (n,) } in
{ lambda ; o:i32[3] p:i32[]. let
    q:i32[3] = jit[name=remainder jaxpr=remainder] o p
  in (q,) }""",
        None),
    'remainder_u8_i32': (
        'lambda x, y: jnp.remainder(x, y)',
        '(u8, i32)',
        """\
let remainder = { lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:bool[3] = eq b 0:i32[]
    e:i32[3] = broadcast_in_dim 1:i32[]
    f:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; d:bool[3] e:i32[3] b:i32[3]. let
          f:i32[3] = select_n d b e
        in (f,) }
    ] d e b
    g:i32[3] = rem c f
    h:bool[3] = ne g 0:i32[]
    i:bool[3] = lt g 0:i32[]
    j:bool[3] = lt f 0:i32[]
    k:bool[3] = ne i j
    l:bool[3] = and k h
    m:i32[3] = add g f
    n:i32[3] = select_n l g m
  in (n,) } in
{ lambda ; o:u8[3] p:i32[3]. let
    q:i32[3] = jit[name=remainder jaxpr=remainder] o p
  in (q,) }""",
        None),
    'remainder_b3_b3': (
        'lambda x, y: jnp.remainder(x, y)',
        '(b3, b3)',
        """\
let remainder = { lambda ; a:bool[3] b:bool[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] b
    e:bool[3] = eq d 0:i32[]
    f:i32[3] = broadcast_in_dim 1:i32[]
    g:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; e:bool[3] f:i32[3] d:i32[3]. let
          g:i32[3] = select_n e d f
        in (g,) }
    ] e f d
    h:i32[3] = rem c g
    i:bool[3] = ne h 0:i32[]
    j:bool[3] = lt h 0:i32[]
    k:bool[3] = lt g 0:i32[]
    l:bool[3] = ne j k
    m:bool[3] = and l i
    n:i32[3] = add h g
    o:i32[3] = select_n m h n
  in (o,) } in
{ lambda ; p:bool[3] q:bool[3]. let
    r:i32[3] = jit[name=remainder jaxpr=remainder] p q
  in (r,) }""",
        None),
    'remainder_2.5_i32': (
        'lambda x, y: jnp.remainder(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = jit[
      name=remainder
      jaxpr={ lambda ; a:f32[] b:i32[3]. let
          d:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
          e:f32[3] = rem a d
          f:bool[3] = ne e 0.0:f32[]
          g:bool[3] = lt e 0.0:f32[]
          h:bool[3] = lt d 0.0:f32[]
          i:bool[3] = ne g h
          j:bool[3] = and i f
          k:f32[3] = add e d
          c:f32[3] = select_n j e k
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'remainder_f32_m23': (
        'lambda x, y: jnp.remainder(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[2,3] = jit[
      name=remainder
      jaxpr={ lambda ; a:f32[3] b:f32[2,3]. let
          d:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
          e:f32[2,3] = rem d b
          f:bool[2,3] = ne e 0.0:f32[]
          g:bool[2,3] = lt e 0.0:f32[]
          h:bool[2,3] = lt b 0.0:f32[]
          i:bool[2,3] = ne g h
          j:bool[2,3] = and i f
          k:f32[2,3] = add e b
          c:f32[2,3] = select_n j e k
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'mod_f32_f32b': (
        'lambda x, y: jnp.mod(x, y)',
        '(f32, f32b)',
        """\
{ lambda ; a:f32[3] b:f32[3]. let
    c:f32[3] = jit[
      name=remainder
      jaxpr={ lambda ; a:f32[3] b:f32[3]. let
          d:f32[3] = rem a b
          e:bool[3] = ne d 0.0:f32[]
          f:bool[3] = lt d 0.0:f32[]
          g:bool[3] = lt b 0.0:f32[]
          h:bool[3] = ne f g
          i:bool[3] = and h e
          j:f32[3] = add d b
          c:f32[3] = select_n i d j
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'mod_i32_i32b': (
        'lambda x, y: jnp.mod(x, y)',
        '(i32, i32b)',
        """\
let remainder = { lambda ; a:i32[3] b:i32[3]. let
    c:bool[3] = eq b 0:i32[]
    d:i32[3] = broadcast_in_dim 1:i32[]
    e:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; c:bool[3] d:i32[3] b:i32[3]. let
          e:i32[3] = select_n c b d
        in (e,) }
    ] c d b
    f:i32[3] = rem a e
    g:bool[3] = ne f 0:i32[]
    h:bool[3] = lt f 0:i32[]
    i:bool[3] = lt e 0:i32[]
    j:bool[3] = ne h i
    k:bool[3] = and j g
    l:i32[3] = add f e
    m:i32[3] = select_n k f l
  in (m,) } in
{ lambda ; n:i32[3] o:i32[3]. let
    p:i32[3] = jit[name=remainder jaxpr=remainder] n o
  in (p,) }""",
        None),
    'mod_i32_2': (
        'lambda x, y: jnp.mod(x, y)',
        '(i32, 2)',
        """\
let remainder = { lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:bool[] = eq c 0:i32[]
    e:i32[] = jit[
      name=_where
      jaxpr={ lambda ; d:bool[] f:i32[] c:i32[]. let
          e:i32[] = select_n d c f
        in (e,) }
    ] d 1:i32[] c
    g:i32[3] = rem a e
    h:bool[3] = ne g 0:i32[]
    i:bool[3] = lt g 0:i32[]
    j:bool[] = lt e 0:i32[]
    k:bool[3] = ne i j
    l:bool[3] = and k h
    m:i32[3] = add g e
    n:i32[3] = select_n l g m
  in (n,) } in
{ lambda ; o:i32[3] p:i32[]. let
    q:i32[3] = jit[name=remainder jaxpr=remainder] o p
  in (q,) }""",
        None),
    'mod_u8_i32': (
        'lambda x, y: jnp.mod(x, y)',
        '(u8, i32)',
        """\
let remainder = { lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:bool[3] = eq b 0:i32[]
    e:i32[3] = broadcast_in_dim 1:i32[]
    f:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; d:bool[3] e:i32[3] b:i32[3]. let
          f:i32[3] = select_n d b e
        in (f,) }
    ] d e b
    g:i32[3] = rem c f
    h:bool[3] = ne g 0:i32[]
    i:bool[3] = lt g 0:i32[]
    j:bool[3] = lt f 0:i32[]
    k:bool[3] = ne i j
    l:bool[3] = and k h
    m:i32[3] = add g f
    n:i32[3] = select_n l g m
  in (n,) } in
{ lambda ; o:u8[3] p:i32[3]. let
    q:i32[3] = jit[name=remainder jaxpr=remainder] o p
  in (q,) }""",
        None),
    'mod_b3_b3': (
        'lambda x, y: jnp.mod(x, y)',
        '(b3, b3)',
        """\
let remainder = { lambda ; a:bool[3] b:bool[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] b
    e:bool[3] = eq d 0:i32[]
    f:i32[3] = broadcast_in_dim 1:i32[]
    g:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; e:bool[3] f:i32[3] d:i32[3]. let
          g:i32[3] = select_n e d f
        in (g,) }
    ] e f d
    h:i32[3] = rem c g
    i:bool[3] = ne h 0:i32[]
    j:bool[3] = lt h 0:i32[]
    k:bool[3] = lt g 0:i32[]
    l:bool[3] = ne j k
    m:bool[3] = and l i
    n:i32[3] = add h g
    o:i32[3] = select_n m h n
  in (o,) } in
{ lambda ; p:bool[3] q:bool[3]. let
    r:i32[3] = jit[name=remainder jaxpr=remainder] p q
  in (r,) }""",
        None),
    'mod_2.5_i32': (
        'lambda x, y: jnp.mod(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = jit[
      name=remainder
      jaxpr={ lambda ; a:f32[] b:i32[3]. let
          d:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
          e:f32[3] = rem a d
          f:bool[3] = ne e 0.0:f32[]
          g:bool[3] = lt e 0.0:f32[]
          h:bool[3] = lt d 0.0:f32[]
          i:bool[3] = ne g h
          j:bool[3] = and i f
          k:f32[3] = add e d
          c:f32[3] = select_n j e k
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'mod_f32_m23': (
        'lambda x, y: jnp.mod(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[2,3] = jit[
      name=remainder
      jaxpr={ lambda ; a:f32[3] b:f32[2,3]. let
          d:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
          e:f32[2,3] = rem d b
          f:bool[2,3] = ne e 0.0:f32[]
          g:bool[2,3] = lt e 0.0:f32[]
          h:bool[2,3] = lt b 0.0:f32[]
          i:bool[2,3] = ne g h
          j:bool[2,3] = and i f
          k:f32[2,3] = add e b
          c:f32[2,3] = select_n j e k
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'power_f32_f32b': (
        'lambda x, y: jnp.power(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:f32[3] = pow a b in (c,) }',
        None),
    'power_i32_i32b': (
        'lambda x, y: jnp.power(x, y)',
        '(i32, i32b)',
        """\
let _where = { lambda ; a:i32[3] b:i32[3] c:i32[3]. let
    d:bool[3] = ne a 0:i32[]
    e:i32[3] = select_n d c b
  in (e,) } in
{ lambda ; f:i32[3] g:i32[3]. let
    h:bool[3] = eq f 0:i32[]
    i:bool[3] = ne g 0:i32[]
    j:bool[3] = and h i
    k:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; j:bool[3] l:i32[] m:i32[]. let
          n:i32[3] = broadcast_in_dim l
          o:i32[3] = broadcast_in_dim m
          k:i32[3] = select_n j o n
        in (k,) }
    ] j 0:i32[] 1:i32[]
    p:i32[3] = and g 1:i32[]
    q:i32[3] = mul k f
    r:i32[3] = jit[name=_where jaxpr=_where] p q k
    s:i32[3] = mul f f
    t:i32[3] = shift_right_logical g 1:i32[]
    u:i32[3] = and t 1:i32[]
    v:i32[3] = mul r s
    w:i32[3] = jit[name=_where jaxpr=_where] u v r
    x:i32[3] = mul s s
    y:i32[3] = shift_right_logical t 1:i32[]
    z:i32[3] = and y 1:i32[]
    ba:i32[3] = mul w x
    bb:i32[3] = jit[name=_where jaxpr=_where] z ba w
    bc:i32[3] = mul x x
    bd:i32[3] = shift_right_logical y 1:i32[]
    be:i32[3] = and bd 1:i32[]
    bf:i32[3] = mul bb bc
    bg:i32[3] = jit[name=_where jaxpr=_where] be bf bb
    bh:i32[3] = mul bc bc
    bi:i32[3] = shift_right_logical bd 1:i32[]
    bj:i32[3] = and bi 1:i32[]
    bk:i32[3] = mul bg bh
    bl:i32[3] = jit[name=_where jaxpr=_where] bj bk bg
    bm:i32[3] = mul bh bh
    bn:i32[3] = shift_right_logical bi 1:i32[]
    bo:i32[3] = and bn 1:i32[]
    bp:i32[3] = mul bl bm
    bq:i32[3] = jit[name=_where jaxpr=_where] bo bp bl
    _:i32[3] = mul bm bm
    _:i32[3] = shift_right_logical bn 1:i32[]
  in (bq,) }""",
        None),
    'power_i32_2': (
        'lambda x, y: jnp.power(x, y)',
        '(i32, 2)',
        """\
let _where = { lambda ; a:i32[] b:i32[3] c:i32[3]. let
    d:bool[] = ne a 0:i32[]
    e:i32[3] = select_n d c b
  in (e,) } in
{ lambda ; f:i32[3] g:i32[]. let
    h:i32[] = convert_element_type[new_dtype=int32 weak_type=False] g
    i:bool[3] = eq f 0:i32[]
    j:bool[] = ne h 0:i32[]
    k:bool[3] = and i j
    l:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; k:bool[3] m:i32[] n:i32[]. let
          o:i32[3] = broadcast_in_dim m
          p:i32[3] = broadcast_in_dim n
          l:i32[3] = select_n k p o
        in (l,) }
    ] k 0:i32[] 1:i32[]
    q:i32[] = and h 1:i32[]
    r:i32[3] = mul l f
    s:i32[3] = jit[name=_where jaxpr=_where] q r l
    t:i32[3] = mul f f
    u:i32[] = shift_right_logical h 1:i32[]
    v:i32[] = and u 1:i32[]
    w:i32[3] = mul s t
    x:i32[3] = jit[name=_where jaxpr=_where] v w s
    y:i32[3] = mul t t
    z:i32[] = shift_right_logical u 1:i32[]
    ba:i32[] = and z 1:i32[]
    bb:i32[3] = mul x y
    bc:i32[3] = jit[name=_where jaxpr=_where] ba bb x
    bd:i32[3] = mul y y
    be:i32[] = shift_right_logical z 1:i32[]
    bf:i32[] = and be 1:i32[]
    bg:i32[3] = mul bc bd
    bh:i32[3] = jit[name=_where jaxpr=_where] bf bg bc
    bi:i32[3] = mul bd bd
    bj:i32[] = shift_right_logical be 1:i32[]
    bk:i32[] = and bj 1:i32[]
    bl:i32[3] = mul bh bi
    bm:i32[3] = jit[name=_where jaxpr=_where] bk bl bh
    bn:i32[3] = mul bi bi
    bo:i32[] = shift_right_logical bj 1:i32[]
    bp:i32[] = and bo 1:i32[]
    bq:i32[3] = mul bm bn
    br:i32[3] = jit[name=_where jaxpr=_where] bp bq bm
    _:i32[3] = mul bn bn
    _:i32[] = shift_right_logical bo 1:i32[]
  in (br,) }""",
        None),
    'power_u8_i32': (
        'lambda x, y: jnp.power(x, y)',
        '(u8, i32)',
        """\
let _where = { lambda ; a:i32[3] b:i32[3] c:i32[3]. let
    d:bool[3] = ne a 0:i32[]
    e:i32[3] = select_n d c b
  in (e,) } in
{ lambda ; f:u8[3] g:i32[3]. let
    h:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] f
    i:bool[3] = eq h 0:i32[]
    j:bool[3] = ne g 0:i32[]
    k:bool[3] = and i j
    l:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; k:bool[3] m:i32[] n:i32[]. let
          o:i32[3] = broadcast_in_dim m
          p:i32[3] = broadcast_in_dim n
          l:i32[3] = select_n k p o
        in (l,) }
    ] k 0:i32[] 1:i32[]
    q:i32[3] = and g 1:i32[]
    r:i32[3] = mul l h
    s:i32[3] = jit[name=_where jaxpr=_where] q r l
    t:i32[3] = mul h h
    u:i32[3] = shift_right_logical g 1:i32[]
    v:i32[3] = and u 1:i32[]
    w:i32[3] = mul s t
    x:i32[3] = jit[name=_where jaxpr=_where] v w s
    y:i32[3] = mul t t
    z:i32[3] = shift_right_logical u 1:i32[]
    ba:i32[3] = and z 1:i32[]
    bb:i32[3] = mul x y
    bc:i32[3] = jit[name=_where jaxpr=_where] ba bb x
    bd:i32[3] = mul y y
    be:i32[3] = shift_right_logical z 1:i32[]
    bf:i32[3] = and be 1:i32[]
    bg:i32[3] = mul bc bd
    bh:i32[3] = jit[name=_where jaxpr=_where] bf bg bc
    bi:i32[3] = mul bd bd
    bj:i32[3] = shift_right_logical be 1:i32[]
    bk:i32[3] = and bj 1:i32[]
    bl:i32[3] = mul bh bi
    bm:i32[3] = jit[name=_where jaxpr=_where] bk bl bh
    bn:i32[3] = mul bi bi
    bo:i32[3] = shift_right_logical bj 1:i32[]
    bp:i32[3] = and bo 1:i32[]
    bq:i32[3] = mul bm bn
    br:i32[3] = jit[name=_where jaxpr=_where] bp bq bm
    _:i32[3] = mul bn bn
    _:i32[3] = shift_right_logical bo 1:i32[]
  in (br,) }""",
        None),
    'power_b3_b3': (
        'lambda x, y: jnp.power(x, y)',
        '(b3, b3)',
        """\
let _where = { lambda ; a:i32[3] b:i32[3] c:i32[3]. let
    d:bool[3] = ne a 0:i32[]
    e:i32[3] = select_n d c b
  in (e,) } in
{ lambda ; f:bool[3] g:bool[3]. let
    h:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] f
    i:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] g
    j:bool[3] = eq h 0:i32[]
    k:bool[3] = ne i 0:i32[]
    l:bool[3] = and j k
    m:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; l:bool[3] n:i32[] o:i32[]. let
          p:i32[3] = broadcast_in_dim n
          q:i32[3] = broadcast_in_dim o
          m:i32[3] = select_n l q p
        in (m,) }
    ] l 0:i32[] 1:i32[]
    r:i32[3] = and i 1:i32[]
    s:i32[3] = mul m h
    t:i32[3] = jit[name=_where jaxpr=_where] r s m
    u:i32[3] = mul h h
    v:i32[3] = shift_right_logical i 1:i32[]
    w:i32[3] = and v 1:i32[]
    x:i32[3] = mul t u
    y:i32[3] = jit[name=_where jaxpr=_where] w x t
    z:i32[3] = mul u u
    ba:i32[3] = shift_right_logical v 1:i32[]
    bb:i32[3] = and ba 1:i32[]
    bc:i32[3] = mul y z
    bd:i32[3] = jit[name=_where jaxpr=_where] bb bc y
    be:i32[3] = mul z z
    bf:i32[3] = shift_right_logical ba 1:i32[]
    bg:i32[3] = and bf 1:i32[]
    bh:i32[3] = mul bd be
    bi:i32[3] = jit[name=_where jaxpr=_where] bg bh bd
    bj:i32[3] = mul be be
    bk:i32[3] = shift_right_logical bf 1:i32[]
    bl:i32[3] = and bk 1:i32[]
    bm:i32[3] = mul bi bj
    bn:i32[3] = jit[name=_where jaxpr=_where] bl bm bi
    bo:i32[3] = mul bj bj
    bp:i32[3] = shift_right_logical bk 1:i32[]
    bq:i32[3] = and bp 1:i32[]
    br:i32[3] = mul bn bo
    bs:i32[3] = jit[name=_where jaxpr=_where] bq br bn
    _:i32[3] = mul bo bo
    _:i32[3] = shift_right_logical bp 1:i32[]
  in (bs,) }""",
        None),
    'power_2.5_i32': (
        'lambda x, y: jnp.power(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    _:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    c:f32[3] = pow a b
  in (c,) }""",
        None),
    'power_f32_m23': (
        'lambda x, y: jnp.power(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,3] = pow c b
  in (d,) }""",
        None),
    'maximum_f32_f32b': (
        'lambda x, y: jnp.maximum(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:f32[3] = max a b in (c,) }',
        None),
    'maximum_i32_i32b': (
        'lambda x, y: jnp.maximum(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:i32[3] = max a b in (c,) }',
        None),
    'maximum_i32_2': (
        'lambda x, y: jnp.maximum(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:i32[3] = max a c
  in (d,) }""",
        None),
    'maximum_u8_i32': (
        'lambda x, y: jnp.maximum(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = max c b
  in (d,) }""",
        None),
    'maximum_b3_b3': (
        'lambda x, y: jnp.maximum(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = max a b in (c,) }',
        None),
    'maximum_2.5_i32': (
        'lambda x, y: jnp.maximum(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:f32[3] = max a c
  in (d,) }""",
        None),
    'maximum_f32_m23': (
        'lambda x, y: jnp.maximum(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,3] = max c b
  in (d,) }""",
        None),
    'minimum_f32_f32b': (
        'lambda x, y: jnp.minimum(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:f32[3] = min a b in (c,) }',
        None),
    'minimum_i32_i32b': (
        'lambda x, y: jnp.minimum(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:i32[3] = min a b in (c,) }',
        None),
    'minimum_i32_2': (
        'lambda x, y: jnp.minimum(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:i32[3] = min a c
  in (d,) }""",
        None),
    'minimum_u8_i32': (
        'lambda x, y: jnp.minimum(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = min c b
  in (d,) }""",
        None),
    'minimum_b3_b3': (
        'lambda x, y: jnp.minimum(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = min a b in (c,) }',
        None),
    'minimum_2.5_i32': (
        'lambda x, y: jnp.minimum(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:f32[3] = min a c
  in (d,) }""",
        None),
    'minimum_f32_m23': (
        'lambda x, y: jnp.minimum(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,3] = min c b
  in (d,) }""",
        None),
    'fmax_f32_f32b': (
        'lambda x, y: jnp.fmax(x, y)',
        '(f32, f32b)',
        """\
{ lambda ; a:f32[3] b:f32[3]. let
    c:f32[3] = jit[
      name=fmax
      jaxpr={ lambda ; a:f32[3] b:f32[3]. let
          d:bool[3] = gt a b
          e:bool[3] = ne b b
          f:bool[3] = or d e
          c:f32[3] = jit[
            name=_where
            jaxpr={ lambda ; f:bool[3] a:f32[3] b:f32[3]. let
                c:f32[3] = select_n f b a
              in (c,) }
          ] f a b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmax_i32_i32b': (
        'lambda x, y: jnp.fmax(x, y)',
        '(i32, i32b)',
        """\
{ lambda ; a:i32[3] b:i32[3]. let
    c:i32[3] = jit[
      name=fmax
      jaxpr={ lambda ; a:i32[3] b:i32[3]. let
          d:bool[3] = gt a b
          e:bool[3] = ne b b
          f:bool[3] = or d e
          c:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; f:bool[3] a:i32[3] b:i32[3]. let
                c:i32[3] = select_n f b a
              in (c,) }
          ] f a b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmax_i32_2': (
        'lambda x, y: jnp.fmax(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[3] = jit[
      name=fmax
      jaxpr={ lambda ; a:i32[3] b:i32[]. let
          d:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
          e:bool[3] = gt a d
          f:bool[] = ne b b
          g:bool[] = convert_element_type[new_dtype=bool weak_type=False] f
          h:bool[3] = or e g
          c:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; h:bool[3] a:i32[3] b:i32[]. let
                i:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
                j:i32[3] = broadcast_in_dim i
                c:i32[3] = select_n h j a
              in (c,) }
          ] h a b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmax_u8_i32': (
        'lambda x, y: jnp.fmax(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = jit[
      name=fmax
      jaxpr={ lambda ; a:u8[3] b:i32[3]. let
          d:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
          e:bool[3] = gt d b
          f:bool[3] = ne b b
          g:bool[3] = or e f
          c:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; g:bool[3] a:u8[3] b:i32[3]. let
                h:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
                c:i32[3] = select_n g b h
              in (c,) }
          ] g a b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmax_b3_b3': (
        'lambda x, y: jnp.fmax(x, y)',
        '(b3, b3)',
        """\
{ lambda ; a:bool[3] b:bool[3]. let
    c:bool[3] = jit[
      name=fmax
      jaxpr={ lambda ; a:bool[3] b:bool[3]. let
          d:bool[3] = gt a b
          e:bool[3] = ne b b
          f:bool[3] = or d e
          c:bool[3] = jit[
            name=_where
            jaxpr={ lambda ; f:bool[3] a:bool[3] b:bool[3]. let
                c:bool[3] = select_n f b a
              in (c,) }
          ] f a b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmax_2.5_i32': (
        'lambda x, y: jnp.fmax(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = jit[
      name=fmax
      jaxpr={ lambda ; a:f32[] b:i32[3]. let
          d:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
          e:bool[3] = gt a d
          f:bool[3] = ne b b
          g:bool[3] = convert_element_type[new_dtype=bool weak_type=False] e
          h:bool[3] = or g f
          c:f32[3] = jit[
            name=_where
            jaxpr={ lambda ; h:bool[3] a:f32[] b:i32[3]. let
                i:f32[3] = convert_element_type[
                  new_dtype=float32
                  weak_type=True
                ] b
                j:f32[3] = broadcast_in_dim a
                c:f32[3] = select_n h i j
              in (c,) }
          ] h a b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmax_f32_m23': (
        'lambda x, y: jnp.fmax(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[2,3] = jit[
      name=fmax
      jaxpr={ lambda ; a:f32[3] b:f32[2,3]. let
          d:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
          e:bool[2,3] = gt d b
          f:bool[2,3] = ne b b
          g:bool[2,3] = or e f
          c:f32[2,3] = jit[
            name=_where
            jaxpr={ lambda ; g:bool[2,3] a:f32[3] b:f32[2,3]. let
                h:f32[2,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
                c:f32[2,3] = select_n g b h
              in (c,) }
          ] g a b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmin_f32_f32b': (
        'lambda x, y: jnp.fmin(x, y)',
        '(f32, f32b)',
        """\
{ lambda ; a:f32[3] b:f32[3]. let
    c:f32[3] = jit[
      name=fmin
      jaxpr={ lambda ; a:f32[3] b:f32[3]. let
          d:bool[3] = lt a b
          e:bool[3] = ne b b
          f:bool[3] = or d e
          c:f32[3] = jit[
            name=_where
            jaxpr={ lambda ; f:bool[3] a:f32[3] b:f32[3]. let
                c:f32[3] = select_n f b a
              in (c,) }
          ] f a b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmin_i32_i32b': (
        'lambda x, y: jnp.fmin(x, y)',
        '(i32, i32b)',
        """\
{ lambda ; a:i32[3] b:i32[3]. let
    c:i32[3] = jit[
      name=fmin
      jaxpr={ lambda ; a:i32[3] b:i32[3]. let
          d:bool[3] = lt a b
          e:bool[3] = ne b b
          f:bool[3] = or d e
          c:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; f:bool[3] a:i32[3] b:i32[3]. let
                c:i32[3] = select_n f b a
              in (c,) }
          ] f a b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmin_i32_2': (
        'lambda x, y: jnp.fmin(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[3] = jit[
      name=fmin
      jaxpr={ lambda ; a:i32[3] b:i32[]. let
          d:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
          e:bool[3] = lt a d
          f:bool[] = ne b b
          g:bool[] = convert_element_type[new_dtype=bool weak_type=False] f
          h:bool[3] = or e g
          c:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; h:bool[3] a:i32[3] b:i32[]. let
                i:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
                j:i32[3] = broadcast_in_dim i
                c:i32[3] = select_n h j a
              in (c,) }
          ] h a b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmin_u8_i32': (
        'lambda x, y: jnp.fmin(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = jit[
      name=fmin
      jaxpr={ lambda ; a:u8[3] b:i32[3]. let
          d:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
          e:bool[3] = lt d b
          f:bool[3] = ne b b
          g:bool[3] = or e f
          c:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; g:bool[3] a:u8[3] b:i32[3]. let
                h:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
                c:i32[3] = select_n g b h
              in (c,) }
          ] g a b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmin_b3_b3': (
        'lambda x, y: jnp.fmin(x, y)',
        '(b3, b3)',
        """\
{ lambda ; a:bool[3] b:bool[3]. let
    c:bool[3] = jit[
      name=fmin
      jaxpr={ lambda ; a:bool[3] b:bool[3]. let
          d:bool[3] = lt a b
          e:bool[3] = ne b b
          f:bool[3] = or d e
          c:bool[3] = jit[
            name=_where
            jaxpr={ lambda ; f:bool[3] a:bool[3] b:bool[3]. let
                c:bool[3] = select_n f b a
              in (c,) }
          ] f a b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmin_2.5_i32': (
        'lambda x, y: jnp.fmin(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = jit[
      name=fmin
      jaxpr={ lambda ; a:f32[] b:i32[3]. let
          d:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
          e:bool[3] = lt a d
          f:bool[3] = ne b b
          g:bool[3] = convert_element_type[new_dtype=bool weak_type=False] e
          h:bool[3] = or g f
          c:f32[3] = jit[
            name=_where
            jaxpr={ lambda ; h:bool[3] a:f32[] b:i32[3]. let
                i:f32[3] = convert_element_type[
                  new_dtype=float32
                  weak_type=True
                ] b
                j:f32[3] = broadcast_in_dim a
                c:f32[3] = select_n h i j
              in (c,) }
          ] h a b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmin_f32_m23': (
        'lambda x, y: jnp.fmin(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[2,3] = jit[
      name=fmin
      jaxpr={ lambda ; a:f32[3] b:f32[2,3]. let
          d:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
          e:bool[2,3] = lt d b
          f:bool[2,3] = ne b b
          g:bool[2,3] = or e f
          c:f32[2,3] = jit[
            name=_where
            jaxpr={ lambda ; g:bool[2,3] a:f32[3] b:f32[2,3]. let
                h:f32[2,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
                c:f32[2,3] = select_n g b h
              in (c,) }
          ] g a b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'arctan2_f32_f32b': (
        'lambda x, y: jnp.arctan2(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:f32[3] = atan2 a b in (c,) }',
        None),
    'arctan2_i32_i32b': (
        'lambda x, y: jnp.arctan2(x, y)',
        '(i32, i32b)',
        """\
{ lambda ; a:i32[3] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = atan2 c d
  in (e,) }""",
        None),
    'arctan2_i32_2': (
        'lambda x, y: jnp.arctan2(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = atan2 c d
  in (e,) }""",
        None),
    'arctan2_u8_i32': (
        'lambda x, y: jnp.arctan2(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = atan2 c d
  in (e,) }""",
        None),
    'arctan2_b3_b3': (
        'lambda x, y: jnp.arctan2(x, y)',
        '(b3, b3)',
        """\
{ lambda ; a:bool[3] b:bool[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = atan2 c d
  in (e,) }""",
        None),
    'arctan2_2.5_i32': (
        'lambda x, y: jnp.arctan2(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:f32[3] = atan2 a c
  in (d,) }""",
        None),
    'arctan2_f32_m23': (
        'lambda x, y: jnp.arctan2(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,3] = atan2 c b
  in (d,) }""",
        None),
    'hypot_f32_f32b': (
        'lambda x, y: jnp.hypot(x, y)',
        '(f32, f32b)',
        """\
let hypot = { lambda ; a:f32[3] b:f32[3]. let
    c:f32[3] = abs a
    d:f32[3] = abs b
    e:bool[3] = eq c inf:f32[]
    f:bool[3] = eq d inf:f32[]
    g:bool[3] = or e f
    h:f32[3] = max c d
    i:f32[3] = min c d
    j:bool[3] = eq h 0.0:f32[]
    k:bool[3] = eq h 0.0:f32[]
    l:f32[3] = broadcast_in_dim 1.0:f32[]
    m:f32[3] = jit[name=_where jaxpr=_where] k l h
    n:f32[3] = div i m
    o:f32[3] = square n
    p:f32[3] = add 1.0:f32[] o
    q:f32[3] = sqrt p
    r:f32[3] = mul h q
    s:f32[3] = jit[name=_where jaxpr=_where] j h r
    t:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; g:bool[3] u:f32[] s:f32[3]. let
          v:f32[3] = broadcast_in_dim u
          t:f32[3] = select_n g s v
        in (t,) }
    ] g inf:f32[] s
  in (t,) } in
let _where = { lambda ; w:bool[3] x:f32[3] y:f32[3]. let
    z:f32[3] = select_n w y x
  in (z,) } in
{ lambda ; ba:f32[3] bb:f32[3]. let
    bc:f32[3] = jit[name=hypot jaxpr=hypot] ba bb
  in (bc,) }""",
        None),
    'hypot_i32_i32b': (
        'lambda x, y: jnp.hypot(x, y)',
        '(i32, i32b)',
        """\
let hypot = { lambda ; a:i32[3] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = abs c
    f:f32[3] = abs d
    g:bool[3] = eq e inf:f32[]
    h:bool[3] = eq f inf:f32[]
    i:bool[3] = or g h
    j:f32[3] = max e f
    k:f32[3] = min e f
    l:bool[3] = eq j 0.0:f32[]
    m:bool[3] = eq j 0.0:f32[]
    n:f32[3] = broadcast_in_dim 1.0:f32[]
    o:f32[3] = jit[name=_where jaxpr=_where] m n j
    p:f32[3] = div k o
    q:f32[3] = square p
    r:f32[3] = add 1.0:f32[] q
    s:f32[3] = sqrt r
    t:f32[3] = mul j s
    u:f32[3] = jit[name=_where jaxpr=_where] l j t
    v:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; i:bool[3] w:f32[] u:f32[3]. let
          x:f32[3] = broadcast_in_dim w
          v:f32[3] = select_n i u x
        in (v,) }
    ] i inf:f32[] u
  in (v,) } in
let _where = { lambda ; y:bool[3] z:f32[3] ba:f32[3]. let
    bb:f32[3] = select_n y ba z
  in (bb,) } in
{ lambda ; bc:i32[3] bd:i32[3]. let
    be:f32[3] = jit[name=hypot jaxpr=hypot] bc bd
  in (be,) }""",
        None),
    'hypot_i32_2': (
        'lambda x, y: jnp.hypot(x, y)',
        '(i32, 2)',
        """\
let hypot = { lambda ; a:i32[3] b:i32[]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = abs c
    f:f32[] = abs d
    g:bool[3] = eq e inf:f32[]
    h:bool[] = eq f inf:f32[]
    i:bool[3] = or g h
    j:f32[3] = max e f
    k:f32[3] = min e f
    l:bool[3] = eq j 0.0:f32[]
    m:bool[3] = eq j 0.0:f32[]
    n:f32[3] = broadcast_in_dim 1.0:f32[]
    o:f32[3] = jit[name=_where jaxpr=_where] m n j
    p:f32[3] = div k o
    q:f32[3] = square p
    r:f32[3] = add 1.0:f32[] q
    s:f32[3] = sqrt r
    t:f32[3] = mul j s
    u:f32[3] = jit[name=_where jaxpr=_where] l j t
    v:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; i:bool[3] w:f32[] u:f32[3]. let
          x:f32[3] = broadcast_in_dim w
          v:f32[3] = select_n i u x
        in (v,) }
    ] i inf:f32[] u
  in (v,) } in
let _where = { lambda ; y:bool[3] z:f32[3] ba:f32[3]. let
    bb:f32[3] = select_n y ba z
  in (bb,) } in
{ lambda ; bc:i32[3] bd:i32[]. let
    be:f32[3] = jit[name=hypot jaxpr=hypot] bc bd
  in (be,) }""",
        None),
    'hypot_u8_i32': (
        'lambda x, y: jnp.hypot(x, y)',
        '(u8, i32)',
        """\
let hypot = { lambda ; a:u8[3] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = abs c
    f:f32[3] = abs d
    g:bool[3] = eq e inf:f32[]
    h:bool[3] = eq f inf:f32[]
    i:bool[3] = or g h
    j:f32[3] = max e f
    k:f32[3] = min e f
    l:bool[3] = eq j 0.0:f32[]
    m:bool[3] = eq j 0.0:f32[]
    n:f32[3] = broadcast_in_dim 1.0:f32[]
    o:f32[3] = jit[name=_where jaxpr=_where] m n j
    p:f32[3] = div k o
    q:f32[3] = square p
    r:f32[3] = add 1.0:f32[] q
    s:f32[3] = sqrt r
    t:f32[3] = mul j s
    u:f32[3] = jit[name=_where jaxpr=_where] l j t
    v:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; i:bool[3] w:f32[] u:f32[3]. let
          x:f32[3] = broadcast_in_dim w
          v:f32[3] = select_n i u x
        in (v,) }
    ] i inf:f32[] u
  in (v,) } in
let _where = { lambda ; y:bool[3] z:f32[3] ba:f32[3]. let
    bb:f32[3] = select_n y ba z
  in (bb,) } in
{ lambda ; bc:u8[3] bd:i32[3]. let
    be:f32[3] = jit[name=hypot jaxpr=hypot] bc bd
  in (be,) }""",
        None),
    'hypot_b3_b3': (
        'lambda x, y: jnp.hypot(x, y)',
        '(b3, b3)',
        """\
let hypot = { lambda ; a:bool[3] b:bool[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = abs c
    f:f32[3] = abs d
    g:bool[3] = eq e inf:f32[]
    h:bool[3] = eq f inf:f32[]
    i:bool[3] = or g h
    j:f32[3] = max e f
    k:f32[3] = min e f
    l:bool[3] = eq j 0.0:f32[]
    m:bool[3] = eq j 0.0:f32[]
    n:f32[3] = broadcast_in_dim 1.0:f32[]
    o:f32[3] = jit[name=_where jaxpr=_where] m n j
    p:f32[3] = div k o
    q:f32[3] = square p
    r:f32[3] = add 1.0:f32[] q
    s:f32[3] = sqrt r
    t:f32[3] = mul j s
    u:f32[3] = jit[name=_where jaxpr=_where] l j t
    v:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; i:bool[3] w:f32[] u:f32[3]. let
          x:f32[3] = broadcast_in_dim w
          v:f32[3] = select_n i u x
        in (v,) }
    ] i inf:f32[] u
  in (v,) } in
let _where = { lambda ; y:bool[3] z:f32[3] ba:f32[3]. let
    bb:f32[3] = select_n y ba z
  in (bb,) } in
{ lambda ; bc:bool[3] bd:bool[3]. let
    be:f32[3] = jit[name=hypot jaxpr=hypot] bc bd
  in (be,) }""",
        None),
    'hypot_2.5_i32': (
        'lambda x, y: jnp.hypot(x, y)',
        '(2.5, i32)',
        """\
let hypot = { lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:f32[] = abs a
    e:f32[3] = abs c
    f:bool[] = eq d inf:f32[]
    g:bool[3] = eq e inf:f32[]
    h:bool[3] = or f g
    i:f32[3] = max d e
    j:f32[3] = min d e
    k:bool[3] = eq i 0.0:f32[]
    l:bool[3] = eq i 0.0:f32[]
    m:f32[3] = broadcast_in_dim 1.0:f32[]
    n:f32[3] = jit[name=_where jaxpr=_where] l m i
    o:f32[3] = div j n
    p:f32[3] = square o
    q:f32[3] = add 1.0:f32[] p
    r:f32[3] = sqrt q
    s:f32[3] = mul i r
    t:f32[3] = jit[name=_where jaxpr=_where] k i s
    u:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; h:bool[3] v:f32[] t:f32[3]. let
          w:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] t
          x:f32[3] = broadcast_in_dim v
          u:f32[3] = select_n h w x
        in (u,) }
    ] h inf:f32[] t
  in (u,) } in
let _where = { lambda ; y:bool[3] z:f32[3] ba:f32[3]. let
    bb:f32[3] = select_n y ba z
  in (bb,) } in
{ lambda ; bc:f32[] bd:i32[3]. let
    be:f32[3] = jit[name=hypot jaxpr=hypot] bc bd
  in (be,) }""",
        None),
    'hypot_f32_m23': (
        'lambda x, y: jnp.hypot(x, y)',
        '(f32, m23)',
        """\
let hypot = { lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[1,3] = abs c
    e:f32[2,3] = abs b
    f:bool[1,3] = eq d inf:f32[]
    g:bool[2,3] = eq e inf:f32[]
    h:bool[2,3] = or f g
    i:f32[2,3] = max d e
    j:f32[2,3] = min d e
    k:bool[2,3] = eq i 0.0:f32[]
    l:bool[2,3] = eq i 0.0:f32[]
    m:f32[2,3] = broadcast_in_dim 1.0:f32[]
    n:f32[2,3] = jit[name=_where jaxpr=_where] l m i
    o:f32[2,3] = div j n
    p:f32[2,3] = square o
    q:f32[2,3] = add 1.0:f32[] p
    r:f32[2,3] = sqrt q
    s:f32[2,3] = mul i r
    t:f32[2,3] = jit[name=_where jaxpr=_where] k i s
    u:f32[2,3] = jit[
      name=_where
      jaxpr={ lambda ; h:bool[2,3] v:f32[] t:f32[2,3]. let
          w:f32[2,3] = broadcast_in_dim v
          u:f32[2,3] = select_n h t w
        in (u,) }
    ] h inf:f32[] t
  in (u,) } in
let _where = { lambda ; x:bool[2,3] y:f32[2,3] z:f32[2,3]. let
    ba:f32[2,3] = select_n x z y
  in (ba,) } in
{ lambda ; bb:f32[3] bc:f32[2,3]. let
    bd:f32[2,3] = jit[name=hypot jaxpr=hypot] bb bc
  in (bd,) }""",
        None),
    'logaddexp_f32_f32b': (
        'lambda x, y: jnp.logaddexp(x, y)',
        '(f32, f32b)',
        """\
{ lambda ; a:f32[3] b:f32[3]. let
    c:f32[3] = custom_jvp_call[
      name=logaddexp
      call_jaxpr={ lambda ; d:f32[3] e:f32[3]. let
          f:f32[3] = max d e
          g:f32[3] = sub d e
          h:bool[3] = ne g g
          i:f32[3] = add d e
          j:f32[3] = abs g
          k:f32[3] = neg j
          l:f32[3] = exp k
          m:f32[3] = log1p l
          n:f32[3] = add f m
          o:f32[3] = select_n h n i
        in (o,) }
      jvp=_logaddexp_jvp
      symbolic_zeros=False
    ] a b
  in (c,) }""",
        None),
    'logaddexp_i32_i32b': (
        'lambda x, y: jnp.logaddexp(x, y)',
        '(i32, i32b)',
        """\
{ lambda ; a:i32[3] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = custom_jvp_call[
      name=logaddexp
      call_jaxpr={ lambda ; f:f32[3] g:f32[3]. let
          h:f32[3] = max f g
          i:f32[3] = sub f g
          j:bool[3] = ne i i
          k:f32[3] = add f g
          l:f32[3] = abs i
          m:f32[3] = neg l
          n:f32[3] = exp m
          o:f32[3] = log1p n
          p:f32[3] = add h o
          q:f32[3] = select_n j p k
        in (q,) }
      jvp=_logaddexp_jvp
      symbolic_zeros=False
    ] c d
  in (e,) }""",
        None),
    'logaddexp_i32_2': (
        'lambda x, y: jnp.logaddexp(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = custom_jvp_call[
      name=logaddexp
      call_jaxpr={ lambda ; f:f32[3] g:f32[]. let
          h:f32[3] = max f g
          i:f32[3] = sub f g
          j:bool[3] = ne i i
          k:f32[3] = add f g
          l:f32[3] = abs i
          m:f32[3] = neg l
          n:f32[3] = exp m
          o:f32[3] = log1p n
          p:f32[3] = add h o
          q:f32[3] = select_n j p k
        in (q,) }
      jvp=_logaddexp_jvp
      symbolic_zeros=False
    ] c d
  in (e,) }""",
        None),
    'logaddexp_u8_i32': (
        'lambda x, y: jnp.logaddexp(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = custom_jvp_call[
      name=logaddexp
      call_jaxpr={ lambda ; f:f32[3] g:f32[3]. let
          h:f32[3] = max f g
          i:f32[3] = sub f g
          j:bool[3] = ne i i
          k:f32[3] = add f g
          l:f32[3] = abs i
          m:f32[3] = neg l
          n:f32[3] = exp m
          o:f32[3] = log1p n
          p:f32[3] = add h o
          q:f32[3] = select_n j p k
        in (q,) }
      jvp=_logaddexp_jvp
      symbolic_zeros=False
    ] c d
  in (e,) }""",
        None),
    'logaddexp_b3_b3': (
        'lambda x, y: jnp.logaddexp(x, y)',
        '(b3, b3)',
        """\
{ lambda ; a:bool[3] b:bool[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = custom_jvp_call[
      name=logaddexp
      call_jaxpr={ lambda ; f:f32[3] g:f32[3]. let
          h:f32[3] = max f g
          i:f32[3] = sub f g
          j:bool[3] = ne i i
          k:f32[3] = add f g
          l:f32[3] = abs i
          m:f32[3] = neg l
          n:f32[3] = exp m
          o:f32[3] = log1p n
          p:f32[3] = add h o
          q:f32[3] = select_n j p k
        in (q,) }
      jvp=_logaddexp_jvp
      symbolic_zeros=False
    ] c d
  in (e,) }""",
        None),
    'logaddexp_2.5_i32': (
        'lambda x, y: jnp.logaddexp(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:f32[3] = custom_jvp_call[
      name=logaddexp
      call_jaxpr={ lambda ; e:f32[] f:f32[3]. let
          g:f32[3] = max e f
          h:f32[3] = sub e f
          i:bool[3] = ne h h
          j:f32[3] = add e f
          k:f32[3] = abs h
          l:f32[3] = neg k
          m:f32[3] = exp l
          n:f32[3] = log1p m
          o:f32[3] = add g n
          p:f32[3] = select_n i o j
        in (p,) }
      jvp=_logaddexp_jvp
      symbolic_zeros=False
    ] a c
  in (d,) }""",
        None),
    'logaddexp_f32_m23': (
        'lambda x, y: jnp.logaddexp(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,3] = custom_jvp_call[
      name=logaddexp
      call_jaxpr={ lambda ; e:f32[1,3] f:f32[2,3]. let
          g:f32[2,3] = max e f
          h:f32[2,3] = sub e f
          i:bool[2,3] = ne h h
          j:f32[2,3] = add e f
          k:f32[2,3] = abs h
          l:f32[2,3] = neg k
          m:f32[2,3] = exp l
          n:f32[2,3] = log1p m
          o:f32[2,3] = add g n
          p:f32[2,3] = select_n i o j
        in (p,) }
      jvp=_logaddexp_jvp
      symbolic_zeros=False
    ] c b
  in (d,) }""",
        None),
    'equal_f32_f32b': (
        'lambda x, y: jnp.equal(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:bool[3] = eq a b in (c,) }',
        None),
    'equal_i32_i32b': (
        'lambda x, y: jnp.equal(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:bool[3] = eq a b in (c,) }',
        None),
    'equal_i32_2': (
        'lambda x, y: jnp.equal(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:bool[3] = eq a c
  in (d,) }""",
        None),
    'equal_u8_i32': (
        'lambda x, y: jnp.equal(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:bool[3] = eq c b
  in (d,) }""",
        None),
    'equal_b3_b3': (
        'lambda x, y: jnp.equal(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = eq a b in (c,) }',
        None),
    'equal_2.5_i32': (
        'lambda x, y: jnp.equal(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:bool[3] = eq a c
  in (d,) }""",
        None),
    'equal_f32_m23': (
        'lambda x, y: jnp.equal(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:bool[2,3] = eq c b
  in (d,) }""",
        None),
    'not_equal_f32_f32b': (
        'lambda x, y: jnp.not_equal(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:bool[3] = ne a b in (c,) }',
        None),
    'not_equal_i32_i32b': (
        'lambda x, y: jnp.not_equal(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:bool[3] = ne a b in (c,) }',
        None),
    'not_equal_i32_2': (
        'lambda x, y: jnp.not_equal(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:bool[3] = ne a c
  in (d,) }""",
        None),
    'not_equal_u8_i32': (
        'lambda x, y: jnp.not_equal(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:bool[3] = ne c b
  in (d,) }""",
        None),
    'not_equal_b3_b3': (
        'lambda x, y: jnp.not_equal(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = ne a b in (c,) }',
        None),
    'not_equal_2.5_i32': (
        'lambda x, y: jnp.not_equal(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:bool[3] = ne a c
  in (d,) }""",
        None),
    'not_equal_f32_m23': (
        'lambda x, y: jnp.not_equal(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:bool[2,3] = ne c b
  in (d,) }""",
        None),
    'less_f32_f32b': (
        'lambda x, y: jnp.less(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:bool[3] = lt a b in (c,) }',
        None),
    'less_i32_i32b': (
        'lambda x, y: jnp.less(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:bool[3] = lt a b in (c,) }',
        None),
    'less_i32_2': (
        'lambda x, y: jnp.less(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:bool[3] = lt a c
  in (d,) }""",
        None),
    'less_u8_i32': (
        'lambda x, y: jnp.less(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:bool[3] = lt c b
  in (d,) }""",
        None),
    'less_b3_b3': (
        'lambda x, y: jnp.less(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = lt a b in (c,) }',
        None),
    'less_2.5_i32': (
        'lambda x, y: jnp.less(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:bool[3] = lt a c
  in (d,) }""",
        None),
    'less_f32_m23': (
        'lambda x, y: jnp.less(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:bool[2,3] = lt c b
  in (d,) }""",
        None),
    'less_equal_f32_f32b': (
        'lambda x, y: jnp.less_equal(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:bool[3] = le a b in (c,) }',
        None),
    'less_equal_i32_i32b': (
        'lambda x, y: jnp.less_equal(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:bool[3] = le a b in (c,) }',
        None),
    'less_equal_i32_2': (
        'lambda x, y: jnp.less_equal(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:bool[3] = le a c
  in (d,) }""",
        None),
    'less_equal_u8_i32': (
        'lambda x, y: jnp.less_equal(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:bool[3] = le c b
  in (d,) }""",
        None),
    'less_equal_b3_b3': (
        'lambda x, y: jnp.less_equal(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = le a b in (c,) }',
        None),
    'less_equal_2.5_i32': (
        'lambda x, y: jnp.less_equal(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:bool[3] = le a c
  in (d,) }""",
        None),
    'less_equal_f32_m23': (
        'lambda x, y: jnp.less_equal(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:bool[2,3] = le c b
  in (d,) }""",
        None),
    'greater_f32_f32b': (
        'lambda x, y: jnp.greater(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:bool[3] = gt a b in (c,) }',
        None),
    'greater_i32_i32b': (
        'lambda x, y: jnp.greater(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:bool[3] = gt a b in (c,) }',
        None),
    'greater_i32_2': (
        'lambda x, y: jnp.greater(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:bool[3] = gt a c
  in (d,) }""",
        None),
    'greater_u8_i32': (
        'lambda x, y: jnp.greater(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:bool[3] = gt c b
  in (d,) }""",
        None),
    'greater_b3_b3': (
        'lambda x, y: jnp.greater(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = gt a b in (c,) }',
        None),
    'greater_2.5_i32': (
        'lambda x, y: jnp.greater(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:bool[3] = gt a c
  in (d,) }""",
        None),
    'greater_f32_m23': (
        'lambda x, y: jnp.greater(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:bool[2,3] = gt c b
  in (d,) }""",
        None),
    'greater_equal_f32_f32b': (
        'lambda x, y: jnp.greater_equal(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:bool[3] = ge a b in (c,) }',
        None),
    'greater_equal_i32_i32b': (
        'lambda x, y: jnp.greater_equal(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:bool[3] = ge a b in (c,) }',
        None),
    'greater_equal_i32_2': (
        'lambda x, y: jnp.greater_equal(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:bool[3] = ge a c
  in (d,) }""",
        None),
    'greater_equal_u8_i32': (
        'lambda x, y: jnp.greater_equal(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:bool[3] = ge c b
  in (d,) }""",
        None),
    'greater_equal_b3_b3': (
        'lambda x, y: jnp.greater_equal(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = ge a b in (c,) }',
        None),
    'greater_equal_2.5_i32': (
        'lambda x, y: jnp.greater_equal(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:bool[3] = ge a c
  in (d,) }""",
        None),
    'greater_equal_f32_m23': (
        'lambda x, y: jnp.greater_equal(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:bool[2,3] = ge c b
  in (d,) }""",
        None),
    'logical_and_f32_f32b': (
        'lambda x, y: jnp.logical_and(x, y)',
        '(f32, f32b)',
        """\
{ lambda ; a:f32[3] b:f32[3]. let
    c:bool[3] = ne a 0.0:f32[]
    d:bool[3] = ne b 0.0:f32[]
    e:bool[3] = and c d
  in (e,) }""",
        None),
    'logical_and_i32_i32b': (
        'lambda x, y: jnp.logical_and(x, y)',
        '(i32, i32b)',
        """\
{ lambda ; a:i32[3] b:i32[3]. let
    c:bool[3] = ne a 0:i32[]
    d:bool[3] = ne b 0:i32[]
    e:bool[3] = and c d
  in (e,) }""",
        None),
    'logical_and_i32_2': (
        'lambda x, y: jnp.logical_and(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:bool[3] = ne a 0:i32[]
    e:bool[] = ne c 0:i32[]
    f:bool[3] = and d e
  in (f,) }""",
        None),
    'logical_and_u8_i32': (
        'lambda x, y: jnp.logical_and(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:bool[3] = ne c 0:i32[]
    e:bool[3] = ne b 0:i32[]
    f:bool[3] = and d e
  in (f,) }""",
        None),
    'logical_and_b3_b3': (
        'lambda x, y: jnp.logical_and(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = and a b in (c,) }',
        None),
    'logical_and_2.5_i32': (
        'lambda x, y: jnp.logical_and(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:bool[] = ne a 0.0:f32[]
    e:bool[3] = ne c 0.0:f32[]
    f:bool[3] = and d e
  in (f,) }""",
        None),
    'logical_and_f32_m23': (
        'lambda x, y: jnp.logical_and(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:bool[1,3] = ne c 0.0:f32[]
    e:bool[2,3] = ne b 0.0:f32[]
    f:bool[2,3] = and d e
  in (f,) }""",
        None),
    'logical_or_f32_f32b': (
        'lambda x, y: jnp.logical_or(x, y)',
        '(f32, f32b)',
        """\
{ lambda ; a:f32[3] b:f32[3]. let
    c:bool[3] = ne a 0.0:f32[]
    d:bool[3] = ne b 0.0:f32[]
    e:bool[3] = or c d
  in (e,) }""",
        None),
    'logical_or_i32_i32b': (
        'lambda x, y: jnp.logical_or(x, y)',
        '(i32, i32b)',
        """\
{ lambda ; a:i32[3] b:i32[3]. let
    c:bool[3] = ne a 0:i32[]
    d:bool[3] = ne b 0:i32[]
    e:bool[3] = or c d
  in (e,) }""",
        None),
    'logical_or_i32_2': (
        'lambda x, y: jnp.logical_or(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:bool[3] = ne a 0:i32[]
    e:bool[] = ne c 0:i32[]
    f:bool[3] = or d e
  in (f,) }""",
        None),
    'logical_or_u8_i32': (
        'lambda x, y: jnp.logical_or(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:bool[3] = ne c 0:i32[]
    e:bool[3] = ne b 0:i32[]
    f:bool[3] = or d e
  in (f,) }""",
        None),
    'logical_or_b3_b3': (
        'lambda x, y: jnp.logical_or(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = or a b in (c,) }',
        None),
    'logical_or_2.5_i32': (
        'lambda x, y: jnp.logical_or(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:bool[] = ne a 0.0:f32[]
    e:bool[3] = ne c 0.0:f32[]
    f:bool[3] = or d e
  in (f,) }""",
        None),
    'logical_or_f32_m23': (
        'lambda x, y: jnp.logical_or(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:bool[1,3] = ne c 0.0:f32[]
    e:bool[2,3] = ne b 0.0:f32[]
    f:bool[2,3] = or d e
  in (f,) }""",
        None),
    'logical_xor_f32_f32b': (
        'lambda x, y: jnp.logical_xor(x, y)',
        '(f32, f32b)',
        """\
{ lambda ; a:f32[3] b:f32[3]. let
    c:bool[3] = ne a 0.0:f32[]
    d:bool[3] = ne b 0.0:f32[]
    e:bool[3] = xor c d
  in (e,) }""",
        None),
    'logical_xor_i32_i32b': (
        'lambda x, y: jnp.logical_xor(x, y)',
        '(i32, i32b)',
        """\
{ lambda ; a:i32[3] b:i32[3]. let
    c:bool[3] = ne a 0:i32[]
    d:bool[3] = ne b 0:i32[]
    e:bool[3] = xor c d
  in (e,) }""",
        None),
    'logical_xor_i32_2': (
        'lambda x, y: jnp.logical_xor(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:bool[3] = ne a 0:i32[]
    e:bool[] = ne c 0:i32[]
    f:bool[3] = xor d e
  in (f,) }""",
        None),
    'logical_xor_u8_i32': (
        'lambda x, y: jnp.logical_xor(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:bool[3] = ne c 0:i32[]
    e:bool[3] = ne b 0:i32[]
    f:bool[3] = xor d e
  in (f,) }""",
        None),
    'logical_xor_b3_b3': (
        'lambda x, y: jnp.logical_xor(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = xor a b in (c,) }',
        None),
    'logical_xor_2.5_i32': (
        'lambda x, y: jnp.logical_xor(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:bool[] = ne a 0.0:f32[]
    e:bool[3] = ne c 0.0:f32[]
    f:bool[3] = xor d e
  in (f,) }""",
        None),
    'logical_xor_f32_m23': (
        'lambda x, y: jnp.logical_xor(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:bool[1,3] = ne c 0.0:f32[]
    e:bool[2,3] = ne b 0.0:f32[]
    f:bool[2,3] = xor d e
  in (f,) }""",
        None),
    'bitwise_and_f32_f32b': (
        'lambda x, y: jnp.bitwise_and(x, y)',
        '(f32, f32b)',
        'ERR TypeError: and does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer, bool.',
        None),
    'bitwise_and_i32_i32b': (
        'lambda x, y: jnp.bitwise_and(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:i32[3] = and a b in (c,) }',
        None),
    'bitwise_and_i32_2': (
        'lambda x, y: jnp.bitwise_and(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:i32[3] = and a c
  in (d,) }""",
        None),
    'bitwise_and_u8_i32': (
        'lambda x, y: jnp.bitwise_and(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = and c b
  in (d,) }""",
        None),
    'bitwise_and_b3_b3': (
        'lambda x, y: jnp.bitwise_and(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = and a b in (c,) }',
        None),
    'bitwise_and_2.5_i32': (
        'lambda x, y: jnp.bitwise_and(x, y)',
        '(2.5, i32)',
        'ERR TypeError: and does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer, bool.',
        None),
    'bitwise_and_f32_m23': (
        'lambda x, y: jnp.bitwise_and(x, y)',
        '(f32, m23)',
        'ERR TypeError: and does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer, bool.',
        None),
    'bitwise_or_f32_f32b': (
        'lambda x, y: jnp.bitwise_or(x, y)',
        '(f32, f32b)',
        'ERR TypeError: or does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer, bool.',
        None),
    'bitwise_or_i32_i32b': (
        'lambda x, y: jnp.bitwise_or(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:i32[3] = or a b in (c,) }',
        None),
    'bitwise_or_i32_2': (
        'lambda x, y: jnp.bitwise_or(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:i32[3] = or a c
  in (d,) }""",
        None),
    'bitwise_or_u8_i32': (
        'lambda x, y: jnp.bitwise_or(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = or c b
  in (d,) }""",
        None),
    'bitwise_or_b3_b3': (
        'lambda x, y: jnp.bitwise_or(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = or a b in (c,) }',
        None),
    'bitwise_or_2.5_i32': (
        'lambda x, y: jnp.bitwise_or(x, y)',
        '(2.5, i32)',
        'ERR TypeError: or does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer, bool.',
        None),
    'bitwise_or_f32_m23': (
        'lambda x, y: jnp.bitwise_or(x, y)',
        '(f32, m23)',
        'ERR TypeError: or does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer, bool.',
        None),
    'bitwise_xor_f32_f32b': (
        'lambda x, y: jnp.bitwise_xor(x, y)',
        '(f32, f32b)',
        'ERR TypeError: xor does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer, bool.',
        None),
    'bitwise_xor_i32_i32b': (
        'lambda x, y: jnp.bitwise_xor(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:i32[3] = xor a b in (c,) }',
        None),
    'bitwise_xor_i32_2': (
        'lambda x, y: jnp.bitwise_xor(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:i32[3] = xor a c
  in (d,) }""",
        None),
    'bitwise_xor_u8_i32': (
        'lambda x, y: jnp.bitwise_xor(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = xor c b
  in (d,) }""",
        None),
    'bitwise_xor_b3_b3': (
        'lambda x, y: jnp.bitwise_xor(x, y)',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = xor a b in (c,) }',
        None),
    'bitwise_xor_2.5_i32': (
        'lambda x, y: jnp.bitwise_xor(x, y)',
        '(2.5, i32)',
        'ERR TypeError: xor does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer, bool.',
        None),
    'bitwise_xor_f32_m23': (
        'lambda x, y: jnp.bitwise_xor(x, y)',
        '(f32, m23)',
        'ERR TypeError: xor does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer, bool.',
        None),
    'left_shift_f32_f32b': (
        'lambda x, y: jnp.left_shift(x, y)',
        '(f32, f32b)',
        'ERR TypeError: shift_left does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer.',
        None),
    'left_shift_i32_i32b': (
        'lambda x, y: jnp.left_shift(x, y)',
        '(i32, i32b)',
        '{ lambda ; a:i32[3] b:i32[3]. let c:i32[3] = shift_left a b in (c,) }',
        None),
    'left_shift_i32_2': (
        'lambda x, y: jnp.left_shift(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:i32[3] = shift_left a c
  in (d,) }""",
        None),
    'left_shift_u8_i32': (
        'lambda x, y: jnp.left_shift(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = shift_left c b
  in (d,) }""",
        None),
    'left_shift_b3_b3': (
        'lambda x, y: jnp.left_shift(x, y)',
        '(b3, b3)',
        """\
{ lambda ; a:bool[3] b:bool[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] b
    e:i32[3] = shift_left c d
  in (e,) }""",
        None),
    'left_shift_2.5_i32': (
        'lambda x, y: jnp.left_shift(x, y)',
        '(2.5, i32)',
        'ERR TypeError: shift_left does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer.',
        None),
    'left_shift_f32_m23': (
        'lambda x, y: jnp.left_shift(x, y)',
        '(f32, m23)',
        'ERR TypeError: shift_left does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer.',
        None),
    'right_shift_f32_f32b': (
        'lambda x, y: jnp.right_shift(x, y)',
        '(f32, f32b)',
        'ERR TypeError: shift_right_arithmetic does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer.',
        None),
    'right_shift_i32_i32b': (
        'lambda x, y: jnp.right_shift(x, y)',
        '(i32, i32b)',
        """\
{ lambda ; a:i32[3] b:i32[3]. let
    c:i32[3] = shift_right_arithmetic a b
  in (c,) }""",
        None),
    'right_shift_i32_2': (
        'lambda x, y: jnp.right_shift(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:i32[3] = shift_right_arithmetic a c
  in (d,) }""",
        None),
    'right_shift_u8_i32': (
        'lambda x, y: jnp.right_shift(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = shift_right_arithmetic c b
  in (d,) }""",
        None),
    'right_shift_b3_b3': (
        'lambda x, y: jnp.right_shift(x, y)',
        '(b3, b3)',
        """\
{ lambda ; a:bool[3] b:bool[3]. let
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] b
    e:i32[3] = shift_right_arithmetic c d
  in (e,) }""",
        None),
    'right_shift_2.5_i32': (
        'lambda x, y: jnp.right_shift(x, y)',
        '(2.5, i32)',
        'ERR TypeError: shift_right_arithmetic does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer.',
        None),
    'right_shift_f32_m23': (
        'lambda x, y: jnp.right_shift(x, y)',
        '(f32, m23)',
        'ERR TypeError: shift_right_arithmetic does not accept dtype float32 at position 0. Accepted dtypes at position 0 are subtypes of integer.',
        None),
    'nextafter_f32_f32b': (
        'lambda x, y: jnp.nextafter(x, y)',
        '(f32, f32b)',
        '{ lambda ; a:f32[3] b:f32[3]. let c:f32[3] = nextafter a b in (c,) }',
        None),
    'nextafter_i32_i32b': (
        'lambda x, y: jnp.nextafter(x, y)',
        '(i32, i32b)',
        """\
{ lambda ; a:i32[3] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = nextafter c d
  in (e,) }""",
        None),
    'nextafter_i32_2': (
        'lambda x, y: jnp.nextafter(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = nextafter c d
  in (e,) }""",
        None),
    'nextafter_u8_i32': (
        'lambda x, y: jnp.nextafter(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = nextafter c d
  in (e,) }""",
        None),
    'nextafter_b3_b3': (
        'lambda x, y: jnp.nextafter(x, y)',
        '(b3, b3)',
        """\
{ lambda ; a:bool[3] b:bool[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[3] = nextafter c d
  in (e,) }""",
        None),
    'nextafter_2.5_i32': (
        'lambda x, y: jnp.nextafter(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
    d:f32[3] = nextafter a c
  in (d,) }""",
        None),
    'nextafter_f32_m23': (
        'lambda x, y: jnp.nextafter(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,3] = nextafter c b
  in (d,) }""",
        None),
    'fmod_f32_f32b': (
        'lambda x, y: jnp.fmod(x, y)',
        '(f32, f32b)',
        """\
{ lambda ; a:f32[3] b:f32[3]. let
    c:f32[3] = jit[
      name=fmod
      jaxpr={ lambda ; a:f32[3] b:f32[3]. let c:f32[3] = rem a b in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmod_i32_i32b': (
        'lambda x, y: jnp.fmod(x, y)',
        '(i32, i32b)',
        """\
{ lambda ; a:i32[3] b:i32[3]. let
    c:i32[3] = jit[
      name=fmod
      jaxpr={ lambda ; a:i32[3] b:i32[3]. let
          d:bool[3] = eq b 0:i32[]
          e:i32[3] = broadcast_in_dim 1:i32[]
          f:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; d:bool[3] e:i32[3] b:i32[3]. let
                f:i32[3] = select_n d b e
              in (f,) }
          ] d e b
          c:i32[3] = rem a f
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmod_i32_2': (
        'lambda x, y: jnp.fmod(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:i32[3] = jit[
      name=fmod
      jaxpr={ lambda ; a:i32[3] b:i32[]. let
          d:bool[] = eq b 0:i32[]
          e:i32[] = jit[
            name=_where
            jaxpr={ lambda ; d:bool[] f:i32[] b:i32[]. let
                e:i32[] = select_n d b f
              in (e,) }
          ] d 1:i32[] b
          g:i32[] = convert_element_type[new_dtype=int32 weak_type=False] e
          c:i32[3] = rem a g
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmod_u8_i32': (
        'lambda x, y: jnp.fmod(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:i32[3] = jit[
      name=fmod
      jaxpr={ lambda ; a:u8[3] b:i32[3]. let
          d:bool[3] = eq b 0:i32[]
          e:i32[3] = broadcast_in_dim 1:i32[]
          f:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; d:bool[3] e:i32[3] b:i32[3]. let
                f:i32[3] = select_n d b e
              in (f,) }
          ] d e b
          g:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
          c:i32[3] = rem g f
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmod_b3_b3': (
        'lambda x, y: jnp.fmod(x, y)',
        '(b3, b3)',
        """\
{ lambda ; a:bool[3] b:bool[3]. let
    c:i32[3] = jit[
      name=fmod
      jaxpr={ lambda ; a:bool[3] b:bool[3]. let
          d:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
          e:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] b
          c:i32[3] = rem d e
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmod_2.5_i32': (
        'lambda x, y: jnp.fmod(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = jit[
      name=fmod
      jaxpr={ lambda ; a:f32[] b:i32[3]. let
          d:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
          c:f32[3] = rem a d
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'fmod_f32_m23': (
        'lambda x, y: jnp.fmod(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[2,3] = jit[
      name=fmod
      jaxpr={ lambda ; a:f32[3] b:f32[2,3]. let
          d:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
          c:f32[2,3] = rem d b
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'copysign_f32_f32b': (
        'lambda x, y: jnp.copysign(x, y)',
        '(f32, f32b)',
        """\
{ lambda ; a:f32[3] b:f32[3]. let
    c:f32[3] = jit[
      name=copysign
      jaxpr={ lambda ; a:f32[3] b:f32[3]. let
          d:bool[3] = jit[
            name=signbit
            jaxpr={ lambda ; b:f32[3]. let
                e:i32[3] = bitcast_convert_type[new_dtype=int32] b
                f:i32[3] = shift_right_arithmetic e 31:i32[]
                d:bool[3] = convert_element_type[new_dtype=bool weak_type=False] f
              in (d,) }
          ] b
          g:f32[3] = abs a
          h:f32[3] = neg g
          i:f32[3] = abs a
          c:f32[3] = jit[
            name=_where
            jaxpr={ lambda ; d:bool[3] h:f32[3] i:f32[3]. let
                c:f32[3] = select_n d i h
              in (c,) }
          ] d h i
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'copysign_i32_i32b': (
        'lambda x, y: jnp.copysign(x, y)',
        '(i32, i32b)',
        """\
{ lambda ; a:i32[3] b:i32[3]. let
    c:f32[3] = jit[
      name=copysign
      jaxpr={ lambda ; a:i32[3] b:i32[3]. let
          d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
          e:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
          f:bool[3] = jit[
            name=signbit
            jaxpr={ lambda ; e:f32[3]. let
                g:i32[3] = bitcast_convert_type[new_dtype=int32] e
                h:i32[3] = shift_right_arithmetic g 31:i32[]
                f:bool[3] = convert_element_type[new_dtype=bool weak_type=False] h
              in (f,) }
          ] e
          i:f32[3] = abs d
          j:f32[3] = neg i
          k:f32[3] = abs d
          c:f32[3] = jit[
            name=_where
            jaxpr={ lambda ; f:bool[3] j:f32[3] k:f32[3]. let
                c:f32[3] = select_n f k j
              in (c,) }
          ] f j k
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'copysign_i32_2': (
        'lambda x, y: jnp.copysign(x, y)',
        '(i32, 2)',
        """\
{ lambda ; a:i32[3] b:i32[]. let
    c:f32[3] = jit[
      name=copysign
      jaxpr={ lambda ; a:i32[3] b:i32[]. let
          d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
          e:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
          f:bool[] = jit[
            name=signbit
            jaxpr={ lambda ; e:f32[]. let
                g:i32[] = bitcast_convert_type[new_dtype=int32] e
                h:i32[] = shift_right_arithmetic g 31:i32[]
                f:bool[] = convert_element_type[new_dtype=bool weak_type=False] h
              in (f,) }
          ] e
          i:f32[3] = abs d
          j:f32[3] = neg i
          k:f32[3] = abs d
          c:f32[3] = jit[
            name=_where
            jaxpr={ lambda ; f:bool[] j:f32[3] k:f32[3]. let
                c:f32[3] = select_n f k j
              in (c,) }
          ] f j k
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'copysign_u8_i32': (
        'lambda x, y: jnp.copysign(x, y)',
        '(u8, i32)',
        """\
{ lambda ; a:u8[3] b:i32[3]. let
    c:f32[3] = jit[
      name=copysign
      jaxpr={ lambda ; a:u8[3] b:i32[3]. let
          d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
          e:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
          f:bool[3] = jit[
            name=signbit
            jaxpr={ lambda ; e:f32[3]. let
                g:i32[3] = bitcast_convert_type[new_dtype=int32] e
                h:i32[3] = shift_right_arithmetic g 31:i32[]
                f:bool[3] = convert_element_type[new_dtype=bool weak_type=False] h
              in (f,) }
          ] e
          i:f32[3] = abs d
          j:f32[3] = neg i
          k:f32[3] = abs d
          c:f32[3] = jit[
            name=_where
            jaxpr={ lambda ; f:bool[3] j:f32[3] k:f32[3]. let
                c:f32[3] = select_n f k j
              in (c,) }
          ] f j k
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'copysign_b3_b3': (
        'lambda x, y: jnp.copysign(x, y)',
        '(b3, b3)',
        """\
{ lambda ; a:bool[3] b:bool[3]. let
    c:f32[3] = jit[
      name=copysign
      jaxpr={ lambda ; a:bool[3] b:bool[3]. let
          d:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
          e:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
          f:bool[3] = jit[
            name=signbit
            jaxpr={ lambda ; e:f32[3]. let
                g:i32[3] = bitcast_convert_type[new_dtype=int32] e
                h:i32[3] = shift_right_arithmetic g 31:i32[]
                f:bool[3] = convert_element_type[new_dtype=bool weak_type=False] h
              in (f,) }
          ] e
          i:f32[3] = abs d
          j:f32[3] = neg i
          k:f32[3] = abs d
          c:f32[3] = jit[
            name=_where
            jaxpr={ lambda ; f:bool[3] j:f32[3] k:f32[3]. let
                c:f32[3] = select_n f k j
              in (c,) }
          ] f j k
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'copysign_2.5_i32': (
        'lambda x, y: jnp.copysign(x, y)',
        '(2.5, i32)',
        """\
{ lambda ; a:f32[] b:i32[3]. let
    c:f32[3] = jit[
      name=copysign
      jaxpr={ lambda ; a:f32[] b:i32[3]. let
          d:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
          e:bool[3] = jit[
            name=signbit
            jaxpr={ lambda ; d:f32[3]. let
                f:i32[3] = bitcast_convert_type[new_dtype=int32] d
                g:i32[3] = shift_right_arithmetic f 31:i32[]
                e:bool[3] = convert_element_type[new_dtype=bool weak_type=False] g
              in (e,) }
          ] d
          h:f32[] = abs a
          i:f32[] = neg h
          j:f32[] = abs a
          c:f32[3] = jit[
            name=_where
            jaxpr={ lambda ; e:bool[3] i:f32[] j:f32[]. let
                k:f32[3] = broadcast_in_dim i
                l:f32[3] = broadcast_in_dim j
                c:f32[3] = select_n e l k
              in (c,) }
          ] e i j
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'copysign_f32_m23': (
        'lambda x, y: jnp.copysign(x, y)',
        '(f32, m23)',
        """\
{ lambda ; a:f32[3] b:f32[2,3]. let
    c:f32[2,3] = jit[
      name=copysign
      jaxpr={ lambda ; a:f32[3] b:f32[2,3]. let
          d:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
          e:bool[2,3] = jit[
            name=signbit
            jaxpr={ lambda ; b:f32[2,3]. let
                f:i32[2,3] = bitcast_convert_type[new_dtype=int32] b
                g:i32[2,3] = shift_right_arithmetic f 31:i32[]
                e:bool[2,3] = convert_element_type[
                  new_dtype=bool
                  weak_type=False
                ] g
              in (e,) }
          ] b
          h:f32[1,3] = abs d
          i:f32[1,3] = neg h
          j:f32[1,3] = abs d
          c:f32[2,3] = jit[
            name=_where
            jaxpr={ lambda ; e:bool[2,3] i:f32[1,3] j:f32[1,3]. let
                k:f32[2,3] = broadcast_in_dim[broadcast_dimensions=(0, 1)] i
                l:f32[2,3] = broadcast_in_dim[broadcast_dimensions=(0, 1)] j
                c:f32[2,3] = select_n e l k
              in (c,) }
          ] e i j
        in (c,) }
    ] a b
  in (c,) }""",
        None),
    'where_3': (
        'lambda c, x, y: jnp.where(c, x, y)',
        '(b3, f32, i32)',
        """\
{ lambda ; a:bool[3] b:f32[3] c:i32[3]. let
    d:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; a:bool[3] b:f32[3] c:i32[3]. let
          e:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] c
          d:f32[3] = select_n a e b
        in (d,) }
    ] a b c
  in (d,) }""",
        [['float32', False, [3], [0.5, -2.0, 2.0]]]),
    'where_scalar': (
        'lambda c, x: jnp.where(c, x, 2.0)',
        '(b3, i32)',
        """\
{ lambda ; a:bool[3] b:i32[3]. let
    c:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; a:bool[3] b:i32[3] d:f32[]. let
          e:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] b
          f:f32[3] = broadcast_in_dim d
          c:f32[3] = select_n a f e
        in (c,) }
    ] a b 2.0:f32[]
  in (c,) }""",
        [['float32', True, [3], [1.0, 2.0, 3.0]]]),
    'where_bcast': (
        'lambda c, x: jnp.where(c, x, m23)',
        '(b3, f32)',
        """\
{ lambda a:f32[2,3]; b:bool[3] c:f32[3]. let
    d:f32[2,3] = jit[
      name=_where
      jaxpr={ lambda ; b:bool[3] c:f32[3] a:f32[2,3]. let
          e:bool[2,3] = broadcast_in_dim[broadcast_dimensions=(1,)] b
          f:f32[2,3] = broadcast_in_dim[broadcast_dimensions=(1,)] c
          d:f32[2,3] = select_n e a f
        in (d,) }
    ] b c a
  in (d,) }""",
        [['float32', False, [2, 3], [[0.5, 1.0, 2.0], [0.5, 4.0, 2.0]]]]),
    'where_intcond': (
        'lambda c, x: jnp.where(c, x, 0)',
        '(i32, f32)',
        """\
{ lambda ; a:i32[3] b:f32[3]. let
    c:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; a:i32[3] b:f32[3] d:i32[]. let
          e:bool[3] = ne a 0:i32[]
          f:f32[] = convert_element_type[new_dtype=float32 weak_type=False] d
          g:f32[3] = broadcast_in_dim f
          c:f32[3] = select_n e g b
        in (c,) }
    ] a b 0:i32[]
  in (c,) }""",
        [['float32', False, [3], [0.5, -1.5, 2.0]]]),
    'where_py': (
        'lambda c: jnp.where(c, 1.0, 2)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; a:bool[3] c:f32[] d:i32[]. let
          e:f32[] = convert_element_type[new_dtype=float32 weak_type=True] d
          f:f32[3] = broadcast_in_dim c
          g:f32[3] = broadcast_in_dim e
          b:f32[3] = select_n a g f
        in (b,) }
    ] a 1.0:f32[] 2:i32[]
  in (b,) }""",
        [['float32', True, [3], [1.0, 2.0, 1.0]]]),
    'where_scalar_cond': (
        'lambda x: jnp.where(True, x, 1.0)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; c:bool[] a:f32[3] d:f32[]. let
          e:f32[] = convert_element_type[new_dtype=float32 weak_type=False] d
          f:f32[3] = broadcast_in_dim e
          b:f32[3] = select_n c f a
        in (b,) }
    ] True:bool[] a 1.0:f32[]
  in (b,) }""",
        [['float32', False, [3], [0.5, -1.5, 2.0]]]),
    'clip_01': (
        'lambda x: jnp.clip(x, 0, 1)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = jit[
      name=clip
      jaxpr={ lambda ; a:f32[3] c:i32[] d:i32[]. let
          e:f32[] = convert_element_type[new_dtype=float32 weak_type=False] c
          f:f32[3] = max e a
          g:f32[] = convert_element_type[new_dtype=float32 weak_type=False] d
          b:f32[3] = min g f
        in (b,) }
    ] a 0:i32[] 1:i32[]
  in (b,) }""",
        [['float32', False, [3], [0.5, 0.0, 1.0]]]),
    'clip_min': (
        'lambda x: jnp.clip(x, 0.5)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = jit[
      name=clip
      jaxpr={ lambda ; a:i32[3] c:f32[]. let
          d:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] a
          b:f32[3] = max c d
        in (b,) }
    ] a 0.5:f32[]
  in (b,) }""",
        [['float32', True, [3], [1.0, 0.5, 3.0]]]),
    'clip_max': (
        'lambda x: jnp.clip(x, max=2)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:i32[3] = jit[
      name=clip
      jaxpr={ lambda ; a:i32[3] c:i32[]. let
          d:i32[] = convert_element_type[new_dtype=int32 weak_type=False] c
          b:i32[3] = min d a
        in (b,) }
    ] a 2:i32[]
  in (b,) }""",
        [['int32', False, [3], [1, -2, 2]]]),
    'clip_arr': (
        'lambda x, y: jnp.clip(x, y, 3)',
        '(m23, f32)',
        """\
{ lambda ; a:f32[2,3] b:f32[3]. let
    c:f32[2,3] = jit[
      name=clip
      jaxpr={ lambda ; a:f32[2,3] b:f32[3] d:i32[]. let
          e:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] b
          f:f32[2,3] = max e a
          g:f32[] = convert_element_type[new_dtype=float32 weak_type=False] d
          c:f32[2,3] = min g f
        in (c,) }
    ] a b 3:i32[]
  in (c,) }""",
        [['float32', False, [2, 3], [[0.5, 1.0, 2.0], [3.0, 3.0, 3.0]]]]),
    'round_2': (
        'lambda x: jnp.round(x, 2)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = jit[
      name=round
      jaxpr={ lambda ; a:f32[3]. let
          c:f32[3] = mul a 100.0:f32[]
          d:f32[3] = round[rounding_method=1] c
          b:f32[3] = div d 100.0:f32[]
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [3], [0.5, -1.5, 2.0]]]),
    'round_m1': (
        'lambda x: jnp.round(x, -1)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = jit[
      name=round
      jaxpr={ lambda ; a:f32[3]. let
          c:f32[3] = mul a 0.10000000149011612:f32[]
          d:f32[3] = round[rounding_method=1] c
          b:f32[3] = div d 0.10000000149011612:f32[]
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [3], [0.0, -0.0, 0.0]]]),
    'round_f16': (
        'lambda x: jnp.round(x, 1)',
        '(f16,)',
        """\
{ lambda ; a:f16[3]. let
    b:f16[3] = jit[
      name=round
      jaxpr={ lambda ; a:f16[3]. let
          c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
          d:f32[3] = mul c 10.0:f32[]
          e:f32[3] = round[rounding_method=1] d
          f:f32[3] = div e 10.0:f32[]
          b:f16[3] = convert_element_type[new_dtype=float16 weak_type=False] f
        in (b,) }
    ] a
  in (b,) }""",
        [['float16', False, [3], [0.5, -1.5, 2.0]]]),
    'around': (
        'lambda x: jnp.around(x)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = jit[
      name=around
      jaxpr={ lambda ; a:f32[3]. let
          b:f32[3] = jit[
            name=round
            jaxpr={ lambda ; a:f32[3]. let
                b:f32[3] = round[rounding_method=1] a
              in (b,) }
          ] a
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [3], [0.0, -2.0, 2.0]]]),
    'method_round': (
        'lambda x: x.round(1)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = jit[
      name=round
      jaxpr={ lambda ; a:f32[3]. let
          c:f32[3] = mul a 10.0:f32[]
          d:f32[3] = round[rounding_method=1] c
          b:f32[3] = div d 10.0:f32[]
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [3], [0.5, -1.5, 2.0]]]),
    'pyround': (
        'lambda x: round(x)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = jit[
      name=round
      jaxpr={ lambda ; a:f32[3]. let
          b:f32[3] = round[rounding_method=1] a
        in (b,) }
    ] a
    c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] b
  in (c,) }""",
        [['int32', False, [3], [0, -2, 2]]]),
    'op_add_py': (
        'lambda x: x + 1',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = add a 1.0:f32[] in (b,) }',
        [['float32', False, [3], [1.5, -0.5, 3.0]]]),
    'op_radd_py': (
        'lambda x: 1.5 + x',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] a
    c:f32[3] = add 1.5:f32[] b
  in (c,) }""",
        [['float32', True, [3], [2.5, -0.5, 4.5]]]),
    'op_sub': (
        'lambda x, y: x - y',
        '(f32, i32)',
        """\
{ lambda ; a:f32[3] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    d:f32[3] = sub a c
  in (d,) }""",
        [['float32', False, [3], [-0.5, 0.5, -1.0]]]),
    'op_mul_bcast': (
        'lambda x, y: x * y',
        '(m23, f32)',
        """\
{ lambda ; a:f32[2,3] b:f32[3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] b
    d:f32[2,3] = mul a c
  in (d,) }""",
        [['float32', False, [2, 3], [[0.0, -1.5, 4.0], [1.5, -6.0, 10.0]]]]),
    'op_truediv_int': (
        'lambda x: x / 2',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[3] = div b 2.0:f32[]
  in (c,) }""",
        [['float32', False, [3], [0.5, -1.0, 1.5]]]),
    'op_rtruediv': (
        'lambda x: 1 / x',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = div 1.0:f32[] a in (b,) }',
        [['float32', False, [3], [2.0, -0.6666666865348816, 0.5]]]),
    'op_floordiv': (
        'lambda x: x // 2',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:i32[3] = jit[
      name=floor_divide
      jaxpr={ lambda ; a:i32[3] c:i32[]. let
          d:i32[] = convert_element_type[new_dtype=int32 weak_type=False] c
          e:i32[3] = div a d
          f:i32[3] = sign a
          g:i32[] = sign d
          h:bool[3] = ne f g
          i:i32[3] = rem a d
          j:bool[3] = ne i 0:i32[]
          k:bool[3] = and h j
          l:i32[3] = sub e 1:i32[]
          b:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; k:bool[3] l:i32[3] e:i32[3]. let
                b:i32[3] = select_n k e l
              in (b,) }
          ] k l e
        in (b,) }
    ] a 2:i32[]
  in (b,) }""",
        [['int32', False, [3], [0, -1, 1]]]),
    'op_rfloordiv': (
        'lambda x: 7 // x',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:i32[3] = jit[
      name=floor_divide
      jaxpr={ lambda ; c:i32[] a:i32[3]. let
          d:i32[] = convert_element_type[new_dtype=int32 weak_type=False] c
          e:i32[3] = div d a
          f:i32[] = sign d
          g:i32[3] = sign a
          h:bool[3] = ne f g
          i:i32[3] = rem d a
          j:bool[3] = ne i 0:i32[]
          k:bool[3] = and h j
          l:i32[3] = sub e 1:i32[]
          b:i32[3] = jit[
            name=_where
            jaxpr={ lambda ; k:bool[3] l:i32[3] e:i32[3]. let
                b:i32[3] = select_n k e l
              in (b,) }
          ] k l e
        in (b,) }
    ] 7:i32[] a
  in (b,) }""",
        [['int32', False, [3], [7, -4, 2]]]),
    'op_floordiv_f': (
        'lambda x, y: x // y',
        '(f32, f32b)',
        """\
let floor_divide = { lambda ; a:f32[3] b:f32[3]. let
    c:f32[3] = rem a b
    d:bool[3] = eq b 0.0:f32[]
    e:f32[3] = sub a c
    f:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; d:bool[3] a:f32[3] e:f32[3]. let
          f:f32[3] = select_n d e a
        in (f,) }
    ] d a e
    g:f32[3] = div f b
    h:bool[3] = ne c 0.0:f32[]
    i:f32[3] = sign b
    j:f32[3] = sign c
    k:bool[3] = ne i j
    l:bool[3] = and h k
    m:f32[3] = add c b
    n:f32[3] = select_n l c m
    o:f32[3] = sub g 1.0:f32[]
    p:f32[3] = select_n l g o
    q:f32[3] = round[rounding_method=0] p
  in (q,) } in
{ lambda ; r:f32[3] s:f32[3]. let
    t:f32[3] = jit[name=floor_divide jaxpr=floor_divide] r s
  in (t,) }""",
        [['float32', False, [3], [0.0, -1.0, -1.0]]]),
    'op_mod': (
        'lambda x: x % 2',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = jit[
      name=remainder
      jaxpr={ lambda ; a:f32[3] c:i32[]. let
          d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] c
          e:f32[3] = rem a d
          f:bool[3] = ne e 0.0:f32[]
          g:bool[3] = lt e 0.0:f32[]
          h:bool[] = lt d 0.0:f32[]
          i:bool[3] = ne g h
          j:bool[3] = and i f
          k:f32[3] = add e d
          b:f32[3] = select_n j e k
        in (b,) }
    ] a 2:i32[]
  in (b,) }""",
        [['float32', False, [3], [0.5, 0.5, 0.0]]]),
    'op_mod_u8': (
        'lambda x: x % 3',
        '(u8,)',
        """\
let remainder = { lambda ; a:u8[3] b:i32[]. let
    c:u8[] = convert_element_type[new_dtype=uint8 weak_type=False] b
    d:bool[] = eq c 0:u8[]
    e:u8[] = jit[
      name=_where
      jaxpr={ lambda ; d:bool[] f:u8[] c:u8[]. let
          e:u8[] = select_n d c f
        in (e,) }
    ] d 1:u8[] c
    g:u8[3] = rem a e
    h:bool[3] = ne g 0:u8[]
    i:bool[3] = lt g 0:u8[]
    j:bool[] = lt e 0:u8[]
    k:bool[3] = ne i j
    l:bool[3] = and k h
    m:u8[3] = add g e
    n:u8[3] = select_n l g m
  in (n,) } in
{ lambda ; o:u8[3]. let
    p:u8[3] = jit[name=remainder jaxpr=remainder] o 3:i32[]
  in (p,) }""",
        [['uint8', False, [3], [1, 2, 1]]]),
    'op_divmod': (
        'lambda x: divmod(x, 2)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:i32[3] c:i32[3] = jit[
      name=divmod
      jaxpr={ lambda ; a:i32[3] d:i32[]. let
          e:i32[] = convert_element_type[new_dtype=int32 weak_type=False] d
          b:i32[3] = jit[
            name=floor_divide
            jaxpr={ lambda ; a:i32[3] e:i32[]. let
                f:i32[3] = div a e
                g:i32[3] = sign a
                h:i32[] = sign e
                i:bool[3] = ne g h
                j:i32[3] = rem a e
                k:bool[3] = ne j 0:i32[]
                l:bool[3] = and i k
                m:i32[3] = sub f 1:i32[]
                b:i32[3] = jit[
                  name=_where
                  jaxpr={ lambda ; l:bool[3] m:i32[3] f:i32[3]. let
                      b:i32[3] = select_n l f m
                    in (b,) }
                ] l m f
              in (b,) }
          ] a e
          c:i32[3] = jit[
            name=remainder
            jaxpr={ lambda ; a:i32[3] e:i32[]. let
                n:bool[] = eq e 0:i32[]
                o:i32[] = jit[
                  name=_where
                  jaxpr={ lambda ; n:bool[] p:i32[] e:i32[]. let
                      o:i32[] = select_n n e p
                    in (o,) }
                ] n 1:i32[] e
                q:i32[3] = rem a o
                r:bool[3] = ne q 0:i32[]
                s:bool[3] = lt q 0:i32[]
                t:bool[] = lt o 0:i32[]
                u:bool[3] = ne s t
                v:bool[3] = and u r
                w:i32[3] = add q o
                c:i32[3] = select_n v q w
              in (c,) }
          ] a e
        in (b, c) }
    ] a 2:i32[]
  in (b, c) }""",
        [['int32', False, [3], [0, -1, 1]], ['int32', False, [3], [1, 0, 1]]]),
    'op_pow2': (
        'lambda x: x ** 2',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = integer_pow[y=2] a in (b,) }',
        [['float32', False, [3], [0.25, 2.25, 4.0]]]),
    'op_pow2_int': (
        'lambda x: x ** 2',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:i32[3] = integer_pow[y=2] a in (b,) }',
        [['int32', False, [3], [1, 4, 9]]]),
    'op_pow_m2': (
        'lambda x: x ** -2',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = integer_pow[y=-2] a in (b,) }',
        [['float32', False, [3], [4.0, 0.4444444477558136, 0.25]]]),
    'op_pow_float': (
        'lambda x: x ** 2.5',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] a
    c:f32[3] = pow b 2.5:f32[]
  in (c,) }""",
        [['float32', True, [3], [1.0, 'nan', 15.588457107543945]]]),
    'op_rpow': (
        'lambda x: 2 ** x',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = pow 2.0:f32[] a in (b,) }',
        [['float32', False, [3], [1.4142135381698608, 0.3535533845424652, 4.0]]]),
    'op_pow_arr': (
        'lambda x, y: x ** y',
        '(f32b, i32b)',
        """\
{ lambda ; a:f32[3] b:i32[3]. let
    _:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    c:f32[3] = pow a b
  in (c,) }""",
        [['float32', False, [3], [1.0, 15.625, -0.3333333432674408]]]),
    'op_pow_intint': (
        'lambda x, y: x ** y',
        '(i32, i32b)',
        """\
let _where = { lambda ; a:i32[3] b:i32[3] c:i32[3]. let
    d:bool[3] = ne a 0:i32[]
    e:i32[3] = select_n d c b
  in (e,) } in
{ lambda ; f:i32[3] g:i32[3]. let
    h:bool[3] = eq f 0:i32[]
    i:bool[3] = ne g 0:i32[]
    j:bool[3] = and h i
    k:i32[3] = jit[
      name=_where
      jaxpr={ lambda ; j:bool[3] l:i32[] m:i32[]. let
          n:i32[3] = broadcast_in_dim l
          o:i32[3] = broadcast_in_dim m
          k:i32[3] = select_n j o n
        in (k,) }
    ] j 0:i32[] 1:i32[]
    p:i32[3] = and g 1:i32[]
    q:i32[3] = mul k f
    r:i32[3] = jit[name=_where jaxpr=_where] p q k
    s:i32[3] = mul f f
    t:i32[3] = shift_right_logical g 1:i32[]
    u:i32[3] = and t 1:i32[]
    v:i32[3] = mul r s
    w:i32[3] = jit[name=_where jaxpr=_where] u v r
    x:i32[3] = mul s s
    y:i32[3] = shift_right_logical t 1:i32[]
    z:i32[3] = and y 1:i32[]
    ba:i32[3] = mul w x
    bb:i32[3] = jit[name=_where jaxpr=_where] z ba w
    bc:i32[3] = mul x x
    bd:i32[3] = shift_right_logical y 1:i32[]
    be:i32[3] = and bd 1:i32[]
    bf:i32[3] = mul bb bc
    bg:i32[3] = jit[name=_where jaxpr=_where] be bf bb
    bh:i32[3] = mul bc bc
    bi:i32[3] = shift_right_logical bd 1:i32[]
    bj:i32[3] = and bi 1:i32[]
    bk:i32[3] = mul bg bh
    bl:i32[3] = jit[name=_where jaxpr=_where] bj bk bg
    bm:i32[3] = mul bh bh
    bn:i32[3] = shift_right_logical bi 1:i32[]
    bo:i32[3] = and bn 1:i32[]
    bp:i32[3] = mul bl bm
    bq:i32[3] = jit[name=_where jaxpr=_where] bo bp bl
    _:i32[3] = mul bm bm
    _:i32[3] = shift_right_logical bn 1:i32[]
  in (bq,) }""",
        [['int32', False, [3], [1, -8, 2111105451]]]),
    'op_pow_bool': (
        'lambda x: x ** 2',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    c:i32[3] = integer_pow[y=2] b
  in (c,) }""",
        [['int32', False, [3], [1, 0, 1]]]),
    'op_pow_rank': (
        'lambda x, y: x ** y',
        '(m23, i32b)',
        """\
{ lambda ; a:f32[2,3] b:i32[3]. let
    c:i32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] b
    _:f32[1,3] = convert_element_type[new_dtype=float32 weak_type=False] c
    d:f32[2,3] = pow a c
  in (d,) }""",
        [['float32', False, [2, 3], [[0.0, 1.0, 0.5], [9.0, 64.0, 0.20000000298023224]]]]),
    'op_pow_rank2': (
        'lambda x, y: jnp.power(x, y)',
        '(f32, i23)',
        """\
{ lambda ; a:f32[3] b:i32[2,3]. let
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    _:f32[2,3] = convert_element_type[new_dtype=float32 weak_type=False] b
    d:f32[2,3] = pow c b
  in (d,) }""",
        [['float32', False, [2, 3], [[1.0, -1.5, 4.0], [0.125, 5.0625, 32.0]]]]),
    'op_neg': (
        'lambda x: -x',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = neg a in (b,) }',
        [['float32', False, [3], [-0.5, 1.5, -2.0]]]),
    'op_pos': (
        'lambda x: +x',
        '(i32,)',
        '{ lambda ; a:i32[3]. let  in (a,) }',
        [['int32', False, [3], [1, -2, 3]]]),
    'op_abs': (
        'lambda x: abs(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:i32[3] = abs a in (b,) }',
        [['int32', False, [3], [1, 2, 3]]]),
    'op_invert': (
        'lambda x: ~x',
        '(b3,)',
        '{ lambda ; a:bool[3]. let b:bool[3] = not a in (b,) }',
        [['bool', False, [3], [0, 1, 0]]]),
    'op_and': (
        'lambda x: x & 1',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:i32[3] = and a 1:i32[] in (b,) }',
        [['int32', False, [3], [1, 0, 1]]]),
    'op_ror': (
        'lambda x: True | x',
        '(b3,)',
        '{ lambda ; a:bool[3]. let b:bool[3] = or True:bool[] a in (b,) }',
        [['bool', False, [3], [1, 1, 1]]]),
    'op_xor': (
        'lambda x, y: x ^ y',
        '(b3, b3)',
        '{ lambda ; a:bool[3] b:bool[3]. let c:bool[3] = xor a b in (c,) }',
        [['bool', False, [3], [0, 0, 0]]]),
    'op_lshift': (
        'lambda x: 1 << x',
        '(u8,)',
        '{ lambda ; a:u8[3]. let b:u8[3] = shift_left 1:u8[] a in (b,) }',
        [['uint8', False, [3], [2, 4, 0]]]),
    'op_rshift': (
        'lambda x: x >> 1',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:i32[3] = shift_right_arithmetic a 1:i32[] in (b,) }',
        [['int32', False, [3], [0, -1, 1]]]),
    'op_eq': (
        'lambda x: x == 1',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:bool[3] = eq a 1.0:f32[] in (b,) }',
        [['bool', False, [3], [0, 0, 0]]]),
    'op_ne': (
        'lambda x, y: x != y',
        '(f32, i32)',
        """\
{ lambda ; a:f32[3] b:i32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    d:bool[3] = ne a c
  in (d,) }""",
        [['bool', False, [3], [1, 1, 1]]]),
    'op_lt_r': (
        'lambda x: 1 < x',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:bool[3] = gt a 1.0:f32[] in (b,) }',
        [['bool', False, [3], [0, 0, 1]]]),
    'op_ge': (
        'lambda x: x >= 0.5',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] a
    c:bool[3] = ge b 0.5:f32[]
  in (c,) }""",
        [['bool', True, [3], [1, 0, 1]]]),
    'op_matmul': (
        'lambda x, y: x @ y',
        '(np.ones((4, 2, 3), np.float32), np.ones((4, 3, 2), np.float32))',
        """\
{ lambda ; a:f32[4,2,3] b:f32[4,3,2]. let
    c:f32[4,2,2] = dot_general[
      dimension_numbers=(([2], [1]), ([0], [0]))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [4, 2, 2],
          [[[3.0, 3.0], [3.0, 3.0]], [[3.0, 3.0], [3.0, 3.0]], [[3.0, 3.0], [3.0, 3.0]],
           [[3.0, 3.0], [3.0, 3.0]]]]]),
    'op_rmatmul': (
        'lambda x: np.ones((2, 3), np.float32) @ x',
        '(m34,)',
        """\
{ lambda a:f32[2,3]; b:f32[3,4]. let
    c:f32[2,4] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 4], [[3.0, 3.75, 4.5, 5.25], [3.0, 3.75, 4.5, 5.25]]]]),
    'op_chain': (
        'lambda x: jnp.sum(x ** 2 - x ** 3 - x)',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[5] = integer_pow[y=2] a
    c:f32[5] = integer_pow[y=3] a
    d:f32[5] = sub b c
    e:f32[5] = sub d a
    f:f32[] = reduce_sum[axes=(0,) out_sharding=None] e
  in (f,) }""",
        [['float32', False, [], -80.0]]),
    'selu': (
        'lambda x: 1.05 * jnp.where(x > 0, x, 1.67 * jnp.exp(x) - 1.67)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:bool[3] = gt a 0.0:f32[]
    c:f32[3] = exp a
    d:f32[3] = mul 1.6699999570846558:f32[] c
    e:f32[3] = sub d 1.6699999570846558:f32[]
    f:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; b:bool[3] a:f32[3] e:f32[3]. let
          f:f32[3] = select_n b e a
        in (f,) }
    ] b a e
    g:f32[3] = mul 1.0499999523162842:f32[] f
  in (g,) }""",
        [['float32', False, [3],
          [0.5249999761581421, -1.3622411489486694, 2.0999999046325684]]]),
    'log2_weak': (
        'lambda x: jnp.log(x) / jnp.log(2.0)',
        '(2.0,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[] = log a
    c:f32[] = log 2.0:f32[]
    d:f32[] = div b c
  in (d,) }""",
        [['float32', True, [], 1.0]]),
    'maximum_0': (
        'lambda x: jnp.maximum(0, x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = max 0.0:f32[] a in (b,) }',
        [['float32', False, [3], [0.5, 0.0, 2.0]]]),
    'zeros_plus_weak': (
        'lambda x: jnp.zeros(3) + x',
        '(2.0,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[3] = broadcast_in_dim 0.0:f32[]
    c:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = add b c
  in (d,) }""",
        [['float32', False, [3], [2.0, 2.0, 2.0]]]),
    'ones_int_plus': (
        'lambda x: jnp.ones((2, 3), jnp.int32) + x',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[2,3] = broadcast_in_dim 1:i32[]
    c:f32[2,3] = convert_element_type[new_dtype=float32 weak_type=False] b
    d:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    e:f32[2,3] = add c d
  in (e,) }""",
        [['float32', False, [2, 3], [[1.5, -0.5, 3.0], [1.5, -0.5, 3.0]]]]),
    'sum_all': (
        'lambda x: jnp.sum(x)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] a
  in (b,) }""",
        [['float32', False, [], 15.0]]),
    'sum_axis_keep': (
        'lambda x: jnp.sum(x, axis=1, keepdims=True)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2] = reduce_sum[axes=(1,) out_sharding=None] a
    c:f32[2,1] = broadcast_in_dim[broadcast_dimensions=(0,)] b
  in (c,) }""",
        [['float32', False, [2, 1], [[3.0], [12.0]]]]),
    'sum_axis_neg': (
        'lambda x: jnp.sum(x, axis=-1)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2] = reduce_sum[axes=(1,) out_sharding=None] a
  in (b,) }""",
        [['float32', False, [2], [3.0, 12.0]]]),
    'sum_axis_empty': (
        'lambda x: jnp.sum(x, axis=())',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2,3] = reduce_sum[axes=() out_sharding=None] a
  in (b,) }""",
        [['float32', False, [2, 3], [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]]]),
    'sum_dtype': (
        'lambda x: jnp.sum(x, dtype=jnp.int32)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:i32[2,3] = convert_element_type[new_dtype=int32 weak_type=False] a
    c:i32[] = reduce_sum[axes=(0, 1) out_sharding=None] b
  in (c,) }""",
        [['int32', False, [], 15]]),
    'sum_bool': (
        'lambda x: jnp.sum(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    c:i32[] = reduce_sum[axes=(0,) out_sharding=None] b
  in (c,) }""",
        [['int32', False, [], 2]]),
    'sum_u8': (
        'lambda x: jnp.sum(x)',
        '(u8,)',
        """\
{ lambda ; a:u8[3]. let
    b:u32[3] = convert_element_type[new_dtype=uint32 weak_type=False] a
    c:u32[] = reduce_sum[axes=(0,) out_sharding=None] b
  in (c,) }""",
        [['uint32', False, [], 253]]),
    'sum_i8': (
        'lambda x: jnp.sum(x)',
        '(i8,)',
        """\
{ lambda ; a:i8[3]. let
    b:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    c:i32[] = reduce_sum[axes=(0,) out_sharding=None] b
  in (c,) }""",
        [['int32', False, [], 99]]),
    'sum_f16': (
        'lambda x: jnp.sum(x)',
        '(f16,)',
        """\
{ lambda ; a:f16[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[] = reduce_sum[axes=(0,) out_sharding=None] b
    d:f16[] = convert_element_type[new_dtype=float16 weak_type=False] c
  in (d,) }""",
        [['float16', False, [], 1.0]]),
    'sum_py': (
        'lambda x: jnp.sum(x)',
        '(2.0,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[] = reduce_sum[axes=() out_sharding=None] b
  in (c,) }""",
        [['float32', False, [], 2.0]]),
    'sum_where': (
        'lambda x: jnp.sum(x, where=x > 1)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:bool[2,3] = gt a 1.0:f32[]
    c:f32[2,3] = jit[
      name=_where
      jaxpr={ lambda ; b:bool[2,3] a:f32[2,3] d:f32[]. let
          e:f32[2,3] = broadcast_in_dim d
          c:f32[2,3] = select_n b e a
        in (c,) }
    ] b a 0.0:f32[]
    f:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] c
  in (f,) }""",
        [['float32', False, [], 14.0]]),
    'sum_initial': (
        'lambda x: jnp.sum(x, initial=2.0)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] a
    c:f32[] = add 2.0:f32[] b
  in (c,) }""",
        [['float32', False, [], 17.0]]),
    'sum_empty': (
        'lambda x: jnp.sum(x)',
        '(e0,)',
        """\
{ lambda ; a:f32[0]. let
    b:f32[] = reduce_sum[axes=(0,) out_sharding=None] a
  in (b,) }""",
        [['float32', False, [], 0.0]]),
    'sum_empty_axis': (
        'lambda x: jnp.sum(x, axis=0)',
        '(e03,)',
        """\
{ lambda ; a:f32[0,3]. let
    b:f32[3] = reduce_sum[axes=(0,) out_sharding=None] a
  in (b,) }""",
        [['float32', False, [3], [0.0, 0.0, 0.0]]]),
    'prod_int': (
        'lambda x: jnp.prod(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:i32[] = reduce_prod[axes=(0,)] a in (b,) }',
        [['int32', False, [], -6]]),
    'prod_bool': (
        'lambda x: jnp.prod(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    c:i32[] = reduce_prod[axes=(0,)] b
  in (c,) }""",
        [['int32', False, [], 0]]),
    'prod_u8': (
        'lambda x: jnp.prod(x)',
        '(u8,)',
        """\
{ lambda ; a:u8[3]. let
    b:u32[3] = convert_element_type[new_dtype=uint32 weak_type=False] a
    c:u32[] = reduce_prod[axes=(0,)] b
  in (c,) }""",
        [['uint32', False, [], 500]]),
    'max_all': (
        'lambda x: jnp.max(x)',
        '(m23,)',
        '{ lambda ; a:f32[2,3]. let b:f32[] = reduce_max[axes=(0, 1)] a in (b,) }',
        [['float32', False, [], 5.0]]),
    'max_axis': (
        'lambda x: jnp.max(x, axis=1)',
        '(i23,)',
        '{ lambda ; a:i32[2,3]. let b:i32[2] = reduce_max[axes=(1,)] a in (b,) }',
        [['int32', False, [2], [2, 5]]]),
    'max_initial': (
        'lambda x: jnp.max(x, initial=2.0)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[] = reduce_max[axes=(0, 1)] a
    c:f32[] = max 2.0:f32[] b
  in (c,) }""",
        [['float32', False, [], 5.0]]),
    'max_where': (
        'lambda x: jnp.max(x, axis=0, where=x > 1, initial=0.0)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:bool[2,3] = gt a 1.0:f32[]
    c:f32[2,3] = jit[
      name=_where
      jaxpr={ lambda ; b:bool[2,3] a:f32[2,3] d:f32[]. let
          e:f32[2,3] = broadcast_in_dim d
          c:f32[2,3] = select_n b e a
        in (c,) }
    ] b a -inf:f32[]
    f:f32[3] = reduce_max[axes=(0,)] c
    g:f32[3] = max 0.0:f32[] f
  in (g,) }""",
        [['float32', False, [3], [3.0, 4.0, 5.0]]]),
    'min_bool': (
        'lambda x: jnp.min(x)',
        '(b3,)',
        '{ lambda ; a:bool[3]. let b:bool[] = reduce_min[axes=(0,)] a in (b,) }',
        [['bool', False, [], 0]]),
    'max_py': (
        'lambda x: jnp.max(x)',
        '(2.0,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[] = reduce_max[axes=()] b
  in (c,) }""",
        [['float32', False, [], 2.0]]),
    'mean_all': (
        'lambda x: jnp.mean(x)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] a
    c:f32[] = div b 6.0:f32[]
  in (c,) }""",
        [['float32', False, [], 2.5]]),
    'mean_axis': (
        'lambda x: jnp.mean(x, axis=0)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[3] = reduce_sum[axes=(0,) out_sharding=None] a
    c:f32[3] = div b 2.0:f32[]
  in (c,) }""",
        [['float32', False, [3], [1.5, 2.5, 3.5]]]),
    'mean_keep': (
        'lambda x: jnp.mean(x, axis=1, keepdims=True)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2] = reduce_sum[axes=(1,) out_sharding=None] a
    c:f32[2,1] = broadcast_in_dim[broadcast_dimensions=(0,)] b
    d:f32[2,1] = div c 3.0:f32[]
  in (d,) }""",
        [['float32', False, [2, 1], [[1.0], [4.0]]]]),
    'mean_int': (
        'lambda x: jnp.mean(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[] = reduce_sum[axes=(0,) out_sharding=None] b
    d:f32[] = div c 3.0:f32[]
  in (d,) }""",
        [['float32', False, [], 0.6666666865348816]]),
    'mean_bool': (
        'lambda x: jnp.mean(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] b
    d:f32[] = reduce_sum[axes=(0,) out_sharding=None] c
    e:f32[] = div d 3.0:f32[]
  in (e,) }""",
        [['float32', False, [], 0.6666666865348816]]),
    'mean_f16': (
        'lambda x: jnp.mean(x)',
        '(f16,)',
        """\
{ lambda ; a:f16[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[] = reduce_sum[axes=(0,) out_sharding=None] b
    d:f32[] = div c 3.0:f32[]
    e:f16[] = convert_element_type[new_dtype=float16 weak_type=False] d
  in (e,) }""",
        [['float16', False, [], 0.333251953125]]),
    'mean_dtype': (
        'lambda x: jnp.mean(x, dtype=jnp.float16)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f16[3] = convert_element_type[new_dtype=float16 weak_type=False] a
    c:f16[] = reduce_sum[axes=(0,) out_sharding=None] b
    d:f16[] = div c 3.0:f16[]
  in (d,) }""",
        [['float16', False, [], 0.333251953125]]),
    'mean_where': (
        'lambda x: jnp.mean(x, where=x > 1)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:bool[2,3] = gt a 1.0:f32[]
    c:i32[2,3] = convert_element_type[new_dtype=int32 weak_type=False] b
    d:f32[2,3] = convert_element_type[new_dtype=float32 weak_type=False] c
    e:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] d
    f:f32[2,3] = jit[
      name=_where
      jaxpr={ lambda ; b:bool[2,3] a:f32[2,3] g:f32[]. let
          h:f32[2,3] = broadcast_in_dim g
          f:f32[2,3] = select_n b h a
        in (f,) }
    ] b a 0.0:f32[]
    i:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] f
    j:f32[] = div i e
  in (j,) }""",
        [['float32', False, [], 3.5]]),
    'mean_py': (
        'lambda x: jnp.mean(x)',
        '(2,)',
        """\
{ lambda ; a:i32[]. let
    b:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[] = reduce_sum[axes=() out_sharding=None] b
    d:f32[] = div c 1.0:f32[]
  in (d,) }""",
        [['float32', False, [], 2.0]]),
    'var_all': (
        'lambda x: jnp.var(x)',
        '(m23,)',
        """\
let _var = { lambda ; a:f32[2,3] b:i32[]. let
    c:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] a
    d:f32[1,1] = broadcast_in_dim c
    e:f32[1,1] = div d 6.0:f32[]
    f:f32[2,3] = sub a e
    g:f32[2,3] = square f
    h:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    i:f32[] = sub 6.0:f32[] h
    j:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] g
    k:f32[] = div j i
    l:bool[] = gt i 0.0:f32[]
    m:f32[] = jit[
      name=_where
      jaxpr={ lambda ; l:bool[] k:f32[] n:f32[]. let
          o:f32[] = convert_element_type[new_dtype=float32 weak_type=False] n
          m:f32[] = select_n l o k
        in (m,) }
    ] l k nan:f32[]
  in (m,) } in
{ lambda ; p:f32[2,3]. let
    q:f32[] = jit[name=_var jaxpr=_var] p 0:i32[]
  in (q,) }""",
        [['float32', False, [], 2.9166667461395264]]),
    'var_ddof': (
        'lambda x: jnp.var(x, axis=1, ddof=1)',
        '(m23,)',
        """\
let _var = { lambda ; a:f32[2,3] b:i32[]. let
    c:f32[2] = reduce_sum[axes=(1,) out_sharding=None] a
    d:f32[2,1] = broadcast_in_dim[broadcast_dimensions=(0,)] c
    e:f32[2,1] = div d 3.0:f32[]
    f:f32[2,3] = sub a e
    g:f32[2,3] = square f
    h:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    i:f32[] = sub 3.0:f32[] h
    j:f32[2] = reduce_sum[axes=(1,) out_sharding=None] g
    k:f32[2] = div j i
    l:bool[] = gt i 0.0:f32[]
    m:f32[2] = jit[
      name=_where
      jaxpr={ lambda ; l:bool[] k:f32[2] n:f32[]. let
          o:f32[] = convert_element_type[new_dtype=float32 weak_type=False] n
          p:f32[2] = broadcast_in_dim o
          m:f32[2] = select_n l p k
        in (m,) }
    ] l k nan:f32[]
  in (m,) } in
{ lambda ; q:f32[2,3]. let
    r:f32[2] = jit[name=_var jaxpr=_var] q 1:i32[]
  in (r,) }""",
        [['float32', False, [2], [1.0, 1.0]]]),
    'var_int': (
        'lambda x: jnp.var(x)',
        '(i32,)',
        """\
let _var = { lambda ; a:i32[3] b:i32[]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[] = reduce_sum[axes=(0,) out_sharding=None] c
    e:f32[1] = broadcast_in_dim d
    f:f32[1] = div e 3.0:f32[]
    g:f32[3] = sub c f
    h:f32[3] = square g
    i:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    j:f32[] = sub 3.0:f32[] i
    k:f32[] = reduce_sum[axes=(0,) out_sharding=None] h
    l:f32[] = div k j
    m:bool[] = gt j 0.0:f32[]
    n:f32[] = jit[
      name=_where
      jaxpr={ lambda ; m:bool[] l:f32[] o:f32[]. let
          p:f32[] = convert_element_type[new_dtype=float32 weak_type=False] o
          n:f32[] = select_n m p l
        in (n,) }
    ] m l nan:f32[]
  in (n,) } in
{ lambda ; q:i32[3]. let r:f32[] = jit[name=_var jaxpr=_var] q 0:i32[] in (r,) }""",
        [['float32', False, [], 4.222222328186035]]),
    'var_f16': (
        'lambda x: jnp.var(x)',
        '(f16,)',
        """\
let _var = { lambda ; a:f16[3] b:i32[]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[] = reduce_sum[axes=(0,) out_sharding=None] c
    e:f32[1] = broadcast_in_dim d
    f:f32[1] = div e 3.0:f32[]
    g:f32[3] = sub c f
    h:f32[3] = square g
    i:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    j:f32[] = sub 3.0:f32[] i
    k:f32[] = reduce_sum[axes=(0,) out_sharding=None] h
    l:f32[] = div k j
    m:f16[] = convert_element_type[new_dtype=float16 weak_type=False] l
    n:bool[] = gt j 0.0:f32[]
    o:f16[] = jit[
      name=_where
      jaxpr={ lambda ; n:bool[] m:f16[] p:f32[]. let
          q:f16[] = convert_element_type[new_dtype=float16 weak_type=False] p
          o:f16[] = select_n n q m
        in (o,) }
    ] n m nan:f32[]
  in (o,) } in
{ lambda ; r:f16[3]. let s:f16[] = jit[name=_var jaxpr=_var] r 0:i32[] in (s,) }""",
        [['float16', False, [], 2.0546875]]),
    'var_keep': (
        'lambda x: jnp.var(x, keepdims=True)',
        '(f32,)',
        """\
let _var = { lambda ; a:f32[3] b:i32[]. let
    c:f32[] = reduce_sum[axes=(0,) out_sharding=None] a
    d:f32[1] = broadcast_in_dim c
    e:f32[1] = div d 3.0:f32[]
    f:f32[3] = sub a e
    g:f32[3] = square f
    h:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    i:f32[] = sub 3.0:f32[] h
    j:f32[] = reduce_sum[axes=(0,) out_sharding=None] g
    k:f32[1] = broadcast_in_dim j
    l:f32[1] = div k i
    m:bool[] = gt i 0.0:f32[]
    n:f32[1] = jit[
      name=_where
      jaxpr={ lambda ; m:bool[] l:f32[1] o:f32[]. let
          p:f32[] = convert_element_type[new_dtype=float32 weak_type=False] o
          q:f32[1] = broadcast_in_dim p
          n:f32[1] = select_n m q l
        in (n,) }
    ] m l nan:f32[]
  in (n,) } in
{ lambda ; r:f32[3]. let
    s:f32[1] = jit[name=_var jaxpr=_var] r 0:i32[]
  in (s,) }""",
        [['float32', False, [1], [2.055555582046509]]]),
    'std_all': (
        'lambda x: jnp.std(x)',
        '(m23,)',
        """\
let _var = { lambda ; a:f32[2,3] b:i32[]. let
    c:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] a
    d:f32[1,1] = broadcast_in_dim c
    e:f32[1,1] = div d 6.0:f32[]
    f:f32[2,3] = sub a e
    g:f32[2,3] = square f
    h:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    i:f32[] = sub 6.0:f32[] h
    j:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] g
    k:f32[] = div j i
    l:bool[] = gt i 0.0:f32[]
    m:f32[] = jit[
      name=_where
      jaxpr={ lambda ; l:bool[] k:f32[] n:f32[]. let
          o:f32[] = convert_element_type[new_dtype=float32 weak_type=False] n
          m:f32[] = select_n l o k
        in (m,) }
    ] l k nan:f32[]
  in (m,) } in
{ lambda ; p:f32[2,3]. let
    q:f32[] = jit[
      name=_std
      jaxpr={ lambda ; p:f32[2,3] r:i32[]. let
          s:f32[] = jit[name=_var jaxpr=_var] p r
          q:f32[] = sqrt s
        in (q,) }
    ] p 0:i32[]
  in (q,) }""",
        [['float32', False, [], 1.7078251838684082]]),
    'std_axis': (
        'lambda x: jnp.std(x, axis=0, ddof=1)',
        '(m23,)',
        """\
let _var = { lambda ; a:f32[2,3] b:i32[]. let
    c:f32[3] = reduce_sum[axes=(0,) out_sharding=None] a
    d:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] c
    e:f32[1,3] = div d 2.0:f32[]
    f:f32[2,3] = sub a e
    g:f32[2,3] = square f
    h:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    i:f32[] = sub 2.0:f32[] h
    j:f32[3] = reduce_sum[axes=(0,) out_sharding=None] g
    k:f32[3] = div j i
    l:bool[] = gt i 0.0:f32[]
    m:f32[3] = jit[
      name=_where
      jaxpr={ lambda ; l:bool[] k:f32[3] n:f32[]. let
          o:f32[] = convert_element_type[new_dtype=float32 weak_type=False] n
          p:f32[3] = broadcast_in_dim o
          m:f32[3] = select_n l p k
        in (m,) }
    ] l k nan:f32[]
  in (m,) } in
{ lambda ; q:f32[2,3]. let
    r:f32[3] = jit[
      name=_std
      jaxpr={ lambda ; q:f32[2,3] s:i32[]. let
          t:f32[3] = jit[name=_var jaxpr=_var] q s
          r:f32[3] = sqrt t
        in (r,) }
    ] q 1:i32[]
  in (r,) }""",
        [['float32', False, [3],
          [2.1213202476501465, 2.1213202476501465, 2.1213202476501465]]]),
    'method_var': (
        'lambda x: x.var()',
        '(m23,)',
        """\
let _var = { lambda ; a:f32[2,3] b:i32[]. let
    c:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] a
    d:f32[1,1] = broadcast_in_dim c
    e:f32[1,1] = div d 6.0:f32[]
    f:f32[2,3] = sub a e
    g:f32[2,3] = square f
    h:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    i:f32[] = sub 6.0:f32[] h
    j:f32[] = reduce_sum[axes=(0, 1) out_sharding=None] g
    k:f32[] = div j i
    l:bool[] = gt i 0.0:f32[]
    m:f32[] = jit[
      name=_where
      jaxpr={ lambda ; l:bool[] k:f32[] n:f32[]. let
          o:f32[] = convert_element_type[new_dtype=float32 weak_type=False] n
          m:f32[] = select_n l o k
        in (m,) }
    ] l k nan:f32[]
  in (m,) } in
{ lambda ; p:f32[2,3]. let
    q:f32[] = jit[name=_var jaxpr=_var] p 0:i32[]
  in (q,) }""",
        [['float32', False, [], 2.9166667461395264]]),
    'argmax_all': (
        'lambda x: jnp.argmax(x)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[6] = reshape[dimensions=None new_sizes=(6,) sharding=None] a
    c:i32[] = argmax[axes=(0,) index_dtype=int32] b
  in (c,) }""",
        [['int32', False, [], 5]]),
    'argmax_axis': (
        'lambda x: jnp.argmax(x, axis=1)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:i32[2] = argmax[axes=(1,) index_dtype=int32] a
  in (b,) }""",
        [['int32', False, [2], [2, 2]]]),
    'argmin_keep': (
        'lambda x: jnp.argmin(x, axis=1, keepdims=True)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:i32[2] = argmin[axes=(1,) index_dtype=int32] a
    c:i32[2,1] = broadcast_in_dim[broadcast_dimensions=(0,)] b
  in (c,) }""",
        [['int32', False, [2, 1], [[0], [0]]]]),
    'argmax_keep_none': (
        'lambda x: jnp.argmax(x, keepdims=True)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[6] = reshape[dimensions=None new_sizes=(6,) sharding=None] a
    c:i32[] = argmax[axes=(0,) index_dtype=int32] b
    d:i32[1,1] = broadcast_in_dim c
  in (d,) }""",
        [['int32', False, [1, 1], [[5]]]]),
    'argmin_py': (
        'lambda x: jnp.argmin(x)',
        '(2.0,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] a
    c:i32[] = argmin[axes=(0,) index_dtype=int32] b
  in (c,) }""",
        [['int32', False, [], 0]]),
    'any_f': (
        'lambda x: jnp.any(x)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:bool[2,3] = convert_element_type[new_dtype=bool weak_type=False] a
    c:bool[] = reduce_or[axes=(0, 1)] b
  in (c,) }""",
        [['bool', False, [], 1]]),
    'all_axis': (
        'lambda x: jnp.all(x, axis=0)',
        '(b3,)',
        '{ lambda ; a:bool[3]. let b:bool[] = reduce_and[axes=(0,)] a in (b,) }',
        [['bool', False, [], 0]]),
    'any_int_axis': (
        'lambda x: jnp.any(x, axis=1)',
        '(i23,)',
        """\
{ lambda ; a:i32[2,3]. let
    b:bool[2,3] = convert_element_type[new_dtype=bool weak_type=False] a
    c:bool[2] = reduce_or[axes=(1,)] b
  in (c,) }""",
        [['bool', False, [2], [1, 1]]]),
    'cumsum_flat': (
        'lambda x: jnp.cumsum(x)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[6] = jit[
      name=cumsum
      jaxpr={ lambda ; a:f32[2,3]. let
          c:f32[6] = reshape[dimensions=None new_sizes=(6,) sharding=None] a
          b:f32[6] = cumsum[axis=0 reverse=False] c
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [6], [0.0, 1.0, 3.0, 6.0, 10.0, 15.0]]]),
    'cumsum_axis': (
        'lambda x: jnp.cumsum(x, axis=1)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2,3] = jit[
      name=cumsum
      jaxpr={ lambda ; a:f32[2,3]. let
          b:f32[2,3] = cumsum[axis=1 reverse=False] a
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [2, 3], [[0.0, 1.0, 3.0], [3.0, 7.0, 12.0]]]]),
    'cumsum_neg': (
        'lambda x: jnp.cumsum(x, axis=-1)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2,3] = jit[
      name=cumsum
      jaxpr={ lambda ; a:f32[2,3]. let
          b:f32[2,3] = cumsum[axis=1 reverse=False] a
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [2, 3], [[0.0, 1.0, 3.0], [3.0, 7.0, 12.0]]]]),
    'cumsum_bool': (
        'lambda x: jnp.cumsum(x)',
        '(b3,)',
        """\
{ lambda ; a:bool[3]. let
    b:i32[3] = jit[
      name=cumsum
      jaxpr={ lambda ; a:bool[3]. let
          c:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
          b:i32[3] = cumsum[axis=0 reverse=False] c
        in (b,) }
    ] a
  in (b,) }""",
        [['int32', False, [3], [1, 1, 2]]]),
    'cumsum_u8': (
        'lambda x: jnp.cumsum(x)',
        '(u8,)',
        """\
{ lambda ; a:u8[3]. let
    b:u8[3] = jit[
      name=cumsum
      jaxpr={ lambda ; a:u8[3]. let
          b:u8[3] = cumsum[axis=0 reverse=False] a
        in (b,) }
    ] a
  in (b,) }""",
        [['uint8', False, [3], [1, 3, 253]]]),
    'cumsum_dtype': (
        'lambda x: jnp.cumsum(x, dtype=jnp.float32)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = jit[
      name=cumsum
      jaxpr={ lambda ; a:i32[3]. let
          c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
          b:f32[3] = cumsum[axis=0 reverse=False] c
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [3], [1.0, -1.0, 2.0]]]),
    'cumprod_axis': (
        'lambda x: jnp.cumprod(x, axis=0)',
        '(u8,)',
        """\
{ lambda ; a:u8[3]. let
    b:u8[3] = jit[
      name=cumprod
      jaxpr={ lambda ; a:u8[3]. let
          b:u8[3] = cumprod[axis=0 reverse=False] a
        in (b,) }
    ] a
  in (b,) }""",
        [['uint8', False, [3], [1, 2, 244]]]),
    'method_sum': (
        'lambda x: x.sum(0)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[3] = reduce_sum[axes=(0,) out_sharding=None] a
  in (b,) }""",
        [['float32', False, [3], [3.0, 5.0, 7.0]]]),
    'method_mean': (
        'lambda x: x.mean(axis=0)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[3] = reduce_sum[axes=(0,) out_sharding=None] a
    c:f32[3] = div b 2.0:f32[]
  in (c,) }""",
        [['float32', False, [3], [1.5, 2.5, 3.5]]]),
    'method_max': (
        'lambda x: x.max(1)',
        '(m23,)',
        '{ lambda ; a:f32[2,3]. let b:f32[2] = reduce_max[axes=(1,)] a in (b,) }',
        [['float32', False, [2], [2.0, 5.0]]]),
    'dot_mm': (
        'lambda x, y: jnp.dot(x, y)',
        '(m23, m34)',
        """\
{ lambda ; a:f32[2,3] b:f32[3,4]. let
    c:f32[2,4] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 4], [[5.0, 5.75, 6.5, 7.25], [14.0, 17.0, 20.0, 23.0]]]]),
    'dot_vv': (
        'lambda x, y: jnp.dot(x, y)',
        '(x5, x5)',
        """\
{ lambda ; a:f32[5] b:f32[5]. let
    c:f32[] = dot_general[
      dimension_numbers=(([0], [0]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [], 30.0]]),
    'dot_mv': (
        'lambda x, y: jnp.dot(x, y)',
        '(m23, f32)',
        """\
{ lambda ; a:f32[2,3] b:f32[3]. let
    c:f32[2] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2], [2.5, 5.5]]]),
    'dot_scalar': (
        'lambda x, y: jnp.dot(x, y)',
        '(m23, 2.0)',
        """\
{ lambda ; a:f32[2,3] b:f32[]. let
    c:f32[2,3] = dot_general[
      dimension_numbers=(([], []), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 3], [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]]]),
    'dot_mixed': (
        'lambda x, y: jnp.dot(x, y)',
        '(i23, m34)',
        """\
{ lambda ; a:i32[2,3] b:f32[3,4]. let
    c:f32[2,4] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 4], [[5.0, 5.75, 6.5, 7.25], [14.0, 17.0, 20.0, 23.0]]]]),
    'dot_3d': (
        'lambda x, y: jnp.dot(x, y)',
        '(m234, np.ones((2, 4, 5), np.float32))',
        """\
{ lambda ; a:f32[2,3,4] b:f32[2,4,5]. let
    c:f32[2,3,2,5] = dot_general[
      dimension_numbers=(([2], [1]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 3, 2, 5],
          [[[[6.0, 6.0, 6.0, 6.0, 6.0], [6.0, 6.0, 6.0, 6.0, 6.0]],
            [[22.0, 22.0, 22.0, 22.0, 22.0], [22.0, 22.0, 22.0, 22.0, 22.0]],
            [[38.0, 38.0, 38.0, 38.0, 38.0], [38.0, 38.0, 38.0, 38.0, 38.0]]],
           [[[54.0, 54.0, 54.0, 54.0, 54.0], [54.0, 54.0, 54.0, 54.0, 54.0]],
            [[70.0, 70.0, 70.0, 70.0, 70.0], [70.0, 70.0, 70.0, 70.0, 70.0]],
            [[86.0, 86.0, 86.0, 86.0, 86.0], [86.0, 86.0, 86.0, 86.0, 86.0]]]]]]),
    'dot_bool': (
        'lambda x, y: jnp.dot(x, y)',
        '(b3, b3)',
        """\
{ lambda ; a:bool[3] b:bool[3]. let
    c:bool[] = dot_general[
      dimension_numbers=(([0], [0]), ([], []))
      preferred_element_type=bool
    ] a b
  in (c,) }""",
        [['bool', False, [], 1]]),
    'matmul_batch': (
        'lambda x, y: x @ y',
        '(np.ones((4, 2, 2), np.float32), np.ones((4, 2, 2), np.float32))',
        """\
{ lambda ; a:f32[4,2,2] b:f32[4,2,2]. let
    c:f32[4,2,2] = dot_general[
      dimension_numbers=(([2], [1]), ([0], [0]))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [4, 2, 2],
          [[[2.0, 2.0], [2.0, 2.0]], [[2.0, 2.0], [2.0, 2.0]], [[2.0, 2.0], [2.0, 2.0]],
           [[2.0, 2.0], [2.0, 2.0]]]]]),
    'matmul_bcast': (
        'lambda x, y: jnp.matmul(x, y)',
        '(np.ones((2, 1, 2, 3), np.float32), np.ones((5, 3, 4), np.float32))',
        """\
{ lambda ; a:f32[2,1,2,3] b:f32[5,3,4]. let
    c:f32[2,2,3] = squeeze[dimensions=(1,)] a
    d:f32[2,2,5,4] = dot_general[
      dimension_numbers=(([2], [1]), ([], []))
      preferred_element_type=float32
    ] c b
    e:f32[2,5,2,4] = transpose[permutation=(0, 2, 1, 3)] d
  in (e,) }""",
        [['float32', False, [2, 5, 2, 4],
          [[[[3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0]],
            [[3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0]],
            [[3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0]],
            [[3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0]],
            [[3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0]]],
           [[[3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0]],
            [[3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0]],
            [[3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0]],
            [[3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0]],
            [[3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0]]]]]]),
    'matmul_unit': (
        'lambda x, y: jnp.matmul(x, y)',
        '(np.ones((1, 2, 3), np.float32), np.ones((1, 3, 4), np.float32))',
        """\
{ lambda ; a:f32[1,2,3] b:f32[1,3,4]. let
    c:f32[2,3] = squeeze[dimensions=(0,)] a
    d:f32[3,4] = squeeze[dimensions=(0,)] b
    e:f32[2,4] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] c d
    f:f32[1,2,4] = broadcast_in_dim[broadcast_dimensions=(1, 2)] e
  in (f,) }""",
        [['float32', False, [1, 2, 4], [[[3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 3.0, 3.0]]]]]),
    'matmul_vm': (
        'lambda x, y: x @ y',
        '(f32, m34)',
        """\
{ lambda ; a:f32[3] b:f32[3,4]. let
    c:f32[4] = dot_general[
      dimension_numbers=(([0], [0]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [4], [2.5, 2.75, 3.0, 3.25]]]),
    'matmul_mv': (
        'lambda x, y: x @ y',
        '(m34, np.ones(4, np.float32))',
        """\
{ lambda ; a:f32[3,4] b:f32[4]. let
    c:f32[3] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [3], [1.5, 5.5, 9.5]]]),
    'matmul_v3': (
        'lambda x, y: jnp.matmul(x, y)',
        '(f32, np.ones((2, 3, 4), np.float32))',
        """\
{ lambda ; a:f32[3] b:f32[2,3,4]. let
    c:f32[2,4] = dot_general[
      dimension_numbers=(([0], [1]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 4], [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]]]),
    'matmul_1b': (
        'lambda x, y: jnp.matmul(x, y)',
        '(np.ones((1, 3, 4), np.float32), np.ones((2, 4, 5), np.float32))',
        """\
{ lambda ; a:f32[1,3,4] b:f32[2,4,5]. let
    c:f32[3,4] = squeeze[dimensions=(0,)] a
    d:f32[3,2,5] = dot_general[
      dimension_numbers=(([1], [1]), ([], []))
      preferred_element_type=float32
    ] c b
    e:f32[2,3,5] = transpose[permutation=(1, 0, 2)] d
  in (e,) }""",
        [['float32', False, [2, 3, 5],
          [[[4.0, 4.0, 4.0, 4.0, 4.0], [4.0, 4.0, 4.0, 4.0, 4.0],
            [4.0, 4.0, 4.0, 4.0, 4.0]],
           [[4.0, 4.0, 4.0, 4.0, 4.0], [4.0, 4.0, 4.0, 4.0, 4.0],
            [4.0, 4.0, 4.0, 4.0, 4.0]]]]]),
    'tensordot_1': (
        'lambda x, y: jnp.tensordot(x, y, 1)',
        '(m23, m34)',
        """\
{ lambda ; a:f32[2,3] b:f32[3,4]. let
    c:f32[2,4] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 4], [[5.0, 5.75, 6.5, 7.25], [14.0, 17.0, 20.0, 23.0]]]]),
    'tensordot_2': (
        'lambda x, y: jnp.tensordot(x, y)',
        '(m234, np.ones((3, 4, 5), np.float32))',
        """\
{ lambda ; a:f32[2,3,4] b:f32[3,4,5]. let
    c:f32[2,5] = dot_general[
      dimension_numbers=(([1, 2], [0, 1]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 5],
          [[66.0, 66.0, 66.0, 66.0, 66.0], [210.0, 210.0, 210.0, 210.0, 210.0]]]]),
    'tensordot_ax': (
        'lambda x, y: jnp.tensordot(x, y, axes=([0], [0]))',
        '(m23, m23)',
        """\
{ lambda ; a:f32[2,3] b:f32[2,3]. let
    c:f32[3,3] = dot_general[
      dimension_numbers=(([0], [0]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [3, 3],
          [[9.0, 12.0, 15.0], [12.0, 17.0, 22.0], [15.0, 22.0, 29.0]]]]),
    'tensordot_0': (
        'lambda x, y: jnp.tensordot(x, y, axes=0)',
        '(x5, x5)',
        """\
{ lambda ; a:f32[5] b:f32[5]. let
    c:f32[5,5] = dot_general[
      dimension_numbers=(([], []), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [5, 5],
          [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 2.0, 4.0, 6.0, 8.0],
           [0.0, 3.0, 6.0, 9.0, 12.0], [0.0, 4.0, 8.0, 12.0, 16.0]]]]),
    'einsum_mm': (
        "lambda x, y: jnp.einsum('ij,jk->ik', x, y)",
        '(m23, m34)',
        """\
{ lambda ; a:f32[2,3] b:f32[3,4]. let
    c:f32[2,4] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 4], [[5.0, 5.75, 6.5, 7.25], [14.0, 17.0, 20.0, 23.0]]]]),
    'einsum_implicit': (
        "lambda x, y: jnp.einsum('ij,jk', x, y)",
        '(m23, m34)',
        """\
{ lambda ; a:f32[2,3] b:f32[3,4]. let
    c:f32[2,4] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 4], [[5.0, 5.75, 6.5, 7.25], [14.0, 17.0, 20.0, 23.0]]]]),
    'einsum_t': (
        "lambda x, y: jnp.einsum('ij,kj->ik', x, y)",
        '(m23, m23)',
        """\
{ lambda ; a:f32[2,3] b:f32[2,3]. let
    c:f32[2,2] = dot_general[
      dimension_numbers=(([1], [1]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 2], [[5.0, 14.0], [14.0, 50.0]]]]),
    'einsum_swap': (
        "lambda x, y: jnp.einsum('ij,jk->ki', x, y)",
        '(m23, m34)',
        """\
{ lambda ; a:f32[2,3] b:f32[3,4]. let
    c:f32[4,2] = dot_general[
      dimension_numbers=(([0], [1]), ([], []))
      preferred_element_type=float32
    ] b a
  in (c,) }""",
        [['float32', False, [4, 2], [[5.0, 14.0], [5.75, 17.0], [6.5, 20.0], [7.25, 23.0]]]]),
    'einsum_batch': (
        "lambda x, y: jnp.einsum('bij,bjk->bik', x, y)",
        '(m234, np.ones((2, 4, 5), np.float32))',
        """\
{ lambda ; a:f32[2,3,4] b:f32[2,4,5]. let
    c:f32[2,3,5] = dot_general[
      dimension_numbers=(([2], [1]), ([0], [0]))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 3, 5],
          [[[6.0, 6.0, 6.0, 6.0, 6.0], [22.0, 22.0, 22.0, 22.0, 22.0],
            [38.0, 38.0, 38.0, 38.0, 38.0]],
           [[54.0, 54.0, 54.0, 54.0, 54.0], [70.0, 70.0, 70.0, 70.0, 70.0],
            [86.0, 86.0, 86.0, 86.0, 86.0]]]]]),
    'einsum_swap_b': (
        "lambda x, y: jnp.einsum('bij,bkj->bki', x, y)",
        '(m234, np.ones((2, 5, 4), np.float32))',
        """\
{ lambda ; a:f32[2,3,4] b:f32[2,5,4]. let
    c:f32[2,5,3] = dot_general[
      dimension_numbers=(([2], [2]), ([0], [0]))
      preferred_element_type=float32
    ] b a
  in (c,) }""",
        [['float32', False, [2, 5, 3],
          [[[6.0, 22.0, 38.0], [6.0, 22.0, 38.0], [6.0, 22.0, 38.0], [6.0, 22.0, 38.0],
            [6.0, 22.0, 38.0]],
           [[54.0, 70.0, 86.0], [54.0, 70.0, 86.0], [54.0, 70.0, 86.0], [54.0, 70.0, 86.0],
            [54.0, 70.0, 86.0]]]]]),
    'einsum_inner': (
        "lambda x, y: jnp.einsum('i,i->', x, y)",
        '(x5, x5)',
        """\
{ lambda ; a:f32[5] b:f32[5]. let
    c:f32[] = dot_general[
      dimension_numbers=(([0], [0]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [], 30.0]]),
    'einsum_outer': (
        "lambda x, y: jnp.einsum('i,j->ij', x, y)",
        '(x5, f32)',
        """\
{ lambda ; a:f32[5] b:f32[3]. let
    c:f32[5,3] = dot_general[
      dimension_numbers=(([], []), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [5, 3],
          [[0.0, -0.0, 0.0], [0.5, -1.5, 2.0], [1.0, -3.0, 4.0], [1.5, -4.5, 6.0],
           [2.0, -6.0, 8.0]]]]),
    'einsum_sumout': (
        "lambda x, y: jnp.einsum('ij,jk->i', x, y)",
        '(m23, m34)',
        """\
{ lambda ; a:f32[2,3] b:f32[3,4]. let
    c:f32[3] = reduce_sum[axes=(1,) out_sharding=None] b
    d:f32[2] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] a c
  in (d,) }""",
        [['float32', False, [2], [24.5, 74.0]]]),
    'einsum_rowdot': (
        "lambda x, y: jnp.einsum('ij,ij->i', x, y)",
        '(m23, m23)',
        """\
{ lambda ; a:f32[2,3] b:f32[2,3]. let
    c:f32[2] = dot_general[
      dimension_numbers=(([1], [1]), ([0], [0]))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2], [5.0, 50.0]]]),
    'einsum_hadamard': (
        "lambda x, y: jnp.einsum('ij,ij->ij', x, y)",
        '(m23, m23)',
        """\
{ lambda ; a:f32[2,3] b:f32[2,3]. let
    c:f32[2,3] = dot_general[
      dimension_numbers=(([], []), ([0, 1], [0, 1]))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 3], [[0.0, 1.0, 4.0], [9.0, 16.0, 25.0]]]]),
    'einsum_ell': (
        "lambda x, y: jnp.einsum('...ij,...jk->...ik', x, y)",
        '(m234, np.ones((2, 4, 5), np.float32))',
        """\
{ lambda ; a:f32[2,3,4] b:f32[2,4,5]. let
    c:f32[2,3,5] = dot_general[
      dimension_numbers=(([2], [1]), ([0], [0]))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 3, 5],
          [[[6.0, 6.0, 6.0, 6.0, 6.0], [22.0, 22.0, 22.0, 22.0, 22.0],
            [38.0, 38.0, 38.0, 38.0, 38.0]],
           [[54.0, 54.0, 54.0, 54.0, 54.0], [70.0, 70.0, 70.0, 70.0, 70.0],
            [86.0, 86.0, 86.0, 86.0, 86.0]]]]]),
    'einsum_unary_t': (
        "lambda x: jnp.einsum('ijk->kji', x)",
        '(m234,)',
        """\
{ lambda ; a:f32[2,3,4]. let
    b:f32[4,3,2] = transpose[permutation=(2, 1, 0)] a
  in (b,) }""",
        [['float32', False, [4, 3, 2],
          [[[0.0, 12.0], [4.0, 16.0], [8.0, 20.0]], [[1.0, 13.0], [5.0, 17.0], [9.0, 21.0]],
           [[2.0, 14.0], [6.0, 18.0], [10.0, 22.0]],
           [[3.0, 15.0], [7.0, 19.0], [11.0, 23.0]]]]]),
    'einsum_unary_sum': (
        "lambda x: jnp.einsum('ijk->ik', x)",
        '(m234,)',
        """\
{ lambda ; a:f32[2,3,4]. let
    b:f32[2,4] = reduce_sum[axes=(1,) out_sharding=None] a
  in (b,) }""",
        [['float32', False, [2, 4], [[12.0, 15.0, 18.0, 21.0], [48.0, 51.0, 54.0, 57.0]]]]),
    'einsum_pet': (
        "lambda x, y: jnp.einsum('ij,jk->ik', x, y, preferred_element_type=jnp.float32)",
        '(i23, np.ones((3, 4), np.int32))',
        """\
{ lambda ; a:i32[2,3] b:i32[3,4]. let
    c:f32[2,4] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 4], [[3.0, 3.0, 3.0, 3.0], [12.0, 12.0, 12.0, 12.0]]]]),
    'outer': (
        'lambda x, y: jnp.outer(x, y)',
        '(f32, x5)',
        """\
{ lambda ; a:f32[3] b:f32[5]. let
    c:f32[3,1] = broadcast_in_dim[broadcast_dimensions=(0,)] a
    d:f32[1,5] = broadcast_in_dim[broadcast_dimensions=(1,)] b
    e:f32[3,5] = mul c d
  in (e,) }""",
        [['float32', False, [3, 5],
          [[0.0, 0.5, 1.0, 1.5, 2.0], [-0.0, -1.5, -3.0, -4.5, -6.0],
           [0.0, 2.0, 4.0, 6.0, 8.0]]]]),
    'outer_mixed': (
        'lambda x, y: jnp.outer(x, y)',
        '(i32, 2.0)',
        """\
{ lambda ; a:i32[3] b:f32[]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=True] a
    d:f32[3,1] = broadcast_in_dim[broadcast_dimensions=(0,)] c
    e:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] b
    f:f32[1,1] = broadcast_in_dim[broadcast_dimensions=(1,)] e
    g:f32[3,1] = mul d f
  in (g,) }""",
        [['float32', True, [3, 1], [[2.0], [-4.0], [6.0]]]]),
    'inner_scalar': (
        'lambda x: jnp.inner(x, 2)',
        '(u8,)',
        '{ lambda ; a:u8[3]. let b:u8[3] = mul a 2:u8[] in (b,) }',
        [['uint8', False, [3], [2, 4, 244]]]),
    'cumsum_py': (
        'lambda x: jnp.cumsum(x)',
        '(2.0,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[1] = jit[
      name=cumsum
      jaxpr={ lambda ; a:f32[]. let
          c:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] a
          d:f32[1] = convert_element_type[new_dtype=float32 weak_type=False] c
          b:f32[1] = cumsum[axis=0 reverse=False] d
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [1], [2.0]]]),
    'inner': (
        'lambda x, y: jnp.inner(x, y)',
        '(m23, m23)',
        """\
{ lambda ; a:f32[2,3] b:f32[2,3]. let
    c:f32[2,2] = dot_general[
      dimension_numbers=(([1], [1]), ([], []))
      preferred_element_type=float32
    ] a b
  in (c,) }""",
        [['float32', False, [2, 2], [[5.0, 14.0], [14.0, 50.0]]]]),
    'vdot': (
        'lambda x, y: jnp.vdot(x, y)',
        '(m23, m23)',
        """\
{ lambda ; a:f32[2,3] b:f32[2,3]. let
    c:f32[6] = reshape[dimensions=None new_sizes=(6,) sharding=None] a
    d:f32[6] = reshape[dimensions=None new_sizes=(6,) sharding=None] b
    e:f32[] = dot_general[
      dimension_numbers=(([0], [0]), ([], []))
      preferred_element_type=float32
    ] c d
  in (e,) }""",
        [['float32', False, [], 55.0]]),
    'reshape_T': (
        'lambda x: x.reshape(2, 2).T',
        '(x5[:4],)',
        """\
{ lambda ; a:f32[4]. let
    b:f32[2,2] = reshape[dimensions=None new_sizes=(2, 2) sharding=None] a
    c:f32[2,2] = transpose[permutation=(1, 0)] b
  in (c,) }""",
        [['float32', False, [2, 2], [[0.0, 2.0], [1.0, 3.0]]]]),
    'reshape_tuple': (
        'lambda x: x.reshape((3, 2))',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[3,2] = reshape[dimensions=None new_sizes=(3, 2) sharding=None] a
  in (b,) }""",
        [['float32', False, [3, 2], [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]]]),
    'reshape_neg': (
        'lambda x: x.reshape(-1)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[6] = reshape[dimensions=None new_sizes=(6,) sharding=None] a
  in (b,) }""",
        [['float32', False, [6], [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]]]),
    'reshape_same': (
        'lambda x: x.reshape(2, 3)',
        '(m23,)',
        '{ lambda ; a:f32[2,3]. let  in (a,) }',
        [['float32', False, [2, 3], [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]]]),
    'reshape_F': (
        "lambda x: jnp.reshape(x, (6,), order='F')",
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[6] = reshape[dimensions=(1, 0) new_sizes=(6,) sharding=None] a
  in (b,) }""",
        [['float32', False, [6], [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]]]),
    'reshape_F2': (
        "lambda x: jnp.reshape(x, (3, 2), order='F')",
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2,3] = reshape[dimensions=(1, 0) new_sizes=(2, 3) sharding=None] a
    c:f32[3,2] = transpose[permutation=(1, 0)] b
  in (c,) }""",
        [['float32', False, [3, 2], [[0.0, 4.0], [3.0, 2.0], [1.0, 5.0]]]]),
    'ravel': (
        'lambda x: x.ravel()',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[6] = reshape[dimensions=None new_sizes=(6,) sharding=None] a
  in (b,) }""",
        [['float32', False, [6], [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]]]),
    'flatten': (
        'lambda x: x.flatten()',
        '(m234,)',
        """\
{ lambda ; a:f32[2,3,4]. let
    b:f32[24] = reshape[dimensions=None new_sizes=(24,) sharding=None] a
  in (b,) }""",
        [['float32', False, [24],
          [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0,
           15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0]]]),
    'ravel_1d': (
        'lambda x: jnp.ravel(x)',
        '(x5,)',
        '{ lambda ; a:f32[5]. let  in (a,) }',
        [['float32', False, [5], [0.0, 1.0, 2.0, 3.0, 4.0]]]),
    'T3': (
        'lambda x: x.T',
        '(m234,)',
        """\
{ lambda ; a:f32[2,3,4]. let
    b:f32[4,3,2] = transpose[permutation=(2, 1, 0)] a
  in (b,) }""",
        [['float32', False, [4, 3, 2],
          [[[0.0, 12.0], [4.0, 16.0], [8.0, 20.0]], [[1.0, 13.0], [5.0, 17.0], [9.0, 21.0]],
           [[2.0, 14.0], [6.0, 18.0], [10.0, 22.0]],
           [[3.0, 15.0], [7.0, 19.0], [11.0, 23.0]]]]]),
    'transpose_args': (
        'lambda x: x.transpose(1, 0)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[3,2] = transpose[permutation=(1, 0)] a
  in (b,) }""",
        [['float32', False, [3, 2], [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]]]),
    'transpose_id': (
        'lambda x: x.transpose((0, 1))',
        '(m23,)',
        '{ lambda ; a:f32[2,3]. let  in (a,) }',
        [['float32', False, [2, 3], [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]]]),
    'transpose_perm': (
        'lambda x: jnp.transpose(x, (2, 0, 1))',
        '(m234,)',
        """\
{ lambda ; a:f32[2,3,4]. let
    b:f32[4,2,3] = transpose[permutation=(2, 0, 1)] a
  in (b,) }""",
        [['float32', False, [4, 2, 3],
          [[[0.0, 4.0, 8.0], [12.0, 16.0, 20.0]], [[1.0, 5.0, 9.0], [13.0, 17.0, 21.0]],
           [[2.0, 6.0, 10.0], [14.0, 18.0, 22.0]],
           [[3.0, 7.0, 11.0], [15.0, 19.0, 23.0]]]]]),
    'swapaxes': (
        'lambda x: jnp.swapaxes(x, 0, 2)',
        '(m234,)',
        """\
{ lambda ; a:f32[2,3,4]. let
    b:f32[4,3,2] = transpose[permutation=(2, 1, 0)] a
  in (b,) }""",
        [['float32', False, [4, 3, 2],
          [[[0.0, 12.0], [4.0, 16.0], [8.0, 20.0]], [[1.0, 13.0], [5.0, 17.0], [9.0, 21.0]],
           [[2.0, 14.0], [6.0, 18.0], [10.0, 22.0]],
           [[3.0, 15.0], [7.0, 19.0], [11.0, 23.0]]]]]),
    'moveaxis': (
        'lambda x: jnp.moveaxis(x, 0, -1)',
        '(m234,)',
        """\
{ lambda ; a:f32[2,3,4]. let
    b:f32[3,4,2] = transpose[permutation=(1, 2, 0)] a
  in (b,) }""",
        [['float32', False, [3, 4, 2],
          [[[0.0, 12.0], [1.0, 13.0], [2.0, 14.0], [3.0, 15.0]],
           [[4.0, 16.0], [5.0, 17.0], [6.0, 18.0], [7.0, 19.0]],
           [[8.0, 20.0], [9.0, 21.0], [10.0, 22.0], [11.0, 23.0]]]]]),
    'moveaxis2': (
        'lambda x: jnp.moveaxis(x, (0, 1), (1, 0))',
        '(m234,)',
        """\
{ lambda ; a:f32[2,3,4]. let
    b:f32[3,2,4] = transpose[permutation=(1, 0, 2)] a
  in (b,) }""",
        [['float32', False, [3, 2, 4],
          [[[0.0, 1.0, 2.0, 3.0], [12.0, 13.0, 14.0, 15.0]],
           [[4.0, 5.0, 6.0, 7.0], [16.0, 17.0, 18.0, 19.0]],
           [[8.0, 9.0, 10.0, 11.0], [20.0, 21.0, 22.0, 23.0]]]]]),
    'squeeze_all': (
        'lambda x: jnp.squeeze(x)',
        '(np.ones((1, 3, 1), np.float32),)',
        '{ lambda ; a:f32[1,3,1]. let b:f32[3] = squeeze[dimensions=(0, 2)] a in (b,) }',
        [['float32', False, [3], [1.0, 1.0, 1.0]]]),
    'squeeze_ax': (
        'lambda x: x.squeeze(axis=(0, 2))',
        '(np.ones((1, 3, 1), np.float32),)',
        '{ lambda ; a:f32[1,3,1]. let b:f32[3] = squeeze[dimensions=(0, 2)] a in (b,) }',
        [['float32', False, [3], [1.0, 1.0, 1.0]]]),
    'squeeze_none': (
        'lambda x: jnp.squeeze(x)',
        '(x5,)',
        '{ lambda ; a:f32[5]. let  in (a,) }',
        [['float32', False, [5], [0.0, 1.0, 2.0, 3.0, 4.0]]]),
    'expand_dims': (
        'lambda x: jnp.expand_dims(x, 0)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[1,2,3] = broadcast_in_dim[broadcast_dimensions=(1, 2)] a
  in (b,) }""",
        [['float32', False, [1, 2, 3], [[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]]]]),
    'expand_dims2': (
        'lambda x: jnp.expand_dims(x, (0, -1))',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[1,2,3,1] = broadcast_in_dim[broadcast_dimensions=(1, 2)] a
  in (b,) }""",
        [['float32', False, [1, 2, 3, 1], [[[[0.0], [1.0], [2.0]], [[3.0], [4.0], [5.0]]]]]]),
    'broadcast_to': (
        'lambda x: jnp.broadcast_to(x, (2, 5))',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[2,5] = broadcast_in_dim[broadcast_dimensions=(1,)] a
  in (b,) }""",
        [['float32', False, [2, 5], [[0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0]]]]),
    'broadcast_to_1': (
        'lambda x: jnp.broadcast_to(x, (2, 3))',
        '(np.ones((1, 3), np.float32),)',
        """\
{ lambda ; a:f32[1,3]. let
    b:f32[2,3] = broadcast_in_dim[broadcast_dimensions=(0, 1)] a
  in (b,) }""",
        [['float32', False, [2, 3], [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]]]),
    'broadcast_to_py': (
        'lambda x: jnp.broadcast_to(x, (3,))',
        '(2.0,)',
        '{ lambda ; a:f32[]. let b:f32[3] = broadcast_in_dim a in (b,) }',
        [['float32', True, [3], [2.0, 2.0, 2.0]]]),
    'broadcast_arrays': (
        'lambda x, y: jnp.broadcast_arrays(x, y)',
        '(x5, np.ones((2, 1), np.float32))',
        """\
{ lambda ; a:f32[5] b:f32[2,1]. let
    c:f32[2,5] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,5] = broadcast_in_dim[broadcast_dimensions=(0, 1)] b
  in (c, d) }""",
        [['float32', False, [2, 5], [[0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0]]],
         ['float32', False, [2, 5], [[1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0]]]]),
    'broadcast_arrays_py': (
        'lambda x, y: jnp.broadcast_arrays(x, y)',
        '(x5, 1.0)',
        '{ lambda ; a:f32[5] b:f32[]. let c:f32[5] = broadcast_in_dim b in (a, c) }',
        [['float32', False, [5], [0.0, 1.0, 2.0, 3.0, 4.0]],
         ['float32', True, [5], [1.0, 1.0, 1.0, 1.0, 1.0]]]),
    'concatenate': (
        'lambda x, y: jnp.concatenate([x, y])',
        '(x5, f32)',
        """\
{ lambda ; a:f32[5] b:f32[3]. let
    c:f32[8] = concatenate[dimension=0] a b
  in (c,) }""",
        [['float32', False, [8], [0.0, 1.0, 2.0, 3.0, 4.0, 0.5, -1.5, 2.0]]]),
    'concatenate_ax1': (
        'lambda x, y: jnp.concatenate([x, y], axis=1)',
        '(m23, m23)',
        """\
{ lambda ; a:f32[2,3] b:f32[2,3]. let
    c:f32[2,6] = concatenate[dimension=1] a b
  in (c,) }""",
        [['float32', False, [2, 6],
          [[0.0, 1.0, 2.0, 0.0, 1.0, 2.0], [3.0, 4.0, 5.0, 3.0, 4.0, 5.0]]]]),
    'concatenate_none': (
        'lambda x, y: jnp.concatenate([x, y], axis=None)',
        '(m23, x5)',
        """\
{ lambda ; a:f32[2,3] b:f32[5]. let
    c:f32[6] = reshape[dimensions=None new_sizes=(6,) sharding=None] a
    d:f32[11] = concatenate[dimension=0] c b
  in (d,) }""",
        [['float32', False, [11], [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 0.0, 1.0, 2.0, 3.0, 4.0]]]),
    'concatenate_one': (
        'lambda x: jnp.concatenate([x])',
        '(m23,)',
        '{ lambda ; a:f32[2,3]. let  in (a,) }',
        [['float32', False, [2, 3], [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]]]),
    'concatenate_mixed': (
        'lambda x: jnp.concatenate([x, np.ones(2, np.int32)])',
        '(x5,)',
        """\
{ lambda a:i32[2]; b:f32[5]. let
    c:f32[2] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[7] = concatenate[dimension=0] b c
  in (d,) }""",
        [['float32', False, [7], [0.0, 1.0, 2.0, 3.0, 4.0, 1.0, 1.0]]]),
    'concatenate_dtype': (
        'lambda x: jnp.concatenate([x, x], dtype=jnp.int32)',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:i32[5] = convert_element_type[new_dtype=int32 weak_type=False] a
    c:i32[5] = convert_element_type[new_dtype=int32 weak_type=False] a
    d:i32[10] = concatenate[dimension=0] b c
  in (d,) }""",
        [['int32', False, [10], [0, 1, 2, 3, 4, 0, 1, 2, 3, 4]]]),
    'concatenate_arr': (
        'lambda x: jnp.concatenate(x)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[6] = reshape[dimensions=None new_sizes=(6,) sharding=None] a
  in (b,) }""",
        [['float32', False, [6], [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]]]),
    'stack': (
        'lambda x, y: jnp.stack([x, y])',
        '(x5, x5)',
        '{ lambda ; a:f32[5] b:f32[5]. let c:f32[2,5] = stack[axis=0] a b in (c,) }',
        [['float32', False, [2, 5], [[0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0]]]]),
    'stack_ax': (
        'lambda x, y: jnp.stack([x, y], axis=-1)',
        '(m23, m23)',
        '{ lambda ; a:f32[2,3] b:f32[2,3]. let c:f32[2,3,2] = stack[axis=2] a b in (c,) }',
        [['float32', False, [2, 3, 2],
          [[[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], [[3.0, 3.0], [4.0, 4.0], [5.0, 5.0]]]]]),
    'stack_py': (
        'lambda x: jnp.stack([x, 1.0])',
        '(2.0,)',
        '{ lambda ; a:f32[]. let b:f32[2] = stack[axis=0] a 1.0:f32[] in (b,) }',
        [['float32', True, [2], [2.0, 1.0]]]),
    'stack_arr': (
        'lambda x: jnp.stack(x)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2,1,3] = broadcast_in_dim[broadcast_dimensions=(0, 2)] a
    c:f32[2,3] = reshape[dimensions=None new_sizes=(2, 3) sharding=None] b
  in (c,) }""",
        [['float32', False, [2, 3], [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]]]),
    'hstack': (
        'lambda x, y: jnp.hstack([x, y])',
        '(x5, f32)',
        """\
{ lambda ; a:f32[5] b:f32[3]. let
    c:f32[5] = jit[name=atleast_1d jaxpr={ lambda ; a:f32[5]. let  in (a,) }] a
    d:f32[3] = jit[name=atleast_1d jaxpr={ lambda ; b:f32[3]. let  in (b,) }] b
    e:f32[8] = concatenate[dimension=0] c d
  in (e,) }""",
        [['float32', False, [8], [0.0, 1.0, 2.0, 3.0, 4.0, 0.5, -1.5, 2.0]]]),
    'hstack2': (
        'lambda x, y: jnp.hstack([x, y])',
        '(m23, m23)',
        """\
let atleast_1d = { lambda ; a:f32[2,3]. let  in (a,) } in
{ lambda ; b:f32[2,3] c:f32[2,3]. let
    d:f32[2,3] = jit[name=atleast_1d jaxpr=atleast_1d] b
    e:f32[2,3] = jit[name=atleast_1d jaxpr=atleast_1d] c
    f:f32[2,6] = concatenate[dimension=1] d e
  in (f,) }""",
        [['float32', False, [2, 6],
          [[0.0, 1.0, 2.0, 0.0, 1.0, 2.0], [3.0, 4.0, 5.0, 3.0, 4.0, 5.0]]]]),
    'vstack': (
        'lambda x, y: jnp.vstack([x, y])',
        '(x5, x5)',
        """\
let atleast_2d = { lambda ; a:f32[5]. let
    b:f32[1,5] = broadcast_in_dim[broadcast_dimensions=(1,)] a
  in (b,) } in
{ lambda ; c:f32[5] d:f32[5]. let
    e:f32[1,5] = jit[name=atleast_2d jaxpr=atleast_2d] c
    f:f32[1,5] = jit[name=atleast_2d jaxpr=atleast_2d] d
    g:f32[2,5] = concatenate[dimension=0] e f
  in (g,) }""",
        [['float32', False, [2, 5], [[0.0, 1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0, 4.0]]]]),
    'vstack2': (
        'lambda x, y: jnp.vstack([x, y])',
        '(m23, m23)',
        """\
let atleast_2d = { lambda ; a:f32[2,3]. let  in (a,) } in
{ lambda ; b:f32[2,3] c:f32[2,3]. let
    d:f32[2,3] = jit[name=atleast_2d jaxpr=atleast_2d] b
    e:f32[2,3] = jit[name=atleast_2d jaxpr=atleast_2d] c
    f:f32[4,3] = concatenate[dimension=0] d e
  in (f,) }""",
        [['float32', False, [4, 3],
          [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]]]),
    'atleast_1d': (
        'lambda x: jnp.atleast_1d(x)',
        '(2.0,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[1] = jit[
      name=atleast_1d
      jaxpr={ lambda ; a:f32[]. let b:f32[1] = broadcast_in_dim a in (b,) }
    ] a
  in (b,) }""",
        [['float32', True, [1], [2.0]]]),
    'atleast_3d': (
        'lambda x: jnp.atleast_3d(x)',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[1,5,1] = jit[
      name=atleast_3d
      jaxpr={ lambda ; a:f32[5]. let
          b:f32[1,5,1] = broadcast_in_dim[broadcast_dimensions=(1,)] a
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [1, 5, 1], [[[0.0], [1.0], [2.0], [3.0], [4.0]]]]]),
    'split': (
        'lambda x: jnp.split(x, 2)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[1,3] c:f32[1,3] = split[axis=0 sizes=(np.int64(1), np.int64(1))] a
  in (b, c) }""",
        [['float32', False, [1, 3], [[0.0, 1.0, 2.0]]],
         ['float32', False, [1, 3], [[3.0, 4.0, 5.0]]]]),
    'split_idx': (
        'lambda x: jnp.split(x, [1, 3])',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[1] c:f32[2] d:f32[2] = split[
      axis=0
      sizes=(np.int64(1), np.int64(2), np.int64(2))
    ] a
  in (b, c, d) }""",
        [['float32', False, [1], [0.0]], ['float32', False, [2], [1.0, 2.0]],
         ['float32', False, [2], [3.0, 4.0]]]),
    'array_split': (
        'lambda x: jnp.array_split(x, 3)',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[2] c:f32[2] d:f32[1] = split[
      axis=0
      sizes=(np.int64(2), np.int64(2), np.int64(1))
    ] a
  in (b, c, d) }""",
        [['float32', False, [2], [0.0, 1.0]], ['float32', False, [2], [2.0, 3.0]],
         ['float32', False, [1], [4.0]]]),
    'split_ax': (
        'lambda x: jnp.split(x, 3, axis=1)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2,1] c:f32[2,1] d:f32[2,1] = split[
      axis=1
      sizes=(np.int64(1), np.int64(1), np.int64(1))
    ] a
  in (b, c, d) }""",
        [['float32', False, [2, 1], [[0.0], [3.0]]],
         ['float32', False, [2, 1], [[1.0], [4.0]]],
         ['float32', False, [2, 1], [[2.0], [5.0]]]]),
    'flip': (
        'lambda x: jnp.flip(x)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2,3] = jit[
      name=_flip
      jaxpr={ lambda ; a:f32[2,3]. let
          b:f32[2,3] = rev[dimensions=(0, 1)] a
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [2, 3], [[5.0, 4.0, 3.0], [2.0, 1.0, 0.0]]]]),
    'flip_ax': (
        'lambda x: jnp.flip(x, -1)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2,3] = jit[
      name=_flip
      jaxpr={ lambda ; a:f32[2,3]. let
          b:f32[2,3] = rev[dimensions=(1,)] a
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [2, 3], [[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]]]]),
    'tile': (
        'lambda x: jnp.tile(x, 2)',
        '(x5,)',
        '{ lambda ; a:f32[5]. let b:f32[10] = tile[reps=(2,)] a in (b,) }',
        [['float32', False, [10], [0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0]]]),
    'tile2': (
        'lambda x: jnp.tile(x, (2, 1, 1))',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[1,2,3] = broadcast_in_dim[broadcast_dimensions=(1, 2)] a
    c:f32[2,2,3] = tile[reps=(2, 1, 1)] b
  in (c,) }""",
        [['float32', False, [2, 2, 3],
          [[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]]]]),
    'tile_short': (
        'lambda x: jnp.tile(x, 2)',
        '(m23,)',
        '{ lambda ; a:f32[2,3]. let b:f32[2,6] = tile[reps=(1, 2)] a in (b,) }',
        [['float32', False, [2, 6],
          [[0.0, 1.0, 2.0, 0.0, 1.0, 2.0], [3.0, 4.0, 5.0, 3.0, 4.0, 5.0]]]]),
    'repeat': (
        'lambda x: jnp.repeat(x, 2)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[6] = reshape[dimensions=None new_sizes=(6,) sharding=None] a
    c:f32[6,2] = broadcast_in_dim[broadcast_dimensions=(0,)] b
    d:f32[12] = reshape[dimensions=None new_sizes=(12,) sharding=None] c
  in (d,) }""",
        [['float32', False, [12],
          [0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0, 5.0, 5.0]]]),
    'repeat_ax': (
        'lambda x: jnp.repeat(x, 2, axis=0)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2,2,3] = broadcast_in_dim[broadcast_dimensions=(0, 2)] a
    c:f32[4,3] = reshape[dimensions=None new_sizes=(4, 3) sharding=None] b
  in (c,) }""",
        [['float32', False, [4, 3],
          [[0.0, 1.0, 2.0], [0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [3.0, 4.0, 5.0]]]]),
    'repeat_py': (
        'lambda x: jnp.repeat(x, 3)',
        '(2.0,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] a
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(0,)] b
    d:f32[3] = reshape[dimensions=None new_sizes=(3,) sharding=None] c
  in (d,) }""",
        [['float32', True, [3], [2.0, 2.0, 2.0]]]),
    'sort': (
        'lambda x: jnp.sort(x)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = jit[
      name=sort
      jaxpr={ lambda ; a:f32[3]. let
          b:f32[3] = sort[dimension=0 is_stable=True num_keys=1] a
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [3], [-1.5, 0.5, 2.0]]]),
    'sort_ax0': (
        'lambda x: jnp.sort(x, axis=0)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2,3] = jit[
      name=sort
      jaxpr={ lambda ; a:f32[2,3]. let
          b:f32[2,3] = sort[dimension=0 is_stable=True num_keys=1] a
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [2, 3], [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]]]),
    'sort_none': (
        'lambda x: jnp.sort(x, axis=None)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[6] = jit[
      name=sort
      jaxpr={ lambda ; a:f32[2,3]. let
          c:f32[6] = reshape[dimensions=None new_sizes=(6,) sharding=None] a
          b:f32[6] = sort[dimension=0 is_stable=True num_keys=1] c
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [6], [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]]]),
    'sort_desc': (
        'lambda x: jnp.sort(x, descending=True)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = jit[
      name=sort
      jaxpr={ lambda ; a:f32[3]. let
          c:f32[3] = sort[dimension=0 is_stable=True num_keys=1] a
          b:f32[3] = rev[dimensions=(0,)] c
        in (b,) }
    ] a
  in (b,) }""",
        [['float32', False, [3], [2.0, 0.5, -1.5]]]),
    'argsort': (
        'lambda x: jnp.argsort(x)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[3] = jit[
      name=argsort
      jaxpr={ lambda ; a:f32[3]. let
          c:i32[3] = iota[dimension=0 dtype=int32 shape=(3,) sharding=None] 
          d:f32[3] b:i32[3] = sort[dimension=0 is_stable=True num_keys=1] a c
        in (b,) }
    ] a
  in (b,) }""",
        [['int32', False, [3], [1, 0, 2]]]),
    'argsort_ax0': (
        'lambda x: jnp.argsort(x, axis=0)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:i32[2,3] = jit[
      name=argsort
      jaxpr={ lambda ; a:f32[2,3]. let
          c:i32[2,3] = iota[dimension=0 dtype=int32 shape=(2, 3) sharding=None] 
          d:f32[2,3] b:i32[2,3] = sort[dimension=0 is_stable=True num_keys=1] a c
        in (b,) }
    ] a
  in (b,) }""",
        [['int32', False, [2, 3], [[0, 0, 0], [1, 1, 1]]]]),
    'argsort_desc': (
        'lambda x: jnp.argsort(x, descending=True)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[3] = jit[
      name=argsort
      jaxpr={ lambda ; a:f32[3]. let
          c:i32[3] = iota[dimension=0 dtype=int32 shape=(3,) sharding=None] 
          d:f32[3] = rev[dimensions=(0,)] a
          e:i32[3] = rev[dimensions=(0,)] c
          f:f32[3] g:i32[3] = sort[dimension=0 is_stable=True num_keys=1] d e
          b:i32[3] = rev[dimensions=(0,)] g
        in (b,) }
    ] a
  in (b,) }""",
        [['int32', False, [3], [2, 0, 1]]]),
    'argsort_unstable': (
        'lambda x: jnp.argsort(x, stable=False)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[3] = jit[
      name=argsort
      jaxpr={ lambda ; a:f32[3]. let
          c:i32[3] = iota[dimension=0 dtype=int32 shape=(3,) sharding=None] 
          d:f32[3] b:i32[3] = sort[dimension=0 is_stable=False num_keys=1] a c
        in (b,) }
    ] a
  in (b,) }""",
        [['int32', False, [3], [1, 0, 2]]]),
    'argsort_none': (
        'lambda x: jnp.argsort(x, axis=None)',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:i32[6] = jit[
      name=argsort
      jaxpr={ lambda ; a:f32[2,3]. let
          c:f32[6] = reshape[dimensions=None new_sizes=(6,) sharding=None] a
          d:i32[6] = iota[dimension=0 dtype=int32 shape=(6,) sharding=None] 
          e:f32[6] b:i32[6] = sort[dimension=0 is_stable=True num_keys=1] c d
        in (b,) }
    ] a
  in (b,) }""",
        [['int32', False, [6], [0, 1, 2, 3, 4, 5]]]),
    'method_sort': (
        'lambda x: x.sort()',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:i32[3] = jit[
      name=sort
      jaxpr={ lambda ; a:i32[3]. let
          b:i32[3] = sort[dimension=0 is_stable=True num_keys=1] a
        in (b,) }
    ] a
  in (b,) }""",
        [['int32', False, [3], [-2, 1, 3]]]),
    'method_argsort': (
        'lambda x: x.argsort()',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:i32[3] = jit[
      name=argsort
      jaxpr={ lambda ; a:i32[3]. let
          c:i32[3] = iota[dimension=0 dtype=int32 shape=(3,) sharding=None] 
          d:i32[3] b:i32[3] = sort[dimension=0 is_stable=True num_keys=1] a c
        in (b,) }
    ] a
  in (b,) }""",
        [['int32', False, [3], [1, 0, 2]]]),
    'zeros': (
        'lambda x: jnp.zeros(3) + x',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[3] = broadcast_in_dim 0.0:f32[]
    c:f32[3] = add b a
  in (c,) }""",
        [['float32', False, [3], [0.5, -1.5, 2.0]]]),
    'zeros_int': (
        'lambda x: jnp.zeros((2, 3), jnp.int32)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:i32[2,3] = broadcast_in_dim 0:i32[] in (b,) }',
        [['int32', False, [2, 3], [[0, 0, 0], [0, 0, 0]]]]),
    'zeros_scalar': (
        'lambda x: jnp.zeros(())',
        '(f32,)',
        '{ lambda ; a:f32[3]. let  in (0.0:f32[],) }',
        [['float32', False, [], 0.0]]),
    'ones_bool': (
        'lambda x: jnp.ones((2,), bool)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:bool[2] = broadcast_in_dim True:bool[] in (b,) }',
        [['bool', False, [2], [1, 1]]]),
    'full_py': (
        'lambda x: jnp.full((2,), 3.0) + x[:2]',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[2] = broadcast_in_dim 3.0:f32[]
    c:f32[2] = slice[limit_indices=(2,) start_indices=(0,) strides=None] a
    d:f32[2] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[2] = add d c
  in (e,) }""",
        [['float32', False, [2], [3.5, 1.5]]]),
    'full_traced': (
        'lambda x: jnp.full((2, 3), x)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[2,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
  in (b,) }""",
        [['float32', False, [2, 3], [[0.5, -1.5, 2.0], [0.5, -1.5, 2.0]]]]),
    'full_dtype': (
        'lambda x: jnp.full((2,), x, dtype=jnp.int32)',
        '(2.0,)',
        """\
{ lambda ; a:f32[]. let
    b:i32[] = convert_element_type[new_dtype=int32 weak_type=False] a
    c:i32[2] = broadcast_in_dim b
  in (c,) }""",
        [['int32', False, [2], [2, 2]]]),
    'full_scalar': (
        'lambda x: jnp.full((), 3)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let  in (3:i32[],) }',
        [['int32', True, [], 3]]),
    'zeros_like': (
        'lambda x: jnp.zeros_like(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = broadcast_in_dim 0.0:f32[] in (b,) }',
        [['float32', False, [3], [0.0, 0.0, 0.0]]]),
    'zeros_like_py': (
        'lambda x: jnp.zeros_like(x)',
        '(2.0,)',
        '{ lambda ; a:f32[]. let  in (0.0:f32[],) }',
        [['float32', True, [], 0.0]]),
    'ones_like_dtype': (
        'lambda x: jnp.ones_like(x, dtype=jnp.int32)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:i32[3] = broadcast_in_dim 1:i32[] in (b,) }',
        [['int32', False, [3], [1, 1, 1]]]),
    'full_like': (
        'lambda x: jnp.full_like(x, 7)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = broadcast_in_dim 7.0:f32[] in (b,) }',
        [['float32', False, [3], [7.0, 7.0, 7.0]]]),
    'full_like_shape': (
        'lambda x: jnp.full_like(x, 2, dtype=jnp.int32, shape=(2, 2))',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:i32[2,2] = broadcast_in_dim 2:i32[] in (b,) }',
        [['int32', False, [2, 2], [[2, 2], [2, 2]]]]),
    'empty_like': (
        'lambda x: jnp.empty_like(x)',
        '(i32,)',
        '{ lambda ; a:i32[3]. let b:i32[3] = broadcast_in_dim 0:i32[] in (b,) }',
        [['int32', False, [3], [0, 0, 0]]]),
    'arange': (
        'lambda x: jnp.arange(5)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[5] = iota[dimension=0 dtype=int32 shape=(5,) sharding=None] 
  in (b,) }""",
        [['int32', False, [5], [0, 1, 2, 3, 4]]]),
    'arange_step': (
        'lambda x: jnp.arange(1, 5, 2)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[2] = iota[dimension=0 dtype=int32 shape=(2,) sharding=None] 
    c:i32[2] = mul 2:i32[] b
    d:i32[2] = add 1:i32[] c
  in (d,) }""",
        [['int32', False, [2], [1, 3]]]),
    'arange_f': (
        'lambda x: jnp.arange(5.0)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[5] = iota[dimension=0 dtype=float32 shape=(5,) sharding=None] 
  in (b,) }""",
        [['float32', False, [5], [0.0, 1.0, 2.0, 3.0, 4.0]]]),
    'arange_frac': (
        'lambda x: jnp.arange(0, 1, 0.25)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[4] = iota[dimension=0 dtype=float32 shape=(4,) sharding=None] 
    c:f32[4] = mul 0.25:f32[] b
    d:f32[4] = add 0.0:f32[] c
  in (d,) }""",
        [['float32', False, [4], [0.0, 0.25, 0.5, 0.75]]]),
    'arange_start': (
        'lambda x: jnp.arange(2, 5)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[3] = iota[dimension=0 dtype=int32 shape=(3,) sharding=None] 
    c:i32[3] = add 2:i32[] b
  in (c,) }""",
        [['int32', False, [3], [2, 3, 4]]]),
    'arange_neg': (
        'lambda x: jnp.arange(5, 0, -1)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[5] = iota[dimension=0 dtype=int32 shape=(5,) sharding=None] 
    c:i32[5] = mul -1:i32[] b
    d:i32[5] = add 5:i32[] c
  in (d,) }""",
        [['int32', False, [5], [5, 4, 3, 2, 1]]]),
    'arange_u8': (
        'lambda x: jnp.arange(3, dtype=jnp.uint8)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:u8[3] = iota[dimension=0 dtype=uint8 shape=(3,) sharding=None] 
  in (b,) }""",
        [['uint8', False, [3], [0, 1, 2]]]),
    'arange_cast': (
        'lambda x: jnp.arange(0.5, 3, dtype=jnp.int32)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[3] = iota[dimension=0 dtype=int32 shape=(3,) sharding=None] 
    c:i32[3] = add 0:i32[] b
  in (c,) }""",
        [['int32', False, [3], [0, 1, 2]]]),
    'arange_empty': (
        'lambda x: jnp.arange(0)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[0] = iota[dimension=0 dtype=int32 shape=(0,) sharding=None] 
  in (b,) }""",
        [['int32', False, [0], []]]),
    'linspace': (
        'lambda x: jnp.linspace(0, 1, 5)',
        '(f32,)',
        """\
let _linspace = { lambda ; a:i32[] b:i32[]. let
    c:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[] = sub d c
    f:f32[] = div e 4.0:f32[]
    g:f32[4] = iota[dimension=0 dtype=float32 shape=(4,) sharding=None] 
    h:f32[4] = div g 4.0:f32[]
    i:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] c
    j:f32[4] = sub 1.0:f32[] h
    k:f32[4] = mul i j
    l:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] d
    m:f32[4] = mul l h
    n:f32[4] = add k m
    o:f32[1] = broadcast_in_dim d
    p:f32[5] = concatenate[dimension=0] n o
  in (p,) } in
{ lambda ; q:f32[3]. let
    r:f32[5] = jit[name=_linspace jaxpr=_linspace] 0:i32[] 1:i32[]
  in (r,) }""",
        [['float32', False, [5], [0.0, 0.25, 0.5, 0.75, 1.0]]]),
    'linspace_noend': (
        'lambda x: jnp.linspace(0, 1, 5, endpoint=False)',
        '(f32,)',
        """\
let _linspace = { lambda ; a:i32[] b:i32[]. let
    c:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[] = sub d c
    f:f32[] = div e 5.0:f32[]
    g:f32[5] = iota[dimension=0 dtype=float32 shape=(5,) sharding=None] 
    h:f32[5] = div g 5.0:f32[]
    i:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] c
    j:f32[5] = sub 1.0:f32[] h
    k:f32[5] = mul i j
    l:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] d
    m:f32[5] = mul l h
    n:f32[5] = add k m
  in (n,) } in
{ lambda ; o:f32[3]. let
    p:f32[5] = jit[name=_linspace jaxpr=_linspace] 0:i32[] 1:i32[]
  in (p,) }""",
        [['float32', False, [5],
          [0.0, 0.20000000298023224, 0.4000000059604645, 0.6000000238418579,
           0.800000011920929]]]),
    'linspace_traced': (
        'lambda x: jnp.linspace(x, 1, 5)',
        '(2.0,)',
        """\
let _linspace = { lambda ; a:f32[] b:i32[]. let
    c:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[] = sub d c
    f:f32[] = div e 4.0:f32[]
    g:f32[4] = iota[dimension=0 dtype=float32 shape=(4,) sharding=None] 
    h:f32[4] = div g 4.0:f32[]
    i:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] c
    j:f32[4] = sub 1.0:f32[] h
    k:f32[4] = mul i j
    l:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] d
    m:f32[4] = mul l h
    n:f32[4] = add k m
    o:f32[1] = broadcast_in_dim d
    p:f32[5] = concatenate[dimension=0] n o
  in (p,) } in
{ lambda ; q:f32[]. let
    r:f32[5] = jit[name=_linspace jaxpr=_linspace] q 1:i32[]
  in (r,) }""",
        [['float32', False, [5], [2.0, 1.75, 1.5, 1.25, 1.0]]]),
    'linspace_int': (
        'lambda x: jnp.linspace(0, 10, 5, dtype=jnp.int32)',
        '(f32,)',
        """\
let _linspace = { lambda ; a:i32[] b:i32[]. let
    c:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[] = sub d c
    f:f32[] = div e 4.0:f32[]
    g:f32[4] = iota[dimension=0 dtype=float32 shape=(4,) sharding=None] 
    h:f32[4] = div g 4.0:f32[]
    i:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] c
    j:f32[4] = sub 1.0:f32[] h
    k:f32[4] = mul i j
    l:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] d
    m:f32[4] = mul l h
    n:f32[4] = add k m
    o:f32[1] = broadcast_in_dim d
    p:f32[5] = concatenate[dimension=0] n o
    q:f32[5] = floor p
    r:i32[5] = convert_element_type[new_dtype=int32 weak_type=False] q
  in (r,) } in
{ lambda ; s:f32[3]. let
    t:i32[5] = jit[name=_linspace jaxpr=_linspace] 0:i32[] 10:i32[]
  in (t,) }""",
        [['int32', False, [5], [0, 2, 5, 7, 10]]]),
    'linspace_1': (
        'lambda x: jnp.linspace(0, 1, 1)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[1] = jit[
      name=_linspace
      jaxpr={ lambda ; c:i32[] d:i32[]. let
          e:f32[] = convert_element_type[new_dtype=float32 weak_type=False] c
          f:f32[] = convert_element_type[new_dtype=float32 weak_type=False] d
          b:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] e
        in (b,) }
    ] 0:i32[] 1:i32[]
  in (b,) }""",
        [['float32', False, [1], [0.0]]]),
    'linspace_0': (
        'lambda x: jnp.linspace(0, 1, 0)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[0] = jit[
      name=_linspace
      jaxpr={ lambda ; c:i32[] d:i32[]. let
          e:f32[] = convert_element_type[new_dtype=float32 weak_type=False] c
          f:f32[] = convert_element_type[new_dtype=float32 weak_type=False] d
          b:f32[0] = broadcast_in_dim 0.0:f32[]
        in (b,) }
    ] 0:i32[] 1:i32[]
  in (b,) }""",
        [['float32', False, [0], []]]),
    'linspace_step': (
        'lambda x: jnp.linspace(0, 1, 5, retstep=True)',
        '(f32,)',
        """\
let _linspace = { lambda ; a:i32[] b:i32[]. let
    c:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    e:f32[] = sub d c
    f:f32[] = div e 4.0:f32[]
    g:f32[4] = iota[dimension=0 dtype=float32 shape=(4,) sharding=None] 
    h:f32[4] = div g 4.0:f32[]
    i:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] c
    j:f32[4] = sub 1.0:f32[] h
    k:f32[4] = mul i j
    l:f32[1] = reshape[dimensions=None new_sizes=(1,) sharding=None] d
    m:f32[4] = mul l h
    n:f32[4] = add k m
    o:f32[1] = broadcast_in_dim d
    p:f32[5] = concatenate[dimension=0] n o
  in (p, f) } in
{ lambda ; q:f32[3]. let
    r:f32[5] s:f32[] = jit[name=_linspace jaxpr=_linspace] 0:i32[] 1:i32[]
  in (r, s) }""",
        [['float32', False, [5], [0.0, 0.25, 0.5, 0.75, 1.0]], ['float32', False, [], 0.25]]),
    'linspace_arr': (
        'lambda x: jnp.linspace(jnp.zeros(2), 1.0, 3)',
        '(f32,)',
        """\
let _linspace = { lambda ; a:f32[2] b:f32[]. let
    c:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b
    d:f32[2] = broadcast_in_dim c
    e:f32[2] = sub c a
    f:f32[2] = div e 2.0:f32[]
    g:f32[2] = iota[dimension=0 dtype=float32 shape=(2,) sharding=None] 
    h:f32[2,1] = reshape[dimensions=None new_sizes=(2, 1) sharding=None] g
    i:f32[2,1] = div h 2.0:f32[]
    j:f32[1,2] = reshape[dimensions=None new_sizes=(1, 2) sharding=None] a
    k:f32[2,1] = sub 1.0:f32[] i
    l:f32[2,2] = mul j k
    m:f32[1,2] = reshape[dimensions=None new_sizes=(1, 2) sharding=None] d
    n:f32[2,2] = mul m i
    o:f32[2,2] = add l n
    p:f32[1,2] = broadcast_in_dim[broadcast_dimensions=(1,)] d
    q:f32[3,2] = concatenate[dimension=0] o p
  in (q,) } in
{ lambda ; r:f32[3]. let
    s:f32[2] = broadcast_in_dim 0.0:f32[]
    t:f32[3,2] = jit[name=_linspace jaxpr=_linspace] s 1.0:f32[]
  in (t,) }""",
        [['float32', False, [3, 2], [[0.0, 0.0], [0.5, 0.5], [1.0, 1.0]]]]),
    'linspace_axis': (
        'lambda x: jnp.linspace(0.0, jnp.ones((2, 2)), 3, axis=1)',
        '(f32,)',
        """\
let _linspace = { lambda ; a:f32[] b:f32[2,2]. let
    c:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[2,2] = broadcast_in_dim c
    e:f32[2,2] = sub b c
    f:f32[2,2] = div e 2.0:f32[]
    g:f32[2] = iota[dimension=0 dtype=float32 shape=(2,) sharding=None] 
    h:f32[1,2,1] = reshape[dimensions=None new_sizes=(1, 2, 1) sharding=None] g
    i:f32[1,2,1] = div h 2.0:f32[]
    j:f32[2,1,2] = reshape[dimensions=None new_sizes=(2, 1, 2) sharding=None] d
    k:f32[1,2,1] = sub 1.0:f32[] i
    l:f32[2,2,2] = mul j k
    m:f32[2,1,2] = reshape[dimensions=None new_sizes=(2, 1, 2) sharding=None] b
    n:f32[2,2,2] = mul m i
    o:f32[2,2,2] = add l n
    p:f32[2,1,2] = broadcast_in_dim[broadcast_dimensions=(0, 2)] b
    q:f32[2,3,2] = concatenate[dimension=1] o p
  in (q,) } in
{ lambda ; r:f32[3]. let
    s:f32[2,2] = broadcast_in_dim 1.0:f32[]
    t:f32[2,3,2] = jit[name=_linspace jaxpr=_linspace] 0.0:f32[] s
  in (t,) }""",
        [['float32', False, [2, 3, 2],
          [[[0.0, 0.0], [0.5, 0.5], [1.0, 1.0]], [[0.0, 0.0], [0.5, 0.5], [1.0, 1.0]]]]]),
    'eye': (
        'lambda x: jnp.eye(3)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[3,3] = iota[dimension=0 dtype=int32 shape=(3, 3) sharding=None] 
    c:i32[3,3] = iota[dimension=1 dtype=int32 shape=(3, 3) sharding=None] 
    d:i32[3,3] = add b 0:i32[]
    e:bool[3,3] = eq d c
    f:f32[3,3] = convert_element_type[new_dtype=float32 weak_type=False] e
  in (f,) }""",
        [['float32', False, [3, 3], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]]]),
    'eye_k': (
        'lambda x: jnp.eye(2, 3, k=1, dtype=jnp.int32)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[2,3] = iota[dimension=0 dtype=int32 shape=(2, 3) sharding=None] 
    c:i32[2,3] = iota[dimension=1 dtype=int32 shape=(2, 3) sharding=None] 
    d:i32[2,3] = add b 1:i32[]
    e:bool[2,3] = eq d c
    f:i32[2,3] = convert_element_type[new_dtype=int32 weak_type=False] e
  in (f,) }""",
        [['int32', False, [2, 3], [[0, 1, 0], [0, 0, 1]]]]),
    'eye_bool': (
        'lambda x: jnp.eye(2, dtype=bool)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[2,2] = iota[dimension=0 dtype=int32 shape=(2, 2) sharding=None] 
    c:i32[2,2] = iota[dimension=1 dtype=int32 shape=(2, 2) sharding=None] 
    d:i32[2,2] = add b 0:i32[]
    e:bool[2,2] = eq d c
  in (e,) }""",
        [['bool', False, [2, 2], [[1, 0], [0, 1]]]]),
    'identity': (
        'lambda x: jnp.identity(2)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[2,2] = iota[dimension=0 dtype=int32 shape=(2, 2) sharding=None] 
    c:i32[2,2] = iota[dimension=1 dtype=int32 shape=(2, 2) sharding=None] 
    d:i32[2,2] = add b 0:i32[]
    e:bool[2,2] = eq d c
    f:f32[2,2] = convert_element_type[new_dtype=float32 weak_type=False] e
  in (f,) }""",
        [['float32', False, [2, 2], [[1.0, 0.0], [0.0, 1.0]]]]),
    'array_list': (
        'lambda x: jnp.array([1, 2, 3]) + x',
        '(f32,)',
        """\
{ lambda a:i32[3]; b:f32[3]. let
    c:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
    d:f32[3] = add c b
  in (d,) }""",
        [['float32', False, [3], [1.5, 0.5, 5.0]]]),
    'array_traced': (
        'lambda x: jnp.array([x, x])',
        '(2.0,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[1] = broadcast_in_dim b
    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    e:f32[1] = broadcast_in_dim d
    f:f32[2] = concatenate[dimension=0] c e
  in (f,) }""",
        [['float32', False, [2], [2.0, 2.0]]]),
    'array_nested': (
        'lambda x: jnp.array([[x, x], [x, x]])',
        '(2.0,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[1] = broadcast_in_dim b
    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    e:f32[1] = broadcast_in_dim d
    f:f32[2] = concatenate[dimension=0] c e
    g:f32[1,2] = broadcast_in_dim[broadcast_dimensions=(1,)] f
    h:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    i:f32[1] = broadcast_in_dim h
    j:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    k:f32[1] = broadcast_in_dim j
    l:f32[2] = concatenate[dimension=0] i k
    m:f32[1,2] = broadcast_in_dim[broadcast_dimensions=(1,)] l
    n:f32[2,2] = concatenate[dimension=0] g m
  in (n,) }""",
        [['float32', False, [2, 2], [[2.0, 2.0], [2.0, 2.0]]]]),
    'array_mixed': (
        'lambda x: jnp.array((x, 1.0))',
        '(2.0,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
    c:f32[1] = broadcast_in_dim b
    d:f32[1] = broadcast_in_dim 1.0:f32[]
    e:f32[2] = concatenate[dimension=0] c d
  in (e,) }""",
        [['float32', False, [2], [2.0, 1.0]]]),
    'asarray_list': (
        'lambda x: jnp.asarray([x, x])',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    c:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    d:f32[2,3] = concatenate[dimension=0] b c
  in (d,) }""",
        [['float32', False, [2, 3], [[0.5, -1.5, 2.0], [0.5, -1.5, 2.0]]]]),
    'array_copy': (
        'lambda x: jnp.array(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = copy a in (b,) }',
        [['float32', False, [3], [0.5, -1.5, 2.0]]]),
    'array_nocopy': (
        'lambda x: jnp.array(x, copy=False)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let  in (a,) }',
        [['float32', False, [3], [0.5, -1.5, 2.0]]]),
    'array_scalar': (
        'lambda x: jnp.array(3.0) + x',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = add 3.0:f32[] a in (b,) }',
        [['float32', False, [3], [3.5, 1.5, 5.0]]]),
    'array_ndmin': (
        'lambda x: jnp.asarray(x)[None] + jnp.array(3, ndmin=2)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:f32[1,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a
    c:i32[1,1] = broadcast_in_dim 3:i32[]
    d:f32[1,1] = convert_element_type[new_dtype=float32 weak_type=False] c
    e:f32[1,3] = add b d
  in (e,) }""",
        [['float32', False, [1, 3], [[3.5, 1.5, 5.0]]]]),
    'asarray': (
        'lambda x: jnp.asarray(x)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let  in (a,) }',
        [['float32', False, [3], [0.5, -1.5, 2.0]]]),
    'asarray_dtype': (
        'lambda x: jnp.asarray(x, dtype=jnp.int32)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
  in (b,) }""",
        [['int32', False, [3], [0, -1, 2]]]),
    'astype': (
        'lambda x: x.astype(jnp.int32)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
  in (b,) }""",
        [['int32', False, [3], [0, -1, 2]]]),
    'astype_float': (
        'lambda x: x.astype(float)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
  in (b,) }""",
        [['float32', False, [3], [1.0, -2.0, 3.0]]]),
    'astype_same': (
        'lambda x: x.astype(jnp.float32)',
        '(f32,)',
        '{ lambda ; a:f32[3]. let  in (a,) }',
        [['float32', False, [3], [0.5, -1.5, 2.0]]]),
    'astype_weak': (
        'lambda x: x.astype(jnp.float32)',
        '(2.0,)',
        """\
{ lambda ; a:f32[]. let
    b:f32[] = convert_element_type[new_dtype=float32 weak_type=False] a
  in (b,) }""",
        "ERR AttributeError: 'float' object has no attribute 'astype'"),
    'astype_bool': (
        'lambda x: jnp.astype(x, jnp.bool_)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:bool[3] = convert_element_type[new_dtype=bool weak_type=False] a
  in (b,) }""",
        [['bool', False, [3], [1, 1, 1]]]),
    'scalar_type': (
        'lambda x: jnp.float32(3) + x',
        '(f32,)',
        '{ lambda ; a:f32[3]. let b:f32[3] = add 3.0:f32[] a in (b,) }',
        [['float32', False, [3], [3.5, 1.5, 5.0]]]),
    'scalar_type_conv': (
        'lambda x: jnp.float32(x)',
        '(i32,)',
        """\
{ lambda ; a:i32[3]. let
    b:f32[3] = convert_element_type[new_dtype=float32 weak_type=False] a
  in (b,) }""",
        [['float32', False, [3], [1.0, -2.0, 3.0]]]),
    'scalar_type_int': (
        'lambda x: jnp.int32(x)',
        '(f32,)',
        """\
{ lambda ; a:f32[3]. let
    b:i32[3] = convert_element_type[new_dtype=int32 weak_type=False] a
  in (b,) }""",
        [['int32', False, [3], [0, -1, 2]]]),
    'idx_int': (
        'lambda x: x[1]',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[1] = slice[limit_indices=(2,) start_indices=(1,) strides=None] a
    c:f32[] = squeeze[dimensions=(0,)] b
  in (c,) }""",
        [['float32', False, [], 1.0]]),
    'idx_neg': (
        'lambda x: x[-1]',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[1] = slice[limit_indices=(5,) start_indices=(4,) strides=None] a
    c:f32[] = squeeze[dimensions=(0,)] b
  in (c,) }""",
        [['float32', False, [], 4.0]]),
    'idx_slice': (
        'lambda x: x[1:3]',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[2] = slice[limit_indices=(3,) start_indices=(1,) strides=None] a
  in (b,) }""",
        [['float32', False, [2], [1.0, 2.0]]]),
    'idx_step': (
        'lambda x: x[::2]',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[3] = slice[limit_indices=(5,) start_indices=(0,) strides=(2,)] a
  in (b,) }""",
        [['float32', False, [3], [0.0, 2.0, 4.0]]]),
    'idx_rev': (
        'lambda x: x[::-1]',
        '(x5,)',
        '{ lambda ; a:f32[5]. let b:f32[5] = rev[dimensions=(0,)] a in (b,) }',
        [['float32', False, [5], [4.0, 3.0, 2.0, 1.0, 0.0]]]),
    'idx_rev_range': (
        'lambda x: x[3:0:-1]',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[3] = slice[limit_indices=(4,) start_indices=(1,) strides=None] a
    c:f32[3] = rev[dimensions=(0,)] b
  in (c,) }""",
        [['float32', False, [3], [3.0, 2.0, 1.0]]]),
    'idx_rev_step': (
        'lambda x: x[::-2]',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[3] = slice[limit_indices=(5,) start_indices=(0,) strides=(2,)] a
    c:f32[3] = rev[dimensions=(0,)] b
  in (c,) }""",
        [['float32', False, [3], [4.0, 2.0, 0.0]]]),
    'idx_rev_step2': (
        'lambda x: x[4:0:-2]',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[2] = slice[limit_indices=(5,) start_indices=(2,) strides=(2,)] a
    c:f32[2] = rev[dimensions=(0,)] b
  in (c,) }""",
        [['float32', False, [2], [4.0, 2.0]]]),
    'idx_rev_empty': (
        'lambda x: x[0:3:-1]',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[0] = slice[limit_indices=(4,) start_indices=(4,) strides=None] a
    c:f32[0] = rev[dimensions=(0,)] b
  in (c,) }""",
        [['float32', False, [0], []]]),
    'idx_rev_full': (
        'lambda x: x[-1:-6:-1]',
        '(x5,)',
        '{ lambda ; a:f32[5]. let b:f32[5] = rev[dimensions=(0,)] a in (b,) }',
        [['float32', False, [5], [4.0, 3.0, 2.0, 1.0, 0.0]]]),
    'idx_newaxis': (
        'lambda x: x[:, None]',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[5,1] = broadcast_in_dim[broadcast_dimensions=(0,)] a
  in (b,) }""",
        [['float32', False, [5, 1], [[0.0], [1.0], [2.0], [3.0], [4.0]]]]),
    'idx_none': (
        'lambda x: x[None]',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[1,5] = broadcast_in_dim[broadcast_dimensions=(1,)] a
  in (b,) }""",
        [['float32', False, [1, 5], [[0.0, 1.0, 2.0, 3.0, 4.0]]]]),
    'idx_ellipsis': (
        'lambda x: x[...]',
        '(x5,)',
        '{ lambda ; a:f32[5]. let  in (a,) }',
        [['float32', False, [5], [0.0, 1.0, 2.0, 3.0, 4.0]]]),
    'idx_full': (
        'lambda x: x[:]',
        '(x5,)',
        '{ lambda ; a:f32[5]. let  in (a,) }',
        [['float32', False, [5], [0.0, 1.0, 2.0, 3.0, 4.0]]]),
    'idx_2int': (
        'lambda x: x[1, 2]',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[1,1] = slice[limit_indices=(2, 3) start_indices=(1, 2) strides=None] a
    c:f32[] = squeeze[dimensions=(0, 1)] b
  in (c,) }""",
        [['float32', False, [], 5.0]]),
    'idx_row': (
        'lambda x: x[1, :]',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[1,3] = slice[limit_indices=(2, 3) start_indices=(1, 0) strides=None] a
    c:f32[3] = squeeze[dimensions=(0,)] b
  in (c,) }""",
        [['float32', False, [3], [3.0, 4.0, 5.0]]]),
    'idx_col': (
        'lambda x: x[:, 1]',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2,1] = slice[limit_indices=(2, 2) start_indices=(0, 1) strides=None] a
    c:f32[2] = squeeze[dimensions=(1,)] b
  in (c,) }""",
        [['float32', False, [2], [1.0, 4.0]]]),
    'idx_ell_int': (
        'lambda x: x[..., 1]',
        '(m234,)',
        """\
{ lambda ; a:f32[2,3,4]. let
    b:f32[2,3,1] = slice[
      limit_indices=(2, 3, 2)
      start_indices=(0, 0, 1)
      strides=None
    ] a
    c:f32[2,3] = squeeze[dimensions=(2,)] b
  in (c,) }""",
        [['float32', False, [2, 3], [[1.0, 5.0, 9.0], [13.0, 17.0, 21.0]]]]),
    'idx_mix': (
        'lambda x: x[1, ..., None, 2]',
        '(m234,)',
        """\
{ lambda ; a:f32[2,3,4]. let
    b:f32[1,3,1] = slice[
      limit_indices=(2, 3, 3)
      start_indices=(1, 0, 2)
      strides=None
    ] a
    c:f32[3] = squeeze[dimensions=(0, 2)] b
    d:f32[3,1] = broadcast_in_dim[broadcast_dimensions=(0,)] c
  in (d,) }""",
        [['float32', False, [3, 1], [[14.0], [18.0], [22.0]]]]),
    'idx_strided': (
        'lambda x: x[:, 1:3, ::2]',
        '(m234,)',
        """\
{ lambda ; a:f32[2,3,4]. let
    b:f32[2,2,2] = slice[
      limit_indices=(2, 3, 4)
      start_indices=(0, 1, 0)
      strides=(1, 1, 2)
    ] a
  in (b,) }""",
        [['float32', False, [2, 2, 2],
          [[[4.0, 6.0], [8.0, 10.0]], [[16.0, 18.0], [20.0, 22.0]]]]]),
    'idx_empty': (
        'lambda x: x[10:20]',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[0] = slice[limit_indices=(5,) start_indices=(5,) strides=None] a
  in (b,) }""",
        [['float32', False, [0], []]]),
    'idx_empty2': (
        'lambda x: x[4:1]',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[0] = slice[limit_indices=(4,) start_indices=(4,) strides=None] a
  in (b,) }""",
        [['float32', False, [0], []]]),
    'idx_int_rev': (
        'lambda x: x[1, ::-1]',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[1,3] = slice[limit_indices=(2, 3) start_indices=(1, 0) strides=None] a
    c:f32[1,3] = rev[dimensions=(1,)] b
    d:f32[3] = squeeze[dimensions=(0,)] c
  in (d,) }""",
        [['float32', False, [3], [5.0, 4.0, 3.0]]]),
    'idx_rev_int': (
        'lambda x: x[::-1, 1]',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2,1] = slice[limit_indices=(2, 2) start_indices=(0, 1) strides=None] a
    c:f32[2,1] = rev[dimensions=(0,)] b
    d:f32[2] = squeeze[dimensions=(1,)] c
  in (d,) }""",
        [['float32', False, [2], [4.0, 1.0]]]),
    'idx_none_rev': (
        'lambda x: x[None, ::-1, None, 1:2]',
        '(m23,)',
        """\
{ lambda ; a:f32[2,3]. let
    b:f32[2,1] = slice[limit_indices=(2, 2) start_indices=(0, 1) strides=None] a
    c:f32[2,1] = rev[dimensions=(0,)] b
    d:f32[1,2,1,1] = broadcast_in_dim[broadcast_dimensions=(1, 3)] c
  in (d,) }""",
        [['float32', False, [1, 2, 1, 1], [[[[4.0]], [[1.0]]]]]]),
    'idx_np_int': (
        'lambda x: x[np.int32(1)]',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[1] = slice[limit_indices=(2,) start_indices=(1,) strides=None] a
    c:f32[] = squeeze[dimensions=(0,)] b
  in (c,) }""",
        [['float32', False, [], 1.0]]),
    'idx_scalar_none': (
        'lambda x: x[None, None]',
        '(2.0,)',
        '{ lambda ; a:f32[]. let b:f32[1,1] = broadcast_in_dim a in (b,) }',
        "ERR TypeError: 'float' object is not subscriptable"),
    'idx_clip_neg': (
        'lambda x: x[-10:]',
        '(x5,)',
        '{ lambda ; a:f32[5]. let  in (a,) }',
        [['float32', False, [5], [0.0, 1.0, 2.0, 3.0, 4.0]]]),
    'idx_chain': (
        'lambda x: x[::-1][1]',
        '(x5,)',
        """\
{ lambda ; a:f32[5]. let
    b:f32[5] = rev[dimensions=(0,)] a
    c:f32[1] = slice[limit_indices=(2,) start_indices=(1,) strides=None] b
    d:f32[] = squeeze[dimensions=(0,)] c
  in (d,) }""",
        [['float32', False, [], 3.0]]),
}


def _build(name):
    src, args, _, _ = CASES[name]
    return eval(src, _ENV), eval(args, _ENV)


@pytest.mark.parametrize("name", list(CASES))
def test_jaxpr_text(name):
    fn, args = _build(name)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            text = str(make_jaxpr(fn)(*args))
    except Exception as e:  # noqa: BLE001 - some cases record JAX's error
        text = f"ERR {type(e).__name__}: {e}"
    need = _needs(name)
    if need is not None and text != CASES[name][2]:
        pytest.xfail(f"needs lax.{need[0]}: {need[1]}")
    assert text == CASES[name][2]


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c[3] is not None])
def test_eager_outputs(name):
    fn, args = _build(name)
    args = tuple(jnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args)
    check_outputs(run(fn, args), CASES[name][3])
