"""Batching rule of ``conv_general_dilated`` (``lax/convolution.py``), as JAX 0.10.2
writes it, so that ``make_jaxpr(vmap(f))`` prints the same equations: the vmapped axis
is folded into the convolution's own batch axis (a batched input), its output features
(a batched kernel), or its feature or batch groups (both batched), and split out of the
result's batch or feature axis afterwards.
"""
from __future__ import annotations

from .. import core
from ..interpreters.batching import not_mapped, primitive_batchers
from .convolution import conv_general_dilated, conv_general_dilated_p
from .convolution_ad import reshape_axis_into, reshape_axis_out_of
from .structural import full

__all__: list = []


def _conv_batch(vals, dims, *, window_strides, padding, lhs_dilation, rhs_dilation,
                dimension_numbers, feature_group_count, batch_group_count, precision,
                preferred_element_type, out_sharding):
    lhs, rhs = vals
    lhs_bdim, rhs_bdim = (None if d is not_mapped else d for d in dims)
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    lhs_shape, rhs_shape = core.get_aval(lhs).shape, core.get_aval(rhs).shape

    def conv(x, w, fgc, bgc):
        return conv_general_dilated(x, w, window_strides, padding, lhs_dilation,
                                    rhs_dilation, dimension_numbers, feature_group_count=fgc,
                                    batch_group_count=bgc, precision=precision,
                                    preferred_element_type=preferred_element_type)

    params = dict(window_strides=window_strides, padding=padding, lhs_dilation=lhs_dilation,
                  rhs_dilation=rhs_dilation, dimension_numbers=dimension_numbers,
                  feature_group_count=feature_group_count,
                  batch_group_count=batch_group_count, precision=precision,
                  preferred_element_type=preferred_element_type, out_sharding=out_sharding)
    if lhs_bdim is None and rhs_bdim is None:
        return conv_general_dilated_p.bind(lhs, rhs, **params), not_mapped
    if ((lhs_bdim is not None and lhs_shape[lhs_bdim] == 0)
            or (rhs_bdim is not None and rhs_shape[rhs_bdim] == 0)):
        unbatched = [core.ShapedArray(tuple(d for i, d in enumerate(s) if i != b), a.dtype)
                     for s, b, a in ((lhs_shape, lhs_bdim, core.get_aval(lhs)),
                                     (rhs_shape, rhs_bdim, core.get_aval(rhs)))]
        aval = conv_general_dilated_p.abstract_eval(*unbatched, **params)
        aval = aval[0] if isinstance(aval, tuple) else aval
        return full((0,) + tuple(aval.shape), 0, aval.dtype), 0
    if lhs_bdim is not None and rhs_bdim is not None:
        size = lhs_shape[lhs_bdim]
        fgc, bgc = feature_group_count, batch_group_count
        if bgc > 1:
            new_lhs = reshape_axis_into(lhs_bdim, lhs_spec[0], lhs)
            bgc *= size
        else:
            new_lhs = reshape_axis_into(lhs_bdim, lhs_spec[1], lhs)
            fgc *= size
        new_rhs = reshape_axis_into(rhs_bdim, rhs_spec[0], rhs)
        out = conv(new_lhs, new_rhs, fgc, bgc)
        return reshape_axis_out_of(out_spec[1], size, out), out_spec[1]
    if lhs_bdim is not None:
        size = lhs_shape[lhs_bdim]
        if batch_group_count == 1:
            new_lhs = reshape_axis_into(lhs_bdim, lhs_spec[0], lhs)
            out = conv(new_lhs, rhs, feature_group_count, 1)
        else:
            # The batch groups stay major: the vmapped axis goes inside each group.
            new_lhs = reshape_axis_out_of(lhs_spec[0] + int(lhs_bdim <= lhs_spec[0]),
                                          batch_group_count, lhs)
            new_lhs = reshape_axis_into(lhs_bdim + int(lhs_spec[0] < lhs_bdim),
                                        lhs_spec[0] + 1, new_lhs)
            new_lhs = reshape_axis_into(lhs_spec[0], lhs_spec[0], new_lhs)
            out = conv(new_lhs, rhs, feature_group_count, batch_group_count)
        return reshape_axis_out_of(out_spec[0], size, out), out_spec[0]
    size = rhs_shape[rhs_bdim]
    if feature_group_count == 1 and batch_group_count == 1:
        new_rhs = reshape_axis_into(rhs_bdim, rhs_spec[0], rhs)
        out = conv(lhs, new_rhs, 1, 1)
        return reshape_axis_out_of(out_spec[1], size, out), out_spec[1]
    # Groups must stay outermost in the kernel's output features (and the result's).
    groups = max(feature_group_count, batch_group_count)
    new_rhs = reshape_axis_out_of(rhs_spec[0] + int(rhs_bdim <= rhs_spec[0]), groups, rhs)
    new_rhs = reshape_axis_into(rhs_bdim + int(rhs_spec[0] < rhs_bdim), rhs_spec[0] + 1,
                                new_rhs)
    new_rhs = reshape_axis_into(rhs_spec[0], rhs_spec[0], new_rhs)
    out = conv(lhs, new_rhs, feature_group_count, batch_group_count)
    out = reshape_axis_out_of(out_spec[1], groups, out)
    out = reshape_axis_out_of(out_spec[1] + 1, size, out)
    out = reshape_axis_into(out_spec[1], out_spec[1] + 1, out)
    return out, out_spec[1]


primitive_batchers[conv_general_dilated_p] = _conv_batch
