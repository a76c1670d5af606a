"""Convolution geometry: dimension numbers (``ConvDimensionNumbers`` and the string
specs that name them), padding strings, and the output shapes of convolutions and
transposed convolutions, as ``lax`` exposes them. Shapes only: no primitive here."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["ConvDimensionNumbers", "conv_general_permutations", "conv_dimension_numbers",
           "padtype_to_pads", "conv_shape_tuple", "conv_general_shape_tuple",
           "conv_transpose_shape_tuple"]


class ConvDimensionNumbers(NamedTuple):
    """Axis numbers of a convolution's operands and result, in canonical order.

    ``lhs_spec``: (batch, feature, spatial...); ``rhs_spec``: (out feature, in feature,
    spatial...); ``out_spec``: (batch, feature, spatial...).
    """

    lhs_spec: tuple
    rhs_spec: tuple
    out_spec: tuple


# ---------------------------------------------------------------------------------------
# Dimension numbers and shapes

def conv_general_permutations(dimension_numbers):
    """The axis permutations ``(lhs_perm, rhs_perm, out_perm)`` named by three strings.

    Parameters
    ----------
    dimension_numbers : (str, str, str)
        Such as ``("NHWC", "HWIO", "NHWC")``: 'N'/'C' batch and feature of the input
        and output, 'O'/'I' output and input feature of the kernel, other letters the
        spatial axes (the same set in all three).

    Returns
    -------
    tuple of three tuples of int
    """
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    charpairs = (("N", "C"), ("O", "I"), ("N", "C"))
    for i, (a, b) in enumerate(charpairs):
        spec = dimension_numbers[i]
        if not spec.count(a) == spec.count(b) == 1:
            raise TypeError(f"convolution dimension_numbers[{i}] must contain the characters "
                            f"'{a}' and '{b}' exactly once, got {spec}.")
        if len(spec) != len(set(spec)):
            raise TypeError(f"convolution dimension_numbers[{i}] cannot have duplicate "
                            f"characters, got {spec}.")
    spatial_sets = [set(s) - set(p) for s, p in zip(dimension_numbers, charpairs,
                                                     strict=True)]
    if not spatial_sets[0] == spatial_sets[1] == spatial_sets[2]:
        raise TypeError("convolution dimension_numbers elements must each have the same set "
                        f"of spatial characters, got {tuple(dimension_numbers)}.")

    def perm(spec, pair):
        spatial = [i for i, c in enumerate(spec) if c not in pair]
        if spec is not rhs_spec:
            spatial.sort(key=lambda i: rhs_spec.index(spec[i]))
        return (spec.index(pair[0]), spec.index(pair[1])) + tuple(spatial)

    return tuple(perm(s, p) for s, p in zip(dimension_numbers, charpairs, strict=True))


def conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers) -> ConvDimensionNumbers:
    """``dimension_numbers`` (None, three strings, or ``ConvDimensionNumbers``) made canonical.

    Parameters
    ----------
    lhs_shape, rhs_shape : tuple of int
    dimension_numbers : None, (str, str, str) or ConvDimensionNumbers
        None means ``("NC...", "OI...", "NC...")``: every spec the identity.

    Returns
    -------
    ConvDimensionNumbers
    """
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        return dimension_numbers
    if len(lhs_shape) != len(rhs_shape):
        raise TypeError("convolution requires lhs and rhs ndim to be equal, got "
                        f"{len(lhs_shape)} and {len(rhs_shape)}.")
    if dimension_numbers is None:
        iota = tuple(range(len(lhs_shape)))
        return ConvDimensionNumbers(iota, iota, iota)
    if not isinstance(dimension_numbers, (list, tuple)):
        raise TypeError("convolution dimension_numbers must be tuple/list or None, got "
                        f"{type(dimension_numbers)}.")
    if len(dimension_numbers) != 3:
        raise TypeError("convolution dimension_numbers list/tuple must be length 3, got "
                        f"{len(dimension_numbers)}.")
    if not all(isinstance(s, str) for s in dimension_numbers):
        raise TypeError("convolution dimension_numbers elements must be strings, got "
                        f"{tuple(map(type, dimension_numbers))}.")
    for i, s in enumerate(dimension_numbers):
        if len(s) != len(lhs_shape):
            raise TypeError(f"convolution dimension_numbers[{i}] must have len equal to the "
                            f"ndim of lhs and rhs, got {len(s)} for lhs and rhs shapes "
                            f"{tuple(lhs_shape)} and {tuple(rhs_shape)}.")
    return ConvDimensionNumbers(*conv_general_permutations(dimension_numbers))


def padtype_to_pads(in_shape, window_shape, window_strides, padding):
    """``(low, high)`` pads per spatial axis for the padding named ``padding``.

    Parameters
    ----------
    in_shape, window_shape, window_strides : sequence of int
    padding : str
        ``"VALID"`` (none), ``"SAME"`` (output size ``ceil(in / stride)``, the odd
        element of padding at the end) or ``"SAME_LOWER"`` (the odd one at the start).

    Returns
    -------
    list of (int, int)
    """
    if isinstance(padding, str):
        kind = padding.upper()
        if kind not in ("VALID", "SAME", "SAME_LOWER"):
            raise RuntimeError("Unrecognized padding type: expected 'VALID', 'SAME', or "
                               f"'SAME_LOWER', got {padding}.")
    elif getattr(padding, "name", None) in ("VALID", "SAME", "SAME_LOWER"):
        kind = padding.name  # a PaddingType-like enum member
    else:
        raise TypeError(f"Unknown padding type: {padding}.")
    if kind == "VALID":
        return [(0, 0)] * len(in_shape)
    pads = []
    for d, w, s in zip(in_shape, window_shape, window_strides, strict=True):
        out = -(-int(d) // int(s))
        total = max((out - 1) * int(s) + int(w) - int(d), 0)
        small, big = total // 2, total - total // 2
        pads.append((small, big) if kind == "SAME" else (big, small))
    return pads


def _dilate(size: int, d: int) -> int:
    return 0 if size == 0 else 1 + d * (size - 1)


def _strided(size: int, window: int, stride: int) -> int:
    return 0 if size < window else (size - window) // stride + 1


def conv_shape_tuple(lhs_shape, rhs_shape, strides, pads, batch_group_count=1):
    """Output shape of a convolution of canonical-order (N, C, spatial...) shapes.

    Parameters
    ----------
    lhs_shape, rhs_shape : sequence of int
    strides : sequence of int
    pads : str or sequence of (int, int)
    batch_group_count : int

    Returns
    -------
    tuple of int
    """
    if isinstance(pads, str):
        pads = padtype_to_pads(lhs_shape[2:], rhs_shape[2:], strides, pads)
    if len(pads) != len(lhs_shape) - 2:
        raise TypeError("Wrong number of explicit pads for convolution: expected "
                        f"{len(lhs_shape) - 2}, got {len(pads)}.")
    padded = [int(d) + int(lo) + int(hi) for d, (lo, hi) in zip(lhs_shape[2:], pads,
                                                                strict=True)]
    if any(p < 0 for p in padded):
        raise ValueError("Negative padding is larger than the size of the corresponding "
                         f"dimension: got padding={pads} for "
                         f"lhs_shape[2:]={tuple(np.int64(d) for d in lhs_shape[2:])}")
    space = tuple(_strided(p, int(k), int(s))
                  for p, k, s in zip(padded, rhs_shape[2:], strides, strict=True))
    return (int(lhs_shape[0]) // batch_group_count, int(rhs_shape[0])) + space


def _take(shape, perm) -> tuple:
    return tuple(int(shape[p]) for p in perm)


def _untake(shape, perm) -> tuple:
    return tuple(int(shape[i]) for i in np.argsort(perm))


def conv_general_shape_tuple(lhs_shape, rhs_shape, window_strides, padding,
                             dimension_numbers):
    """Output shape of a convolution whose layouts three strings name.

    Parameters
    ----------
    lhs_shape, rhs_shape : sequence of int
    window_strides : sequence of int
    padding : str or sequence of (int, int)
    dimension_numbers : (str, str, str)

    Returns
    -------
    tuple of int
    """
    lp, rp, op = conv_general_permutations(dimension_numbers)
    out = conv_shape_tuple(_take(lhs_shape, lp), _take(rhs_shape, rp), window_strides,
                           padding)
    return _untake(out, op)


def _conv_transpose_padding(k: int, s: int, padding):
    if padding == "SAME":
        total = k + s - 2
        low = k - 1 if s > k - 1 else -(-total // 2)
    elif padding == "VALID":
        total = k + s - 2 + max(k - s, 0)
        low = k - 1
    elif isinstance(padding, tuple):
        pads = tuple(k - p - 1 for p in padding)
        low, total = pads[0], sum(pads)
    else:
        raise ValueError(f"Invalid padding mode: {padding}")
    return low, total - low


def conv_transpose_shape_tuple(lhs_shape, rhs_shape, window_strides, padding,
                               dimension_numbers):
    """Output shape of ``conv_transpose`` for layouts named by three strings.

    Parameters
    ----------
    lhs_shape, rhs_shape : sequence of int
    window_strides : sequence of int
    padding : str or sequence of (int, int)
    dimension_numbers : (str, str, str)

    Returns
    -------
    tuple of int
    """
    lp, rp, op = conv_general_permutations(dimension_numbers)
    lhs_t, rhs_t = _take(lhs_shape, lp), _take(rhs_shape, rp)
    if isinstance(padding, str):
        padding = [_conv_transpose_padding(k, s, padding)
                   for k, s in zip(rhs_t[2:], window_strides, strict=False)]
    totals = [int(np.sum(p)) for p in padding]
    space = [(i - 1) * s - k + 2 + p
             for i, k, s, p in zip(lhs_t[2:], rhs_t[2:], window_strides, totals,
                                   strict=False)]
    return _untake((lhs_t[0], rhs_t[0], *space), op)
