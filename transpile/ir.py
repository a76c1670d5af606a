"""The IR: variables, literals, equations, jaxprs; the jaxpr printer; the type checker.

A ``Jaxpr`` is a list of equations over typed variables; a ``ClosedJaxpr`` pairs one
with the values of its constvars. The printer reproduces JAX 0.10.2's text: names in
base 26 given in print order, literals with their type, params sorted by key (with
per-primitive rules that hide some), nested jit jaxprs sharing their operands' names,
and sub-jaxprs used twice or longer than ten equations hoisted into ``let NAME = {...} in``.
"""
from __future__ import annotations

import itertools
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from . import pretty as pp
from .core import Primitive, ShapedArray
from .errors import JaxprTypeError

__all__ = ["Var", "DropVar", "Literal", "JaxprEqn", "Jaxpr", "ClosedJaxpr", "typecheck",
           "pp_param_rules", "jaxprs_in_params"]

_var_ids = itertools.count()


@dataclass(frozen=True, eq=False)
class Var:
    """A variable of a jaxpr; compared by identity."""

    aval: ShapedArray
    count: int = field(default_factory=lambda: next(_var_ids))

    def __repr__(self) -> str:
        return f"Var(id={self.count}):{self.aval.str_long()}"


@dataclass(frozen=True, eq=False)
class DropVar(Var):
    """An equation output that is never read; prints as ``_``."""

    def __repr__(self) -> str:
        return "_"


@dataclass(frozen=True, eq=False)
class Literal:
    """A scalar constant inlined into an equation, printed ``2.0:f32[]``."""

    val: Any
    aval: ShapedArray

    def __repr__(self) -> str:
        return f"Literal({self.val})"

    def pretty(self) -> str:
        return f"{np.asarray(self.val).item()}:{self.aval.str_short()}"


Atom = Var | Literal


@dataclass(frozen=True, eq=False)
class JaxprEqn:
    """``outvars = primitive[params] invars``."""

    invars: tuple
    outvars: tuple
    primitive: Primitive
    params: dict

    def __repr__(self) -> str:
        return pp.render(_pp_eqn(self, _PpContext()))

    def replace(self, **kw) -> "JaxprEqn":
        d = dict(invars=self.invars, outvars=self.outvars, primitive=self.primitive,
                 params=self.params)
        d.update(kw)
        return JaxprEqn(**d)


@dataclass(frozen=True, eq=False)
class Jaxpr:
    """A function in A-normal form: ``{ lambda constvars; invars. let eqns in outvars }``."""

    constvars: tuple
    invars: tuple
    outvars: tuple
    eqns: tuple

    def __str__(self) -> str:
        return pretty_print(self)

    __repr__ = __str__

    def pretty_print(self, width: int = 80) -> str:
        return pretty_print(self, width)

    @property
    def in_avals(self) -> list:
        return [v.aval for v in self.invars]

    @property
    def out_avals(self) -> list:
        return [v.aval for v in self.outvars]

    def replace(self, **kw) -> "Jaxpr":
        d = dict(constvars=self.constvars, invars=self.invars, outvars=self.outvars,
                 eqns=self.eqns)
        d.update(kw)
        return Jaxpr(**d)


@dataclass(eq=False)
class ClosedJaxpr:
    """A ``Jaxpr`` with the values of its constvars."""

    jaxpr: Jaxpr
    consts: list

    @property
    def in_avals(self) -> list:
        return self.jaxpr.in_avals

    @property
    def out_avals(self) -> list:
        return self.jaxpr.out_avals

    @property
    def eqns(self):
        return self.jaxpr.eqns

    @property
    def literals(self) -> list:
        return self.consts

    @property
    def effects(self) -> set:
        return set()

    def __str__(self) -> str:
        return pretty_print(self.jaxpr)

    __repr__ = __str__

    def pretty_print(self, width: int = 80) -> str:
        return pretty_print(self.jaxpr, width)


# ---------------------------------------------------------------------------------------
# Printing

# primitive -> (params -> list of (key, value) to print, in order). Filled by lax/.
pp_param_rules: dict[Primitive, Callable[[dict], list]] = {}
# primitive -> hook(eqn, ctx) run before the equation prints (jit names its binders).
pp_eqn_hooks: dict[Primitive, Callable] = {}


def _alpha(n: int) -> str:
    s = ""
    while not s or n:
        n, r = divmod(n, 26)
        s = chr(97 + r) + s
    return s


class _PpContext:
    def __init__(self, names: dict | None = None):
        self.names: dict = dict(names or {})
        self.shared: dict = {}  # Jaxpr -> name
        self.shared_names: set = set()
        self._counter = itertools.count()
        self.width = 80

    def name(self, v) -> str:
        if isinstance(v, DropVar):
            return "_"
        got = self.names.get(v)
        if got is None:
            while True:
                got = _alpha(next(self._counter))
                if got not in self.shared_names:
                    break
            self.names[v] = got
        return got

    def suggest(self, for_vars, like_vars) -> None:
        """Give ``for_vars`` the names of ``like_vars`` (nested jit binders)."""
        if len(for_vars) != len(like_vars):
            return
        used = set()
        for f, like in zip(for_vars, like_vars, strict=True):
            if (isinstance(like, Var) and like not in used and isinstance(f, Var)
                    and f not in self.names):
                used.add(like)
                self.names[f] = self.name(like)


def jaxprs_in_params(params: dict) -> list:
    """The jaxprs held by ``params`` (directly or in tuples)."""
    out = []
    for v in params.values():
        vs = v if isinstance(v, tuple) else (v,)
        for x in vs:
            if isinstance(x, ClosedJaxpr):
                out.append(x.jaxpr)
            elif isinstance(x, Jaxpr):
                out.append(x)
    return out


def _pp_atom(a, ctx: _PpContext) -> str:
    return a.pretty() if isinstance(a, Literal) else ctx.name(a)


def _pp_vars(vs, ctx, separator: str = "", print_shapes: bool = False) -> pp.Doc:
    items = [pp.text(_pp_atom(v, ctx) + (":" + v.aval.str_short() if print_shapes else ""))
             for v in vs]
    return pp.nest(2, pp.group(pp.join(pp.text(separator) + pp.group(pp.brk()), items)))


def _format_param(v, ctx) -> pp.Doc:
    if isinstance(v, tuple) and v and all(isinstance(j, (Jaxpr, ClosedJaxpr)) for j in v):
        docs = [_pp_jaxpr(j.jaxpr if isinstance(j, ClosedJaxpr) else j, ctx) for j in v]
        return pp.group(pp.concat([
            pp.nest(2, pp.concat([pp.text("("), pp.brk(""), pp.join(pp.brk(), docs)])),
            pp.brk(""), pp.text(")")]))
    if isinstance(v, ClosedJaxpr):
        return _pp_jaxpr(v.jaxpr, ctx)
    if isinstance(v, Jaxpr):
        return _pp_jaxpr(v, ctx)
    if isinstance(v, np.dtype):
        return pp.text(v.name)
    return pp.text(str(v))


def _pp_params(items, ctx) -> pp.Doc:
    if not items:
        return pp.nil()
    pairs = [pp.text(f"{k}=") + _format_param(v, ctx) for k, v in items]
    return pp.group(pp.concat([
        pp.nest(2, pp.concat([pp.text("["), pp.brk(""), pp.join(pp.brk(), pairs)])),
        pp.brk(""), pp.text("]")]))


def _pp_eqn(eqn: JaxprEqn, ctx: _PpContext, indent: int | None = None) -> pp.Doc:
    """The document of one equation. ``indent``: the column it starts at when its
    jaxpr's lines break (None: not known); an equation that then fits on its line is
    one text, with the bits its groups would print flat (a compile prints jaxprs of
    thousands of equations; building and laying out their documents dominated)."""
    hook = pp_eqn_hooks.get(eqn.primitive)
    if hook is not None:
        hook(eqn, ctx)
    rule = pp_param_rules.get(eqn.primitive)
    items = rule(eqn.params) if rule else sorted(eqn.params.items())
    if indent is not None and not jaxprs_in_params(eqn.params):
        flat = _flat_eqn(eqn, items, ctx)
        if indent + len(flat) <= ctx.width:
            return pp.text(flat)
    lhs = _pp_vars(eqn.outvars, ctx, print_shapes=True)
    rhs = [pp.text(eqn.primitive.name), _pp_params(items, ctx),
           pp.text(" ") + _pp_vars(eqn.invars, ctx)]
    if eqn.outvars:
        return pp.concat([lhs, pp.text(" = "), *rhs])
    return pp.concat(rhs)


def _flat_eqn(eqn: JaxprEqn, items, ctx: _PpContext) -> str:
    """An equation without sub-jaxprs as :func:`_pp_eqn`'s document prints flat
    (outputs named first, as there)."""
    lhs = " ".join(_pp_atom(v, ctx) + ":" + v.aval.str_short() for v in eqn.outvars)
    params = ""
    if items:
        params = "[" + " ".join(
            f"{k}={v.name if isinstance(v, np.dtype) else str(v)}" for k, v in items) + "]"
    rhs = eqn.primitive.name + params + " " + " ".join(_pp_atom(a, ctx) for a in eqn.invars)
    return lhs + " = " + rhs if eqn.outvars else rhs


def _pp_skeleton(jaxpr: Jaxpr, ctx: _PpContext, indent: int | None = None) -> pp.Doc:
    """``indent``: the indentation the jaxpr's own lines start at, when known."""
    constvars = _pp_vars(jaxpr.constvars, ctx, print_shapes=True)
    invars = _pp_vars(jaxpr.invars, ctx, print_shapes=True)
    at = None if indent is None else indent + 4  # nest(2) twice, below
    eqns = pp.join(pp.brk("; "), [_pp_eqn(e, ctx, at) for e in jaxpr.eqns])
    outvars = pp.concat([pp.text("("), _pp_vars(jaxpr.outvars, ctx, separator=","),
                         pp.text(")" if len(jaxpr.outvars) != 1 else ",)")])
    return pp.group(pp.nest(2, pp.concat([
        pp.text("{ "), pp.text("lambda "), constvars, pp.text("; "), invars,
        pp.text(". "), pp.text("let"), pp.nest(2, pp.brk() + eqns), pp.brk(),
        pp.text("in "), outvars])) + pp.text(" }"))


def _pp_jaxpr(jaxpr: Jaxpr, ctx: _PpContext, indent: int | None = None) -> pp.Doc:
    name = ctx.shared.get(jaxpr)
    if name is not None:
        return pp.text(name)
    return _pp_skeleton(jaxpr, ctx, indent)


def _unused_outvars(jaxpr: Jaxpr) -> dict:
    used = {a for a in jaxpr.outvars if isinstance(a, Var)}
    names = {}
    for eqn in reversed(jaxpr.eqns):
        for v in eqn.outvars:
            if v not in used:
                names[v] = "_"
        used.update(a for a in eqn.invars if isinstance(a, Var))
    return names


def pretty_print(top: Jaxpr, width: int = 80) -> str:
    """The text of ``top`` as JAX prints it."""
    return _print(top, width)[0]


def var_names(top: Jaxpr) -> dict:
    """The name each variable of ``top`` and its sub-jaxprs gets in its printed text
    (``"_"`` for unused outputs)."""
    return _print(top, 80)[1]


#: The last few printings, by jaxpr identity: a compile prints its jaxpr for the cache
#: fingerprint, the generated file's header and the planner's variable names, and a
#: jaxpr never changes once built.
_PRINTED: dict = {}


def _print(top: Jaxpr, width: int):
    got = _PRINTED.get((id(top), width))
    if got is not None and got[0] is top:
        return got[1]
    out = _print_uncached(top, width)
    if len(_PRINTED) >= 8:
        _PRINTED.pop(next(iter(_PRINTED)))
    _PRINTED[(id(top), width)] = (top, out)
    return out


def _print_uncached(top: Jaxpr, width: int):
    ctx = _PpContext(_unused_outvars(top))
    counts: Counter = Counter()
    names: dict = {}
    queue = deque([top])
    while queue:
        j = queue.popleft()
        counts[j] += 1
        if j is not top and len(j.eqns) > 10:
            counts[j] += 1
        for eqn in j.eqns:
            subs = jaxprs_in_params(eqn.params)
            queue.extend(subs)
            name = eqn.params.get("name")
            if isinstance(name, str):
                for s in subs:
                    names.setdefault(s, name.strip("<>"))
    name_counts: Counter = Counter()
    shared = []
    for j, c in counts.items():
        if c == 1:
            continue
        name = names.get(j, "jaxpr")
        n = name_counts[name]
        if n > 0:
            name_counts[name] += 1
            name = f"{name}{n}"
        name_counts[name] += 1
        ctx.shared_names.add(name)
        ctx.shared[j] = name
        shared.append((name, j))
    ctx.width = width
    docs = [pp.concat([pp.text(f"let {name} = "), _pp_skeleton(j, ctx, 0), pp.text(" in"),
                       pp.brk()]) for name, j in shared]
    docs.append(_pp_jaxpr(top, ctx, 0))
    return pp.render(pp.concat(docs), width), ctx.names


# ---------------------------------------------------------------------------------------
# Type checking

def _same_type(a: ShapedArray, b: ShapedArray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype


def typecheck(jaxpr: Jaxpr | ClosedJaxpr) -> None:
    """Re-run every equation's abstract-eval rule and check variable scoping.

    Raises
    ------
    JaxprTypeError
        If a variable is used before it is defined or an equation's recorded output
        types differ from what its rule computes.
    """
    if isinstance(jaxpr, ClosedJaxpr):
        if len(jaxpr.consts) != len(jaxpr.jaxpr.constvars):
            raise JaxprTypeError("number of consts does not match constvars")
        jaxpr = jaxpr.jaxpr
    env: set = set(jaxpr.constvars) | set(jaxpr.invars)
    if len(env) != len(jaxpr.constvars) + len(jaxpr.invars):
        raise JaxprTypeError("a binder is repeated")

    def read(a):
        if isinstance(a, Var) and a not in env:
            raise JaxprTypeError(f"Variable {a!r} not defined")
        return a.aval

    for eqn in jaxpr.eqns:
        in_avals = [read(a) for a in eqn.invars]
        for sub in jaxprs_in_params(eqn.params):
            typecheck(sub)
        out = eqn.primitive.abstract_eval(*in_avals, **eqn.params)
        outs = out if eqn.primitive.multiple_results else [out]
        if len(outs) != len(eqn.outvars):
            raise JaxprTypeError(f"{eqn.primitive} produced {len(outs)} outputs, "
                                 f"equation binds {len(eqn.outvars)}")
        for v, aval in zip(eqn.outvars, outs, strict=True):
            if not _same_type(v.aval, aval):
                raise JaxprTypeError(
                    f"{eqn.primitive}: output typed {v.aval.str_short()} but rule gives "
                    f"{aval.str_short()}")
            env.add(v)
    for a in jaxpr.outvars:
        read(a)
