"""Collective primitives over named axes (``psum``, ``all_gather``, ``ppermute``, ...).

A named axis is bound by ``vmap(axis_name=...)``, ``shard_map`` or ``pmap``
(``core.axis_env``). In one process every collective runs as the batching rule of the
trace that batches its axis (``parallel_batching``): the communication is an ordinary
reduction, gather or permutation over the batch axis, summed in device order, so a
``shard_map`` compiles to one program of ordinary kernels. ``psum``, ``pmax`` and ``pmin``
also take positional axes (integers): that is the form their batching rules stage, as in
JAX, and it is compiled as the matching ``reduce_*`` (``lax.call.EXPANSIONS``).

Varying manual axes (``core.vma_rules``): inside a ``shard_map`` body traced with
``check_vma``, ``psum`` of a varying value stages ``psum_invariant`` (its result is the
same on every device), ``pvary`` marks an invariant value as varying, and the others keep
their operand's axes.
"""
from __future__ import annotations

import contextlib

import numpy as np

from .. import core, tree_util
from ..core import ShapedArray, Tracer
from ..interpreters.tracing import trace_to_jaxpr
from .call import EXPANSIONS
from ._base import numpy_api
from .elementwise import convert_element_type, div, mul
from .reduction import reduce_max_p, reduce_min_p, reduce_sum_p
from .structural import expand_dims, squeeze

__all__ = ["psum", "pmax", "pmin", "pmean", "psum_scatter", "all_gather", "ppermute",
           "pshuffle", "all_to_all", "axis_index", "axis_size", "pbroadcast", "pvary",
           "pcast", "psum_p", "pmax_p", "pmin_p", "psum_invariant_p", "pvary_p",
           "all_gather_p", "reduce_scatter_p", "ppermute_p", "all_to_all_p",
           "axis_index_p", "pbroadcast_p"]

psum_p = core.new_primitive("psum")
pmax_p = core.new_primitive("pmax")
pmin_p = core.new_primitive("pmin")
psum_invariant_p = core.new_primitive("psum_invariant")
pvary_p = core.new_primitive("pvary")
all_gather_p = core.new_primitive("all_gather")
reduce_scatter_p = core.new_primitive("reduce_scatter")
ppermute_p = core.new_primitive("ppermute")
all_to_all_p = core.new_primitive("all_to_all")
axis_index_p = core.new_primitive("axis_index")
pbroadcast_p = core.new_primitive("pbroadcast")

REDUCERS = {psum_p: np.add, pmax_p: np.maximum, pmin_p: np.minimum}
_REDUCE_PRIMS = {psum_p: reduce_sum_p, pmax_p: reduce_max_p, pmin_p: reduce_min_p}


def _names(axis_name) -> tuple:
    return tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)


def positional(axes) -> tuple:
    """The integer (positional) entries of ``axes``."""
    return tuple(a for a in axes if isinstance(a, (int, np.integer)))


def named(axes) -> tuple:
    """The named entries of ``axes``."""
    return tuple(a for a in axes if not isinstance(a, (int, np.integer)))


#: Mesh axes that span processes while a ``shard_map`` over them runs (see
#: ``shard_map_call.batched``): name -> (offset, local size, global size). This process
#: batches over its own devices only (``local size`` of them, from ``offset``: an int32
#: value read when the program runs, the same program serving every process).
SPANNING: dict = {}


def cross_process(axis_name) -> bool:
    """Whether the axis spans processes (a collective then also calls the process-level
    primitive after its local part)."""
    return axis_name in SPANNING


@contextlib.contextmanager
def within_process(axis_name):
    """While the block runs, the axis is treated as this process's alone (a rule that
    has gathered every member computes as one process would)."""
    saved = SPANNING.pop(axis_name, None)
    try:
        yield
    finally:
        if saved is not None:
            SPANNING[axis_name] = saved


def axis_total(axis_name, local_size: int) -> int:
    """The size of the named axis over every process (``local_size`` within one)."""
    return SPANNING[axis_name][2] if axis_name in SPANNING else local_size


def axis_offset(axis_name):
    """The position of this process's first member of the named axis (an int32 value
    of the program where the axis spans processes)."""
    return SPANNING[axis_name][0] if axis_name in SPANNING else 0


# ---------------------------------------------------------------------------------------
# Abstract evaluation and NumPy rules

def _reduce_abstract(x, *, axes, axis_index_groups):
    pos = set(int(a) for a in positional(axes))
    shape = tuple(d for i, d in enumerate(x.shape) if i not in pos)
    return ShapedArray(shape, x.dtype, x.weak_type)


def _unbound(name):
    raise NameError(f"unbound axis name: {name}")


def _reduce_impl(prim):
    def impl(x, *, axes, axis_index_groups):
        if named(axes):
            _unbound(named(axes)[0])
        x = np.asarray(x)
        # one axis at a time, in device order: deterministic, as the compiled sum is
        for ax in sorted(positional(axes), reverse=True):
            parts = np.moveaxis(x, int(ax), 0)
            acc = parts[0].copy()
            for p in parts[1:]:
                acc = REDUCERS[prim](acc, p)
            x = acc
        return x
    return impl


def _reduce_expand(prim):
    def expand(in_avals, *, axes, axis_index_groups):
        return trace_to_jaxpr(
            lambda x: [_REDUCE_PRIMS[prim].bind(
                x, axes=tuple(int(a) for a in positional(axes)), out_sharding=None)],
            list(in_avals))
    return expand


for _p in (psum_p, pmax_p, pmin_p):
    _p.def_abstract_eval(_reduce_abstract)
    _p.def_impl(_reduce_impl(_p))
    EXPANSIONS[_p] = _reduce_expand(_p)
    core.vma_rules[_p] = lambda avals, *, axes, **_: [avals[0].vma - set(named(axes))]


def _same_abstract(x, **params):
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def _needs_binding(*args, axis_name=None, axes=None, **params):
    """The NumPy rule of a collective reached outside any binding of its axis."""
    _unbound(_names(axis_name if axes is None else axes)[0])


for _p in (psum_invariant_p, pvary_p, ppermute_p, pbroadcast_p):
    _p.def_abstract_eval(_same_abstract)
    _p.def_impl(_needs_binding)
# a type-level mark: no-op on values, wherever it is evaluated or compiled
pvary_p.def_impl(lambda x, *, axes: x)
EXPANSIONS[pvary_p] = lambda in_avals, *, axes: trace_to_jaxpr(lambda x: [x],
                                                               list(in_avals))
core.vma_rules[psum_invariant_p] = lambda avals, *, axes: [avals[0].vma - set(axes)]
core.vma_rules[pvary_p] = lambda avals, *, axes: [avals[0].vma | set(axes)]
for _p in (ppermute_p, pbroadcast_p, all_gather_p, reduce_scatter_p, all_to_all_p):
    core.vma_rules[_p] = lambda avals, **_: [avals[0].vma]


@all_gather_p.def_abstract_eval
def _all_gather_abstract(x, *, all_gather_dimension, axis_name, axis_index_groups,
                         axis_size, tiled):
    shape = list(x.shape)
    if tiled:
        shape[all_gather_dimension] *= axis_size
    else:
        shape.insert(all_gather_dimension, axis_size)
    return ShapedArray(shape, x.dtype, x.weak_type)


@reduce_scatter_p.def_abstract_eval
def _reduce_scatter_abstract(x, *, scatter_dimension, axis_name, axis_index_groups,
                             axis_size, tiled):
    shape = list(x.shape)
    if tiled:
        if shape[scatter_dimension] % axis_size:
            raise ValueError(f"tiled reduce_scatter operand scatter dimension size "
                             f"{shape[scatter_dimension]} must be divisible by "
                             f"shard_count {axis_size}")
        shape[scatter_dimension] //= axis_size
    else:
        if shape[scatter_dimension] != axis_size:
            raise ValueError(f"reduce_scatter operand scatter dimension size "
                             f"{shape[scatter_dimension]} must match shard count "
                             f"{axis_size}")
        del shape[scatter_dimension]
    return ShapedArray(shape, x.dtype, x.weak_type)


@all_to_all_p.def_abstract_eval
def _all_to_all_abstract(x, *, axis_name, split_axis, concat_axis, axis_index_groups,
                         tiled):
    size = len(axis_index_groups[0]) if axis_index_groups is not None else \
        core.axis_frame(axis_name, "all_to_all")[0]
    shape = list(x.shape)
    if shape[split_axis] % size:
        raise ValueError(f"all_to_all requires the size of the mapped axis axis_name to "
                         f"divide x.shape[split_axis], but they are {size} and "
                         f"{shape[split_axis]} respectively.")
    shape[split_axis] //= size
    shape[concat_axis] *= size
    return ShapedArray(shape, x.dtype, x.weak_type)


@axis_index_p.def_abstract_eval
def _axis_index_abstract(*, axis_name):
    return ShapedArray((), np.dtype(np.int32), False)


for _p in (all_gather_p, reduce_scatter_p, all_to_all_p, axis_index_p):
    _p.def_impl(_needs_binding)
core.vma_rules[axis_index_p] = lambda avals, *, axis_name: [frozenset({axis_name})]


# ---------------------------------------------------------------------------------------
# The API

def _frame(name, what: str):
    size, main = core.axis_frame(name, what)
    return size, main


def _raise_into(x, main):
    """``x`` as a tracer of the batch trace ``main`` batching the axis (so that its
    collective rule runs even for a value the batching never touched)."""
    if main is None:
        return x
    if isinstance(x, Tracer) and x._trace.main.level >= main.level:
        return x
    return main.trace_type(main).full_raise(x)


def _params_axes(params) -> tuple:
    names = params.get("axes", params.get("axis_name", ()))
    return named(_names(names))


def bind_collective(prim, vals, params):
    """Bind a collective staged in a jaxpr (a ``shard_map`` body run under batch traces):
    its operands raised into the batch trace of its innermost bound axis, so that its
    rule runs even for values none of the batching reached."""
    mains = [m for m in (core.axis_frame(n)[1] for n in _params_axes(params))
             if m is not None]
    if not mains:
        return prim.bind(*vals, **params)
    main = max(mains, key=lambda m: m.level)
    if any(isinstance(v, Tracer) and v._trace.main.level > main.level for v in vals):
        return prim.bind(*vals, **params)  # an inner trace's rule passes it down
    trace = main.trace_type(main)
    tracers = [trace.full_raise(_raise_into(v, main)) for v in vals]
    if tracers and core.find_top_trace(tracers).main is not main:
        return prim.bind(*tracers, **params)
    out = trace.process_primitive(prim, tracers, params)
    return [core.full_lower(o) for o in out] if prim.multiple_results else \
        core.full_lower(out)


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
    if len(names) != 1:
        raise NotImplementedError(f"axis_index_groups over several named axes {names}")
    count = sum(len(g) for g in groups)
    if count != size:
        raise ValueError(f"axis_index_groups must cover all indices exactly once: "
                         f"{groups} cover {count} of the {size} indices of the axis "
                         f"{names[0]!r}")
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
        Groups of members (indices along the axis) that each sum among themselves;
        together they cover every index once. Named axes only, one axis, not under
        ``vmap``; under a ``shard_map`` with ``check_vma`` JAX 0.10.2 refuses them.

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
    size = axis_size(names)
    mains = [m for m in (_frame(n, what)[1] for n in names) if m is not None]
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
    """The index of this member along the named axis (int32)."""
    names, size, main = _single(axis_name, "axis_index")
    if len(names) != 1:
        raise NotImplementedError("axis_index of several axes")
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
