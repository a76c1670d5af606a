"""Shared helpers of ``transpile.numpy``: argument checks, dtype and rank promotion.

Promotion follows ``jax.numpy``: dtypes first (every operand is converted to the
lattice result, weak Python scalars becoming literals of the target dtype), then ranks
(operands of different non-zero ranks get leading 1s through ``broadcast_in_dim``;
the lax op broadcasts the 1s and rank-0 operands itself).
"""
from __future__ import annotations

import operator
import warnings

import numpy as np

from .. import core, dtypes, lax
from ..array import Array
from ..config import config
from ..core import Tracer

__all__ = ["check_arraylike", "is_arraylike", "promote_dtypes", "promote_dtypes_inexact",
           "promote_dtypes_numeric", "promote_shapes", "promote_args",
           "promote_args_inexact", "promote_args_numeric", "broadcast_shapes",
           "broadcast_to_rank", "canonicalize_axis", "canonicalize_axes", "ensure_array",
           "aval", "convert", "lift_constant", "to_inexact_dtype", "is_python_scalar"]

_SCALAR_TYPES = (bool, int, float, complex)


def is_python_scalar(x) -> bool:
    return type(x) in _SCALAR_TYPES or (isinstance(x, _SCALAR_TYPES)
                                        and not isinstance(x, np.generic))


def is_arraylike(x) -> bool:
    """True for values a ``jnp`` function accepts as an array operand."""
    return (isinstance(x, (Array, Tracer, np.ndarray, np.generic))
            or isinstance(x, _SCALAR_TYPES))


def check_arraylike(fun_name: str, *args) -> None:
    """Raise JAX's ``TypeError`` for a non-array operand (a list, a string, None)."""
    for pos, arg in enumerate(args):
        # an object with __jax_array__ goes on, to be refused (as JAX does) when traced
        if not is_arraylike(arg) and not hasattr(arg, "__jax_array__"):
            raise TypeError(f"{fun_name} requires ndarray or scalar arguments, got "
                            f"{type(arg)} at position {pos}.")


def aval(x) -> core.ShapedArray:
    return core.get_aval(x)


def lift_constant(value: np.ndarray, weak_type: bool = False):
    """A concrete NumPy value as an operand.

    Under a jaxpr trace a 0-d value becomes a literal of the trace, as JAX stages it;
    otherwise (and eagerly) it is an ``Array``, which stays concrete (usable as a
    boolean mask) and becomes a constvar when an operation uses it.
    """
    if value.ndim == 0 and core.cur_dynamic_level() >= 0:
        # A Python scalar is what stages as a weakly typed literal.
        return core.find_top_trace(()).full_raise(value.item() if weak_type else value[()])
    return Array._new(value, weak_type)


def ensure_array(x):
    """``x`` as an Array or tracer (see :func:`lift_constant`); Python scalars stay
    weakly typed."""
    if isinstance(x, (Array, Tracer)):
        return x
    if is_python_scalar(x) and core.cur_dynamic_level() >= 0:
        return core.find_top_trace(()).full_raise(x)  # a literal with the Python value
    a = core.get_aval(x)
    return lift_constant(core.to_numpy(x, a), a.weak_type)


def to_inexact_dtype(dt) -> np.dtype:
    """``dt`` if it is a float or complex dtype, else the default float dtype."""
    dt = np.dtype(dt)
    return dt if dtypes.is_float(dt) or dtypes.is_complex(dt) else \
        dtypes.default_float_dtype()


def convert(x, dtype, weak_type: bool):
    """``x`` cast to ``dtype`` (strong unless ``weak_type``), emitting nothing when it is
    already of that type.

    A Python scalar whose weak type is the target is left alone, so that it stages as
    a literal with its Python value (``0.017453292519943295:f32[]``), as in JAX.
    """
    if weak_type and is_python_scalar(x) and not isinstance(x, bool) and \
            aval(x).dtype == np.dtype(dtype):
        return x
    return lax._convert_element_type(x, dtype, weak_type)


def _uniform(args, kinds: str) -> bool:
    """True when every operand is a strongly typed host ``Array`` of one dtype (of one of
    ``kinds``) and one rank: promotion leaves them as they are, so eager arithmetic
    skips it."""
    a0 = args[0]
    if type(a0) is not Array or a0._weak_type:
        return False
    v0 = a0._value
    dt, nd = v0.dtype, v0.ndim
    if dtypes.kind(dt) not in kinds or (dt.itemsize == 8 and not config.x64_enabled):
        return False  # a 64-bit array made under x64 is canonicalised by promotion
    for a in args[1:]:
        if type(a) is not Array or a._weak_type:
            return False
        v = a._value
        if v.dtype != dt or v.ndim != nd:
            return False
    return True


def promote_dtypes(*args) -> list:
    """Convert all operands to their common dtype (JAX's lattice, weak types kept)."""
    if len(args) < 2 or _uniform(args, "biuf"):
        return list(args)
    to_dtype, weak = dtypes.result_type(*args, return_weak_type_flag=True)
    return [convert(x, to_dtype, weak) for x in args]


def promote_dtypes_inexact(*args) -> list:
    """Like :func:`promote_dtypes`, then integers and booleans go to the default float."""
    if _uniform(args, "f"):
        return list(args)
    to_dtype, weak = dtypes.result_type(*args, return_weak_type_flag=True)
    to_dtype = to_inexact_dtype(to_dtype)
    return [convert(x, to_dtype, weak) for x in args]


def promote_dtypes_numeric(*args) -> list:
    """Like :func:`promote_dtypes`, then booleans go to the default integer."""
    to_dtype, weak = dtypes.result_type(*args, return_weak_type_flag=True)
    if to_dtype == np.bool_:
        to_dtype = dtypes.default_int_dtype()
    return [convert(x, to_dtype, weak) for x in args]


def broadcast_shapes(*shapes) -> tuple:
    """The NumPy broadcast of ``shapes``; raises JAX's ``ValueError`` when incompatible."""
    return lax.broadcast_shapes(*shapes)


def broadcast_to_rank(x, rank: int):
    """Prepend size-1 dimensions until ``x`` has ``rank`` dimensions."""
    shape = aval(x).shape
    if len(shape) == rank:
        return x
    lead = rank - len(shape)
    return lax.broadcast_in_dim(x, (1,) * lead + shape, tuple(range(lead, rank)))


def _rank_promotion_check(fun_name: str, shapes) -> None:
    mode = config.jax_numpy_rank_promotion
    shown = " ".join(str(tuple(s)) for s in shapes)
    if mode == "warn":
        warnings.warn(f"Following NumPy automatic rank promotion for {fun_name} on shapes "
                      f"{shown}. Set the jax_numpy_rank_promotion config option to 'allow' "
                      "to disable this warning; for more information, see "
                      "https://docs.jax.dev/en/latest/rank_promotion_warning.html.",
                      stacklevel=4)
    elif mode == "raise":
        raise ValueError(f"Operands could not be broadcast together for {fun_name} on shapes "
                         f"{shown} and with the config option "
                         "jax_numpy_rank_promotion='raise'. For more information, see "
                         "https://docs.jax.dev/en/latest/rank_promotion_warning.html.")


def promote_shapes(fun_name: str, *args) -> list:
    """Raise the rank of operands whose non-zero ranks differ (NumPy rank promotion)."""
    if len(args) < 2 or _uniform(args, "biuf"):
        return list(args)
    shapes = [aval(a).shape for a in args]
    nonscalar_ranks = {len(s) for s in shapes if s}
    if len(nonscalar_ranks) < 2:
        # Equal ranks and scalars: the lax op broadcasts them itself.
        return list(args)
    _rank_promotion_check(fun_name, shapes)
    rank = len(broadcast_shapes(*shapes))
    return [broadcast_to_rank(a, rank) for a in args]


def promote_args(fun_name: str, *args) -> list:
    """Check, promote dtypes, then promote ranks."""
    check_arraylike(fun_name, *args)
    return promote_shapes(fun_name, *promote_dtypes(*args))


def promote_args_inexact(fun_name: str, *args) -> list:
    check_arraylike(fun_name, *args)
    return promote_shapes(fun_name, *promote_dtypes_inexact(*args))


def promote_args_numeric(fun_name: str, *args) -> list:
    check_arraylike(fun_name, *args)
    return promote_shapes(fun_name, *promote_dtypes_numeric(*args))


def canonicalize_axis(axis, ndim: int) -> int:
    """A non-negative axis; JAX's ``ValueError`` if out of range."""
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an "
                        "integer") from None
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim if ndim else axis


def canonicalize_axes(axis, ndim: int) -> tuple:
    """``axis`` (None, an int or a sequence) as a tuple of non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        out = tuple(canonicalize_axis(a, ndim) for a in axis)
    else:
        out = (canonicalize_axis(axis, ndim),)
    if len(set(out)) != len(out):
        raise ValueError(f"duplicate value in 'axis': {axis}")
    return out
