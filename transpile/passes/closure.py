"""Pass ``lift_consts``: ClosedJaxpr → ClosedJaxpr whose control-flow sub-jaxprs have no consts.

Folding or inlining inside a branch or loop body can leave that sub-jaxpr with consts
of its own. The planner binds every sub-jaxpr variable to a buffer of the entry point,
so such consts are lifted out: each becomes a constvar of the top-level jaxpr, passed
to the control-flow equation as an explicit leading operand (a ``cond`` const, a
``while`` cond or body const, a ``scan`` const), which is exactly how tracing passes
closed-over values.
"""
from __future__ import annotations

from ..ir import ClosedJaxpr, Jaxpr, Var
from ._util import closed_like

__all__ = ["lift_consts"]


def lift_consts(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Lift every const of every control-flow sub-jaxpr, at any depth, to the top.

    Parameters
    ----------
    closed : ClosedJaxpr
        Not modified.

    Returns
    -------
    ClosedJaxpr
        ``closed`` itself when no sub-jaxpr has consts.
    """
    return _lift(closed)


def _needs(sub: ClosedJaxpr) -> bool:
    if sub.consts:
        return True
    return any(_needs(x) for e in sub.jaxpr.eqns for x in _subs(e))


def _subs(e) -> list:
    p = e.params
    name = e.primitive.name
    if name == "cond":
        return list(p["branches"])
    if name == "while":
        return [p["cond_jaxpr"], p["body_jaxpr"]]
    if name == "scan":
        return [p["jaxpr"]]
    return []


class _Level:
    """The constvars of the jaxpr being rewritten, growing as consts are lifted."""

    def __init__(self, closed: ClosedJaxpr):
        self.vars = list(closed.jaxpr.constvars)
        self.vals = list(closed.consts)
        self.by_id = {id(c): v for v, c in zip(self.vars, self.vals, strict=True)}

    def var_for(self, val, aval) -> Var:
        v = self.by_id.get(id(val))
        if v is None:
            v = self.by_id[id(val)] = Var(aval)
            self.vars.append(v)
            self.vals.append(val)
        return v


def _open(sub: ClosedJaxpr) -> tuple[Jaxpr, list, list]:
    """The lifted sub-jaxpr as a const-free jaxpr taking its consts first."""
    sub = _lift(sub)
    j = sub.jaxpr
    return (Jaxpr((), j.constvars + j.invars, j.outvars, j.eqns), list(sub.consts),
            list(j.constvars))


def _lift(closed: ClosedJaxpr) -> ClosedJaxpr:
    if not any(_needs(x) for e in closed.jaxpr.eqns for x in _subs(e)):
        return closed
    level = _Level(closed)
    eqns = []
    for e in closed.jaxpr.eqns:
        if not any(_needs(x) for x in _subs(e)):
            eqns.append(e)
            continue
        name, p, ins = e.primitive.name, dict(e.params), list(e.invars)
        if name == "cond":
            opened = [_open(b) for b in p["branches"]]
            vals, seen = [], set()
            for _, cs, _ in opened:
                for c in cs:
                    if id(c) not in seen:
                        seen.add(id(c))
                        vals.append(c)
            new_vars = [level.var_for(c, _aval(c, opened)) for c in vals]
            branches = []
            for j, cs, cvars in opened:
                own = {id(c): v for c, v in zip(cs, cvars, strict=True)}
                lead = [own.get(id(c)) or Var(nv.aval) for c, nv in
                        zip(vals, new_vars, strict=True)]
                n = len(cvars)
                branches.append(ClosedJaxpr(j.replace(invars=tuple(lead) + j.invars[n:]),
                                            []))
            p["branches"] = tuple(branches)
            ins = ins[:1] + new_vars + ins[1:]
        elif name == "while":
            cj, ccs, _ = _open(p["cond_jaxpr"])
            bj, bcs, _ = _open(p["body_jaxpr"])
            cn, bn = p["cond_nconsts"], p["body_nconsts"]
            cvars = [level.var_for(c, v.aval) for c, v in zip(ccs, cj.invars, strict=False)]
            bvars = [level.var_for(c, v.aval) for c, v in zip(bcs, bj.invars, strict=False)]
            ins = cvars + ins[:cn] + bvars + ins[cn:]
            p.update(cond_jaxpr=ClosedJaxpr(cj, []), body_jaxpr=ClosedJaxpr(bj, []),
                     cond_nconsts=cn + len(cvars), body_nconsts=bn + len(bvars))
        else:  # scan
            j, cs, _ = _open(p["jaxpr"])
            svars = [level.var_for(c, v.aval) for c, v in zip(cs, j.invars, strict=False)]
            ins = svars + ins
            p.update(jaxpr=ClosedJaxpr(j, []), num_consts=p["num_consts"] + len(svars))
        eqns.append(e.replace(invars=tuple(ins), params=p))
    return closed_like(closed, level.vars, level.vals, eqns, closed.jaxpr.outvars)


def _aval(c, opened):
    for j, cs, cvars in opened:
        for x, v in zip(cs, cvars, strict=True):
            if x is c:
                return v.aval
    raise AssertionError("const not found")
