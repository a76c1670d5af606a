"""Pass ``contract``: ClosedJaxpr → ClosedJaxpr with float multiply-adds fused.

XLA:CPU contracts a float32/float64 ``mul`` whose only use is an ``add`` or ``sub`` into
one fused multiply-add (rounded once), so JAX's jitted ``x * y + z`` differs from the
same arithmetic done op by op in about a quarter of float32 results. This pass makes
the same contraction, so that compiled results carry JAX's bits:

* ``add(mul(x, y), z)`` and ``add(z, mul(x, y))`` → ``fma(x, y, z)``
* ``sub(mul(x, y), z)`` → ``fma(x, y, neg(z))``; ``sub(z, mul(x, y))`` → ``fma(neg(x), y, z)``

for every add or subtract reading a product (XLA copies a cheap product into each
consumer's fusion, so each consumer fuses its own copy); other readers keep reading the
rounded product, and a product that is an output of its jaxpr is fused nowhere. Negation is exact, so the rewritten
forms round exactly as the fused originals. Sub-jaxprs (branches, loop bodies) are
contracted within themselves.
"""
from __future__ import annotations

import collections
import numpy as np

from ..ir import ClosedJaxpr, JaxprEqn, Literal, Var
from ..lax import elementwise as ew
from ..lax import fma
from ._util import closed_like, make_literal, map_subjaxprs

__all__ = ["contract_multiply_add"]

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def contract_multiply_add(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Fuse single-use float multiplies into the add or subtract that reads them.

    Parameters
    ----------
    closed : ClosedJaxpr
        Not modified.

    Returns
    -------
    ClosedJaxpr
        ``closed`` itself when nothing was contracted.
    """
    return _contract(closed, {})


def _uses(jaxpr) -> collections.Counter:
    n = collections.Counter(a for a in jaxpr.outvars if isinstance(a, Var))
    for e in jaxpr.eqns:
        n.update(a for a in e.invars if isinstance(a, Var))
    return n


def _contractible_products(jaxpr) -> dict:
    """Float ``mul`` equations by result variable, except those whose rounded value is an
    output of the jaxpr.

    XLA duplicates a cheap product into the fusion of each consumer, so every add or
    subtract reading one fuses it, while other readers see the rounded product; a
    product that is also an output is computed once (multi-output fusion), rounded, and
    fused nowhere."""
    keep = {a for a in jaxpr.outvars if isinstance(a, Var)}
    for e in jaxpr.eqns:
        # Expensive readers keep a product rounded for everyone: XLA fuses the product
        # into their computation once and the add reads that shared copy.
        if e.primitive.expensive:
            keep.update(a for a in e.invars if isinstance(a, Var))
    return {e.outvars[0]: (i, e) for i, e in enumerate(jaxpr.eqns)
            if e.primitive is ew.mul_p and e.outvars[0].aval.dtype in _FLOATS
            and e.outvars[0] not in keep}


def _contract(closed: ClosedJaxpr, memo: dict) -> ClosedJaxpr:
    jaxpr = closed.jaxpr
    products = _contractible_products(jaxpr)
    fused = {}  # id(mul eqn) -> True once an add absorbed it
    plan = {}   # id(add/sub eqn) -> list of replacement eqns
    for e in jaxpr.eqns:
        if e.primitive not in (ew.add_p, ew.sub_p) or e.outvars[0].aval.dtype not in _FLOATS:
            continue
        a, b = e.invars
        out = e.outvars[0]
        if a is b:
            continue
        # Of two products, the one computed first is fused (as JAX's results show).
        pa = products.get(a) if isinstance(a, Var) else None
        pb = products.get(b) if isinstance(b, Var) else None
        if pa is not None and (pb is None or pa[0] < pb[0]):
            m, other, product_first = pa[1], b, True
        elif pb is not None:
            m, other, product_first = pb[1], a, False
        else:
            continue
        x, y = m.invars
        new = []
        if e.primitive is ew.sub_p:
            neg_of = other if product_first else x
            if isinstance(neg_of, Literal):  # negated in place: exact
                negated = make_literal(-np.asarray(neg_of.val, neg_of.aval.dtype),
                                       neg_of.aval)
            else:
                negated = Var(neg_of.aval)
                new.append(JaxprEqn((neg_of,), (negated,), ew.neg_p, {}))
            if product_first:
                other = negated
            else:
                x = negated
        new.append(JaxprEqn((x, y, other), (out,), fma.fma_p, {}))
        fused[id(m)] = fused.get(id(m), 0) + 1
        plan[id(e)] = new

    def recurse(sub: ClosedJaxpr) -> ClosedJaxpr:
        return _contract(sub, memo)

    # A product disappears once every reader absorbed it (one of two products read by
    # the same add stays, for the other reader).
    readers = _uses(jaxpr)
    dead = {id(m) for m in (e for e in jaxpr.eqns if id(e) in fused)
            if fused[id(m)] == readers[m.outvars[0]]}
    eqns, changed = [], bool(plan)
    for e in jaxpr.eqns:
        if id(e) in dead:
            continue
        if id(e) in plan:
            eqns.extend(plan[id(e)])
            continue
        params = map_subjaxprs(e.params, recurse, memo)
        if params is not e.params:
            e = e.replace(params=params)
            changed = True
        eqns.append(e)
    if not changed:
        return closed
    return closed_like(closed, jaxpr.constvars, closed.consts, eqns, jaxpr.outvars)
