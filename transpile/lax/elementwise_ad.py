"""Differentiation rules of the elementwise primitives (``lax/elementwise.py``,
``lax/fma.py``): JVP rules, and transpose rules for the linear ones.

Each rule is written in the form JAX 0.10.2 writes it (the same primitives applied in the
same order, constants of the operand's dtype), so that differentiated jaxprs print the
same equations as JAX's. Integer-valued, boolean and piecewise-constant primitives have
zero tangents. ``nextafter`` has no rule, as in JAX (differentiating it raises).
"""
from __future__ import annotations

import math

import numpy as np

from .. import core, dtypes
from ..interpreters import ad
from ..interpreters.ad import Zero, defjvp, defjvp2, defjvp_zero, is_undefined_primal
from . import complex_ops
from . import elementwise as ew
from .fma import fma_p
from .reduction import reduce_sum
from .structural import broadcast_in_dim, full_like, reshape

__all__ = ["unbroadcast"]

# ---------------------------------------------------------------------------------------
# Helpers (JAX's ``_const``, ``_zeros``, ``_one``, ``select``, ``_maybe_broadcast``, ...)


def _const(example, val):
    """``val`` of ``example``'s dtype: a Python scalar when ``example`` is a weakly typed
    scalar (so it stays weak and prints as written), else a NumPy scalar array."""
    aval = core.get_aval(example)
    if aval.weak_type and not aval.shape:
        val = {"b": bool, "i": int, "u": int, "c": complex}.get(aval.dtype.kind, float)(val)
        if dtypes.dtype(val) == aval.dtype:
            return val
    return np.array(val, aval.dtype)


def _full_like(x, fill, shape=None):
    return full_like(x, fill, shape=shape)


def _zeros(x):
    return _full_like(x, 0)


def _ones(x):
    return _full_like(x, 1)


def _one(x):
    return _full_like(x, 1, shape=())


def _shape(x):
    return tuple(core.get_aval(x).shape)


def select(pred, on_true, on_false):
    return ew.select_n_p.bind(pred, on_false, on_true)


def _convert(x, dt):
    return ew.convert_element_type(x, dt)


def _maybe_broadcast(shape, x):
    """``x`` broadcast to ``shape`` (from rank 0 or from size-1 axes), or ``x`` itself."""
    x_shape = _shape(x)
    if x_shape == tuple(shape):
        return x
    if not x_shape:
        return broadcast_in_dim(x, shape, ())
    dims = [i for i, (a, b) in enumerate(zip(x_shape, shape, strict=True)) if a == b]
    return broadcast_in_dim(reshape(x, [x_shape[i] for i in dims]), shape, dims)


def _broadcast_shapes(*xs):
    shapes = [_shape(x) for x in xs]
    rank = max(len(s) for s in shapes)
    out = [1] * rank
    for s in shapes:
        if len(s) == rank:
            out = [b if a == 1 else a for a, b in zip(out, s, strict=True)]
    return tuple(out)


def unbroadcast(aval, x):
    """``x`` (of a broadcast result's shape) summed back to ``aval``'s shape: over the
    leading axes it gained and the size-1 axes that were stretched."""
    x_shape = _shape(x)
    if x_shape == tuple(aval.shape):
        return x
    if not aval.shape:
        return reduce_sum(x, tuple(range(len(x_shape))))
    dims = tuple(i for i, (a, b) in enumerate(zip(aval.shape, x_shape, strict=True))
                 if a != b)
    return reshape(reduce_sum(x, dims), aval.shape) if dims else x


def _out_zero(out):
    return Zero(ad.tangent_aval(core.get_aval(out).strip_weak_type()))


# ---------------------------------------------------------------------------------------
# Linear arithmetic: add, sub, neg, mul, div, add_any


def _add_jvp(primals, tangents):
    x, y = primals
    xdot, ydot = tangents
    out = ew.add_p.bind(x, y)
    if isinstance(xdot, Zero) and isinstance(ydot, Zero):
        return out, _out_zero(out)
    if isinstance(xdot, Zero):
        return out, _maybe_broadcast(_shape(out), ydot)
    if isinstance(ydot, Zero):
        return out, _maybe_broadcast(_shape(out), xdot)
    return out, ew.add_p.bind(xdot, ydot)


def _add_transpose(cts, x, y):
    ct, = cts
    if isinstance(ct, Zero):
        return [None, None]
    return [unbroadcast(x.aval, ct) if is_undefined_primal(x) else None,
            unbroadcast(y.aval, ct) if is_undefined_primal(y) else None]


def _sub_jvp(primals, tangents):
    x, y = primals
    xdot, ydot = tangents
    out = ew.sub_p.bind(x, y)
    if isinstance(xdot, Zero) and isinstance(ydot, Zero):
        return out, _out_zero(out)
    if isinstance(xdot, Zero):
        return out, _maybe_broadcast(_shape(out), ew.neg_p.bind(ydot))
    if isinstance(ydot, Zero):
        return out, _maybe_broadcast(_shape(out), xdot)
    return out, ew.sub_p.bind(xdot, ydot)


def _sub_transpose(cts, x, y):
    ct, = cts
    if isinstance(ct, Zero):
        return [None, None]
    return [unbroadcast(x.aval, ct) if is_undefined_primal(x) else None,
            unbroadcast(y.aval, ew.neg_p.bind(ct)) if is_undefined_primal(y) else None]


def _mul_transpose(cts, x, y):
    ct, = cts
    if is_undefined_primal(x):
        if is_undefined_primal(y):
            raise RuntimeError("mul of two linear values can't be transposed")
        return [None if isinstance(ct, Zero) else unbroadcast(x.aval, ew.mul_p.bind(ct, y)),
                None]
    return [None, None if isinstance(ct, Zero) else unbroadcast(y.aval, ew.mul_p.bind(x, ct))]


def _div_transpose(cts, x, y):
    ct, = cts
    if is_undefined_primal(y):
        raise RuntimeError("nonlinear div can't be transposed")
    if isinstance(ct, Zero):
        return [None, None]
    return [unbroadcast(x.aval, ew.div_p.bind(ct, y)), None]


def _add_any_jvp(primals, tangents):
    return ew.add_any_p.bind(*primals), ad.add_tangents(*tangents)


ad.jvp_rules[ew.add_p] = _add_jvp
ad.transpose_rules[ew.add_p] = _add_transpose
ad.jvp_rules[ew.sub_p] = _sub_jvp
ad.transpose_rules[ew.sub_p] = _sub_transpose
ad.deflinear2(ew.neg_p, lambda ct, x: [ew.neg_p.bind(ct)])
defjvp(ew.mul_p, lambda xdot, x, y: ew.mul_p.bind(xdot, y),
       lambda ydot, x, y: ew.mul_p.bind(x, ydot))
ad.transpose_rules[ew.mul_p] = _mul_transpose
defjvp(ew.div_p, lambda g, x, y: ew.div_p.bind(g, y),
       lambda g, x, y: ew.mul_p.bind(ew.mul_p.bind(ew.neg_p.bind(g), x),
                                     ew.integer_pow_p.bind(y, y=-2)))
ad.transpose_rules[ew.div_p] = _div_transpose
ad.jvp_rules[ew.add_any_p] = _add_any_jvp
ad.transpose_rules[ew.add_any_p] = lambda cts, x, y: [cts[0], cts[0]]

# ---------------------------------------------------------------------------------------
# Zero tangents: integer, boolean and piecewise-constant results

for _p in (ew.sign_p, ew.floor_p, ew.ceil_p, ew.round_p, ew.is_finite_p, ew.not_p,
           ew.and_p, ew.or_p, ew.xor_p, ew.shift_left_p, ew.shift_right_logical_p,
           ew.shift_right_arithmetic_p, ew.eq_p, ew.ne_p, ew.lt_p, ew.le_p, ew.gt_p,
           ew.ge_p):
    defjvp_zero(_p)

# ---------------------------------------------------------------------------------------
# Unary functions (the lax API's names, as JAX's rules are written)

def mul(x, y):
    return ew.mul_p.bind(x, y)


def div(x, y):
    return ew.div_p.bind(x, y)


def add(x, y):
    return ew.add_p.bind(x, y)


def sub(x, y):
    return ew.sub_p.bind(x, y)


def neg(x):
    return ew.neg_p.bind(x)


def square(x):
    return ew.square_p.bind(x)


def integer_pow(x, y):
    return ew.integer_pow_p.bind(x, y=y)


def rsqrt(x):
    return ew.rsqrt_p.bind(x)


def exp(x):
    return ew.exp_p.bind(x)


defjvp2(ew.exp_p, lambda g, ans, x: mul(g, ans))
defjvp2(ew.exp2_p, lambda g, ans, x: mul(ew.log_p.bind(_const(x, 2)), mul(g, ans)))
defjvp(ew.log_p, lambda g, x: div(g, x))
defjvp2(ew.expm1_p, lambda g, ans, x: mul(g, add(ans, _one(ans))))
defjvp(ew.log1p_p, lambda g, x: div(g, add(x, _one(x))))
defjvp2(ew.tanh_p, lambda g, ans, x: mul(add(g, mul(g, ans)), sub(_one(x), ans)))
defjvp2(ew.logistic_p, lambda g, ans, x: mul(g, mul(ans, sub(_one(ans), ans))))
defjvp(ew.sin_p, lambda g, x: mul(g, ew.cos_p.bind(x)))
defjvp(ew.cos_p, lambda g, x: neg(mul(g, ew.sin_p.bind(x))))
defjvp2(ew.tan_p, lambda g, ans, x: mul(g, add(_const(x, 1), square(ans))))
defjvp(ew.asin_p, lambda g, x: mul(g, rsqrt(sub(_const(x, 1), square(x)))))
defjvp(ew.acos_p, lambda g, x: mul(g, neg(rsqrt(sub(_const(x, 1), square(x))))))
defjvp(ew.atan_p, lambda g, x: div(g, add(_const(x, 1), square(x))))
defjvp(ew.sinh_p, lambda g, x: mul(g, ew.cosh_p.bind(x)))
defjvp(ew.cosh_p, lambda g, x: mul(g, ew.sinh_p.bind(x)))
defjvp(ew.asinh_p, lambda g, x: mul(g, rsqrt(add(square(x), _one(x)))))
# x^2 - 1 rather than (x + 1)(x - 1), as JAX: the domain is x >= 1.
defjvp(ew.acosh_p, lambda g, x: mul(g, rsqrt(sub(square(x), _one(x)))))
defjvp(ew.atanh_p, lambda g, x: mul(integer_pow(add(_one(x), x), -1),
                                    div(g, sub(_one(x), x))))
defjvp2(ew.sqrt_p, lambda g, ans, x: mul(g, div(_const(x, 0.5), ans)))
defjvp2(ew.rsqrt_p, lambda g, ans, x: mul(g, mul(_const(x, -0.5), div(ans, x))))
defjvp2(ew.cbrt_p, lambda g, ans, x: mul(g, mul(_const(x, 1 / 3), integer_pow(ans, -2))))
defjvp2(ew.square_p, lambda g, ans, x: mul(g, mul(_const(x, 2), x)))
defjvp(ew.erf_p, lambda g, x: mul(_const(x, 2 / math.sqrt(math.pi)),
                                  mul(g, exp(neg(square(x))))))
defjvp2(ew.erf_inv_p, lambda g, ans, x: mul(_const(x, math.sqrt(math.pi) / 2),
                                            mul(g, exp(square(ans)))))


def _abs_jvp(g, ans, x):
    if dtypes.is_complex(core.get_aval(x).dtype):
        # JAX's: real(g * conj(x) / |x|), |x| = 0 replaced by 1
        xc = complex_ops.conj(x)
        return complex_ops.real(mul(g, div(xc, _replace_zero(
            _convert(ans, core.get_aval(x).dtype)))))
    return select(ew.ge_p.bind(x, _full_like(x, 0, shape=())), g, neg(g))


defjvp2(ew.abs_p, _abs_jvp)


def _in_trace_of(x, like):
    """``x`` raised into the trace of the tracer ``like`` (a value computed from
    constants lands in the enclosing trace; a tangent must live in the tangent's)."""
    trace = getattr(like, "_trace", None)
    return x if trace is None else trace.full_raise(x)


def _integer_pow_jvp(g, x, *, y):
    if y == 0:
        return _in_trace_of(_zeros(g), g)
    if y == 1:
        return g
    if y == 2:
        return mul(g, mul(_const(x, y), x))
    return mul(g, mul(_const(x, y), integer_pow(x, y - 1)))


defjvp(ew.integer_pow_p, _integer_pow_jvp)

# ---------------------------------------------------------------------------------------
# Binary functions


def _replace_zero(x):
    return select(ew.eq_p.bind(x, _const(x, 0)), _ones(x), x)


def _pow_jvp_lhs(g, ans, x, y):
    y_dtype = dtypes.dtype(y)
    result_dtype = dtypes.result_type(x, y)
    if result_dtype == np.bool_:
        result_dtype = np.dtype(np.int32)
    x = _convert(x, result_dtype)
    y = _convert(y, result_dtype)
    if y_dtype.kind in "iu":
        if _shape(x) != _shape(y):
            shape = _broadcast_shapes(x, y)
            x, y = _maybe_broadcast(shape, x), _maybe_broadcast(shape, y)
        jac = select(ew.eq_p.bind(y, _const(y, 0)), _zeros(y),
                     mul(_replace_zero(y), ew.pow_p.bind(x, sub(y, _ones(y)))))
    else:
        jac = mul(y, ew.pow_p.bind(x, sub(y, _ones(y))))
    return mul(g, jac)


def _pow_jvp_rhs(g, ans, x, y):
    return _convert(mul(g, mul(ew.log_p.bind(_replace_zero(x)), ans)), dtypes.dtype(y))


defjvp2(ew.pow_p, _pow_jvp_lhs, _pow_jvp_rhs)
defjvp(ew.atan2_p,
       lambda g, x, y: mul(g, div(y, add(square(x), square(y)))),
       lambda g, x, y: mul(g, div(neg(x), add(square(x), square(y)))))
defjvp(ew.rem_p,
       lambda g, x, y: _maybe_broadcast(_broadcast_shapes(x, y), g),
       lambda g, x, y: mul(neg(g), mul(ew.sign_p.bind(div(x, y)),
                                       ew.floor_p.bind(ew.abs_p.bind(div(x, y))))))


def _eq_meet(a, b):
    a_dt, b_dt = dtypes.dtype(a), dtypes.dtype(b)
    if a_dt != b_dt:
        if dtypes.promote_types(a_dt, b_dt) == a_dt:
            a = _convert(a, b_dt)
        else:
            b = _convert(b, a_dt)
    return ew.eq_p.bind(a, b)


def _balanced_eq(x, z, y):
    """1 where ``x`` is the result ``z``, halved where ``y`` is too (ties share)."""
    return div(select(_eq_meet(x, z), _ones(z), _zeros(z)),
               select(_eq_meet(y, z), _full_like(z, 2), _ones(z)))


for _p in (ew.max_p, ew.min_p):
    defjvp2(_p, lambda g, ans, x, y: mul(g, _balanced_eq(x, ans, y)),
            lambda g, ans, x, y: mul(g, _balanced_eq(y, ans, x)))

def _defjvp_terms_first(primitive, *jvps):
    """As ``ad.defjvp``, but every operand's term is computed before they are summed, as
    JAX's ``standard_jvp`` does (the equation order differs from ``ad.defjvp``'s with
    three or more operands)."""
    def rule(primals, tangents, **params):
        out = primitive.bind(*primals, **params)
        terms = [fn(t, *primals, **params) for fn, t in zip(jvps, tangents, strict=True)
                 if fn is not None and not isinstance(t, Zero)]
        total = _out_zero(out)
        for term in terms:
            total = ad.add_tangents(total, term)
        return out, total
    ad.jvp_rules[primitive] = rule


_defjvp_terms_first(ew.clamp_p,
       lambda g, lo, x, hi: select(ew.and_p.bind(ew.gt_p.bind(lo, x), ew.lt_p.bind(lo, hi)),
                                   g, _zeros(x)),
       lambda g, lo, x, hi: select(ew.and_p.bind(ew.gt_p.bind(x, lo), ew.lt_p.bind(x, hi)),
                                   g, _zeros(x)),
       lambda g, lo, x, hi: select(ew.lt_p.bind(hi, x), g, _zeros(x)))

# fma (created by the compile pipeline, not traced; not a JAX primitive): x*y + z.
_defjvp_terms_first(fma_p,
       lambda g, x, y, z: _maybe_broadcast(_broadcast_shapes(x, y, z), mul(g, y)),
       lambda g, x, y, z: _maybe_broadcast(_broadcast_shapes(x, y, z), mul(x, g)),
       lambda g, x, y, z: _maybe_broadcast(_broadcast_shapes(x, y, z), g))

# ---------------------------------------------------------------------------------------
# select_n, convert_element_type


def _select_n_jvp(primals, tangents):
    which, *cases = primals
    case_tangents = tangents[1:]
    out = ew.select_n_p.bind(which, *cases)
    if all(isinstance(t, Zero) for t in case_tangents):
        return out, Zero(case_tangents[0].aval)
    z = _zeros(next(t for t in case_tangents if not isinstance(t, Zero)))
    case_tangents = [z if isinstance(t, Zero) else t for t in case_tangents]
    return out, ew.select_n_p.bind(which, *case_tangents)


def _select_n_transpose(cts, which, *cases):
    ct, = cts
    if is_undefined_primal(which):
        raise RuntimeError("select_n's predicate can't be transposed")
    if isinstance(ct, Zero):
        return [None] * (1 + len(cases))
    zeros = _zeros(ct)
    if dtypes.dtype(which) == np.bool_:
        return [None,
                select(which, zeros, ct) if is_undefined_primal(cases[0]) else None,
                select(which, ct, zeros) if is_undefined_primal(cases[1]) else None]
    return [None] + [select(ew.eq_p.bind(which, _const(which, i)), ct, zeros)
                     if is_undefined_primal(c) else None for i, c in enumerate(cases)]


ad.jvp_rules[ew.select_n_p] = _select_n_jvp
ad.transpose_rules[ew.select_n_p] = _select_n_transpose


def _convert_element_type_jvp(g, ans, x, *, new_dtype, weak_type):
    t_dtype = ad.tangent_aval(core.ShapedArray((), new_dtype)).dtype
    if t_dtype == ad.float0:
        return _out_zero(ans)
    return ew.convert_element_type_p.bind(g, new_dtype=t_dtype, weak_type=weak_type)


def _convert_element_type_transpose(cts, x, *, new_dtype, weak_type):
    ct, = cts
    if not is_undefined_primal(x):
        raise RuntimeError("convert_element_type of a known value can't be transposed")
    if isinstance(ct, Zero):
        return [None]
    old = x.aval
    if ad.tangent_aval(old).dtype == ad.float0:
        return [Zero(ad.tangent_aval(old))]
    return [ew.convert_element_type_p.bind(ct, new_dtype=old.dtype, weak_type=old.weak_type)]


defjvp2(ew.convert_element_type_p, _convert_element_type_jvp)
ad.transpose_rules[ew.convert_element_type_p] = _convert_element_type_transpose

ad.add_any_p = ew.add_any_p  # how the AD interpreter sums tangents and cotangents
