"""Reductions, argmax/argmin and cumulative reductions: values against NumPy (float64 or
exact Python integers), dtypes and weak types, jaxpr text recorded from JAX 0.10.2,
NaN and signed-zero handling as JAX shows it, and JAX's error messages."""
import json
import os
import re

import numpy as np
import pytest

import transpile
from transpile import lax
from transpile.jit import make_jaxpr

from subnormal_extrema_cases import cases, operands

DTYPES = [np.bool_, np.int8, np.int32, np.uint8, np.uint32, np.float16, np.float32]
NUMERIC = [d for d in DTYPES if d != np.bool_]
INTEGRAL = [np.bool_, np.int8, np.int32, np.uint8, np.uint32]
RTOL = {np.dtype(np.float16): 2e-2, np.dtype(np.float32): 2e-5}

# (shape, axes): 0-d, 0-size and size-1 dims included.
SHAPES_AXES = [((), ()), ((5,), (0,)), ((2, 3), (1,)), ((2, 3), (0, 1)), ((2, 3), (1, 0)),
               ((2, 3, 4), (0, 2)), ((1, 4), (0,)), ((0, 3), (1,)), ((2, 3), ())]


def rand(shape, dtype, seed=0, small=False):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind == "u":
        return rng.integers(0, 4 if small else 200, shape).astype(dt)
    if dt.kind == "i":
        return rng.integers(-3 if small else -100, 4 if small else 100, shape).astype(dt)
    if small:
        return rng.uniform(0.5, 1.5, shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def wrap(values, dtype):
    """Exact Python-integer results reduced modulo 2**bits into ``dtype``."""
    dt = np.dtype(dtype)
    bits = dt.itemsize * 8
    flat = [int(v) % (1 << bits) for v in np.asarray(values, dtype=object).reshape(-1)]
    if dt.kind == "i":
        flat = [v - (1 << bits) if v >= 1 << (bits - 1) else v for v in flat]
    return np.array(flat, dtype=dt).reshape(np.shape(values))


def check(got, expected, dtype):
    got = np.asarray(got)
    assert got.dtype == np.dtype(dtype)
    assert got.shape == np.shape(expected)
    if np.dtype(dtype).kind == "f":
        np.testing.assert_allclose(got.astype(np.float64), expected,
                                   rtol=RTOL[np.dtype(dtype)], atol=1e-6)
    else:
        np.testing.assert_array_equal(got, expected)


def ref_reduce(op, x, axes):
    axes = tuple(axes)
    if x.dtype.kind == "f":
        fn = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min}[op]
        return fn(x.astype(np.float64), axis=axes) if axes else x.astype(np.float64)
    if op in ("max", "min"):
        return (np.max if op == "max" else np.min)(x, axis=axes) if axes else x
    obj = x.astype(object)
    if not axes:
        return x
    out = (np.sum if op == "sum" else np.prod)(obj, axis=axes)
    return wrap(out, x.dtype)


@pytest.mark.parametrize("dtype", NUMERIC, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,axes", SHAPES_AXES, ids=str)
@pytest.mark.parametrize("op", ["sum", "prod", "max", "min"])
def test_reduce_numeric(op, shape, axes, dtype):
    x = rand(shape, dtype, small=(op == "prod"))
    fn = {"sum": lax.reduce_sum, "prod": lax.reduce_prod, "max": lax.reduce_max,
          "min": lax.reduce_min}[op]
    if op in ("max", "min") and 0 in [shape[a] for a in axes]:
        return  # identities are checked in test_empty_identities
    out = fn(x, axes)
    assert out.weak_type is False
    check(out, ref_reduce(op, x, axes), dtype)


@pytest.mark.parametrize("shape,axes", SHAPES_AXES, ids=str)
@pytest.mark.parametrize("op", ["max", "min", "and", "or", "xor"])
def test_reduce_bool(op, shape, axes):
    x = rand(shape, np.bool_)
    fn = {"max": lax.reduce_max, "min": lax.reduce_min, "and": lax.reduce_and,
          "or": lax.reduce_or, "xor": lax.reduce_xor}[op]
    ref = {"max": np.any, "min": np.all, "and": np.all, "or": np.any,
           "xor": lambda v, axis: np.sum(v, axis=axis) % 2 == 1}[op]
    check(fn(x, axes), ref(x, axis=axes) if axes else x, np.bool_)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint8, np.uint32],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,axes", SHAPES_AXES, ids=str)
@pytest.mark.parametrize("op", ["and", "or", "xor"])
def test_reduce_bitwise(op, shape, axes, dtype):
    x = rand(shape, dtype)
    fn = {"and": lax.reduce_and, "or": lax.reduce_or, "xor": lax.reduce_xor}[op]
    py = {"and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b}[op]
    start = {"and": -1, "or": 0, "xor": 0}[op]
    moved = np.moveaxis(x, axes, list(range(len(axes)))) if axes else x[None]
    k = len(axes) or 1
    lead = int(np.prod(moved.shape[:k]))
    flat = moved.reshape((lead,) + moved.shape[k:]).astype(object)
    acc = np.full(flat.shape[1:], start, dtype=object)
    for row in flat:
        acc = np.frompyfunc(py, 2, 1)(acc, row)
    check(fn(x, axes), wrap(acc, dtype), dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_empty_identities(dtype):
    dt = np.dtype(dtype)
    x = np.zeros((0, 3), dt)
    if dt.kind == "f":
        expect = {"max": -np.inf, "min": np.inf, "sum": 0, "prod": 1}
    elif dt.kind == "b":
        expect = {"max": False, "min": True, "and": True, "or": False, "xor": False}
    else:
        info = np.iinfo(dt)
        expect = {"max": info.min, "min": info.max, "sum": 0, "prod": 1,
                  "and": -1 if dt.kind == "i" else info.max, "or": 0, "xor": 0}
    for op, value in expect.items():
        out = getattr(lax, f"reduce_{op}")(x, (0,))
        check(out, np.full(3, value, dt), dt)


def test_integer_wraparound():
    check(lax.reduce_sum(np.full((100,), 100, np.int8), (0,)), np.int8(16), np.int8)
    check(lax.reduce_prod(np.full((10,), 3, np.uint8), (0,)), np.uint8(169), np.uint8)
    check(lax.cumprod(np.full((10,), 3, np.int8)),
          np.array([3, 9, 27, 81, -13, -39, -117, -95, -29, -87], np.int8), np.int8)


def test_float16_accumulates_wide():
    # XLA sums float16 in float32: 5000 ones give 5000, not 2048.
    check(lax.reduce_sum(np.ones(5000, np.float16), (0,)), np.float64(5000), np.float16)
    assert float(np.asarray(lax.cumsum(np.ones(3000, np.float16)))[-1]) == 3000.0


def test_nan_and_signed_zero():
    nan = np.float32(np.nan)
    a = np.array([1, nan, 3, nan], np.float32)
    assert np.isnan(np.asarray(lax.reduce_max(a, (0,))))
    assert np.isnan(np.asarray(lax.reduce_min(a, (0,))))
    np.testing.assert_array_equal(np.asarray(lax.cummax(a)), [1, nan, nan, nan])
    np.testing.assert_array_equal(np.asarray(lax.cummin(a)), [1, nan, nan, nan])
    np.testing.assert_array_equal(np.asarray(lax.cummax(a, reverse=True)), [nan] * 4)
    # JAX orders -0.0 below 0.0 in max/min, whatever the element order.
    for z in ([-0.0, 0.0], [0.0, -0.0]):
        z = np.array(z, np.float32)
        assert not np.signbit(np.asarray(lax.reduce_max(z, (0,))))
        assert np.signbit(np.asarray(lax.reduce_min(z, (0,))))
    np.testing.assert_array_equal(np.signbit(np.asarray(lax.cummax(np.array([-0.0, 0.0], np.float32)))), [True, False])
    np.testing.assert_array_equal(np.signbit(np.asarray(lax.cummin(np.array([0.0, -0.0], np.float32)))), [False, True])
    assert np.signbit(np.asarray(lax.reduce_max(np.array([-1.0, -0.0], np.float32), (0,))))


# --- argmax / argmin ----------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,axis", [((5,), 0), ((2, 3), 0), ((2, 3), 1), ((1, 4), 0),
                                        ((3, 0), 0), ((2, 3, 4), 2)], ids=str)
@pytest.mark.parametrize("which", ["argmax", "argmin"])
def test_argminmax(which, shape, axis, dtype):
    x = rand(shape, dtype)
    out = getattr(lax, which)(x, axis, np.int32)
    ref = getattr(np, which)(x.astype(np.float64), axis=axis)
    assert out.weak_type is False
    check(out, ref, np.int32)


def test_argminmax_nan_ties_and_index_dtype():
    nan = np.float32(np.nan)
    a = np.array([1, nan, 3, nan], np.float32)
    assert int(np.asarray(lax.argmax(a, 0, np.int32))) == 1
    assert int(np.asarray(lax.argmin(a, 0, np.int32))) == 1
    assert int(np.asarray(lax.argmin(np.array([-np.inf, nan], np.float32), 0, np.int32))) == 1
    b = np.array([3, 1, 3, 1], np.float32)
    assert int(np.asarray(lax.argmax(b, 0, np.int32))) == 0
    assert int(np.asarray(lax.argmin(b, 0, np.int32))) == 1
    z = np.array([-0.0, 0.0], np.float32)  # equal: the first wins
    assert int(np.asarray(lax.argmax(z, 0, np.int32))) == 0
    assert int(np.asarray(lax.argmin(z[::-1].copy(), 0, np.int32))) == 0
    assert np.asarray(lax.argmax(b, 0, np.uint8)).dtype == np.uint8


# --- cumulative ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", NUMERIC, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,axis", [((5,), 0), ((2, 3), 1), ((2, 3), 0), ((1, 4), 0),
                                        ((0, 3), 0), ((3, 0), 1)], ids=str)
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummax", "cummin"])
def test_cumulative(op, shape, axis, reverse, dtype):
    x = rand(shape, dtype, small=(op == "cumprod"))
    out = getattr(lax, op)(x, axis=axis, reverse=reverse)
    src = np.flip(x, axis) if reverse else x
    if np.dtype(dtype).kind == "f":
        ref = {"cumsum": np.cumsum, "cumprod": np.cumprod, "cummax": np.maximum.accumulate,
               "cummin": np.minimum.accumulate}[op](src.astype(np.float64), axis=axis)
    elif op in ("cumsum", "cumprod"):
        ref = wrap((np.cumsum if op == "cumsum" else np.cumprod)(src.astype(object), axis=axis),
                   dtype)
    else:
        ref = (np.maximum if op == "cummax" else np.minimum).accumulate(src, axis=axis)
    ref = np.flip(ref, axis) if reverse else ref
    assert out.weak_type is False
    check(out, ref, dtype)


# --- weak types ---------------------------------------------------------------------

W = lax.broadcast_in_dim(1.0, (2, 3), ())
WI = lax.broadcast_in_dim(2, (2, 3), ())


@pytest.mark.parametrize("fn,expect", [
    (lambda: lax.reduce_sum(W, (0,)), True),
    (lambda: lax.reduce_prod(W, (0,)), True),
    (lambda: lax.reduce_max(W, (0,)), True),
    (lambda: lax.reduce_min(W, (0,)), True),
    (lambda: lax.reduce_and(WI, (0,)), False),
    (lambda: lax.reduce_or(WI, (0,)), False),
    (lambda: lax.reduce_xor(WI, (0,)), False),
    (lambda: lax.argmax(W, 0, np.int32), False),
    (lambda: lax.cumsum(W), True),
    (lambda: lax.cumprod(W), True),
    (lambda: lax.cummax(W), True),
    (lambda: lax.cummin(W), True),
])
def test_weak_type(fn, expect):
    assert fn().weak_type is expect


# --- jaxpr text (recorded from JAX 0.10.2) --------------------------------------------

F23 = np.ones((2, 3), np.float32)
I23 = np.ones((2, 3), np.int32)


def _one_line(prim, params, out="f32[3]", arg="f32[2,3]"):
    return f"{{ lambda ; a:{arg}. let b:{out} = {prim}[{params}] a in (b,) }}"


JAXPRS = [
    (lambda x: lax.reduce_sum(x, (0,)), F23,
     "{ lambda ; a:f32[2,3]. let\n    b:f32[3] = reduce_sum[axes=(0,) out_sharding=None] a\n"
     "  in (b,) }"),
    (lambda x: lax.reduce_sum(x, (1, 0)), F23,
     "{ lambda ; a:f32[2,3]. let\n    b:f32[] = reduce_sum[axes=(1, 0) out_sharding=None] a\n"
     "  in (b,) }"),
    (lambda x: lax.reduce_sum(x, ()), F23,
     "{ lambda ; a:f32[2,3]. let\n    b:f32[2,3] = reduce_sum[axes=() out_sharding=None] a\n"
     "  in (b,) }"),
    (lambda x: lax.reduce_sum(x, np.array([0])), F23,
     "{ lambda ; a:f32[2,3]. let\n    b:f32[3] = reduce_sum[axes=(np.int64(0),) "
     "out_sharding=None] a\n  in (b,) }"),
    (lambda x: lax.reduce_max(x, (0,)), F23, _one_line("reduce_max", "axes=(0,)")),
    (lambda x: lax.reduce_min(x, (0,)), F23, _one_line("reduce_min", "axes=(0,)")),
    (lambda x: lax.reduce_prod(x, (0,)), F23, _one_line("reduce_prod", "axes=(0,)")),
    (lambda x: lax.reduce_and(x, (1,)), I23,
     _one_line("reduce_and", "axes=(1,)", "i32[2]", "i32[2,3]")),
    (lambda x: lax.reduce_or(x, (0,)), F23 > 0,
     _one_line("reduce_or", "axes=(0,)", "bool[3]", "bool[2,3]")),
    (lambda x: lax.reduce_xor(x, (0,)), F23 > 0,
     _one_line("reduce_xor", "axes=(0,)", "bool[3]", "bool[2,3]")),
    (lambda x: lax.argmax(x, 0, np.int32), F23,
     "{ lambda ; a:f32[2,3]. let\n    b:i32[3] = argmax[axes=(0,) index_dtype=int32] a\n"
     "  in (b,) }"),
    (lambda x: lax.argmin(x, 1, np.int32), F23,
     "{ lambda ; a:f32[2,3]. let\n    b:i32[2] = argmin[axes=(1,) index_dtype=int32] a\n"
     "  in (b,) }"),
    (lambda x: lax.argmax(x, 0, np.uint8), F23,
     "{ lambda ; a:f32[2,3]. let\n    b:u8[3] = argmax[axes=(0,) index_dtype=uint8] a\n"
     "  in (b,) }"),
    (lambda x: lax.cumsum(x), F23,
     "{ lambda ; a:f32[2,3]. let b:f32[2,3] = cumsum[axis=0 reverse=False] a in (b,) }"),
    (lambda x: lax.cumsum(x, axis=1, reverse=True), F23,
     "{ lambda ; a:f32[2,3]. let b:f32[2,3] = cumsum[axis=1 reverse=True] a in (b,) }"),
    (lambda x: lax.cumprod(x), F23,
     "{ lambda ; a:f32[2,3]. let\n    b:f32[2,3] = cumprod[axis=0 reverse=False] a\n"
     "  in (b,) }"),
    (lambda x: lax.cummax(x), F23,
     "{ lambda ; a:f32[2,3]. let b:f32[2,3] = cummax[axis=0 reverse=False] a in (b,) }"),
    (lambda x: lax.cummin(x, axis=1, reverse=True), F23,
     "{ lambda ; a:f32[2,3]. let b:f32[2,3] = cummin[axis=1 reverse=True] a in (b,) }"),
    (lambda: lax.reduce_sum(1.0, ()), None,
     "{ lambda ; . let\n    a:f32[] = reduce_sum[axes=() out_sharding=None] 1.0:f32[]\n"
     "  in (a,) }"),
]


@pytest.mark.parametrize("fn,arg,expected", JAXPRS)
def test_jaxpr_text(fn, arg, expected):
    args = () if arg is None else (arg,)
    assert str(make_jaxpr(fn)(*args)) == expected


# --- errors ---------------------------------------------------------------------------

ERRORS = [
    (lambda: lax.reduce_sum(F23, (-1,)), ValueError,
     "reduction axes (-1,) contains out-of-bounds indices for float32[2,3]."),
    (lambda: lax.reduce_max(F23, (2,)), ValueError,
     "reduction axes (2,) contains out-of-bounds indices for float32[2,3]."),
    (lambda: lax.reduce_sum(F23, (0, 0)), ValueError,
     "duplicate value in 'axes' of reduction: (0, 0)"),
    (lambda: lax.reduce_sum(F23 > 0, (0,)), TypeError,
     "reduce_sum does not accept dtype bool. Accepted dtypes are subtypes of number."),
    (lambda: lax.reduce_prod(F23 > 0, (0,)), TypeError,
     "reduce_prod does not accept dtype bool. Accepted dtypes are subtypes of number."),
    (lambda: lax.reduce_and(F23, (0,)), TypeError,
     "logical reduction requires operand dtype bool or int, got float32."),
    (lambda: lax.argmax(F23, -1, np.int32), ValueError, "Invalid axis -1 for operand shape (2, 3)"),
    (lambda: lax.argmin(F23, 2, np.int32), ValueError, "Invalid axis 2 for operand shape (2, 3)"),
    (lambda: lax.argmax(np.float32(1), 0, np.int32), ValueError,
     "Invalid axis 0 for operand shape ()"),
    (lambda: lax.argmax(F23, 0, np.float32), TypeError,
     "index_dtype must be an integer type, but got float32"),
    (lambda: lax.argmax(np.ones((0, 3), np.float32), 0, np.int32), ValueError,
     "argmin and argmax require non-empty reduced dimension. operand.shape=(0, 3) axis=0"),
    (lambda: lax.cumsum(F23, axis=-1), ValueError, "XLA operations do not allow negative axes"),
    (lambda: lax.cumsum(F23, axis=2), ValueError,
     "axis 2 is out of bounds for array of shape (2, 3)"),
    (lambda: lax.cummax(np.float32(1)), ValueError,
     "axis 0 is out of bounds for array of shape ()"),
    (lambda: lax.cumsum(F23 > 0), TypeError,
     "cumsum does not accept dtype bool. Accepted dtypes are subtypes of number."),
    (lambda: lax.cummin(F23 > 0), TypeError,
     "cummin does not accept dtype bool. Accepted dtypes are subtypes of number."),
]


@pytest.mark.parametrize("fn,exc,message", ERRORS)
def test_errors(fn, exc, message):
    with pytest.raises(exc, match="^" + re.escape(message) + "$"):
        fn()
    with pytest.raises(exc, match="^" + re.escape(message) + "$"):
        make_jaxpr(fn)()


def test_index_dtype_int64_truncates_with_warning():
    with pytest.warns(UserWarning, match="requested in argmax"):
        out = lax.argmax(F23, 0, np.int64)
    assert np.asarray(out).dtype == np.int32


# ---------------------------------------------------------------------------------------
# Subnormal operands of the extrema: zeros of their sign, eager and under jit, as JAX's
# (recorded by tools/record_subnormal_extrema.py)

def _subnormal_record():
    with open(os.path.join(os.path.dirname(__file__), "data", "subnormal_extrema.json"),
              encoding="utf-8") as f:
        return json.load(f)


@pytest.mark.parametrize("dname", ["float32", "float64"])
@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin", "cummax", "cummin"])
def test_extrema_read_subnormals_as_zeros(name, dname):
    record = _subnormal_record()
    with transpile.enable_x64(True):
        x = operands()[dname]
        fn = cases(lax)[name]
        for how, f in (("eager", fn), ("jit", transpile.jit(fn))):
            got = np.asarray(f(x))
            want = record[f"{name}/{dname}/{how}"]
            assert str(got.dtype) == want["dtype"]
            assert got.view(f"u{got.dtype.itemsize}").reshape(-1).tolist() == want["bits"], \
                (name, dname, how, got)
