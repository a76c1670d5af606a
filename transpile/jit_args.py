"""The arguments of a jitted function: ``ShapeDtypeStruct`` (a shape and dtype standing
for an array, ``jax.ShapeDtypeStruct``), the abstract value of each leaf with JAX's
errors for values that are not arrays, and static arguments (which ones, hashed as
JAX does)."""
from __future__ import annotations

import inspect

import numpy as np

from . import core
from .core import ShapedArray
from .dtypes import canonicalize_dtype

__all__ = ["ShapeDtypeStruct", "leaf_aval", "describe_at", "check_outputs",
           "resolve_static", "hash_static", "HashableStatic"]


class ShapeDtypeStruct:
    """A shape and dtype standing for an array argument (``jax.ShapeDtypeStruct``).

    Parameters
    ----------
    shape : tuple of int
    dtype : dtype-like
    weak_type : bool, default False
    """

    __slots__ = ("shape", "dtype", "weak_type", "sharding")

    def __init__(self, shape, dtype, *, sharding=None, weak_type: bool = False):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = canonicalize_dtype(dtype)
        self.weak_type = bool(weak_type)
        self.sharding = sharding

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def __repr__(self) -> str:
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{weak})"

    def __eq__(self, other) -> bool:
        return (isinstance(other, ShapeDtypeStruct) and self.shape == other.shape
                and self.dtype == other.dtype and self.weak_type == other.weak_type)

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.weak_type))


core.pytype_aval_mappings[ShapeDtypeStruct] = lambda s: ShapedArray(s.shape, s.dtype,
                                                                    s.weak_type)


def leaf_aval(x, path_fn) -> ShapedArray:
    try:
        aval = core.get_aval(x)
    except TypeError:
        raise TypeError(
            f"Error interpreting argument to {path_fn('fun')} as an abstract array. The "
            f"problematic value is of type {type(x)} and was passed to the function at path "
            f"{path_fn('path')}.\nThis typically means that a jit-wrapped function was called "
            "with a non-array argument, and this argument was not marked as static using the "
            "static_argnums or static_argnames parameters of jax.jit.") from None
    if type(x) is int:
        info = np.iinfo(aval.dtype)
        if not info.min <= x <= info.max:
            raise OverflowError(
                "An overflow was encountered while parsing an argument to a jitted "
                f"computation, whose argument path is {path_fn('path')}. Got {type(x)} with "
                f"value {x}")
    return aval


def describe_at(describe, i, what):
    return describe(what, i)


def check_outputs(fun, leaves) -> None:
    for x in leaves:
        if not core.is_valid_value(x):
            code = getattr(fun, "__code__", None)
            where = f" at {code.co_filename}:{code.co_firstlineno}" if code else ""
            name = getattr(fun, "__name__", repr(fun))
            raise TypeError(f"function {name}{where} traced for jit returned a value of type "
                            f"{type(x)}, which is not a valid JAX type")


def resolve_static(fun, static_argnums, static_argnames):
    if static_argnums is None:
        static_argnums = ()
    elif isinstance(static_argnums, int):
        static_argnums = (static_argnums,)
    if static_argnames is None:
        static_argnames = ()
    elif isinstance(static_argnames, str):
        static_argnames = (static_argnames,)
    static_argnums = tuple(static_argnums)
    static_argnames = tuple(static_argnames)
    try:
        sig = inspect.signature(fun)
    except (TypeError, ValueError):
        return static_argnums, static_argnames
    params = list(sig.parameters.values())
    has_varargs = any(p.kind == p.VAR_POSITIONAL for p in params)
    has_varkw = any(p.kind == p.VAR_KEYWORD for p in params)
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    nargs = len(positional)
    if not has_varargs:
        for i in static_argnums:
            if not -nargs <= i < nargs:
                raise ValueError(f"Jitted function has static_argnums={static_argnums}, but "
                                 f"only accepts {nargs} positional arguments.")
    names = {p.name for p in params if p.kind != p.VAR_POSITIONAL and p.kind != p.VAR_KEYWORD}
    if not has_varkw:
        bad = {n for n in static_argnames if n not in names}
        if bad:
            raise ValueError(f"Jitted function has invalid argnames {bad} in static_argnames. "
                             "Function does not take these args.")
    nums = {i % nargs if nargs and i < 0 else i for i in static_argnums}
    nmap = set(static_argnames)
    for i, p in enumerate(positional):
        if p.name in nmap:
            nums.add(i)
        if i in nums and p.kind == p.POSITIONAL_OR_KEYWORD:
            nmap.add(p.name)
    return tuple(sorted(nums)), tuple(sorted(nmap))


def hash_static(v) -> None:
    try:
        hash(v)
    except TypeError as e:
        raise ValueError(
            "Non-hashable static arguments are not supported. An error occurred while trying "
            f"to hash an object of type {type(v)}, {v}. The error was:\nTypeError: {e}"
        ) from None


class HashableStatic:
    """A static argument in a cache key: compared by its own ``__eq__``."""

    __slots__ = ("val",)

    def __init__(self, val):
        self.val = val

    def __hash__(self):
        return hash(self.val)

    def __eq__(self, other):
        return (isinstance(other, HashableStatic) and type(self.val) is type(other.val)
                and bool(self.val == other.val))
