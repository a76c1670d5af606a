"""Operators, properties and methods of ``Array`` and of every ``Tracer``.

Both classes get the same functions, so ``x + 1`` or ``x.sum()`` run the same
``jnp`` code eagerly and under tracing. A binary operator returns ``NotImplemented``
for operands that are not arrays or scalars (lists, strings, None), so Python raises
its usual ``TypeError`` (or ``==`` falls back to identity).
"""
from __future__ import annotations

from ..array import Array
from ..core import Tracer
from . import (creation, indexing, linalg_ops, reductions, shape_extra, shape_ops, sorting, ufuncs,
               ufuncs_compound)
from ._util import is_arraylike

__all__ = ["install"]


def _binary(fn, reflected: bool = False):
    if reflected:
        def op(self, other):
            if not is_arraylike(other):
                if not hasattr(other, "__jax_array__"):
                    return NotImplemented
                other = other.__jax_array__()
            return fn(other, self)
    else:
        def op(self, other):
            if not is_arraylike(other):
                if not hasattr(other, "__jax_array__"):
                    return NotImplemented
                other = other.__jax_array__()
            return fn(self, other)
    return op


_BINARY_OPS = {
    "add": ufuncs.add, "sub": ufuncs.subtract, "mul": ufuncs.multiply,
    "truediv": ufuncs.true_divide, "floordiv": ufuncs_compound.floor_divide,
    "mod": ufuncs_compound.remainder, "divmod": ufuncs_compound.divmod,
    "pow": ufuncs_compound.power, "matmul": linalg_ops.matmul,
    "and": ufuncs.bitwise_and, "or": ufuncs.bitwise_or, "xor": ufuncs.bitwise_xor,
    "lshift": ufuncs.left_shift, "rshift": ufuncs.right_shift,
}

_COMPARISONS = {
    "eq": ufuncs.equal, "ne": ufuncs.not_equal, "lt": ufuncs.less,
    "le": ufuncs.less_equal, "gt": ufuncs.greater, "ge": ufuncs.greater_equal,
}


def _round(self, ndigits=None):
    # Python's round() without digits gives integers.
    if ndigits is None:
        return creation.astype(ufuncs_compound.round(self), int)
    return ufuncs_compound.round(self, ndigits)


def _reshape(self, *args, order="C"):
    """``x.reshape(2, 3)`` or ``x.reshape((2, 3))``."""
    shape = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
    return shape_ops.reshape(self, shape, order=order)


def _transpose(self, *args):
    """``x.transpose()``, ``x.transpose(1, 0)`` or ``x.transpose((1, 0))``."""
    if not args or (len(args) == 1 and args[0] is None):
        axes = None
    elif len(args) == 1 and isinstance(args[0], (tuple, list)):
        axes = args[0]
    else:
        axes = args
    return shape_ops.transpose(self, axes)


def _flatten(self, order="C"):
    return shape_ops.ravel(self, order=order)


def _forward(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


_METHODS = {
    "astype": creation.astype,
    "ravel": shape_ops.ravel,
    "swapaxes": shape_ops.swapaxes,
    "squeeze": shape_ops.squeeze,
    "repeat": shape_extra.repeat,
    "sum": reductions.sum, "prod": reductions.prod, "mean": reductions.mean,
    "var": reductions.var, "std": reductions.std, "max": reductions.max,
    "min": reductions.min, "any": reductions.any, "all": reductions.all,
    "argmax": reductions.argmax, "argmin": reductions.argmin,
    "cumsum": reductions.cumsum, "cumprod": reductions.cumprod,
    "clip": ufuncs_compound.clip, "round": ufuncs_compound.round,
    "dot": linalg_ops.dot, "sort": sorting.sort, "argsort": sorting.argsort,
    "conj": ufuncs.conj, "conjugate": ufuncs.conjugate, "nonzero": ufuncs_compound.nonzero,
}

_PROPERTIES = {
    "T": lambda self: shape_ops.transpose(self),
    "mT": lambda self: shape_ops.matrix_transpose(self),
    "real": lambda self: ufuncs.real(self),
    "imag": lambda self: ufuncs.imag(self),
    "at": lambda self: indexing.IndexUpdateHelper(self),
}


def install(cls) -> None:
    """Attach the operators, properties and methods to ``cls``."""
    for name, fn in _BINARY_OPS.items():
        setattr(cls, f"__{name}__", _binary(fn))
        setattr(cls, f"__r{name}__", _binary(fn, reflected=True))
    for name, fn in _COMPARISONS.items():
        setattr(cls, f"__{name}__", _binary(fn))
    cls.__neg__ = lambda self: ufuncs.negative(self)
    cls.__pos__ = lambda self: ufuncs.positive(self)
    cls.__abs__ = lambda self: ufuncs.abs(self)
    cls.__invert__ = lambda self: ufuncs.invert(self)
    cls.__round__ = _round
    cls.__getitem__ = indexing.getitem
    cls.reshape = _reshape
    cls.transpose = _transpose
    cls.flatten = _flatten
    for name, fn in _METHODS.items():
        setattr(cls, name, _forward(fn))
    for name, fn in _PROPERTIES.items():
        setattr(cls, name, property(fn))


install(Array)
install(Tracer)
