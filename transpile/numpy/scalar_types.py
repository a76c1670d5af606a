"""Scalar types ``jnp.float32`` etc.: callable like NumPy's, usable anywhere a dtype is.

``jnp.float32(3)`` builds a strongly typed 0-d ``Array``; ``np.dtype(jnp.float32)``,
``x.astype(jnp.float32)`` and ``jnp.float32 == np.float32`` all work because each type
carries a ``dtype`` attribute and compares equal to the NumPy scalar type.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .creation import asarray

__all__ = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
           "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
           "complex_", "csingle", "cdouble", "complexfloating", "int_", "uint", "float_", "double",
           "single", "scalar_types", "float8_e4m3fn", "float8_e5m2", "float8_e4m3b11fnuz",
           "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e3m4", "float8_e4m3",
           "float8_e8m0fnu", "float4_e2m1fn", "int4", "uint4", "int2", "uint2"]


class _ScalarMeta(type):
    """Metaclass of the scalar types: equality, hashing and isinstance follow NumPy's."""

    def __hash__(cls) -> int:
        return hash(cls.dtype.type)

    def __eq__(cls, other) -> bool:
        return cls is other or cls.dtype.type == other

    def __ne__(cls, other) -> bool:
        return not cls == other

    def __call__(cls, x):
        # Passing the type itself lets a truncated 64-bit request warn.
        return asarray(x, dtype=cls)

    def __instancecheck__(cls, instance) -> bool:
        return isinstance(instance, cls.dtype.type)

    def __repr__(cls) -> str:
        return f"<class 'transpile.numpy.{cls.__name__}'>"


def _make(name: str, np_type) -> type:
    dt = np.dtype(np_type)
    return _ScalarMeta(name, (object,), {"dtype": dt, "__module__": "transpile.numpy",
                                         "__doc__": f"The {dt.name} scalar type; "
                                                    f"``{name}(x)`` casts ``x`` to it."})


bool_ = _make("bool", np.bool_)
int8 = _make("int8", np.int8)
int16 = _make("int16", np.int16)
int32 = _make("int32", np.int32)
int64 = _make("int64", np.int64)
uint8 = _make("uint8", np.uint8)
uint16 = _make("uint16", np.uint16)
uint32 = _make("uint32", np.uint32)
uint64 = _make("uint64", np.uint64)
float16 = _make("float16", np.float16)
bfloat16 = _make("bfloat16", dtypes.bfloat16)
float32 = _make("float32", np.float32)
float64 = _make("float64", np.float64)
complex64 = _make("complex64", np.complex64)
complex128 = _make("complex128", np.complex128)
(float8_e4m3fn, float8_e5m2, float8_e4m3b11fnuz, float8_e4m3fnuz, float8_e5m2fnuz,
 float8_e3m4, float8_e4m3, float8_e8m0fnu, float4_e2m1fn) = (
    _make(v[0], d) for d, v in dtypes.SMALL_FLOATS.items())
int4, uint4, int2, uint2 = (_make(d.name, d) for d in dtypes.NARROW_INTS)

# NumPy's aliases for the default widths; like JAX these stay the 64-bit types, and
# only arrays built from them are canonicalised.
int_ = int64
uint = uint64
float_ = float64
double = float64
single = float32
complex_ = cdouble = complex128
csingle = complex64
complexfloating = np.complexfloating  # the abstract category, as jnp.floating is

scalar_types = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
                float16, bfloat16, float32, float64, complex64, complex128, float8_e4m3fn,
                float8_e5m2, float8_e4m3b11fnuz, float8_e4m3fnuz, float8_e5m2fnuz,
                float8_e3m4, float8_e4m3, float8_e8m0fnu, float4_e2m1fn, int4, uint4, int2,
                uint2)
