"""``jax.scipy.signal``'s convolutions: ``convolve``, ``correlate``, ``convolve2d`` and
``correlate2d``, n-dimensional, on ``lax.conv_general_dilated`` as JAX 0.10.2 computes
them (the smaller operand is the flipped kernel; only zero fill at the boundary)."""
from __future__ import annotations

from .. import lax
from .. import numpy as jnp
from ..numpy import _util

__all__ = ["convolve", "correlate", "convolve2d", "correlate2d"]

_MODES = ("full", "same", "valid")


def _convolve_nd(in1, in2, mode, precision):
    if mode not in _MODES:
        raise ValueError("mode must be one of ['full', 'same', 'valid']")
    in1, in2 = jnp.asarray(in1), jnp.asarray(in2)
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 must have the same number of dimensions")
    if in1.size == 0 or in2.size == 0:
        raise ValueError("zero-size arrays not supported in convolutions, got shapes "
                         f"{in1.shape} and {in2.shape}.")
    in1, in2 = _util.promote_dtypes_inexact(in1, in2)
    no_swap = all(a >= b for a, b in zip(in1.shape, in2.shape, strict=True))
    swap = all(a <= b for a, b in zip(in1.shape, in2.shape, strict=True))
    if not (no_swap or swap):
        raise ValueError("One input must be smaller than the other in every dimension.")
    shape_o = in2.shape
    if swap:
        in1, in2 = in2, in1
    shape = in2.shape
    in2 = jnp.flip(in2)
    if mode == "valid":
        padding = [(0, 0)] * len(shape)
    elif mode == "same":
        # Centred on the first operand's shape, as scipy.signal does.
        padding = [(s - 1 - (so - 1) // 2, s - so + (so - 1) // 2)
                   for s, so in zip(shape, shape_o, strict=True)]
    else:
        padding = [(s - 1, s - 1) for s in shape]
    out = lax.conv_general_dilated(in1[None, None], in2[None, None], (1,) * len(shape),
                                   padding, precision=precision)
    return out[0, 0]


def _check_method(method):
    if method not in ("auto", "direct", "fft"):
        raise ValueError(f"Got method={method!r}; expected 'auto', 'fft', or 'direct'.")


def convolve(in1, in2, mode="full", method="auto", precision=None):
    """N-dimensional convolution, as ``scipy.signal.convolve``.

    Parameters
    ----------
    in1, in2 : array_like
        Of the same rank; one no smaller than the other along every axis.
    mode : {"full", "same", "valid"}
    method : {"auto", "direct", "fft"}
        All three compute the direct sum here (the results agree to rounding).
    precision : optional
        Passed to ``lax.conv_general_dilated``.

    Returns
    -------
    Array
    """
    _check_method(method)
    return _convolve_nd(in1, in2, mode, precision)


def correlate(in1, in2, mode="full", method="auto", precision=None):
    """N-dimensional cross-correlation, as ``scipy.signal.correlate``.

    Parameters
    ----------
    in1, in2 : array_like
    mode : {"full", "same", "valid"}
    method : {"auto", "direct", "fft"}
    precision : optional

    Returns
    -------
    Array
    """
    return convolve(in1, jnp.flip(jnp.conj(jnp.asarray(in2))), mode, method=method,
                    precision=precision)


def _check_2d(name, in1, in2, boundary, fillvalue):
    if boundary != "fill" or fillvalue != 0:
        raise NotImplementedError(f"{name}() only supports boundary='fill', fillvalue=0")
    if jnp.ndim(in1) != 2 or jnp.ndim(in2) != 2:
        raise ValueError(f"{name}() only supports 2-dimensional inputs.")


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0, precision=None):
    """Two-dimensional convolution, as ``scipy.signal.convolve2d`` (zero fill only).

    Parameters
    ----------
    in1, in2 : array_like
        Two-dimensional.
    mode : {"full", "same", "valid"}
    boundary : "fill"
    fillvalue : 0
    precision : optional

    Returns
    -------
    Array
    """
    _check_2d("convolve2d", in1, in2, boundary, fillvalue)
    return _convolve_nd(in1, in2, mode, precision)


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0, precision=None):
    """Two-dimensional cross-correlation, as ``scipy.signal.correlate2d`` (zero fill only).

    Parameters
    ----------
    in1, in2 : array_like
        Two-dimensional.
    mode : {"full", "same", "valid"}
    boundary : "fill"
    fillvalue : 0
    precision : optional

    Returns
    -------
    Array
    """
    _check_2d("correlate2d", in1, in2, boundary, fillvalue)
    in1, in2 = jnp.asarray(in1), jnp.asarray(in2)
    swap = all(a <= b for a, b in zip(in1.shape, in2.shape, strict=True))
    same_shape = in1.shape == in2.shape
    # Which operand is flipped decides where "same" and "valid" windows sit.
    if mode == "valid" and swap and not same_shape or mode == "full" and swap:
        result = _convolve_nd(jnp.flip(in2), jnp.conj(in1), mode, precision)
        return jnp.conj(result) if mode == "full" else result
    return jnp.flip(_convolve_nd(jnp.flip(in1), jnp.conj(in2), mode, precision))
