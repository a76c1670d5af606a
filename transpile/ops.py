"""``jax.ops``: segment reductions (``segment_sum``/``prod``/``max``/``min``).

``segment_X(data, ids, num_segments)`` reduces the rows of ``data`` that share a
segment id: the result's row ``s`` combines every ``data[i]`` with ``ids[i] == s``
(the reduction's identity where there is none). It is a scatter into an array of
identities, staged as JAX stages it; ids outside ``[0, num_segments)``, negative ones
included, are dropped unless ``mode`` says otherwise.
"""
from __future__ import annotations

import operator

import numpy as np

from . import lax
from . import numpy as jnp
from .numpy._util import aval, check_arraylike

__all__ = ["segment_sum", "segment_prod", "segment_max", "segment_min"]


def _identity(kind: str, dtype: np.dtype):
    if kind == "add":
        return 0
    if kind == "multiply":
        return 1
    if dtype == np.bool_:
        return kind == "min"
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return int(info.max if kind == "min" else info.min)
    return float("inf") if kind == "min" else -float("inf")


_REDUCERS = {"add": jnp.sum, "multiply": jnp.prod, "max": jnp.max, "min": jnp.min}


def _segment(name, kind, data, segment_ids, num_segments, indices_are_sorted,
             unique_indices, bucket_size, mode):
    check_arraylike(name, data, segment_ids)
    mode = lax.GatherScatterMode.FILL_OR_DROP if mode is None else mode
    data, segment_ids = jnp.asarray(data), jnp.asarray(segment_ids)
    dtype = aval(data).dtype
    if num_segments is None:
        # Needs concrete ids: under jit num_segments must be given (as in JAX).
        num_segments = int(np.max(np.asarray(segment_ids))) + 1
    num_segments = operator.index(num_segments)
    if num_segments < 0:
        raise ValueError("num_segments must be non-negative.")
    fill = _identity(kind, dtype)
    flags = dict(indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
                 mode=mode, wrap_negative_indices=False)
    rest = aval(data).shape[1:]
    if bucket_size is None:
        out = jnp.full((num_segments,) + rest, fill, dtype=dtype)
        return getattr(out.at[segment_ids], kind)(data, **flags)
    # Each bucket of ``bucket_size`` consecutive rows is reduced separately, then the
    # buckets are combined: shorter chains of additions, as JAX does it.
    n = aval(segment_ids).size
    buckets = -(-n // bucket_size)
    out = jnp.full((buckets, num_segments) + rest, fill, dtype=dtype)
    index = (jnp.arange(aval(segment_ids).shape[0]) // bucket_size, segment_ids[None, :])
    out = getattr(out.at[index], kind)(data, **flags)
    return _REDUCERS[kind](out, axis=0).astype(dtype)


def segment_sum(data, segment_ids, num_segments=None, indices_are_sorted: bool = False,
                unique_indices: bool = False, bucket_size=None, mode=None,
                out_sharding=None):
    """Sum the rows of ``data`` per segment id.

    Parameters
    ----------
    data : array
        Rows (the leading axis) to reduce.
    segment_ids : int array
        The segment of each row; need not be sorted.
    num_segments : int, optional
        The number of output rows; default ``max(segment_ids) + 1`` (concrete ids
        only, so required under ``jit``).
    indices_are_sorted, unique_indices : bool
        Promises passed to the scatter.
    bucket_size : int, optional
        Reduce buckets of this many rows separately, then combine them.
    mode : GatherScatterMode or str, optional
        Out-of-range ids: dropped by default (``'fill'``/``'drop'``), or ``'clip'``.

    Returns
    -------
    Array
        ``(num_segments,) + data.shape[1:]``, ``data``'s dtype.
    """
    return _segment("segment_sum", "add", data, segment_ids, num_segments,
                    indices_are_sorted, unique_indices, bucket_size, mode)


def segment_prod(data, segment_ids, num_segments=None, indices_are_sorted: bool = False,
                 unique_indices: bool = False, bucket_size=None, mode=None,
                 out_sharding=None):
    """The product of the rows of ``data`` per segment id (1 for an empty segment);
    parameters as ``segment_sum``."""
    return _segment("segment_prod", "multiply", data, segment_ids, num_segments,
                    indices_are_sorted, unique_indices, bucket_size, mode)


def segment_max(data, segment_ids, num_segments=None, indices_are_sorted: bool = False,
                unique_indices: bool = False, bucket_size=None, mode=None,
                out_sharding=None):
    """The maximum of the rows of ``data`` per segment id (-inf, the integer minimum or
    False for an empty segment); parameters as ``segment_sum``."""
    return _segment("segment_max", "max", data, segment_ids, num_segments,
                    indices_are_sorted, unique_indices, bucket_size, mode)


def segment_min(data, segment_ids, num_segments=None, indices_are_sorted: bool = False,
                unique_indices: bool = False, bucket_size=None, mode=None,
                out_sharding=None):
    """The minimum of the rows of ``data`` per segment id (inf, the integer maximum or
    True for an empty segment); parameters as ``segment_sum``."""
    return _segment("segment_min", "min", data, segment_ids, num_segments,
                    indices_are_sorted, unique_indices, bucket_size, mode)
