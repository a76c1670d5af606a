"""``x[idx]`` and the indexed updates ``x.at[idx].set(...)``, staged as JAX 0.10.2 does.

Reads take one of three paths, chosen as JAX chooses them:

* static: integers in range, slices, ``None`` and Ellipsis become ``slice``, ``rev``,
  ``squeeze`` and ``broadcast_in_dim``;
* dynamic slice: when some integer is traced (or an ``Array``, or a static integer out
  of range) and every slice has step 1 or -1, one ``dynamic_slice`` whose starts are
  normalised (negative indices wrap once), then ``rev``, ``squeeze``, ``broadcast_in_dim``;
* gather: everything else (integer arrays, boolean masks, other steps, ``mode='fill'``),
  through :func:`_indexer.gather_indexer`.

Updates always scatter (``scatter``, ``scatter-add``, ...), with the operand and the
values promoted together and the result cast back to the operand's type, as JAX does.
Reads clamp out-of-range indices (``PROMISE_IN_BOUNDS``); updates drop them
(``FILL_OR_DROP``); ``mode`` chooses otherwise.
"""
from __future__ import annotations

import warnings

import numpy as np

from .. import core, dtypes, lax
from . import _indexer as ix
from ._indexer import Entry, INDEX_DTYPE
from ._util import aval, check_arraylike, ensure_array, lift_constant
from .creation import ones_like
from .shape_ops import broadcast_to
from .ufuncs import divide
from .ufuncs_compound import power

__all__ = ["getitem", "rewriting_take", "IndexUpdateHelper", "IndexUpdateRef"]


# ---------------------------------------------------------------------------------------
# Reads

def getitem(x, idx):
    """``x[idx]``."""
    return rewriting_take(x, idx)


def _gather_mode(mode):
    """The ``lax.gather`` mode of a read: None stays None (``PROMISE_IN_BOUNDS``)."""
    return None if mode is None else lax.GatherScatterMode.from_any(mode)


def rewriting_take(x, idx, *, indices_are_sorted=False, unique_indices=False, mode=None,
                   fill_value=None, wrap_negative_indices=True):
    """``x[idx]`` with ``.at[idx].get``'s options (see the module doc)."""
    x = ensure_array(x)
    shape = aval(x).shape
    parsed_mode = _gather_mode(mode)
    entries = ix.parse_index(shape, idx)
    filling = parsed_mode == lax.GatherScatterMode.FILL_OR_DROP
    if not filling and not any(e.kind in ("array", "bool") for e in entries):
        if _is_static(shape, entries):
            return ensure_array(_static_take(x, entries))
        if _is_dynamic_slice(entries):
            return ensure_array(_dynamic_take(x, entries, wrap_negative_indices))
    shape, entries, bool_axes = ix.expand_bool_scalars(shape, entries)
    if wrap_negative_indices:
        entries = _normalized(shape, entries)
    indexer = ix.gather_indexer(shape, entries, normalize=False)
    if bool_axes:
        x = _insert_axes(x, bool_axes)
    if ix.is_empty(indexer.slice_shape):
        return _zeros(x, indexer.slice_shape)
    y = x
    if not ix.is_empty(core.get_aval(indexer.indices).shape):
        y = lax.gather(y, indexer.indices, indexer.dnums, indexer.slice_sizes,
                       unique_indices=unique_indices or indexer.unique_and_sorted,
                       indices_are_sorted=indices_are_sorted or indexer.unique_and_sorted,
                       mode=parsed_mode, fill_value=fill_value)
    if indexer.reversed_dims:
        y = lax.rev(y, indexer.reversed_dims)
    if indexer.newaxis_dims:
        y = lax.expand_dims(y, indexer.newaxis_dims)
    return ensure_array(y)


def _insert_axes(x, axes):
    shape = list(aval(x).shape)
    for a in axes:
        shape.insert(a, 1)
    kept = tuple(d for d in range(len(shape)) if d not in axes)
    return lax.broadcast_in_dim(x, tuple(shape), kept)


def _zeros(x, shape):
    a = aval(x)
    zero = np.zeros((), a.dtype)[()]
    if a.weak_type:
        zero = zero.item()
    return lax.broadcast_in_dim(zero, tuple(shape), ())


def _is_static(shape, entries) -> bool:
    dim = 0
    for e in entries:
        if e.kind == "int":
            if not e.static or not -shape[dim] <= e.value < shape[dim]:
                return False
        if e.consumes:
            dim += 1
    return True


def _is_dynamic_slice(entries) -> bool:
    return all(e.kind != "slice" or e.value.step in (None, 1, -1) for e in entries)


def _static_take(x, entries):
    """slice -> rev -> squeeze -> broadcast_in_dim, for static in-range indices."""
    shape = aval(x).shape
    starts, limits, strides, rev_dims, squeeze_dims, new_dims = [], [], [], [], [], []
    dim = out = 0
    for e in entries:
        if e.kind == "none":
            new_dims.append(out)
            out += 1
            continue
        if e.kind == "gap":
            continue
        n = shape[dim]
        if e.kind == "int":
            i = e.value + n if e.value < 0 else e.value
            starts.append(i)
            limits.append(i + 1)
            strides.append(1)
            squeeze_dims.append(dim)
        else:
            lo, hi, st, rev = _forward_slice(e.value, n)
            starts.append(lo)
            limits.append(hi)
            strides.append(st)
            if rev:
                rev_dims.append(dim)
            out += 1
        dim += 1
    if any(lo != 0 or hi != n or st != 1
           for lo, hi, st, n in zip(starts, limits, strides, shape, strict=True)):
        x = lax.slice(x, tuple(starts), tuple(limits),
                      None if all(s == 1 for s in strides) else tuple(strides))
    if rev_dims:
        x = lax.rev(x, tuple(rev_dims))
    if squeeze_dims:
        x = lax.squeeze(x, tuple(squeeze_dims))
    if new_dims:
        x = lax.expand_dims(x, tuple(new_dims))
    return x


def _forward_slice(s: slice, n: int):
    """(start, limit, stride, reversed) of a forward slice equal to ``s`` up to reversal."""
    start, stop, step = s.indices(n)
    count = len(range(start, stop, step))
    if step > 0:
        return start, (max(start, stop) if count else start), step, False
    if count == 0:
        # Where JAX puts an empty reversed slice (observed on JAX 0.10.2).
        lo = min(max(start - step, stop + 1), n)
        return lo, lo, -step, True
    lo = start + (count - 1) * step
    return lo, start + 1, -step, True


def _dynamic_take(x, entries, wrap: bool):
    """One ``dynamic_slice`` for integer (some traced) and unit-step slice indices."""
    shape = aval(x).shape
    dim = 0
    for e in entries:
        if e.kind == "int" and shape[dim] == 0:
            raise IndexError(f"index is out of bounds for axis {dim} with size 0")
        dim += e.consumes
    if len(shape) == 1:
        # A single integer on a vector: lax.dynamic_slice normalises it.
        e = next(e for e in entries if e.kind == "int")
        # A static integer (out of range) is staged like an Array: lt/add/select_n.
        start = e.value if not e.static else lift_constant(np.asarray(e.value, INDEX_DTYPE))
        y = lax.dynamic_slice(x, (start,), (1,), allow_negative_indices=wrap)
        return _finish_dynamic(y, entries, (), (0,))
    converted = [ix.to_index_dtype(e.value) if e.kind == "int" and not e.static else None
                 for e in entries]
    starts, sizes, rev_dims, squeeze_dims = [], [], [], []
    dim = 0
    for e, conv in zip(entries, converted, strict=True):
        if e.kind in ("none", "gap"):
            continue
        n = shape[dim]
        if e.kind == "int":
            start = conv if conv is not None else np.asarray(e.value, INDEX_DTYPE)[()]
            sizes.append(1)
            squeeze_dims.append(dim)
        else:
            lo, hi, _, rev = _forward_slice(e.value, n)
            start = np.asarray(lo, INDEX_DTYPE)[()]
            sizes.append(hi - lo)
            if rev:
                rev_dims.append(dim)
        starts.append(ix.normalize_index(start, n, force_staged=True) if wrap else start)
        dim += 1
    y = lax.dynamic_slice(x, starts, sizes, allow_negative_indices=False)
    return _finish_dynamic(y, entries, tuple(rev_dims), tuple(squeeze_dims))


def _finish_dynamic(y, entries, rev_dims, squeeze_dims):
    if rev_dims:
        y = lax.rev(y, rev_dims)
    y = lax.squeeze(y, squeeze_dims)
    new_dims, out = [], 0
    for e in entries:
        if e.kind == "none":
            new_dims.append(out)
            out += 1
        elif e.kind == "slice":
            out += 1
    if new_dims:
        y = lax.expand_dims(y, tuple(new_dims))
    return y


# ---------------------------------------------------------------------------------------
# Updates

_SCATTERS = {"set": lax.scatter, "add": lax.scatter_add, "subtract": lax.scatter_sub,
             "multiply": lax.scatter_mul, "min": lax.scatter_min, "max": lax.scatter_max}


def _as_value(y):
    if isinstance(y, (list, tuple)):
        return np.asarray(y)
    check_arraylike("scatter", y)
    return y


def _cast_scalar(y, dtype, weak: bool):
    """A Python/NumPy scalar as a literal of ``dtype`` (weak ones stay Python values)."""
    if weak and dtype == dtypes.dtype_and_weak(y)[0]:
        return y
    with np.errstate(all="ignore"):  # Python ints wrap into narrow types, as in JAX
        return np.asarray(y).astype(dtype)[()]


def _promote(x, y):
    """(x, y) converted to their common type; warns as JAX does when ``y`` does not fit
    ``x``'s dtype."""
    xa = aval(x)
    dtype, weak = dtypes.result_type(x, y, return_weak_type_flag=True)
    if dtype != xa.dtype:
        warnings.warn("scatter inputs have incompatible types: cannot safely cast value "
                      f"from dtype={dtypes.result_type(y)} to dtype={xa.dtype} with "
                      "jax_numpy_dtype_promotion=standard. In future JAX releases this "
                      "will result in an error.", FutureWarning, stacklevel=5)
    x = lax._convert_element_type(x, dtype, weak)
    if isinstance(y, (bool, int, float, np.generic)):
        y = _cast_scalar(y, dtype, weak)
    else:
        y = lax._convert_element_type(y, dtype, weak)
    return x, y


def scatter_update(x, idx, y, op: str, *, indices_are_sorted=False, unique_indices=False,
                   mode=None, wrap_negative_indices=True, apply_fn=None):
    """``x.at[idx].<op>(y)`` (``op`` a key of ``_SCATTERS``, or "apply" with
    ``apply_fn``)."""
    x = ensure_array(x)
    x_aval = aval(x)
    y = _as_value(y)
    lax.GatherScatterMode.from_any(mode)  # validates before any equation
    entries = ix.parse_index(x_aval.shape, idx)
    shape, entries, bool_axes = ix.expand_bool_scalars(x_aval.shape, entries)
    if wrap_negative_indices:
        entries = _normalized(shape, entries)
    indexer = ix.gather_indexer(shape, entries, normalize=False)
    if ix.is_empty(indexer.slice_shape):
        return x  # nothing to update (the indices were still staged, as in JAX)
    x, y = _promote(x, y)
    y = broadcast_to(y, indexer.slice_shape)
    if indexer.newaxis_dims:
        y = lax.squeeze(y, indexer.newaxis_dims)
    if indexer.reversed_dims:
        y = lax.rev(y, indexer.reversed_dims)
    if bool_axes:
        x = _insert_axes(x, bool_axes)
    d = indexer.dnums
    dnums = lax.ScatterDimensionNumbers(update_window_dims=d.offset_dims,
                                        inserted_window_dims=d.collapsed_slice_dims,
                                        scatter_dims_to_operand_dims=d.start_index_map)
    flags = dict(indices_are_sorted=indices_are_sorted or indexer.unique_and_sorted,
                 unique_indices=unique_indices or indexer.unique_and_sorted, mode=mode)
    if op == "apply":
        out = lax.scatter_apply(x, indexer.indices, apply_fn, dnums,
                                update_shape=aval(y).shape, **flags)
    else:
        out = _SCATTERS[op](x, indexer.indices, y, dnums, **flags)
    if bool_axes:
        out = lax.squeeze(out, bool_axes)
    return ensure_array(lax._convert_element_type(out, x_aval.dtype, x_aval.weak_type))


def _normalized(shape, entries):
    """Integer entries with negative values wrapped (before the indexer, as JAX's
    scatter does)."""
    out, dim = [], 0
    for e in entries:
        if e.kind in ("int", "array"):
            e = Entry(e.kind, ix.normalize_index(e.value, shape[dim]), e.static)
        out.append(e)
        dim += e.consumes
    return out


# ---------------------------------------------------------------------------------------
# .at[]

class IndexUpdateRef:
    """``x.at[idx]``: pure indexed updates returning a new array."""

    __slots__ = ("array", "index")

    def __init__(self, array, index):
        self.array = array
        self.index = index

    def __repr__(self) -> str:
        return f"_IndexUpdateRef({self.array!r}, {self.index!r})"

    def get(self, *, indices_are_sorted=False, unique_indices=False, mode=None,
            fill_value=None, out_sharding=None, wrap_negative_indices=True):
        """``x[idx]``; out-of-range indices clamp, or give ``fill_value`` with
        ``mode='fill'`` (NaN, INT_MIN, the unsigned maximum or True by default)."""
        return rewriting_take(self.array, self.index, indices_are_sorted=indices_are_sorted,
                              unique_indices=unique_indices, mode=mode,
                              fill_value=fill_value,
                              wrap_negative_indices=wrap_negative_indices)

    def _scatter(self, op, values, indices_are_sorted, unique_indices, mode,
                 wrap_negative_indices):
        if type(values) is int:
            # As in JAX, a Python int becomes a default-int array first (whatever the
            # operand's dtype): one that does not fit raises instead of wrapping.
            info = np.iinfo(dtypes.default_int_dtype())
            if not info.min <= values <= info.max:
                raise OverflowError(f"Python int {values} too large to convert to "
                                    f"{info.dtype}")
        return scatter_update(self.array, self.index, values, op,
                              indices_are_sorted=indices_are_sorted,
                              unique_indices=unique_indices, mode=mode,
                              wrap_negative_indices=wrap_negative_indices)

    def set(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
            out_sharding=None, wrap_negative_indices=True):
        """``x`` with ``x[idx] = values`` (with repeated indices, one value wins)."""
        return self._scatter("set", values, indices_are_sorted, unique_indices, mode,
                             wrap_negative_indices)

    def add(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
            out_sharding=None, wrap_negative_indices=True):
        """``x`` with ``x[idx] += values`` (repeated indices accumulate)."""
        return self._scatter("add", values, indices_are_sorted, unique_indices, mode,
                             wrap_negative_indices)

    def subtract(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
                 out_sharding=None, wrap_negative_indices=True):
        """``x`` with ``x[idx] -= values``."""
        return self._scatter("subtract", values, indices_are_sorted, unique_indices, mode,
                             wrap_negative_indices)

    def multiply(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
                 out_sharding=None, wrap_negative_indices=True):
        """``x`` with ``x[idx] *= values``."""
        return self._scatter("multiply", values, indices_are_sorted, unique_indices, mode,
                             wrap_negative_indices)

    mul = multiply

    def divide(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
               out_sharding=None, wrap_negative_indices=True):
        """``x / d`` where ``d`` is 1 with ``values`` multiplied in at ``idx`` (a float
        result for integer ``x``, as ``jnp.divide``)."""
        divisor = IndexUpdateRef(ones_like(self.array), self.index).multiply(
            values, indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
            mode=mode, wrap_negative_indices=wrap_negative_indices)
        return divide(self.array, divisor)

    def power(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
              out_sharding=None, wrap_negative_indices=True):
        """``x ** p`` where ``p`` is 1 with ``values`` multiplied in at ``idx``."""
        exponent = IndexUpdateRef(ones_like(self.array), self.index).multiply(
            values, indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
            mode=mode, wrap_negative_indices=wrap_negative_indices)
        return power(self.array, exponent)

    def min(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,  # noqa: A003
            out_sharding=None, wrap_negative_indices=True):
        """``x`` with ``x[idx] = minimum(x[idx], values)``."""
        return self._scatter("min", values, indices_are_sorted, unique_indices, mode,
                             wrap_negative_indices)

    def max(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,  # noqa: A003
            out_sharding=None, wrap_negative_indices=True):
        """``x`` with ``x[idx] = maximum(x[idx], values)``."""
        return self._scatter("max", values, indices_are_sorted, unique_indices, mode,
                             wrap_negative_indices)

    def apply(self, func, *, indices_are_sorted=False, unique_indices=False, mode=None,
              out_sharding=None, wrap_negative_indices=True):
        """``x`` with ``x[idx] = func(x[idx])``; ``func`` is applied once per index, so
        a repeated index applies it repeatedly."""
        zero = np.zeros((), aval(self.array).dtype)[()]
        return scatter_update(self.array, self.index, zero, "apply",
                              indices_are_sorted=indices_are_sorted,
                              unique_indices=unique_indices, mode=mode,
                              wrap_negative_indices=wrap_negative_indices, apply_fn=func)


class IndexUpdateHelper:
    """``x.at``: index it to get an :class:`IndexUpdateRef`."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, index) -> IndexUpdateRef:
        return IndexUpdateRef(self.array, index)

    def __repr__(self) -> str:
        return f"_IndexUpdateHelper({self.array!r})"


