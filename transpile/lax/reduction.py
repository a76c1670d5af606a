"""Reductions over axes (``reduce_sum`` ... ``reduce_xor``), ``argmax``/``argmin``, and
the cumulative reductions ``cumsum``, ``cumprod``, ``cummax``, ``cummin``.

NumPy rules follow XLA where NumPy differs: integer sums and products wrap in the
operand's dtype, float16 accumulates in float32, ``max``/``min`` propagate NaN and
order ``-0.0`` below ``0.0`` (whatever the element order), and an empty reduction
gives the operation's identity (``-inf`` for a float max, the dtype's minimum for an
integer one). ``argmax``/``argmin`` treat NaN as the extreme value (the first NaN
wins) and ``-0.0 == 0.0``. Float32/float64 subnormal operands read as zeros of their
sign and subnormal partial results are flushed (XLA:CPU's DAZ/FTZ): extrema through
``daz``, sums and products through ``reduction_ftz`` when a value comes near that range.
"""
from __future__ import annotations

import operator

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from . import _bfloat16, _float8, _narrow_int, reduction_ftz
from ._xla_math import daz

__all__ = ["reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and",
           "reduce_or", "reduce_xor", "argmax", "argmin", "cumsum", "cumprod", "cummax",
           "cummin", "reduce_sum_p", "reduce_prod_p", "reduce_max_p", "reduce_min_p",
           "reduce_and_p", "reduce_or_p", "reduce_xor_p", "argmax_p", "argmin_p",
           "cumsum_p", "cumprod_p", "cummax_p", "cummin_p"]


# ---------------------------------------------------------------------------------------
# Checks shared by the rules

def _check_axes(x: ShapedArray, axes) -> None:
    if any(not 0 <= a < x.ndim for a in axes):
        raise ValueError(f"reduction axes {axes} contains out-of-bounds indices for "
                         f"{x.str_long()}.")
    if len(set(axes)) != len(axes):
        raise ValueError(f"duplicate value in 'axes' of reduction: {axes}")


def _check_number(name: str, dtype) -> None:
    if dtypes.kind(np.dtype(dtype)) not in "iufc":
        raise TypeError(f"{name} does not accept dtype {np.dtype(dtype).name}. Accepted "
                        "dtypes are subtypes of number.")


def _check_logical(name: str, dtype) -> None:
    if np.dtype(dtype).kind not in "biu":
        raise TypeError("logical reduction requires operand dtype bool or int, got "
                        f"{np.dtype(dtype).name}.")


def _reduced_shape(shape, axes) -> tuple:
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def _as_axes(axes) -> tuple:
    # The axis objects are kept as given (JAX prints NumPy ints as `np.int64(1)`).
    axes = tuple(axes)
    for a in axes:
        operator.index(a)
    return axes


# ---------------------------------------------------------------------------------------
# NumPy helpers with XLA's semantics

def _wide(dtype) -> np.dtype:
    """The dtype to accumulate ``dtype`` in: 64-bit ints (wrapping is modular, so
    narrowing the result gives XLA's wrapped value) and float32 for 16-bit floats."""
    dtype = np.dtype(dtype)
    if dtype.kind == "i":
        return np.dtype(np.int64)
    if dtype.kind == "u":
        return np.dtype(np.uint64)
    if dtypes.half_name(dtype):
        return np.dtype(np.float32)
    return dtype


def _identity(op: str, dtype) -> np.generic:
    dtype = np.dtype(dtype)
    if op in ("sum", "or", "xor"):
        return dtype.type(0)
    if op == "prod":
        return dtype.type(1)
    if op == "and":
        return np.invert(dtype.type(0)) if dtype.kind in "iu" else np.bool_(True)
    lowest = op == "max"
    if dtypes.is_float(dtype) or dtypes.is_complex(dtype):
        return dtype.type(-np.inf if lowest else np.inf)
    if dtype.kind == "b":
        return np.bool_(not lowest)
    info = dtypes.iinfo(dtype)
    return dtype.type(info.min if lowest else info.max)


def _fix_zero_sign(out, x, op: str, axis, accumulate: bool = False):
    """Give zero results the sign XLA's max/min give: max(-0, 0) = 0, min(-0, 0) = -0.

    A zero max is -0 only if every element so far is negative-signed; a zero min is -0
    if any element is.
    """
    if not dtypes.is_float(x.dtype) or x.size == 0:
        return out
    zero = np.asarray(out == 0)
    if not zero.any():  # the common case, decided on the (smaller) result
        return out
    neg = np.signbit(x)
    if accumulate:
        combine = np.logical_and if op == "max" else np.logical_or
        negative = combine.accumulate(neg, axis=axis)
    else:
        negative = np.all(neg, axis=axis) if op == "max" else np.any(neg, axis=axis)
    return np.where(zero, np.where(negative, x.dtype.type(-0.0), x.dtype.type(0.0)), out)


def _fix_nan(out, x, op: str, axes):
    """Give NaN results XLA's bits. XLA folds each line in order with max/min: the first
    NaN comes out, its sign bit kept for max only if every element before it is
    negative-signed, set for min if any is (float16 too, unlike its elementwise max);
    bfloat16 makes it its quiet NaN of that sign, float8_e5m2 its positive quiet NaN
    (observed on JAX 0.10.2: ``tests/data/nan_signs.json``)."""
    dt = x.dtype
    if dt not in _SIGNED_NAN or x.size == 0:
        return out
    nan_out = np.isnan(np.asarray(out, np.float32))
    if not nan_out.any():
        return out
    if dt == dtypes.float8_e5m2:
        return np.where(nan_out, _float8.convert(np.full(np.shape(out), np.nan, np.float16),
                                                 dt), out)
    keep = [a for a in range(x.ndim) if a not in axes]
    lines = np.transpose(x, keep + list(axes)).reshape([x.shape[a] for a in keep] + [-1])
    first = np.argmax(np.isnan(np.asarray(lines, np.float32)), axis=-1)[..., None]
    before = np.arange(lines.shape[-1]) < first
    u = np.dtype(f"u{dt.itemsize}")
    sign = u.type(1 << (8 * dt.itemsize - 1))
    ubits = lines.view(u)
    neg = (ubits & sign) != 0
    bits = np.take_along_axis(ubits, first, -1)[..., 0]
    if op == "max":
        signed = ((bits & sign) != 0) & np.all(neg | ~before, axis=-1)
    else:
        signed = ((bits & sign) != 0) | np.any(neg & before, axis=-1)
    if dt == dtypes.bfloat16:
        bits = np.full_like(bits, 0x7FC0)
    bits = (bits & ~sign) | np.where(signed, sign, u.type(0))
    return np.where(nan_out, bits.view(dt), out)


#: float types whose NaN has a sign that max/min reductions set (the float8 types with
#: one NaN pattern, and e8m0fnu, have none).
_SIGNED_NAN = frozenset(np.dtype(t) for t in (
    np.float16, np.float32, np.float64, dtypes.bfloat16, dtypes.float8_e4m3fn,
    dtypes.float8_e5m2))


def _reduce_impl(op: str):
    def impl(x, *, axes, **_):
        axes = tuple(int(a) for a in axes)
        if not axes:
            return x
        if op in ("sum", "prod") and _float8.is_small(x.dtype):
            return _float8.reduce_rounded(x, axes, op)
        if _float8.is_small(x.dtype):  # exact in float16 (float32), as XLA computes it
            return _float8.extremum(impl)(x, axes=axes)
        if _narrow_int.is_narrow(x.dtype):  # in int8/uint8, wrapped back
            return _narrow_int.narrow(impl(_narrow_int.widen(x), axes=axes), x.dtype)
        if op in ("sum", "prod"):
            fn = np.sum if op == "sum" else np.prod
            # A contiguous operand already in the accumulation dtype is summed where it
            # lies: its copy would have the same layout, hence the same summation order.
            same = x.flags.c_contiguous or x.flags.f_contiguous
            wide = x.astype(_wide(x.dtype), copy=not same)
            out = fn(wide, axis=axes)
            # subnormal operands and partial results flushed (XLA:CPU's DAZ/FTZ) where
            # some value comes near them: the slow road, rarely taken
            if reduction_ftz.flushes(wide, op, out):
                return reduction_ftz.reduce_flushed(wide, axes, op, x.dtype)
            return out.astype(x.dtype, copy=False)
        if op in ("max", "min"):
            fn = np.max if op == "max" else np.min
            # subnormal operands read as zeros of their sign (XLA:CPU's DAZ; recorded:
            # max of [tiny / 4, -1] is 0.0 in JAX 0.10.2)
            x = daz(x)
            out = fn(x, axis=axes, initial=_identity(op, x.dtype))
            return _fix_nan(_fix_zero_sign(out, x, op, axes), x, op, axes)
        ufunc = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
        if x.dtype == np.bool_:
            ufunc = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}[op]
        return ufunc.reduce(x, axis=axes, initial=_identity(op, x.dtype)).astype(x.dtype)
    return impl


# ---------------------------------------------------------------------------------------
# reduce_*

def _reduction(name: str, op: str, dtype_check, keeps_weak: bool):
    p = core.new_primitive(name)

    def abstract(x, *, axes, **params):
        _check_axes(x, axes)
        dtype_check(name, x.dtype)
        return ShapedArray(_reduced_shape(x.shape, axes), x.dtype,
                           x.weak_type and keeps_weak)

    p.def_abstract_eval(abstract)
    p.def_impl(_reduce_impl(op))
    return p


def _any_dtype(name, dtype) -> None:
    pass


reduce_sum_p = _reduction("reduce_sum", "sum", _check_number, True)
reduce_prod_p = _reduction("reduce_prod", "prod", _check_number, True)
reduce_max_p = _reduction("reduce_max", "max", _any_dtype, True)
reduce_min_p = _reduction("reduce_min", "min", _any_dtype, True)
# Observed in JAX 0.10.2: the logical reductions drop the weak type.
reduce_and_p = _reduction("reduce_and", "and", _check_logical, False)
reduce_or_p = _reduction("reduce_or", "or", _check_logical, False)
reduce_xor_p = _reduction("reduce_xor", "xor", _check_logical, False)


def reduce_sum(operand, axes, *, out_sharding=None):
    """Sum of ``operand`` over ``axes`` (non-negative, distinct), in its own dtype.

    Parameters
    ----------
    operand : array_like
        A numeric (not bool) array.
    axes : sequence of int
    out_sharding : None
        Accepted for compatibility; only None is supported.

    Returns
    -------
    Array
        Integer sums wrap around.
    """
    if out_sharding is not None:
        raise NotImplementedError("transpile does not support shardings; pass None")
    return reduce_sum_p.bind(operand, axes=_as_axes(axes), out_sharding=None)


def _reduce_api(p, doc: str):
    def f(operand, axes):
        return p.bind(operand, axes=_as_axes(axes))
    f.__name__ = f.__qualname__ = p.name
    f.__doc__ = (f"{doc} of ``operand`` over ``axes`` (non-negative, distinct).\n\n"
                 "Parameters\n----------\noperand : array_like\naxes : sequence of int\n\n"
                 "Returns\n-------\nArray\n")
    return f


reduce_prod = _reduce_api(reduce_prod_p, "Product (wrapping for integers)")
reduce_max = _reduce_api(reduce_max_p, "Maximum (NaN-propagating)")
reduce_min = _reduce_api(reduce_min_p, "Minimum (NaN-propagating)")
reduce_and = _reduce_api(reduce_and_p, "Bitwise (logical, for bool) and")
reduce_or = _reduce_api(reduce_or_p, "Bitwise (logical, for bool) or")
reduce_xor = _reduce_api(reduce_xor_p, "Bitwise (logical, for bool) xor")


# ---------------------------------------------------------------------------------------
# argmax, argmin

def _arg_reduction(name: str, np_fn):
    p = core.new_primitive(name)

    @p.def_abstract_eval
    def abstract(x, *, axes, index_dtype):
        if np.dtype(index_dtype).kind not in "iu":
            raise TypeError(f"index_dtype must be an integer type, but got "
                            f"{np.dtype(index_dtype).name}")
        if len(axes) != 1 or not 0 <= axes[0] < x.ndim:
            shown = axes[0] if len(axes) == 1 else axes
            raise ValueError(f"Invalid axis {shown} for operand shape {x.shape}")
        axis = axes[0]
        if dtypes.is_complex(x.dtype):  # JAX's comparator refuses complex operands
            op = "gt" if name == "argmax" else "lt"
            raise TypeError(f"{op} does not accept dtype {x.dtype.name} at position 0. "
                            "Accepted dtypes at position 0 are subtypes of integer, "
                            "floating, bool.")
        if x.shape[axis] == 0:
            raise ValueError("argmin and argmax require non-empty reduced dimension. "
                             f"operand.shape={x.shape} axis={axis}")
        return ShapedArray(_reduced_shape(x.shape, axes), index_dtype, False)

    @p.def_impl
    @_float8.extremum
    def impl(x, *, axes, index_dtype):
        # NumPy's argmax/argmin already pick the first NaN and treat -0.0 == 0.0;
        # subnormals compare as zeros (XLA:CPU's DAZ: argmax of [0, tiny / 4] is 0).
        return np_fn(daz(x), axis=int(axes[0])).astype(index_dtype)

    return p


argmax_p = _arg_reduction("argmax", np.argmax)
argmin_p = _arg_reduction("argmin", np.argmin)


def _arg_api(p, which: str):
    def f(operand, axis, index_dtype):
        index_dtype = dtypes.canonicalize_dtype(index_dtype, warn_name=p.name)
        operator.index(axis)
        return p.bind(operand, axes=(axis,), index_dtype=index_dtype)
    f.__name__ = f.__qualname__ = p.name
    f.__doc__ = (f"Index of the {which} of ``operand`` along ``axis``; the first one on "
                 "ties, the first NaN if any.\n\nParameters\n----------\noperand : "
                 "array_like\naxis : int\n    Non-negative; that axis must not be empty.\n"
                 "index_dtype : dtype-like\n    An integer dtype.\n\nReturns\n-------\n"
                 "Array\n")
    return f


argmax = _arg_api(argmax_p, "largest value")
argmin = _arg_api(argmin_p, "smallest value")


# ---------------------------------------------------------------------------------------
# cumsum, cumprod, cummax, cummin

def _cumulative(name: str, op: str):
    p = core.new_primitive(name)

    @p.def_abstract_eval
    def abstract(x, *, axis, reverse):
        _check_number(name, x.dtype)
        if axis < 0:
            raise ValueError("XLA operations do not allow negative axes")
        if axis >= x.ndim:
            raise ValueError(f"axis {axis} is out of bounds for array of shape {x.shape}")
        return x

    @p.def_impl
    def impl(x, *, axis, reverse):
        if x.size == 0:
            return x
        if op in ("sum", "prod") and x.dtype == dtypes.bfloat16:
            if reduction_ftz.flushes(_bfloat16.to_float32(x)):
                # bfloat16's subnormals are float32's: operands and steps flushed
                return _bfloat16.scan(x, axis, op, reverse,
                                      decode=lambda v: daz(_bfloat16.to_float32(v)),
                                      rounder=lambda v: _bfloat16.round_trip(daz(v)))
            return _bfloat16.scan(x, axis, op, reverse)
        if _float8.is_small(x.dtype):
            if op in ("sum", "prod"):
                return _float8.scan(x, axis, op, reverse)
            return _float8.extremum(impl)(x, axis=axis, reverse=reverse)
        if reverse:
            x = np.flip(x, axis)
        if op in ("sum", "prod"):
            fn = np.cumsum if op == "sum" else np.cumprod
            wide = x.astype(_wide(x.dtype))
            out = fn(wide, axis=axis)
            if reduction_ftz.flushes(wide, op, out):   # XLA:CPU's DAZ/FTZ, every step
                out = reduction_ftz.cumulative_flushed(wide, axis, op)
            elif op == "sum" and out.dtype.kind == "f":
                # the accumulator starts at +0.0: a -0.0 first operand sums to +0.0
                first = (slice(None),) * axis + (0,)
                out[first] += out.dtype.type(0)
            out = out.astype(x.dtype)
        else:
            ufunc = np.maximum if op == "max" else np.minimum
            x = daz(x)   # subnormals read as zeros of their sign, as XLA:CPU reads them
            out = _fix_zero_sign(ufunc.accumulate(x, axis=axis), x, op, axis,
                                 accumulate=True)
        return np.flip(out, axis) if reverse else out

    return p


cumsum_p = _cumulative("cumsum", "sum")
cumprod_p = _cumulative("cumprod", "prod")
cummax_p = _cumulative("cummax", "max")
cummin_p = _cumulative("cummin", "min")


def _cum_api(p, doc: str):
    def f(operand, axis: int = 0, reverse: bool = False):
        return p.bind(operand, axis=operator.index(axis), reverse=bool(reverse))
    f.__name__ = f.__qualname__ = p.name
    f.__doc__ = (f"Cumulative {doc} of ``operand`` along ``axis``.\n\nParameters\n"
                 "----------\noperand : array_like\n    A numeric (not bool) array.\n"
                 "axis : int\n    Non-negative.\nreverse : bool\n    Accumulate from the "
                 "end of the axis.\n\nReturns\n-------\nArray\n    Same shape and dtype.\n")
    return f


cumsum = _cum_api(cumsum_p, "sum (wrapping for integers)")
cumprod = _cum_api(cumprod_p, "product (wrapping for integers)")
cummax = _cum_api(cummax_p, "maximum (NaN-propagating)")
cummin = _cum_api(cummin_p, "minimum (NaN-propagating)")
