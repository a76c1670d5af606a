"""``jnp.fft``: discrete Fourier transforms on ``lax.fft``, as JAX 0.10.2 writes them.

Each transform moves the axes it was asked for to the end (``moveaxis``), slices or
zero-pads them to the requested lengths, binds ``fft`` once inside a ``jit`` named
``fft`` (JAX's ``lax.fft`` is one) and scales the result for ``norm``.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from .. import dtypes, lax
from ..jit import internal_jit as jit
from ..lax.fft import FftType
from . import _util
from .creation import asarray
from .shape_extra import roll
from .shape_ops import moveaxis

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2",
           "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq",
           "fftshift", "ifftshift"]

_INVERSE = (FftType.IFFT, FftType.IRFFT)
_NORMS = (None, "backward", "ortho", "forward")


def _lax_fft_impl(x, fft_type, fft_lengths):
    return lax.fft(x, fft_type, fft_lengths)


_lax_fft_impl.__name__ = _lax_fft_impl.__qualname__ = "fft"
_lax_fft = jit(_lax_fft_impl, static_argnums=(1, 2))


def _scale(lengths, fft_type, norm):
    """The factor ``norm`` asks for (None for none)."""
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or '
                         '"forward".')
    if norm in (None, "backward"):
        return None
    n = float(math.prod(lengths))
    inverse = fft_type in _INVERSE
    if norm == "ortho":
        return math.sqrt(n) if inverse else 1.0 / math.sqrt(n)
    return n if inverse else 1.0 / n


def _resize(arr, axes, sizes):
    """``arr`` sliced or zero-padded along ``axes`` to ``sizes``."""
    shape = tuple(_util.aval(arr).shape)
    limits = list(shape)
    for ax, n in zip(axes, sizes, strict=True):
        limits[ax] = min(shape[ax], n)
    if tuple(limits) != shape:
        arr = lax.slice(arr, (0,) * len(shape), tuple(limits))
    pads = [(0, 0, 0)] * len(shape)
    for ax, n in zip(axes, sizes, strict=True):
        pads[ax] = (0, n - limits[ax], 0)
    if any(p[1] for p in pads):
        zero = np.zeros((), _util.aval(arr).dtype)
        arr = lax.pad(arr, zero, pads)
    return arr


def _core(name, fft_type, a, s, axes, norm):
    """The n-dimensional transform shared by every name."""
    _scale((1,), fft_type, norm)  # a bad norm fails first
    arr = asarray(a)
    ndim = _util.aval(arr).ndim
    if s is not None:
        s = tuple(operator.index(n) for n in s)
        if any(n < 1 for n in s):
            raise ValueError("Shape should be positive.")
    if s is not None and axes is not None and len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    given = axes
    if axes is None:
        axes = tuple(range(ndim)) if s is None else tuple(range(ndim - len(s), ndim))
    axes = tuple(_util.canonicalize_axis(ax, ndim) for ax in axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f"jax.numpy.fft.{name} does not support repeated axes. Got axes "
                         f"{tuple(given)}.")
    last = tuple(range(ndim - len(axes), ndim))
    if given is not None and axes != last:
        arr = moveaxis(arr, axes, last)
    shape = tuple(_util.aval(arr).shape)
    if s is None:
        lengths = [shape[ax] for ax in last]
        if fft_type == FftType.IRFFT and lengths:
            lengths[-1] = 2 * (lengths[-1] - 1)
    else:
        lengths = list(s)
        sizes = list(s)
        if fft_type == FftType.IRFFT:
            sizes[-1] = s[-1] // 2 + 1
        arr = _resize(arr, last, sizes)
    if fft_type == FftType.IRFFT and lengths and lengths[-1] < 1:
        raise ValueError(f"jax.numpy.fft.{name}: the last axis gives an output length "
                         f"{lengths[-1]}; pass n (or s) >= 1.")
    factor = _scale(lengths, fft_type, norm)
    out = _lax_fft(arr, fft_type, tuple(lengths)) if lengths else asarray(arr)
    if factor is not None:
        out = out * np.asarray(factor, _util.aval(out).dtype)
    if given is not None and axes != last:
        out = moveaxis(out, last, axes)
    return out


def _one_axis(name, axis):
    if isinstance(axis, (tuple, list)):
        raise ValueError(f"jax.numpy.fft.{name} does not support multiple axes. Please "
                         f"use jax.numpy.fft.{name}n. Got axis = {axis}.")
    return (axis,)


def _two_axes(name, axes):
    if len(axes) != 2:
        raise ValueError(f"jax.numpy.fft.{name} only supports 2 axes. Got axes = "
                         f"{tuple(axes)}.")
    return axes


def _1d(name, fft_type, a, n, axis, norm):
    return _core(name, fft_type, a, None if n is None else (n,), _one_axis(name, axis),
                 norm)


def fft(a, n=None, axis=-1, norm=None):
    """One-dimensional discrete Fourier transform along ``axis`` (``n``: the length
    the axis is cut or zero-padded to; ``norm``: "backward", "ortho" or "forward")."""
    return _1d("fft", FftType.FFT, a, n, axis, norm)


def ifft(a, n=None, axis=-1, norm=None):
    """Inverse of :func:`fft`."""
    return _1d("ifft", FftType.IFFT, a, n, axis, norm)


def rfft(a, n=None, axis=-1, norm=None):
    """Transform of real input along ``axis``: the ``n//2 + 1`` non-negative
    frequencies."""
    return _1d("rfft", FftType.RFFT, a, n, axis, norm)


def irfft(a, n=None, axis=-1, norm=None):
    """Inverse of :func:`rfft`: ``n`` (default ``2 * (m - 1)``) real values."""
    return _1d("irfft", FftType.IRFFT, a, n, axis, norm)


def _swap(norm):
    """The norm of the opposite direction (a Hermitian transform is the inverse real
    one of the conjugate)."""
    if norm not in _NORMS:
        _scale((1,), FftType.FFT, norm)
    return {None: "forward", "backward": "forward", "forward": "backward"}.get(norm, norm)


def hfft(a, n=None, axis=-1, norm=None):
    """Transform of a Hermitian-symmetric signal given by its first half: real
    ``n`` values (default ``2 * (m - 1)``)."""
    conj_a = lax.conj(asarray(a)) if dtypes.is_complex(_util.aval(asarray(a)).dtype) \
        else asarray(a)
    return _1d("hfft", FftType.IRFFT, conj_a, n, axis, _swap(norm))


def ihfft(a, n=None, axis=-1, norm=None):
    """Inverse of :func:`hfft`: the ``n//2 + 1`` first values of the Hermitian
    spectrum of a real signal."""
    return lax.conj(_1d("ihfft", FftType.RFFT, a, n, axis, _swap(norm)))


def fftn(a, s=None, axes=None, norm=None):
    """N-dimensional transform over ``axes`` (default: all, or the last ``len(s)``)."""
    return _core("fftn", FftType.FFT, a, s, axes, norm)


def ifftn(a, s=None, axes=None, norm=None):
    """Inverse of :func:`fftn`."""
    return _core("ifftn", FftType.IFFT, a, s, axes, norm)


def rfftn(a, s=None, axes=None, norm=None):
    """N-dimensional transform of real input (the last axis halved)."""
    return _core("rfftn", FftType.RFFT, a, s, axes, norm)


def irfftn(a, s=None, axes=None, norm=None):
    """Inverse of :func:`rfftn`."""
    return _core("irfftn", FftType.IRFFT, a, s, axes, norm)


def fft2(a, s=None, axes=(-2, -1), norm=None):
    """Two-dimensional transform over ``axes``."""
    return _core("fft2", FftType.FFT, a, s, _two_axes("fft2", axes), norm)


def ifft2(a, s=None, axes=(-2, -1), norm=None):
    """Inverse of :func:`fft2`."""
    return _core("ifft2", FftType.IFFT, a, s, _two_axes("ifft2", axes), norm)


def rfft2(a, s=None, axes=(-2, -1), norm=None):
    """Two-dimensional transform of real input."""
    return _core("rfft2", FftType.RFFT, a, s, _two_axes("rfft2", axes), norm)


def irfft2(a, s=None, axes=(-2, -1), norm=None):
    """Inverse of :func:`rfft2`."""
    return _core("irfft2", FftType.IRFFT, a, s, _two_axes("irfft2", axes), norm)


def _freq_dtype(dtype):
    return dtypes.canonicalize_dtype(dtypes.float64 if dtype is None else dtype)


def fftfreq(n, d=1.0, *, dtype=None, device=None):
    """Sample frequencies of :func:`fft` for ``n`` samples spaced ``d`` apart."""
    n = operator.index(n)
    k = np.concatenate([np.arange(0, (n - 1) // 2 + 1), np.arange(-(n // 2), 0)])
    return asarray(k, _freq_dtype(dtype)) / (asarray(d, _freq_dtype(dtype)) * n)


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    """Sample frequencies of :func:`rfft` for ``n`` samples spaced ``d`` apart."""
    n = operator.index(n)
    k = np.arange(0, n // 2 + 1)
    return asarray(k, _freq_dtype(dtype)) / (asarray(d, _freq_dtype(dtype)) * n)


def _shift(x, axes, sign):
    x = asarray(x)
    shape = _util.aval(x).shape
    if axes is None:
        axes = tuple(range(len(shape)))
    elif isinstance(axes, int):
        axes = (axes,)
    shifts = tuple(sign * (shape[ax] // 2) for ax in axes)
    return roll(x, shifts, tuple(axes))


def fftshift(x, axes=None):
    """``x`` with the zero frequency moved to the centre of ``axes`` (default all)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    """Inverse of :func:`fftshift`."""
    return _shift(x, axes, -1)
