"""Shared pieces of the indexing primitives: dimension numbers, modes, shape checks with
JAX's messages, and the index arithmetic of the NumPy rules (see ``indexing.py``).
"""
from __future__ import annotations

import enum
import operator
from typing import NamedTuple

import numpy as np

from .. import dtypes
from ..core import ShapedArray

__all__ = ["GatherDimensionNumbers", "ScatterDimensionNumbers", "GatherScatterMode"]


# ---------------------------------------------------------------------------------------
# Dimension numbers and modes

class GatherDimensionNumbers(NamedTuple):
    """How a gather's indices and output relate to its operand (see the module doc)."""

    offset_dims: tuple
    collapsed_slice_dims: tuple
    start_index_map: tuple
    operand_batching_dims: tuple = ()
    start_indices_batching_dims: tuple = ()


class ScatterDimensionNumbers(NamedTuple):
    """How a scatter's indices and updates relate to its operand (see the module doc)."""

    update_window_dims: tuple
    inserted_window_dims: tuple
    scatter_dims_to_operand_dims: tuple
    operand_batching_dims: tuple = ()
    scatter_indices_batching_dims: tuple = ()


class GatherScatterMode(enum.Enum):
    """What gathers and scatters do with out-of-bounds indices."""

    CLIP = 1
    FILL_OR_DROP = 2
    PROMISE_IN_BOUNDS = 3
    ONE_HOT = 4

    @staticmethod
    def from_any(s) -> "GatherScatterMode":
        """A mode from a member, None (``FILL_OR_DROP``) or one of the strings ``'clip'``,
        ``'fill'``, ``'drop'``, ``'promise_in_bounds'``, ``'one_hot'``."""
        if isinstance(s, GatherScatterMode):
            return s
        if s == "clip":
            return GatherScatterMode.CLIP
        if s is None or s == "fill" or s == "drop":
            return GatherScatterMode.FILL_OR_DROP
        if s == "promise_in_bounds":
            return GatherScatterMode.PROMISE_IN_BOUNDS
        if s == "one_hot":
            return GatherScatterMode.ONE_HOT
        raise ValueError(f'Unknown gather mode "{s}"')


def _ints(seq) -> tuple:
    return tuple(operator.index(d) for d in seq)


def _gather_dnums(d) -> GatherDimensionNumbers:
    return GatherDimensionNumbers(_ints(d.offset_dims), _ints(d.collapsed_slice_dims),
                                  _ints(d.start_index_map), _ints(d.operand_batching_dims),
                                  _ints(d.start_indices_batching_dims))


def _scatter_dnums(d) -> ScatterDimensionNumbers:
    return ScatterDimensionNumbers(_ints(d.update_window_dims),
                                   _ints(d.inserted_window_dims),
                                   _ints(d.scatter_dims_to_operand_dims),
                                   _ints(d.operand_batching_dims),
                                   _ints(d.scatter_indices_batching_dims))


# ---------------------------------------------------------------------------------------
# Shared validation

def _check_sorted_unique(op: str, what: str, dims: tuple) -> None:
    if list(dims) != sorted(dims):
        raise TypeError(f"{what} in {op} op must be sorted; got {dims}")
    if len(set(dims)) != len(dims):
        raise TypeError(f"{what} in {op} op must not repeat; got: {dims}.")


def _check_in_range(op: str, what: str, dims: tuple, rank: int) -> None:
    for d in dims:
        if not 0 <= d < rank:
            raise TypeError(f"Invalid {what} set in {op} op; valid range is [0, {rank}); "
                            f"got: {d}.")


def _check_index_dtype(indices: ShapedArray) -> None:
    if indices.dtype.kind not in "iu":
        raise ValueError("indices must have an integer type")


def _check_batching(op: str, dn, operand: ShapedArray, indices: ShapedArray,
                    inserted: tuple, idx_map: tuple, idx_batch: tuple) -> None:
    """Checks of ``operand_batching_dims`` shared by gather and scatter."""
    Op = op.capitalize()
    obd = dn.operand_batching_dims
    _check_sorted_unique(op, "operand_batching_dims", obd)
    _check_in_range(op, "operand_batching_dims", obd, operand.ndim)
    ins_name = "collapsed_slice_dims" if op == "gather" else "inserted_window_dims"
    map_name = "start_index_map" if op == "gather" else "scatter_dims_to_operand_dims"
    ib_name = ("start_indices_batching_dims" if op == "gather"
               else "scatter_indices_batching_dims")
    if set(inserted) & set(obd):
        raise TypeError(f"{ins_name} and operand_batching_dims in {op} op must be "
                        f"disjoint; got: {inserted} and {obd}.")
    if set(idx_map) & set(obd):
        raise TypeError(f"{map_name} and operand_batching_dims in {op} op must be "
                        f"disjoint; got: {idx_map} and {obd}.")
    if len(obd) != len(idx_batch):
        raise TypeError(f"{Op} op requires equal numbers of operand_batching_dims and "
                        f"{ib_name}, got {obd} and{idx_batch}.")
    if len(set(idx_batch)) != len(idx_batch):
        raise TypeError(f"{ib_name} in {op} op must not repeat; got: {idx_batch}.")
    if any(d == indices.ndim - 1 for d in idx_batch):
        raise TypeError(f"{Op} op cannot have the index vector dimension as a batching "
                        f"dimension; got {idx_batch}.")
    _check_in_range(op, ib_name, idx_batch, indices.ndim)
    ob_shape = tuple(operand.shape[d] for d in obd)
    ib_shape = tuple(indices.shape[d] for d in idx_batch)
    if ob_shape != ib_shape:
        raise TypeError(f"{Op} op requires operand batching dimensions and indices "
                        f"batching dimensions to have the same shape, got {ob_shape} and "
                        f"{ib_shape}.")


def _check_index_map(op: str, what: str, idx_map: tuple, indices: ShapedArray,
                     rank: int, end: str) -> None:
    Op = op.capitalize()
    if indices.ndim == 0:
        raise TypeError(f"{Op} index leaf dimension must be within [0, rank(indices) + 1)."
                        f" rank(indices) is 0 and {op} index leaf dimension is -1.")
    if len(idx_map) != indices.shape[-1]:
        raise TypeError(f"{Op} op has {len(idx_map)} elements in {what} and the bound of "
                        f"dimension index_vector_dim={indices.ndim - 1} of indices is "
                        f"{indices.shape[-1]}. These two numbers must be equal{end}")
    for i, d in enumerate(idx_map):
        if not 0 <= d < rank:
            name = "start_index_map" if op == "gather" else \
                "scatter_dims_to_operand_dims mapping"
            raise TypeError(f"Invalid {name}; domain is [0, {rank}), got: {i}->{d}.")
    if len(set(idx_map)) != len(idx_map):
        raise TypeError(f"{what} in {op} op must not repeat; got: {idx_map}.")


# ---------------------------------------------------------------------------------------
# Shared evaluation helpers

def _index_array(indices: np.ndarray) -> np.ndarray:
    """Indices as int64; uint64 values beyond int64 saturate (they are out of range)."""
    if indices.dtype == np.uint64:
        indices = np.minimum(indices, np.uint64(np.iinfo(np.int64).max))
    return indices.astype(np.int64)


def _window_starts(idx: np.ndarray, rank: int, idx_map, op_batch, idx_batch) -> np.ndarray:
    """Start of every window on every operand dimension: shape ``batch + (rank,)``."""
    batch = idx.shape[:-1]
    starts = np.zeros(batch + (rank,), np.int64)
    for k, d in enumerate(idx_map):
        starts[..., d] = idx[..., k]
    for od, bd in zip(op_batch, idx_batch, strict=True):
        shape = [1] * len(batch)
        shape[bd] = batch[bd]
        starts[..., od] = np.arange(batch[bd], dtype=np.int64).reshape(shape)
    return starts


def _bounds(starts: np.ndarray, dims, sizes):
    """(in_bounds per window, starts clamped into range)."""
    hi = np.asarray([d - s for d, s in zip(dims, sizes, strict=True)], np.int64)
    ok = np.all((starts >= 0) & (starts <= hi), axis=-1)
    return ok, np.clip(starts, 0, hi)


def _window_coords(starts: np.ndarray, sizes) -> tuple:
    """Per operand dimension, the coordinates of every window element: each has shape
    ``batch + sizes`` (batch from ``starts``)."""
    nb = starts.ndim - 1
    coords = []
    for d, size in enumerate(sizes):
        s = starts[..., d].reshape(starts.shape[:-1] + (1,) * len(sizes))
        ramp_shape = [1] * (nb + len(sizes))
        ramp_shape[nb + d] = size
        coords.append(s + np.arange(size, dtype=np.int64).reshape(ramp_shape))
    return tuple(coords)


def default_fill_value(dtype) -> np.ndarray:
    """The value out-of-bounds gathers give in FILL_OR_DROP mode when none is given."""
    dt = np.dtype(dtype)
    if dtypes.is_float(dt):
        return np.array(np.nan, dt)
    if dtypes.is_complex(dt):
        return np.array(complex(np.nan, np.nan), dt)
    if dt == np.bool_:
        return np.array(True)
    info = dtypes.iinfo(dt)
    return np.array(info.min if dtypes.is_signed(dt) else info.max, dt)


def _check_evaluable(mode) -> None:
    if mode == GatherScatterMode.ONE_HOT:
        raise NotImplementedError("gather/scatter in GatherScatterMode.ONE_HOT cannot be "
                                  "evaluated by transpile")
