"""Pass ``scan_dots``: ClosedJaxpr → ClosedJaxpr with per-step products of a scan's inputs
and a loop constant computed for all steps at once, before the loop.

In an RNN cell ``h = tanh(h @ W + x_t @ U)`` the product ``x_t @ U`` does not depend on
the carry: step by step it is a matrix-vector product (the matrix streamed from cache for
a few thousand multiply-adds, plus a call), while all steps together are one matrix
product ``xs @ U`` that runs near the machine's peak and threads. So a body equation

* ``y = dot_general(x, u, ((cx, cu), ((), ())))``, ``x`` a scanned input of the body
  (the slice ``xs[t]``) and ``u`` a const of the body,

leaves the body: ``ys = dot_general(xs, u, ((cx + 1, cu), ((), ())))`` runs before the
loop (its leading dimension is the steps') and ``ys`` is scanned as one more input whose
slice is ``y``. The stacked result is kept under ``MAX_BYTES``. Values are the same sums
of the same products; their order may differ (the blocked product sums long
contractions in chunks), as it does between any two matrix-product kernels.
"""
from __future__ import annotations

from ..ir import ClosedJaxpr, Jaxpr, Var
from ..lax.contraction import dot_general_p
from ._util import expand_eqns

__all__ = ["hoist_scan_dots", "MAX_BYTES"]

#: The largest stacked product moved out of a scan (bytes): it lives for the whole loop.
MAX_BYTES = 32 << 20


def hoist_scan_dots(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Compute each scan body's products of a scanned input and a const for all steps
    before the loop.

    Parameters
    ----------
    closed : ClosedJaxpr
        Not modified.

    Returns
    -------
    ClosedJaxpr
        Computing the same values; ``closed`` itself when nothing moves.
    """
    return expand_eqns(closed, lambda e: _hoist(e) if e.primitive.name == "scan" else None,
                       {})


def _hoist(e) -> list | None:
    """The equations replacing scan ``e`` (the stacked products, then the scan), or None."""
    p = e.params
    body: ClosedJaxpr = p["jaxpr"]
    if body.consts:
        return None
    j = body.jaxpr
    nc, nk, length = p["num_consts"], p["num_carry"], p["length"]
    consts = {v: e.invars[i] for i, v in enumerate(j.invars[:nc])}
    xs = {v: e.invars[nc + nk + i] for i, v in enumerate(j.invars[nc + nk:])}
    outer_eqns, new_invars, new_operands, kept = [], [], [], []
    for be in j.eqns:
        outer = _stacked(be, consts, xs, length)
        if outer is None:
            kept.append(be)
            continue
        outer_eqns.append(outer)
        # the product's own variable becomes the slice of the new scanned input
        new_invars.append(be.outvars[0])
        new_operands.append(outer.outvars[0])
    if not outer_eqns:
        return None
    new_body = Jaxpr((), j.invars + tuple(new_invars), j.outvars, tuple(kept))
    params = {**p, "jaxpr": ClosedJaxpr(new_body, [])}
    return outer_eqns + [e.replace(invars=tuple(e.invars) + tuple(new_operands),
                                   params=params)]


def _stacked(be, consts: dict, xs: dict, length: int):
    """The outer equation computing ``be`` for every step, or None if ``be`` is not a
    product of a scanned input (left) and a const (right)."""
    if be.primitive is not dot_general_p:
        return None
    x, u = be.invars
    if not (isinstance(x, Var) and isinstance(u, Var) and x in xs and u in consts):
        return None
    (lc, rc), (lb, rb) = be.params["dimension_numbers"]
    if lb or rb:
        return None
    out = be.outvars[0].aval
    if length * out.size * out.dtype.itemsize > MAX_BYTES:
        return None
    dims = ((tuple(d + 1 for d in lc), tuple(rc)), ((), ()))
    y = Var(out.update(shape=(length,) + tuple(out.shape)))
    return be.replace(invars=(xs[x], consts[u]), outvars=(y,),
                      params=dict(be.params, dimension_numbers=dims))
