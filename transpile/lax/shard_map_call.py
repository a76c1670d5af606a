"""The ``shard_map`` primitive: a per-device body over the manual axes of a mesh.

Its parameters, as JAX 0.10.2 prints them: ``check_vma``, ``in_specs``, ``jaxpr`` (the
body, traced on one device's blocks), ``mesh``, ``newly_manual_axes``, ``out_specs``.

All CPU devices share host memory, so a ``shard_map`` runs as a batched program
(``batched``): each manual mesh axis, outermost first, becomes a batch axis with that
axis's name bound (``batching.batch_flat``); an input's blocks are cut out of the
global array by a reshape (mesh axes leading, in mesh order), the body runs under the
batch traces, whose collective rules communicate over the batch axes
(``parallel_batching``), and outputs are put back by the inverse reshape. The same
function is the NumPy rule (eager), the compiled form (``lax.call.EXPANSIONS``: the
plan sees ordinary kernels, parallel over the batch). The differentiation and batching
rules (``shard_map_ad``) stage shard_maps, as JAX does; the expansion's JVP here is
their fallback for a body that closes over arrays.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..core import ShapedArray
from ..interpreters import ad, batching
from ..interpreters.batching import axis_batchers, bdim_at_front
from ..interpreters.tracing import trace_to_jaxpr
from ..ir import Literal, pp_param_rules
from . import parallel, process_collectives
from .call import EXPANSIONS
from .dynamic_slicing import (dynamic_index_in_dim, dynamic_slice_in_dim,
                              dynamic_update_slice_in_dim)
from .slicing import index_in_dim
from .structural import full, reshape, transpose

__all__ = ["shard_map_p", "batched", "spec_axes", "global_shape", "local_shape"]

shard_map_p = core.new_primitive("shard_map", multiple_results=True)


def spec_axes(spec) -> list:
    """The mesh axis names of each entry of a ``PartitionSpec`` (a tuple per array axis)."""
    out = []
    for e in spec:
        if e is None:
            out.append(())
        elif isinstance(e, tuple):
            out.append(tuple(e))
        else:
            out.append((e,))
    return out


def _factor(mesh, names) -> int:
    return int(np.prod([mesh.shape[n] for n in names], dtype=np.int64))


def local_shape(mesh, spec, shape) -> tuple:
    """One device's block shape of a global ``shape`` under ``spec``."""
    entries = spec_axes(spec) + [()] * (len(shape) - len(spec))
    return tuple(d // _factor(mesh, e) for d, e in zip(shape, entries))


def global_shape(mesh, spec, shape) -> tuple:
    """The global shape assembled from blocks of ``shape`` under ``spec``."""
    entries = spec_axes(spec) + [()] * (len(shape) - len(spec))
    return tuple(d * _factor(mesh, e) for d, e in zip(shape, entries))


@shard_map_p.def_abstract_eval
def _shard_map_abstract(*avals, jaxpr, mesh, in_specs, out_specs, check_vma,
                        newly_manual_axes):
    return [ShapedArray(global_shape(mesh, s, a.shape), a.dtype, a.weak_type)
            for a, s in zip(jaxpr.out_avals, out_specs, strict=True)]


def _manual_order(mesh, manual) -> list:
    return [n for n in mesh.axis_names if n in manual]


def _split(x, mesh, spec, order):
    """``x`` with the blocks of each mesh axis in ``spec`` as leading axes (mesh order)."""
    shape = list(core.get_aval(x).shape)
    entries = spec_axes(spec) + [()] * (len(shape) - len(spec))
    split, labels = [], []
    for k, (d, names) in enumerate(zip(shape, entries)):
        for n in names:
            split.append(mesh.shape[n])
            labels.append(n)
        split.append(d // _factor(mesh, names))
        labels.append(k)
    if len(split) != len(shape):
        x = reshape(x, tuple(split))
    lead = [labels.index(n) for n in order if n in labels]
    perm = lead + [i for i in range(len(labels)) if i not in lead]
    return transpose(x, tuple(perm)) if perm != list(range(len(perm))) else x


def _join(x, mesh, spec, order):
    """The inverse of ``_split``: leading mesh axes (mesh order) back into the blocks."""
    used = [n for n in order if any(n in e for e in spec_axes(spec))]
    local = list(core.get_aval(x).shape)[len(used):]
    entries = spec_axes(spec) + [()] * (len(local) - len(spec))
    perm = []
    for k, names in enumerate(entries):
        perm.extend(used.index(n) for n in names)
        perm.append(len(used) + k)
    if perm != list(range(len(perm))):
        x = transpose(x, tuple(perm))
    out = global_shape(mesh, spec, local)
    return reshape(x, out) if tuple(core.get_aval(x).shape) != out else x


def _spanning(mesh, order) -> dict:
    """The manual axes along which each process holds only some of the mesh's devices:
    name -> (first member of each process along it, members per process, axis size).
    Empty in one process.

    Each process's devices must form one contiguous block of the mesh, the same size in
    every process (process-major layouts such as ``Mesh(np.array(jax.devices()), ...)``
    are); a mesh axis that spans processes must be manual."""
    if not getattr(mesh, "is_multi_process", False):
        return {}
    owner = np.vectorize(lambda d: d.process_index, otypes=[int])(mesh.devices)
    firsts: list = []
    counts = None
    for q in range(int(owner.max()) + 1):
        mine = owner == q
        ranges = []
        for k in range(mine.ndim):
            idx = np.flatnonzero(mine.any(axis=tuple(i for i in range(mine.ndim) if i != k)))
            ranges.append((int(idx[0]), len(idx)) if len(idx) else (0, 0))
        block = np.zeros_like(mine)
        block[tuple(slice(o, o + n) for o, n in ranges)] = True
        if not (block == mine).all() or (counts is not None
                                          and counts != [n for _, n in ranges]):
            raise NotImplementedError("shard_map over a mesh whose processes do not each "
                                      "hold one contiguous block of devices of one size")
        counts = [n for _, n in ranges]
        firsts.append([o for o, _ in ranges])
    out = {}
    for k, (name, size) in enumerate(zip(mesh.axis_names, mesh.axis_sizes)):
        if counts[k] != size:
            if name not in order:
                raise NotImplementedError(f"shard_map with the mesh axis {name!r}, which "
                                          "spans processes, not manual")
            out[name] = (tuple(f[k] for f in firsts), counts[k], size)
    return out


def _offsets(span: dict) -> dict:
    """name -> this process's first member along the axis, read when the program runs
    (the compiled program is the same in every process, and so is an exported one)."""
    if not span:
        return {}
    rank = process_collectives.process_rank()
    return {name: dynamic_index_in_dim(np.array(firsts, np.int32), rank, 0, False)
            for name, (firsts, _, _) in span.items()}


def _local_blocks(x, lead: list, span: dict, offsets: dict):
    """The members of this process along each leading mesh axis that spans processes."""
    for k, name in enumerate(lead):
        if name in span:
            x = dynamic_slice_in_dim(x, offsets[name], span[name][1], axis=k)
    return x


def _global_blocks(x, lead: list, span: dict, offsets: dict):
    """The inverse of ``_local_blocks``: zeros where other processes' members sit (they
    hold those blocks; this process never reads them)."""
    for k, name in enumerate(lead):
        if name in span:
            shape = list(core.get_aval(x).shape)
            shape[k] = span[name][2]
            zeros = full(tuple(shape), 0, core.get_aval(x).dtype)
            x = dynamic_update_slice_in_dim(zeros, x, offsets[name], axis=k)
    return x


def batched(args, *, jaxpr, mesh, in_specs, out_specs, check_vma, newly_manual_axes):
    """Run the body over the mesh as nested batches (see the module docstring). In a
    run of several processes each batches over its own devices of an axis that spans
    processes; the collectives over it then call the process-level ones."""
    order = _manual_order(mesh, newly_manual_axes)
    uses_in = [set(n for e in spec_axes(s) for n in e) for s in in_specs]
    uses_out = [set(n for e in spec_axes(s) for n in e) for s in out_specs]
    span = _spanning(mesh, order)
    offsets = _offsets(span)
    xs = [_local_blocks(_split(x, mesh, s, order), [n for n in order if n in u], span,
                        offsets)
          for x, s, u in zip(args, in_specs, uses_in, strict=True)]
    saved = dict(parallel.SPANNING)
    parallel.SPANNING.update({n: (offsets[n], local, size)
                              for n, (_, local, size) in span.items()})
    try:
        outs = _levels(xs, jaxpr, mesh, order, uses_in, uses_out, span)
    finally:
        parallel.SPANNING.clear()
        parallel.SPANNING.update(saved)
    outs = [_global_blocks(o, [n for n in order if n in u], span, offsets)
            for o, u in zip(outs, uses_out, strict=True)]
    return [_join(o, mesh, s, order) for o, s in zip(outs, out_specs, strict=True)]


def _levels(xs, jaxpr, mesh, order, uses_in, uses_out, span) -> list:
    """The body under one batch trace per manual axis, outermost first."""
    def level(i, vals):
        if i == len(order):
            return _eval_body(jaxpr, vals)
        name = order[i]
        size = span[name][1] if name in span else mesh.shape[name]
        dims = [0 if name in u else None for u in uses_in]
        outs, out_dims = batching.batch_flat(lambda *v: level(i + 1, v), list(vals),
                                             dims, size, name)
        res = []
        for o, d, u in zip(outs, out_dims, uses_out, strict=True):
            if name in u:
                res.append(bdim_at_front(o, d, size))
            elif d is not None:  # declared replicated, unchecked: device 0's value
                res.append(index_in_dim(o, 0, d, keepdims=False))
            else:
                res.append(o)
        return res
    return level(0, xs)


def _eval_body(closed, args) -> list:
    """Bind the body's equations under the batch traces; collectives through
    ``parallel.bind_collective`` (an operand the batching never reached, or none at all
    for ``axis_index``, still reaches the batch trace of its axis)."""
    env = dict(zip(closed.jaxpr.constvars, closed.consts, strict=True))
    env.update(zip(closed.jaxpr.invars, args, strict=True))

    def read(a):
        if isinstance(a, Literal):
            return a.val if type(a.val) in (bool, int, float, complex) else np.asarray(a.val)
        return env[a]
    for eqn in closed.jaxpr.eqns:
        vals = [read(a) for a in eqn.invars]
        if eqn.primitive in axis_batchers:
            outs = parallel.bind_collective(eqn.primitive, vals, eqn.params)
        else:
            outs = eqn.primitive.bind(*vals, **eqn.params)
        outs = outs if eqn.primitive.multiple_results else [outs]
        env.update(zip(eqn.outvars, outs, strict=True))
    return [read(a) for a in closed.jaxpr.outvars]


@shard_map_p.def_impl
def _shard_map_impl(*args, **params):
    return batched(list(args), **params)


def _shard_map_expand(in_avals, **params):
    return trace_to_jaxpr(lambda *xs: batched(list(xs), **params), list(in_avals))


def _shard_map_jvp(primals, tangents, **params):
    tangents = [ad.instantiate(t, ad.tangent_aval(core.get_aval(p)))
                for p, t in zip(primals, tangents, strict=True)]
    return ad.jvp_flat(lambda *xs: batched(list(xs), **params), list(primals), tangents)


class _Names:
    """A set of axis names printed as ``frozenset({'x', 'y'})`` in mesh order (a
    frozenset's own order changes with the string hash seed)."""

    def __init__(self, names):
        self.names = names

    def __str__(self) -> str:
        return "frozenset({" + ", ".join(repr(n) for n in self.names) + "})"


def _shard_map_pp(params):
    items = sorted(params.items())
    order = _manual_order(params["mesh"], params["newly_manual_axes"])
    return [(k, _Names(order) if k == "newly_manual_axes" else v) for k, v in items]


pp_param_rules[shard_map_p] = _shard_map_pp
EXPANSIONS[shard_map_p] = _shard_map_expand
ad.jvp_rules[shard_map_p] = _shard_map_jvp
