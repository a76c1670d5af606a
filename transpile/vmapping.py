"""``vmap``: JAX's automatic batching API over ``interpreters/batching.py``.

``in_axes`` and ``out_axes`` are pytree prefixes of the arguments and outputs (an int,
``None`` for an unbatched leaf, or a container of those); negative axes count from the
end of each leaf. Every mapped argument must have the same size along its axis.
"""
from __future__ import annotations

import functools
from typing import Callable

from . import core, tree_util
from .interpreters import batching
from .lax._base import _as_value

__all__ = ["vmap"]


def _broadcast_prefix(prefix, tree_value, what: str) -> list:
    """One axis per leaf of ``tree_value`` from the prefix tree ``prefix``."""
    leaves, treedef = tree_util.tree_flatten(tree_value)
    if prefix is None or isinstance(prefix, int):
        return [prefix] * len(leaves)
    out = []

    def walk(p, v):
        if p is None or isinstance(p, int):
            out.extend([p] * len(tree_util.tree_leaves(v)))
            return
        if isinstance(p, (list, tuple)) and isinstance(v, (list, tuple)) and len(p) == len(v):
            for a, b in zip(p, v):
                walk(a, b)
            return
        if isinstance(p, dict) and isinstance(v, dict) and set(p) == set(v):
            for k in sorted(p):
                walk(p[k], v[k])
            return
        raise ValueError(f"vmap {what} specification must be a tree prefix of the "
                         f"corresponding value, got specification {prefix} for value tree "
                         f"{treedef}.")
    walk(prefix, tree_value)
    return out


def _arg_names(fun, n: int) -> list:
    import inspect
    try:
        params = list(inspect.signature(fun).parameters)
    except (TypeError, ValueError):
        params = []
    return [params[i] if i < len(params) else f"args[{i}]" for i in range(n)]


def vmap(fun: Callable, in_axes=0, out_axes=0, axis_name=None, axis_size=None,
         spmd_axis_name=None):
    """Vectorise ``fun`` over a batch axis of its arguments.

    Parameters
    ----------
    fun : callable
    in_axes : int, None or pytree
        Per argument (a prefix of the argument tuple): the axis to map over, or None.
    out_axes : int, None or pytree
        Where the batch axis goes in each output.
    axis_name : hashable, optional
        Binds the batch axis to this name for collectives (``lax.psum`` ...).
    axis_size : int, optional
        The batch size when no argument is mapped.

    Returns
    -------
    callable
    """
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)

    @functools.wraps(fun)
    def wrapped(*args, **kwargs):
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise ValueError("vmap in_axes must be an int, None, or a tuple of entries "
                             f"corresponding to the positional arguments passed to the "
                             f"function, but got len(in_axes)={len(in_axes)}, "
                             f"len(args)={len(args)}")
        leaves, in_tree = tree_util.tree_flatten((args, kwargs))
        axes = _broadcast_prefix(in_axes, args, "in_axes") + \
            [0] * len(tree_util.tree_leaves(kwargs))
        vals = [_as_value(x) for x in leaves]
        dims, sizes = [], []
        names = _leaf_names(fun, args, kwargs)
        for v, ax, name in zip(vals, axes, names, strict=True):
            if ax is None:
                dims.append(None)
                continue
            shape = core.get_aval(v).shape
            nd = len(shape)
            if not -nd <= ax < nd:
                raise ValueError(f"vmap was requested to map its argument along axis {ax}, "
                                 f"which implies that its rank should be at least {ax + 1 if ax >= 0 else -ax}, "
                                 f"but is only {nd} (its shape is {shape})")
            d = ax % nd
            dims.append(d)
            sizes.append((shape[d], d, name, core.get_aval(v)))
        if sizes:
            size = sizes[0][0]
            if any(s[0] != size for s in sizes):
                lines = [f"  * one axis had size {s}: axis {d} of argument {n} of type "
                         f"{a.str_long()}" for s, d, n, a in sizes]
                raise ValueError("vmap got inconsistent sizes for array axes to be mapped:\n"
                                 + ";\n".join(lines))
        elif axis_size is not None:
            size = int(axis_size)
        else:
            raise ValueError("vmap must have at least one non-None value in in_axes or "
                             "axis_size must be specified")

        store = {}

        def flat(*xs):
            a, k = tree_util.tree_unflatten(in_tree, list(xs))
            out = fun(*a, **k)
            out_leaves, store["tree"] = tree_util.tree_flatten(out)
            store["out"] = out
            return [_as_value(o) for o in out_leaves]
        outs, out_dims = batching.batch_flat(flat, vals, dims, size, axis_name)
        out_tree = store["tree"]
        n_out = len(outs)
        out_value = tree_util.tree_unflatten(out_tree, [_Leaf() for _ in range(n_out)])
        oaxes = _broadcast_prefix(out_axes, out_value, "out_axes") if n_out else []
        results = []
        for o, d, ax in zip(outs, out_dims, oaxes, strict=True):
            if ax is None:
                if d is not None:
                    raise ValueError(f"at vmap out_axes, got axis spec None but output was "
                                     f"batched on axis {d}")
                results.append(o)
                continue
            nd = len(core.get_aval(o).shape) + (1 if d is None else 0)
            results.append(batching.matchaxis(d, ax % nd, o, size))
        return tree_util.tree_unflatten(out_tree, results)
    return wrapped


class _Leaf:
    """A placeholder leaf (None would be an empty subtree)."""


def _leaf_names(fun, args, kwargs) -> list:
    names = _arg_names(fun, len(args))
    out = []
    for name, a in zip(names, args):
        n = len(tree_util.tree_leaves(a))
        out.extend([name] * n if n == 1 else [f"{name}[{i}]" for i in range(n)])
    for k, v in kwargs.items():
        out.extend([k] * len(tree_util.tree_leaves(v)))
    return out
