"""The NumPy evaluator: primitives' NumPy rules, and jaxprs run on NumPy arrays.

``run_impl`` runs one primitive's NumPy rule (eager dispatch, ``transpile.dispatch``,
builds on it); ``eval_jaxpr_numpy`` runs a whole jaxpr on NumPy arrays (the
execution path of ``jit`` before a native backend, and the oracle tests compare
generated code against); ``eval_jaxpr`` re-binds every equation, so it works under
any trace (it is how transformations inline a jaxpr).
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..ir import ClosedJaxpr, Jaxpr, Literal

__all__ = ["compiled_eagerly", "conform", "eval_jaxpr", "eval_jaxpr_numpy", "run_impl"]


def run_impl(primitive, vals, params, out_avals):
    """Run ``primitive``'s NumPy rule and cast each result to its aval's dtype."""
    with np.errstate(all="ignore"):
        res = primitive.impl(*vals, **params)
    outs = res if primitive.multiple_results else [res]
    return [conform(r, aval) for r, aval in zip(outs, out_avals, strict=True)]


def conform(r, aval) -> np.ndarray:
    """A rule's result as an array of ``aval``'s dtype and shape."""
    arr = np.asarray(r)
    if arr.dtype != aval.dtype:
        with np.errstate(all="ignore"):
            arr = arr.astype(aval.dtype)
    if arr.shape != aval.shape:
        arr = np.broadcast_to(arr, aval.shape)
    return arr


#: primitive -> predicate(params) saying whether an eager application runs compiled C,
#: as JAX runs every primitive: a loop interpreted one equation at a time on NumPy costs
#: about 100 us per iteration. Filled by ``lax.control_flow``; read by ``transpile.dispatch``.
compiled_eagerly: dict = {}


def _as_jaxpr(j):
    if isinstance(j, ClosedJaxpr):
        return j.jaxpr, j.consts
    return j, []


def eval_jaxpr_numpy(jaxpr: Jaxpr, consts, *args) -> list:
    """Run ``jaxpr`` on NumPy arrays; returns a list of NumPy arrays."""
    env: dict = {}

    def read(a):
        return np.asarray(a.val, a.aval.dtype) if isinstance(a, Literal) else env[a]

    for v, c in zip(jaxpr.constvars, consts, strict=True):
        env[v] = core.to_numpy(c, v.aval)
    for v, x in zip(jaxpr.invars, args, strict=True):
        env[v] = x if isinstance(x, np.ndarray) else core.to_numpy(x, v.aval)
    for eqn in jaxpr.eqns:
        vals = [read(a) for a in eqn.invars]
        outs = run_impl(eqn.primitive, vals, eqn.params, [v.aval for v in eqn.outvars])
        for v, o in zip(eqn.outvars, outs, strict=True):
            env[v] = o
    return [read(a) for a in jaxpr.outvars]


def eval_jaxpr(jaxpr: Jaxpr | ClosedJaxpr, consts, *args) -> list:
    """Evaluate ``jaxpr`` by binding each equation under whatever traces are active."""
    if isinstance(jaxpr, ClosedJaxpr):
        jaxpr, consts = jaxpr.jaxpr, jaxpr.consts
    env: dict = {}

    def read(a):
        if isinstance(a, Literal):
            # Python-scalar literals re-bind as themselves, so they stay weak.
            return a.val if type(a.val) in (bool, int, float, complex) else np.asarray(a.val)
        return env[a]

    for v, c in zip(jaxpr.constvars, consts, strict=True):
        env[v] = c
    for v, x in zip(jaxpr.invars, args, strict=True):
        env[v] = x
    for eqn in jaxpr.eqns:
        outs = eqn.primitive.bind(*[read(a) for a in eqn.invars], **eqn.params)
        outs = outs if eqn.primitive.multiple_results else [outs]
        for v, o in zip(eqn.outvars, outs, strict=True):
            env[v] = o
    return [read(a) for a in jaxpr.outvars]
