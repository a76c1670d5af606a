"""Batching rules of the structural primitives (``structural.py``, ``slicing.py``,
``layout.py``), written as JAX 0.10.2 writes them so that ``make_jaxpr(vmap(f))``
prints the same equations.

Most rules shift the primitive's axis parameters past the batch axis and keep the batch
axis where it is; the rest move it to the front first. Where JAX computes a parameter
with NumPy (``np.add(1, dims)``) it keeps NumPy integers, which its jaxpr text shows as
``np.int64(1)``: those rules bind the primitive directly, since the public functions
turn every axis into a Python int.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..interpreters import batching
from ..interpreters.batching import (defvectorized, moveaxis, not_mapped,
                                     primitive_batchers)
from . import elementwise as ew
from . import layout, slicing, structural


def _shape(x) -> tuple:
    return tuple(core.get_aval(x).shape)


def _size(vals, dims) -> int:
    """The batch size: the length of the first batched operand's batch axis."""
    return next(_shape(x)[d] for x, d in zip(vals, dims, strict=True)
                if d is not not_mapped)


# ---------------------------------------------------------------------------------------
# structural.py

def _broadcast_in_dim_batch(vals, dims, *, shape, broadcast_dimensions, sharding):
    (x,), (bdim,) = vals, dims
    x = moveaxis(x, bdim, 0)
    new_dims = (0,) + tuple(np.add(1, broadcast_dimensions))
    out = structural.broadcast_in_dim_p.bind(
        x, shape=(_shape(x)[0],) + tuple(shape), broadcast_dimensions=new_dims,
        sharding=sharding)
    return out, 0


def _reshape_batch(vals, dims, *, new_sizes, dimensions, sharding):
    (x,), (bdim,) = vals, dims
    x = moveaxis(x, bdim, 0)
    if dimensions is not None:
        dimensions = (0,) + tuple(np.add(1, dimensions))
    return structural.reshape(x, _shape(x)[:1] + tuple(new_sizes), dimensions), 0


def _squeeze_batch(vals, dims, *, dimensions):
    (x,), (bdim,) = vals, dims
    x = moveaxis(x, bdim, 0)
    return structural.squeeze(x, tuple(np.add(1, dimensions))), 0


def _transpose_batch(vals, dims, *, permutation):
    (x,), (bdim,) = vals, dims
    perm = (bdim,) + tuple(p if p < bdim else p + 1 for p in permutation)
    return structural.transpose(x, perm), 0


def _rev_batch(vals, dims, *, dimensions):
    (x,), (bdim,) = vals, dims
    return structural.rev(x, [d + 1 if d >= bdim else d for d in dimensions]), bdim


primitive_batchers[structural.broadcast_in_dim_p] = _broadcast_in_dim_batch
primitive_batchers[structural.reshape_p] = _reshape_batch
primitive_batchers[structural.squeeze_p] = _squeeze_batch
primitive_batchers[structural.transpose_p] = _transpose_batch
primitive_batchers[structural.rev_p] = _rev_batch


# ---------------------------------------------------------------------------------------
# slicing.py (iota has no operand: it is never batched)

def _slice_batch(vals, dims, *, start_indices, limit_indices, strides):
    (x,), (bdim,) = vals, dims
    start = list(start_indices)
    start.insert(bdim, 0)
    limit = list(limit_indices)
    limit.insert(bdim, _shape(x)[bdim])
    if strides is not None:
        strides = list(strides)
        strides.insert(bdim, 1)
    return slicing.slice(x, start, limit, strides), bdim


def _pad_batch(vals, dims, *, padding_config):
    (x, value), (bdim, value_bdim) = vals, dims
    if bdim is not_mapped:
        bdim = 0
        x = structural.broadcast(x, (_shape(value)[value_bdim],))
    config = list(padding_config)
    config.insert(bdim, (0, 0, 0))
    if value_bdim is not_mapped:
        return slicing.pad(x, value, config), bdim
    # A batched padding value: pad with zeros, then select the value where a padded
    # mask of ones says the element is padding.
    aval = core.get_aval(x)
    padded = slicing.pad(x, np.zeros((), aval.dtype), config)
    mask = slicing.pad(structural.broadcast_in_dim(np.True_, aval.shape, ()), np.False_,
                       config)
    fill = structural.broadcast_in_dim(value, _shape(padded), (bdim,))
    return ew.select(mask, padded, fill), bdim


def _concatenate_batch(vals, dims, *, dimension):
    size = _size(vals, dims)
    xs = [structural.broadcast(x, (size,)) if d is not_mapped else moveaxis(x, d, 0)
          for x, d in zip(vals, dims, strict=True)]
    return slicing.concatenate(xs, dimension + 1), 0


primitive_batchers[slicing.slice_p] = _slice_batch
primitive_batchers[slicing.pad_p] = _pad_batch
primitive_batchers[slicing.concatenate_p] = _concatenate_batch


# ---------------------------------------------------------------------------------------
# layout.py

def _stack_batch(vals, dims, *, axis):
    bdim = dims[0]
    if bdim is not not_mapped and all(d == bdim for d in dims):
        if axis <= bdim:
            return layout.stack_p.bind(*vals, axis=axis), bdim + 1
        return layout.stack_p.bind(*vals, axis=axis + 1), bdim
    size = _size(vals, dims)
    xs = [structural.broadcast(x, (size,)) if d is not_mapped else moveaxis(x, d, 0)
          for x, d in zip(vals, dims, strict=True)]
    return layout.stack_p.bind(*xs, axis=axis + 1), 0


def _split_batch(vals, dims, *, sizes, axis):
    (x,), (bdim,) = vals, dims
    outs = layout.split_p.bind(x, sizes=sizes, axis=axis + 1 if axis >= bdim else axis)
    return outs, [bdim] * len(sizes)


def _tile_batch(vals, dims, *, reps):
    (x,), (bdim,) = vals, dims
    reps = list(reps)
    reps.insert(bdim, 1)
    return layout.tile(x, reps), bdim


defvectorized(layout.copy_p)
# (as in JAX: a bitcast that changes the width adds or removes a trailing axis, which
# the batch axis is never at unless it is the operand's last)
defvectorized(layout.bitcast_convert_type_p)
primitive_batchers[layout.stack_p] = _stack_batch
primitive_batchers[layout.split_p] = _split_batch
primitive_batchers[layout.tile_p] = _tile_batch

# The transposes and broadcasts the batching interpreter builds (it sits below lax).
batching.transpose = structural.transpose
batching.broadcast_in_dim_p = structural.broadcast_in_dim_p
batching.expand_dims = structural.expand_dims
