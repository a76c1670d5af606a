"""Stage 1, trace: a Python function and abstract values in, a ``ClosedJaxpr`` out.

The jaxpr trace is *dynamic*: while it is active every primitive bound anywhere is
recorded, constants included (``jnp.log(2.0)`` stays an equation). Python scalars
and NumPy scalars become literals; arrays become constvars; tracers of an enclosing
trace become constvars whose values are those tracers (the caller turns them into
explicit operands).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .. import core
from ..core import ShapedArray, Trace, Tracer
from ..ir import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var, jaxprs_in_params

__all__ = ["DebugInfo", "JaxprTracer", "JaxprTrace", "trace_to_jaxpr", "const_fold_rules"]


@dataclass
class DebugInfo:
    """What a trace is of, for error messages: function, its source, argument names."""

    traced_for: str  # "jit", "make_jaxpr", ...
    func_name: str
    func_src: str  # "f at file.py:12"
    arg_names: tuple = ()

    @classmethod
    def of(cls, fun: Callable, traced_for: str, arg_names=()) -> "DebugInfo":
        name = getattr(fun, "__name__", type(fun).__name__)
        try:
            code = fun.__code__
            src = f"{name} at {code.co_filename}:{code.co_firstlineno}"
        except AttributeError:
            src = name
        return cls(traced_for, name, src, tuple(arg_names))

    def describe(self) -> str:
        return f"{self.func_src} traced for {self.traced_for}"


class _Builder:
    """Shared state of one jaxpr trace: equations, binders, constants."""

    def __init__(self, debug: DebugInfo | None):
        self.debug = debug
        self.eqns: list[JaxprEqn] = []
        self.invars: list[Var] = []
        self.const_vars: dict[int, Var] = {}
        self.const_vals: list = []
        self.constvars: list[Var] = []
        self.producer: dict[Var, JaxprEqn] = {}

    def add_const(self, val, aval: ShapedArray) -> Var:
        key = id(val)
        var = self.const_vars.get(key)
        if var is None:
            var = Var(aval)
            self.const_vars[key] = var
            self.const_vals.append(val)
            self.constvars.append(var)
        return var

    def depends_on(self, var) -> list[int]:
        """Indices of the invars that ``var`` depends on."""
        index = {v: i for i, v in enumerate(self.invars)}
        seen, todo, hits = set(), [var], set()
        while todo:
            v = todo.pop()
            if not isinstance(v, Var) or v in seen:
                continue
            seen.add(v)
            if v in index:
                hits.add(index[v])
            eqn = self.producer.get(v)
            if eqn is not None:
                todo.extend(eqn.invars)
        return sorted(hits)


class JaxprTracer(Tracer):
    """A tracer of the jaxpr trace; stands for a variable or a literal."""

    __slots__ = ("_aval", "atom")

    def __init__(self, trace: "JaxprTrace", aval: ShapedArray, atom):
        self._trace = trace
        self._aval = aval
        self.atom = atom

    @property
    def aval(self) -> ShapedArray:
        return self._aval

    def __repr__(self) -> str:
        return f"JitTracer({self._aval.str_weak()})"

    __str__ = __repr__

    def _class_name(self) -> str:
        return "DynamicJaxprTracer"

    def _origin_msg(self) -> str:
        b: _Builder = self._trace.main.payload
        if b is None or b.debug is None:
            return ""
        dbg = b.debug
        head = (f"The error occurred while tracing the function {dbg.func_src} for "
                f"{dbg.traced_for}.")
        deps = b.depends_on(self.atom)
        names = [dbg.arg_names[i] for i in deps if i < len(dbg.arg_names)]
        if names:
            if len(names) == 1:
                which = f"the value of the argument {names[0]}"
            else:
                which = ("the values of the arguments " + ", ".join(names[:-1])
                         + f" and {names[-1]}")
            return (f"{head} This concrete value was not available in Python because it "
                    f"depends on {which}.")
        eqn = b.producer.get(self.atom) if isinstance(self.atom, Var) else None
        if eqn is not None:
            return (f"{head}\nThis value became a tracer due to JAX operations on these "
                    f"lines:\n\n  operation {eqn!r}")
        return head


# primitive -> fn(literal values, **params) -> folded value, or None to stage it.
const_fold_rules: dict = {}


def _is_literalable(val) -> bool:
    if isinstance(val, (bool, int, float, complex)) and not isinstance(val, np.ndarray):
        return True
    return isinstance(val, (np.generic, np.ndarray)) and np.ndim(val) == 0


class JaxprTrace(Trace):
    """Records every primitive into the builder held by its main trace."""

    @property
    def builder(self) -> _Builder:
        return self.main.payload

    def new_arg(self, aval: ShapedArray) -> JaxprTracer:
        var = Var(aval)
        self.builder.invars.append(var)
        return JaxprTracer(self, aval, var)

    def pure(self, val):
        aval = core.get_aval(val)
        if _is_literalable(val):
            typed = core.to_numpy(val, aval)[()]  # also range-checks Python ints
            # A Python scalar literal keeps its Python value: it prints as written (1.67).
            lit_val = val if type(val) in (bool, int, float, complex) else typed
            return JaxprTracer(self, aval, Literal(lit_val, aval))
        return JaxprTracer(self, aval, self.builder.add_const(val, aval))

    def lift(self, tracer):
        return JaxprTracer(self, tracer.aval, self.builder.add_const(tracer, tracer.aval))

    def process_primitive(self, primitive, tracers, params):
        fold = const_fold_rules.get(primitive)
        if fold is not None and all(isinstance(t.atom, Literal) for t in tracers):
            folded = fold(*[t.atom for t in tracers], **params)
            if folded is not None:
                return JaxprTracer(self, folded.aval, folded)
        avals = [t.aval for t in tracers]
        rule = core.vma_rules.get(primitive) if core.check_vma[-1] else None
        if rule is None and any(a.vma for a in avals):
            if jaxprs_in_params(params):  # a call: its jaxpr's outputs say
                rule = lambda avals, **_: [a.vma for a in out_avals]  # noqa: E731
            else:
                tracers, vma = _with_pvary(self, tracers)
                avals = [t.aval for t in tracers]
                rule = lambda avals, **_: [vma] * n_out  # noqa: E731
        out = primitive.abstract_eval(*avals, **params)
        out_avals = out if primitive.multiple_results else [out]
        n_out = len(out_avals)
        if rule is not None:
            out_avals = [a.update(vma=v) for a, v in
                         zip(out_avals, rule(avals, **params), strict=True)]
        outs = [JaxprTracer(self, a, Var(a)) for a in out_avals]
        eqn = JaxprEqn(tuple(t.atom for t in tracers), tuple(o.atom for o in outs),
                       primitive, dict(params))
        self.builder.eqns.append(eqn)
        for o in outs:
            self.builder.producer[o.atom] = eqn
        return outs if primitive.multiple_results else outs[0]


def _with_pvary(trace, tracers):
    """JAX's standard vma rule: operands varying over fewer manual axes than the others
    get a ``pvary`` first; the outputs vary over the union (returned)."""
    vma = frozenset().union(*(t.aval.vma for t in tracers))
    tracers = [t if t.aval.vma == vma else
               trace.full_raise(core.pvary(t, tuple(sorted(vma - t.aval.vma))))
               for t in tracers]
    return tracers, vma


def trace_to_jaxpr(flat_fun: Callable, in_avals, debug: DebugInfo | None = None,
                   check_output: Callable | None = None):
    """Trace ``flat_fun`` (flat arguments in, flat list out) at ``in_avals``.

    Returns
    -------
    ClosedJaxpr
        Its consts may hold tracers of enclosing traces (closed-over values).
    """
    builder = _Builder(debug)
    with core.new_main(JaxprTrace, dynamic=True, payload=builder) as main:
        trace = JaxprTrace(main)
        args = [trace.new_arg(a) for a in in_avals]
        outs = flat_fun(*args)
        if check_output is not None:
            check_output(outs)
        out_tracers = [trace.full_raise(o) for o in outs]
        jaxpr = Jaxpr(tuple(builder.constvars), tuple(builder.invars),
                      tuple(t.atom for t in out_tracers), tuple(builder.eqns))
        consts = list(builder.const_vals)
    return ClosedJaxpr(jaxpr, consts)


def split_tracer_consts(closed: ClosedJaxpr):
    """Move constvars whose values are tracers into leading invars.

    Returns
    -------
    (ClosedJaxpr, list)
        The jaxpr with only concrete consts left, and the tracers now passed as its
        first operands.
    """
    jaxpr = closed.jaxpr
    keep_v, keep_c, move_v, move_c = [], [], [], []
    for v, c in zip(jaxpr.constvars, closed.consts, strict=True):
        if isinstance(c, Tracer):
            move_v.append(v)
            move_c.append(c)
        else:
            keep_v.append(v)
            keep_c.append(c)
    if not move_v:
        return closed, []
    new = jaxpr.replace(constvars=tuple(keep_v), invars=tuple(move_v) + jaxpr.invars)
    return ClosedJaxpr(new, keep_c), move_c
