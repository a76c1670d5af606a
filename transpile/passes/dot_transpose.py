"""Pass ``dot_transpose``: ClosedJaxpr → ClosedJaxpr with transposed matrix products swapped.

Reverse-mode differentiation of ``x @ w`` gives the weight gradient as
``transpose(dot_general(g, x, contract batch rows), (1, 0))``: a matrix product whose
result is then copied into the other layout by a separate kernel (for the 784×512 weight
of an MLP layer, a strided pass over 1.6 MB that costs a tenth of the training step).
Since ``(A·B)ᵀ = Bᵀ·Aᵀ``, the product with its operands swapped writes the transposed
layout directly:

* ``transpose(dot_general(a, b, ((ca, cb), ((), ()))), (1, 0))`` →
  ``dot_general(b, a, ((cb, ca), ((), ())))``

when the product has one free dimension on each side (a 2-D result, no batch
dimensions), both larger than one, the swapped product is not narrower than the matmul's
tile where the original is not (``MIN_SWAPPED_COLUMNS``), and the transpose is its only
reader (it is not an output of its jaxpr). Every element is the same sum of the same
products in the same order (the C matmul splits K by K alone, and a product rounds the
same whichever operand comes first); the size guard keeps matrix-vector shapes, whose
kernels sum differently for M = 1 and N = 1, as they were. Sub-jaxprs (branches, loop
bodies) are rewritten within themselves.
"""
from __future__ import annotations

import collections

from ..ir import ClosedJaxpr, JaxprEqn, Var
from ..lax.contraction import dot_general_p
from ..lax.structural import transpose_p
from ._util import closed_like, map_subjaxprs

__all__ = ["swap_transposed_dots"]


def swap_transposed_dots(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Turn each 2-D matrix product read only by a ``(1, 0)`` transpose into the product
    of its swapped operands.

    Parameters
    ----------
    closed : ClosedJaxpr
        Not modified.

    Returns
    -------
    ClosedJaxpr
        ``closed`` itself when nothing was rewritten.
    """
    return _swap(closed, {})


#: The matmul's register tile is 16 float columns wide (runtime/tp_matmul.h): a product
#: with fewer columns pads its tiles, so one whose rows are fewer than this and fewer than
#: its columns stays as it is (its transpose, fewer than 16 x N elements, costs less than
#: computing the swapped product with padded columns: 43 against 22 us for the MLP's
#: 512x10 bias-layer gradient).
MIN_SWAPPED_COLUMNS = 16


def _swappable(e: JaxprEqn) -> bool:
    (lc, rc), (lb, rb) = e.params["dimension_numbers"]
    lhs, rhs = (a.aval for a in e.invars)
    out = e.outvars[0].aval
    if lb or rb or lhs.ndim - len(lc) != 1 or rhs.ndim - len(rc) != 1 or out.ndim != 2:
        return False
    m, n = out.shape
    return m > 1 and n > 1 and (m >= MIN_SWAPPED_COLUMNS or m >= n)


def _swapped(dot: JaxprEqn, out: Var) -> JaxprEqn:
    (lc, rc), _ = dot.params["dimension_numbers"]
    params = dict(dot.params, dimension_numbers=((tuple(rc), tuple(lc)), ((), ())))
    precision = params.get("precision")
    if isinstance(precision, tuple):
        params["precision"] = precision[::-1]
    lhs, rhs = dot.invars
    return JaxprEqn((rhs, lhs), (out,), dot_general_p, params)


def _swap(closed: ClosedJaxpr, memo: dict) -> ClosedJaxpr:
    jaxpr = closed.jaxpr
    readers = collections.Counter(a for a in jaxpr.outvars if isinstance(a, Var))
    for e in jaxpr.eqns:
        readers.update(a for a in e.invars if isinstance(a, Var))
    dots = {e.outvars[0]: e for e in jaxpr.eqns
            if e.primitive is dot_general_p and _swappable(e)}
    plan = {}  # id(transpose eqn) -> the swapped dot; id(dot eqn) -> None (dropped)
    for e in jaxpr.eqns:
        if e.primitive is not transpose_p or tuple(e.params["permutation"]) != (1, 0):
            continue
        src = e.invars[0]
        dot = dots.get(src) if isinstance(src, Var) else None
        if dot is None or readers[src] != 1:
            continue
        plan[id(e)] = _swapped(dot, e.outvars[0])
        plan[id(dot)] = None

    def recurse(sub: ClosedJaxpr) -> ClosedJaxpr:
        return _swap(sub, memo)

    eqns, changed = [], bool(plan)
    for e in jaxpr.eqns:
        if id(e) in plan:
            # the product moves to where its transpose was: every operand is defined by then
            if plan[id(e)] is not None:
                eqns.append(plan[id(e)])
            continue
        params = map_subjaxprs(e.params, recurse, memo)
        if params is not e.params:
            e = e.replace(params=params)
            changed = True
        eqns.append(e)
    if not changed:
        return closed
    return closed_like(closed, jaxpr.constvars, closed.consts, eqns, jaxpr.outvars)
