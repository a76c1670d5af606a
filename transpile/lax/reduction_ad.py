"""Differentiation rules of the reductions (``lax/reduction.py``), as JAX 0.10.2 writes
them:

* ``reduce_sum`` and ``cumsum`` are linear (transposes: broadcast back; cumsum the other
  way);
* ``reduce_max``/``reduce_min`` spread the tangent evenly over the locations equal to
  the result;
* ``reduce_prod`` differentiates a balanced tree of multiplications (slices, a pad for
  odd lengths);
* ``cumprod``/``cummax``/``cummin`` differentiate a parallel prefix scan
  (``associative_scan``);
* the logical reductions and ``argmax``/``argmin`` have zero tangents.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..interpreters import ad
from ..interpreters.ad import Zero
from . import elementwise
from . import reduction as red
from .elementwise import convert_element_type, div, eq, mul
from .reduce_generic import associative_scan
from .slicing import pad, slice_in_dim
from .structural import _unchanged, broadcast_in_dim_p, full, reshape, squeeze

__all__ = ["associative_scan"]


def _reduce_sum_transpose(ct, operand, *, axes, out_sharding):
    shape = tuple(operand.aval.shape)
    # NumPy integers, as JAX's rule passes them (and prints them).
    dims = tuple(np.delete(np.arange(len(shape)), axes))
    if tuple(core.get_aval(ct).shape) == shape and dims == tuple(range(len(shape))):
        same = _unchanged(ct, numpy_too=True)
        if same is not None:
            return [same]
    return [broadcast_in_dim_p.bind(ct, shape=shape, broadcast_dimensions=dims,
                                    sharding=None)]


ad.deflinear2(red.reduce_sum_p, _reduce_sum_transpose)


def _eq_meet(a, b):
    a_dt, b_dt = core.get_aval(a).dtype, core.get_aval(b).dtype
    if a_dt != b_dt:
        if dtypes.promote_types(a_dt, b_dt) == a_dt:
            a = convert_element_type(a, b_dt)
        else:
            b = convert_element_type(b, a_dt)
    return eq(a, b)


def _reduce_chooser_jvp(g, ans, operand, *, axes):
    shape = [1 if i in axes else d for i, d in enumerate(core.get_aval(operand).shape)]
    where = convert_element_type(_eq_meet(operand, reshape(ans, shape)),
                                 core.get_aval(g).dtype)
    counts = red.reduce_sum(where, axes)
    return div(red.reduce_sum(mul(g, where), axes), counts)


ad.defjvp2(red.reduce_max_p, _reduce_chooser_jvp)
ad.defjvp2(red.reduce_min_p, _reduce_chooser_jvp)


def _reduce_prod_jvp(primals, tangents, *, axes):
    x, = primals
    shape = np.array(core.get_aval(x).shape, dtype=int)
    one = np.array(1, core.get_aval(x).dtype)
    n = int(np.prod(shape[list(axes)]))
    non_axes = np.delete(np.arange(len(shape)), axes)
    permutation = tuple(axes) + tuple(int(d) for d in non_axes)
    new_shape = (n,) + tuple(int(d) for d in shape[non_axes])

    def tree(x):
        # Multiply halves until one row is left (JAX vmaps a scalar ``mul`` here,
        # which traces to the same elementwise ``mul``).
        while core.get_aval(x).shape[0] > 1:
            m = core.get_aval(x).shape[0]
            n1 = (m + 1) // 2
            x1 = slice_in_dim(x, 0, n1)
            x2 = slice_in_dim(x, n1, None)
            if m - n1 != n1:
                paddings = [(0, 0, 0)] * core.get_aval(x).ndim
                paddings[0] = (0, 1, 0)
                x2 = pad(x2, one, paddings)
            x = mul(x1, x2)
        if core.get_aval(x).shape[0] == 0:
            return [full(new_shape[1:], one)]
        return [squeeze(x, (0,))]

    xs = reshape(x, new_shape, permutation)
    ts = [t if isinstance(t, Zero) else reshape(t, new_shape, permutation)
          for t in tangents]
    outs, t_outs = ad.jvp_flat(tree, [xs], ts)
    return outs[0], t_outs[0]


ad.jvp_rules[red.reduce_prod_p] = _reduce_prod_jvp

for _p in (red.reduce_and_p, red.reduce_or_p, red.reduce_xor_p, red.argmax_p,
           red.argmin_p):
    ad.defjvp_zero(_p)


# ---------------------------------------------------------------------------------------
# Cumulative reductions

ad.deflinear2(red.cumsum_p, lambda ct, operand, *, axis, reverse:
              [red.cumsum(ct, axis=axis, reverse=not reverse)])


def _cumulative_jvp(combine_name):
    def rule(primals, tangents, *, axis, reverse):
        fn = getattr(elementwise, combine_name)
        outs, t_outs = ad.jvp_flat(
            lambda x: [associative_scan(fn, x, reverse=reverse, axis=axis)],
            list(primals), list(tangents))
        return outs[0], t_outs[0]
    return rule


ad.jvp_rules[red.cumprod_p] = _cumulative_jvp("mul")
ad.jvp_rules[red.cummax_p] = _cumulative_jvp("max")
ad.jvp_rules[red.cummin_p] = _cumulative_jvp("min")
