"""``jax.custom_batching``: functions with their own batching rule (``custom_vmap``)
and ``sequential_vmap`` (batched by a loop over the batch).

Called outside ``vmap`` a ``custom_vmap`` function runs its body; under ``vmap`` the
rule given to ``def_vmap`` computes the batched result (``lax/custom_batching.py``).
"""
from __future__ import annotations

import functools
from typing import Callable

from . import tree_util
from .core import get_aval
from .interpreters.tracing import trace_to_jaxpr
from .lax import control_flow
from .lax.custom_batching import custom_vmap_call_p
from .lax.custom_derivatives import _Hidden
from .lax.structural import broadcast

__all__ = ["custom_vmap", "sequential_vmap"]


class custom_vmap:  # noqa: N801  (JAX's name)
    """A function with a custom batching rule: ``f = custom_vmap(fun)``, then
    ``f.def_vmap(rule)`` with ``rule(axis_size, in_batched, *args) -> (out,
    out_batched)``: ``in_batched`` mirrors ``args`` with a bool per array (batched ones
    have the batch axis first); ``out_batched`` mirrors ``out``.

    Raises
    ------
    AttributeError
        When called before ``def_vmap``.
    """

    def __init__(self, fun: Callable):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.vmap_rule = None

    def def_vmap(self, vmap_rule: Callable) -> Callable:
        """Set the batching rule; returns it (usable as a decorator)."""
        self.vmap_rule = vmap_rule
        return vmap_rule

    def __call__(self, *args, **kwargs):
        if self.vmap_rule is None:
            raise AttributeError(f"No batching rule defined for custom_vmap function "
                                 f"{getattr(self.fun, '__name__', self.fun)} using def_vmap.")
        if kwargs:
            args = args + tuple(kwargs.values())  # keyword arguments follow, in order
        leaves, in_tree = tree_util.tree_flatten(args)
        out_tree_box = []

        def flat_fun(*xs):
            out = self.fun(*tree_util.tree_unflatten(in_tree, list(xs)))
            out_leaves, out_tree = tree_util.tree_flatten(out)
            out_tree_box.append(out_tree)
            return out_leaves
        closed = trace_to_jaxpr(flat_fun, [get_aval(x) for x in leaves])
        out_tree = out_tree_box[0]
        rule = self.vmap_rule

        def flat_rule(size, in_batched, *xs):
            batched = tree_util.tree_unflatten(in_tree, list(in_batched))
            out, out_batched = rule(size, batched, *tree_util.tree_unflatten(in_tree,
                                                                              list(xs)))
            out_leaves = tree_util.tree_leaves(out)
            flags = tree_util.tree_leaves(out_batched)
            if len(flags) != len(out_leaves):  # one flag for a whole output
                flags = [bool(out_batched)] * len(out_leaves)
            return out_leaves, flags
        outs = custom_vmap_call_p.bind(*leaves, call_jaxpr=closed, rule=_Hidden(flat_rule),
                                       name=getattr(self.fun, "__name__", "custom_vmap"))
        return tree_util.tree_unflatten(out_tree, list(outs))


def sequential_vmap(f: Callable) -> custom_vmap:
    """``f`` as a ``custom_vmap`` function whose batching loops over the batch
    (``lax.map``), calling ``f`` on one element at a time; unbatched arguments are
    shared by every step.

    Returns
    -------
    custom_vmap
    """
    f = custom_vmap(f)

    @f.def_vmap
    def rule(axis_size, in_batched, *args):
        leaves, tree = tree_util.tree_flatten(args)
        flags = tree_util.tree_leaves(in_batched)
        full = [x if b else broadcast(x, (axis_size,)) for x, b in
                zip(leaves, flags, strict=True)]
        outs = control_flow.map(lambda xs: f.fun(*tree_util.tree_unflatten(tree, list(xs))),
                                full)
        return outs, tree_util.tree_map(lambda _: True, outs)
    return f
