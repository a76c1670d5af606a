"""What the passes share: the effect set, atom substitution, sub-jaxpr recursion, literals.

Every pass is a loop over equations with a substitution environment (old ``Var`` → the
atom that now stands for it). Sub-jaxprs held in params (cond branches, loop bodies) are
rewritten by the same pass through ``map_subjaxprs``; a per-call memo keyed by object
identity makes a sub-jaxpr shared by several equations stay shared after the pass.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..core import ShapedArray
from ..ir import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var

__all__ = ["is_effectful", "read", "map_subjaxprs", "make_literal",
           "closed_like", "expand_eqns"]

def is_effectful(eqn: JaxprEqn) -> bool:
    """Whether ``eqn`` must run even when its outputs are unused or duplicated."""
    return eqn.primitive.effectful


def read(env: dict, atom):
    """The atom standing for ``atom`` after the substitutions recorded in ``env``."""
    if isinstance(atom, Var):
        return env.get(atom, atom)
    return atom


def _map_one(x, fn, memo: dict):
    if isinstance(x, ClosedJaxpr):
        hit = memo.get(id(x))
        if hit is None:
            # The key object is kept alive in the memo so that its id cannot be reused.
            hit = memo[id(x)] = (x, fn(x))
        return hit[1]
    if isinstance(x, Jaxpr) and not x.constvars:
        hit = memo.get(id(x))
        if hit is None:
            res = fn(ClosedJaxpr(x, []))
            # A bare Jaxpr has nowhere to keep new constants: if the pass created some,
            # keep the original body rather than change the primitive's operands.
            new = x if res.jaxpr.constvars else res.jaxpr
            hit = memo[id(x)] = (x, new)
        return hit[1]
    return x


def map_subjaxprs(params: dict, fn, memo: dict) -> dict:
    """``params`` with every (Closed)Jaxpr value, direct or in a tuple, replaced by ``fn``'s.

    Parameters
    ----------
    params : dict
        An equation's params.
    fn : callable
        ``ClosedJaxpr -> ClosedJaxpr``; it must keep the in and out avals.
    memo : dict
        Shared by one run of a pass: each distinct sub-jaxpr is rewritten once.

    Returns
    -------
    dict
        ``params`` itself when nothing changed, else a new dict.
    """
    new, changed = {}, False
    for k, v in params.items():
        if isinstance(v, tuple):
            nv = tuple(_map_one(x, fn, memo) for x in v)
            nv = type(v)(*nv) if hasattr(v, "_fields") else nv  # named tuples stay so
            if any(a is not b for a, b in zip(nv, v, strict=True)):
                changed = True
                v = nv
        else:
            nv = _map_one(v, fn, memo)
            if nv is not v:
                changed = True
                v = nv
        new[k] = v
    return new if changed else params


def make_literal(value, aval: ShapedArray) -> Literal:
    """A ``Literal`` of the 0-d ``value`` typed ``aval``, as tracing would create it.

    A weakly typed literal holds the Python scalar when that scalar's own type is
    ``aval`` (so re-binding it keeps it weak, see ``eval_jaxpr``); any other literal
    holds a NumPy scalar of the aval's dtype.
    """
    x = np.asarray(value, aval.dtype)[()]
    if aval.weak_type:
        py = x.item()
        if dtypes.dtype_and_weak(py) == (aval.dtype, True):
            return Literal(py, aval)
    return Literal(x, aval)


def closed_like(closed: ClosedJaxpr, constvars, consts, eqns, outvars) -> ClosedJaxpr:
    """A new ``ClosedJaxpr`` with ``closed``'s invars and the given other parts."""
    jaxpr = Jaxpr(tuple(constvars), closed.jaxpr.invars, tuple(outvars), tuple(eqns))
    return ClosedJaxpr(jaxpr, list(consts))


def expand_eqns(closed: ClosedJaxpr, rule, memo: dict) -> ClosedJaxpr:
    """Rewrite ``closed``, sub-jaxprs first, replacing each equation ``e`` for which
    ``rule(e)`` returns a list of equations by that list (None keeps ``e``).

    Returns ``closed`` itself when nothing changes; ``memo`` keeps a sub-jaxpr shared by
    several equations shared after the rewrite.
    """
    def recurse(sub: ClosedJaxpr) -> ClosedJaxpr:
        return expand_eqns(sub, rule, memo)

    eqns, changed = [], False
    for e in closed.jaxpr.eqns:
        params = map_subjaxprs(e.params, recurse, memo)
        if params is not e.params:
            e = e.replace(params=params)
            changed = True
        replaced = rule(e)
        if replaced is not None:
            eqns.extend(replaced)
            changed = True
        else:
            eqns.append(e)
    if not changed:
        return closed
    return closed_like(closed, closed.jaxpr.constvars, closed.consts, eqns,
                       closed.jaxpr.outvars)
