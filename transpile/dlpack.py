"""``jax.dlpack``: arrays from other libraries' memory through DLPack."""
from __future__ import annotations

import numpy as np

from . import dtypes
from .numpy import from_dlpack

__all__ = ["from_dlpack", "is_supported_dtype"]

_SUPPORTED = frozenset(np.dtype(d) for d in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128,
    dtypes.bfloat16))


def is_supported_dtype(dtype) -> bool:
    """Whether arrays of ``dtype`` can be exchanged through DLPack."""
    return np.dtype(dtype) in _SUPPORTED
