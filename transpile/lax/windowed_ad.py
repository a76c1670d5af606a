"""Differentiation rules of the windowed reductions (``windowed.py``) and of the generic
reductions (``reduce_generic.py``), as JAX 0.10.2 writes them:

* ``reduce_window_sum`` is linear; its transpose pads the cotangent (holes of the
  strides, the window's reach at the ends) and sums windows of it again;
* ``reduce_window_max``/``min``'s tangent is the tangent at each window's selected
  element (``select_and_gather_add``), whose transpose scatters it back
  (``select_and_scatter_add``): max pooling's gradient;
* the generic ``reduce_window`` reduces (primal, tangent) pairs with the JVP of its
  monoid; ``reduce`` differentiates a balanced tree of the monoid;
* ``cumlogsumexp`` differentiates a parallel prefix scan of ``logaddexp``.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..interpreters import ad
from ..interpreters.ad import Zero, is_undefined_primal
from ..interpreters.eval import eval_jaxpr
from ..interpreters.tracing import trace_to_jaxpr
from . import elementwise as ew
from .convolution_ad import _lhs_padding
from . import reduce_generic as rg
from . import windowed as win
from .slicing import pad, pad_p, slice_in_dim
from .slicing import slice as lax_slice
from .structural import full, reshape, squeeze


def _select_and_gather_add(t, operand, select_prim, window_dimensions, window_strides,
                           padding, base_dilation, window_dilation):
    return win.select_and_gather_add_p.bind(
        t, operand, select_prim=select_prim, window_dimensions=tuple(window_dimensions),
        window_strides=tuple(window_strides), padding=tuple(padding),
        base_dilation=tuple(base_dilation), window_dilation=tuple(window_dilation))


def _select_and_scatter_add(source, operand, select_prim, window_dimensions,
                            window_strides, padding):
    return win.select_and_scatter_add_p.bind(
        source, operand, select_prim=select_prim,
        window_dimensions=tuple(window_dimensions), window_strides=tuple(window_strides),
        padding=tuple(padding))


# ---------------------------------------------------------------------------------------
# reduce_window_sum

def _vjp_lhs_padding(in_shape, window_dimensions, window_strides, out_shape, padding,
                     lhs_dilation, rhs_dilation) -> list:
    """The pads putting each cotangent where the windows that read an element are (a
    transposed convolution's input padding), as NumPy integers as JAX's rule has them."""
    pads = _lhs_padding(in_shape, window_dimensions, window_strides, out_shape, padding,
                        lhs_dilation, rhs_dilation)
    return [(np.int64(lo), np.int64(hi)) for lo, hi in pads]


def _reduce_window_sum_transpose(ct, operand, *, window_dimensions, window_strides,
                                 padding, base_dilation, window_dilation):
    in_shape = operand.aval.shape
    pads = _vjp_lhs_padding(in_shape, window_dimensions, window_strides,
                            core.get_aval(ct).shape, padding, base_dilation,
                            window_dilation)
    config = [(lo, hi, s - 1) for (lo, hi), s in zip(pads, window_strides, strict=True)]
    # (pad_p itself: JAX's rule keeps the pads as NumPy integers, and prints them so)
    padded = pad_p.bind(ct, np.array(0, core.get_aval(ct).dtype),
                        padding_config=tuple(config))
    ones = (1,) * len(in_shape)
    out = win.reduce_window_sum_p.bind(
        padded, window_dimensions=tuple(window_dimensions),
        window_strides=tuple(base_dilation), padding=((0, 0),) * len(in_shape),
        base_dilation=ones, window_dilation=tuple(window_dilation))
    return [out]


ad.deflinear2(win.reduce_window_sum_p, _reduce_window_sum_transpose)


# ---------------------------------------------------------------------------------------
# reduce_window_max, reduce_window_min, select_and_gather_add, select_and_scatter_add

def _chooser_jvp(select_prim):
    def rule(g, operand, **params):
        return _select_and_gather_add(g, operand, select_prim, **params)
    return rule


ad.defjvp(win.reduce_window_max_p, _chooser_jvp(ew.ge_p))
ad.defjvp(win.reduce_window_min_p, _chooser_jvp(ew.le_p))


def _linear_in_source_jvp(prim):
    """The JVP of a select-and-gather/scatter: linear in its source, the operand only
    choosing where (its tangent does not enter)."""
    def jvp(primals, tangents, **params):
        source, operand = primals
        out = prim.bind(source, operand, **params)
        g = tangents[0]
        if isinstance(g, Zero):
            return out, Zero(ad.tangent_aval(core.get_aval(out)))
        return out, prim.bind(g, operand, **params)
    return jvp


def _gather_add_transpose(cts, tangents, operand, *, select_prim, window_dimensions,
                          window_strides, padding, base_dilation, window_dilation):
    ct, = cts
    assert is_undefined_primal(tangents) and not is_undefined_primal(operand)
    if any(d != 1 for d in window_dilation):
        raise NotImplementedError(
            "VJP not implemented for select_and_gather (MaxPool) with window dilation, "
            f"got window_dilation={window_dilation}.")
    if isinstance(ct, Zero):
        return [Zero(tangents.aval), None]
    dilated = any(d != 1 for d in base_dilation)
    if dilated:
        fill = win._identity("max" if select_prim is ew.ge_p else "min",
                             core.get_aval(operand).dtype)
        operand = pad(operand, np.array(fill), tuple((0, 0, d - 1) for d in base_dilation))
    out = _select_and_scatter_add(ct, operand, select_prim, window_dimensions,
                                  window_strides, padding)
    if dilated:
        shape = core.get_aval(out).shape
        out = lax_slice(out, (0,) * len(shape), shape, base_dilation)
    return [out, None]


ad.jvp_rules[win.select_and_gather_add_p] = _linear_in_source_jvp(
    win.select_and_gather_add_p)
ad.transpose_rules[win.select_and_gather_add_p] = _gather_add_transpose




def _scatter_add_transpose(cts, source, operand, *, select_prim, window_dimensions,
                           window_strides, padding):
    ct, = cts
    assert is_undefined_primal(source) and not is_undefined_primal(operand)
    if isinstance(ct, Zero):
        return [Zero(source.aval), None]
    ones = (1,) * len(window_dimensions)
    return [_select_and_gather_add(ct, operand, select_prim, window_dimensions,
                                   window_strides, padding, ones, ones), None]


ad.jvp_rules[win.select_and_scatter_add_p] = _linear_in_source_jvp(
    win.select_and_scatter_add_p)
ad.transpose_rules[win.select_and_scatter_add_p] = _scatter_add_transpose


# ---------------------------------------------------------------------------------------
# Generic reduce_window and reduce

def _jvp_jaxpr(jaxpr, consts, n: int):
    """The scalar monoid on (primal, tangent) pairs: accumulators' primals and tangents,
    then the elements' primals and tangents."""
    avals = [v.aval for v in jaxpr.invars]

    def pairs(*xs):
        acc_p, acc_t, x_p, x_t = (list(xs[i * n:(i + 1) * n]) for i in range(4))
        outs, t_outs = ad.jvp_flat(lambda *a: eval_jaxpr(jaxpr, consts, *a),
                                   acc_p + x_p, acc_t + x_t)
        return outs + [ad.instantiate(t) for t in t_outs]

    in_avals = avals[:n] + avals[:n] + avals[n:] + avals[n:]
    return trace_to_jaxpr(pairs, in_avals)


def _reduce_window_jvp(primals, tangents, *, jaxpr, consts, **params):
    n = len(primals) // 2
    xs, inits = primals[:n], primals[n:]
    txs = [ad.instantiate(t) for t in tangents[:n]]
    tinits = [ad.instantiate(t) for t in tangents[n:]]
    closed = _jvp_jaxpr(jaxpr, consts, n)
    outs = win.reduce_window_p.bind(*xs, *txs, *inits, *tinits, jaxpr=closed.jaxpr,
                                    consts=tuple(closed.consts), **params)
    return outs[:n], outs[n:]


ad.jvp_rules[win.reduce_window_p] = _reduce_window_jvp


def _reduce_jvp(primals, tangents, *, computation, jaxpr, dimensions):
    n = len(primals) // 2
    xs, inits = list(primals[:n]), list(primals[n:])
    if any(not isinstance(t, Zero) for t in tangents[n:]):
        raise NotImplementedError(
            "Gradient of general lax.reduce with non-zero tangents for initial values to "
            "reduction not implemented")
    shape = np.array(core.get_aval(xs[0]).shape, dtype=int)
    axes = tuple(dimensions)
    size = int(np.prod(shape[list(axes)]))
    non_axes = np.delete(np.arange(len(shape)), axes)
    perm = axes + tuple(int(d) for d in non_axes)
    new_shape = (size,) + tuple(int(d) for d in shape[non_axes])

    def reducer(*args):
        return eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *args)

    def tree(*vals):
        vals = list(vals)
        while core.get_aval(vals[0]).shape[0] > 1:
            m = core.get_aval(vals[0]).shape[0]
            m1 = (m + 1) // 2
            a = [slice_in_dim(v, 0, m1) for v in vals]
            b = [slice_in_dim(v, m1, None) for v in vals]
            if m - m1 != m1:
                config = [(0, 0, 0)] * core.get_aval(vals[0]).ndim
                config[0] = (0, 1, 0)
                b = [pad(v, i, config) for v, i in zip(b, inits, strict=True)]
            vals = reducer(*a, *b)
        if core.get_aval(vals[0]).shape[0] == 0:
            return [full(new_shape[1:], i) for i in inits]
        return [squeeze(v, (0,)) for v in vals]

    ps = [reshape(x, new_shape, perm) for x in xs]
    ts = [t if isinstance(t, Zero) else reshape(t, new_shape, perm)
          for t in tangents[:n]]
    return ad.jvp_flat(tree, ps, ts)


ad.jvp_rules[rg.reduce_p] = _reduce_jvp


# ---------------------------------------------------------------------------------------
# cumlogsumexp

def _logaddexp(x, y):
    """``log(exp(x) + exp(y))`` without overflow (``x + y`` where ``x - y`` is NaN:
    equal infinities and NaNs)."""
    big = ew.max(x, y)
    delta = ew.sub(x, y)
    return ew.select_n(ew.ne(delta, delta),
                       ew.add(big, ew.log1p(ew.exp(ew.neg(ew.abs(delta))))),
                       ew.add(x, y))


def _cumlogsumexp_jvp(primals, tangents, *, axis, reverse):
    outs, t_outs = ad.jvp_flat(
        lambda x: [rg.associative_scan(_logaddexp, x, reverse=reverse, axis=axis)],
        list(primals), list(tangents))
    return outs[0], t_outs[0]


ad.jvp_rules[rg.cumlogsumexp_p] = _cumlogsumexp_jvp
