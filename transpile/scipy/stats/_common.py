"""Helpers of the distribution modules: constants typed like an operand."""
from __future__ import annotations

import numpy as np

from ...numpy._util import aval

__all__ = ["const"]


def const(x, v):
    """``v`` in ``x``'s dtype: a Python scalar when ``x`` is a weakly typed scalar (the
    result stays weak, as JAX's ``_const`` keeps it), else a NumPy array."""
    a = aval(x)
    if a.weak_type and not a.shape and a.dtype.kind == "f":
        return float(v)
    return np.array(v, a.dtype)
