"""Pass ``inline``: ClosedJaxpr → ClosedJaxpr with every nested ``jit`` call spliced in.

A ``jit`` equation's body (already inlined itself) is copied into the caller with fresh
variables: its invars stand for the call's operands, its constvars become constvars of
the caller (one per distinct constant object), and the call's outputs are replaced by
whatever the body returns, which may be an operand, a literal or a constant. Later
passes and the planner then see one flat jaxpr.
"""
from __future__ import annotations

from ..ir import ClosedJaxpr, DropVar, Var
from ..lax.call import EXPANSIONS
from ._util import closed_like, map_subjaxprs, read

__all__ = ["inline_calls"]

# Matched by name: importing ``jit_p`` from ``transpile.jit`` would be circular once
# ``jit`` runs the pipeline.
#: Call primitives -> the param holding the body they call. Custom-derivative calls and
#: checkpoints compute their body's value; only differentiation treats them otherwise.
_CALL_PRIMITIVES = {"jit": "jaxpr", "custom_jvp_call": "call_jaxpr",
                    "custom_vjp_call": "call_jaxpr", "remat2": "jaxpr"}


def _linear_solve_operands(params: dict, invars: tuple) -> tuple:
    """A ``custom_linear_solve`` computes its ``solve`` jaxpr of the solve consts and
    the right-hand side: the operands that body takes."""
    n = params["const_lengths"]
    start = n.matvec + n.vecmat
    return invars[start:start + n.solve] + invars[sum(n):]


def inline_calls(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Replace every ``jit`` equation, at any depth, by the equations of its body.

    Parameters
    ----------
    closed : ClosedJaxpr
        Not modified.

    Returns
    -------
    ClosedJaxpr
        With the same invars and output types; ``closed`` itself if it holds no call.
        Sub-jaxprs of other primitives (control flow) are inlined too.
    """
    return _inline(closed, {})


class _Consts:
    """The caller's constvars, growing as bodies are spliced in."""

    def __init__(self, closed: ClosedJaxpr):
        self.vars = list(closed.jaxpr.constvars)
        self.vals = list(closed.consts)
        # (id of value, aval) -> Var: a body inlined twice shares its constants.
        self.by_id = {(id(c), v.aval): v for v, c in zip(self.vars, self.vals, strict=True)}

    def add(self, val, aval) -> Var:
        key = (id(val), aval)
        var = self.by_id.get(key)
        if var is None:
            var = self.by_id[key] = Var(aval)
            self.vars.append(var)
            self.vals.append(val)
        return var


def _splice(body: ClosedJaxpr, args, consts: _Consts, out_eqns: list) -> list:
    """Append ``body``'s equations, renamed, to ``out_eqns``; return its output atoms."""
    inner = body.jaxpr
    env: dict = {}
    for v, c in zip(inner.constvars, body.consts, strict=True):
        env[v] = consts.add(c, v.aval)
    for v, a in zip(inner.invars, args, strict=True):
        env[v] = a
    for eqn in inner.eqns:
        outs = []
        for v in eqn.outvars:
            # Var identity is the variable: every copy of the body needs its own.
            fresh = DropVar(v.aval) if isinstance(v, DropVar) else Var(v.aval)
            env[v] = fresh
            outs.append(fresh)
        out_eqns.append(eqn.replace(invars=tuple(read(env, a) for a in eqn.invars),
                                    outvars=tuple(outs)))
    return [read(env, a) for a in inner.outvars]


def _inline(closed: ClosedJaxpr, memo: dict) -> ClosedJaxpr:
    jaxpr = closed.jaxpr
    consts = _Consts(closed)
    env: dict = {}
    eqns: list = []
    changed = False

    def recurse(sub: ClosedJaxpr) -> ClosedJaxpr:
        return _inline(sub, memo)

    for eqn in jaxpr.eqns:
        invars = tuple(read(env, a) for a in eqn.invars)
        name = eqn.primitive.name
        if name in _CALL_PRIMITIVES or name == "custom_linear_solve":
            if name == "custom_linear_solve":
                body, invars = recurse(eqn.params["jaxprs"].solve), \
                    _linear_solve_operands(eqn.params, invars)
            else:
                key = _CALL_PRIMITIVES[name]
                body = map_subjaxprs({key: eqn.params[key]}, recurse, memo)[key]
            outs = _splice(body, invars, consts, eqns)
            for v, a in zip(eqn.outvars, outs, strict=True):
                env[v] = a
            changed = True
            continue
        expand = EXPANSIONS.get(eqn.primitive)
        if expand is not None:  # compiled as its expansion (JAX's lower_fun)
            body = recurse(expand([a.aval for a in eqn.invars], **eqn.params))
            outs = _splice(body, invars, consts, eqns)
            for v, a in zip(eqn.outvars, outs, strict=True):
                env[v] = a
            changed = True
            continue
        params = map_subjaxprs(eqn.params, recurse, memo)
        if params is not eqn.params or invars != eqn.invars:
            eqn = eqn.replace(invars=invars, params=params)
            changed = True
        eqns.append(eqn)
    if not changed:
        return closed
    return closed_like(closed, consts.vars, consts.vals, eqns,
                       [read(env, a) for a in jaxpr.outvars])
