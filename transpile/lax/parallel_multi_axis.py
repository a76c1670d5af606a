"""Collectives over several named axes that do not split into one collective per axis.

``psum``/``pmax``/``pmin`` without groups reduce one axis after another
(``parallel_batching``). The others (``all_gather``, ``psum_scatter``, ``all_to_all``,
``ppermute``, and the reductions with ``axis_index_groups``) treat the axes as one: a
member's index is its linear index over them, row-major in the order the collective
names them (``ppermute``: in the order the axes are bound, outermost first, i.e. mesh
order, as JAX's lowering sorts each group's devices). The rule here runs in the batch
trace of the innermost of the named axes: it gathers every member's operand over all of
them (an ``all_gather`` per axis, so an axis that spans processes brings the other
processes' members too), runs the single-axis rule over one axis of all members, and
keeps this member's part (indexed by ``axis_index`` of each outer axis). Each member
holds every member's operand for a moment: the price of the general case.

It wraps the rules ``parallel_batching`` registers (``axis_batchers``); the rule of a
collective over one axis is the wrapped one.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..interpreters.batching import axis_batchers, bdim_at_front, not_mapped
from . import parallel_prims as prims
from .dynamic_slicing import dynamic_index_in_dim, dynamic_slice_in_dim
from .structural import reshape, transpose

__all__ = ["several_axes"]


class _Members:
    """The name of the one axis that stands for every member of several named axes
    (never bound: the single-axis rule receives it as its own axis)."""

    def __repr__(self) -> str:
        return "<every member>"


_REDUCTIONS = (prims.psum_p, prims.pmax_p, prims.pmin_p)


def _names(prim, params) -> tuple:
    key = "axes" if prim in _REDUCTIONS else "axis_name"
    names = params[key]
    return prims.named(names if isinstance(names, (tuple, list)) else (names,))


def _with_names(prim, params, names) -> dict:
    key = "axes" if prim in _REDUCTIONS else "axis_name"
    return dict(params, **{key: names})


def _bound_order(names) -> list:
    """``names`` in the order they were bound, outermost first (a ``shard_map``'s
    axes, in mesh order, outside a ``vmap`` in its body)."""
    depth = {n: k for k, (n, _, _) in enumerate(core.axis_env)}  # innermost binding
    return sorted(names, key=depth.__getitem__)


def _gather_axis(x, name, size: int):
    """Every member of the outer axis ``name`` of ``x``, stacked in front (the same
    value for every member)."""
    return prims.bind_collective(prims.all_gather_p, [x], dict(
        all_gather_dimension=0, axis_name=(name,), axis_index_groups=None,
        axis_size=prims.axis_total(name, size), tiled=False))


def _my_index(name):
    return prims.bind_collective(prims.axis_index_p, [], {"axis_name": name})


def several_axes(prim):
    """The batching rule of ``prim`` that handles a collective over several axes (see
    the module docstring), wrapping the single-axis one."""
    rule = axis_batchers[prim]

    def wrapped(axis, vals, dims, **params):
        size, name = axis
        names = _names(prim, params)
        simple = prim in _REDUCTIONS and params["axis_index_groups"] is None
        if name not in names or len(names) == 1 or simple:
            return rule(axis, vals, dims, **params)
        order = _bound_order(names) if prim is prims.ppermute_p else list(names)
        sizes = {n: prims.axis_total(n, core.axis_frame(n)[0]) for n in names}
        # this axis's members (all processes' where it spans them), then the others'
        (x,), (d,) = vals, dims
        full, _ = axis_batchers[prims.all_gather_p](
            axis, [x], [d], all_gather_dimension=0, axis_name=(name,),
            axis_index_groups=None, axis_size=sizes[name], tiled=False)
        labels = [name]
        for other in reversed(_bound_order(names)):
            if other != name:
                full = _gather_axis(full, other, core.axis_frame(other)[0])
                labels.insert(0, other)
        perm = [labels.index(n) for n in order]
        nd = len(core.get_aval(full).shape)
        if perm != list(range(len(perm))):
            full = transpose(full, tuple(perm) + tuple(range(len(perm), nd)))
        total = int(np.prod([sizes[n] for n in order], dtype=np.int64))
        rest = tuple(core.get_aval(full).shape)[len(order):]
        full = reshape(full, (total,) + rest)
        members = _Members()
        out, od = rule((total, members), [full], [0],
                       **_with_names(prim, params, (members,)))
        if od is not_mapped:
            return out, not_mapped
        out = bdim_at_front(out, od, total)
        out = reshape(out, tuple(sizes[n] for n in order) + tuple(
            core.get_aval(out).shape)[1:])
        # this member's part: the outer axes indexed by this member's place along them
        kept = list(order)
        for other in order:
            if other != name:
                out = dynamic_index_in_dim(out, _my_index(other), kept.index(other),
                                           keepdims=False)
                kept.remove(other)
        if prims.cross_process(name):  # this process's members of the axis
            out = dynamic_slice_in_dim(out, prims.axis_offset(name), size, axis=0)
        return out, 0
    return wrapped


for _p in (prims.psum_p, prims.pmax_p, prims.pmin_p, prims.all_gather_p,
           prims.reduce_scatter_p, prims.all_to_all_p, prims.ppermute_p):
    axis_batchers[_p] = several_axes(_p)
