"""Layout primitives: they copy, repeat, join, cut or reinterpret memory, computing nothing.

``copy``, ``bitcast_convert_type``, ``stack``, ``split`` (several results) and ``tile``,
with the lax functions JAX 0.10.2 exposes for them (``lax.copy_p`` has no function of
its own). Same conventions as ``structural.py``: each primitive is one block with its
abstract-eval rule, NumPy rule and lax API function.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ._base import check_same_dtypes
from .structural import _AxisError, _canonical_axis

__all__ = ["bitcast_convert_type", "stack", "split", "tile", "copy_p",
           "bitcast_convert_type_p", "stack_p", "split_p", "tile_p"]


# ---------------------------------------------------------------------------------------
# copy

copy_p = core.new_primitive("copy")


@copy_p.def_abstract_eval
def _copy_abstract(x):
    return ShapedArray(x.shape, x.dtype, x.weak_type)


@copy_p.def_impl
def _copy_impl(x):
    return np.array(x, copy=True)


# ---------------------------------------------------------------------------------------
# bitcast_convert_type

bitcast_convert_type_p = core.new_primitive("bitcast_convert_type")


@bitcast_convert_type_p.def_abstract_eval
def _bitcast_abstract(x, *, new_dtype):
    old, new = np.dtype(x.dtype), np.dtype(new_dtype)
    old_bits, new_bits = old.itemsize * 8, new.itemsize * 8
    shape = tuple(x.shape)
    # The shape rule runs first, as in JAX: a bool operand of a fitting shape gets the
    # dtype error below, one of another shape this one.
    if old_bits > new_bits:  # a narrower type: each element becomes a trailing row
        shape = shape + (old_bits // new_bits,)
    elif old_bits < new_bits:  # a wider type: the trailing dimension is consumed
        last = shape[-1] if shape else 1
        if not shape or last * old_bits != new_bits:
            raise ValueError(f"Attempting to convert array of shape {shape} from {old} of "
                             f"size {old_bits} bits to {new} of size {new_bits}, bits but "
                             f"{last} * {old_bits} != {new_bits}")
        shape = shape[:-1]
    if old != new and (old == np.bool_ or new == np.bool_):
        raise TypeError("lax.bitcast_convert_type does not support bool or complex values "
                        "unless the operand and destination types match. Got operand "
                        f"dtype={old}, new_dtype={new!r}. Consider using the arr.view() "
                        "method instead.")
    return ShapedArray(shape, new, False)


@bitcast_convert_type_p.def_impl
def _bitcast_impl(x, *, new_dtype):
    new = np.dtype(new_dtype)
    out_shape = _bitcast_abstract(core.get_aval(x), new_dtype=new).shape
    # Flat first: NumPy views a 0-d array only at the same item size.
    return np.ascontiguousarray(x).reshape(-1).view(new).reshape(out_shape)


def bitcast_convert_type(operand, new_dtype):
    """Reinterpret the bits of ``operand`` as ``new_dtype``.

    Parameters
    ----------
    operand : array_like
    new_dtype : dtype
        Of the same width: the shape is kept. Narrower: a trailing dimension of
        ``old_bits // new_bits`` is added. Wider: the operand's trailing dimension, of
        ``new_bits // old_bits``, is consumed. ``bool`` only to and from itself.

    Returns
    -------
    Array
    """
    new = dtypes.canonicalize_dtype(new_dtype, warn_name="bitcast_convert_type")
    return bitcast_convert_type_p.bind(operand, new_dtype=new)


# ---------------------------------------------------------------------------------------
# stack

stack_p = core.new_primitive("stack")


def check_stack_shapes(shapes) -> None:
    """Raise JAX's ``ValueError`` unless ``shapes`` (a non-empty list) are all equal."""
    if any(len(s) != len(shapes[0]) for s in shapes):
        raise ValueError("Cannot stack arrays with different numbers of dimensions: got "
                         f"{', '.join(str(s) for s in shapes)}.")
    if any(s != shapes[0] for s in shapes):
        raise ValueError("All input arrays must have the same shape. Got "
                         f"{', '.join(str(s) for s in shapes)}.")


@stack_p.def_abstract_eval
def _stack_abstract(*xs, axis):
    if not xs:
        raise IndexError("list index out of range")  # JAX indexes the first operand
    shapes = [tuple(x.shape) for x in xs]
    check_stack_shapes(shapes)
    if not 0 <= axis <= len(shapes[0]):
        raise _AxisError(axis, len(shapes[0]) + 1)
    dtype = check_same_dtypes("stack", xs)
    shape = shapes[0][:axis] + (len(xs),) + shapes[0][axis:]
    return ShapedArray(shape, dtype, all(x.weak_type for x in xs))


@stack_p.def_impl
def _stack_impl(*xs, axis):
    return np.stack(xs, axis=axis)


def stack(operands, axis: int = 0):
    """Join ``operands`` (same shape and dtype) along a new axis ``axis``.

    Parameters
    ----------
    operands : sequence of array_like
    axis : int
        The new axis's position in the result (negative values count from its end).

    Returns
    -------
    Array
    """
    operands = list(operands)
    if not operands:
        raise IndexError("list index out of range")
    ndim = len(core.get_aval(operands[0]).shape)
    return stack_p.bind(*operands, axis=_canonical_axis(axis, ndim + 1))


# ---------------------------------------------------------------------------------------
# split

split_p = core.new_primitive("split", multiple_results=True)


@split_p.def_abstract_eval
def _split_abstract(x, *, sizes, axis):
    if not 0 <= axis < x.ndim:
        raise _AxisError(axis, x.ndim)
    if any(s < 0 for s in sizes):
        raise ValueError(f"Sizes passed to split must be nonnegative, got {list(sizes)}")
    if x.shape[axis] != np.sum(sizes):
        # np.sum, as JAX: no sizes at all sum to 0.0.
        raise ValueError(f"Sum of sizes {np.sum(sizes)} must be equal to dimension {axis} "
                         f"of the operand shape {list(x.shape)}")
    return [ShapedArray(x.shape[:axis] + (int(s),) + x.shape[axis + 1:], x.dtype,
                        x.weak_type) for s in sizes]


@split_p.def_impl
def _split_impl(x, *, sizes, axis):
    cuts = np.cumsum([int(s) for s in sizes])[:-1]
    return [np.array(part) for part in np.split(x, cuts, axis=axis)]


def split(operand, sizes, axis: int = 0):
    """Cut ``operand`` along ``axis`` into pieces of ``sizes`` (summing to its length).

    Parameters
    ----------
    operand : array_like
    sizes : sequence of int
        Kept as given in the equation's params (JAX prints NumPy integers as such).
    axis : int

    Returns
    -------
    list of Array
    """
    sizes = tuple(sizes)
    ndim = len(core.get_aval(operand).shape)
    return split_p.bind(operand, sizes=sizes, axis=_canonical_axis(axis, ndim))


# ---------------------------------------------------------------------------------------
# tile

tile_p = core.new_primitive("tile")


@tile_p.def_abstract_eval
def _tile_abstract(x, *, reps):
    if len(reps) != x.ndim:
        raise TypeError("reps length must be equal to the ndim of x, got "
                        f"len(reps)={len(reps)} and x.ndim={x.ndim}.")
    if any(r < 0 for r in reps):  # JAX 0.10.2 makes a negative shape; we refuse it
        raise TypeError(f"tile reps must have every element be nonnegative, got {reps}.")
    shape = tuple(int(n) * int(r) for n, r in zip(x.shape, reps, strict=True))
    return ShapedArray(shape, x.dtype, x.weak_type)


@tile_p.def_impl
def _tile_impl(x, *, reps):
    return np.tile(x, tuple(int(r) for r in reps)) if reps else np.array(x)


def tile(operand, reps):
    """Repeat ``operand`` ``reps[d]`` times along each dimension ``d``.

    Parameters
    ----------
    operand : array_like
    reps : sequence of int
        One count per dimension of ``operand``.

    Returns
    -------
    Array
    """
    return tile_p.bind(operand, reps=tuple(reps))
