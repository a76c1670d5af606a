"""``jax.typing``: annotations for arguments, ``ArrayLike`` and ``DTypeLike``."""
from __future__ import annotations

from typing import Any, Protocol, Union

import numpy as np

from .array import Array

__all__ = ["ArrayLike", "DTypeLike"]


class SupportsDType(Protocol):
    """Anything with a ``dtype`` attribute."""

    @property
    def dtype(self) -> np.dtype: ...


#: What a ``jnp`` function accepts as an array: arrays, NumPy arrays and scalars,
#: Python scalars.
ArrayLike = Union[Array, np.ndarray, np.bool_, np.number, bool, int, float, complex]

#: What names a dtype: a string, a scalar type, a ``np.dtype``, or an object with one.
DTypeLike = Union[str, type[Any], np.dtype, SupportsDType]
