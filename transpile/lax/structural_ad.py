"""Differentiation rules of the structural, slicing and layout primitives
(``lax/structural.py``, ``lax/slicing.py``, ``lax/layout.py``).

All of them but ``iota`` and ``bitcast_convert_type`` are linear in their array operands:
the JVP applies the primitive to the tangents and the transpose rule moves a cotangent
back to the operand's shape (sum over broadcast axes, pad a slice back with zeros, split
a concatenation, ...), in the form JAX 0.10.2's rules take so that differentiated
jaxprs print the same equations (parameters included: JAX keeps some NumPy integers
in the ``pad`` configurations it builds, and so do these rules).
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..interpreters import ad
from ..interpreters.ad import Zero, is_undefined_primal
from . import layout, slicing, structural
from .elementwise import sub
from .reduction import reduce_sum
from .structural import expand_dims, reshape, transpose

__all__: list = []


def _aval(x):
    return x.aval if is_undefined_primal(x) else core.get_aval(x)


def _tuple_delete(t, idx) -> tuple:
    idx = set(idx)
    return tuple(v for i, v in enumerate(t) if i not in idx)


# ---------------------------------------------------------------------------------------
# broadcast_in_dim, reshape, squeeze, transpose, rev

def _broadcast_in_dim_transpose(ct, operand, *, shape, broadcast_dimensions, sharding):
    if not is_undefined_primal(operand):
        return [None]
    unit_dims = [i for i, s in enumerate(operand.aval.shape) if s == 1]
    bdims = _tuple_delete(broadcast_dimensions, unit_dims)
    axes = _tuple_delete(tuple(range(len(shape))), bdims)
    return [expand_dims(reduce_sum(ct, axes), unit_dims)]


ad.deflinear2(structural.broadcast_in_dim_p, _broadcast_in_dim_transpose)


def _reshape_transpose(ct, operand, *, new_sizes, dimensions, sharding):
    if dimensions is None:
        return [reshape(ct, operand.aval.shape)]
    sizes = tuple(operand.aval.shape[d] for d in dimensions)
    return [transpose(reshape(ct, sizes), np.argsort(dimensions))]


ad.deflinear2(structural.reshape_p, _reshape_transpose)
ad.deflinear2(structural.squeeze_p,
              lambda ct, operand, *, dimensions: [expand_dims(ct, dimensions)])
ad.deflinear2(structural.transpose_p,
              lambda ct, operand, *, permutation: [transpose(ct, np.argsort(permutation))])
ad.deflinear2(structural.rev_p,
              lambda ct, operand, *, dimensions: [structural.rev(ct, dimensions)])


# ---------------------------------------------------------------------------------------
# slice, pad, concatenate, iota

def _slice_jvp(primals, tangents, *, start_indices, limit_indices, strides):
    (x,), (t,) = primals, tangents
    params = dict(start_indices=start_indices, limit_indices=limit_indices, strides=strides)
    out = slicing.slice_p.bind(x, **params)
    if isinstance(t, Zero):
        return out, Zero(ad.tangent_aval(core.get_aval(out).strip_weak_type()))
    return out, slicing.slice_p.bind(t, **params)


def _slice_transpose(cts, operand, *, start_indices, limit_indices, strides):
    ct, = cts
    if isinstance(ct, Zero) or not is_undefined_primal(operand):
        return [None]
    shape = operand.aval.shape
    ct_shape = core.get_aval(ct).shape
    if strides is None or np.all(np.equal(strides, 1)):
        pads = zip(start_indices, np.subtract(shape, limit_indices), (0,) * len(shape))
    else:
        real_limits = np.add(start_indices, np.where(
            np.array(ct_shape) == 0, 0,
            np.add(1, np.multiply(np.subtract(ct_shape, 1), strides))))
        pads = zip(start_indices, np.subtract(shape, real_limits), np.subtract(strides, 1))
    zero = np.array(0, core.get_aval(ct).dtype)
    return [slicing.pad_p.bind(ct, zero, padding_config=tuple(pads))]


ad.jvp_rules[slicing.slice_p] = _slice_jvp
ad.transpose_rules[slicing.slice_p] = _slice_transpose


def _pad_transpose(ct, operand, padding_value, *, padding_config):
    lo, hi, interior = zip(*padding_config) if padding_config else ((), (), ())
    ct_aval = core.get_aval(ct)

    def total(x):
        return reduce_sum(x, list(range(ct_aval.ndim)))

    t_operand = None
    if is_undefined_primal(operand):
        unpad = tuple(zip(np.negative(lo), np.negative(hi), np.zeros_like(interior)))
        unpadded = slicing.pad_p.bind(ct, np.array(0., ct_aval.dtype), padding_config=unpad)
        u_shape = core.get_aval(unpadded).shape
        t_operand = slicing.slice_p.bind(
            unpadded, start_indices=tuple(np.zeros_like(lo)), limit_indices=tuple(u_shape),
            strides=tuple(np.add(interior, 1)))
    t_padv = None
    if is_undefined_primal(padding_value):
        t_padv = sub(total(ct), total(t_operand)) if t_operand is not None else None
    return [t_operand, t_padv]


ad.deflinear2(slicing.pad_p, _pad_transpose)


def _concatenate_transpose(ct, *operands, dimension):
    shapes = [_aval(o).shape for o in operands]
    return layout.split(ct, tuple(s[dimension] for s in shapes), axis=dimension)


ad.deflinear2(slicing.concatenate_p, _concatenate_transpose)
ad.defjvp_zero(slicing.iota_p)


# ---------------------------------------------------------------------------------------
# copy, bitcast_convert_type, stack, split, tile

ad.deflinear(layout.copy_p, lambda ct: [layout.copy_p.bind(ct)])
ad.defjvp_zero(layout.bitcast_convert_type_p)


def _stack_transpose(ct, *operands, axis):
    # JAX binds ``unstack`` here; transpile has no such primitive, so the cotangent is
    # split along ``axis`` and each piece reshaped (one equation more per operand).
    pieces = layout.split(ct, (1,) * len(operands), axis=axis)
    return [reshape(p, _aval(o).shape) for p, o in zip(pieces, operands, strict=True)]


ad.deflinear2(layout.stack_p, _stack_transpose)


def _split_transpose(cts, operand, *, sizes, axis):
    if all(isinstance(c, Zero) for c in cts):
        return [None]
    cts = [ad.instantiate(c) for c in cts]
    return [slicing.concatenate(cts, axis)]


ad.deflinear2(layout.split_p, _split_transpose)


def _tile_transpose(ct, operand, *, reps):
    if not is_undefined_primal(operand):
        return [None]
    shape = operand.aval.shape
    ct_r = reshape(ct, tuple(k for pair in zip(reps, shape, strict=True) for k in pair))
    return [reduce_sum(ct_r, tuple(2 * i for i in range(len(shape))))]


ad.deflinear2(layout.tile_p, _tile_transpose)

# The zeros and broadcasts the AD interpreter builds (it sits below lax).
ad.full = structural.full
ad.broadcast_in_dim_p = structural.broadcast_in_dim_p
