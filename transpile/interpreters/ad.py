"""Stage 2, transform: automatic differentiation (forward mode, and reverse mode by
linearize-and-transpose, as JAX does it).

* **Forward** (``jvp``): a ``JVPTracer`` carries a primal and a tangent; each primitive
  maps both through its JVP rule (``jvp_rules``). Tangents may be symbolic ``Zero``\\ s.
* **Linearize**: a ``GradTracer`` carries a primal, computed by the enclosing trace (so
  it is concrete under plain ``grad``, and Python ``if x > 0`` works), and a tangent
  that is a tracer of a tangent-staging trace one level up: the JVP rules then compute
  their primal parts at once and record their tangent parts, which are linear, into a
  tangent jaxpr whose constants are the residuals.
* **Transpose** (``backward_pass``): the tangent jaxpr is run backwards with the
  transpose rules (``transpose_rules``) of its linear primitives, cotangents flowing
  from the outputs to the inputs. ``vjp`` and ``grad`` are this on a linearized function.

Rules live beside their primitives and are registered with the helpers below:
``defjvp`` (one JVP function per operand), ``defjvp2`` (also given the primal output),
``defjvp_zero``, ``deflinear``/``deflinear2`` (linear primitives: the JVP applies the
primitive to the tangents, and a transpose rule is given).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray, Trace, Tracer
from ..ir import ClosedJaxpr, Jaxpr, Literal
from .tracing import JaxprTrace, _Builder

__all__ = ["Zero", "UndefinedPrimal", "is_undefined_primal", "jvp_rules",
           "transpose_rules", "linearize_rules", "defjvp", "defjvp2", "defjvp_zero", "deflinear",
           "deflinear2", "instantiate", "add_tangents", "zeros_like_aval", "JVPTracer",
           "GradTracer", "LinearizeTracer", "is_jvp_trace", "jvp_flat", "linearize_flat", "backward_pass", "tangent_aval",
           "float0"]

#: primitive -> rule(primals, tangents, **params) -> (primal_out, tangent_out)
jvp_rules: dict = {}
#: primitive -> rule(cts, *args, **params) -> one cotangent (or None) per argument;
#: linear arguments arrive as ``UndefinedPrimal``.
transpose_rules: dict = {}
#: primitive -> rule(primals, tangents, **params) -> (primal_out, tangent_out), used by
#: ``LinearizeTrace`` before ``jvp_rules``: where the primitive stages its primal and
#: tangent parts as two equations (``shard_map``, as JAX splits it), not one JVP.
linearize_rules: dict = {}

#: The dtype of tangents of integer and boolean values (JAX's ``float0``).
float0 = dtypes.float0


def tangent_aval(aval: ShapedArray) -> ShapedArray:
    """The aval of tangents of ``aval``: itself (weak type and varying manual axes
    included, as JAX's) for floats, float0 for ints and bools."""
    vma = getattr(aval, "vma", frozenset())
    if dtypes.is_float(aval.dtype) or dtypes.is_complex(aval.dtype):
        return ShapedArray(aval.shape, aval.dtype, aval.weak_type, vma)
    return ShapedArray(aval.shape, float0, vma=vma)


class Zero:
    """A symbolic zero tangent or cotangent of ``aval``."""
    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self) -> str:
        return f"Zero({self.aval.str_short()})"


class UndefinedPrimal:
    """A linear input of a primitive during transposition: only its aval is known."""
    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self) -> str:
        return f"UndefinedPrimal({self.aval.str_short()})"


def is_undefined_primal(x) -> bool:
    return isinstance(x, UndefinedPrimal)


# The primitives this module binds live in ``lax``, above the interpreters: ``lax`` sets
# these when imported (``import transpile`` imports it). ``add_any_p`` sums tangents and
# cotangents (``lax.elementwise_ad``); ``full`` builds zeros and ``broadcast_in_dim_p``
# stages them (``lax.structural_ad``).
add_any_p = None
full = None
broadcast_in_dim_p = None


def zeros_like_aval(aval: ShapedArray):
    """A zero array of ``aval``, weak type included (float0 zeros as NumPy arrays, which
    carry no data)."""
    if aval.dtype == float0:
        return np.zeros(aval.shape, float0)
    if aval.weak_type:  # a Python zero of the kind stays weakly typed
        return full(aval.shape, aval.dtype.type(0).item())
    return full(aval.shape, 0, aval.dtype)


def instantiate(t, aval: ShapedArray | None = None):
    """``t`` as an array: a symbolic ``Zero`` becomes zeros."""
    if isinstance(t, Zero):
        return zeros_like_aval(t.aval)
    return t


def add_tangents(a, b):
    """``a + b`` of tangents (``add_any``), symbolic zeros skipped."""
    if isinstance(a, Zero):
        return b
    if isinstance(b, Zero):
        return a
    return add_any_p.bind(a, b)


# ---------------------------------------------------------------------------------------
# Rule helpers

def defjvp(primitive, *jvps: Callable | None) -> None:
    """One JVP function per operand: ``jvps[i](g, *primals, **params)`` is the output
    tangent's term for tangent ``g`` of operand ``i`` (None: the output does not depend
    on that operand differentiably). The terms are summed; the primal output is the
    primitive applied to the primals."""
    def rule(primals, tangents, **params):
        out = primitive.bind(*primals, **params)
        # every term first, then their sum, in JAX's order of equations
        terms = [fn(t, *primals, **params) for fn, t in zip(jvps, tangents, strict=True)
                 if fn is not None and not isinstance(t, Zero)]
        return out, _sum_terms(terms, Zero(_out_tangent_aval(primitive, out)))
    jvp_rules[primitive] = rule


def _sum_terms(terms, zero):
    total = zero
    for t in terms:
        total = add_tangents(total, t)
    return total


def defjvp2(primitive, *jvps: Callable | None) -> None:
    """As ``defjvp``, each function also given the primal output:
    ``jvps[i](g, ans, *primals, **params)``."""
    def rule(primals, tangents, **params):
        out = primitive.bind(*primals, **params)
        terms = [fn(t, out, *primals, **params) for fn, t in zip(jvps, tangents, strict=True)
                 if fn is not None and not isinstance(t, Zero)]
        return out, _sum_terms(terms, Zero(_out_tangent_aval(primitive, out)))
    jvp_rules[primitive] = rule


def _out_tangent_aval(primitive, out):
    if primitive.multiple_results:
        raise TypeError(f"defjvp does not handle the multiple results of {primitive.name}")
    return tangent_aval(core.get_aval(out))


def defjvp_zero(primitive) -> None:
    """The outputs of ``primitive`` have zero tangents (integer, boolean or constant)."""
    def rule(primals, tangents, **params):
        out = primitive.bind(*primals, **params)
        outs = out if primitive.multiple_results else [out]
        zeros = [Zero(tangent_aval(core.get_aval(o))) for o in outs]
        return out, (zeros if primitive.multiple_results else zeros[0])
    jvp_rules[primitive] = rule


def deflinear(primitive, transpose_rule: Callable) -> None:
    """A primitive linear in all its operands: its JVP is itself applied to the tangents
    (zeros instantiated), and ``transpose_rule(ct, **params)`` gives one cotangent per
    operand."""
    def jvp(primals, tangents, **params):
        out = primitive.bind(*primals, **params)
        if all(isinstance(t, Zero) for t in tangents):
            outs = out if primitive.multiple_results else [out]
            zeros = [Zero(tangent_aval(core.get_aval(o))) for o in outs]
            return out, (zeros if primitive.multiple_results else zeros[0])
        ts = [instantiate(t) for t in tangents]
        return out, primitive.bind(*ts, **params)
    jvp_rules[primitive] = jvp

    def transpose(cts, *args, **params):
        ct = cts if primitive.multiple_results else cts[0]
        if not primitive.multiple_results and isinstance(ct, Zero):
            return [None] * len(args)
        return transpose_rule(ct, **params)
    transpose_rules[primitive] = transpose


def deflinear2(primitive, transpose_rule: Callable) -> None:
    """As ``deflinear``, the transpose rule also given the operands:
    ``transpose_rule(ct, *args, **params)`` (linear ones as ``UndefinedPrimal``)."""
    deflinear(primitive, lambda ct, **params: None)

    def transpose(cts, *args, **params):
        ct = cts if primitive.multiple_results else cts[0]
        if not primitive.multiple_results and isinstance(ct, Zero):
            return [None] * len(args)
        return transpose_rule(ct, *args, **params)
    transpose_rules[primitive] = transpose


# ---------------------------------------------------------------------------------------
# Forward mode

class JVPTracer(Tracer):
    """A primal and its tangent."""
    __slots__ = ("primal", "tangent")

    def __init__(self, trace, primal, tangent):
        self._trace = trace
        self.primal = primal
        self.tangent = tangent

    @property
    def aval(self) -> ShapedArray:
        return core.get_aval(self.primal)

    def full_lower(self):
        if isinstance(self.tangent, Zero):
            return core.full_lower(self.primal)
        return self

    def to_concrete_value(self):
        p = self.primal
        return p.to_concrete_value() if isinstance(p, Tracer) else core.to_numpy(p)

    def _origin_msg(self) -> str:
        p = self.primal
        return p._origin_msg() if isinstance(p, Tracer) else ""

    def __repr__(self) -> str:
        t = self.tangent
        tangent = f"Zero({t.aval.str_short()})" if isinstance(t, Zero) else _short(t)
        return f"JVPTracer(primal={_short(self.primal)}, tangent={tangent})"

    __str__ = __repr__


def _short(x) -> str:
    if isinstance(x, Tracer):
        return repr(x)
    v = core.to_numpy(x)
    return str(v.item()) if v.ndim == 0 else str(v)


class _JVPRuleTrace(Trace):
    """A trace whose tracers pair a primal with a tangent and whose primitives apply
    their JVP rules; ``tracer`` is the class of its tracers."""
    tracer: type

    def pure(self, val):
        return self.tracer(self, val, Zero(tangent_aval(core.get_aval(val))))

    lift = pure

    def process_primitive(self, primitive, tracers, params):
        primals = [t.primal for t in tracers]
        tangents = [t.tangent for t in tracers]
        rule = jvp_rules.get(primitive)
        if rule is None:
            raise NotImplementedError(
                f"Differentiation rule for '{primitive.name}' not implemented")
        out, t_out = rule(primals, tangents, **params)
        if primitive.multiple_results:
            return [self.tracer(self, p, t) for p, t in zip(out, t_out, strict=True)]
        return self.tracer(self, out, t_out)


class JVPTrace(_JVPRuleTrace):
    tracer = JVPTracer


def is_jvp_trace(trace) -> bool:
    """Whether ``trace`` differentiates (forward mode or linearize): its tracers carry
    ``primal`` and ``tangent``, and ``trace.tracer(trace, primal, tangent)`` makes one."""
    return isinstance(trace, _JVPRuleTrace)


def _symbolic(t):
    """float0 tangents (of integers) are symbolic zeros."""
    if not isinstance(t, (Zero, Tracer)) and getattr(t, "dtype", None) == float0:
        return Zero(ShapedArray(np.shape(t), float0))
    return t


def jvp_flat(fun: Callable, primals: list, tangents: list) -> tuple[list, list]:
    """Run ``fun`` (flat lists in and out) on JVP tracers; the primal and tangent
    outputs (tangents may be ``Zero``)."""
    with core.new_main(JVPTrace) as main:
        trace = JVPTrace(main)
        ins = [JVPTracer(trace, p, _symbolic(t)) for p, t in zip(primals, tangents,
                                                                strict=True)]
        outs = fun(*ins)
        outs = [trace.full_raise(o) for o in outs]
        return [o.primal for o in outs], [o.tangent for o in outs]


# ---------------------------------------------------------------------------------------
# Linearize: primals now, tangents staged into a linear jaxpr

class LinearizeTracer(Tracer):
    """A primal (of the enclosing trace) and its tangent, a tracer of the tangent-staging
    trace (or ``Zero``)."""
    __slots__ = ("primal", "tangent")

    def __init__(self, trace, primal, tangent):
        self._trace = trace
        self.primal = primal
        self.tangent = tangent

    @property
    def aval(self) -> ShapedArray:
        return core.get_aval(self.primal)

    def to_concrete_value(self):
        p = self.primal
        return p.to_concrete_value() if isinstance(p, Tracer) else core.to_numpy(p)

    def _origin_msg(self) -> str:
        p = self.primal
        return p._origin_msg() if isinstance(p, Tracer) else ""

    def __repr__(self) -> str:
        t = self.tangent
        return (f"GradTracer(primal={_short(self.primal)}, "
                f"typeof(tangent)={t.aval.str_short()})")

    __str__ = __repr__


GradTracer = LinearizeTracer  # what it prints as


class LinearizeTrace(_JVPRuleTrace):
    """JVP rules with primals computed by the enclosing trace and tangents recorded by
    the tangent-staging trace (one level up)."""
    tracer = LinearizeTracer

    def process_primitive(self, primitive, tracers, params):
        rule = linearize_rules.get(primitive)
        if rule is None:
            return super().process_primitive(primitive, tracers, params)
        out, t_out = rule([t.primal for t in tracers], [t.tangent for t in tracers],
                          **params)
        if not primitive.multiple_results:
            return self.tracer(self, out, t_out)
        return [self.tracer(self, p, t) for p, t in zip(out, t_out, strict=True)]


def linearize_flat(fun: Callable, primals: list, nonzero: list | None = None):
    """Linearize ``fun`` (flat lists in and out) at ``primals`` (the tangents of those
    where ``nonzero`` is False symbolic zeros, not inputs of the tangent jaxpr).

    Returns
    -------
    (list, ClosedJaxpr, list)
        The primal outputs; the tangent jaxpr (tangent inputs to tangent outputs, its
        consts the residuals); which outputs have a symbolically zero tangent.
    """
    builder = _Builder(None)
    builder.linear = True  # tangent values: custom_vjp tells reverse from forward mode
    with core.new_main(LinearizeTrace) as lin_main, \
            core.new_main(JaxprTrace, payload=builder) as tan_main:
        lin = LinearizeTrace(lin_main)
        tan = JaxprTrace(tan_main)
        ins = []
        for i, p in enumerate(primals):
            aval = tangent_aval(core.get_aval(p))
            if nonzero is not None and not nonzero[i]:
                ins.append(LinearizeTracer(lin, p, Zero(aval)))
                continue
            arg = tan.new_arg(aval)  # kept as an input even when symbolically zero
            ins.append(LinearizeTracer(lin, p, Zero(aval) if aval.dtype == float0 else arg))
        outs = [lin.full_raise(o) for o in fun(*ins)]
        zero_out = [isinstance(o.tangent, Zero) for o in outs]
        t_atoms = []
        for o in outs:
            if isinstance(o.tangent, Zero) and o.tangent.aval.dtype == float0:
                # integer outputs: nothing flows back through them
                t_atoms.append(Literal(np.zeros(o.tangent.aval.shape, float0), o.tangent.aval))
            elif isinstance(o.tangent, Zero):
                # zeros staged in the tangent jaxpr, not computed by the enclosing trace
                t_atoms.append(_staged_zeros(tan, o.tangent.aval).atom)
            else:
                t_atoms.append(tan.full_raise(o.tangent).atom)
        jaxpr = Jaxpr(tuple(builder.constvars), tuple(builder.invars), tuple(t_atoms),
                      tuple(builder.eqns))
        consts = list(builder.const_vals)
    return [o.primal for o in outs], ClosedJaxpr(jaxpr, consts), zero_out


def _staged_zeros(tan, aval):
    zero = tan.pure(np.zeros((), aval.dtype)[()] if not aval.weak_type else
                    aval.dtype.type(0).item())
    if not aval.shape:
        return zero
    return broadcast_in_dim_p.bind(zero, shape=tuple(aval.shape), broadcast_dimensions=(),
                                   sharding=None)


# ---------------------------------------------------------------------------------------
# Transpose

def backward_pass(jaxpr, consts, linear_avals, cts_out) -> list:
    """Cotangents of the invars of the linear ``jaxpr`` given those of its outputs.

    Parameters
    ----------
    jaxpr : Jaxpr
        Linear in its invars; its constvars hold ``consts`` (known values).
    cts_out : list
        One cotangent (array or ``Zero``) per outvar.

    Returns
    -------
    list
        One cotangent per invar (``Zero`` where nothing flows).
    """
    known = dict(zip(jaxpr.constvars, consts, strict=True))
    linear = set(jaxpr.invars)
    for e in jaxpr.eqns:  # an equation reading a linear value is linear
        if any(not isinstance(a, Literal) and a in linear for a in e.invars):
            linear.update(e.outvars)
    ct_env: dict = {}

    def add_ct(v, ct):
        if isinstance(ct, Zero) or ct is None or isinstance(v, Literal) or v not in linear:
            return
        prev = ct_env.get(v)
        ct_env[v] = ct if prev is None else add_any_p.bind(prev, ct)

    producer = {v: e for e in jaxpr.eqns for v in e.outvars}

    def read(a):
        if isinstance(a, Literal):
            return a.val
        if a in linear:
            return UndefinedPrimal(a.aval)
        if a not in known:
            # a non-linear value a transpose rule needs: computed when first read, as JAX
            # evaluates only those
            e = producer[a]
            outs = e.primitive.bind(*[read(b) for b in e.invars], **e.params)
            for v, o in zip(e.outvars, outs if e.primitive.multiple_results else [outs],
                            strict=True):
                known[v] = o
        return known[a]
    for v, ct in zip(jaxpr.outvars, cts_out, strict=True):
        add_ct(v, ct)
    for e in reversed(jaxpr.eqns):
        if not any(v in linear for v in e.outvars):
            continue
        cts = [ct_env.pop(v, None) for v in e.outvars]
        if all(c is None for c in cts):
            continue
        cts = [Zero(v.aval) if c is None else c for v, c in zip(e.outvars, cts, strict=True)]
        rule = transpose_rules.get(e.primitive)
        if rule is None:
            raise NotImplementedError(
                f"Transpose rule (for reverse-mode differentiation) for "
                f"'{e.primitive.name}' not implemented")
        cts_in = rule(cts, *[read(a) for a in e.invars], **e.params)
        for a, ct in zip(e.invars, cts_in, strict=True):
            add_ct(a, ct)
    return [ct_env.pop(v, Zero(v.aval)) for v in jaxpr.invars]


def _dtype_name(dt) -> str:
    """A dtype as JAX's messages name it (float0 by its NumPy repr)."""
    return str(dt) if dt == float0 else dtypes.dtype_name(dt)
