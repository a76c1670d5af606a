"""Dtype queries: result_type, promote_types, can_cast, issubdtype, isdtype, iinfo, finfo.

Promotion is JAX's lattice (``transpile.dtypes``), not NumPy's: ``result_type(int8, 1)``
is int8 and ``result_type(1, 1.0)`` is float32.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes

__all__ = ["result_type", "promote_types", "can_cast", "issubdtype", "isdtype", "iinfo",
           "finfo", "dtype"]

dtype = np.dtype


def _dtype_of(x) -> np.dtype:
    """The dtype of an array or scalar value, or the dtype a dtype-like names."""
    if hasattr(x, "aval") or isinstance(x, (np.ndarray, np.generic)):
        return np.dtype(x.dtype)
    return dtypes._to_np_dtype(x)


def result_type(*args) -> np.dtype:
    """The dtype of combining ``args`` (arrays, scalars or dtypes) under JAX promotion."""
    return dtypes.result_type(*args)


def promote_types(a, b) -> np.dtype:
    """The dtype two dtypes promote to (not canonicalised, as in JAX)."""
    for x in (a, b):
        if isinstance(x, (int, float)) and not isinstance(x, bool):
            raise TypeError(f"Cannot interpret '{x}' as a data type")
    return dtypes.promote_types(a, b)


def can_cast(from_, to, casting="safe") -> bool:
    """Whether ``from_`` casts to ``to`` under NumPy's ``casting`` rule."""
    if isinstance(from_, (int, float, complex)) and not isinstance(from_, bool):
        raise TypeError("can_cast() does not support Python ints, floats, and complex "
                        "because the result used to depend on the value.\nThis change was "
                        "part of adopting NEP 50, we may explicitly allow them again in the "
                        "future.")
    return bool(np.can_cast(_dtype_of(from_), _dtype_of(to), casting))


def issubdtype(arg1, arg2) -> bool:
    """NumPy's ``issubdtype``, accepting transpile scalar types and the key dtype
    categories (``issubdtype(key.dtype, transpile.dtypes.prng_key)``)."""
    if dtypes.is_key(arg1) or dtypes.is_key(arg2) or any(
            isinstance(a, type) and issubclass(a, dtypes.extended) for a in (arg1, arg2)):
        return dtypes.issubdtype(arg1, arg2)

    def conv(x):
        inner = getattr(x, "dtype", None)
        if isinstance(inner, np.dtype) and isinstance(x, type):
            return inner
        return x
    return bool(dtypes.issubdtype(conv(arg1), conv(arg2)))


_KINDS = {"bool": "b", "signed integer": "i", "unsigned integer": "u",
          "integral": "iu", "real floating": "f", "numeric": "iuf", "complex floating": "c"}


def isdtype(dtype, kind) -> bool:
    """Array-API ``isdtype``: is ``dtype`` of ``kind`` (a name, a dtype, or a tuple)."""
    dt = dtypes._to_np_dtype(dtype)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if isinstance(k, str):
            if k not in _KINDS:
                raise ValueError(f"Unrecognized {kind=!r}")
            if dtypes.kind(dt) in _KINDS[k]:
                return True
        elif dt == dtypes._to_np_dtype(k):
            return True
    return False


def iinfo(int_type):
    """Machine limits of an integer dtype (or of an array's dtype)."""
    return dtypes.iinfo(_dtype_of(int_type))


def finfo(dtype):
    """Machine limits of a float dtype (or of an array's dtype), bfloat16 included."""
    return dtypes.finfo(_dtype_of(dtype))
