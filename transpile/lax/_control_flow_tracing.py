"""Helpers of :mod:`transpile.lax.control_flow`: tracing function arguments (once per
function and input types, as JAX caches them), JAX's error texts for mismatched
branches and carries, and the jaxpr rewrites behind forwarding.
"""
from __future__ import annotations

import inspect
import weakref

import numpy as np

from .. import core, tree_util
from ..array import Array
from ..config import config
from ..core import ShapedArray
from ..interpreters.eval import eval_jaxpr
from ..interpreters.tracing import DebugInfo, trace_to_jaxpr
from ..ir import ClosedJaxpr, Jaxpr, Var
from . import elementwise as ew
from .reduction import reduce_or
from .structural import broadcast_in_dim

# ---------------------------------------------------------------------------------------
# Tracing function arguments into sub-jaxprs

class _Traced:
    """A function traced at abstract values: its jaxpr (closed-over values as leading
    invars, no constvars), those values, and the output tree. (It holds no reference
    to the function, which keys the trace cache weakly.)"""

    def __init__(self, jaxpr: Jaxpr, consts: list, out_tree, debug: DebugInfo):
        self.jaxpr, self.consts, self.out_tree = jaxpr, consts, out_tree
        self.debug = debug

    @property
    def out_avals(self) -> list:
        return [v.aval for v in self.jaxpr.outvars]


# As in JAX, tracing is cached on the function object and the input types: a function
# used by several loops or branches is traced once (its Python side effects happen once,
# and the values it closes over are those of that first trace), and its one jaxpr is
# shared, so the printer hoists it into ``let jaxpr = ... in``.
_trace_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# Jaxprs derived from a cached one (forwarding, consts moved), computed once each so
# that sharing survives those rewrites.
_derived_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _derived(jaxpr: Jaxpr, key: tuple, make) -> Jaxpr:
    """``make()``, computed once per ``(jaxpr, key)``."""
    table = _derived_cache.setdefault(jaxpr, {})
    if key not in table:
        table[key] = make()
    return table[key]


def _live(consts) -> bool:
    return all(c._trace.main.active for c in consts if isinstance(c, core.Tracer))


def _trace(fun, in_tree, in_avals, traced_for: str) -> _Traced:
    key = (in_tree, tuple(in_avals), traced_for, config._trace_key)
    try:
        per_fun = _trace_cache.setdefault(fun, {})
    except TypeError:  # not weakly referenceable or not hashable: no caching
        per_fun = {}
    hit = per_fun.get(key)
    if hit is not None and _live(hit.consts):  # (a closed-over tracer may be dead)
        return hit
    per_fun[key] = t = _trace_uncached(fun, in_tree, in_avals, traced_for)
    return t


def _trace_uncached(fun, in_tree, in_avals, traced_for: str) -> _Traced:
    box = []

    def flat_fun(*flat):
        out = fun(*tree_util.tree_unflatten(in_tree, list(flat)))
        leaves, tree = tree_util.tree_flatten(out)
        box.append(tree)
        return leaves

    debug = DebugInfo.of(fun, traced_for)
    closed = trace_to_jaxpr(flat_fun, in_avals, debug)
    j = closed.jaxpr
    jaxpr = Jaxpr((), tuple(j.constvars) + tuple(j.invars), j.outvars, j.eqns)
    return _Traced(jaxpr, list(closed.consts), box[0], debug)


def _flatten_operands(tree) -> tuple[list, object, list]:
    leaves, treedef = tree_util.tree_flatten(tree)
    avals = []
    for x in leaves:
        if not core.is_valid_value(x):
            raise TypeError(f"Argument {x!r} of type {type(x)} is not a valid JAX type")
        avals.append(core.get_aval(x))
    return leaves, treedef, avals


def _as_array(x):
    """``x`` as an Array (tracers and Arrays as they are), as if computed."""
    if isinstance(x, core.Tracer) or type(x).__name__ == "Array":
        return x
    a = core.get_aval(x)
    return Array._new(np.array(core.to_numpy(x, a)), a.weak_type)


def _closed(jaxpr: Jaxpr) -> ClosedJaxpr:
    return ClosedJaxpr(jaxpr, [])


def _arg_name(fun, position: int, default: str) -> str:
    try:
        params = list(inspect.signature(fun).parameters.values())
        p = params[position]
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL):
            return p.name
    except (TypeError, ValueError, IndexError):
        pass
    return default


# ---------------------------------------------------------------------------------------
# Error texts (JAX's wording)

def _type_mismatch(a: ShapedArray, b: ShapedArray) -> str | None:
    # JAX's wording when both differ: "the dtypes do not match, and the shapes do not match".
    what = [f"the {w} do not match" for w, bad in (("dtypes", a.dtype != b.dtype),
                                                   ("shapes", a.shape != b.shape)) if bad]
    return ", and ".join(what) if what else None


def _leaf_paths(treedef) -> list[str]:
    pairs, _ = tree_util.tree_flatten_with_path(tree_util.tree_unflatten(
        treedef, [0] * treedef.num_leaves))
    return [tree_util.keystr(p) for p, _ in pairs]


def _carry_type_error(loop: str, name: str, in_tree, in_avals, out_avals) -> TypeError:
    paths = _leaf_paths(in_tree)
    diffs = []
    for path, a, b in zip(paths, in_avals, out_avals, strict=True):
        what = _type_mismatch(a, b)
        if what:
            who = f"carry {name}" if not path else f"carry component {name}{path}"
            diffs.append(f"the input {who} has type {a.str_long()} but the corresponding "
                         f"output carry component has type {b.str_long()}, so {what}")
    body = _bullets(diffs)
    return TypeError(
        f"{loop} body function carry input and carry output must have equal types, but "
        f"they differ:\n\n{body}\n\nRevise the function so that all output types match "
        "the corresponding input types.")


def _bullets(diffs: list) -> str:
    """One difference as a sentence; several as JAX's ``  * ...;`` list."""
    if len(diffs) == 1:
        return "T" + diffs[0][1:] + "."
    return "\n".join(f"  * {d}{';' if i < len(diffs) - 1 else '.'}"
                     for i, d in enumerate(diffs))


def _carry_tree_error(loop: str, name: str, in_tree, out_tree) -> TypeError:
    path, a, b, why = tree_util.structure_difference(in_tree, out_tree,
                                                     leaf=f"a {ShapedArray!r}")
    who = f"carry {name}" if not path else f"carry component {name}{path}"
    return TypeError(
        f"{loop} body function carry input and carry output must have the same pytree "
        f"structure, but they differ:\n\nThe input {who} is {a} but the corresponding "
        f"component of the carry output is {b}, so {why}.\n\nRevise the function so that "
        "the carry output has the same pytree structure as the carry input.")


def _branch_names(kind: str, n: int) -> list[str]:
    if kind == "cond":
        return ["true_fun", "false_fun"]
    # JAX's own spelling: "branch 0" against "branch1", "branch2", ...
    return ["branch 0"] + [f"branch{i}" for i in range(1, n)]


def _check_branches(kind: str, traced: list[_Traced]) -> None:
    names = _branch_names(kind, len(traced))
    first = traced[0]
    for name, t in zip(names[1:], traced[1:], strict=True):
        head = (f"{names[0]} is {first.debug.func_src}\n{name} is {t.debug.func_src}\n\n")
        if t.out_tree != first.out_tree:
            path, a, b, why = tree_util.structure_difference(first.out_tree, t.out_tree)
            at = f" at path {path}" if path else ""
            raise TypeError(
                f"{kind} branch outputs must have the same pytree structure, but they "
                f"differ:\n\n{head}{names[0]} output{at} is {a} but {name} output{at} is {b}, "
                f"so {why}.\n\nRevise {names[0]} and/or {name} so that they have the same "
                "pytree structure.")
        paths = _leaf_paths(first.out_tree)
        diffs = []
        for path, a, b in zip(paths, first.out_avals, t.out_avals, strict=True):
            what = _type_mismatch(a, b)
            if what:
                at = f" at path {path}" if path else ""
                diffs.append(f"the output of {names[0]}{at} has type {a.str_long()} but the "
                             f"corresponding output of {name} has type {b.str_long()}, so "
                             f"{what}")
        if diffs:
            body = _bullets(diffs)
            raise TypeError(
                f"{kind} branches must have equal output types but they differ.\n\n{head}"
                f"{body}\n\nRevise {names[0]} and/or {name} so that all output types "
                "match.")


# ---------------------------------------------------------------------------------------
# Forwarding and jaxpr surgery

def _used_vars(jaxpr: Jaxpr) -> set:
    """Variables the outputs of ``jaxpr`` depend on."""
    live = {v for v in jaxpr.outvars if isinstance(v, Var)}
    for eqn in reversed(jaxpr.eqns):
        if any(o in live for o in eqn.outvars):
            live.update(a for a in eqn.invars if isinstance(a, Var))
    return live


def _join_consts(traced: list[_Traced]):
    """One const list for several functions (deduplicated by identity), and each
    function's jaxpr re-bound to take all of them before its own operands."""
    consts, index = [], {}
    for t in traced:
        for c in t.consts:
            if id(c) not in index:
                index[id(c)] = len(consts)
                consts.append(c)
    jaxprs = []
    for t in traced:
        n = len(t.consts)
        own = {index[id(c)]: k for k, c in enumerate(t.consts)}
        if list(own) == list(range(len(consts))):
            jaxprs.append(t.jaxpr)
            continue
        # Which own const (by position) or which new aval each joined const is.
        spec = tuple(("own", own[k]) if k in own else ("new", core.get_aval(c))
                     for k, c in enumerate(consts))

        def rebind(j=t.jaxpr, n=n, spec=spec):
            new_in = [j.invars[i] if kind == "own" else Var(i) for kind, i in spec]
            return j.replace(invars=tuple(new_in) + j.invars[n:])
        jaxprs.append(_derived(t.jaxpr, ("join", n, spec), rebind))
    return consts, jaxprs


def _invariant_carries(jaxpr: Jaxpr, nconsts: int, ncarry: int) -> list[bool]:
    ins = jaxpr.invars[nconsts:nconsts + ncarry]
    return [jaxpr.outvars[k] is ins[k] for k in range(ncarry)]


def _move_to_consts(jaxpr: Jaxpr, nconsts: int, ncarry: int, moved: list[bool]) -> Jaxpr:
    """Make the moved carries leading consts: drop their outputs, put their invars first."""
    if not any(moved):
        return jaxpr
    return _derived(jaxpr, ("move", nconsts, ncarry, tuple(moved)),
                    lambda: _move_to_consts_uncached(jaxpr, nconsts, ncarry, moved))


def _move_to_consts_uncached(jaxpr, nconsts, ncarry, moved) -> Jaxpr:
    ins = list(jaxpr.invars)
    carry = ins[nconsts:nconsts + ncarry]
    front = [v for v, m in zip(carry, moved, strict=True) if m]
    kept = [v for v, m in zip(carry, moved, strict=True) if not m]
    outs = [o for k, o in enumerate(jaxpr.outvars) if k >= ncarry or not moved[k]]
    return jaxpr.replace(invars=tuple(front + ins[:nconsts] + kept + ins[nconsts + ncarry:]),
                         outvars=tuple(outs))


# ---------------------------------------------------------------------------------------
# Batched-predicate loops (kept here, below both ``control_flow``, whose NumPy rule of
# ``while`` runs them, and ``control_flow_batching``, which makes them)

def _lift_consts(closed: ClosedJaxpr):
    """A batched sub-jaxpr's own constants as leading operands (control-flow
    sub-jaxprs hold none): (jaxpr without constvars, their values)."""
    j = closed.jaxpr
    if not j.constvars:
        return closed, []
    new = j.replace(constvars=(), invars=tuple(j.constvars) + tuple(j.invars))
    return ClosedJaxpr(new, []), list(closed.consts)


def scalar_predicate_while(cond_jaxpr: ClosedJaxpr, body_jaxpr: ClosedJaxpr,
                           cond_nconsts: int, body_nconsts: int) -> tuple:
    """A ``while`` whose condition returns one predicate per example (``bool[B]``,
    from batching) as a plain ``while``: the condition becomes "any example still
    running" and the body leaves the carries of finished examples unchanged (JAX
    lowers it the same way). Returns the new ``(cond_jaxpr, body_jaxpr,
    body_nconsts)``; the body takes the condition's consts first. Computed once per
    loop."""
    key = ("scalar_predicate", body_jaxpr.jaxpr, cond_nconsts, body_nconsts)
    return _derived(cond_jaxpr.jaxpr, key, lambda: _scalar_predicate_while(
        cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts))


def _scalar_predicate_while(cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    nc, nb = cond_nconsts, body_nconsts
    c_avals = list(cond_jaxpr.in_avals)
    b_avals = list(body_jaxpr.in_avals)
    prank = len(cond_jaxpr.out_avals[0].shape)

    def new_cond(*args):
        (p,) = eval_jaxpr(cond_jaxpr.jaxpr, cond_jaxpr.consts, *args)
        return [reduce_or(p, tuple(range(prank)))]

    def new_body(*args):
        cconsts, rest = args[:nc], args[nc:]
        carry = rest[nb:]
        (p,) = eval_jaxpr(cond_jaxpr.jaxpr, cond_jaxpr.consts, *cconsts, *carry)
        new = eval_jaxpr(body_jaxpr.jaxpr, body_jaxpr.consts, *rest)
        out = []
        for old, n in zip(carry, new, strict=True):
            shape = core.get_aval(n).shape
            pb = broadcast_in_dim(p, shape, tuple(range(prank))) if len(shape) > prank else p
            out.append(ew.select_n(pb, old, n))
        return out
    cj = _lift_consts(trace_to_jaxpr(new_cond, c_avals))
    bj = _lift_consts(trace_to_jaxpr(new_body, c_avals[:nc] + b_avals))
    assert not cj[1] and not bj[1], "constants in a batched-predicate while"
    return cj[0], bj[0], nc + nb
