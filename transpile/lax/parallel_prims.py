"""The collective primitives over named axes (``psum``, ``all_gather``, ``ppermute``,
...) with their abstract evaluation and NumPy rules, the record of mesh axes that span
processes (``SPANNING``) and ``bind_collective``, which binds a collective staged in a
``shard_map`` body through the batch trace of its axis.

The functions users call are in ``lax/parallel.py``; the batching rules (where the
communication happens) in ``parallel_batching.py``, the transposes in ``parallel_ad.py``.
A named axis is bound by ``vmap(axis_name=...)``, ``shard_map`` or ``pmap``
(``core.axis_env``). ``psum``, ``pmax`` and ``pmin`` also take positional axes
(integers): that is the form their batching rules stage, as in JAX, and it is compiled
as the matching ``reduce_*`` (``lax.call.EXPANSIONS``).
"""
from __future__ import annotations

import contextlib

import numpy as np

from .. import core
from ..core import ShapedArray, Tracer
from ..interpreters.tracing import trace_to_jaxpr
from .call import EXPANSIONS
from .reduction import reduce_max_p, reduce_min_p, reduce_sum_p

__all__ = ["psum_p", "pmax_p", "pmin_p", "psum_invariant_p", "pvary_p", "all_gather_p",
           "reduce_scatter_p", "ppermute_p", "all_to_all_p", "axis_index_p",
           "pbroadcast_p", "REDUCERS", "SPANNING", "named", "positional", "cross_process",
           "within_process", "axis_total", "axis_offset", "bind_collective"]

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
    size = len(axis_index_groups[0]) if axis_index_groups is not None else int(np.prod(
        [core.axis_frame(n, "all_to_all")[0] for n in _names(axis_name)], dtype=np.int64))
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
