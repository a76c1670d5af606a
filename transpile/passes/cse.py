"""Pass ``cse``: ClosedJaxpr → ClosedJaxpr with repeated computations merged.

Two equations with the same primitive, equal params and the same operands compute the
same values; the second is dropped and its outputs read the first's. Operands match when
they are the same ``Var`` or literals of equal type and bitwise-equal value. Params hold
all sorts of values (tuples, dtypes, enums, NumPy arrays, sub-jaxprs), so they are
compared through a hashable key built by ``params_key``. Operand order matters: ``add a
b`` and ``add b a`` are not merged.
"""
from __future__ import annotations

import enum

import numpy as np

from ..ir import ClosedJaxpr, DropVar, Jaxpr, Literal, Var
from ._util import closed_like, is_effectful, map_subjaxprs, read

__all__ = ["eliminate_common_subexpressions", "params_key"]


def eliminate_common_subexpressions(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Merge equations that compute the same thing from the same operands.

    Parameters
    ----------
    closed : ClosedJaxpr
        Not modified.

    Returns
    -------
    ClosedJaxpr
        With the same signature; ``closed`` itself if nothing was merged. Equations
        of effectful primitives are never merged. Sub-jaxprs in params are processed
        too.
    """
    return _cse(closed, {})


def _value_key(v):
    """A hashable key equal for equal values and distinct across types."""
    if isinstance(v, ClosedJaxpr) and not v.consts:
        v = v.jaxpr  # the wrapper of a const-free jaxpr is not what tells calls apart
    if isinstance(v, (ClosedJaxpr, Jaxpr)):
        # Identity: the pass keeps a shared sub-jaxpr shared, so equal calls still match.
        return ("jaxpr", id(v))
    if isinstance(v, (Var, Literal)):
        return atom_key(v)
    if isinstance(v, np.dtype):
        return ("dtype", v.str, v.name)  # the small floats all have the str '<V1'
    if isinstance(v, (np.ndarray, np.generic)):
        a = np.asarray(v)
        return ("array", a.dtype.str, a.dtype.name, a.shape, a.tobytes())
    if isinstance(v, (tuple, list)):
        return (type(v).__name__, tuple(_value_key(x) for x in v))
    if isinstance(v, dict):
        return ("dict", tuple(sorted((repr(k), _value_key(x)) for k, x in v.items())))
    if isinstance(v, float):
        return ("float", v.hex())  # tells 0.0 from -0.0, and NaN equals itself
    if isinstance(v, enum.Enum):
        return ("enum", type(v).__module__, type(v).__qualname__, v.name)
    if isinstance(v, type):
        return ("type", v.__module__, v.__qualname__)
    try:
        hash(v)
    except TypeError:
        return ("id", id(v))  # unknown and unhashable: equal only to itself
    return (type(v).__module__, type(v).__qualname__, v)


def params_key(params: dict):
    """A hashable key of ``params``: equal keys mean interchangeable params.

    Parameters
    ----------
    params : dict
        An equation's params.

    Returns
    -------
    tuple
    """
    return tuple(sorted((k, _value_key(v)) for k, v in params.items()))


def atom_key(a):
    """The key of an operand: the ``Var`` itself, or a literal's type and bytes."""
    if isinstance(a, Literal):
        val = np.asarray(a.val, a.aval.dtype)
        return ("lit", a.aval.dtype.str, a.aval.dtype.name, a.aval.weak_type, a.aval.shape, val.tobytes())
    return a


def _cse(closed: ClosedJaxpr, memo: dict) -> ClosedJaxpr:
    jaxpr = closed.jaxpr
    env: dict = {}
    seen: dict = {}
    eqns: list = []
    changed = False

    def recurse(sub: ClosedJaxpr) -> ClosedJaxpr:
        return _cse(sub, memo)

    for eqn in jaxpr.eqns:
        invars = tuple(read(env, a) for a in eqn.invars)
        params = map_subjaxprs(eqn.params, recurse, memo)
        if params is not eqn.params or invars != eqn.invars:
            eqn = eqn.replace(invars=invars, params=params)
            changed = True
        if is_effectful(eqn):
            eqns.append(eqn)
            continue
        key = (id(eqn.primitive), params_key(eqn.params),
               tuple(atom_key(a) for a in invars), tuple(v.aval for v in eqn.outvars))
        first = seen.get(key)
        if first is None:
            eqns.append(eqn)
            # An equation with a dropped output cannot stand in for another's outputs.
            if not any(isinstance(v, DropVar) for v in eqn.outvars):
                seen[key] = eqn
            continue
        for v, w in zip(eqn.outvars, first.outvars, strict=True):
            env[v] = w
        changed = True
    if not changed:
        return closed
    return closed_like(closed, jaxpr.constvars, closed.consts, eqns,
                       [read(env, a) for a in jaxpr.outvars])
