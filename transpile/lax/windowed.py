"""Windowed reductions: ``reduce_window`` (sum, max, min and a generic monoid given as a
jaxpr), and the two primitives of max pooling's derivatives, ``select_and_gather_add``
(the forward-mode tangent: the tangent at each window's selected element) and
``select_and_scatter_add`` (the gradient: each window's cotangent added at its selected
element).

A window of output position ``o`` along a dimension reads, for ``k`` in ``range(w)``,
the position ``o * stride + k * window_dilation - pad_lo`` of the operand dilated by
``base_dilation`` (holes between its elements) and padded by ``padding``. Holes and pads
hold the reduction's initial value. Selection goes through the window in row-major
order and keeps the current element while ``select(current, candidate)`` holds (``ge``
keeps the first maximum); positions outside the operand are never selected (XLA's
``SelectAndScatter``).
"""
from __future__ import annotations

import itertools

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..interpreters.eval import eval_jaxpr
from ..ir import pp_param_rules
from . import elementwise as ew
from .convolution import padtype_to_pads
from .reduction import _fix_zero_sign, _identity, _wide

__all__ = ["reduce_window_shape_tuple",
           "reduce_window_sum_p", "reduce_window_max_p", "reduce_window_min_p",
           "reduce_window_p", "select_and_scatter_add_p", "select_and_gather_add_p"]


# ---------------------------------------------------------------------------------------
# Shapes

def _dilate_shape(shape, dilation) -> tuple:
    return tuple(0 if d == 0 else 1 + r * (d - 1) for d, r in zip(shape, dilation,
                                                                    strict=True))


def reduce_window_shape_tuple(operand_shape, window_dimensions, window_strides, padding,
                              base_dilation=None, window_dilation=None) -> tuple:
    """The output shape of a windowed reduction.

    Parameters
    ----------
    operand_shape, window_dimensions, window_strides : sequence of int
    padding : sequence of (int, int)
    base_dilation, window_dilation : sequence of int, optional

    Returns
    -------
    tuple of int
    """
    if base_dilation is not None:
        operand_shape = _dilate_shape(operand_shape, base_dilation)
    if window_dilation is not None:
        window_dimensions = _dilate_shape(window_dimensions, window_dilation)
    padded = [n + lo + hi for n, (lo, hi) in zip(operand_shape, padding, strict=True)]
    return tuple(max((p - w) // s + 1, 0) for p, w, s in
                 zip(padded, window_dimensions, window_strides, strict=True))


def _check_shapelike(name: str, arg: str, obj, positive: bool) -> None:
    arr = np.asarray(obj)
    if arr.ndim != 1:
        raise TypeError(f"{arg} must be 1-dimensional, got {arr.ndim}")
    if arr.size and arr.dtype.kind not in "iu":
        raise TypeError(f"{name} {arg} must have every element be an integer type, "
                        f"got {tuple(type(x) for x in obj)}.")
    if positive and (arr <= 0).any():
        raise TypeError(f"{name} {arg} must have every element be strictly positive, "
                        f"got {tuple(obj)}.")
    if not positive and (arr < 0).any():
        raise TypeError(f"{name} {arg} must have all non-negative values, got {obj}.")


def _window_shape(x: ShapedArray, window_dimensions, window_strides, padding,
                  base_dilation, window_dilation) -> tuple:
    name = "reduce_window"
    _check_shapelike(name, "window_dimensions", window_dimensions, True)
    _check_shapelike(name, "window_strides", window_strides, True)
    _check_shapelike(name, "base_dilation", base_dilation, True)
    _check_shapelike(name, "window_dilation", window_dilation, True)
    n = len(window_dimensions)
    if x.ndim != n:
        raise TypeError("reduce_window got the wrong number of window_dimensions for "
                        f"operand: got operand shape {x.shape} with window_dimensions "
                        f"{tuple(window_dimensions)}.")
    for arg, v in (("window_strides", window_strides), ("base_dilation", base_dilation),
                   ("window_dilation", window_dilation)):
        if len(v) != n:
            raise TypeError(f"reduce_window got inconsistent {arg} and window_dimensions: "
                            f"got {arg} {tuple(v)} and window_dimensions "
                            f"{tuple(window_dimensions)}.")
    if len(padding) != n:
        raise TypeError("reduce_window got inconsistent padding and window_dimensions: "
                        f"got padding {padding} and window_dimensions {window_dimensions}.")
    return reduce_window_shape_tuple(x.shape, window_dimensions, window_strides, padding,
                                     base_dilation, window_dilation)


# ---------------------------------------------------------------------------------------
# NumPy: windows as strided views of the dilated, padded operand

def _spread(x: np.ndarray, fill, padding, base_dilation) -> np.ndarray:
    """``x`` dilated by ``base_dilation`` and padded by ``padding`` (negative pads cut),
    the holes and pads holding ``fill``."""
    dil = _dilate_shape(x.shape, base_dilation)
    shape = [d + max(lo, 0) + max(hi, 0) for d, (lo, hi) in zip(dil, padding, strict=True)]
    out = np.full(shape, fill, dtype=x.dtype)
    out[tuple(slice(max(lo, 0), max(lo, 0) + d, r) for d, (lo, _), r in
              zip(dil, padding, base_dilation, strict=True))] = x
    return out[tuple(slice(max(-lo, 0), s - max(-hi, 0)) for s, (lo, hi) in
                     zip(shape, padding, strict=True))]


def _windows(x: np.ndarray, fill, window_dimensions, window_strides, padding,
             base_dilation, window_dilation) -> np.ndarray:
    """A view ``out_shape + window_dimensions`` of the windows' elements."""
    spread = _spread(x, fill, padding, base_dilation)
    span = _dilate_shape(window_dimensions, window_dilation)
    nd = x.ndim
    out_shape = reduce_window_shape_tuple(x.shape, window_dimensions, window_strides,
                                          padding, base_dilation, window_dilation)
    if 0 in out_shape or 0 in window_dimensions:
        return np.zeros(out_shape + tuple(window_dimensions), x.dtype)
    view = np.lib.stride_tricks.sliding_window_view(spread, span)
    return view[tuple(slice(None, None, s) for s in window_strides) +
                tuple(slice(None, None, r) for r in window_dilation)][
        tuple(slice(0, o) for o in out_shape) + (slice(None),) * nd]


def _window_reduce_impl(op: str):
    def impl(x, *, window_dimensions, window_strides, padding, base_dilation,
             window_dilation):
        init = _identity(op, x.dtype)
        w = _windows(x, init, window_dimensions, window_strides, padding, base_dilation,
                     window_dilation)
        axes = tuple(range(x.ndim, 2 * x.ndim))
        if op == "sum":
            return np.sum(w.astype(_wide(x.dtype)), axis=axes).astype(x.dtype)
        out = (np.max if op == "max" else np.min)(w, axis=axes, initial=init)
        return _fix_zero_sign(out, np.ascontiguousarray(w), op, axes)
    return impl


def _window_params(window_dimensions, window_strides, padding, base_dilation,
                   window_dilation) -> dict:
    return dict(window_dimensions=tuple(window_dimensions),
                window_strides=tuple(window_strides),
                padding=tuple((lo, hi) for lo, hi in padding),
                base_dilation=tuple(base_dilation), window_dilation=tuple(window_dilation))


# ---------------------------------------------------------------------------------------
# reduce_window_sum, reduce_window_max, reduce_window_min

def _monoid_reducer(name: str, op: str):
    p = core.new_primitive(name)

    @p.def_abstract_eval
    def abstract(x, **params):
        if op == "sum" and dtypes.kind(x.dtype) not in "iuf":
            raise TypeError(f"operand to reduce_window_sum must have a number dtype, got "
                            f"{np.dtype(x.dtype).name}")
        return ShapedArray(_window_shape(x, **params), x.dtype, x.weak_type)

    p.def_impl(_window_reduce_impl(op))
    return p


reduce_window_sum_p = _monoid_reducer("reduce_window_sum", "sum")
reduce_window_max_p = _monoid_reducer("reduce_window_max", "max")
reduce_window_min_p = _monoid_reducer("reduce_window_min", "min")


# ---------------------------------------------------------------------------------------
# reduce_window with a jaxpr (any monoid, several operands)

reduce_window_p = core.new_primitive("reduce_window", multiple_results=True)


@reduce_window_p.def_abstract_eval
def _reduce_window_abstract(*avals, jaxpr, consts, **params):
    n = len(avals) // 2
    xs, inits = avals[:n], avals[n:]
    if any(i.shape != () for i in inits):
        raise TypeError(f"reduce_window expected init_values to be scalars but "
                        f"init_values have shapes {[a.shape for a in inits]}.")
    if any(x.dtype != i.dtype for x, i in zip(xs, inits, strict=True)):
        raise TypeError("reduce_window got inconsistent dtypes for operands and "
                        f"init_values: got operand dtypes {[x.dtype for x in xs]} and "
                        f"init_value dtypes {[i.dtype for i in inits]}.")
    shape = _window_shape(xs[0], **params)
    if any(x.shape != xs[0].shape for x in xs):
        raise TypeError(f"reduce_window got operands of different shapes: "
                        f"{[x.shape for x in xs]}")
    return [ShapedArray(shape, x.dtype, x.weak_type and i.weak_type)
            for x, i in zip(xs, inits, strict=True)]


@reduce_window_p.def_impl
def _reduce_window_impl(*args, jaxpr, consts, **params):
    n = len(args) // 2
    xs, inits = args[:n], args[n:]
    ws = [_windows(np.asarray(x), np.asarray(i).item(), **params)
          for x, i in zip(xs, inits, strict=True)]
    out_shape = ws[0].shape[:len(params["window_dimensions"])]
    accs = [np.full(out_shape, i, dtype=np.asarray(x).dtype)
            for x, i in zip(xs, inits, strict=True)]
    # In the window's row-major order, as XLA's reference evaluator: the result of a
    # monoid does not depend on the order; that of anything else is this order's.
    for k in itertools.product(*(range(w) for w in params["window_dimensions"])):
        at = (Ellipsis,) + k
        outs = eval_jaxpr(jaxpr, consts, *accs, *[w[at] for w in ws])
        accs = [np.asarray(core.to_numpy(o, core.get_aval(o))).astype(a.dtype)
                .reshape(out_shape) for o, a in zip(outs, accs, strict=True)]
    return accs


pp_param_rules[reduce_window_p] = lambda p: sorted(p.items())


def _monoid_of(computation, init) -> object | None:
    """The primitive of a known monoid (``add`` from 0, ``max`` from its lowest value,
    ``min`` from its highest), as JAX recognises them; None otherwise."""
    if isinstance(init, core.Tracer):
        return None
    try:
        a = core.get_aval(init)
        v = core.to_numpy(init, a)
    except TypeError:
        return None
    if v.shape != ():
        return None
    dt = a.dtype
    if computation is ew.add and v == 0:
        return reduce_window_sum_p
    if computation is ew.max and v == _identity("max", dt):
        return reduce_window_max_p
    if computation is ew.min and v == _identity("min", dt):
        return reduce_window_min_p
    return None


# ---------------------------------------------------------------------------------------
# select_and_gather_add, select_and_scatter_add

def _select_order(select_prim):
    """The comparison deciding whether the current element stays selected."""
    if select_prim is ew.ge_p:
        return np.greater_equal
    if select_prim is ew.le_p:
        return np.less_equal
    raise ValueError(f"select_prim must be lax.ge_p or lax.le_p, got {select_prim}")


def _selection(operand, select_prim, window_dimensions, window_strides, padding,
               base_dilation, window_dilation):
    """Per output position, the flat window index of the selected element (-1 where the
    window holds no operand element)."""
    keep = _select_order(select_prim)
    nd = operand.ndim
    mask = np.ones(operand.shape, bool)
    args = (window_dimensions, window_strides, padding, base_dilation, window_dilation)
    vals = _windows(operand, 0, *args)
    inside = _windows(mask, False, *args)
    out_shape = vals.shape[:nd]
    best = np.zeros(out_shape, operand.dtype)
    which = np.full(out_shape, -1, np.int64)
    for flat, k in enumerate(itertools.product(*(range(w) for w in window_dimensions))):
        at = (Ellipsis,) + k
        v, ok = vals[at], inside[at]
        with np.errstate(invalid="ignore"):
            take = ok & ((which < 0) | ~keep(best, v))
        best = np.where(take, v, best)
        which = np.where(take, flat, which)
    return which


def _gather_add_impl(tangents, operand, *, select_prim, window_dimensions,
                     window_strides, padding, base_dilation, window_dilation):
    args = (window_dimensions, window_strides, padding, base_dilation, window_dilation)
    which = _selection(operand, select_prim, *args)
    ts = _windows(tangents, 0, *args)
    ts = ts.reshape(which.shape + (-1,))
    picked = np.take_along_axis(ts, np.maximum(which, 0)[..., None], -1)[..., 0]
    return np.where(which >= 0, picked, tangents.dtype.type(0))


def _scatter_add_impl(source, operand, *, select_prim, window_dimensions, window_strides,
                      padding):
    nd = operand.ndim
    ones = (1,) * nd
    which = _selection(operand, select_prim, window_dimensions, window_strides, padding,
                       ones, ones)
    acc = np.zeros(operand.shape, _wide(source.dtype))
    wins = list(itertools.product(*(range(w) for w in window_dimensions)))
    # Windows in row-major order, each adding its cotangent at its selected element.
    for o in np.ndindex(*which.shape):
        f = which[o]
        if f < 0:
            continue
        pos = tuple(oi * s + ki - lo for oi, s, ki, (lo, _) in
                    zip(o, window_strides, wins[f], padding, strict=True))
        acc[pos] += source[o]
    return acc.astype(source.dtype)


select_and_gather_add_p = core.new_primitive("select_and_gather_add")


@select_and_gather_add_p.def_abstract_eval
def _gather_add_abstract(tangents, operand, *, select_prim, **params):
    _select_order(select_prim)
    if tangents.dtype != operand.dtype:
        raise TypeError("select_and_gather_add requires tangents and operand of the same "
                        f"dtype, got {np.dtype(tangents.dtype).name} and "
                        f"{np.dtype(operand.dtype).name}")
    if tangents.shape != operand.shape:
        raise TypeError("select_and_gather_add tangents and operand shapes must match, "
                        f"got {tangents.shape} and {operand.shape}.")
    return ShapedArray(_window_shape(operand, **params), tangents.dtype,
                       tangents.weak_type)


select_and_gather_add_p.def_impl(_gather_add_impl)

select_and_scatter_add_p = core.new_primitive("select_and_scatter_add")


@select_and_scatter_add_p.def_abstract_eval
def _scatter_add_abstract(source, operand, *, select_prim, window_dimensions,
                          window_strides, padding):
    _select_order(select_prim)
    ones = (1,) * operand.ndim
    shape = _window_shape(operand, window_dimensions, window_strides, padding, ones, ones)
    if tuple(source.shape) != shape:
        raise TypeError(f"select_and_scatter_add source shape {source.shape} does not "
                        f"match the windows of operand shape {operand.shape}: {shape}")
    return ShapedArray(operand.shape, source.dtype, source.weak_type)


select_and_scatter_add_p.def_impl(_scatter_add_impl)

