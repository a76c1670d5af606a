"""``conv_general_dilated``: the convolution primitive, and lax's wrappers around it.

``dimension_numbers`` is a ``ConvDimensionNumbers(lhs_spec, rhs_spec, out_spec)``: each
spec lists axis numbers in the canonical order (batch, feature, spatial...) for the
input and output and (out feature, in feature, spatial...) for the kernel. The spatial
axes are ordered as the kernel string names them, so ``window_strides[i]`` goes with
the ``i``-th spatial letter of ``rhs_spec``.

The computation, in canonical layout: the input is dilated by ``lhs_dilation`` (zeros
between elements), padded by ``padding`` (negative pads crop), and correlated (no
kernel flip) with the kernel dilated by ``rhs_dilation``, at ``window_strides``.
``feature_group_count`` G splits the input features and the output features into G
groups convolved separately (G = C is depthwise); ``batch_group_count`` B splits the
input batch into B major groups, each producing a slice of the output features.
"""
from __future__ import annotations

import itertools
import operator

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ._base import check_same_dtypes
from .conv_shapes import (ConvDimensionNumbers, _conv_transpose_padding, _dilate, _strided,
                          _take, _untake, conv_dimension_numbers, conv_general_permutations,
                          conv_general_shape_tuple, conv_shape_tuple,
                          conv_transpose_shape_tuple, padtype_to_pads)
from .contraction import _canonical_precision
from .elementwise import convert_values
from .structural import rev, transpose

__all__ = ["ConvDimensionNumbers", "conv_dimension_numbers", "conv_general_permutations",
           "conv_general_shape_tuple", "conv_shape_tuple", "conv_transpose_shape_tuple",
           "padtype_to_pads", "conv", "conv_with_general_padding", "conv_general_dilated",
           "conv_transpose", "conv_general_dilated_patches", "conv_general_dilated_p"]


# ---------------------------------------------------------------------------------------
# The primitive

conv_general_dilated_p = core.new_primitive("conv_general_dilated")


def _check_groups(lhs, rhs, dn, feature_group_count, batch_group_count):
    fgc, bgc = feature_group_count, batch_group_count
    if not fgc > 0:
        raise ValueError("conv_general_dilated feature_group_count must be a positive "
                         f"integer, got {fgc}.")
    lhs_features = lhs.shape[dn.lhs_spec[1]]
    quot, rem = divmod(lhs_features, fgc)
    if rem:
        raise ValueError("conv_general_dilated feature_group_count must divide lhs feature "
                         f"dimension size, but {fgc} does not divide {lhs_features}.")
    rhs_in, rhs_out = rhs.shape[dn.rhs_spec[1]], rhs.shape[dn.rhs_spec[0]]
    if quot != rhs_in:
        raise ValueError("conv_general_dilated lhs feature dimension size divided by "
                         "feature_group_count must equal the rhs input feature dimension "
                         f"size, but {lhs_features} // {fgc} != {rhs_in}.")
    if rhs_out % fgc:
        raise ValueError("conv_general_dilated rhs output feature dimension size must be a "
                         f"multiple of feature_group_count, but {rhs_out} is not a multiple "
                         f"of {fgc}.")
    if not bgc > 0:
        raise ValueError("conv_general_dilated batch_group_count must be a positive "
                         f"integer, got {bgc}.")
    lhs_batch = lhs.shape[dn.lhs_spec[0]]
    if bgc > 1 and lhs_batch % bgc:
        raise ValueError("conv_general_dilated batch_group_count must divide lhs batch "
                         f"dimension size, but {bgc} does not divide {lhs_batch}.")
    if rhs_out % bgc:
        raise ValueError("conv_general_dilated rhs output feature dimension size must be a "
                         f"multiple of batch_group_count, but {rhs_out} is not a multiple "
                         f"of {bgc}.")
    if bgc > 1 and fgc > 1:
        raise ValueError("At most one of batch_group_count and feature_group_count may be > "
                         f"1, got batch_group_count={bgc} and feature_group_count={fgc}")


def _result_dtype(lhs, rhs, preferred_element_type) -> np.dtype:
    dtype = check_same_dtypes("conv_general_dilated", (lhs, rhs))
    if preferred_element_type is None:
        return dtype
    pref = np.dtype(preferred_element_type)
    in_kind, pref_kind = dtypes.kind(dtype), dtypes.kind(pref)
    if in_kind in "iu" and pref_kind not in "iuf" or in_kind == "f" and pref_kind != "f":
        raise TypeError(
            "Input type is incompatible with `preferred_element_type`. The compatible "
            "combinations of (input_type, preferred_element_type) are (integral, integral), "
            "(integral, floating), (floating, floating), (complex, complex.")
    if dtype.itemsize > pref.itemsize:
        raise TypeError("`preferred_element_type` must not be narrower than the original "
                        "type.")
    return pref


@conv_general_dilated_p.def_abstract_eval
def _conv_abstract(lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation,
                   dimension_numbers, feature_group_count, batch_group_count, precision,
                   preferred_element_type, out_sharding):
    dn = dimension_numbers
    if lhs.ndim != rhs.ndim:
        raise ValueError("conv_general_dilated lhs and rhs must have the same number of "
                         f"dimensions, but got {lhs.shape} and {rhs.shape}.")
    _check_groups(lhs, rhs, dn, feature_group_count, batch_group_count)
    if len(dn.rhs_spec) - 2 != len(window_strides):
        raise ValueError("conv_general_dilated window and window_strides must have the same "
                         f"number of dimensions, but got {len(dn.rhs_spec) - 2} and "
                         f"{len(window_strides)}")
    lhs_t = _take(lhs.shape, dn.lhs_spec)
    rhs_t = _take(rhs.shape, dn.rhs_spec)
    lhs_t = lhs_t[:2] + tuple(_dilate(d, k) for d, k in zip(lhs_t[2:], lhs_dilation,
                                                             strict=True))
    rhs_t = rhs_t[:2] + tuple(_dilate(d, k) for d, k in zip(rhs_t[2:], rhs_dilation,
                                                             strict=True))
    out_t = conv_shape_tuple(lhs_t, rhs_t, window_strides, padding, batch_group_count)
    dtype = _result_dtype(lhs, rhs, preferred_element_type)
    return ShapedArray(_untake(out_t, dn.out_spec), dtype, lhs.weak_type and rhs.weak_type)


def _dilate_values(x: np.ndarray, dilation, first_axis: int) -> np.ndarray:
    if all(d == 1 for d in dilation):
        return x
    shape = list(x.shape)
    index = [slice(None)] * x.ndim
    for i, d in enumerate(dilation):
        shape[first_axis + i] = _dilate(shape[first_axis + i], d)
        index[first_axis + i] = slice(None, None, d)
    out = np.zeros(shape, x.dtype)
    out[tuple(index)] = x
    return out


def _pad_values(x: np.ndarray, padding) -> np.ndarray:
    """Pad the spatial axes (2...) by ``padding``; negative pads crop."""
    crop = [slice(None)] * 2 + [slice(max(-lo, 0), x.shape[2 + i] - max(-hi, 0))
                                for i, (lo, hi) in enumerate(padding)]
    x = x[tuple(crop)]
    widths = [(0, 0)] * 2 + [(max(lo, 0), max(hi, 0)) for lo, hi in padding]
    return np.pad(x, widths)


def _compute_dtype(dtype: np.dtype) -> np.dtype:
    # Floats accumulate in float64 (the reference); integers wrap in int64, which
    # narrows to the result dtype modulo its width as XLA's wrapping arithmetic does.
    return np.dtype(np.float64) if dtypes.is_float(dtype) else np.dtype(np.int64)


def canonical_conv(x: np.ndarray, w: np.ndarray, *, window_strides, padding, lhs_dilation,
                   rhs_dilation, feature_group_count, batch_group_count) -> np.ndarray:
    """The convolution of canonical-layout (N, C, sp...) ``x`` and (O, I, sp...) ``w``."""
    x = _pad_values(_dilate_values(x, lhs_dilation, 2), padding)
    w = _dilate_values(w, rhs_dilation, 2)
    n, c = x.shape[:2]
    o = w.shape[0]
    g, b = feature_group_count, batch_group_count
    out_space = tuple(_strided(p, k, s) for p, k, s in zip(x.shape[2:], w.shape[2:],
                                                            window_strides, strict=True))
    xg = x.reshape((b, n // b, g, c // g) + x.shape[2:])
    wg = w.reshape((b, g, o // (b * g), w.shape[1]) + w.shape[2:])
    acc = np.zeros((n // b, b, g, o // (b * g)) + out_space, x.dtype)
    if 0 not in acc.shape:
        for k in itertools.product(*(range(d) for d in w.shape[2:])):
            window = tuple(slice(j, j + s * (m - 1) + 1, s)
                           for j, s, m in zip(k, window_strides, out_space, strict=True))
            patch = xg[(Ellipsis,) + window]
            acc += np.einsum("bngc...,bgoc->nbgo...", patch, wg[(Ellipsis,) + k])
    return acc.reshape((n // b, o) + out_space)


@conv_general_dilated_p.def_impl
def _conv_impl(lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation,
               dimension_numbers, feature_group_count, batch_group_count, precision,
               preferred_element_type, out_sharding):
    dn = dimension_numbers
    out_dtype = np.dtype(preferred_element_type or lhs.dtype)
    compute = _compute_dtype(out_dtype)
    x = np.transpose(np.asarray(lhs), dn.lhs_spec).astype(compute)
    w = np.transpose(np.asarray(rhs), dn.rhs_spec).astype(compute)
    out = canonical_conv(x, w, window_strides=window_strides, padding=padding,
                         lhs_dilation=lhs_dilation, rhs_dilation=rhs_dilation,
                         feature_group_count=feature_group_count,
                         batch_group_count=batch_group_count)
    out = np.transpose(out, np.argsort(dn.out_spec))
    if out_dtype == np.bool_:
        return out != 0
    if dtypes.is_float(out_dtype):
        return convert_values(out, out_dtype)
    return out.astype(out_dtype)


# ---------------------------------------------------------------------------------------
# The lax API

def _int_pairs(padding) -> tuple:
    try:
        return tuple((operator.index(lo), operator.index(hi)) for lo, hi in padding)
    except (ValueError, TypeError) as e:
        raise ValueError("padding argument to conv_general_dilated should be a string or a "
                         f"sequence of (low, high) pairs, got {padding}") from e


def conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=None,
                         rhs_dilation=None, dimension_numbers=None, feature_group_count=1,
                         batch_group_count=1, precision=None, preferred_element_type=None,
                         out_sharding=None):
    """General n-dimensional convolution with dilations, padding and groups.

    Parameters
    ----------
    lhs : array_like
        The input, rank n + 2.
    rhs : array_like
        The kernel, rank n + 2.
    window_strides : sequence of int
        n strides.
    padding : str or sequence of (int, int)
        ``"SAME"``, ``"SAME_LOWER"``, ``"VALID"`` or n ``(low, high)`` pairs.
    lhs_dilation, rhs_dilation : sequence of int, optional
        Input (transposed convolution) and kernel (atrous) dilation factors.
    dimension_numbers : None, (str, str, str) or ConvDimensionNumbers
        Layouts such as ``("NCHW", "OIHW", "NCHW")`` or ``("NHWC", "HWIO", "NHWC")``.
    feature_group_count, batch_group_count : int
        Grouped (e.g. depthwise) convolution over features, or over the batch.
    precision : optional
        Recorded in the jaxpr only.
    preferred_element_type : dtype-like, optional
        The result (and accumulation) dtype.
    out_sharding : None
        Accepted for compatibility; only None is supported.

    Returns
    -------
    Array
    """
    if out_sharding is not None:
        raise NotImplementedError("transpile does not support shardings; pass None")
    lhs_shape, rhs_shape = core.get_aval(lhs).shape, core.get_aval(rhs).shape
    dn = conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)
    nsp = len(rhs_shape) - 2
    if lhs_dilation is None:
        lhs_dilation = (1,) * nsp
    elif isinstance(padding, str) and any(d != 1 for d in lhs_dilation):
        raise ValueError("String padding is not implemented for transposed convolution using "
                         "this op. Please either exactly specify the required padding or use "
                         "conv_transpose.")
    if rhs_dilation is None:
        rhs_dilation = (1,) * nsp
    if isinstance(padding, str):
        kernel = [_dilate(k, r) for k, r in zip(_take(rhs_shape, dn.rhs_spec)[2:],
                                                rhs_dilation, strict=False)]
        padding = padtype_to_pads(_take(lhs_shape, dn.lhs_spec)[2:], kernel,
                                  window_strides, padding)
    padding = _int_pairs(padding)
    if preferred_element_type is not None:
        preferred_element_type = dtypes.canonicalize_dtype(
            preferred_element_type, warn_name="conv_general_dilated")
    return conv_general_dilated_p.bind(
        lhs, rhs, window_strides=tuple(operator.index(s) for s in window_strides),
        padding=padding, lhs_dilation=tuple(operator.index(d) for d in lhs_dilation),
        rhs_dilation=tuple(operator.index(d) for d in rhs_dilation), dimension_numbers=dn,
        feature_group_count=operator.index(feature_group_count),
        batch_group_count=operator.index(batch_group_count),
        precision=_canonical_precision(precision),
        preferred_element_type=preferred_element_type, out_sharding=None)


def conv(lhs, rhs, window_strides, padding, precision=None, preferred_element_type=None):
    """``conv_general_dilated`` in NCHW/OIHW layout without dilation.

    Parameters
    ----------
    lhs, rhs : array_like
    window_strides : sequence of int
    padding : str
        ``"SAME"`` or ``"VALID"``.
    precision, preferred_element_type
        As for ``conv_general_dilated``.

    Returns
    -------
    Array
    """
    return conv_general_dilated(lhs, rhs, window_strides, padding, precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_with_general_padding(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation,
                              precision=None, preferred_element_type=None):
    """``conv_general_dilated`` in NCHW/OIHW layout with padding and dilations.

    Parameters
    ----------
    lhs, rhs : array_like
    window_strides : sequence of int
    padding : str or sequence of (int, int)
    lhs_dilation, rhs_dilation : sequence of int or None
    precision, preferred_element_type
        As for ``conv_general_dilated``.

    Returns
    -------
    Array
    """
    return conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=lhs_dilation,
                                rhs_dilation=rhs_dilation, precision=precision,
                                preferred_element_type=preferred_element_type)


_TRANSPOSE_DEFAULTS = {2: ("NC", "IO", "NC"), 3: ("NHC", "HIO", "NHC"),
                       4: ("NHWC", "HWIO", "NHWC"), 5: ("NHWDC", "HWDIO", "NHWDC")}


def conv_transpose(lhs, rhs, strides, padding, rhs_dilation=None, dimension_numbers=None,
                   transpose_kernel=False, precision=None, preferred_element_type=None,
                   use_consistent_padding=False):
    """Transposed (fractionally strided) convolution, as Keras' ``Conv2DTranspose``.

    Parameters
    ----------
    lhs, rhs : array_like
        Input and kernel, rank n + 2.
    strides : sequence of int
        The fractional strides (the lhs dilation of the underlying convolution).
    padding : str or sequence of (int, int)
        ``"SAME"``/``"VALID"`` name the forward convolution's padding; pairs are the
        transposed convolution's own padding unless ``use_consistent_padding``.
    rhs_dilation : sequence of int, optional
    dimension_numbers : optional
        Defaults to channels-last (``"NHWC", "HWIO", "NHWC"`` in 2D).
    transpose_kernel : bool
        Flip the kernel's spatial axes and swap its feature axes (the gradient of a
        forward convolution with the same kernel).
    precision, preferred_element_type
        As for ``conv_general_dilated``.
    use_consistent_padding : bool
        Read pairs as the forward convolution's padding too.

    Returns
    -------
    Array
    """
    lhs_shape, rhs_shape = core.get_aval(lhs).shape, core.get_aval(rhs).shape
    ndim = len(lhs_shape)
    if dimension_numbers is None:
        if ndim not in _TRANSPOSE_DEFAULTS:
            raise ValueError("No 4+ dimensional dimension_number defaults.")
        dimension_numbers = _TRANSPOSE_DEFAULTS[ndim]
    dn = conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)
    k_space = _take(rhs_shape, dn.rhs_spec)[2:]
    if rhs_dilation is None:
        rhs_dilation = (1,) * (ndim - 2)
    if use_consistent_padding or (isinstance(padding, str) and padding in ("SAME", "VALID")):
        per_axis = [padding] * len(strides) if isinstance(padding, str) else padding
        pads = tuple(_conv_transpose_padding(_dilate(k, r), s, tuple(p) if isinstance(
            p, list) else p) for k, r, s, p in zip(k_space, rhs_dilation, strides, per_axis,
                                                   strict=False))
    else:
        pads = padding
    if transpose_kernel:
        rhs = rev(rhs, dn.rhs_spec[2:])
        perm = list(range(ndim))
        perm[dn.rhs_spec[0]], perm[dn.rhs_spec[1]] = dn.rhs_spec[1], dn.rhs_spec[0]
        rhs = transpose(rhs, tuple(perm))
    return conv_general_dilated(lhs, rhs, (1,) * (ndim - 2), pads, strides, rhs_dilation, dn,
                                precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_general_dilated_patches(lhs, filter_shape, window_strides, padding, lhs_dilation=None,
                                 rhs_dilation=None, dimension_numbers=None, precision=None,
                                 preferred_element_type=None):
    """The patches a convolution with a kernel of ``filter_shape`` would multiply.

    Each output feature is one (input feature, kernel position) pair, input feature
    major: a depthwise convolution with a one-hot kernel per window position.

    Parameters
    ----------
    lhs : array_like
        The input, rank n + 2.
    filter_shape : sequence of int
        The n spatial sizes of the window.
    window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers
        As for ``conv_general_dilated`` (the kernel spec's layout only orders axes).
    precision, preferred_element_type
        As for ``conv_general_dilated``.

    Returns
    -------
    Array
        The feature axis has size ``C * prod(filter_shape)``.
    """
    aval = core.get_aval(lhs)
    filter_shape = tuple(operator.index(k) for k in filter_shape)
    dn = conv_dimension_numbers(aval.shape, (1, 1) + filter_shape, dimension_numbers)
    size = int(np.prod(filter_shape, dtype=np.int64))
    channels = aval.shape[dn.lhs_spec[1]]
    eye = np.broadcast_to(np.eye(size, dtype=aval.dtype), (channels, size, size))
    kernel = eye.reshape((channels * size, 1) + filter_shape)
    kernel = np.moveaxis(kernel, (0, 1), (dn.rhs_spec[0], dn.rhs_spec[1]))
    return conv_general_dilated(lhs, kernel, window_strides, padding, lhs_dilation,
                                rhs_dilation, dn, feature_group_count=channels,
                                precision=precision,
                                preferred_element_type=preferred_element_type)
