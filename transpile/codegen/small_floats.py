"""Small floats (float8/float4) in the kernels that are not fused loops.

XLA:CPU computes a small float in float16 (float32 for float8_e8m0fnu). Where that is
exact -- max, min and their arg/cumulative forms, sort -- or rounds once at the end --
dot_general, computed in float32 and converted back through float16 -- the equation is
rewritten here into conversions around the same primitive on the wider type, which every
kernel already compiles (the NumPy rules do the same: ``lax/_float8.py``'s
``extremum``, ``sort_rule``, ``dot_via_float32``). Sums and products round every step
to the small float; their reduction and scan kernels do that themselves
(``runtime/tp_scan16.h``). Anything else on small floats outside fused loops is refused.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..ir import ClosedJaxpr, JaxprEqn, Literal, Var
from ..lax import _float8, contraction, reduction, sorting, structural
from ..lax import elementwise as ew
from .lowering import CONTROL, HOST, INDEX_MAP, fusible

__all__ = ["widen_small_floats", "check_small_floats"]

_F16, _F32 = np.dtype(np.float16), np.dtype(np.float32)

#: How each primitive computes small floats in a wider type.
_WIDENED = {
    **{p: "extremum" for p in (reduction.reduce_max_p, reduction.reduce_min_p,
                               reduction.argmax_p, reduction.argmin_p,
                               reduction.cummax_p, reduction.cummin_p)},
    sorting.sort_p: "sort",
    contraction.dot_general_p: "dot",
}

#: Kernels that round small floats every step themselves.
_OWN = frozenset({reduction.reduce_sum_p, reduction.reduce_prod_p, reduction.cumsum_p,
                  reduction.cumprod_p})


def _small(v) -> bool:
    dt = getattr(getattr(v, "aval", None), "dtype", None)
    return dt is not None and dtypes.is_small_float(dt)


def _wide(dt) -> np.dtype:
    return _F32 if np.dtype(dt) == dtypes.float8_e8m0fnu else _F16


class _Eqns(list):
    """The equations of the rewrite, each made by one call."""

    def add(self, prim, invars, aval, **params) -> Var:
        out = Var(aval)
        self.append(JaxprEqn(tuple(invars), (out,), prim, params))
        return out

    def convert(self, x, dt, into=None) -> Var:
        out = into if into is not None else Var(x.aval.update(dtype=np.dtype(dt),
                                                               weak_type=False))
        self.append(JaxprEqn((x,), (out,), ew.convert_element_type_p,
                             dict(new_dtype=np.dtype(dt), weak_type=out.aval.weak_type)))
        return out

    def full(self, value, aval) -> Var:
        lit = Literal(np.asarray(value, aval.dtype)[()], aval.update(shape=()))
        return self.add(structural.broadcast_in_dim_p, (lit,), aval, shape=aval.shape,
                        broadcast_dimensions=(), sharding=None)


def _widen(e, how: str) -> list:
    out = _Eqns()
    small = next(v.aval.dtype for v in (*e.invars, *e.outvars) if _small(v))
    wide = _F32 if how == "dot" else _wide(small)
    ins = []
    for a in e.invars:
        if not _small(a):
            ins.append(a)
            continue
        w = out.convert(a, wide)
        if how == "extremum" and _float8.nan_identity(a.aval.dtype):
            w = out.full(np.nan, w.aval)  # its identity is NaN (see nan_identity)
        elif how == "sort" and _float8.nan_first(a.aval.dtype):
            nan = out.add(ew.ne_p, (w, w), w.aval.update(dtype=np.dtype(bool)))
            w = out.add(ew.select_n_p, (nan, w, out.full(-np.inf, w.aval)), w.aval)
        ins.append(w)
    params = dict(e.params)
    if how == "dot" and _small(e.outvars[0]):
        params["preferred_element_type"] = _F32
    outs = [Var(o.aval.update(dtype=wide, weak_type=False)) if _small(o) else o
            for o in e.outvars]
    out.append(e.replace(invars=tuple(ins), outvars=tuple(outs), params=params))
    for o, w in zip(e.outvars, outs):
        if w is not o:
            if how == "dot" and wide != _wide(o.aval.dtype):  # through float16, as XLA
                w = out.convert(w, _wide(o.aval.dtype))
            out.convert(w, o.aval.dtype, into=o)
    return out


def widen_small_floats(closed: ClosedJaxpr) -> ClosedJaxpr:
    """``closed`` with each small-float max/min/arg/cumulative max/min, sort and
    dot_general computed in the wider type (see the module docstring)."""
    eqns, changed = [], False
    for e in closed.jaxpr.eqns:
        how = _WIDENED.get(e.primitive)
        if how is not None and any(_small(v) for v in (*e.invars, *e.outvars)):
            eqns.extend(_widen(e, how))
            changed = True
        else:
            eqns.append(e)
    if not changed:
        return closed
    return ClosedJaxpr(closed.jaxpr.replace(eqns=tuple(eqns)), closed.consts)


def check_small_floats(e, kind) -> None:
    """Refuse a small-float equation no kernel computes as XLA:CPU does: fused loops
    (elementwise arithmetic, conversions, index remaps, control flow), the rewrites
    above and the kernels of :data:`_OWN` do."""
    if kind in (CONTROL, HOST, INDEX_MAP) or (kind is not None and fusible(e)) \
            or e.primitive in _OWN:
        return
    for v in (*e.invars, *e.outvars):
        dt = getattr(getattr(v, "aval", None), "dtype", None)
        if dt is not None and not dtypes.is_key(dt) and dtypes.is_small_float(dt):
            raise NotImplementedError(
                f"jit of {e.primitive.name} on {np.dtype(dt).name} operands is not "
                "implemented (small floats compile in elementwise loops, reductions, "
                "scans, sorts and dot_general only); run it eagerly or convert to "
                "float32 first")
