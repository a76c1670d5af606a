"""The ``fft`` primitive (JAX 0.10.2's ``lax.fft``) with all its rules.

``fft[fft_type, fft_lengths]`` transforms the last ``len(fft_lengths)`` axes of its
operand: FFT and IFFT complex to complex (IFFT scaled by ``1/prod(fft_lengths)``), RFFT
real to the ``n//2 + 1`` non-negative frequencies of the last axis, IRFFT those back to
``fft_lengths[-1]`` real values. It is linear, so its JVP is itself; its transposes are
JAX's: FFT and IFFT are symmetric matrices (their own transposes), RFFT's is the real
part of an FFT of the cotangent zero-padded to the full length, and IRFFT's an RFFT of the
cotangent weighted by the number of times each kept frequency stands in the full
spectrum, conjugated (JAX's convention for complex cotangents).
"""
from __future__ import annotations

import enum

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..interpreters import ad
from ..interpreters.batching import moveaxis, primitive_batchers
from . import complex_ops
from . import elementwise as ew
from . import slicing, structural

__all__ = ["fft", "fft_p", "FftType"]


class FftType(enum.IntEnum):
    """The kind of transform of ``fft``: printed as its number, as in JAX."""
    FFT = 0
    IFFT = 1
    RFFT = 2
    IRFFT = 3

    def __str__(self) -> str:
        return str(int(self))


_NAMES = {"fft": FftType.FFT, "ifft": FftType.IFFT, "rfft": FftType.RFFT,
          "irfft": FftType.IRFFT}


def _fft_type(fft_type) -> FftType:
    if isinstance(fft_type, str):
        try:
            return _NAMES[fft_type.lower()]
        except KeyError:
            raise ValueError(f"Unknown FFT type '{fft_type}'") from None
    return FftType(fft_type)


fft_p = core.new_primitive("fft")


def _result_shape(shape, fft_type, fft_lengths) -> tuple:
    if fft_type == FftType.RFFT:
        return tuple(shape[:-1]) + (fft_lengths[-1] // 2 + 1,)
    if fft_type == FftType.IRFFT:
        return tuple(shape[:-1]) + (fft_lengths[-1],)
    return tuple(shape)


@fft_p.def_abstract_eval
def _fft_abstract(x, *, fft_type, fft_lengths):
    shape, k = tuple(x.shape), len(fft_lengths)
    if len(shape) < k:
        raise ValueError(f"FFT input shape {shape} must have at least as many input "
                         f"dimensions as fft_lengths {tuple(fft_lengths)}.")
    minor = shape[len(shape) - k:]
    if fft_type == FftType.RFFT:
        if dtypes.is_complex(x.dtype) or x.dtype not in dtypes.COMPLEX_OF:
            raise TypeError(f"RFFT requires a float32 or float64 operand, got "
                            f"{dtypes.dtype_name(x.dtype)}")
        out = dtypes.COMPLEX_OF[x.dtype]
        want = tuple(fft_lengths)
    else:
        if not dtypes.is_complex(x.dtype):
            raise TypeError(f"{fft_type.name} requires a complex operand, got "
                            f"{dtypes.dtype_name(x.dtype)}")
        out = dtypes.real_dtype(x.dtype) if fft_type == FftType.IRFFT else x.dtype
        want = tuple(fft_lengths)
        if fft_type == FftType.IRFFT:
            want = want[:-1] + (fft_lengths[-1] // 2 + 1,)
            if minor != want:
                raise ValueError(
                    f"IRFFT requires innermost dimension to be compatible with "
                    f"fft_length[-1]/2+1. Got: {minor[-1] if minor else 0} but fft_length "
                    f"is {fft_lengths[-1]}.")
    if minor != want:
        raise ValueError(f"FFT input shape {shape} minor dimensions must be equal to "
                         f"fft_lengths {tuple(fft_lengths)}")
    return ShapedArray(_result_shape(shape, fft_type, fft_lengths), out, False)


def _numpy_fft(x, fft_type, fft_lengths):
    """The transform in float64/complex128 with NumPy (``np.fft`` computes in double)."""
    axes = tuple(range(x.ndim - len(fft_lengths), x.ndim))
    if fft_type == FftType.FFT:
        return np.fft.fftn(x, axes=axes)
    if fft_type == FftType.IFFT:
        return np.fft.ifftn(x, axes=axes)
    if fft_type == FftType.RFFT:
        return np.fft.rfftn(x, axes=axes)
    return np.fft.irfftn(x, s=tuple(fft_lengths), axes=axes)


@fft_p.def_impl
def _fft_impl(x, *, fft_type, fft_lengths):
    out = _fft_abstract(core.get_aval(x), fft_type=fft_type, fft_lengths=fft_lengths)
    if x.size == 0 or 0 in fft_lengths:
        return np.zeros(out.shape, out.dtype)
    return np.asarray(_numpy_fft(np.asarray(x), fft_type, fft_lengths)).astype(out.dtype)


# ---------------------------------------------------------------------------------------
# The lax API

def fft(x, fft_type, fft_lengths):
    """Fast Fourier transform over the last ``len(fft_lengths)`` axes of ``x``.

    Parameters
    ----------
    x : array_like
        The operand; converted to a complex dtype (FFT, IFFT, IRFFT) or a float dtype
        (RFFT) first.
    fft_type : FftType or str
        ``FftType.FFT``/``IFFT``/``RFFT``/``IRFFT`` (or ``"fft"``, ``"ifft"``, ...).
    fft_lengths : sequence of int
        The lengths of the transformed axes (for IRFFT, of the real result).

    Returns
    -------
    Array
        The transform: complex, except for IRFFT (real).
    """
    typ = _fft_type(fft_type)
    lengths = tuple(int(n) for n in fft_lengths)
    dt = core.get_aval(x).dtype
    if typ == FftType.RFFT:
        if dtypes.is_complex(dt):
            raise ValueError("only real valued inputs supported for rfft")
        want = dtypes.canonicalize_dtype(dt if dtypes.is_float(dt) and dt in
                                         dtypes.COMPLEX_OF else dtypes.float64)
    else:
        want = dt if dtypes.is_complex(dt) else dtypes.canonicalize_dtype(
            dtypes.COMPLEX_OF.get(
            dt, dtypes.complex64 if dtypes.is_float(dt) else dtypes.complex128))
    if dt != want or core.get_aval(x).weak_type:
        x = ew.convert_element_type(x, want)
    return fft_p.bind(x, fft_type=typ, fft_lengths=lengths)


# ---------------------------------------------------------------------------------------
# Differentiation and batching

def _rfft_transpose(t, fft_lengths):
    """RFFT^T: zero-pad the kept frequencies to the full length, FFT, take the real
    part (the transpose of real -> complex, FFT, keep the first n//2+1)."""
    aval = core.get_aval(t)
    n = fft_lengths[-1]
    pad = [(0, 0, 0)] * (aval.ndim - 1) + [(0, n - aval.shape[-1], 0)]
    full = slicing.pad(t, np.zeros((), aval.dtype), pad)
    return complex_ops.real(fft_p.bind(full, fft_type=FftType.FFT, fft_lengths=fft_lengths))


def _irfft_transpose(t, fft_lengths):
    """IRFFT^T: RFFT of the cotangent, each kept frequency weighted by how often it
    stands in the full spectrum (1 for 0 and, at an even length, n/2; else 2), scaled
    by 1/prod(fft_lengths) and conjugated."""
    x = fft_p.bind(t, fft_type=FftType.RFFT, fft_lengths=fft_lengths)
    aval = core.get_aval(x)
    m, odd = aval.shape[-1], fft_lengths[-1] % 2
    weights = np.full((m,), 2.0)
    weights[0] = 1.0
    if not odd:
        weights[-1] = 1.0
    scale = weights / float(np.prod(fft_lengths))
    mask = structural.broadcast_in_dim(np.asarray(scale, aval.dtype), aval.shape,
                                       (aval.ndim - 1,))
    return complex_ops.conj(ew.mul(mask, x))


def _fft_transpose(t, x, *, fft_type, fft_lengths):
    if fft_type == FftType.RFFT:
        return [_rfft_transpose(t, fft_lengths)]
    if fft_type == FftType.IRFFT:
        return [_irfft_transpose(t, fft_lengths)]
    return [fft_p.bind(t, fft_type=fft_type, fft_lengths=fft_lengths)]


ad.deflinear2(fft_p, _fft_transpose)


def _fft_batch(vals, dims, *, fft_type, fft_lengths):
    # The transformed axes are the last ones: any leading axis is a batch axis.
    (x,), (bdim,) = vals, dims
    x = moveaxis(x, bdim, 0)
    return fft_p.bind(x, fft_type=fft_type, fft_lengths=fft_lengths), 0


primitive_batchers[fft_p] = _fft_batch
