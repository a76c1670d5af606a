"""Differentiation rules of ``sort``, ``top_k`` and ``stop_gradient``
(``lax/sorting.py``) and of ``threefry2x32`` (``lax/prng.py``), as JAX 0.10.2 writes them.

``sort`` also sorts an iota along the sorted axis and gathers every tangent with the
resulting permutation; ``top_k`` gathers the tangent at the indices it returns; the
tangents of ``stop_gradient`` and of the random bits are zero.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..interpreters import ad
from ..interpreters.ad import Zero
from . import prng
from .sorting import sort_p, stop_gradient, stop_gradient_p, top_k_p
from ._indexing_common import GatherDimensionNumbers, GatherScatterMode
from .indexing import gather
from .slicing import broadcasted_iota
from .structural import expand_dims, reshape

__all__: list = []


def _tangent_zero(x):
    return Zero(ad.tangent_aval(core.get_aval(x).strip_weak_type()))


def _sort_jvp(primals, tangents, *, dimension, is_stable, num_keys):
    shape = core.get_aval(primals[0]).shape
    index_dtype = np.dtype(np.uint64 if any(d > np.iinfo(np.uint32).max for d in shape)
                           else np.uint32)
    outs = sort_p.bind(*primals, broadcasted_iota(index_dtype, shape, dimension),
                           dimension=dimension, is_stable=is_stable, num_keys=num_keys)
    batch = tuple(int(d) for d in np.delete(np.arange(len(shape), dtype=np.int64),
                                            dimension))
    dnums = GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(dimension,),
                                   start_index_map=(dimension,),
                                   operand_batching_dims=batch,
                                   start_indices_batching_dims=batch)
    idx = expand_dims(outs[-1], (len(shape),))
    t_out = [t if isinstance(t, Zero) else
             gather(t, idx, dnums, (1,) * len(shape),
                    mode=GatherScatterMode.PROMISE_IN_BOUNDS)
             for t in tangents]
    return list(outs[:-1]), t_out


ad.jvp_rules[sort_p] = _sort_jvp


def _top_k_jvp(primals, tangents, *, k, axis):
    operand, = primals
    tangent, = tangents
    vals, idxs = top_k_p.bind(operand, k=k, axis=axis)
    if isinstance(tangent, Zero):
        return [vals, idxs], [_tangent_zero(vals), _tangent_zero(idxs)]
    idx_shape = core.get_aval(idxs).shape
    rank = len(idx_shape)
    batch = tuple(i for i in range(rank) if i != axis)
    dnums = GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(axis,),
                                   start_index_map=(axis,), operand_batching_dims=batch,
                                   start_indices_batching_dims=batch)
    t_out = gather(tangent, reshape(idxs, idx_shape + (1,)), dnums, (1,) * rank)
    return [vals, idxs], [t_out, _tangent_zero(idxs)]


ad.jvp_rules[top_k_p] = _top_k_jvp


def _stop_gradient_jvp(primals, tangents):
    x, = primals
    return stop_gradient(x), _tangent_zero(x)


ad.jvp_rules[stop_gradient_p] = _stop_gradient_jvp
ad.defjvp_zero(prng.threefry2x32_p)
