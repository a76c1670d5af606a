"""Batching rules of the collectives (``lax/parallel.py``).

Each rule gets the batch trace's ``(size, axis_name)``. When the collective names that
axis, the batch axis *is* the named axis: the rule does the communication over it (a sum
in device order, a gather, a permutation of slices) and the result is unbatched (the
same on every member) or batched again (one block per member). A collective over other
axes passes the batch axis through: moved to the front, the collective's own axes
shifted past it. With ``axis_index_groups`` the communication is done for every group
at once (members gathered group after group, one reduction or exchange over them, each
member given its group's result by one gather). ``cross_process`` marks where an axis
that spans processes would also call the process-level primitive after the local part.
"""
from __future__ import annotations

import weakref

import numpy as np

from .. import core
from ..interpreters.batching import (axis_batchers, batch_flat, bdim_at_front, moveaxis,
                                     not_mapped, primitive_batchers)
from ..interpreters.eval import eval_jaxpr
from ..ir import jaxprs_in_params
from .call import jit_p
from ._base import numpy_api
from . import parallel as par
from . import process_collectives
from .parallel import named, positional
from .dynamic_slicing import dynamic_slice_in_dim
from .slicing import concatenate, index_in_dim, iota
from .structural import full, reshape, transpose


def _shape(x) -> tuple:
    return tuple(core.get_aval(x).shape)


_PROCESS_OPS = {"psum": "sum", "pmax": "max", "pmin": "min"}


def _across_processes(kind: str, out, name, dim: int = 0):
    """This process's local result of a collective over axis ``name`` combined with the
    other processes' (``lax.process_collectives``) when the axis spans processes: a
    reduction reduces the local results in process order, a gather stacks them at
    ``dim`` (this process's members are contiguous along the axis, process-major)."""
    if not par.cross_process(name):
        return out
    if kind in _PROCESS_OPS:
        return process_collectives.process_allreduce(out, _PROCESS_OPS[kind])
    if kind == "all_gather":
        g = moveaxis(process_collectives.process_allgather(out), 0, dim)
        shape = list(_shape(g))
        shape[dim:dim + 2] = [shape[dim] * shape[dim + 1]]
        return reshape(g, tuple(shape))
    raise NotImplementedError(f"{kind} over the mesh axis {name!r}, which spans processes")


def _sum_over_processes(x, d: int, name):
    """``psum`` of the batch axis ``d`` of an axis spanning processes, computed as one
    process with every member computes it (so every layout of the same devices gives the
    same bits): every member gathered, then the same sum over them. Two members, one
    per process, add the same in either order: the processes' allreduce then."""
    if _shape(x)[d] == 1 and par.axis_total(name, 1) == 2:
        return process_collectives.process_allreduce(
            index_in_dim(x, 0, d, keepdims=False), "sum")
    g = process_collectives.process_allgather(moveaxis(x, d, 0))  # (processes, local, ...)
    shape = _shape(g)
    g = reshape(g, (shape[0] * shape[1],) + shape[2:])
    return par.psum_p.bind(g, axes=(0,), axis_index_groups=None)


# ---------------------------------------------------------------------------------------
# axis_index_groups: each group of members communicates among itself

def _take(x, idx):
    """Members ``idx`` of ``x`` (members first), in that order (nothing to gather for
    the identity)."""
    idx = np.asarray(idx, dtype=np.int32)
    if np.array_equal(idx, np.arange(_shape(x)[0])):
        return x
    return numpy_api.take(x, idx, axis=0)


def _group_layout(groups, name) -> tuple:
    """``(owner, slot)``: each member's group and its position in the group (over an
    axis that spans processes the grouped rules run on every process's members:
    ``_all_members``)."""
    owner, slot = {}, {}
    for k, grp in enumerate(groups):
        for p, i in enumerate(grp):
            owner[i], slot[i] = k, p
    n = len(owner)
    return [owner[i] for i in range(n)], [slot[i] for i in range(n)]


def _per_group(prim, x, groups):
    """``x`` (members first) -> one row per group: its members reduced by ``prim``, one
    after another in the group's order (deterministic, as the ungrouped reduction)."""
    sizes = {len(g) for g in groups}
    if len(sizes) == 1:  # one gather, one reduction over the group axis
        x = _take(x, [i for g in groups for i in g])
        x = reshape(x, (len(groups), sizes.pop()) + _shape(x)[1:])
        return prim.bind(x, axes=(1,), axis_index_groups=None)
    rows = [prim.bind(_take(x, g), axes=(0,), axis_index_groups=None) for g in groups]
    return concatenate([reshape(r, (1,) + _shape(r)) for r in rows], 0)


def _grouped_reduce(prim, x, d, size: int, name, groups):
    """``psum``/``pmax``/``pmin`` within each group: every member gets its group's."""
    owner, _ = _group_layout(groups, name)
    if d is not_mapped:
        if prim is not par.psum_p:
            return x, not_mapped
        if len({len(g) for g in groups}) == 1:
            return par._scale(x, len(groups[0])), not_mapped
    rows = _per_group(prim, bdim_at_front(x, d, size), groups)
    if len(groups) == 1:
        return index_in_dim(rows, 0, 0, keepdims=False), not_mapped
    return _take(rows, owner), 0


def _grouped_all_gather(x, d, size: int, name, groups, dim: int, tiled: bool):
    """Each member gets its group's members' ``x``, stacked (or concatenated) at
    ``dim`` in the group's order."""
    owner, _ = _group_layout(groups, name)
    g = len(groups[0])
    x = bdim_at_front(x, d, size)
    y = _take(x, [i for m in range(size) for i in groups[owner[m]]])
    y = moveaxis(reshape(y, (size, g) + _shape(x)[1:]), 1, dim + 1)
    if tiled:
        shape = list(_shape(y))
        shape[dim + 1:dim + 3] = [shape[dim + 1] * shape[dim + 2]]
        y = reshape(y, tuple(shape))
    return y, 0


def _grouped_reduce_scatter(x, d, size: int, name, groups, dim: int, tiled: bool):
    """The sum over each group, member ``p`` of a group getting block ``p`` of it along
    ``dim``."""
    owner, slot = _group_layout(groups, name)
    g = len(groups[0])
    sums = _per_group(par.psum_p, bdim_at_front(x, d, size), groups)  # (groups, ...)
    if tiled:
        shape = list(_shape(sums))
        shape[dim + 1:dim + 2] = [g, shape[dim + 1] // g]
        sums = reshape(sums, tuple(shape))
    blocks = moveaxis(sums, dim + 1, 1)  # (groups, g, ...)
    shape = _shape(blocks)
    blocks = reshape(blocks, (shape[0] * g,) + shape[2:])
    return _take(blocks, [owner[m] * g + slot[m] for m in range(size)]), 0


def _grouped_all_to_all(x, d, size: int, name, groups, s: int, c: int):
    """``all_to_all`` within each group: the members regrouped group after group, the
    exchange done for every group at once, the results put back in member order."""
    owner, slot = _group_layout(groups, name)
    g = len(groups[0])
    x = _take(bdim_at_front(x, d, size), [i for grp in groups for i in grp])
    x = reshape(x, (len(groups), g) + _shape(x)[1:])
    y = _exchange(x, g, s, c, lead=1)
    y = reshape(y, (size,) + _shape(y)[2:])
    return _take(y, [owner[m] * g + slot[m] for m in range(size)]), 0


def _reduce_batch(prim):
    def rule(axis, vals, dims, *, axes, axis_index_groups):
        size, name = axis
        (x,), (d,) = vals, dims
        names, pos = list(named(axes)), positional(axes)
        own = name in names
        if own and axis_index_groups is not None:  # over this axis alone
            return _all_members(lambda n, v, dv: _grouped_reduce(
                prim, v, dv, n, name, axis_index_groups), x, d, size, name)
        if own:
            names.remove(name)
        if d is not_mapped:
            if own and prim is par.psum_p:
                x = par._scale(x, par.axis_total(name, size))
            rest = tuple(names) + pos
            return (par.bind_collective(prim, [x], dict(
                axes=rest, axis_index_groups=axis_index_groups)) if rest else x), not_mapped
        shifted = tuple(int(a) + (int(a) >= d) for a in pos)
        if own and prim is par.psum_p and not names and not shifted \
                and par.cross_process(name):
            return _sum_over_processes(x, d, name), not_mapped
        if own:
            out = prim.bind(x, axes=tuple(names) + shifted + (d,),
                            axis_index_groups=axis_index_groups)
            return _across_processes(prim.name, out, name), not_mapped
        out = prim.bind(x, axes=tuple(names) + shifted, axis_index_groups=axis_index_groups)
        return out, d - sum(1 for a in shifted if a < d)
    return rule


for _p in (par.psum_p, par.pmax_p, par.pmin_p):
    axis_batchers[_p] = _reduce_batch(_p)


def _psum_invariant_batch(axis, vals, dims, *, axes):
    size, name = axis
    (x,), (d,) = vals, dims
    rest = tuple(a for a in axes if a != name)
    if name in axes:
        if d is not_mapped:
            x = par._scale(x, par.axis_total(name, size))
        elif par.cross_process(name):
            x = _sum_over_processes(x, d, name)
        else:
            x = par.psum_p.bind(x, axes=(d,), axis_index_groups=None)
        d = not_mapped
    return (par.bind_collective(par.psum_invariant_p, [x], {"axes": rest})
            if rest else x), d


def _pvary_batch(axis, vals, dims, *, axes):
    return vals[0], dims[0]  # no-op on values


axis_batchers[par.psum_invariant_p] = _psum_invariant_batch
axis_batchers[par.pvary_p] = _pvary_batch


def _names_of(params):
    n = params["axis_name"]
    return n if isinstance(n, tuple) else (n,)


def _pass_through(prim, shifts):
    """The rule for a collective over other axes: batch axis first, the named parameters
    (``shifts``: parameter names of axes of the operand) moved past it."""
    def bind(x, d, params):
        if d is not_mapped:
            return prim.bind(x, **params), not_mapped
        x = moveaxis(x, d, 0)
        params = dict(params, **{k: params[k] + 1 for k in shifts})
        return prim.bind(x, **params), 0
    return bind


def _own(axis, params) -> bool:
    names = _names_of(params)
    if axis[1] in names and len(names) > 1:
        raise NotImplementedError("pbroadcast over several named axes")
    return axis[1] in names


def _all_gather_batch(axis, vals, dims, **params):
    (x,), (d,) = vals, dims
    if not _own(axis, params):
        return _pass_through(par.all_gather_p, ["all_gather_dimension"])(x, d, params)
    size = axis[0]
    dim = params["all_gather_dimension"]
    if params["axis_index_groups"] is not None:
        return _all_members(lambda n, v, dv: _grouped_all_gather(
            v, dv, n, axis[1], params["axis_index_groups"], dim, params["tiled"]),
            x, d, size, axis[1])
    x = bdim_at_front(x, d, size)
    out = moveaxis(x, 0, dim)
    if params["tiled"]:
        shape = list(_shape(out))
        shape[dim:dim + 2] = [shape[dim] * shape[dim + 1]]
        out = reshape(out, tuple(shape))
    return _across_processes("all_gather", out, axis[1], dim), not_mapped


def _reduce_scatter_batch(axis, vals, dims, **params):
    (x,), (d,) = vals, dims
    if not _own(axis, params):
        return _pass_through(par.reduce_scatter_p, ["scatter_dimension"])(x, d, params)
    size = axis[0]
    dim = params["scatter_dimension"]
    if params["axis_index_groups"] is not None:
        return _grouped_reduce_scatter(x, d, size, axis[1], params["axis_index_groups"],
                                       dim, params["tiled"])
    x = bdim_at_front(x, d, size)
    s = par.psum_p.bind(x, axes=(0,), axis_index_groups=None)
    if params["tiled"]:
        shape = list(_shape(s))
        shape[dim:dim + 1] = [size, shape[dim] // size]
        s = reshape(s, tuple(shape))
    return moveaxis(s, dim, 0), 0


def _ppermute_batch(axis, vals, dims, **params):
    (x,), (d,) = vals, dims
    if not _own(axis, params):
        return _pass_through(par.ppermute_p, [])(x, d, params)
    size = axis[0]
    source = {dst: src for src, dst in params["perm"]}
    if d is not not_mapped and len(source) == size:
        # a full permutation: JAX's ``take`` of the members, in place
        order = np.array([source[j] for j in range(size)], dtype=np.int32)
        return numpy_api.take(x, order, axis=d), d
    x = bdim_at_front(x, d, size)
    one = (1,) + _shape(x)[1:]
    zeros = None
    parts = []
    for j in range(size):
        if j in source:
            parts.append(index_in_dim(x, source[j], 0, keepdims=True))
        else:
            if zeros is None:
                zeros = full(one, 0, core.get_aval(x).dtype)
            parts.append(zeros)
    return concatenate(parts, 0), 0


def _all_to_all_batch(axis, vals, dims, **params):
    (x,), (d,) = vals, dims
    if not _own(axis, params):
        return _pass_through(par.all_to_all_p, ["split_axis", "concat_axis"])(x, d, params)
    size = axis[0]
    s, c = params["split_axis"], params["concat_axis"]
    if params["axis_index_groups"] is not None:
        return _grouped_all_to_all(x, d, size, axis[1], params["axis_index_groups"], s, c)
    return _exchange(bdim_at_front(x, d, size), size, s, c), 0


def _exchange(x, size: int, s: int, c: int, lead: int = 0):
    """The all_to_all of ``size`` members on axis ``lead`` of ``x`` (after ``lead``
    axes that pass through: one per group), split axis ``s``, concat axis ``c`` of a
    member's block."""
    outer = list(_shape(x)[:lead])
    dev = list(_shape(x)[lead + 1:])
    # labels of x with the split axis cut into (destination J, block M)
    labels = [("g", k) for k in range(lead)] + ["I"] + [("d", k) for k in range(len(dev))]
    sizes = outer + [size] + dev
    at = labels.index(("d", s))
    labels[at:at + 1], sizes[at:at + 1] = ["J", ("d", s)], [size, dev[s] // size]
    x = reshape(x, tuple(sizes))
    target = ["J"] + [("d", k) for k in range(len(dev))]
    target.insert(target.index(("d", c)), "I")  # received blocks in source order
    target = [("g", k) for k in range(lead)] + target
    x = transpose(x, tuple(labels.index(t) for t in target))
    out = list(dev)
    out[s] //= size
    out[c] *= size
    return reshape(x, (*outer, size, *out))


def _axis_index_batch(axis, vals, dims, *, axis_name):
    size, name = axis
    if axis_name != name:
        return par.axis_index_p.bind(axis_name=axis_name), not_mapped
    idx = iota(np.int32, size)
    if par.cross_process(name):  # from this process's first member of the axis
        idx = idx + par.axis_offset(name)
    return idx, 0


def _pbroadcast_batch(axis, vals, dims, **params):
    (x,), (d,) = vals, dims
    if not _own(axis, params):
        return _pass_through(par.pbroadcast_p, [])(x, d, params)
    if d is not_mapped:
        return x, not_mapped
    return index_in_dim(x, params["source"], d, keepdims=False), not_mapped


def _every_member(rule):
    """``rule`` over an axis that spans processes, run as one process with every member
    runs it: the members gathered from every process (in order), the rule applied to
    all of them, this process's members of the result kept. Moves every member's block
    to every process, so it suits the collectives that move blocks between members
    (psum_scatter, ppermute, all_to_all); the reductions have their own path."""
    def wrapped(axis, vals, dims, **params):
        size, name = axis
        if not par.cross_process(name) or not _own(axis, params):
            return rule(axis, vals, dims, **params)
        return _all_members(lambda n, v, dv: rule((n, name), [v], [dv], **params),
                            vals[0], dims[0], size, name)
    return wrapped


def _all_members(fn, x, d, size: int, name):
    """``fn(members, x, d)``, a rule's computation over the axis ``name``, run over
    every process's members when the axis spans processes (see ``_every_member``)."""
    if not par.cross_process(name):
        return fn(size, x, d)
    off, n, total = par.SPANNING[name]
    if d is not not_mapped:
        g = process_collectives.process_allgather(bdim_at_front(x, d, size))
        shape = _shape(g)
        x, d = reshape(g, (shape[0] * shape[1],) + shape[2:]), 0
    with par.within_process(name):
        out, od = fn(total, x, d)
    if od is not_mapped:
        return out, od
    return dynamic_slice_in_dim(bdim_at_front(out, od, total), off, n, axis=0), 0


axis_batchers[par.all_gather_p] = _all_gather_batch
axis_batchers[par.reduce_scatter_p] = _every_member(_reduce_scatter_batch)
axis_batchers[par.ppermute_p] = _every_member(_ppermute_batch)
axis_batchers[par.all_to_all_p] = _every_member(_all_to_all_batch)
axis_batchers[par.axis_index_p] = _axis_index_batch
axis_batchers[par.pbroadcast_p] = _every_member(_pbroadcast_batch)


# ---------------------------------------------------------------------------------------
# jit bodies with collectives: batched inline, under this trace's axis name

_collectives_memo: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _has_collectives(jaxpr) -> bool:
    known = _collectives_memo.get(jaxpr)
    if known is None:
        known = _collectives_memo[jaxpr] = any(
            (eqn.primitive in axis_batchers and eqn.primitive is not jit_p)
            or any(_has_collectives(sub) for sub in jaxprs_in_params(eqn.params))
            for eqn in jaxpr.eqns)
    return known


def _jit_axis_batch(axis, vals, dims, *, jaxpr, name):
    if all(d is not_mapped for d in dims) and not _has_collectives(jaxpr.jaxpr):
        return jit_p.bind(*vals, jaxpr=jaxpr, name=name), [not_mapped] * len(
            jaxpr.out_avals)
    if not _has_collectives(jaxpr.jaxpr):
        return primitive_batchers[jit_p](vals, dims, jaxpr=jaxpr, name=name)
    return batch_flat(lambda *xs: eval_jaxpr(jaxpr, jaxpr.consts, *xs), list(vals),
                      list(dims), axis[0], axis[1])


axis_batchers[jit_p] = _jit_axis_batch
