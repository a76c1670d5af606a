"""Collective primitives over named axes (``psum``, ``all_gather``, ``ppermute``, ...).

A named axis is bound by ``vmap(axis_name=...)``, ``shard_map`` or ``pmap``
(``core.axis_env``). In one process every collective runs as the batching rule of the
trace that batches its axis (``parallel_batching``): the communication is an ordinary
reduction, gather or permutation over the batch axis, summed in device order, so a
``shard_map`` compiles to one program of ordinary kernels. ``psum``, ``pmax`` and ``pmin``
also take positional axes (integers): that is the form their batching rules stage, as in
JAX, and it is compiled as the matching ``reduce_*`` (``lax.call.EXPANSIONS``).

The primitives and their NumPy rules are in ``parallel_prims``.

Varying manual axes (``core.vma_rules``): inside a ``shard_map`` body traced with
``check_vma``, ``psum`` of a varying value stages ``psum_invariant`` (its result is the
same on every device), ``pvary`` marks an invariant value as varying, and the others keep
their operand's axes.
"""
from __future__ import annotations

import numpy as np

from .. import core, tree_util
from ..core import Tracer
from ._base import numpy_api
from .elementwise import convert_element_type, div, mul
# the primitives and the axis records, also reached as ``parallel.<name>``
from .parallel_prims import (REDUCERS, SPANNING, _names, _raise_into, all_gather_p,  # noqa: F401
                             all_to_all_p, axis_index_p, axis_offset, axis_total,
                             bind_collective, cross_process, named, pbroadcast_p, pmax_p,
                             pmin_p, positional, ppermute_p, psum_invariant_p, psum_p,
                             pvary_p, reduce_scatter_p, within_process)
from .structural import expand_dims, squeeze

__all__ = ["psum", "pmax", "pmin", "pmean", "psum_scatter", "all_gather", "ppermute",
           "pshuffle", "all_to_all", "axis_index", "axis_size", "pbroadcast", "pvary",
           "pcast", "psum_p", "pmax_p", "pmin_p", "psum_invariant_p", "pvary_p",
           "all_gather_p", "reduce_scatter_p", "ppermute_p", "all_to_all_p",
           "axis_index_p", "pbroadcast_p"]


# ---------------------------------------------------------------------------------------
# The API

def _frame(name, what: str):
    size, main = core.axis_frame(name, what)
    return size, main


def _check_vma_on() -> bool:
    return core.check_vma[-1]


def _varies(x, name) -> bool:
    return isinstance(x, Tracer) and name in x.aval.vma


def _scale(x, n: int):
    if n == 1:
        return x
    if not isinstance(x, (Tracer, np.ndarray, np.generic)) and not hasattr(x, "_value"):
        return x * n  # a Python scalar stays one (JAX's literal 2.0)
    return mul(x, np.array(n, dtype=core.get_aval(x).dtype))


def _reduce_leaf(prim, x, axes, what: str):
    names, pos = named(axes), positional(axes)
    frames = {n: _frame(n, what) for n in names}
    mains = [m for _, m in frames.values() if m is not None]
    if mains:  # batched (vmap, a shard_map run): the batching rules do it
        x = _raise_into(x, max(mains, key=lambda m: m.level))
        return prim.bind(x, axes=names + pos, axis_index_groups=None)
    if _check_vma_on():
        if isinstance(x, Tracer):  # an invariant array is marked varying first (JAX)
            x = pvary(x, names)
        invariant = [n for n in names if not _varies(x, n)]
        if prim is psum_p:  # a constant: scaled by the axis sizes (JAX's literal 2.0)
            x = _scale(x, int(np.prod([frames[n][0] for n in invariant], dtype=np.int64)))
        varying = tuple(n for n in names if n not in invariant)
        if varying and prim is psum_p:
            x = psum_invariant_p.bind(x, axes=varying)
        elif varying:
            x = prim.bind(x, axes=varying, axis_index_groups=None)
        return prim.bind(x, axes=pos, axis_index_groups=None) if pos else x
    return prim.bind(x, axes=names + pos, axis_index_groups=None)


def _tree_reduce(prim, x, axis_name, axis_index_groups, what):
    axes = _names(axis_name)
    leaves, tree = tree_util.tree_flatten(x)
    if prim is psum_p:  # booleans are counted (JAX sums them as int32)
        leaves = [convert_element_type(v, np.int32)
                  if core.get_aval(v).dtype == np.bool_ else v for v in leaves]
    if axis_index_groups is None:
        return tree_util.tree_unflatten(tree, [_reduce_leaf(prim, v, axes, what)
                                               for v in leaves])
    if positional(axes):
        raise ValueError("axis_index_groups only supported for sums over just named axes")
    groups = _cover_check(axis_index_groups)
    if prim is psum_p and not any(isinstance(v, Tracer) for v in leaves):
        # constants: scaled by the first group's size, as JAX does (uneven groups too)
        return tree_util.tree_unflatten(tree, [_scale(v, len(groups[0]))
                                               for v in leaves])
    names, size, main = _single(axes, what)
    groups = check_groups(groups, names, size, main, _VMAP_REDUCE)
    if prim is psum_p and _check_vma_on():
        raise NotImplementedError  # JAX 0.10.2 has no varying-axes rule for it
    return tree_util.tree_unflatten(tree, [
        prim.bind(_as_varying(v, names, main), axes=names, axis_index_groups=groups)
        for v in leaves])


_VMAP_REDUCE = "axis_index_groups not supported in vmap collectives. Please open a " \
               "feature request!"


def _cover_check(axis_index_groups) -> tuple:
    """The groups as a tuple of tuples (as the jaxpr prints them); JAX's ValueError
    when they do not number ``0 .. n-1`` once each."""
    groups = tuple(tuple(int(i) for i in g) for g in axis_index_groups)
    members = [i for g in groups for i in g]
    if sorted(members) != list(range(len(members))):
        raise ValueError("axis_index_groups must cover all indices exactly once")
    return groups


def check_groups(axis_index_groups, names, size: int, main, vmap_message: str,
                 equal: str = None) -> tuple:
    """The checked groups of a collective over ``names`` (of ``size`` members).

    JAX's errors: a duplicate or missing index (ValueError), groups under ``vmap``
    (``main`` set: NotImplementedError ``vmap_message``). Our own where JAX 0.10.2 only
    fails in XLA's verifier: groups covering fewer members than the axis has, and
    (``equal``: the collective's name) groups of different sizes for the collectives
    whose result shape is the group size."""
    groups = _cover_check(axis_index_groups)
    if main is not None:
        raise NotImplementedError(vmap_message)
    count = sum(len(g) for g in groups)
    if count != size:
        what = f"axis {names[0]!r}" if len(names) == 1 else f"axes {tuple(names)}"
        raise ValueError(f"axis_index_groups must cover all indices exactly once: "
                         f"{groups} cover {count} of the {size} indices of the {what}")
    if equal is not None and len({len(g) for g in groups}) > 1:
        if equal == "all_to_all":  # JAX's own check
            raise ValueError("Replica groups must be equally sized")
        raise ValueError(f"{equal} requires axis_index_groups of equal sizes (as XLA's "
                         f"replica groups), got {groups}")
    return groups


def psum(x, axis_name, *, axis_index_groups=None):
    """Sum ``x`` (a pytree) over the named axis (or axes) ``axis_name``.

    Parameters
    ----------
    x : array or pytree of arrays
    axis_name : hashable or tuple of hashables
        Axes bound by ``vmap``/``shard_map``/``pmap``; integers name positional axes.
    axis_index_groups : sequence of sequences of int, optional
        Groups of members (indices along the axis; over several axes, linear indices,
        row-major in the order named) that each sum among themselves; together they
        cover every index once. Named axes only, not under ``vmap``; under a
        ``shard_map`` with ``check_vma`` JAX 0.10.2 refuses them.

    Returns
    -------
    The sums, the same on every member of the axis.
    """
    return _tree_reduce(psum_p, x, axis_name, axis_index_groups, "psum")


def pmax(x, axis_name, *, axis_index_groups=None):
    """The maximum of ``x`` over the named axis ``axis_name`` (see :func:`psum`)."""
    return _tree_reduce(pmax_p, x, axis_name, axis_index_groups, "pmax")


def pmin(x, axis_name, *, axis_index_groups=None):
    """The minimum of ``x`` over the named axis ``axis_name`` (see :func:`psum`)."""
    return _tree_reduce(pmin_p, x, axis_name, axis_index_groups, "pmin")


def axis_size(axis_name) -> int:
    """The size of the bound named axis (the product for a tuple of names)."""
    return int(np.prod([_frame(n, "axis_size")[0] for n in _names(axis_name)],
                       dtype=np.int64))


def pmean(x, axis_name, *, axis_index_groups=None):
    """The mean of ``x`` over the named axis ``axis_name``: ``psum`` divided by the
    axis size (with ``axis_index_groups``, by the first group's size, as JAX does)."""
    axes = _names(axis_name)
    s = psum(x, axis_name, axis_index_groups=axis_index_groups)
    if axis_index_groups is not None:  # JAX divides by the first group's size
        n = len(tuple(axis_index_groups)[0])
    else:
        n = axis_size(named(axes)) if named(axes) else 1
    leaves, tree = tree_util.tree_flatten(s)
    src = tree_util.tree_leaves(x)
    outs = []
    for v, orig in zip(leaves, src):
        m = n * int(np.prod([core.get_aval(orig).shape[a] for a in positional(axes)],
                            dtype=np.int64))
        if isinstance(v, (int, float)):
            outs.append(v / m)
        elif np.issubdtype(core.get_aval(v).dtype, np.inexact):
            outs.append(div(v, float(m)))
        else:  # an integer mean is a float one (JAX's true division)
            outs.append(numpy_api.true_divide(v, m))
    return tree_util.tree_unflatten(tree, outs)


def _single(axis_name, what):
    names = _names(axis_name)
    frames = [_frame(n, what) for n in names]  # an unbound name: JAX's NameError first
    size = int(np.prod([s for s, _ in frames], dtype=np.int64))
    mains = [m for _, m in frames if m is not None]
    return names, size, (max(mains, key=lambda m: m.level) if mains else None)


def _as_varying(x, names, main):
    """Inside a checked ``shard_map`` body a collective's operand must vary over its
    axes (JAX inserts ``pvary``); under batching, ``x`` raised into the batch trace."""
    if main is not None:
        return _raise_into(x, main)
    missing = tuple(n for n in names if not _varies(x, n))
    if _check_vma_on() and missing:
        return pvary(x, missing)
    return x


def all_gather(x, axis_name, *, axis_index_groups=None, axis: int = 0, tiled: bool = False):
    """Gather ``x`` from every member of the named axis: stacked along a new axis
    ``axis`` (or concatenated along ``axis`` when ``tiled``).

    With ``axis_index_groups`` (groups of one size covering every index once) each
    member gathers its group's members only, in the group's order."""
    names, size, main = _single(axis_name, "all_gather")
    if axis_index_groups is not None:
        axis_index_groups = check_groups(axis_index_groups, names, size, main,
                                         "axis_index_groups not supported in vmap",
                                         "all_gather")
        size = len(axis_index_groups[0])

    def one(v):
        v = _as_varying(v, names, main)
        nd = core.get_aval(v).ndim
        ax = axis % (nd if tiled else nd + 1) if nd or not tiled else axis
        return all_gather_p.bind(v, all_gather_dimension=ax, axis_name=names,
                                 axis_index_groups=axis_index_groups, axis_size=size,
                                 tiled=tiled)
    return tree_util.tree_map(one, x)


def psum_scatter(x, axis_name, *, scatter_dimension: int = 0, axis_index_groups=None,
                 tiled: bool = False):
    """Sum ``x`` over the named axis and give each member its block of the result along
    ``scatter_dimension`` (JAX's ``reduce_scatter``).

    With ``axis_index_groups`` (groups of one size) the sum is over the member's group
    and the ``p``-th member of a group gets block ``p``."""
    names, size, main = _single(axis_name, "psum_scatter")
    if axis_index_groups is not None:
        axis_index_groups = check_groups(axis_index_groups, names, size, main,
                                         "axis_index_groups not supported in vmap",
                                         "psum_scatter")
        size = len(axis_index_groups[0])

    def one(v):
        v = _as_varying(v, names, main)
        return reduce_scatter_p.bind(v, scatter_dimension=scatter_dimension,
                                     axis_name=names, axis_index_groups=axis_index_groups,
                                     axis_size=size, tiled=tiled)
    return tree_util.tree_map(one, x)


def ppermute(x, axis_name, perm):
    """Send ``x`` from member ``src`` to member ``dst`` for each pair of ``perm``; members
    that receive nothing get zeros."""
    names, size, main = _single(axis_name, "ppermute")
    perm = tuple((int(a), int(b)) for a, b in perm)
    srcs, dsts = [a for a, _ in perm], [b for _, b in perm]
    if len(set(srcs)) != len(srcs) or len(set(dsts)) != len(dsts):
        raise ValueError(f"ppermute sources and destinations must be unique, got {perm}.")
    if any(not 0 <= i < size for i in srcs + dsts):
        raise ValueError(f"ppermute permutation {perm} has an index out of range for axis "
                         f"size {size}.")
    return tree_util.tree_map(
        lambda v: ppermute_p.bind(_as_varying(v, names, main), axis_name=names,
                                  perm=perm), x)


def pshuffle(x, axis_name, perm):
    """Member ``i`` receives ``x`` from member ``perm[i]`` (a permutation of the axis)."""
    if set(perm) != set(range(len(perm))):
        raise ValueError(f"`perm` does not represent a permutation: {perm}")
    return ppermute(x, axis_name, list(zip(perm, range(len(perm)))))


def all_to_all(x, axis_name, split_axis: int, concat_axis: int, *, axis_index_groups=None,
               tiled: bool = False):
    """Split ``x`` along ``split_axis`` into one block per member, send block ``j`` to
    member ``j`` and concatenate the received blocks along ``concat_axis``; untiled, the
    split axis (of the axis's size) is replaced by the new axis ``concat_axis``.

    With ``axis_index_groups`` (groups of one size ``g``) the exchange is within each
    group: ``g`` blocks, block ``p`` to the group's ``p``-th member."""
    names, size, main = _single(axis_name, "all_to_all")
    name = names[0] if len(names) == 1 else names
    if axis_index_groups is not None:
        axis_index_groups = check_groups(axis_index_groups, names, size, main,
                                         "Please open a feature request!", "all_to_all")
        size = len(axis_index_groups[0])

    def one(v):
        v = _as_varying(v, names, main)
        nd = core.get_aval(v).ndim
        s, c = split_axis % nd, concat_axis % nd
        if tiled:
            if core.get_aval(v).shape[s] % size:
                raise ValueError(f"The size of all_to_all split_axis "
                                 f"({core.get_aval(v).shape[s]}) has to be divisible by "
                                 f"the size of the named axis {axis_name} ({size})")
            return all_to_all_p.bind(v, axis_name=name, split_axis=s, concat_axis=c,
                                     axis_index_groups=axis_index_groups, tiled=True)
        if core.get_aval(v).shape[s] != size:
            raise ValueError(f"all_to_all requires the size of the mapped axis axis_name "
                             f"to equal x.shape[split_axis], but they are {size} and "
                             f"{core.get_aval(v).shape[s]} respectively.")
        if s == c:  # blocks of one: the same exchange as the tiled one (JAX binds it so)
            return all_to_all_p.bind(v, axis_name=name, split_axis=s, concat_axis=c,
                                     axis_index_groups=axis_index_groups, tiled=False)
        ins = c + 1 if s <= c else c
        v = expand_dims(v, (ins,))
        s2 = s if s < ins else s + 1
        out = all_to_all_p.bind(v, axis_name=name, split_axis=s2, concat_axis=ins,
                                axis_index_groups=axis_index_groups, tiled=False)
        return squeeze(out, (s2,))
    return tree_util.tree_map(one, x)


def axis_index(axis_name):
    """The index of this member along the named axis (int32); for a tuple of axes, its
    linear index over them, row-major in the order given (``()``: 0)."""
    if isinstance(axis_name, (tuple, list)):
        # built from the last axis out, as JAX does (its jaxpr: mul by the inner size,
        # add to the sum so far, starting from the Python int 0)
        index, inner = 0, 1
        for name in reversed(tuple(axis_name)):
            index = index + axis_index(name) * inner
            inner *= axis_size(name)
        return index
    names, size, main = _single(axis_name, "axis_index")
    if main is not None:  # no operand to find the batch trace by: bound through it
        return bind_collective(axis_index_p, [], {"axis_name": names[0]})
    return axis_index_p.bind(axis_name=names[0])


def pbroadcast(x, axis_name, source: int):
    """Every member of the named axis receives member ``source``'s ``x``."""
    names, size, main = _single(axis_name, "pbroadcast")
    name = names[0] if len(names) == 1 else names
    return tree_util.tree_map(
        lambda v: pbroadcast_p.bind(_as_varying(v, names, main), axis_name=name,
                                    source=int(source)), x)


def pvary(x, axis_name):
    """Mark ``x`` as varying over the named axes (a no-op on values)."""
    names = _names(axis_name)
    if not names:
        return x

    def one(v):
        if not _check_vma_on() or all(_varies(v, n) for n in names):
            return v
        return pvary_p.bind(v, axes=tuple(n for n in names if not _varies(v, n)))
    return tree_util.tree_map(one, x)


def pcast(x, axis_name, *, to: str):
    """``to='varying'``: :func:`pvary`; other targets are not supported."""
    if to != "varying":
        raise NotImplementedError(f"pcast to {to!r}")
    return pvary(x, axis_name)


core.pvary = lambda x, axes: pvary_p.bind(x, axes=tuple(axes))
