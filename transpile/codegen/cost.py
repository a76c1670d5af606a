"""A static cost estimate of an optimised jaxpr: floating-point operations and bytes.

``flops`` counts one per output element of each equation whose ``Primitive.cost`` is
not ``Cost.FREE`` (``transcendentals`` those of cost ``Cost.TRANSCENDENTAL``), ``2*M*N*K``
per ``dot_general`` and one per reduced element; ``bytes accessed`` counts each jaxpr
input and output once (fused kernels read and write nothing else), plus the operands
and results of the equations that get kernels of their own (the lowering table's
``KERNEL`` entries).
"""
from __future__ import annotations

import numpy as np

from ..core import Cost
from ..ir import ClosedJaxpr, Var
from . import plan  # noqa: F401  (fills the lowering table)
from .lowering import KERNEL, lowering_of

__all__ = ["cost_analysis"]


def _nbytes(aval) -> int:
    return int(aval.size) * aval.dtype.itemsize


def cost_analysis(closed: ClosedJaxpr) -> dict:
    """``{"flops": ..., "bytes accessed": ..., "transcendentals": ...}`` for ``closed``.

    Control flow: a ``scan`` body counts ``length`` times, a ``cond`` counts its most
    expensive branch, and a ``while`` body counts once (its trip count is not static).
    """
    j = closed.jaxpr
    flops, trans, nbytes = _eqns_cost(j)
    nbytes += sum(_nbytes(v.aval) for v in j.invars) + \
        sum(_nbytes(v.aval) for v in j.outvars if isinstance(v, Var))
    return {"flops": float(flops), "transcendentals": float(trans),
            "bytes accessed": float(nbytes)}


def _eqns_cost(j) -> tuple[int, int, int]:
    flops = trans = nbytes = 0
    for e in j.eqns:
        name = e.primitive.name
        p = e.params
        if name == "cond":
            costs = [_eqns_cost(b.jaxpr) for b in p["branches"]]
            best = max(costs)
            flops, trans, nbytes = flops + best[0], trans + best[1], nbytes + best[2]
            continue
        if name in ("while", "scan"):
            subs = [p["cond_jaxpr"], p["body_jaxpr"]] if name == "while" else [p["jaxpr"]]
            times = p.get("length", 1)
            for sub in subs:
                f, t, b = _eqns_cost(sub.jaxpr)
                flops, trans, nbytes = flops + times * f, trans + times * t, \
                    nbytes + times * b
            continue
        out = e.outvars[0].aval
        if name == "dot_general":
            (lc, _), _ = p["dimension_numbers"]
            k = int(np.prod([e.invars[0].aval.shape[d] for d in lc], dtype=np.int64))
            flops += 2 * int(out.size) * k
        elif name.startswith("reduce_") or name in ("argmax", "argmin"):
            flops += int(e.invars[0].aval.size)
        elif name.startswith("scatter-"):
            flops += int(e.invars[2].aval.size)
        elif e.primitive.cost != Cost.FREE:
            flops += int(out.size)
            if e.primitive.cost == Cost.TRANSCENDENTAL:
                trans += int(out.size)
        low = lowering_of(e.primitive)
        if low is not None and low.kind == KERNEL:  # reads and writes buffers
            nbytes += sum(_nbytes(a.aval) for a in e.invars) + \
                sum(_nbytes(o.aval) for o in e.outvars)
    return flops, trans, nbytes
