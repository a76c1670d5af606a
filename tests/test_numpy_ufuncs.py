"""Elementwise jnp functions against NumPy, over dtypes and shapes.

Shapes cover 0-d, 0-size, plain and broadcasting operands; the reference is NumPy in
float64 (integer functions in the operand dtype) cast to the dtype transpile returns.
The result dtypes themselves are checked against JAX in test_numpy_dtypes.py.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import transpile.numpy as jnp
from transpile.jit import jit

SHAPES = [(), (0,), (3,), (2, 3)]
PAIR_SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 3)), ((0,), (0,)),
               ((0, 3), (3,)), ((2, 3), ())]


def _values(dtype, shape, low=-3.0, high=3.0, seed=0):
    rng = np.random.default_rng(seed + len(shape))
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind == "u":
        return rng.integers(0, max(int(high), 1) + 1, shape).astype(dtype)
    if dtype.kind == "i":
        return rng.integers(int(low), int(high) + 1, shape).astype(dtype)
    return rng.uniform(low, high, shape).astype(dtype)


def _tol(dtype):
    return {"float16": 2e-3, "float32": 3e-6}.get(np.dtype(dtype).name, 0)


def _check(got, ref, *, exact=False):
    got_np = np.asarray(got)
    assert got_np.shape == np.shape(ref)
    ref = np.asarray(ref).astype(got_np.dtype) if got_np.dtype.kind != "f" else ref
    if exact or got_np.dtype.kind != "f":
        np.testing.assert_array_equal(got_np, ref)
    else:
        tol = _tol(got_np.dtype)
        np.testing.assert_allclose(got_np.astype(np.float64), np.asarray(ref, np.float64),
                                   rtol=tol, atol=tol, equal_nan=True)


def _f64(x):
    return np.asarray(x, np.float64)


# name -> (numpy reference on float64/original values, dtypes, input range)
UNARY = {
    "negative": (np.negative, ["float32", "int32", "int8"], (-3, 3)),
    "positive": (lambda x: x, ["float32", "int32", "bool"], (-3, 3)),
    "abs": (np.abs, ["float32", "int32", "uint8", "bool", "float16"], (-3, 3)),
    "sign": (np.sign, ["float32", "int32", "uint8"], (-3, 3)),
    "floor": (np.floor, ["float32", "int32", "float16"], (-3, 3)),
    "ceil": (np.ceil, ["float32", "int32"], (-3, 3)),
    "round": (np.round, ["float32", "int32"], (-3, 3)),
    "rint": (np.rint, ["float32", "int32", "bool"], (-3, 3)),
    "trunc": (np.trunc, ["float32", "int32"], (-3, 3)),
    "exp": (np.exp, ["float32", "int32", "float16", "bool"], (-3, 3)),
    "exp2": (np.exp2, ["float32", "int32"], (-3, 3)),
    "expm1": (np.expm1, ["float32"], (-3, 3)),
    "log": (np.log, ["float32", "int32", "uint8"], (0.1, 5)),
    "log2": (np.log2, ["float32", "uint8"], (0.1, 5)),
    "log10": (np.log10, ["float32", "float16"], (0.1, 5)),
    "log1p": (np.log1p, ["float32"], (-0.5, 5)),
    "sqrt": (np.sqrt, ["float32", "int32", "float16"], (0, 5)),
    "cbrt": (np.cbrt, ["float32"], (-5, 5)),
    "square": (np.square, ["float32", "int32", "uint8", "bool"], (-3, 3)),
    "reciprocal": (np.reciprocal, ["float32"], (0.5, 5)),
    "sin": (np.sin, ["float32", "int32", "float16"], (-3, 3)),
    "cos": (np.cos, ["float32"], (-3, 3)),
    "tan": (np.tan, ["float32"], (-1, 1)),
    "arcsin": (np.arcsin, ["float32"], (-0.9, 0.9)),
    "arccos": (np.arccos, ["float32"], (-0.9, 0.9)),
    "arctan": (np.arctan, ["float32", "int32"], (-3, 3)),
    "sinh": (np.sinh, ["float32"], (-3, 3)),
    "cosh": (np.cosh, ["float32"], (-3, 3)),
    "tanh": (np.tanh, ["float32"], (-3, 3)),
    "arcsinh": (np.arcsinh, ["float32"], (-3, 3)),
    "arccosh": (np.arccosh, ["float32"], (1, 5)),
    "arctanh": (np.arctanh, ["float32"], (-0.9, 0.9)),
    "isnan": (np.isnan, ["float32", "int32"], (-3, 3)),
    "isinf": (np.isinf, ["float32", "int32"], (-3, 3)),
    "isfinite": (np.isfinite, ["float32", "bool"], (-3, 3)),
    "signbit": (np.signbit, ["float32", "int32", "uint8", "bool"], (-3, 3)),
    "deg2rad": (np.deg2rad, ["float32", "int32"], (-300, 300)),
    "rad2deg": (np.rad2deg, ["float32"], (-3, 3)),
    "logical_not": (np.logical_not, ["float32", "int32", "bool"], (-1, 1)),
    "invert": (np.invert, ["int32", "uint8", "bool"], (-3, 3)),
    "conj": (np.conj, ["float32", "int32"], (-3, 3)),
    "real": (np.real, ["float32"], (-3, 3)),
    "imag": (np.imag, ["float32", "int32"], (-3, 3)),
}

UNARY_PARAMS = [(name, dt, shape) for name, (_, dts, _) in UNARY.items() for dt in dts
                for shape in SHAPES]


@pytest.mark.parametrize("name,dtype,shape", UNARY_PARAMS)
def test_unary_vs_numpy(name, dtype, shape):
    ref_fn, _, (lo, hi) = UNARY[name]
    x = _values(dtype, shape, lo, hi)
    got = getattr(jnp, name)(x)
    with np.errstate(all="ignore"):
        float_out = np.asarray(got).dtype.kind == "f"
        src = _f64(x) if float_out and name not in ("signbit", "invert") else x
        ref = ref_fn(src)
    _check(got, ref)


# name -> (numpy reference, dtype pairs, input range, rhs kept away from zero)
BINARY = {
    "add": (np.add, [("float32", "float32"), ("int32", "uint8"), ("bool", "bool")], False),
    "subtract": (np.subtract, [("float32", "int32"), ("int8", "int8")], False),
    "multiply": (np.multiply, [("float32", "float32"), ("bool", "bool"), ("uint8", "int32")],
                 False),
    "divide": (np.divide, [("float32", "float32"), ("int32", "int32")], True),
    "floor_divide": (np.floor_divide, [("float32", "float32"), ("int32", "int32"),
                                       ("uint8", "uint8")], True),
    "remainder": (np.remainder, [("float32", "float32"), ("int32", "int32"),
                                 ("uint8", "uint8")], True),
    "fmod": (np.fmod, [("float32", "float32"), ("int32", "int32")], True),
    "power": (np.power, [("float32", "float32"), ("int32", "int32"), ("float32", "int32")],
              False),
    "maximum": (np.maximum, [("float32", "float32"), ("int32", "bool")], False),
    "minimum": (np.minimum, [("float32", "int32"), ("uint8", "uint8")], False),
    "fmax": (np.fmax, [("float32", "float32")], False),
    "fmin": (np.fmin, [("float32", "float32")], False),
    "arctan2": (np.arctan2, [("float32", "float32"), ("int32", "int32")], False),
    "hypot": (np.hypot, [("float32", "float32")], False),
    "logaddexp": (np.logaddexp, [("float32", "float32")], False),
    "copysign": (np.copysign, [("float32", "float32")], False),
    "nextafter": (None, [("float32", "float32")], False),
    "equal": (np.equal, [("float32", "float32"), ("int32", "float32")], False),
    "not_equal": (np.not_equal, [("int32", "int32")], False),
    "less": (np.less, [("float32", "int32")], False),
    "less_equal": (np.less_equal, [("uint8", "int8")], False),
    "greater": (np.greater, [("float32", "float32")], False),
    "greater_equal": (np.greater_equal, [("bool", "bool")], False),
    "logical_and": (np.logical_and, [("float32", "int32"), ("bool", "bool")], False),
    "logical_or": (np.logical_or, [("int32", "int32")], False),
    "logical_xor": (np.logical_xor, [("bool", "float32")], False),
    "bitwise_and": (np.bitwise_and, [("int32", "int32"), ("bool", "bool")], False),
    "bitwise_or": (np.bitwise_or, [("uint8", "uint8")], False),
    "bitwise_xor": (np.bitwise_xor, [("int8", "int32")], False),
    "left_shift": (np.left_shift, [("int32", "int32"), ("uint8", "uint8")], False),
    "right_shift": (np.right_shift, [("int32", "int32"), ("uint8", "uint8")], False),
}

BINARY_PARAMS = [(name, a, b, sa, sb) for name, (_, pairs, _) in BINARY.items()
                 for a, b in pairs for sa, sb in PAIR_SHAPES]


def _binary_inputs(name, a_dt, b_dt, sa, sb, nonzero):
    if name in ("left_shift", "right_shift"):
        return _values(a_dt, sa, 0, 5, seed=1), _values(b_dt, sb, 0, 3, seed=2)
    if name == "power":
        x = _values(a_dt, sa, 0.5 if np.dtype(a_dt).kind == "f" else 0, 3, seed=1)
        return x, _values(b_dt, sb, 0, 3, seed=2)
    x = _values(a_dt, sa, -3, 3, seed=1)
    y = _values(b_dt, sb, -3, 3, seed=2)
    if nonzero:
        y = np.where(y == 0, np.ones((), y.dtype), y)
    return x, y


@pytest.mark.parametrize("name,a_dt,b_dt,sa,sb", BINARY_PARAMS)
def test_binary_vs_numpy(name, a_dt, b_dt, sa, sb):
    ref_fn, _, nonzero = BINARY[name]
    x, y = _binary_inputs(name, a_dt, b_dt, sa, sb, nonzero)
    got = getattr(jnp, name)(x, y)
    out_dt = np.asarray(got).dtype
    with np.errstate(all="ignore"):
        if ref_fn is None:  # nextafter is defined in the operand's own precision
            ref = np.nextafter(x.astype(out_dt), y.astype(out_dt))
        elif out_dt.kind == "f" and name != "copysign":
            ref = ref_fn(_f64(x), _f64(y))
        else:
            ref = ref_fn(x.astype(out_dt) if out_dt.kind != "b" else x,
                         y.astype(out_dt) if out_dt.kind != "b" else y)
    _check(got, ref)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "arctan2", "remainder",
                                  "floor_divide", "power", "hypot", "less"])
def test_binary_same_under_jit(name):
    x = _values("float32", (2, 3), 0.5, 3, seed=3)
    y = _values("float32", (3,), 0.5, 3, seed=4)
    eager = np.asarray(getattr(jnp, name)(x, y))
    traced = np.asarray(jit(getattr(jnp, name))(x, y))
    np.testing.assert_array_equal(eager, traced)


def test_python_scalars_stay_weak_and_fit():
    assert jnp.add(1, 2.0).weak_type and jnp.add(1, 2.0).dtype == np.float32
    x = jnp.arange(3, dtype=jnp.uint8)
    out = x + 300  # a weak int never widens a strong uint8 (it wraps)
    assert out.dtype == np.uint8
    assert np.asarray(out).tolist() == [44, 45, 46]
    with pytest.raises(OverflowError, match="argument path is y"):
        jnp.ones(3, jnp.int32) + 2 ** 31


@pytest.mark.parametrize("decimals", [0, 1, 2, -1])
def test_round_decimals(decimals):
    x = np.array([1.25, -2.675, 0.5, 1.5, 123.456], np.float32)
    ref = np.round(x, decimals)  # scaled and rounded in float32, as XLA does
    np.testing.assert_allclose(np.asarray(jnp.round(x, decimals)), ref, rtol=1e-6, atol=1e-6)


def test_special_values():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0], np.float32)
        assert np.asarray(jnp.isnan(x)).tolist() == [True, False, False, False, False]
        assert np.asarray(jnp.isinf(x)).tolist() == [False, True, True, False, False]
        assert np.asarray(jnp.isposinf(x)).tolist() == [False, True, False, False, False]
        assert np.asarray(jnp.isneginf(x)).tolist() == [False, False, True, False, False]
        assert np.asarray(jnp.signbit(x[3:])).tolist() == [False, True]
        fmax = jnp.fmax(np.array([np.nan, 1.0], np.float32), np.array([2.0, np.nan],
                                                                       np.float32))
        assert np.asarray(fmax).tolist() == [2.0, 1.0]
