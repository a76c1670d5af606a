"""Parsing of ``x[idx]`` indices and their translation to ``gather`` dimension numbers.

An index is first parsed into one :class:`Entry` per position, after Ellipsis expansion:
``None``, a static slice, a static integer (Python or NumPy), a staged scalar integer (a
tracer or ``Array``), an integer array (NumPy, ``Array`` or tracer), or a scalar bool.
Concrete boolean masks become the integer arrays of their nonzero positions, one per
mask dimension, as in NumPy.

:func:`gather_indexer` then does what JAX 0.10.2 does for every index that is not a
plain slice: integer arrays (and the integers beside them) are broadcast together and
become collapsed dimensions read from the indices; integers are collapsed dimensions;
unit-step slices are offset (window) dimensions, with their start in the indices when
they do not cover the whole axis; other steps become ``start + step * iota`` index
arrays (reversed, for negative steps, so that the gather reads forwards). The
equations it stages are JAX's, in JAX's order.
"""
from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field

import numpy as np

from .. import core, lax
from ..array import Array
from ..core import Tracer
from ..errors import NonConcreteBooleanIndexError
from ._util import aval, lift_constant
from .shape_ops import broadcast_to

__all__ = ["Entry", "parse_index", "gather_indexer", "normalize_index", "Indexer"]

_NON_TUPLE_MSG = ("Using a non-tuple sequence for multidimensional indexing is not allowed; "
                  "use `arr[array(seq)]` instead of `arr[seq]`. See "
                  "https://github.com/jax-ml/jax/issues/4564 for more information.")

INDEX_DTYPE = np.dtype(np.int32)


@dataclass
class Entry:
    """One position of a parsed index.

    ``kind`` is "none", "slice", "int" (``static`` for Python/NumPy integers), "array"
    (``static`` for NumPy arrays) or "bool" (a scalar boolean: a new axis of size 1).
    """

    kind: str  # "gap" marks an Ellipsis that expanded to nothing
    value: object = None
    static: bool = True

    @property
    def consumes(self) -> int:
        return 1 if self.kind in ("slice", "int", "array") else 0


def _is_staged(x) -> bool:
    return isinstance(x, (Tracer, Array))


def _concrete(x):
    """The concrete NumPy value of an Array or tracer, or None."""
    if isinstance(x, Array):
        return x._value
    if isinstance(x, Tracer):
        v = x.to_concrete_value()
        return None if v is None else np.asarray(v)
    return None


def _type_error(dtype) -> TypeError:
    return TypeError(f"Indexer must have integer or boolean type, got indexer with type "
                     f"{np.dtype(dtype).name}")


def _parse_entry(e, pos: int) -> list:
    """Entries for one raw index item (a mask gives one per dimension)."""
    if e is None:
        return [Entry("none")]
    if e is Ellipsis:
        return [Entry("ellipsis")]
    if isinstance(e, slice):
        for v in (e.start, e.stop, e.step):
            if isinstance(v, Tracer) and v.to_concrete_value() is None:
                raise IndexError(f"Slice entries must be static integers. Got {e} at "
                                 f"position {pos}")
        return [Entry("slice", slice(*(None if v is None else operator.index(v)
                                       for v in (e.start, e.stop, e.step))))]
    if isinstance(e, (str, bytes)):
        raise TypeError(f"JAX does not support string indexing; got idx={e!r}")
    if isinstance(e, (bool, np.bool_)):
        return [Entry("bool", bool(e))]
    if isinstance(e, (int, np.integer)):
        return [Entry("int", int(e))]
    if isinstance(e, (list, tuple)):
        # A sequence inside a tuple index is an array, as jnp.asarray makes it.
        arr = np.asarray(e)
        if arr.dtype == np.float64 and arr.size == 0:
            arr = arr.astype(INDEX_DTYPE)  # [] indexes nothing, as in NumPy
        if arr.dtype == np.bool_:
            return _mask_entries(arr)
        if arr.dtype.kind not in "iu":
            raise _type_error(arr.dtype)
        e = Array._new(arr.astype(core.get_aval(arr).dtype), False)
    if isinstance(e, np.generic):
        if e.dtype == np.bool_:
            return [Entry("bool", bool(e))]
        if e.dtype.kind not in "iu":
            raise _type_error(e.dtype)
        return [Entry("int", int(e))]
    if isinstance(e, np.ndarray):
        if e.dtype == np.bool_:
            return _mask_entries(e)
        if e.dtype.kind not in "iu":
            raise _type_error(e.dtype)
        if e.ndim == 0:  # a 0-d NumPy array is staged like an Array, as in JAX
            return [Entry("int", lift_constant(e.astype(core.get_aval(e).dtype)),
                          static=False)]
        return [Entry("array", e)]
    if _is_staged(e):
        a = aval(e)
        if a.dtype == np.bool_:
            value = _concrete(e)
            if value is None:
                raise NonConcreteBooleanIndexError(e)
            return _mask_entries(value)
        if a.dtype.kind not in "iu":
            raise _type_error(a.dtype)
        return [Entry("int" if a.ndim == 0 else "array", e, static=False)]
    if isinstance(e, float):
        raise _type_error(np.float64)
    raise TypeError(f"Indexing mode not yet supported. Got unsupported indexer at position "
                    f"{pos}: {e!r}")


def _mask_entries(mask: np.ndarray) -> list:
    if mask.ndim == 0:
        return [Entry("bool", bool(mask))]
    return [Entry("mask", mask)]


def parse_index(shape: tuple, idx) -> list:
    """The entries of ``idx`` for an array of ``shape``: Ellipsis expanded, masks
    checked and turned into integer arrays, trailing full slices added."""
    if isinstance(idx, list):
        raise TypeError(_NON_TUPLE_MSG)
    raw = idx if isinstance(idx, tuple) else (idx,)
    entries = []
    for pos, e in enumerate(raw):
        entries.extend(_parse_entry(e, pos))
    if sum(1 for e in entries if e.kind == "ellipsis") > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(e.value.ndim if e.kind == "mask" else e.consumes for e in entries)
    if used > len(shape):
        raise IndexError(f"Too many indices: array is {len(shape)}-dimensional, but {used} "
                         "were indexed")
    fill = [Entry("slice", slice(None))] * (len(shape) - used)
    at = next((i for i, e in enumerate(entries) if e.kind == "ellipsis"), None)
    if at is not None and not fill:
        # An empty Ellipsis still separates advanced indices (NumPy's rule).
        fill = [Entry("gap")]
    entries = entries + fill if at is None else entries[:at] + fill + entries[at + 1:]
    out, dim = [], 0
    for e in entries:
        if e.kind == "mask":
            m = e.value
            want = shape[dim:dim + m.ndim]
            if m.shape != want:
                raise IndexError("boolean index did not match shape of indexed array in "
                                 f"index {dim}: got {m.shape}, expected {list(want)}")
            out.extend(Entry("array", p.astype(INDEX_DTYPE)) for p in np.nonzero(m))
            dim += m.ndim
        else:
            out.append(e)
            dim += e.consumes
    return out


def expand_bool_scalars(shape: tuple, entries: list):
    """Scalar booleans index a new axis of size 1: (shape with those axes, entries with
    the bools replaced by [0] or [] index arrays, positions of the new axes)."""
    new_shape, new_entries, axes, dim = [], [], [], 0
    for e in entries:
        if e.kind == "bool":
            axes.append(len(new_shape))
            new_shape.append(1)
            new_entries.append(Entry("array", np.arange(int(e.value), dtype=INDEX_DTYPE)))
            continue
        if e.consumes:
            new_shape.append(shape[dim])
            dim += 1
        new_entries.append(e)
    return tuple(new_shape), new_entries, tuple(axes)


# ---------------------------------------------------------------------------------------
# Negative index normalisation, as jax.numpy stages it

def _literal_like(index_aval, value: int):
    """A literal of the index's type: Python int for weak int32, else a NumPy scalar."""
    if index_aval.weak_type:
        return int(value)
    return np.asarray(value, index_aval.dtype)[()]


def normalize_index(index, size: int, force_staged: bool = False):
    """``index + size`` where ``index < 0``: Python arithmetic for static integers, a
    NumPy comparison for NumPy arrays, ``lt``/``add``/``select_n`` for staged values."""
    if not force_staged and isinstance(index, (int, np.integer)):
        return index + size if index < 0 else index
    if not force_staged and isinstance(index, np.ndarray):
        if index.dtype.kind == "u":
            return index
        dt = core.get_aval(index).dtype
        return lax.select_n(index < 0, index, lax.add(index, np.asarray(size, dt)[()]))
    a = core.get_aval(index)
    if a.dtype.kind == "u":
        return index
    is_negative = lax.lt(index, _literal_like(a, 0))
    return lax.select_n(is_negative, index, lax.add(index, _literal_like(a, size)))


def to_index_dtype(index):
    """``index`` as int32: static values in NumPy, staged ones by ``convert_element_type``
    (which leaves a strong int32 unchanged)."""
    if isinstance(index, (int, np.integer)):
        return np.asarray(index, INDEX_DTYPE)[()]
    return lax._convert_element_type(index, INDEX_DTYPE, False)


def slice_bounds(s: slice, n: int):
    """(start, step, size) of a static slice on an axis of size ``n``."""
    start, stop, step = s.indices(n)
    return start, step, len(range(start, stop, step))


# ---------------------------------------------------------------------------------------
# The gather indexer

@dataclass
class Indexer:
    """What ``gather``/``scatter`` need for an index (see the module doc)."""

    indices: object  # int32 array: batch dims + index vector
    dnums: lax.GatherDimensionNumbers
    slice_sizes: tuple
    slice_shape: tuple  # result shape before newaxis removal / reversal
    newaxis_dims: tuple
    reversed_dims: tuple
    unique_and_sorted: bool
    gather_parts: list = field(default_factory=list)


def _broadcast_advanced(arrays: list) -> list:
    shapes = [core.get_aval(a).shape for a in arrays]
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        shown = ", ".join(str(s) for s in shapes)
        raise ValueError(f"Incompatible shapes for broadcasting: shapes=[{shown}]") from None
    return [broadcast_to(a, shape) for a in arrays]


def gather_indexer(shape: tuple, entries: list, normalize: bool) -> Indexer:
    """Translate parsed ``entries`` (no scalar bools) for an array of ``shape``."""
    positions = [i for i, e in enumerate(entries) if e.consumes]
    advanced = any(e.kind == "array" for e in entries)
    adv_pos, adv_axes, adv_vals = [], [], []
    if advanced:
        for axis, i in enumerate(positions):
            e = entries[i]
            if e.kind in ("array", "int"):
                adv_pos.append(i)
                adv_axes.append(axis)
                v = e.value
                adv_vals.append(normalize_index(v, shape[axis]) if normalize else v)
        contiguous = adv_pos == list(range(adv_pos[0], adv_pos[-1] + 1))
    parts = []  # (int32 array, first batch dim)
    batch_shape: list = []
    offset_dims, collapsed, index_map = [], [], []
    slice_sizes, slice_shape, newaxis_dims, reversed_dims = [], [], [], []
    x_axis = y_axis = collapsed_y = 0
    for i, e in enumerate(entries):
        if advanced and i == (adv_pos[0] if contiguous else 0):
            arrays = _broadcast_advanced(adv_vals)
            arrays = [to_index_dtype(a) for a in arrays]
            bshape = tuple(core.get_aval(arrays[0]).shape)
            parts.extend((a, len(batch_shape)) for a in arrays)
            batch_shape.extend(bshape)
            index_map.extend(adv_axes)
            collapsed.extend(adv_axes)
            slice_shape.extend(bshape)
            y_axis += len(bshape)
            collapsed_y += len(bshape)
        if advanced and i in adv_pos:
            x_axis += 1
            slice_sizes.append(1)
            continue
        if e.kind == "gap":
            continue
        if e.kind == "int":
            n = shape[x_axis]
            if n == 0:
                raise IndexError(f"index is out of bounds for axis {x_axis} with size 0")
            v = normalize_index(e.value, n) if normalize else e.value
            parts.append((to_index_dtype(v), len(batch_shape)))
            collapsed.append(x_axis)
            slice_sizes.append(1)
            index_map.append(x_axis)
            x_axis += 1
        elif e.kind == "none":
            slice_shape.append(1)
            newaxis_dims.append(y_axis)
            y_axis += 1
        else:
            n = shape[x_axis]
            start, step, size = slice_bounds(e.value, n)
            slice_shape.append(size)
            if step == 1:
                if size != n:
                    parts.append((np.asarray(start, INDEX_DTYPE)[()], len(batch_shape)))
                    index_map.append(x_axis)
                slice_sizes.append(size)
                offset_dims.append(collapsed_y)
            else:
                ramp = lax.iota(INDEX_DTYPE, size)
                ramp = lax.add(np.asarray(start, INDEX_DTYPE)[()],
                               lax.mul(np.asarray(step, INDEX_DTYPE)[()], ramp))
                if step < 0:
                    reversed_dims.append(collapsed_y)
                    ramp = lax.rev(ramp, (0,))
                slice_sizes.append(1)
                parts.append((ramp, len(batch_shape)))
                index_map.append(x_axis)
                batch_shape.append(size)
                collapsed.append(x_axis)
            collapsed_y += 1
            y_axis += 1
            x_axis += 1
    indices = _assemble(parts, batch_shape)
    dnums = lax.GatherDimensionNumbers(offset_dims=tuple(offset_dims),
                                       collapsed_slice_dims=tuple(sorted(collapsed)),
                                       start_index_map=tuple(index_map))
    return Indexer(indices, dnums, tuple(slice_sizes), tuple(slice_shape),
                   tuple(newaxis_dims), tuple(reversed_dims), not advanced, parts)


def _assemble(parts: list, batch_shape: list):
    """The gather indices: every part broadcast over the batch dims, joined on a new
    last dimension."""
    if not parts:
        return np.zeros((0,), INDEX_DTYPE)
    if len(parts) == 1:
        g = parts[0][0]
        nd = core.get_aval(g).ndim
        return lax.broadcast_in_dim(g, core.get_aval(g).shape + (1,), tuple(range(nd)))
    full = tuple(batch_shape) + (1,)
    pieces = []
    for g, start in parts:
        nd = core.get_aval(g).ndim
        pieces.append(lax.broadcast_in_dim(g, full, tuple(range(start, start + nd))))
    return lax.concatenate(pieces, len(batch_shape))


def is_empty(shape) -> bool:
    return math.prod(shape) == 0
