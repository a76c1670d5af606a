"""Differentiation rules of the indexing primitives (``lax/indexing.py``: gather and the
scatters; ``lax/dynamic_slicing.py``: dynamic_slice, dynamic_update_slice), as JAX
0.10.2 writes them.

Indices are never differentiated. ``gather`` and ``dynamic_slice`` are linear in the
operand (transposes: ``scatter-add`` / ``dynamic_update_slice`` into zeros);
``scatter-add``/``-sub`` and ``dynamic_update_slice`` are linear in operand and
updates (transposes: the cotangent itself, and a ``gather`` / ``dynamic_slice`` of it).
``scatter`` with colliding indices and ``scatter-min``/``-max`` use JAX's masking
schemes; ``scatter-mul`` needs unique indices for its updates' derivative.
"""
from __future__ import annotations

import functools
import math

import numpy as np

from .. import core
from ..interpreters import ad
from ..interpreters.ad import Zero, is_undefined_primal
from . import elementwise
from . import dynamic_slicing as ds
from . import indexing as ix
from ._base import numpy_api
from ._indexing_common import GatherDimensionNumbers
from .elementwise import add, eq, mul, neg, select
from .slicing import iota
from .structural import full, full_like, reshape

__all__: list = []


def _tangent_zero(x):
    return Zero(ad.tangent_aval(core.get_aval(x).strip_weak_type()))


def _shape(x) -> tuple:
    return x.aval.shape if is_undefined_primal(x) else core.get_aval(x).shape


# ---------------------------------------------------------------------------------------
# gather

def _gather_jvp(g, operand, indices, *, dimension_numbers, slice_sizes, unique_indices,
                indices_are_sorted, mode, fill_value):
    return ix.gather(g, indices, dimension_numbers, slice_sizes,
                     unique_indices=unique_indices, indices_are_sorted=indices_are_sorted,
                     mode=mode, fill_value=0)


def _gather_transpose(cts, operand, indices, *, dimension_numbers, slice_sizes,
                      unique_indices, indices_are_sorted, mode, fill_value):
    ct, = cts
    if isinstance(ct, Zero):
        return [None, None]
    dn = dimension_numbers
    zeros = full(operand.aval.shape, 0, core.get_aval(ct).dtype)
    sdn = ix.ScatterDimensionNumbers(
        update_window_dims=dn.offset_dims, inserted_window_dims=dn.collapsed_slice_dims,
        scatter_dims_to_operand_dims=dn.start_index_map,
        operand_batching_dims=dn.operand_batching_dims,
        scatter_indices_batching_dims=dn.start_indices_batching_dims)
    out = ix._scatter_bind(ix.scatter_add_p, zeros, indices, ct, sdn, indices_are_sorted,
                           unique_indices, mode, _transpose_combiner("add", zeros_dtype(ct)))
    return [out, None]


def zeros_dtype(x):
    return core.get_aval(x).dtype


@functools.lru_cache(maxsize=None)
def _transpose_combiner(lax_name, dtype):
    """The ``update_jaxpr`` of the combining scatters made by transpose rules: shared
    among themselves but not with those traced forwards, as JAX's (whose cache of them
    is keyed by the trace context, which differs in the backward pass)."""
    return ix._trace_scalar_fn(getattr(elementwise, lax_name), dtype, 2)


ad.defjvp(ix.gather_p, _gather_jvp, None)
ad.transpose_rules[ix.gather_p] = _gather_transpose


# ---------------------------------------------------------------------------------------
# scatters

def _inverse_gather(dnums, operand_shape, updates_shape):
    """The gather dimension numbers and slice sizes undoing a scatter's."""
    gdn = GatherDimensionNumbers(
        offset_dims=dnums.update_window_dims, collapsed_slice_dims=dnums.inserted_window_dims,
        start_index_map=dnums.scatter_dims_to_operand_dims,
        operand_batching_dims=dnums.operand_batching_dims,
        start_indices_batching_dims=dnums.scatter_indices_batching_dims)
    sizes, pos = [], 0
    for i in range(len(operand_shape)):
        if i in dnums.inserted_window_dims or i in dnums.operand_batching_dims:
            sizes.append(1)
        else:
            sizes.append(updates_shape[dnums.update_window_dims[pos]])
            pos += 1
    return gdn, sizes


def _scatter_addsub_jvp(prim, primals, tangents, **params):
    operand, indices, updates = primals
    g_operand, _, g_updates = tangents
    out = prim.bind(operand, indices, updates, **params)
    if isinstance(g_operand, Zero) and isinstance(g_updates, Zero):
        return out, _tangent_zero(out)
    return out, prim.bind(ad.instantiate(g_operand), indices, ad.instantiate(g_updates),
                          **params)


def _scatter_addsub_transpose(prim, cts, operand, indices, updates, *, update_jaxpr,
                              update_consts, dimension_numbers, indices_are_sorted,
                              unique_indices, mode):
    ct, = cts
    if isinstance(ct, Zero):
        return [None, None, None]
    operand_t = ct if is_undefined_primal(operand) else None
    update_t = None
    if is_undefined_primal(updates):
        gdn, sizes = _inverse_gather(dimension_numbers, core.get_aval(ct).shape,
                                     _shape(updates))
        update_t = ix.gather(ct, indices, dimension_numbers=gdn, slice_sizes=sizes,
                             mode=mode, fill_value=0)
        if prim is ix.scatter_sub_p:
            update_t = neg(update_t)
    return [operand_t, None, update_t]


for _p in (ix.scatter_add_p, ix.scatter_sub_p):
    ad.jvp_rules[_p] = (lambda p: lambda primals, tangents, **kw:
                        _scatter_addsub_jvp(p, primals, tangents, **kw))(_p)
    ad.transpose_rules[_p] = (lambda p: lambda cts, *args, **kw:
                              _scatter_addsub_transpose(p, cts, *args, **kw))(_p)


def _scatter_kwargs(params):
    return dict(indices_are_sorted=params["indices_are_sorted"],
                unique_indices=params["unique_indices"], mode=params["mode"])


def _scatter_mul_jvp_rhs(g, x, i, y, **params):
    if not params["unique_indices"]:
        raise NotImplementedError(
            "scatter_mul gradients are only implemented if `unique_indices=True`")
    return mul(x, ix.scatter_add(full_like(x, 0), i, g, params["dimension_numbers"],
                                 **_scatter_kwargs(params)))


ad.defjvp(ix.scatter_mul_p,
          lambda g, x, i, y, **kw: ix.scatter_mul_p.bind(g, i, y, **kw),
          None, _scatter_mul_jvp_rhs)


def _scatter_mul_transpose(cts, operand, indices, updates, **params):
    ct, = cts
    if isinstance(ct, Zero):
        return [None, None, None]
    dnums = params["dimension_numbers"]
    operand_t = update_t = None
    if is_undefined_primal(operand):
        kw = _scatter_kwargs(params)
        operand_t = ix._scatter_bind(
            ix.scatter_mul_p, ct, indices, updates, dnums, kw["indices_are_sorted"],
            kw["unique_indices"], kw["mode"], _transpose_combiner("mul", zeros_dtype(ct)))
    if is_undefined_primal(updates):
        if not params["unique_indices"]:
            raise NotImplementedError(
                "scatter_mul gradients are only implemented if `unique_indices=True`")
        gdn, sizes = _inverse_gather(dnums, core.get_aval(ct).shape, _shape(updates))
        update_t = ix.gather(mul(ct, operand), indices, dimension_numbers=gdn,
                             slice_sizes=sizes, mode=params["mode"])
    return [operand_t, None, update_t]


ad.transpose_rules[ix.scatter_mul_p] = _scatter_mul_transpose


def _scatter_extremal_jvp(prim, primals, tangents, **params):
    operand, indices, updates = primals
    g_operand, _, g_updates = tangents
    dnums = params["dimension_numbers"]
    out = prim.bind(operand, indices, updates, **params)
    if isinstance(g_operand, Zero) and isinstance(g_updates, Zero):
        return out, _tangent_zero(out)
    g_operand, g_updates = ad.instantiate(g_operand), ad.instantiate(g_updates)
    gdn, sizes = _inverse_gather(dnums, core.get_aval(operand).shape,
                                 core.get_aval(updates).shape)

    def gather(x):
        return ix.gather(x, indices, gdn, sizes)

    # Contending updates share the tangent at their location evenly (with the operand's
    # value if it is retained), as for the other max operations.
    initial_vals = gather(operand)
    target_vals = gather(out)
    successful = _arr(updates) == target_vals
    retained = initial_vals == target_vals
    num_updates = gather(ix.scatter_add(
        full_like(operand, 0), indices,
        select(successful, full_like(updates, 1), full_like(updates, 0)), dnums))
    num_refs = gather(ix.scatter_add(full_like(operand, 0), indices,
                                     full_like(updates, 1), dnums))
    updates_normalizer = select(retained, 1.0 / (num_updates + 1), 1.0 / num_updates)
    updates_coef = select(successful, updates_normalizer, full_like(updates, 0))
    operand_normalizer = select(retained, 1.0 / (num_updates + 1),
                                full_like(num_updates, 0))
    operand_coef = (-1.0 + operand_normalizer) / num_refs
    target_tangents = gather(g_operand)
    tangent_updates = target_tangents * operand_coef + _arr(g_updates) * updates_coef
    return out, ix.scatter_add(g_operand, indices, tangent_updates, dnums,
                               indices_are_sorted=params["indices_are_sorted"],
                               unique_indices=params["unique_indices"], mode=params["mode"])


def _arr(x):
    """``x`` with the array operators (a NumPy value as an Array)."""
    return x if isinstance(x, core.Tracer) else numpy_api.asarray(x)


for _p in (ix.scatter_min_p, ix.scatter_max_p):
    ad.jvp_rules[_p] = (lambda p: lambda primals, tangents, **kw:
                        _scatter_extremal_jvp(p, primals, tangents, **kw))(_p)


def _scatter_jvp(primals, tangents, *, update_jaxpr, update_consts, dimension_numbers,
                 indices_are_sorted, unique_indices, mode):
    if update_jaxpr is not None:
        raise NotImplementedError("scatter_apply JVP not implemented")
    operand, indices, updates = primals
    g_operand, _, g_updates = tangents
    dnums = dimension_numbers
    params = dict(update_jaxpr=update_jaxpr, update_consts=update_consts,
                  dimension_numbers=dnums, indices_are_sorted=indices_are_sorted, mode=mode)
    if isinstance(g_operand, Zero) and isinstance(g_updates, Zero):
        out = ix.scatter_p.bind(operand, indices, updates, unique_indices=unique_indices,
                                **params)
        return out, _tangent_zero(out)
    g_operand, g_updates = ad.instantiate(g_operand), ad.instantiate(g_updates)
    if unique_indices:
        out = ix.scatter_p.bind(operand, indices, updates, unique_indices=True, **params)
        return out, ix.scatter_p.bind(g_operand, indices, g_updates, unique_indices=True,
                                      **params)
    # Colliding updates: tag each with an id, scatter the ids, and keep (by masks) only
    # the operand entries and updates that won; then scatter-add primal and tangent.
    u_shape = core.get_aval(updates).shape
    ids_shape = list(u_shape)
    for d in dnums.update_window_dims:
        ids_shape[d] = 1
    num_ids = math.prod(ids_shape)
    id_dtype = np.dtype(np.uint64 if num_ids > np.iinfo(np.uint32).max else np.uint32)
    update_ids = add(reshape(iota(id_dtype, num_ids), ids_shape),
                     full_like(updates, 1, dtype=id_dtype))
    kw = dict(indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
              mode=mode)
    scattered_ids = ix.scatter(full(core.get_aval(operand).shape, 0, id_dtype), indices,
                               update_ids, dnums, **kw)
    gdn, sizes = _inverse_gather(dnums, core.get_aval(scattered_ids).shape, u_shape)
    gathered_ids = ix.gather(scattered_ids, indices, dimension_numbers=gdn,
                             slice_sizes=sizes)
    # (the masks are recomputed for each use, as JAX's rule does)
    masked_operand = select(eq(scattered_ids, full_like(scattered_ids, 0)), operand,
                            full_like(operand, 0))
    masked_updates = select(eq(update_ids, gathered_ids), updates, full_like(updates, 0))
    masked_g_operand = select(eq(scattered_ids, full_like(scattered_ids, 0)), g_operand,
                              full_like(g_operand, 0))
    masked_g_updates = select(eq(update_ids, gathered_ids), g_updates,
                              full_like(g_updates, 0))
    return (ix.scatter_add(masked_operand, indices, masked_updates, dnums, **kw),
            ix.scatter_add(masked_g_operand, indices, masked_g_updates, dnums, **kw))


def _scatter_transpose(cts, operand, indices, updates, *, update_jaxpr, update_consts,
                       dimension_numbers, indices_are_sorted, unique_indices, mode):
    if not unique_indices:
        raise NotImplementedError("scatter transpose is only implemented where "
                                  "unique_indices=True")
    ct, = cts
    if isinstance(ct, Zero):
        return [None, None, None]
    u_shape = _shape(updates)
    operand_t = update_t = None
    if is_undefined_primal(operand):
        operand_t = ix.scatter(ct, indices, full(u_shape, 0, core.get_aval(ct).dtype),
                               dimension_numbers, indices_are_sorted=indices_are_sorted,
                               unique_indices=True, mode=mode)
    if is_undefined_primal(updates):
        gdn, sizes = _inverse_gather(dimension_numbers, core.get_aval(ct).shape, u_shape)
        update_t = ix.gather(ct, indices, dimension_numbers=gdn, slice_sizes=sizes,
                             mode=mode, fill_value=0)
    return [operand_t, None, update_t]


ad.jvp_rules[ix.scatter_p] = _scatter_jvp
ad.transpose_rules[ix.scatter_p] = _scatter_transpose


# ---------------------------------------------------------------------------------------
# dynamic_slice, dynamic_update_slice

def _dynamic_slice_jvp(primals, tangents, *, slice_sizes):
    operand, *starts = primals
    out = ds.dynamic_slice_p.bind(operand, *starts, slice_sizes=slice_sizes)
    t = tangents[0]
    if isinstance(t, Zero):
        return out, _tangent_zero(out)
    return out, ds.dynamic_slice_p.bind(t, *starts, slice_sizes=slice_sizes)


def _dynamic_slice_transpose(cts, operand, *starts, slice_sizes):
    ct, = cts
    if isinstance(ct, Zero) or not is_undefined_primal(operand):
        return [None] * (1 + len(starts))
    zeros = full(operand.aval.shape, 0, operand.aval.dtype)
    return [ds.dynamic_update_slice_p.bind(zeros, ct, *starts)] + [None] * len(starts)


ad.jvp_rules[ds.dynamic_slice_p] = _dynamic_slice_jvp
ad.transpose_rules[ds.dynamic_slice_p] = _dynamic_slice_transpose


def _dynamic_update_slice_jvp(primals, tangents):
    operand, update, *starts = primals
    g_operand, g_update = tangents[:2]
    out = ds.dynamic_update_slice_p.bind(operand, update, *starts)
    if isinstance(g_operand, Zero) and isinstance(g_update, Zero):
        return out, _tangent_zero(out)
    return out, ds.dynamic_update_slice_p.bind(ad.instantiate(g_operand),
                                               ad.instantiate(g_update), *starts)


def _dynamic_update_slice_transpose(cts, operand, update, *starts):
    ct, = cts
    if isinstance(ct, Zero):
        return [None] * (2 + len(starts))
    u_shape = _shape(update)
    zeros = full(u_shape, 0, core.get_aval(ct).dtype)
    operand_t = (ds.dynamic_update_slice_p.bind(ct, zeros, *starts)
                 if is_undefined_primal(operand) else None)
    update_t = (ds.dynamic_slice_p.bind(ct, *starts, slice_sizes=tuple(u_shape))
                if is_undefined_primal(update) else None)
    return [operand_t, update_t] + [None] * len(starts)


ad.jvp_rules[ds.dynamic_update_slice_p] = _dynamic_update_slice_jvp
ad.transpose_rules[ds.dynamic_update_slice_p] = _dynamic_update_slice_transpose
