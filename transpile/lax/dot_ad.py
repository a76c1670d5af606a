"""Differentiation rules of ``dot_general`` (``lax/contraction.py``), as JAX 0.10.2 writes them:
bilinear (the JVP applies it with one tangent at a time) and transposed through the
dimension numbers: the cotangent contracted with the other operand over the output axes
it kept, then the result's axes put back in the operand's order.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..interpreters import ad
from ..interpreters.ad import Zero, is_undefined_primal
from .contraction import dot_general, dot_general_p
from .elementwise import convert_element_type
from .structural import transpose

__all__: list = []


def _remaining(original, *removed_lists) -> list:
    removed = set()
    for r in removed_lists:
        removed.update(r)
    return [i for i in original if i not in removed]


def _ranges_like(*xs):
    start = 0
    for x in xs:
        n = len(x)
        yield range(start, start + n)
        start += n


def _transpose_lhs(g, x, y, *, dimension_numbers, precision, preferred_element_type,
                   out_sharding, swap_ans=False):
    (x_contract, y_contract), (x_batch, y_batch) = dimension_numbers
    x_aval = x.aval
    y_ndim = core.get_aval(y).ndim
    x_kept = _remaining(range(x_aval.ndim), x_contract, x_batch)
    y_kept = _remaining(range(y_ndim), y_contract, y_batch)
    if swap_ans:
        ans_batch, ans_y, _ = _ranges_like(x_batch, y_kept, x_kept)
    else:
        ans_batch, _, ans_y = _ranges_like(x_batch, x_kept, y_kept)
    dims = ((tuple(ans_y), tuple(y_kept)), (tuple(ans_batch), tuple(y_batch)))
    x_contract_sorted_by_y = list(np.take(x_contract, np.argsort(y_contract)))
    unsorted_axes = list(x_batch) + x_kept + x_contract_sorted_by_y
    out_axes = np.argsort(unsorted_axes)
    out = dot_general(g, y, dims, precision=precision,
                          preferred_element_type=preferred_element_type)
    x_bar = transpose(out, tuple(out_axes))
    if core.get_aval(x_bar).dtype != x_aval.dtype:
        x_bar = convert_element_type(x_bar, x_aval.dtype)
    return x_bar


def _transpose_rhs(g, x, y, *, dimension_numbers, precision, preferred_element_type,
                   out_sharding):
    (x_contract, y_contract), (x_batch, y_batch) = dimension_numbers
    swapped = ((y_contract, x_contract), (y_batch, x_batch))
    return _transpose_lhs(g, y, x, dimension_numbers=swapped, precision=precision,
                          preferred_element_type=preferred_element_type,
                          out_sharding=out_sharding, swap_ans=True)


def _dot_general_transpose(cts, x, y, **params):
    ct, = cts
    if isinstance(ct, Zero):
        return [None, None]
    if is_undefined_primal(x):
        return [_transpose_lhs(ct, x, y, **params), None]
    return [None, _transpose_rhs(ct, x, y, **params)]


ad.defjvp(dot_general_p,
          lambda g, x, y, **kw: dot_general_p.bind(g, y, **kw),
          lambda g, x, y, **kw: dot_general_p.bind(x, g, **kw))
ad.transpose_rules[dot_general_p] = _dot_general_transpose
