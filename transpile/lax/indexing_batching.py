"""Batching rules of the indexing primitives (``lax/indexing.py``,
``lax/dynamic_slicing.py``), as JAX 0.10.2 writes them.

``gather`` and the ``scatter`` family take the batch axis into their dimension numbers:
a batched operand alone gains a leading window (or update window) dimension covering
the whole batch; batched indices make the batch axis an extra *batching* dimension of
both operand and indices (``operand_batching_dims`` / ``*_indices_batching_dims``).
``dynamic_slice`` and ``dynamic_update_slice`` become a ``gather`` / ``scatter`` whose
index vector concatenates the (broadcast) start indices.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..interpreters.batching import bdim_at_front, moveaxis, not_mapped, primitive_batchers
from . import indexing as ix
from ._indexing_common import GatherDimensionNumbers, GatherScatterMode, ScatterDimensionNumbers
from .slicing import concatenate
from .structural import broadcast, broadcast_in_dim


def _shift(dims) -> tuple:
    """``dims`` moved up by one, as NumPy integers (JAX's ``np.add(1, dims)``, which
    its jaxpr text shows)."""
    return tuple(np.add(1, np.asarray(dims, np.int64)))


def _bind_gather(operand, indices, **params):
    # Bound directly: the API would turn the NumPy integers back into ints.
    return ix.gather_p.bind(operand, indices, **params)


def _gather_batch(vals, dims, *, dimension_numbers, slice_sizes, unique_indices,
                  indices_are_sorted, mode, fill_value):
    operand, indices = vals
    operand_bdim, indices_bdim = dims
    dn = dimension_numbers
    if indices_bdim is not_mapped:
        # The batch axis becomes a leading window dimension of the whole batch.
        operand = moveaxis(operand, operand_bdim, 0)
        size = core.get_aval(operand).shape[0]
        dnums = GatherDimensionNumbers(
            offset_dims=(0,) + _shift(dn.offset_dims),
            collapsed_slice_dims=_shift(dn.collapsed_slice_dims),
            start_index_map=_shift(dn.start_index_map),
            operand_batching_dims=_shift(dn.operand_batching_dims),
            start_indices_batching_dims=dn.start_indices_batching_dims)
        return _bind_gather(operand, indices, dimension_numbers=dnums,
                            slice_sizes=(size,) + tuple(slice_sizes),
                            unique_indices=unique_indices,
                            indices_are_sorted=indices_are_sorted, mode=mode,
                            fill_value=fill_value), 0
    if operand_bdim is not_mapped:
        # Batched indices gather from the one operand: a leading batch dimension.
        indices = moveaxis(indices, indices_bdim, 0)
        dnums = GatherDimensionNumbers(
            offset_dims=tuple(1 + d for d in dn.offset_dims),
            collapsed_slice_dims=dn.collapsed_slice_dims,
            start_index_map=dn.start_index_map,
            operand_batching_dims=dn.operand_batching_dims,
            start_indices_batching_dims=_shift(dn.start_indices_batching_dims))
        # Indices of different examples may repeat or be out of order.
        return _bind_gather(operand, indices, dimension_numbers=dnums,
                            slice_sizes=tuple(slice_sizes), unique_indices=False,
                            indices_are_sorted=False, mode=mode, fill_value=fill_value), 0
    # Both batched: the batch axis is a batching dimension of operand and indices.
    operand = moveaxis(operand, operand_bdim, 0)
    indices = moveaxis(indices, indices_bdim, 0)
    size = core.get_aval(operand).shape[0]
    dnums = GatherDimensionNumbers(
        offset_dims=_shift(dn.offset_dims),
        collapsed_slice_dims=_shift(dn.collapsed_slice_dims),
        start_index_map=_shift(dn.start_index_map),
        operand_batching_dims=(0,) + _shift(dn.operand_batching_dims),
        start_indices_batching_dims=(0,) + _shift(dn.start_indices_batching_dims))
    return _bind_gather(operand, indices, dimension_numbers=dnums,
                        slice_sizes=(0 if size == 0 else 1,) + tuple(slice_sizes),
                        unique_indices=unique_indices, indices_are_sorted=indices_are_sorted,
                        mode=mode, fill_value=fill_value), 0


def _scatter_batch(prim, vals, dims, *, dimension_numbers, indices_are_sorted,
                   unique_indices, mode, update_jaxpr, update_consts):
    operand, indices, updates = vals
    operand_bdim, indices_bdim, updates_bdim = dims
    dn = dimension_numbers
    size = next(core.get_aval(x).shape[d] for x, d in zip(vals, dims, strict=True)
                if d is not not_mapped)
    # The operand always gets the batch axis in front (broadcast if unbatched): the
    # scatter writes into every example's copy.
    operand = bdim_at_front(operand, operand_bdim, size)
    updates = bdim_at_front(updates, updates_bdim, size)
    params = dict(indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
                  mode=mode, update_jaxpr=update_jaxpr, update_consts=update_consts)
    if indices_bdim is not_mapped:
        dnums = ScatterDimensionNumbers(
            update_window_dims=(0,) + _shift(dn.update_window_dims),
            inserted_window_dims=_shift(dn.inserted_window_dims),
            scatter_dims_to_operand_dims=_shift(dn.scatter_dims_to_operand_dims),
            operand_batching_dims=_shift(dn.operand_batching_dims),
            scatter_indices_batching_dims=dn.scatter_indices_batching_dims)
        return prim.bind(operand, indices, updates, dimension_numbers=dnums, **params), 0
    indices = bdim_at_front(indices, indices_bdim, size)
    dnums = ScatterDimensionNumbers(
        update_window_dims=_shift(dn.update_window_dims),
        inserted_window_dims=_shift(dn.inserted_window_dims),
        scatter_dims_to_operand_dims=_shift(dn.scatter_dims_to_operand_dims),
        operand_batching_dims=(0,) + _shift(dn.operand_batching_dims),
        scatter_indices_batching_dims=(0,) + _shift(dn.scatter_indices_batching_dims))
    return prim.bind(operand, indices, updates, dimension_numbers=dnums, **params), 0


def _batch_dynamic_slice_indices(indices, bdims):
    """The scalar start indices as one index vector: ``(size, n)`` batched at 0 when any
    is batched, else ``(n,)``."""
    if not indices:
        return np.array([], np.int32), not_mapped
    size = next((core.get_aval(x).shape[d] for x, d in zip(indices, bdims, strict=True)
                 if d is not not_mapped), None)
    if size is None:
        return concatenate([broadcast(i, (1,)) for i in indices], 0), not_mapped
    parts = [broadcast_in_dim(x, (size, 1), (0,) if d is not not_mapped else ())
             for x, d in zip(indices, bdims, strict=True)]
    return concatenate(parts, 1), 0


def _dynamic_slice_batch(vals, dims, *, slice_sizes):
    operand, *starts = vals
    operand_bd, *start_bds = dims
    ndims = len(core.get_aval(operand).shape) - (0 if operand_bd is not_mapped else 1)
    axes = tuple(range(ndims))
    dnums = GatherDimensionNumbers(offset_dims=axes, collapsed_slice_dims=(),
                                   start_index_map=axes)
    index, index_bd = _batch_dynamic_slice_indices(starts, start_bds)
    return _gather_batch([operand, index], [operand_bd, index_bd], dimension_numbers=dnums,
                         slice_sizes=tuple(slice_sizes), unique_indices=True,
                         indices_are_sorted=True, mode=GatherScatterMode.CLIP,
                         fill_value=None)


def _dynamic_update_slice_batch(vals, dims):
    operand, update, *starts = vals
    operand_bd, update_bd, *start_bds = dims
    ushape = list(core.get_aval(update).shape)
    if update_bd is not not_mapped:
        del ushape[update_bd]
    axes = tuple(range(len(ushape)))
    dnums = ScatterDimensionNumbers(update_window_dims=axes, inserted_window_dims=(),
                                    scatter_dims_to_operand_dims=axes)
    index, index_bd = _batch_dynamic_slice_indices(starts, start_bds)
    # JAX vmaps ``scatter`` over the three; its rule is the scatter rule below.
    return _scatter_batch(ix.scatter_p, [operand, index, update],
                          [operand_bd, index_bd, update_bd], dimension_numbers=dnums,
                          indices_are_sorted=True, unique_indices=True,
                          mode=GatherScatterMode.CLIP, update_jaxpr=None,
                          update_consts=())


def _register() -> None:
    primitive_batchers[ix.gather_p] = _gather_batch
    for p in (ix.scatter_p, ix.scatter_add_p, ix.scatter_sub_p, ix.scatter_mul_p,
              ix.scatter_min_p, ix.scatter_max_p):
        primitive_batchers[p] = \
            lambda vals, dims, _p=p, **params: _scatter_batch(_p, vals, dims, **params)
    primitive_batchers[ix.dynamic_slice_p] = _dynamic_slice_batch
    primitive_batchers[ix.dynamic_update_slice_p] = _dynamic_update_slice_batch


_register()
