"""The cache key of a jitted call whose arguments hold containers or keywords.

``jit``'s cached call (``JitWrapped.__call__``) looks a call up by one key computed in
one walk over the arguments, which also collects the leaves in ``tree_flatten``'s
order, so a hit needs no ``PyTreeDef``, no avals and no second pass. Positional arrays
alone take the even shorter ``jit._fast_key``.
"""
from __future__ import annotations

import functools

import numpy as np

from . import tree_util
from .array import Array
from .backend.load import PooledArray
from .config import config
from .memory.device_array import CudaArray

__all__ = ["fast_key", "tree_key", "same_leaves", "unflattener"]

_ARRAYS = (Array, PooledArray)


def fast_key(args):
    """What decides the compiled signature of positional array arguments (shape,
    dtype, weak type, the configuration; a GPU array's device too), or None when the
    slow path must decide."""
    if len(args) == 1:  # the common case, without the loop
        a = args[0]
        t = type(a)
        if t in _ARRAYS:
            v = a._value
            return (config._trace_key, v.shape, v.dtype, a._weak_type)
        if t is np.ndarray:
            return (config._trace_key, a.shape, a.dtype, None)
        if t is CudaArray:  # its _value would copy it to the host
            v = a._aval
            return (config._trace_key, v.shape, v.dtype, a._weak_type, a._device)
        return None
    key = [config._trace_key]
    for a in args:
        t = type(a)
        if t in _ARRAYS:
            v = a._value
            key += (v.shape, v.dtype, a._weak_type)
        elif t is np.ndarray:
            key += (a.shape, a.dtype, None)
        elif t is CudaArray:
            v = a._aval
            key += (v.shape, v.dtype, a._weak_type, a._device)
        else:
            return None
    return tuple(key)


def unflattener(out_tree):
    """A fast ``tree_unflatten(out_tree, leaves)`` for the common output structures."""
    n = out_tree.num_leaves
    single = tree_util.tree_unflatten(out_tree, [0]) if n == 1 else None
    if n == 1 and single == 0:
        return lambda leaves: leaves[0]
    flat_tuple = tree_util.tree_unflatten(out_tree, list(range(n)))
    if isinstance(flat_tuple, tuple) and type(flat_tuple) is tuple and \
            flat_tuple == tuple(range(n)):
        return tuple
    return functools.partial(tree_util.tree_unflatten, out_tree)


def same_leaves(fast, leaves) -> bool:
    """Whether the fast walk found exactly the leaves ``tree_flatten`` found, in order
    (a check made once per signature, when the fast entry is stored)."""
    return len(fast) == len(leaves) and all(
        a is b for a, b in zip(fast, leaves, strict=True))


_INT32 = (-2 ** 31, 2 ** 31 - 1)


def tree_key(args, kwargs, leaves: list):
    """The key of a call whose arguments hold containers or keywords: one token per
    node (its type and arity, a dict's sorted keys) and per leaf (shape, dtype, weak
    type; a Python scalar's type), appending the leaves in ``tree_flatten``'s order.
    None when something here is not handled (custom nodes, other leaf types): the slow
    path decides then."""
    key = [_TREE_MARK, config._trace_key]
    if not _walk(args, key, leaves):
        return None
    if kwargs:
        key.append(_KW_MARK)
        if not _walk(kwargs, key, leaves):
            return None
    return tuple(key)


def _walk(x, key: list, leaves: list) -> bool:
    t = type(x)
    if t in _ARRAYS:
        v = x._value
        key.append((v.shape, v.dtype, x._weak_type))
        leaves.append(x)
        return True
    if t is np.ndarray:
        key.append((x.shape, x.dtype, None))
        leaves.append(x)
        return True
    if t is CudaArray:  # the device decides where the call runs
        v = x._aval
        key.append((v.shape, v.dtype, x._weak_type, x._device))
        leaves.append(x)
        return True
    if t is dict:
        try:
            names = sorted(x)
        except TypeError:
            return False
        key.append((dict, tuple(names)))
        for k in names:
            if not _walk(x[k], key, leaves):
                return False
        return True
    if t is tuple or t is list or (issubclass(t, tuple) and hasattr(t, "_fields")
                                   and t not in tree_util._registry):
        key.append((t, len(x)))
        for c in x:
            if not _walk(c, key, leaves):
                return False
        return True
    if x is None:
        key.append(None)
        return True
    if t is float or t is bool or (t is int and _INT32[0] <= x <= _INT32[1]):
        key.append(t)
        leaves.append(x)
        return True
    return False


_TREE_MARK = object()
_KW_MARK = object()
