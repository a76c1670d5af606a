"""Batching rules of the windowed and generic reductions (``windowed.py``,
``reduce_generic.py``), as JAX 0.10.2 writes them: the batch axis gets a window of one
element, stride one and no padding or dilation; operands of the pooling derivatives
are brought to a common batch axis first; ``reduce`` shifts its dimensions past it.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..interpreters.batching import bdim_at_front, not_mapped, primitive_batchers
from . import reduce_generic as rg
from . import windowed as win


def _insert(t: tuple, at: int, value) -> tuple:
    return t[:at] + (value,) + t[at:]


def _batched_params(params: dict, bdim: int) -> dict:
    out = dict(params)
    for key, one in (("window_dimensions", 1), ("window_strides", 1),
                     ("base_dilation", 1), ("window_dilation", 1), ("padding", (0, 0))):
        if key in params:
            out[key] = _insert(tuple(params[key]), bdim, one)
    return out


def _monoid_batch(prim):
    def rule(vals, dims, **params):
        (x,), (bdim,) = vals, dims
        return prim.bind(x, **_batched_params(params, bdim)), bdim
    return rule


for _p in (win.reduce_window_sum_p, win.reduce_window_max_p, win.reduce_window_min_p):
    primitive_batchers[_p] = _monoid_batch(_p)


def _size_of(vals, dims) -> int:
    return next(core.get_aval(x).shape[d] for x, d in zip(vals, dims, strict=True)
                if d is not not_mapped)


def _pair_batch(prim):
    """Both operands batched at the front (an unbatched one broadcast)."""
    def rule(vals, dims, **params):
        size = _size_of(vals, dims)
        a, b = (bdim_at_front(x, d, size) for x, d in zip(vals, dims, strict=True))
        return prim.bind(a, b, **_batched_params(params, 0)), 0
    return rule


primitive_batchers[win.select_and_gather_add_p] = _pair_batch(win.select_and_gather_add_p)
primitive_batchers[win.select_and_scatter_add_p] = _pair_batch(win.select_and_scatter_add_p)


def _reduce_window_batch(vals, dims, *, jaxpr, consts, **params):
    n = len(vals) // 2
    if any(d is not not_mapped for d in dims[n:]):
        raise NotImplementedError("reduce_window batching is not implemented for "
                                  "initial values")
    size = _size_of(vals[:n], dims[:n])
    xs = [bdim_at_front(x, d, size) for x, d in zip(vals[:n], dims[:n], strict=True)]
    outs = win.reduce_window_p.bind(*xs, *vals[n:], jaxpr=jaxpr, consts=consts,
                                    **_batched_params(params, 0))
    return outs, [0] * n


primitive_batchers[win.reduce_window_p] = _reduce_window_batch


def _reduce_batch(vals, dims, *, computation, jaxpr, dimensions):
    n = len(vals) // 2
    if any(d is not not_mapped for d in dims[n:]):
        raise NotImplementedError("reduce batching is not implemented for initial values")
    size = _size_of(vals[:n], dims[:n])
    xs = [bdim_at_front(x, d, size) for x, d in zip(vals[:n], dims[:n], strict=True)]
    new_dims = tuple(np.add(dimensions, 1)) if dimensions else ()
    outs = rg.reduce_p.bind(*xs, *vals[n:], computation=computation, jaxpr=jaxpr,
                            dimensions=tuple(int(d) for d in new_dims))
    return outs, [0] * n


primitive_batchers[rg.reduce_p] = _reduce_batch


def _cumlogsumexp_batch(vals, dims, *, axis, reverse):
    (x,), (bdim,) = vals, dims
    return rg.cumlogsumexp_p.bind(x, axis=axis if axis < bdim else axis + 1,
                                  reverse=reverse), bdim


primitive_batchers[rg.cumlogsumexp_p] = _cumlogsumexp_batch
