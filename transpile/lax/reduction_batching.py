"""Batching rules of the reductions (``reduction.py``), ``dot_general`` (``contraction.py``),
the sorts (``sorting.py``) and the linear algebra primitives (``linalg.py``), written as
JAX 0.10.2 writes them so that ``make_jaxpr(vmap(f))`` prints the same equations.

Reductions shift their axes past the batch axis (JAX computes them with NumPy, and its
jaxpr text shows ``axes=(np.int64(2),)``). A batched ``dot_general`` stays one
``dot_general``: two batched operands gain a leading batch dimension, one batched operand
a free dimension. The linear algebra primitives take leading batch axes.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..interpreters.batching import (bdim_at_front, moveaxis, not_mapped,
                                     primitive_batchers)
from . import contraction as dot
from . import linalg, reduction, structural
from . import sorting as sort


def _shape(x) -> tuple:
    return tuple(core.get_aval(x).shape)


# ---------------------------------------------------------------------------------------
# reduction.py

def _reducer_batch(prim):
    """JAX's ``reducer_batcher``: the reduced axes past the batch axis move up by one;
    the batch axis lands where it is among the axes that remain."""
    def rule(vals, dims, *, axes, **params):
        (x,), (bdim,) = vals, dims
        new_axes = tuple(np.where(np.less(axes, bdim), axes, np.add(axes, 1)))
        kept = [i for i in range(len(_shape(x))) if i not in new_axes]
        return prim.bind(x, axes=new_axes, **params), kept.index(bdim)
    return rule


def _cumulative_batch(prim):
    def rule(vals, dims, *, axis, reverse):
        (x,), (bdim,) = vals, dims
        return prim.bind(x, axis=axis if axis < bdim else axis + 1, reverse=reverse), bdim
    return rule


for _p in (reduction.reduce_sum_p, reduction.reduce_prod_p, reduction.reduce_max_p,
           reduction.reduce_min_p, reduction.reduce_and_p, reduction.reduce_or_p,
           reduction.reduce_xor_p, reduction.argmax_p, reduction.argmin_p):
    primitive_batchers[_p] = _reducer_batch(_p)
for _p in (reduction.cumsum_p, reduction.cumprod_p, reduction.cummax_p,
           reduction.cummin_p):
    primitive_batchers[_p] = _cumulative_batch(_p)


# ---------------------------------------------------------------------------------------
# contraction.py

def _bump(dims, b) -> tuple:
    """``dims`` with those at or past ``b`` moved up by one (a new axis at ``b``)."""
    return tuple(d + 1 if d >= b else d for d in dims)


def dot_general_batch_dim_nums(ndims, bdims, dimension_numbers):
    """The dimension numbers of the batched ``dot_general`` and where its result's batch
    axis is (JAX's ``_dot_general_batch_dim_nums``).

    Both operands batched: their batch axes become a new leading batch dimension. One
    operand batched: its batch axis is one more free dimension of that operand.
    """
    lhs_ndim, _ = ndims
    lbd, rbd = bdims
    (lc, rc), (lb, rb) = dimension_numbers
    if lbd is not not_mapped and rbd is not not_mapped:
        lb, rb = (lbd,) + _bump(lb, lbd), (rbd,) + _bump(rb, rbd)
        lc, rc = _bump(lc, lbd), _bump(rc, rbd)
        out_bdim = 0
    elif lbd is not not_mapped:
        free = [d for d in range(lhs_ndim) if d not in lb and d not in lc]
        out_bdim = len(lb) + sum(1 for d in free if d < lbd)
        lb, lc = _bump(lb, lbd), _bump(lc, lbd)
    else:
        rhs_ndim = ndims[1]
        free = [d for d in range(rhs_ndim) if d not in rb and d not in rc]
        out_bdim = lhs_ndim - len(lc) + sum(1 for d in free if d < rbd)
        rb, rc = _bump(rb, rbd), _bump(rc, rbd)
    return ((lc, rc), (lb, rb)), out_bdim


def _dot_general_batch(vals, dims, *, dimension_numbers, **params):
    (lhs, rhs), (lbd, rbd) = vals, dims
    new_numbers, out_bdim = dot_general_batch_dim_nums(
        (len(_shape(lhs)), len(_shape(rhs))), (lbd, rbd), dimension_numbers)
    return dot.dot_general_p.bind(lhs, rhs, dimension_numbers=new_numbers, **params), \
        out_bdim


primitive_batchers[dot.dot_general_p] = _dot_general_batch


# ---------------------------------------------------------------------------------------
# sorting.py

def _sort_batch(vals, dims, *, dimension, is_stable, num_keys):
    proto, bdim = next((x, d) for x, d in zip(vals, dims, strict=True)
                       if d is not not_mapped)
    shape = _shape(proto)
    others = [i for i in range(len(shape)) if i != bdim]
    xs = [structural.broadcast_in_dim(x, shape, others) if d is not_mapped
          else moveaxis(x, d, bdim) for x, d in zip(vals, dims, strict=True)]
    outs = sort.sort_p.bind(*xs, dimension=dimension + (bdim <= dimension),
                            is_stable=is_stable, num_keys=num_keys)
    return outs, [bdim] * len(xs)


def _top_k_batch(vals, dims, *, k, axis):
    (x,), (bdim,) = vals, dims
    return sort.top_k_p.bind(x, k=k, axis=axis + 1 if bdim <= axis else axis), \
        [bdim, bdim]


def _stop_gradient_batch(vals, dims):
    return sort.stop_gradient_p.bind(vals[0]), dims[0]


primitive_batchers[sort.sort_p] = _sort_batch
primitive_batchers[sort.top_k_p] = _top_k_batch
primitive_batchers[sort.stop_gradient_p] = _stop_gradient_batch


# ---------------------------------------------------------------------------------------
# linalg.py

def _cholesky_batch(vals, dims):
    (x,), (bdim,) = vals, dims
    return linalg.cholesky_p.bind(moveaxis(x, bdim, 0)), 0


def _triangular_solve_batch(vals, dims, **params):
    """An unbatched ``a`` solves every example's right-hand sides at once (the batch
    axis folded into ``b``'s free axis); otherwise both get a leading batch axis."""
    (a, b), (abd, bbd) = vals, dims
    if abd is not_mapped:
        nd = len(_shape(b))
        if params["left_side"]:
            b = moveaxis(b, bbd, nd - 1)
            s = _shape(b)
            flat = structural.reshape(b, s[:-2] + (s[-2] * s[-1],))
            out_bdim = nd - 1
        else:
            b = moveaxis(b, bbd, nd - 2)
            s = _shape(b)
            flat = structural.reshape(b, s[:-3] + (s[-3] * s[-2], s[-1]))
            out_bdim = nd - 2
        out = linalg.triangular_solve_p.bind(a, flat, **params)
        return structural.reshape(out, _shape(b)), out_bdim
    size = _shape(a)[abd]
    a, b = bdim_at_front(a, abd, size), bdim_at_front(b, bbd, size)
    return linalg.triangular_solve_p.bind(a, b, **params), 0


primitive_batchers[linalg.cholesky_p] = _cholesky_batch
primitive_batchers[linalg.triangular_solve_p] = _triangular_solve_batch
