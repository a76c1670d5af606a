"""Small floats (float8/float4) in the kernels that are not fused loops.

XLA:CPU computes a small float in float16 (float32 for float8_e8m0fnu). Where that is
exact -- max, min and their arg/cumulative forms, sort, top_k -- or rounds once at the end --
dot_general, computed in float32 and converted back through float16 -- the equation is
rewritten here into conversions around the same primitive on the wider type, which every
kernel already compiles (the NumPy rules do the same: ``lax/_float8.py``'s
``extremum``, ``sort_rule``, ``dot_via_float32``). Sums and products round every step
to the small float; their reduction and scan kernels do that themselves
(``runtime/tp_scan16.h``), in XLA's order: a reduced dimension longer than 32 is first
split into windows here (:func:`_tree`). Gathers, scatters and the like copy the
elements' bytes. Anything else on small floats outside fused loops is refused.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from ..ir import ClosedJaxpr, JaxprEqn, Literal, Var
from ..lax import _float8, contraction, dynamic_slicing, indexing, reduction, slicing, sorting
from ..lax import structural
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
    sorting.top_k_p: "sort",
    contraction.dot_general_p: "dot",
}

#: Kernels that round small floats every step themselves, and those that copy elements
#: (their bytes, NaN payloads included).
_OWN = frozenset({reduction.reduce_sum_p, reduction.reduce_prod_p, reduction.cumsum_p,
                  reduction.cumprod_p, indexing.gather_p, indexing.scatter_p,
                  slicing.concatenate_p, dynamic_slicing.dynamic_slice_p,
                  dynamic_slicing.dynamic_update_slice_p})


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


def _tree(e) -> list:
    """A small-float sum/prod with a reduced dimension longer than ``TREE_WINDOW``:
    windows of ``min(size, 32)`` reduced first (each reduced dimension padded with the
    initial value, half before), then their results, as XLA's TreeReductionRewriter
    does (``_float8.reduce_rounded`` is the NumPy rule)."""
    x, o = e.invars[0], e.outvars[0]
    shape, axes = x.aval.shape, set(e.params["axes"])
    if all(shape[d] <= _float8.TREE_WINDOW for d in axes):
        return [e]
    out = _Eqns()
    pads, split, w_axes, m_axes, padded = [], [], [], [], []
    for d, s in enumerate(shape):
        if d not in axes:
            pads.append((0, 0, 0))
            split.append(s)
            padded.append(s)
            continue
        w = min(s, _float8.TREE_WINDOW)
        m = -(-s // w)
        lo = (m * w - s) // 2
        pads.append((lo, m * w - s - lo, 0))
        padded.append(m * w)
        m_axes.append(len(split) - len(w_axes))
        w_axes.append(len(split) + 1)
        split += [m, w]
    init = Literal(np.asarray(0 if e.primitive is reduction.reduce_sum_p else 1,
                              x.aval.dtype)[()], x.aval.update(shape=(), weak_type=False))
    xp = out.add(slicing.pad_p, (x, init), x.aval.update(shape=tuple(padded)),
                 padding_config=tuple(pads))
    xs = out.add(structural.reshape_p, (xp,), xp.aval.update(shape=tuple(split)),
                 new_sizes=tuple(split), dimensions=None, sharding=None)
    kept = tuple(n for i, n in enumerate(split) if i not in w_axes)
    blocks = out.add(e.primitive, (xs,), o.aval.update(shape=kept),
                     **dict(e.params, axes=tuple(w_axes)))
    out.extend(_tree(e.replace(invars=(blocks,), params=dict(e.params, axes=tuple(m_axes)))))
    return out


def widen_small_floats(closed: ClosedJaxpr) -> ClosedJaxpr:
    """``closed`` with each small-float max/min/arg/cumulative max/min, sort and
    dot_general computed in the wider type, and long sums and products split into XLA's
    windows (see the module docstring)."""
    eqns, changed = [], False
    for e in closed.jaxpr.eqns:
        how = _WIDENED.get(e.primitive)
        small = any(_small(v) for v in (*e.invars, *e.outvars))
        if how is not None and small:
            eqns.extend(_widen(e, how))
            changed = True
        elif small and e.primitive in (reduction.reduce_sum_p, reduction.reduce_prod_p):
            tree = _tree(e)
            eqns.extend(tree)
            changed = changed or len(tree) > 1
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
                "scans, sorts, dot_general and element copies only); run it eagerly or "
                "convert to float32 first")
