"""Pass ``fold``: ClosedJaxpr → ClosedJaxpr with known values computed ahead of time.

An equation whose operands are all known (literals, constvars, earlier folded results)
is evaluated with the NumPy rules (``run_impl``, the evaluator the tests trust), so the
folded value is bitwise what evaluation would have produced. A 0-d result becomes a
``Literal``; an array result becomes a new constvar, but only when it is small and no
larger than the known operands it replaces: folding ``iota`` or a broadcast of a scalar
would turn a free generator into memory traffic.

Identities remove equations whose result is one of their operands: no-op structural
ops (reshape to the same shape, identity transposes, conversions to the same type) and
arithmetic with a neutral element where it is exact. Float32/float64 arithmetic flushes
subnormal operands and results to zero (XLA:CPU semantics, see ``lax.elementwise``),
so ``x * 1.0`` is *not* ``x`` for them; only integer, bool and float16 arithmetic is
rewritten. An identity applies only when the operand's aval equals the result's
(shape, dtype and weak type), so that no variable changes type.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..interpreters.eval import run_impl
from ..ir import ClosedJaxpr, DropVar, Literal, Var, jaxprs_in_params
from ..lax import contraction
from ..lax import elementwise as ew
from ._util import closed_like, make_literal, map_subjaxprs, read

__all__ = ["fold_constants", "UNFOLDABLE", "MAX_CONST_SIZE"]

# Primitives never evaluated at compile time even with known operands (besides the
# effectful ones): e.g. random bit generators, whose folding would bake in one draw.
UNFOLDABLE: set[str] = set()

# The largest array (in elements) a fold may turn into a new constant.
MAX_CONST_SIZE = 1024


def fold_constants(closed: ClosedJaxpr, max_const_size: int = MAX_CONST_SIZE) -> ClosedJaxpr:
    """Evaluate equations with known operands and drop identity equations.

    Parameters
    ----------
    closed : ClosedJaxpr
        Not modified.
    max_const_size : int
        The largest array result, in elements, kept as a new constvar. 0-d results
        always become literals.

    Returns
    -------
    ClosedJaxpr
        With the same invars and output types (constvars may be added; ``dce``
        removes the ones no longer used); ``closed`` itself if nothing changed.
    """
    return _fold(closed, max_const_size, {})


def _value_of(known: dict, atom):
    """The NumPy value of ``atom`` if it is known, else None."""
    if isinstance(atom, Literal):
        return np.asarray(atom.val, atom.aval.dtype)
    return known.get(atom)


def _try_eval(eqn, invars, known: dict, limit: int):
    name = eqn.primitive.name
    if (name in UNFOLDABLE or eqn.primitive.effectful or eqn.primitive.impl is None
            or jaxprs_in_params(eqn.params)):
        # Control flow is left alone: a loop with known operands may run for long.
        return None
    vals = [_value_of(known, a) for a in invars]
    if any(v is None for v in vals):
        return None
    out_avals = [v.aval for v in eqn.outvars]
    if any(a.shape for a in out_avals):
        if any(a.size > limit for a in out_avals):
            return None
        if sum(a.size for a in out_avals) > sum(v.size for v in vals):
            return None  # a generator: cheaper to compute than to load
    try:
        outs = run_impl(eqn.primitive, vals, eqn.params, out_avals)
    except Exception:  # noqa: BLE001 - a rule that rejects these values: leave it to run
        return None
    # Copies: run_impl may return views of an operand or read-only broadcasts.
    return [np.array(o, copy=True) for o in outs]


def _exact_arith(dtype: np.dtype) -> bool:
    # float16 is not flushed (computed in its own dtype); float32/64 are.
    return dtype.kind in "iub" or dtype == np.float16


def _all(val, x, *, sign=None) -> bool:
    """``val`` is known and every element equals ``x`` (with the given sign bit)."""
    if val is None:
        return False
    ok = bool(np.all(val == x))
    if ok and sign is not None and dtypes.is_float(val.dtype):
        ok = bool(np.all(np.signbit(val) == sign))
    return ok


def _neutral_operand(name, invars, known):
    """The operand ``name`` returns unchanged given the other one, or None."""
    if len(invars) != 2:
        return None
    (a, b), (va, vb) = invars, [_value_of(known, x) for x in invars]
    dt = a.aval.dtype
    if not _exact_arith(dt):
        return None
    ones = np.ones((), dt)
    if name in ("add", "add_any", "or", "xor"):
        # x + (-0.0) is x for every x; x + 0.0 is not (-0.0 + 0.0 is 0.0).
        if _all(vb, 0, sign=True):
            return a
        if _all(va, 0, sign=True):
            return b
    elif name == "sub":
        if _all(vb, 0, sign=False):
            return a
    elif name == "mul":
        if _all(vb, ones):
            return a
        if _all(va, ones):
            return b
    elif name == "div":
        if _all(vb, ones):
            return a
    elif name == "and":
        full = ~np.zeros((), dt)
        if _all(vb, full):
            return a
        if _all(va, full):
            return b
    return None


def _structural_noop(name, invars, params, out_aval):
    """The operand of a structural equation that leaves it unchanged, or None."""
    if len(invars) != 1:
        return None
    x = invars[0]
    ident = tuple(range(len(out_aval.shape)))
    if name == "convert_element_type":
        same = params["new_dtype"] == x.aval.dtype and params["weak_type"] == x.aval.weak_type
    elif name == "reshape":
        same = params.get("dimensions") is None and out_aval.shape == x.aval.shape
    elif name == "broadcast_in_dim":
        same = (out_aval.shape == x.aval.shape
                and tuple(params["broadcast_dimensions"]) == ident)
    elif name == "transpose":
        same = tuple(params["permutation"]) == ident
    elif name in ("squeeze", "rev"):
        same = tuple(params["dimensions"]) == ()
    else:
        same = False
    return x if same else None


def _identity(eqn, invars, known):
    if len(eqn.outvars) != 1 or eqn.primitive.effectful:
        return None
    out_aval = eqn.outvars[0].aval
    name = eqn.primitive.name
    try:
        got = (_structural_noop(name, invars, eqn.params, out_aval)
               or _neutral_operand(name, invars, known))
    except (KeyError, TypeError):  # params not as expected: no rewrite
        return None
    return got if got is not None and got.aval == out_aval else None


def _scalar_dot(eqn, invars):
    """A ``dot_general`` of a 0-d literal (a transposed product's unit cotangent) as the
    ``mul`` it is: one product per element, the same rounding; the dot kernel reads
    only array buffers."""
    if eqn.primitive is not contraction.dot_general_p or not any(
            isinstance(a, Literal) and not a.aval.shape for a in invars):
        return None
    out = eqn.outvars[0].aval
    if any(a.aval.dtype != out.dtype for a in invars):
        return None
    return eqn.replace(primitive=ew.mul_p, invars=invars, params={})


def _fold(closed: ClosedJaxpr, limit: int, memo: dict) -> ClosedJaxpr:
    jaxpr = closed.jaxpr
    known: dict = {}
    for v, c in zip(jaxpr.constvars, closed.consts, strict=True):
        if not isinstance(c, core.Tracer):  # a closed-over tracer has no value yet
            known[v] = core.to_numpy(c, v.aval)
    constvars, consts = list(jaxpr.constvars), list(closed.consts)
    env: dict = {}
    eqns: list = []
    changed = False

    def recurse(sub: ClosedJaxpr) -> ClosedJaxpr:
        return _fold(sub, limit, memo)

    for eqn in jaxpr.eqns:
        invars = tuple(read(env, a) for a in eqn.invars)
        outs = _try_eval(eqn, invars, known, limit)
        if outs is not None:
            for v, val in zip(eqn.outvars, outs, strict=True):
                if isinstance(v, DropVar):
                    continue
                if not v.aval.shape:
                    env[v] = make_literal(val, v.aval)
                else:
                    new = Var(v.aval)
                    constvars.append(new)
                    consts.append(val)
                    known[new] = val
                    env[v] = new
            changed = True
            continue
        same = _identity(eqn, invars, known)
        if same is not None:
            env[eqn.outvars[0]] = same
            changed = True
            continue
        scaled = _scalar_dot(eqn, invars)
        if scaled is not None:
            eqn, changed = scaled, True
        params = map_subjaxprs(eqn.params, recurse, memo)
        if params is not eqn.params or invars != eqn.invars:
            eqn = eqn.replace(invars=invars, params=params)
            changed = True
        eqns.append(eqn)
    if not changed:
        return closed
    return closed_like(closed, constvars, consts, eqns, [read(env, a) for a in jaxpr.outvars])
