"""Reductions with a user's monoid: ``lax.reduce`` (primitive ``reduce``),
``lax.reduce_window``'s API, ``lax.associative_scan`` (a parallel prefix scan written
with slices, pads and the combining function, as JAX writes it) and ``cumlogsumexp``.

Known monoids become the dedicated primitives, as in JAX: ``add`` from 0 is
``reduce_sum`` (``reduce_window_sum``), ``max`` from its lowest value ``reduce_max``, and
so on; anything else is traced into a jaxpr on scalars and carried by the generic
primitive.
"""
from __future__ import annotations

import itertools
import operator

import numpy as np

from .. import core, dtypes, tree_util
from ..core import ShapedArray
from ..interpreters.eval import eval_jaxpr
from ..interpreters.tracing import DebugInfo, trace_to_jaxpr
from ..ir import pp_param_rules
from . import elementwise as ew
from . import reduction as red
from . import windowed as win
from ._base import _as_value
from ._xla_math import daz
from .elementwise import add, bitwise_or
from .slicing import concatenate, pad, slice_in_dim
from .structural import rev

__all__ = ["reduce", "reduce_p", "reduce_window", "associative_scan", "cumlogsumexp",
           "cumlogsumexp_p"]


def _trace_scalar_fn(computation, init_leaves, in_tree, what: str) -> tuple:
    """``computation(acc, x)`` traced on scalars of the inits' dtypes: its closed
    jaxpr (accumulators first, then elements) and its output tree."""
    avals = [ShapedArray((), core.get_aval(v).dtype, core.get_aval(v).weak_type)
             for v in init_leaves]
    box = []

    def flat(*xs):
        n = len(xs) // 2
        out = computation(tree_util.tree_unflatten(in_tree, list(xs[:n])),
                          tree_util.tree_unflatten(in_tree, list(xs[n:])))
        leaves, tree = tree_util.tree_flatten(out)
        box.append(tree)
        return leaves

    closed = trace_to_jaxpr(flat, avals + avals, DebugInfo.of(computation, what))
    if box[0] != in_tree:
        raise TypeError(f"{what}: the output of computation must have the structure of "
                        f"init_values, got {box[0]} and {in_tree}")
    return closed, box[0]


# ---------------------------------------------------------------------------------------
# reduce

reduce_p = core.new_primitive("reduce", multiple_results=True)


@reduce_p.def_abstract_eval
def _reduce_abstract(*avals, computation, jaxpr, dimensions):
    n = len(avals) // 2
    xs, inits = avals[:n], avals[n:]
    if any(x.shape != xs[0].shape for x in xs):
        raise ValueError(f"reduce found non-scalar initial value: "
                         f"{[x.shape for x in xs]}")
    if any(i.shape != () for i in inits):
        raise ValueError(f"reduce found non-scalar initial value: "
                         f"{[i.shape for i in inits]}")
    for d in dimensions:
        if not 0 <= d < xs[0].ndim:
            raise ValueError(f"reduction axes {dimensions} contains out-of-bounds "
                             f"indices for {xs[0].str_long()}.")
    shape = tuple(s for i, s in enumerate(xs[0].shape) if i not in dimensions)
    return [ShapedArray(shape, x.dtype, x.weak_type and i.weak_type)
            for x, i in zip(xs, inits, strict=True)]


@reduce_p.def_impl
def _reduce_impl(*args, computation, jaxpr, dimensions):
    n = len(args) // 2
    xs = [np.asarray(x) for x in args[:n]]
    dims = tuple(int(d) for d in dimensions)
    kept = [i for i in range(xs[0].ndim) if i not in dims]
    out_shape = tuple(xs[0].shape[i] for i in kept)
    # Reduced positions in row-major order, each combined into the accumulators.
    moved = [np.moveaxis(x, dims, range(len(kept), x.ndim)) if dims else x for x in xs]
    accs = [np.full(out_shape, np.asarray(i).item(), x.dtype)
            for x, i in zip(xs, args[n:], strict=True)]
    for k in itertools.product(*(range(xs[0].shape[d]) for d in dims)):
        outs = eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *accs, *[m[(Ellipsis,) + k]
                                                             for m in moved])
        accs = [np.broadcast_to(np.asarray(core.to_numpy(o, core.get_aval(o))),
                                out_shape).astype(a.dtype)
                for o, a in zip(outs, accs, strict=True)]
    return accs


pp_param_rules[reduce_p] = lambda p: sorted(p.items())

_MONOIDS = ((ew.add, 0, red.reduce_sum), (ew.mul, 1, red.reduce_prod),
            (ew.max, "max", red.reduce_max), (ew.min, "min", red.reduce_min))
_BOOL_MONOIDS = ((ew.bitwise_or, False, red.reduce_or),
                 (ew.bitwise_and, True, red.reduce_and),
                 (ew.bitwise_xor, False, red.reduce_xor))


def _monoid_reducer(computation, leaves):
    if len(leaves) != 1 or isinstance(leaves[0], core.Tracer):
        return None
    a = core.get_aval(leaves[0])
    if a.shape != ():
        return None
    v = core.to_numpy(leaves[0], a)
    for fn, ident, reducer in _MONOIDS:
        if computation is fn:
            want = red._identity(ident, a.dtype) if isinstance(ident, str) else ident
            return reducer if np.equal(v, want) else None
    if a.dtype == np.bool_:
        for fn, ident, reducer in _BOOL_MONOIDS:
            if computation is fn:
                return reducer if v == ident else None
    return None


def _flatten_matching(operands, init_values):
    """``(operand leaves, init leaves, operand tree, init tree)``, with JAX's errors
    when the two pytrees do not match."""
    flat_ops, op_tree = tree_util.tree_flatten(operands)
    flat_inits, init_tree = tree_util.tree_flatten(init_values)
    if op_tree != init_tree:
        raise ValueError("Operands must have the same tree structure as init_values: "
                         f"{op_tree} vs. {init_tree}")
    if len(flat_ops) != len(flat_inits):
        raise ValueError("Must have same total number of operands as init_values: "
                         f" {len(flat_ops)} vs. {len(flat_inits)}")
    return flat_ops, flat_inits, op_tree, init_tree


def reduce(operands, init_values, computation, dimensions):
    """Reduce ``operands`` over ``dimensions`` with the monoid ``computation``.

    Parameters
    ----------
    operands : array_like or pytree of arrays
    init_values : scalar or pytree of scalars
        The monoid's identity.
    computation : callable
        ``(acc, x) -> acc`` on scalar pytrees.
    dimensions : sequence of int

    Returns
    -------
    Array or pytree of arrays
    """
    flat_ops, flat_inits, op_tree, init_tree = _flatten_matching(operands, init_values)
    dims = tuple(operator.index(d) for d in dimensions)
    monoid = _monoid_reducer(computation, flat_inits)
    if monoid is not None:
        return tree_util.tree_unflatten(op_tree, [monoid(flat_ops[0], dims)])
    flat_ops = [_as_value(x) for x in flat_ops]
    flat_inits = [_as_value(x) for x in flat_inits]
    closed, _ = _trace_scalar_fn(computation, flat_inits, init_tree, "reduce")
    outs = reduce_p.bind(*flat_ops, *flat_inits, computation=computation, jaxpr=closed,
                         dimensions=dims)
    return tree_util.tree_unflatten(op_tree, outs)


def reduce_window(operand, init_value, computation, window_dimensions, window_strides,
                  padding, base_dilation=None, window_dilation=None):
    """Reduce each window of ``operand`` with the monoid ``computation``.

    Parameters
    ----------
    operand : array_like or pytree of arrays
    init_value : scalar or pytree of scalars
        The monoid's identity (it fills padding and dilation holes).
    computation : callable
        ``(acc, x) -> acc`` on scalars. ``lax.add`` from 0 and ``lax.max``/``lax.min``
        from the lowest/highest value become ``reduce_window_sum``/``max``/``min``.
    window_dimensions, window_strides : sequence of int
    padding : str or sequence of (int, int)
        ``'VALID'``, ``'SAME'``, ``'SAME_LOWER'`` or explicit pads.
    base_dilation, window_dilation : sequence of int, optional

    Returns
    -------
    Array or pytree of arrays
    """
    flat_ops, flat_inits, op_tree, init_tree = _flatten_matching(operand, init_value)
    nd = len(window_dimensions)
    base_dilation = (1,) * nd if base_dilation is None else base_dilation
    window_dilation = (1,) * nd if window_dilation is None else window_dilation
    shape = core.get_aval(flat_ops[0]).shape
    if isinstance(padding, str) and len(shape) != nd:
        win.padtype_to_pads((), (), (), padding)  # a bad name's error first
        padding = ((0, 0),) * nd  # the rank error comes from the primitive's check
    if isinstance(padding, str):
        padding = tuple(win.padtype_to_pads(
            win._dilate_shape(shape, base_dilation), win._dilate_shape(
                window_dimensions, window_dilation), window_strides, padding))
    params = win._window_params(window_dimensions, window_strides, padding,
                                base_dilation, window_dilation)
    monoid = win._monoid_of(computation, flat_inits[0]) if len(flat_ops) == 1 else None
    if monoid is not None:
        return tree_util.tree_unflatten(op_tree, [monoid.bind(flat_ops[0], **params)])
    flat_ops = [_as_value(x) for x in flat_ops]
    flat_inits = [_as_value(x) for x in flat_inits]
    closed, _ = _trace_scalar_fn(computation, flat_inits, init_tree, "reduce_window")
    outs = win.reduce_window_p.bind(*flat_ops, *flat_inits, jaxpr=closed.jaxpr,
                                    consts=tuple(closed.consts), **params)
    return tree_util.tree_unflatten(op_tree, outs)


# ---------------------------------------------------------------------------------------
# associative_scan

def _interleave(a, b, axis: int):
    """Elements of ``a`` at even positions and of ``b`` at odd ones: both padded with
    holes and added (bool: or-ed)."""
    a_len = core.get_aval(a).shape[axis]
    b_len = core.get_aval(b).shape[axis]
    nd = core.get_aval(a).ndim
    op_pad = [(0, 0, 0)] * nd
    other_pad = [(0, 0, 0)] * nd
    op_pad[axis] = (0, 1 if a_len == b_len else 0, 1)
    other_pad[axis] = (1, 0 if a_len == b_len else 1, 1)
    zero = np.array(0, core.get_aval(a).dtype)
    combine = bitwise_or if core.get_aval(a).dtype == np.bool_ else add
    return combine(pad(a, zero, op_pad), pad(b, zero, other_pad))


def associative_scan(fn, elems, reverse: bool = False, axis: int = 0):
    """All prefix combinations of ``elems`` along ``axis`` with the associative ``fn``
    (a parallel prefix scan: O(log n) depth).

    Parameters
    ----------
    fn : callable
        ``(a, b) -> c``, associative, on pytrees of arrays shaped like ``elems``' slices.
    elems : pytree of arrays
        Leaves of equal length along ``axis``.
    reverse : bool
        Scan from the end.
    axis : int

    Returns
    -------
    pytree of arrays
        Shaped like ``elems``.
    """
    if not callable(fn):
        raise TypeError("lax.associative_scan: fn argument should be callable.")
    flat, tree = tree_util.tree_flatten(elems)
    flat = [_as_value(x) for x in flat]
    if reverse:
        flat = [rev(x, (axis,)) for x in flat]
    nd = core.get_aval(flat[0]).ndim
    if not -nd <= axis < nd:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {nd}")
    axis = axis % nd
    n = core.get_aval(flat[0]).shape[axis]
    if any(core.get_aval(x).shape[axis] != n for x in flat[1:]):
        raise ValueError("Array inputs to associative_scan must have the same first "
                         f"dimension. (saw: {[core.get_aval(x).shape for x in flat]})")

    def combine(a, b):
        out = fn(tree_util.tree_unflatten(tree, a), tree_util.tree_unflatten(tree, b))
        return tree_util.tree_leaves(out)

    def strided(x, start, stop=None, step=1):
        return slice_in_dim(x, start, stop, step, axis)

    def scan(xs):
        m = core.get_aval(xs[0]).shape[axis]
        if m < 2:
            return xs
        odd = scan(combine([strided(x, 0, -1, 2) for x in xs],
                           [strided(x, 1, None, 2) for x in xs]))
        if m % 2 == 0:
            even = combine([strided(x, 0, -1) for x in odd],
                           [strided(x, 2, None, 2) for x in xs])
        else:
            even = combine(odd, [strided(x, 2, None, 2) for x in xs])
        even = [concatenate([strided(x, 0, 1), r], axis)
                for x, r in zip(xs, even, strict=True)]
        return [_interleave(e, o, axis) for e, o in zip(even, odd, strict=True)]

    out = scan(flat)
    if reverse:
        out = [rev(x, (axis,)) for x in out]
    return tree_util.tree_unflatten(tree, out)


# ---------------------------------------------------------------------------------------
# cumlogsumexp

cumlogsumexp_p = core.new_primitive("cumlogsumexp")


@cumlogsumexp_p.def_abstract_eval
def _cumlogsumexp_abstract(x, *, axis, reverse):
    if dtypes.kind(x.dtype) != "f":
        # JAX fails making the -inf identity in the operand's dtype
        raise OverflowError("cannot convert float infinity to integer")
    if axis < 0:
        raise ValueError("XLA operations do not allow negative axes")
    if axis >= x.ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of shape {x.shape}")
    return x


@cumlogsumexp_p.def_impl
def _cumlogsumexp_impl(x, *, axis, reverse):
    if x.size == 0:
        return x
    wide = np.promote_types(x.dtype, np.float32)
    y = np.flip(x, axis) if reverse else x
    # As the compiled loop under DAZ/FTZ (XLA:CPU's too): subnormal operands and results
    # read as zeros, and the first step is logaddexp(-inf, x) = x + 0.0 (so -0.0 -> 0.0).
    out = daz(np.logaddexp.accumulate(daz(y.astype(wide)), axis=axis))
    out[(slice(None),) * axis + (0,)] += wide.type(0)
    out = out.astype(x.dtype)
    return np.flip(out, axis) if reverse else out


def cumlogsumexp(operand, axis: int = 0, reverse: bool = False):
    """``log(cumsum(exp(operand)))`` along ``axis``, computed stably.

    Parameters
    ----------
    operand : array_like
        A floating-point array.
    axis : int
        Non-negative.
    reverse : bool
        Accumulate from the end of the axis.

    Returns
    -------
    Array
        Same shape and dtype.
    """
    return cumlogsumexp_p.bind(operand, axis=operator.index(axis), reverse=bool(reverse))

