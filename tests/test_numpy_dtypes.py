"""Result dtypes and weak types of jnp functions for every operand kind, vs JAX 0.10.2.

``OPERANDS`` are length-2 arrays of each dtype plus the Python scalars 1.5 and 2.
``UNARY``/``BINARY`` map a function to the result of each operand (pair): the dtype
name, prefixed with ``~`` when weakly typed, or ``E:<ErrorType>``; recorded by calling
the same functions under JAX 0.10.2 (CPU, x64 off).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import transpile.numpy as jnp

OPERANDS = {"f32": np.array([0.5, 1.5], np.float32), "f16": np.array([0.5, 1.5], np.float16),
            "i32": np.array([1, 2], np.int32), "u8": np.array([1, 2], np.uint8),
            "i8": np.array([1, 2], np.int8), "b": np.array([True, False]), "pyf": 1.5,
            "pyi": 2, "u32": np.array([1, 2], np.uint32),
            "i16": np.array([1, 2], np.int16)}


def _code(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = fn()
    except Exception as e:  # noqa: BLE001 - the error type is the recorded result
        return "E:" + type(e).__name__
    return ("~" if getattr(r, "weak_type", False) else "") + str(r.dtype)


# function -> the result for each operand of OPERANDS, in order (space separated);
# recorded from JAX 0.10.2
UNARY = {
    'negative': 'float32 float16 int32 uint8 int8 E:TypeError ~float32 ~int32 uint32 int16',
    'positive': 'float32 float16 int32 uint8 int8 bool ~float32 ~int32 uint32 int16',
    'abs': 'float32 float16 int32 uint8 int8 bool ~float32 ~int32 uint32 int16',
    'sign': 'float32 float16 int32 uint8 int8 E:TypeError ~float32 ~int32 uint32 int16',
    'floor': 'float32 float16 int32 uint8 int8 bool ~float32 ~int32 uint32 int16',
    'ceil': 'float32 float16 int32 uint8 int8 bool ~float32 ~int32 uint32 int16',
    'round': 'float32 float16 int32 uint8 int8 E:ValueError ~float32 ~int32 uint32 int16',
    'rint': 'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32',
    'trunc': 'float32 float16 int32 uint8 int8 bool ~float32 ~int32 uint32 int16',
    'exp': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'exp2': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'expm1': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'log': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'log2': 'float32 float16 float32 float32 float32 float32 float32 float32 float32 float32',
    'log10': 'float32 float16 float32 float32 float32 float32 float32 float32 float32 float32',
    'log1p': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'sqrt': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'cbrt': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'square': 'float32 float16 int32 uint8 int8 int32 ~float32 ~int32 uint32 int16',
    'reciprocal': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'sin': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'cos': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'tan': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'arcsin': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'arccos': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'arctan': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'sinh': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'cosh': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'tanh': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'arcsinh': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'arccosh': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'arctanh': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'isnan': 'bool bool bool bool bool bool ~bool ~bool bool bool',
    'isinf': 'bool bool bool bool bool bool bool bool bool bool',
    'isfinite': 'bool bool bool bool bool bool ~bool bool bool bool',
    'signbit': 'bool bool bool bool bool bool bool bool bool bool',
    'deg2rad': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'rad2deg': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'logical_not': 'bool bool bool bool bool bool ~bool ~bool bool bool',
    'invert': 'E:TypeError E:TypeError int32 uint8 int8 bool E:TypeError ~int32 uint32 int16',
    'conj': 'float32 float16 int32 uint8 int8 bool ~float32 ~int32 uint32 int16',
    'real': 'float32 float16 int32 uint8 int8 bool ~float32 ~int32 uint32 int16',
    'imag': 'float32 float16 int32 uint8 int8 bool ~float32 ~int32 uint32 int16',
    'around': 'float32 float16 int32 uint8 int8 E:ValueError ~float32 ~int32 uint32 int16',
    'absolute': 'float32 float16 int32 uint8 int8 bool ~float32 ~int32 uint32 int16',
    'asin': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'acos': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'atan': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'asinh': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'acosh': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'atanh': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'radians': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'degrees': 'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32',
    'bitwise_not': 'E:TypeError E:TypeError int32 uint8 int8 bool E:TypeError ~int32 uint32 int16',
    'conjugate': 'float32 float16 int32 uint8 int8 bool ~float32 ~int32 uint32 int16',
    'isposinf': 'bool bool bool bool bool bool bool bool bool bool',
    'isneginf': 'bool bool bool bool bool bool bool bool bool bool',
    'sum': 'float32 float16 int32 uint32 int32 int32 float32 int32 uint32 int32',
    'prod': 'float32 float16 int32 uint32 int32 int32 float32 int32 uint32 int32',
    'max': 'float32 float16 int32 uint8 int8 bool float32 int32 uint32 int16',
    'min': 'float32 float16 int32 uint8 int8 bool float32 int32 uint32 int16',
    'mean': 'float32 float16 float32 float32 float32 float32 float32 float32 float32 float32',
    'var': 'float32 float16 float32 float32 float32 float32 float32 float32 float32 float32',
    'std': 'float32 float16 float32 float32 float32 float32 float32 float32 float32 float32',
    'any': 'bool bool bool bool bool bool bool bool bool bool',
    'all': 'bool bool bool bool bool bool bool bool bool bool',
    'argmax': 'int32 int32 int32 int32 int32 int32 int32 int32 int32 int32',
    'argmin': 'int32 int32 int32 int32 int32 int32 int32 int32 int32 int32',
    'cumsum': 'float32 float16 int32 uint8 int8 int32 float32 int32 uint32 int16',
    'cumprod': 'float32 float16 int32 uint8 int8 int32 float32 int32 uint32 int16',
    'sort': 'float32 float16 int32 uint8 int8 bool E:ValueError E:ValueError uint32 int16',
    'argsort': 'int32 int32 int32 int32 int32 int32 E:ValueError E:ValueError int32 int32',
    'ravel': 'float32 float16 int32 uint8 int8 bool ~float32 ~int32 uint32 int16',
    'flip': 'float32 float16 int32 uint8 int8 bool ~float32 ~int32 uint32 int16',
    'count_nonzero': 'int32 int32 int32 int32 int32 int32 int32 int32 int32 int32',
}

# function -> the result for each pair (x, y) of OPERANDS, x-major (space separated);
# recorded from JAX 0.10.2. "where1" is jnp.where(mask, x, y).
BINARY = {
    'add': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 bool ~float32 ~int32 '
     'uint32 int16 float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 ~float32 float32 float16 int32 uint8 int8 ~int32 ~float32 ~int32 uint32 '
     'int16 float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 float32 '
     'float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'subtract': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 E:TypeError ~float32 '
     '~int32 uint32 int16 float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 ~float32 ~float32 float32 float16 int32 uint8 int8 ~int32 ~float32 ~int32 '
     'uint32 int16 float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 '
     'float32 float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'multiply': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 bool ~float32 ~int32 '
     'uint32 int16 float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 ~float32 float32 float16 int32 uint8 int8 ~int32 ~float32 ~int32 uint32 '
     'int16 float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 float32 '
     'float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'divide': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32 '
     'float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 float32 float16 float32 float32 float32 ~float32 ~float32 ~float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32'),
    'true_divide': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32 '
     'float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 float32 float16 float32 float32 float32 ~float32 ~float32 ~float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32'),
    'floor_divide': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 int32 ~float32 '
     '~int32 uint32 int16 float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 ~float32 ~float32 float32 float16 int32 uint8 int8 ~int32 ~float32 ~int32 '
     'uint32 int16 float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 '
     'float32 float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'remainder': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 int32 ~float32 '
     '~int32 uint32 int16 float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 ~float32 ~float32 float32 float16 int32 uint8 int8 ~int32 ~float32 ~int32 '
     'uint32 int16 float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 '
     'float32 float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'mod': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 int32 ~float32 '
     '~int32 uint32 int16 float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 ~float32 ~float32 float32 float16 int32 uint8 int8 ~int32 ~float32 ~int32 '
     'uint32 int16 float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 '
     'float32 float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'power': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 int32 ~float32 int32 '
     'uint32 int16 float32 float16 float32 float32 float32 ~float32 ~float32 ~float32 '
     'float32 float32 float32 float16 int32 uint8 int8 int32 ~float32 ~int32 uint32 int16 '
     'float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 float32 '
     'float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'maximum': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 bool ~float32 ~int32 '
     'uint32 int16 float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 ~float32 float32 float16 int32 uint8 int8 ~int32 ~float32 ~int32 uint32 '
     'int16 float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 float32 '
     'float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'minimum': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 bool ~float32 ~int32 '
     'uint32 int16 float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 ~float32 float32 float16 int32 uint8 int8 ~int32 ~float32 ~int32 uint32 '
     'int16 float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 float32 '
     'float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'fmax': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 bool ~float32 ~int32 '
     'uint32 int16 float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 ~float32 float32 float16 int32 uint8 int8 ~int32 ~float32 ~int32 uint32 '
     'int16 float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 float32 '
     'float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'fmin': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 bool ~float32 ~int32 '
     'uint32 int16 float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 ~float32 float32 float16 int32 uint8 int8 ~int32 ~float32 ~int32 uint32 '
     'int16 float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 float32 '
     'float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'arctan2': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32 '
     'float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 float32 float16 float32 float32 float32 ~float32 ~float32 ~float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32'),
    'hypot': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 float32 float32 float32 float32'),
    'logaddexp': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32 '
     'float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 float32 float16 float32 float32 float32 ~float32 ~float32 ~float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32'),
    'equal': ('bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool ~bool bool bool bool bool bool bool '
     'bool bool bool ~bool bool bool bool bool bool bool bool bool bool ~bool bool bool '
     'bool bool bool bool bool bool bool ~bool ~bool bool bool bool bool ~bool ~bool ~bool '
     '~bool ~bool ~bool ~bool ~bool bool bool bool bool bool ~bool ~bool ~bool bool bool '
     'bool bool bool bool bool bool ~bool bool bool bool bool bool bool bool bool bool '
     '~bool bool bool bool'),
    'not_equal': ('bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool ~bool bool bool bool bool bool bool '
     'bool bool bool ~bool bool bool bool bool bool bool bool bool bool ~bool bool bool '
     'bool bool bool bool bool bool bool ~bool ~bool bool bool bool bool ~bool ~bool ~bool '
     '~bool ~bool ~bool ~bool ~bool bool bool bool bool bool ~bool ~bool ~bool bool bool '
     'bool bool bool bool bool bool ~bool bool bool bool bool bool bool bool bool bool '
     '~bool bool bool bool'),
    'less': ('bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool ~bool bool bool bool bool bool bool '
     'bool bool bool ~bool bool bool bool bool bool bool bool bool bool ~bool bool bool '
     'bool bool bool bool bool bool bool ~bool ~bool bool bool bool bool ~bool ~bool ~bool '
     '~bool ~bool ~bool ~bool ~bool bool bool bool bool bool ~bool ~bool ~bool bool bool '
     'bool bool bool bool bool bool ~bool bool bool bool bool bool bool bool bool bool '
     '~bool bool bool bool'),
    'less_equal': ('bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool ~bool bool bool bool bool bool bool '
     'bool bool bool ~bool bool bool bool bool bool bool bool bool bool ~bool bool bool '
     'bool bool bool bool bool bool bool ~bool ~bool bool bool bool bool ~bool ~bool ~bool '
     '~bool ~bool ~bool ~bool ~bool bool bool bool bool bool ~bool ~bool ~bool bool bool '
     'bool bool bool bool bool bool ~bool bool bool bool bool bool bool bool bool bool '
     '~bool bool bool bool'),
    'greater': ('bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool ~bool bool bool bool bool bool bool '
     'bool bool bool ~bool bool bool bool bool bool bool bool bool bool ~bool bool bool '
     'bool bool bool bool bool bool bool ~bool ~bool bool bool bool bool ~bool ~bool ~bool '
     '~bool ~bool ~bool ~bool ~bool bool bool bool bool bool ~bool ~bool ~bool bool bool '
     'bool bool bool bool bool bool ~bool bool bool bool bool bool bool bool bool bool '
     '~bool bool bool bool'),
    'greater_equal': ('bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool ~bool bool bool bool bool bool bool '
     'bool bool bool ~bool bool bool bool bool bool bool bool bool bool ~bool bool bool '
     'bool bool bool bool bool bool bool ~bool ~bool bool bool bool bool ~bool ~bool ~bool '
     '~bool ~bool ~bool ~bool ~bool bool bool bool bool bool ~bool ~bool ~bool bool bool '
     'bool bool bool bool bool bool ~bool bool bool bool bool bool bool bool bool bool '
     '~bool bool bool bool'),
    'logical_and': ('bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool ~bool '
     '~bool bool bool bool bool bool bool bool bool ~bool ~bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool'),
    'logical_or': ('bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool ~bool '
     '~bool bool bool bool bool bool bool bool bool ~bool ~bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool'),
    'logical_xor': ('bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool ~bool '
     '~bool bool bool bool bool bool bool bool bool ~bool ~bool bool bool bool bool bool '
     'bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool bool'),
    'bitwise_and': ('E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError int32 int32 int32 int32 E:TypeError int32 int32 int32 E:TypeError '
     'E:TypeError int32 uint8 int16 uint8 E:TypeError uint8 uint32 int16 E:TypeError '
     'E:TypeError int32 int16 int8 int8 E:TypeError int8 int32 int16 E:TypeError '
     'E:TypeError int32 uint8 int8 bool E:TypeError ~int32 uint32 int16 E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError int32 uint8 int8 ~int32 E:TypeError '
     '~int32 uint32 int16 E:TypeError E:TypeError int32 uint32 int32 uint32 E:TypeError '
     'uint32 uint32 int32 E:TypeError E:TypeError int32 int16 int16 int16 E:TypeError '
     'int16 int32 int16'),
    'bitwise_or': ('E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError int32 int32 int32 int32 E:TypeError int32 int32 int32 E:TypeError '
     'E:TypeError int32 uint8 int16 uint8 E:TypeError uint8 uint32 int16 E:TypeError '
     'E:TypeError int32 int16 int8 int8 E:TypeError int8 int32 int16 E:TypeError '
     'E:TypeError int32 uint8 int8 bool E:TypeError ~int32 uint32 int16 E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError int32 uint8 int8 ~int32 E:TypeError '
     '~int32 uint32 int16 E:TypeError E:TypeError int32 uint32 int32 uint32 E:TypeError '
     'uint32 uint32 int32 E:TypeError E:TypeError int32 int16 int16 int16 E:TypeError '
     'int16 int32 int16'),
    'bitwise_xor': ('E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError int32 int32 int32 int32 E:TypeError int32 int32 int32 E:TypeError '
     'E:TypeError int32 uint8 int16 uint8 E:TypeError uint8 uint32 int16 E:TypeError '
     'E:TypeError int32 int16 int8 int8 E:TypeError int8 int32 int16 E:TypeError '
     'E:TypeError int32 uint8 int8 bool E:TypeError ~int32 uint32 int16 E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError int32 uint8 int8 ~int32 E:TypeError '
     '~int32 uint32 int16 E:TypeError E:TypeError int32 uint32 int32 uint32 E:TypeError '
     'uint32 uint32 int32 E:TypeError E:TypeError int32 int16 int16 int16 E:TypeError '
     'int16 int32 int16'),
    'left_shift': ('E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError int32 int32 int32 int32 E:TypeError int32 int32 int32 E:TypeError '
     'E:TypeError int32 uint8 int16 uint8 E:TypeError uint8 uint32 int16 E:TypeError '
     'E:TypeError int32 int16 int8 int8 E:TypeError int8 int32 int16 E:TypeError '
     'E:TypeError int32 uint8 int8 int32 E:TypeError ~int32 uint32 int16 E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError int32 uint8 int8 ~int32 E:TypeError '
     '~int32 uint32 int16 E:TypeError E:TypeError int32 uint32 int32 uint32 E:TypeError '
     'uint32 uint32 int32 E:TypeError E:TypeError int32 int16 int16 int16 E:TypeError '
     'int16 int32 int16'),
    'right_shift': ('E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError int32 int32 int32 int32 E:TypeError int32 int32 int32 E:TypeError '
     'E:TypeError int32 uint8 int16 uint8 E:TypeError uint8 uint32 int16 E:TypeError '
     'E:TypeError int32 int16 int8 int8 E:TypeError int8 int32 int16 E:TypeError '
     'E:TypeError int32 uint8 int8 int32 E:TypeError ~int32 uint32 int16 E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError int32 uint8 int8 ~int32 E:TypeError '
     '~int32 uint32 int16 E:TypeError E:TypeError int32 uint32 int32 uint32 E:TypeError '
     'uint32 uint32 int32 E:TypeError E:TypeError int32 int16 int16 int16 E:TypeError '
     'int16 int32 int16'),
    'nextafter': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32 '
     'float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 float32 float16 float32 float32 float32 ~float32 ~float32 ~float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32'),
    'fmod': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 int32 ~float32 '
     '~int32 uint32 int16 float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 ~float32 ~float32 float32 float16 int32 uint8 int8 ~int32 ~float32 ~int32 '
     'uint32 int16 float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 '
     'float32 float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'copysign': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32 '
     'float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 float32 float16 float32 float32 float32 ~float32 ~float32 ~float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32'),
    'float_power': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32 '
     'float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 float32 float16 float32 float32 float32 ~float32 ~float32 ~float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32'),
    'atan2': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 float32 float32 float32 '
     'float32 float16 float32 float32 float32 float32 ~float32 ~float32 float32 float32 '
     'float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 float32 float16 float32 float32 float32 ~float32 ~float32 ~float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32 float32 float16 float32 float32 float32 float32 ~float32 float32 float32 '
     'float32'),
    'bitwise_left_shift': ('E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError int32 int32 int32 int32 E:TypeError int32 int32 int32 E:TypeError '
     'E:TypeError int32 uint8 int16 uint8 E:TypeError uint8 uint32 int16 E:TypeError '
     'E:TypeError int32 int16 int8 int8 E:TypeError int8 int32 int16 E:TypeError '
     'E:TypeError int32 uint8 int8 int32 E:TypeError ~int32 uint32 int16 E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError int32 uint8 int8 ~int32 E:TypeError '
     '~int32 uint32 int16 E:TypeError E:TypeError int32 uint32 int32 uint32 E:TypeError '
     'uint32 uint32 int32 E:TypeError E:TypeError int32 int16 int16 int16 E:TypeError '
     'int16 int32 int16'),
    'bitwise_right_shift': ('E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError int32 int32 int32 int32 E:TypeError int32 int32 int32 E:TypeError '
     'E:TypeError int32 uint8 int16 uint8 E:TypeError uint8 uint32 int16 E:TypeError '
     'E:TypeError int32 int16 int8 int8 E:TypeError int8 int32 int16 E:TypeError '
     'E:TypeError int32 uint8 int8 int32 E:TypeError ~int32 uint32 int16 E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError E:TypeError '
     'E:TypeError E:TypeError E:TypeError E:TypeError int32 uint8 int8 ~int32 E:TypeError '
     '~int32 uint32 int16 E:TypeError E:TypeError int32 uint32 int32 uint32 E:TypeError '
     'uint32 uint32 int32 E:TypeError E:TypeError int32 int16 int16 int16 E:TypeError '
     'int16 int32 int16'),
    'pow': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 int32 ~float32 int32 '
     'uint32 int16 float32 float16 float32 float32 float32 ~float32 ~float32 ~float32 '
     'float32 float32 float32 float16 int32 uint8 int8 int32 ~float32 ~int32 uint32 int16 '
     'float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 float32 '
     'float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'dot': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 E:TypeError uint32 int16 float32 float16 int32 '
     'int16 int8 int8 ~float32 E:TypeError int32 int16 float32 float16 int32 uint8 int8 '
     'bool ~float32 ~int32 uint32 int16 float32 float16 ~float32 ~float32 ~float32 '
     '~float32 ~float32 ~float32 ~float32 ~float32 float32 float16 int32 E:TypeError '
     'E:TypeError ~int32 ~float32 ~int32 uint32 E:TypeError float32 float16 int32 uint32 '
     'int32 uint32 ~float32 uint32 uint32 int32 float32 float16 int32 int16 int16 int16 '
     '~float32 E:TypeError int32 int16'),
    'matmul': ('float32 float32 float32 float32 float32 float32 E:ValueError E:ValueError float32 '
     'float32 float32 float16 float16 float16 float16 float16 E:ValueError E:ValueError '
     'float16 float16 float32 float16 int32 int32 int32 int32 E:ValueError E:ValueError '
     'int32 int32 float32 float16 int32 uint8 int16 uint8 E:ValueError E:ValueError uint32 '
     'int16 float32 float16 int32 int16 int8 int8 E:ValueError E:ValueError int32 int16 '
     'float32 float16 int32 uint8 int8 bool E:ValueError E:ValueError uint32 int16 '
     'E:ValueError E:ValueError E:ValueError E:ValueError E:ValueError E:ValueError '
     'E:ValueError E:ValueError E:ValueError E:ValueError E:ValueError E:ValueError '
     'E:ValueError E:ValueError E:ValueError E:ValueError E:ValueError E:ValueError '
     'E:ValueError E:ValueError float32 float16 int32 uint32 int32 uint32 E:ValueError '
     'E:ValueError uint32 int32 float32 float16 int32 int16 int16 int16 E:ValueError '
     'E:ValueError int32 int16'),
    'inner': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 bool ~float32 ~int32 '
     'uint32 int16 float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 ~float32 float32 float16 int32 uint8 int8 ~int32 ~float32 ~int32 uint32 '
     'int16 float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 float32 '
     'float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'outer': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 bool ~float32 ~int32 '
     'uint32 int16 float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 ~float32 float32 float16 int32 uint8 int8 ~int32 ~float32 ~int32 uint32 '
     'int16 float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 float32 '
     'float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
    'where1': ('float32 float32 float32 float32 float32 float32 float32 float32 float32 float32 '
     'float32 float16 float16 float16 float16 float16 float16 float16 float16 float16 '
     'float32 float16 int32 int32 int32 int32 ~float32 int32 int32 int32 float32 float16 '
     'int32 uint8 int16 uint8 ~float32 uint8 uint32 int16 float32 float16 int32 int16 int8 '
     'int8 ~float32 int8 int32 int16 float32 float16 int32 uint8 int8 bool ~float32 ~int32 '
     'uint32 int16 float32 float16 ~float32 ~float32 ~float32 ~float32 ~float32 ~float32 '
     '~float32 ~float32 float32 float16 int32 uint8 int8 ~int32 ~float32 ~int32 uint32 '
     'int16 float32 float16 int32 uint32 int32 uint32 ~float32 uint32 uint32 int32 float32 '
     'float16 int32 int16 int16 int16 ~float32 int16 int32 int16'),
}


@pytest.mark.parametrize("fn", list(UNARY))
def test_unary_dtypes(fn):
    got = " ".join(_code(lambda v=v: getattr(jnp, fn)(v)) for v in OPERANDS.values())
    assert got == UNARY[fn]


def _binary(fn, a, b):
    if fn == "where1":
        return jnp.where(np.array([True, False]), a, b)
    return getattr(jnp, fn)(a, b)


@pytest.mark.parametrize("fn", list(BINARY))
def test_binary_dtypes(fn):
    got = " ".join(_code(lambda a=a, b=b: _binary(fn, a, b))
                   for a in OPERANDS.values() for b in OPERANDS.values())
    assert got == BINARY[fn]
