"""Differentiation rules of ``conv_general_dilated`` (``lax/convolution.py``), as JAX
0.10.2 writes them: bilinear (the JVP is the convolution with one tangent at a time),
each transpose a convolution with swapped dimension numbers.

In canonical terms (m batch, j input feature, k output feature) the forward is
``[m, j] [j, k] -> [m, k]`` per window position; the lhs transpose is ``[m, k] [k, j]``
(the kernel reversed in space, its feature axes swapped, strides become input
dilation) and the rhs transpose is ``[j, m] [m, k]`` (the batch contracted, strides
become kernel dilation). Feature groups turn into batch groups on the rhs side and
back; on the lhs side the group moves from the kernel's output to its input features.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..interpreters import ad
from ..interpreters.ad import Zero, is_undefined_primal
from .convolution import (ConvDimensionNumbers, _dilate, conv_general_dilated,
                          conv_general_dilated_p)
from .elementwise import convert_element_type
from .structural import reshape, rev

__all__: list = []


def _swap01(spec) -> tuple:
    return (spec[1], spec[0]) + tuple(spec[2:])


def reshape_axis_into(src: int, dst: int, x):
    """Merge axis ``src`` of ``x`` into axis ``dst`` (numbered without ``src``), as the
    major part."""
    shape = core.get_aval(x).shape
    perm = [i for i in range(len(shape)) if i != src]
    perm.insert(dst, src)
    new = [d for i, d in enumerate(shape) if i != src]
    new[dst] *= shape[src]
    return reshape(x, tuple(new), tuple(perm))


def reshape_axis_out_of(src: int, size1: int, x):
    """Split axis ``src`` of ``x`` into ``(size1, rest)``."""
    shape = list(core.get_aval(x).shape)
    shape[src:src + 1] = [size1, shape[src] // size1]
    return reshape(x, tuple(shape))


def _lhs_padding(in_space, window, strides, out_space, padding, lhs_dilation, rhs_dilation):
    lhs_d = [_dilate(d, k) for d, k in zip(in_space, lhs_dilation, strict=True)]
    rhs_d = [_dilate(d, k) for d, k in zip(window, rhs_dilation, strict=True)]
    out_d = [_dilate(d, k) for d, k in zip(out_space, strides, strict=True)]
    before = [r - lo - 1 for r, (lo, _) in zip(rhs_d, padding, strict=True)]
    after = [ld + r - 1 - od - b for ld, r, od, b in zip(lhs_d, rhs_d, out_d, before,
                                                          strict=True)]
    return tuple(zip(before, after, strict=True))


def _rhs_padding(in_space, window, strides, out_space, padding, lhs_dilation, rhs_dilation):
    if not in_space:
        return ()
    lhs_d = [_dilate(d, k) for d, k in zip(in_space, lhs_dilation, strict=True)]
    rhs_d = [_dilate(d, k) for d, k in zip(window, rhs_dilation, strict=True)]
    out_d = [_dilate(d, k) for d, k in zip(out_space, strides, strict=True)]
    lows = [lo for lo, _ in padding]
    highs = [od - ld + r - lo - 1 for od, ld, r, lo in zip(out_d, lhs_d, rhs_d, lows,
                                                            strict=True)]
    return tuple(zip(lows, highs, strict=True))


def _transpose_lhs(g, lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation,
                   dimension_numbers, feature_group_count, batch_group_count, precision,
                   preferred_element_type, out_sharding):
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    lhs_aval = lhs.aval
    rhs_shape = core.get_aval(rhs).shape
    g_shape = core.get_aval(g).shape
    groups = feature_group_count
    if feature_group_count > 1 or batch_group_count > 1:
        # The group moves from the kernel's output features to its input features.
        groups = max(feature_group_count, batch_group_count)
        rhs = reshape_axis_out_of(rhs_spec[0], groups, rhs)
        rhs = reshape_axis_into(rhs_spec[0], rhs_spec[1], rhs)
    trans_dn = ConvDimensionNumbers(out_spec, _swap01(rhs_spec), lhs_spec)
    pads = _lhs_padding([lhs_aval.shape[i] for i in lhs_spec[2:]],
                        [rhs_shape[i] for i in rhs_spec[2:]], window_strides,
                        [g_shape[i] for i in out_spec[2:]], padding, lhs_dilation,
                        rhs_dilation)
    kernel = rev(rhs, rhs_spec[2:])
    if core.get_aval(kernel).dtype != core.get_aval(g).dtype:
        kernel = convert_element_type(kernel, core.get_aval(g).dtype)
    out = conv_general_dilated(g, kernel, window_strides=lhs_dilation, padding=pads,
                               lhs_dilation=window_strides, rhs_dilation=rhs_dilation,
                               dimension_numbers=trans_dn, feature_group_count=groups,
                               batch_group_count=1, precision=precision,
                               preferred_element_type=preferred_element_type)
    if core.get_aval(out).dtype != lhs_aval.dtype:
        out = convert_element_type(out, lhs_aval.dtype)
    if batch_group_count > 1:
        out = reshape_axis_out_of(lhs_spec[1], batch_group_count, out)
        out = reshape_axis_into(lhs_spec[1], lhs_spec[0], out)
    return out


def _transpose_rhs(g, lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation,
                   dimension_numbers, feature_group_count, batch_group_count, precision,
                   preferred_element_type, out_sharding):
    g_shape = core.get_aval(g).shape
    rhs_aval = rhs.aval
    if int(np.prod(g_shape, dtype=np.int64)) == 0:
        return Zero(rhs_aval)
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    lhs_shape = core.get_aval(lhs).shape
    # Feature groups become batch groups (the batch is contracted) and back.
    fgc, bgc = batch_group_count, feature_group_count
    if fgc > 1:
        bgc = 1
    elif bgc > 1:
        fgc = 1
    trans_dn = ConvDimensionNumbers(_swap01(lhs_spec), _swap01(out_spec), _swap01(rhs_spec))
    pads = _rhs_padding([lhs_shape[i] for i in lhs_spec[2:]],
                        [rhs_aval.shape[i] for i in rhs_spec[2:]], window_strides,
                        [g_shape[i] for i in out_spec[2:]], padding, lhs_dilation,
                        rhs_dilation)
    if core.get_aval(lhs).dtype != core.get_aval(g).dtype:
        lhs = convert_element_type(lhs, core.get_aval(g).dtype)
    out = conv_general_dilated(lhs, g, window_strides=rhs_dilation, padding=pads,
                               lhs_dilation=lhs_dilation, rhs_dilation=window_strides,
                               dimension_numbers=trans_dn, feature_group_count=fgc,
                               batch_group_count=bgc, precision=precision,
                               preferred_element_type=preferred_element_type)
    if core.get_aval(out).dtype != rhs_aval.dtype:
        out = convert_element_type(out, rhs_aval.dtype)
    return out


def _conv_transpose_rule(cts, lhs, rhs, **params):
    ct, = cts
    if isinstance(ct, Zero):
        return [None, None]
    if is_undefined_primal(lhs):
        return [_transpose_lhs(ct, lhs, rhs, **params), None]
    out = _transpose_rhs(ct, lhs, rhs, **params)
    return [None, None if isinstance(out, Zero) else out]


ad.defjvp(conv_general_dilated_p,
          lambda g, x, y, **kw: conv_general_dilated_p.bind(g, y, **kw),
          lambda g, x, y, **kw: conv_general_dilated_p.bind(x, g, **kw))
ad.transpose_rules[conv_general_dilated_p] = _conv_transpose_rule
