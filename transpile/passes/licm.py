"""Pass ``licm``: ClosedJaxpr → ClosedJaxpr with loop-invariant work moved out of loops.

An equation of a ``while`` or ``scan`` body whose operands are all loop constants (the
body's const invars, literals, or results of equations already moved) computes the same
value on every iteration. It moves in front of the loop, and its result enters the body
as one more const, so ``fori_loop(0, n, lambda i, c: c * 0.5 + exp(x), ...)`` computes
``exp(x)`` once. Inner loops are treated first, so their invariants can keep moving out.

What stays: effectful equations, control flow (moving a loop out of a loop that may run
zero times could make the program run forever), and equations whose result is larger
than their operands (a broadcast or an ``iota`` costs nothing fused in the loop, and a
buffer of its own would cost memory traffic).
"""
from __future__ import annotations

from ..ir import ClosedJaxpr, Jaxpr, Literal, Var, jaxprs_in_params
from ._util import expand_eqns, is_effectful

__all__ = ["hoist_loop_invariants"]


def hoist_loop_invariants(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Move the loop-invariant equations of every ``while`` and ``scan`` body out.

    Parameters
    ----------
    closed : ClosedJaxpr
        Not modified.

    Returns
    -------
    ClosedJaxpr
        Computing the same values; ``closed`` itself when nothing moves.
    """
    return expand_eqns(closed, lambda e: _hoist(e) if e.primitive.name in ("while", "scan")
                       else None, {})


def _movable(e, invariant: set) -> bool:
    if is_effectful(e) or jaxprs_in_params(e.params):
        return False
    vars_in = [a for a in e.invars if isinstance(a, Var)]
    if not vars_in or not all(a in invariant for a in vars_in):
        return False
    biggest = max(a.aval.size for a in vars_in)
    return all(o.aval.size <= biggest for o in e.outvars)


def _hoist(e) -> list | None:
    """The equations replacing loop ``e`` (the moved ones, then the loop), or None."""
    p = e.params
    if e.primitive.name == "while":
        key, nconst_key = "body_jaxpr", "body_nconsts"
        start = p["cond_nconsts"]
    else:
        key, nconst_key = "jaxpr", "num_consts"
        start = 0
    body: ClosedJaxpr = p[key]
    if body.consts:
        return None
    j = body.jaxpr
    n = p[nconst_key]
    const_invars = j.invars[:n]
    invariant = set(const_invars)
    moved, kept = [], []
    for be in j.eqns:
        if _movable(be, invariant):
            moved.append(be)
            invariant.update(be.outvars)
        else:
            kept.append(be)
    if not moved:
        return None
    # The moved results the rest of the body reads become new consts.
    used = {a for be in kept for a in be.invars if isinstance(a, Var)}
    used.update(a for a in j.outvars if isinstance(a, Var))
    new_consts = [o for be in moved for o in be.outvars if o in used]
    # Outside, the moved equations read the loop's operands and define fresh variables
    # (the body jaxpr may be shared with other loops).
    outer = {v: a for v, a in zip(const_invars, e.invars[start:start + n], strict=True)}
    out_eqns = []
    for be in moved:
        outs = tuple(Var(o.aval) for o in be.outvars)
        outer.update(zip(be.outvars, outs, strict=True))
        out_eqns.append(be.replace(
            invars=tuple(a if isinstance(a, Literal) else outer[a] for a in be.invars),
            outvars=outs))
    new_body = Jaxpr((), tuple(const_invars) + tuple(new_consts) + j.invars[n:],
                     j.outvars, tuple(kept))
    operands = (list(e.invars[:start + n]) + [outer[v] for v in new_consts]
                + list(e.invars[start + n:]))
    params = {**p, key: ClosedJaxpr(new_body, []), nconst_key: n + len(new_consts)}
    return out_eqns + [e.replace(invars=tuple(operands), params=params)]
