"""Static indexing ``x[idx]`` and indexed updates ``x.at[idx].set(...)``.

An index made of integers, slices, ``None`` and ``Ellipsis`` becomes, as in JAX, one
``slice`` (start/limit/stride per dimension), then ``rev`` for negative steps, then
``squeeze`` for the integer positions, then ``broadcast_in_dim`` for the new axes. A
concrete boolean mask selects its elements with static slices joined by
``concatenate`` (JAX uses ``gather``). Updates need no scatter: the new values are
placed with the inverse operations (``pad`` with interior padding undoes a strided
slice) and merged into the array with ``select_n`` under a constant boolean mask.

An out-of-range integer reads the clamped element and an update there is dropped, as
in JAX (which stages the read as ``dynamic_slice``, so that jaxpr differs). Integer-array
indexing (gather) and indexing at traced positions (dynamic_slice) are not implemented
yet and raise ``NotImplementedError``.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from .. import dtypes, lax
from ..array import Array
from ..core import Tracer
from ..errors import NonConcreteBooleanIndexError
from ._util import aval, ensure_array

__all__ = ["getitem", "IndexUpdateHelper", "IndexUpdateRef"]

_NON_TUPLE_MSG = ("Using a non-tuple sequence for multidimensional indexing is not allowed; "
                  "use `arr[array(seq)]` instead of `arr[seq]`. See "
                  "https://github.com/jax-ml/jax/issues/4564 for more information.")


class _Mask:
    """A concrete boolean mask entry of an index."""

    __slots__ = ("value",)

    def __init__(self, value: np.ndarray):
        self.value = value


def _classify(entry):
    """One index entry as None, Ellipsis, a slice, an int or a _Mask; raise JAX's errors."""
    if entry is None or entry is Ellipsis or isinstance(entry, slice):
        return entry
    if isinstance(entry, (str, bytes)):
        raise TypeError(f"JAX does not support string indexing; got idx={entry!r}")
    if isinstance(entry, list):
        entry = np.asarray(entry)
    if isinstance(entry, (bool, np.bool_)):
        return _Mask(np.asarray(entry))
    if isinstance(entry, Tracer):
        value = entry.to_concrete_value()
        if aval(entry).dtype == np.bool_:
            if value is None:
                raise NonConcreteBooleanIndexError(entry)
            return _Mask(np.asarray(value))
        if aval(entry).dtype.kind not in "iu":
            raise TypeError("Indexer must have integer or boolean type, got indexer with type "
                            f"{aval(entry).dtype}")
        if value is None:
            raise NotImplementedError(
                "indexing with a traced integer (dynamic_slice/gather) is not implemented "
                "yet in transpile")
        entry = np.asarray(value)
    if isinstance(entry, int):
        return entry
    arr = np.asarray(entry._value if isinstance(entry, Array) else entry)
    if arr.dtype == np.bool_:
        return _Mask(arr)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"Indexer must have integer or boolean type, got indexer with type "
                        f"{arr.dtype}")
    if arr.ndim == 0:
        return int(arr)
    raise NotImplementedError("integer array indexing (gather) is not implemented yet in "
                              "transpile")


def _check_slice(s: slice, pos: int) -> slice:
    if any(isinstance(v, Tracer) and v.to_concrete_value() is None
           for v in (s.start, s.stop, s.step)):
        raise IndexError(f"Slice entries must be static integers. Got {s} at position {pos}")
    return s


class _Index:
    """A parsed static index: entries after Ellipsis expansion, one per output role."""

    def __init__(self, shape: tuple, idx):
        if isinstance(idx, list):
            raise TypeError(_NON_TUPLE_MSG)
        raw = idx if isinstance(idx, tuple) else (idx,)
        entries = []
        for pos, e in enumerate(raw):
            e = _classify(e)
            if isinstance(e, slice):
                e = _check_slice(e, pos)
            entries.append(e)
        if sum(1 for e in entries if e is Ellipsis) > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        used = sum(e.value.ndim if isinstance(e, _Mask) else 1 for e in entries
                   if e is not None and e is not Ellipsis)
        if used > len(shape):
            raise IndexError(f"Too many indices: array is {len(shape)}-dimensional, but "
                             f"{used} were indexed")
        fill = [slice(None)] * (len(shape) - used)
        if any(e is Ellipsis for e in entries):
            at = next(i for i, e in enumerate(entries) if e is Ellipsis)
            entries = entries[:at] + fill + entries[at + 1:]
        else:
            entries = entries + fill
        self.shape = shape
        self.entries = entries
        masks = [i for i, e in enumerate(entries) if isinstance(e, _Mask)]
        if len(masks) > 1:
            raise NotImplementedError("indexing with several boolean masks needs gather, "
                                      "which transpile does not implement yet")
        self.mask_pos = masks[0] if masks else None
        if self.mask_pos is not None:
            advanced = [i for i, e in enumerate(entries)
                        if isinstance(e, (int, _Mask))]
            if advanced != list(range(advanced[0], advanced[-1] + 1)):
                raise NotImplementedError(
                    "a boolean mask combined with non-adjacent integer indices needs "
                    "gather, which transpile does not implement yet")
            self._check_mask()

    def _check_mask(self):
        dim = self._dim_of(self.mask_pos)
        m = self.entries[self.mask_pos].value
        want = self.shape[dim:dim + m.ndim]
        if m.shape != want:
            raise IndexError("boolean index did not match shape of indexed array in index "
                             f"{dim}: got {m.shape}, expected {list(want)}")

    def _dim_of(self, pos: int) -> int:
        """The array dimension consumed by entry ``pos``."""
        dim = 0
        for e in self.entries[:pos]:
            if e is None:
                continue
            dim += e.value.ndim if isinstance(e, _Mask) else 1
        return dim

    def numpy_index(self) -> tuple:
        """The same index for NumPy (integers already in range)."""
        return tuple(e.value if isinstance(e, _Mask) else e for e in self.entries)


# ---------------------------------------------------------------------------------------
# The static path: slice -> rev -> squeeze -> broadcast_in_dim

def _slice_plan(s: slice, n: int):
    """(start, limit, stride, reversed) of a forward slice equal to ``s`` up to reversal."""
    start, stop, step = s.indices(n)
    count = len(range(start, stop, step))
    if step > 0:
        return start, (max(start, stop) if count else start), step, False
    if count == 0:
        lo = min(stop + 1, n)
        return lo, lo, -step, True
    lo = start + (count - 1) * step
    return lo, start + 1, -step, True


class _Plan:
    """Per-dimension slicing of the static entries, and where ints and Nones go."""

    def __init__(self, shape: tuple, entries, clamp: bool = True):
        self.shape = shape
        self.starts, self.limits, self.strides = [], [], []
        self.rev_dims, self.squeeze_dims, self.out_roles = [], [], []
        self.out_of_bounds = False
        dim = 0
        for e in entries:
            if e is None:
                self.out_roles.append("new")
                continue
            n = shape[dim]
            if isinstance(e, int):
                i = e + n if e < 0 else e
                if not 0 <= i < n:
                    if n == 0:
                        raise IndexError(f"index is out of bounds for axis {dim} with size 0")
                    self.out_of_bounds = True
                    # JAX clamps a gather (dynamic_slice) index into range.
                    i = min(max(i, 0), n - 1)
                self.starts.append(i)
                self.limits.append(i + 1)
                self.strides.append(1)
                self.squeeze_dims.append(dim)
            else:
                lo, hi, st, rev = _slice_plan(e, n)
                self.starts.append(lo)
                self.limits.append(hi)
                self.strides.append(st)
                if rev:
                    self.rev_dims.append(dim)
                self.out_roles.append("kept")
            dim += 1

    def needs_slice(self) -> bool:
        return any(lo != 0 or hi != n or st != 1 for lo, hi, st, n in
                   zip(self.starts, self.limits, self.strides, self.shape, strict=True))

    def sliced_shape(self) -> tuple:
        return tuple(max(0, -(-(hi - lo) // st)) for lo, hi, st in
                     zip(self.starts, self.limits, self.strides, strict=True))

    def apply(self, x):
        if self.needs_slice():
            strides = None if all(s == 1 for s in self.strides) else tuple(self.strides)
            x = lax.slice(x, tuple(self.starts), tuple(self.limits), strides)
        if self.rev_dims:
            x = lax.rev(x, tuple(self.rev_dims))
        if self.squeeze_dims:
            x = lax.squeeze(x, tuple(self.squeeze_dims))
        if "new" in self.out_roles:
            kept_shape = aval(x).shape
            out_shape, bdims, it = [], [], iter(kept_shape)
            for i, role in enumerate(self.out_roles):
                if role == "new":
                    out_shape.append(1)
                else:
                    bdims.append(i)
                    out_shape.append(next(it))
            x = lax.broadcast_in_dim(x, tuple(out_shape), tuple(bdims))
        return x

    def invert(self, v, fill):
        """Place ``v`` (shaped like ``apply``'s result) into an array of ``shape``."""
        if "new" in self.out_roles:
            new_dims = tuple(i for i, r in enumerate(self.out_roles) if r == "new")
            v = lax.squeeze(v, new_dims)
        sliced = self.sliced_shape()
        if self.squeeze_dims:
            kept = tuple(d for d in range(len(sliced)) if d not in self.squeeze_dims)
            v = lax.broadcast_in_dim(v, sliced, kept)
        if self.rev_dims:
            v = lax.rev(v, tuple(self.rev_dims))
        if self.needs_slice():
            config = []
            for lo, st, k, n in zip(self.starts, self.strides, sliced, self.shape,
                                    strict=True):
                last = lo + (k - 1) * st
                config.append((lo, n - last - 1, st - 1))
            v = lax.pad(v, fill, tuple(config))
        return v


# ---------------------------------------------------------------------------------------
# Boolean masks: merge the mask's dimensions, keep the selected runs

def _runs(positions: np.ndarray):
    """Consecutive runs of sorted positions as (start, stop) pairs."""
    runs = []
    for p in positions.tolist():
        if runs and runs[-1][1] == p:
            runs[-1][1] = p + 1
        else:
            runs.append([p, p + 1])
    return [tuple(r) for r in runs]


def _axis_slice(x, axis: int, start: int, stop: int):
    shape = aval(x).shape
    lo = [0] * len(shape)
    hi = list(shape)
    lo[axis], hi[axis] = start, stop
    return lax.slice(x, tuple(lo), tuple(hi))


def _merge_mask_dims(x, dim: int, ndim_mask: int):
    shape = aval(x).shape
    if ndim_mask == 1:
        return x
    merged = shape[:dim] + (math.prod(shape[dim:dim + ndim_mask]),) + shape[dim + ndim_mask:]
    return lax.reshape(x, merged)


def _take_positions(x, axis: int, positions: np.ndarray):
    n = aval(x).shape[axis]
    runs = _runs(positions)
    if runs == [(0, n)]:
        return x
    if not runs:
        return _axis_slice(x, axis, 0, 0)
    pieces = [_axis_slice(x, axis, a, b) for a, b in runs]
    return pieces[0] if len(pieces) == 1 else lax.concatenate(pieces, axis)


def _place_positions(v, axis: int, positions: np.ndarray, n: int, fill):
    """Inverse of :func:`_take_positions`: ``v``'s slices at ``positions``, ``fill`` between."""
    shape = aval(v).shape
    pieces, taken, cursor = [], 0, 0
    for a, b in _runs(positions):
        if a > cursor:
            gap = shape[:axis] + (a - cursor,) + shape[axis + 1:]
            pieces.append(lax.broadcast_in_dim(fill, gap, ()))
        pieces.append(_axis_slice(v, axis, taken, taken + b - a))
        taken += b - a
        cursor = b
    if cursor < n:
        gap = shape[:axis] + (n - cursor,) + shape[axis + 1:]
        pieces.append(lax.broadcast_in_dim(fill, gap, ()))
    return pieces[0] if len(pieces) == 1 else lax.concatenate(pieces, axis)


# ---------------------------------------------------------------------------------------
# Entry points

def getitem(x, idx):
    """``x[idx]`` for static indices and concrete boolean masks."""
    shape = aval(x).shape
    index = _Index(shape, idx)
    entries = list(index.entries)
    if index.mask_pos is not None:
        dim = index._dim_of(index.mask_pos)
        mask = entries[index.mask_pos].value
        x = _merge_mask_dims(x, dim, mask.ndim)
        x = _take_positions(x, dim, np.flatnonzero(mask))
        entries[index.mask_pos] = slice(None)
        shape = aval(x).shape
    plan = _Plan(shape, entries)
    return ensure_array(plan.apply(x))


def _scatter_set(x, idx, values, mode=None):
    """``x`` with ``values`` (already cast, broadcastable to ``x[idx]``) placed at ``idx``."""
    x_aval = aval(x)
    index = _Index(x_aval.shape, idx)
    entries = list(index.entries)
    mask_info = None
    shape = x_aval.shape
    if index.mask_pos is not None:
        dim = index._dim_of(index.mask_pos)
        mask = entries[index.mask_pos].value
        merged = _merge_mask_dims(x, dim, mask.ndim)
        positions = np.flatnonzero(mask)
        mask_info = (dim, mask, positions, aval(merged).shape)
        shape = aval(merged).shape[:dim] + (len(positions),) + aval(merged).shape[dim + 1:]
        entries[index.mask_pos] = slice(None)
    plan = _Plan(shape, entries)
    if plan.out_of_bounds and mode != "clip":
        return ensure_array(x)  # out-of-bounds updates are dropped
    from .shape_ops import broadcast_to
    target = _result_shape(plan)
    values = broadcast_to(values, target)
    fill = np.zeros((), x_aval.dtype)[()]
    placed = plan.invert(values, fill)
    if mask_info is not None:
        dim, mask, positions, merged_shape = mask_info
        placed = _place_positions(placed, dim, positions, merged_shape[dim], fill)
        if mask.ndim != 1:
            placed = lax.reshape(placed, x_aval.shape)
    selected = np.zeros(x_aval.shape, bool)
    selected[_numpy_index(index, plan, x_aval.shape)] = True
    if selected.all():
        return ensure_array(placed)
    if not selected.any():
        return ensure_array(x)
    return lax.select_n(selected, x, placed)


def _numpy_index(index: _Index, plan: _Plan, shape: tuple) -> tuple:
    """The NumPy index selecting the updated elements (ints clamped as the plan does)."""
    out, dim = [], 0
    for e in index.entries:
        if e is None:
            out.append(None)
            continue
        if isinstance(e, int):
            n = shape[dim]
            i = e + n if e < 0 else e
            out.append(min(max(i, 0), n - 1))
            dim += 1
        elif isinstance(e, _Mask):
            out.append(e.value)
            dim += e.value.ndim
        else:
            out.append(e)
            dim += 1
    return tuple(out)


def _result_shape(plan: _Plan) -> tuple:
    sliced = plan.sliced_shape()
    kept = iter(d for i, d in enumerate(sliced) if i not in plan.squeeze_dims)
    return tuple(1 if r == "new" else next(kept) for r in plan.out_roles)


# ---------------------------------------------------------------------------------------
# .at[]

_GATHER_MODES = {None, "clip", "fill", "drop", "promise_in_bounds"}


def _check_mode(mode):
    if mode is not None and not isinstance(mode, str):
        mode = getattr(mode, "name", str(mode)).lower()
    if mode not in _GATHER_MODES:
        raise ValueError(f'Unknown gather mode "{mode}"')
    return mode


def _cast_values(x, values):
    from ._util import check_arraylike
    check_arraylike("scatter", values)
    x_dt = aval(x).dtype
    v_dt = dtypes.result_type(values)
    if dtypes.result_type(x, values) != x_dt:
        warnings.warn("scatter inputs have incompatible types: cannot safely cast value from "
                      f"dtype={v_dt} to dtype={x_dt} with jax_numpy_dtype_promotion=standard. "
                      "In future JAX releases this will result in an error.", FutureWarning,
                      stacklevel=4)
    return lax._convert_element_type(values, x_dt, aval(x).weak_type)


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
        """``x[idx]``; out-of-bounds integers clamp, or give ``fill_value`` with
        ``mode='fill'``."""
        mode = _check_mode(mode)
        out = getitem(self.array, self.index)
        if mode in ("fill", "drop") and _Plan(
                aval(self.array).shape, _Index(aval(self.array).shape,
                                               self.index).entries).out_of_bounds:
            return _fill_like(out, fill_value)
        return out

    def _update(self, new_values_fn, values, mode):
        mode = _check_mode(mode)
        x = self.array
        v = _cast_values(x, values)
        current = getitem(x, self.index)
        return _scatter_set(x, self.index, new_values_fn(current, v), mode)

    def set(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None,
            out_sharding=None, wrap_negative_indices=True):
        """``x`` with ``x[idx] = values``."""
        mode = _check_mode(mode)
        v = _cast_values(self.array, values)
        return _scatter_set(self.array, self.index, v, mode)

    def add(self, values, **kwargs):
        """``x`` with ``x[idx] += values``."""
        return self._update(lax.add, values, kwargs.get("mode"))

    def subtract(self, values, **kwargs):
        """``x`` with ``x[idx] -= values``."""
        return self._update(lax.sub, values, kwargs.get("mode"))

    def multiply(self, values, **kwargs):
        """``x`` with ``x[idx] *= values``."""
        return self._update(lax.mul, values, kwargs.get("mode"))

    mul = multiply

    def divide(self, values, **kwargs):
        """``x / y`` where ``y`` is ``values`` at ``idx`` and 1 elsewhere (float result)."""
        from .creation import ones_like
        from .ufuncs import divide
        ones = ones_like(self.array)
        divisor = IndexUpdateRef(ones, self.index).multiply(values, **kwargs)
        return divide(self.array, divisor)

    def power(self, values, **kwargs):
        """``x`` with ``x[idx] **= values``."""
        from .ufuncs_compound import power
        return self._update(lambda a, b: lax._convert_element_type(
            power(a, b), aval(a).dtype, aval(a).weak_type), values, kwargs.get("mode"))

    def min(self, values, **kwargs):  # noqa: A003
        """``x`` with ``x[idx] = minimum(x[idx], values)``."""
        return self._update(lax.min, values, kwargs.get("mode"))

    def max(self, values, **kwargs):  # noqa: A003
        """``x`` with ``x[idx] = maximum(x[idx], values)``."""
        return self._update(lax.max, values, kwargs.get("mode"))

    def apply(self, func, *, indices_are_sorted=False, unique_indices=False, mode=None,
              out_sharding=None, wrap_negative_indices=True):
        """``x`` with ``x[idx] = func(x[idx])``."""
        mode = _check_mode(mode)
        x = self.array
        new = func(getitem(x, self.index))
        new = lax._convert_element_type(new, aval(x).dtype, aval(x).weak_type)
        return _scatter_set(x, self.index, new, mode)


def _fill_like(out, fill_value):
    a = aval(out)
    if fill_value is None:
        dt = a.dtype
        fill_value = (np.nan if dt.kind == "f" else True if dt == np.bool_ else
                      np.iinfo(dt).min if dt.kind == "i" else np.iinfo(dt).max)
    scalar = np.array(fill_value).astype(a.dtype)[()]
    if not a.shape:
        return ensure_array(scalar)
    return lax.broadcast_in_dim(scalar, a.shape, ())


class IndexUpdateHelper:
    """``x.at``: index it to get an :class:`IndexUpdateRef`."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, index) -> IndexUpdateRef:
        return IndexUpdateRef(self.array, index)

    def __repr__(self) -> str:
        return f"_IndexUpdateHelper({self.array!r})"
