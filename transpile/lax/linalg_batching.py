"""Batching rules of the linear-algebra primitives defined after ``cholesky`` and
``triangular_solve`` (whose rules live in ``reduction_batching.py``).

Each factorisation already treats leading axes as batch axes, so the batched axis is
moved to the front and the primitive bound once.
"""
from __future__ import annotations

from ..interpreters.batching import moveaxis, primitive_batchers
from . import linalg

__all__: list = []


def _lu_batch(vals, dims):
    (x,), (bdim,) = vals, dims
    return linalg.lu_p.bind(moveaxis(x, bdim, 0)), (0, 0, 0)


primitive_batchers[linalg.lu_p] = _lu_batch
