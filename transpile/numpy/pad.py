"""``jnp.pad``: every NumPy padding mode, built from slices, concatenations and ``lax.pad``.

The pad widths (and ``stat_length``/``end_values``) are static: they fix the output
shape, so they are turned into tuples of Python numbers before the staged ``_pad``.
"""
from __future__ import annotations

import numpy as np

from .. import core, lax
from ..array import Array
from ..jit import internal_jit as jit
from . import creation, reductions, shape_extra, shape_ops, sorting, ufuncs_compound
from ._util import aval, check_arraylike, convert, ensure_array

__all__ = ["pad"]

_ALLOWED_KWARGS = {
    "empty": (), "edge": (), "wrap": (),
    "constant": ("constant_values",),
    "linear_ramp": ("end_values",),
    "maximum": ("stat_length",), "mean": ("stat_length",),
    "median": ("stat_length",), "minimum": ("stat_length",),
    "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
}


def _static_value(v, name: str):
    if isinstance(v, core.Tracer):
        return core.concrete_or_error(v, f"{name} argument of jnp.pad")
    if isinstance(v, Array):
        return np.asarray(v)
    return v


def _pairs(values, nd: int, name: str) -> tuple:
    """``values`` (a scalar, a pair, or one pair per axis) as ``nd`` (before, after) pairs."""
    shown = values
    values = _pairs_item(values, name)
    try:
        arr = np.asarray(values)
    except ValueError:
        raise TypeError(f"`{name}` entries must be the same shape: {shown}") from None
    if arr.dtype == object:
        raise TypeError(f"`{name}` entries must be the same shape: {shown}")
    if arr.shape == (nd, 2):
        rows = [tuple(r) for r in arr]
    elif arr.shape == (1, 2):
        rows = [tuple(arr[0])] * nd
    elif arr.shape == (2,):
        rows = [tuple(arr)] * nd
    elif arr.shape in ((1,), ()):
        v = arr.reshape(-1)[0]
        rows = [(v, v)] * nd
    else:
        raise ValueError(f"jnp.pad: {name} with nd={nd} has unsupported shape {arr.shape}. "
                         f"Valid shapes are ({nd}, 2), (1, 2), (2,), (1,), or ().")
    return tuple((a.item(), b.item()) for a, b in rows)


def _pairs_item(v, name):
    if isinstance(v, (list, tuple)):
        return [_pairs_item(x, name) for x in v]
    return _static_value(v, name)



def _slice_axis(x, start, stop, axis: int):
    return lax.slice_in_dim(x, start, stop, axis=axis)


def _check_no_padding(widths, mode: str) -> None:
    if widths[0] > 0 or widths[1] > 0:
        raise ValueError(f"Cannot apply '{mode}' padding to empty axis")


def _lax_pad(x, value, config):
    """``lax.pad`` keeping the widths' types: JAX's come out of ``np.asarray`` and print as
    ``np.int64(...)`` in the jaxpr (``lax.pad`` itself would make them ints)."""
    return lax.pad_p.bind(x, value, padding_config=tuple(tuple(c) for c in config))


def _pad_constant(x, widths, constant_values):
    xa = aval(x)
    nd = xa.ndim
    cv = convert(ensure_array(constant_values), xa.dtype, xa.weak_type)
    cv_shape = aval(cv).shape
    if len(cv_shape) == 0 or (len(cv_shape) == 1 and cv_shape[0] == 1):
        if cv_shape:
            cv = shape_ops.squeeze(cv)
        return _lax_pad(x, cv, [(np.int64(lo), np.int64(hi), 0) for lo, hi in widths])
    if len(cv_shape) == 1 and cv_shape[0] != 2:
        raise ValueError("jnp.pad: constant_values has unsupported shape "
                         f"{cv_shape}. If the shape is 1D or 2D, the "
                         "last dimension must be of size 1 or 2.")
    cv = shape_ops.broadcast_to(cv, (nd, 2))
    # Per-axis, per-side values: one lax.pad for each non-empty side.
    for i in range(nd):
        for side in (0, 1):
            if widths[i][side]:
                config = [(0, 0, 0)] * nd
                w = np.int64(widths[i][side])
                config[i] = (w, 0, 0) if side == 0 else (0, w, 0)
                x = _lax_pad(x, cv[i, side], config)
    return x


def _pad_wrap(x, widths):
    for i, (before, after) in enumerate(widths):
        n = aval(x).shape[i]
        if n == 0:
            _check_no_padding((before, after), "wrap")
            continue
        reps_before, rem_before = divmod(before, n)
        reps_after, rem_after = divmod(after, n)
        parts = [_slice_axis(x, n - rem_before, n, i)] if rem_before else []
        parts += [x] * (reps_before + reps_after + 1)
        if rem_after:
            parts.append(_slice_axis(x, 0, rem_after, i))
        x = lax.concatenate(parts, i)
    return x


def _reflect_side(x, i: int, n: int, padding: int, before: bool, mode: str, odd: bool):
    """Grow ``x`` along axis ``i`` by ``padding`` mirrored values on one side; a pad longer
    than the axis takes several mirrorings of what is already there, each at most the
    original axis length ``n`` (as in JAX, also after the other side has grown)."""
    edge = _slice_axis(x, 0, 1, i) if before else _slice_axis(x, -1, None, i)
    offset = 1 if (mode == "reflect" and n > 1) else 0
    while padding > 0:
        step = min(padding, n - offset)
        padding -= step
        if before:
            piece = _slice_axis(x, offset, offset + step, i)
        else:
            stop = None if (mode == "symmetric" or n == 1) else -1
            piece = _slice_axis(x, -(step + offset), stop, i)
        piece = shape_ops.flip(piece, axis=i)
        if odd:
            piece = 2 * edge - piece
            if n > 1:
                edge = _slice_axis(piece, 0, 1, i) if before else _slice_axis(piece, -1, None, i)
        x = lax.concatenate([piece, x] if before else [x, piece], i)
    return x


def _pad_reflect(x, widths, mode: str, reflect_type: str):
    for i, (before, after) in enumerate(widths):
        n = aval(x).shape[i]
        if n == 0:
            _check_no_padding((before, after), mode)
            continue
        if before == 0 and after == 0:
            continue
        x = _reflect_side(x, i, n, before, True, mode, reflect_type == "odd")
        x = _reflect_side(x, i, n, after, False, mode, reflect_type == "odd")
    return x


def _pad_edge(x, widths):
    for i, (before, after) in enumerate(widths):
        n = aval(x).shape[i]
        if n == 0:
            _check_no_padding((before, after), "edge")
            continue
        lo = shape_extra.repeat(_slice_axis(x, 0, 1, i), before, axis=i)
        hi = shape_extra.repeat(_slice_axis(x, n - 1, n, i), after, axis=i)
        x = lax.concatenate([lo, x, hi], i)
    return x


def _pad_linear_ramp(x, widths, end_values):
    xa = aval(x)
    for i, (before, after) in enumerate(widths):
        ramps = []
        for side, count in ((0, before), (1, after)):
            edge = _slice_axis(x, 0, 1, i) if side == 0 else _slice_axis(x, -1, None, i)
            ramp = creation.linspace(end_values[i][side], shape_ops.squeeze(edge, i), num=count,
                                     endpoint=False, dtype=xa.dtype, axis=i)
            ramp = convert(ramp, xa.dtype, xa.weak_type)
            ramps.append(ramp if side == 0 else shape_ops.flip(ramp, i))
        x = lax.concatenate([ramps[0], x, ramps[1]], i)
    return x


def _median(a, axis: int, keepdims: bool):
    """The median along ``axis`` (the mean of the two middle values for an even count)."""
    s = sorting.sort(a, axis=axis)
    n = aval(a).shape[axis]
    lo = _slice_axis(s, (n - 1) // 2, (n - 1) // 2 + 1, axis)
    hi = _slice_axis(s, n // 2, n // 2 + 1, axis)
    out = reductions.mean(lax.concatenate([lo, hi], axis), axis=axis, keepdims=True)
    return out if keepdims else shape_ops.squeeze(out, axis)


_STATS = {"maximum": reductions.amax, "minimum": reductions.amin,
          "mean": reductions.mean, "median": _median}


def _pad_stats(x, widths, stat_length, stat):
    xa = aval(x)
    for i, (before, after) in enumerate(widths):
        if stat_length is None:
            lo_stat = hi_stat = stat(x, axis=i, keepdims=True)
        else:
            n = aval(x).shape[i]
            len_lo, len_hi = stat_length[i]
            if len_lo == 0 or len_hi == 0:
                raise ValueError("stat_length of 0 yields no value for padding")
            lo_part = _slice_axis(x, 0, min(len_lo, n), i)
            hi_part = _slice_axis(x, -min(len_hi, n), None, i)
            lo_stat = stat(lo_part, axis=i, keepdims=True)
            hi_stat = stat(hi_part, axis=i, keepdims=True)
        if xa.dtype.kind in "iu":
            lo_stat, hi_stat = ufuncs_compound.round(lo_stat), ufuncs_compound.round(hi_stat)
        lo_stat = convert(lo_stat, xa.dtype, xa.weak_type)
        hi_stat = convert(hi_stat, xa.dtype, xa.weak_type)
        x = lax.concatenate([shape_extra.repeat(lo_stat, before, axis=i), x,
                             shape_extra.repeat(hi_stat, after, axis=i)], i)
    return x


def _pad_empty(x, widths):
    # As in JAX, "empty" padding is zeros.
    for i, (before, after) in enumerate(widths):
        shp = aval(x).shape
        parts = [creation.zeros_like(x, shape=shp[:i] + (w,) + shp[i + 1:])
                 for w in (before, after)]
        x = lax.concatenate([parts[0], x, parts[1]], i)
    return x


def _pad(array, pad_width, mode, constant_values, stat_length, end_values, reflect_type):
    x = ensure_array(array)
    nd = aval(x).ndim
    if nd == 0:
        return x
    if any(w < 0 for pair in pad_width for w in pair):
        raise ValueError("index can't contain negative values")
    if mode == "constant":
        return _pad_constant(x, pad_width, constant_values)
    if mode == "wrap":
        return _pad_wrap(x, pad_width)
    if mode in ("symmetric", "reflect"):
        return _pad_reflect(x, pad_width, mode, reflect_type)
    if mode == "edge":
        return _pad_edge(x, pad_width)
    if mode == "linear_ramp":
        return _pad_linear_ramp(x, pad_width, _pairs(end_values, nd, "end_values"))
    if mode in _STATS:
        if stat_length is not None:
            stat_length = _pairs(stat_length, nd, "stat_length")
        return _pad_stats(x, pad_width, stat_length, _STATS[mode])
    return _pad_empty(x, pad_width)


_pad_jit = jit(_pad, static_argnums=(1, 2, 4, 5, 6))


def _pad_with_function(x, widths, func, kwargs):
    out = _pad_constant(x, widths, 0)
    for axis in range(aval(out).ndim):
        out = shape_extra.apply_along_axis(func, axis, out, widths[axis], axis, kwargs)
    return out


def _hashable(v):
    if isinstance(v, (list, tuple)):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, np.ndarray):
        return _hashable(v.tolist())
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, Array):
        return _hashable(np.asarray(v))
    return v


def pad(array, pad_width, mode="constant", **kwargs):
    """Pad an array.

    Parameters
    ----------
    array : array_like
    pad_width : int or sequence
        ``n``, ``(n,)``, ``(before, after)`` or one ``(before, after)`` pair per axis
        (static).
    mode : str or callable
        ``'constant'`` (default), ``'empty'`` (zeros), ``'edge'``, ``'wrap'``,
        ``'linear_ramp'``, ``'maximum'``, ``'mean'``, ``'median'``, ``'minimum'``,
        ``'reflect'``, ``'symmetric'``; or a function ``f(row, pad_width, iaxis, kwargs)``
        returning the padded 1-D ``row`` (mapped with ``vmap`` over the other axes).
    **kwargs
        ``constant_values`` (constant), ``end_values`` (linear_ramp), ``stat_length``
        (the statistics modes), ``reflect_type`` (``'even'`` or ``'odd'``).

    Returns
    -------
    Array
    """
    check_arraylike("pad", array)
    nd = aval(array).ndim
    pad_width = _pairs(pad_width, nd, "pad_width")
    if pad_width and not all(isinstance(w, int) and not isinstance(w, bool)
                             for pair in pad_width for w in pair):
        raise TypeError("`pad_width` must be of integral type.")
    if callable(mode):
        return _pad_with_function(ensure_array(array), pad_width, mode, kwargs)
    if mode not in _ALLOWED_KWARGS:
        raise NotImplementedError(f"Unimplemented padding mode '{mode}' for np.pad.")
    unsupported = set(kwargs) - set(_ALLOWED_KWARGS[mode])
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    constant_values = kwargs.get("constant_values", 0)
    if isinstance(constant_values, (list, tuple)):
        constant_values = np.asarray(constant_values)
    return _pad_jit(array, pad_width, mode, constant_values,
                    _hashable(kwargs.get("stat_length")), _hashable(kwargs.get("end_values", 0)),
                    kwargs.get("reflect_type", "even"))
