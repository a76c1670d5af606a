"""Pass ``dce``: ClosedJaxpr → ClosedJaxpr without the equations nothing reads.

A backward sweep from the outvars marks what is live; an equation survives if one of
its outputs is live or it is effectful. Unused constvars go with their values; invars
stay, since they are the function's signature (``used_inputs`` says which matter),
except a loop's consts, which its own equation passes: those its body never reads are
dropped.
"""
from __future__ import annotations

from ..ir import ClosedJaxpr, Jaxpr, Var
from ._util import closed_like, is_effectful, map_subjaxprs

__all__ = ["eliminate_dead_code", "used_inputs"]


def _live_eqns(jaxpr: Jaxpr) -> tuple[list, set]:
    """The equations to keep, in order, and the set of live variables."""
    live = {a for a in jaxpr.outvars if isinstance(a, Var)}
    keep = []
    for eqn in reversed(jaxpr.eqns):
        if is_effectful(eqn) or any(v in live for v in eqn.outvars):
            keep.append(eqn)
            live.update(a for a in eqn.invars if isinstance(a, Var))
    keep.reverse()
    return keep, live


def used_inputs(closed: ClosedJaxpr | Jaxpr) -> list[bool]:
    """For each invar, whether the outputs (or an effect) depend on it.

    Parameters
    ----------
    closed : ClosedJaxpr or Jaxpr

    Returns
    -------
    list of bool
        One entry per invar, in order.
    """
    jaxpr = closed.jaxpr if isinstance(closed, ClosedJaxpr) else closed
    _, live = _live_eqns(jaxpr)
    return [v in live for v in jaxpr.invars]


def eliminate_dead_code(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Remove equations whose outputs are unused and constvars nothing reads.

    Parameters
    ----------
    closed : ClosedJaxpr
        Not modified.

    Returns
    -------
    ClosedJaxpr
        With the same invars and outvars; ``closed`` itself if nothing was removed.
        Sub-jaxprs in params are cleaned too (their signatures are kept).
    """
    return _dce(closed, {})


def _dce(closed: ClosedJaxpr, memo: dict) -> ClosedJaxpr:
    jaxpr = closed.jaxpr
    keep, live = _live_eqns(jaxpr)
    changed = len(keep) != len(jaxpr.eqns)

    def recurse(sub: ClosedJaxpr) -> ClosedJaxpr:
        return _dce(sub, memo)

    eqns = []
    for eqn in keep:
        params = map_subjaxprs(eqn.params, recurse, memo)
        if params is not eqn.params:
            eqn = eqn.replace(params=params)
            changed = True
        pruned = _prune_loop_consts(eqn)
        if pruned is not eqn:
            eqn = pruned
            changed = True
        eqns.append(eqn)
    pairs = [(v, c) for v, c in zip(jaxpr.constvars, closed.consts, strict=True) if v in live]
    if len(pairs) != len(jaxpr.constvars):
        changed = True
    if not changed:
        return closed
    return closed_like(closed, [v for v, _ in pairs], [c for _, c in pairs], eqns,
                       jaxpr.outvars)


def _drop_unused(sub: ClosedJaxpr, n: int) -> tuple[ClosedJaxpr, list]:
    """``sub`` without the first-``n`` invars (its consts) it never reads, and which of
    them are kept."""
    used = used_inputs(sub)[:n]
    if all(used):
        return sub, used
    j = sub.jaxpr
    invars = tuple(v for v, u in zip(j.invars[:n], used, strict=True) if u) + j.invars[n:]
    return ClosedJaxpr(j.replace(invars=invars), sub.consts), used


def _prune_loop_consts(eqn):
    """A ``while`` or ``scan`` no longer passed the consts its body (or condition) never
    reads (loop-invariant code motion leaves such consts behind)."""
    p = eqn.params
    name = eqn.primitive.name
    if name == "scan":
        n = p["num_consts"]
        body, used = _drop_unused(p["jaxpr"], n)
        if all(used):
            return eqn
        ins = [a for a, u in zip(eqn.invars[:n], used, strict=True) if u] + \
            list(eqn.invars[n:])
        return eqn.replace(invars=tuple(ins), params={**p, "jaxpr": body,
                                                      "num_consts": sum(used)})
    if name == "while":
        nc, nb = p["cond_nconsts"], p["body_nconsts"]
        cond, cu = _drop_unused(p["cond_jaxpr"], nc)
        body, bu = _drop_unused(p["body_jaxpr"], nb)
        if all(cu) and all(bu):
            return eqn
        ins = ([a for a, u in zip(eqn.invars[:nc], cu, strict=True) if u]
               + [a for a, u in zip(eqn.invars[nc:nc + nb], bu, strict=True) if u]
               + list(eqn.invars[nc + nb:]))
        return eqn.replace(invars=tuple(ins), params={
            **p, "cond_jaxpr": cond, "body_jaxpr": body, "cond_nconsts": sum(cu),
            "body_nconsts": sum(bu)})
    return eqn
