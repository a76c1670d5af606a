"""``jnp.convolve`` and ``jnp.correlate``: one-dimensional, on ``lax.conv_general_dilated``
as JAX 0.10.2 builds them (the shorter operand is the kernel; convolve flips it), so the
jaxprs read as JAX's."""
from __future__ import annotations

from .. import lax
from ..jit import internal_jit as jit
from ._util import aval, check_arraylike, promote_dtypes, promote_dtypes_inexact
from .shape_ops import flip
from .ufuncs import conj

__all__ = ["convolve", "correlate"]

_MODES = ("full", "same", "valid")


@jit(static_argnames=("mode", "op", "precision", "preferred_element_type"))
def _conv(x, y, mode, op, precision, preferred_element_type=None):
    if aval(x).ndim != 1 or aval(y).ndim != 1:
        raise ValueError(f"{op}() only support 1-dimensional inputs.")
    if preferred_element_type is None:
        # NumPy's convolutions compute in an inexact type.
        x, y = promote_dtypes_inexact(x, y)
    else:
        x, y = promote_dtypes(x, y)
    nx, ny = aval(x).shape[0], aval(y).shape[0]
    if nx == 0 or ny == 0:
        raise ValueError(f"{op}: inputs cannot be empty, got shapes {aval(x).shape} and "
                         f"{aval(y).shape}.")
    reverse = False
    if op == "correlate":
        y = conj(y)
        if nx < ny:
            x, y, reverse = y, x, True
    else:
        if nx < ny:
            x, y = y, x
        y = flip(y)
    k = aval(y).shape[0]
    if mode == "valid":
        padding = [(0, 0)]
    elif mode == "same":
        padding = [(k // 2, k - k // 2 - 1)]
    elif mode == "full":
        padding = [(k - 1, k - 1)]
    else:
        raise ValueError("mode must be one of ['full', 'same', 'valid']")
    out = lax.conv_general_dilated(
        lax.broadcast_in_dim(x, (1, 1) + aval(x).shape, (2,)),
        lax.broadcast_in_dim(y, (1, 1) + aval(y).shape, (2,)), (1,), padding,
        precision=precision, preferred_element_type=preferred_element_type)
    out = lax.squeeze(out, (0, 1))
    return lax.rev(out, (0,)) if reverse else out


def _check_mode(mode):
    if mode not in _MODES:
        raise ValueError("mode must be one of ['full', 'same', 'valid']")


@jit(static_argnames=("mode", "precision", "preferred_element_type"))
def convolve(a, v, mode="full", *, precision=None, preferred_element_type=None):
    """Discrete linear convolution of two one-dimensional arrays, as ``numpy.convolve``.

    Parameters
    ----------
    a, v : array_like
        One-dimensional, non-empty.
    mode : {"full", "same", "valid"}
    precision : optional
        Passed to ``lax.conv_general_dilated``.
    preferred_element_type : dtype-like, optional
        The result dtype (the inputs are then not promoted to an inexact type).

    Returns
    -------
    Array
    """
    check_arraylike("convolve", a, v)
    return _conv(a, v, mode=mode, op="convolve", precision=precision,
                 preferred_element_type=preferred_element_type)


@jit(static_argnames=("mode", "precision", "preferred_element_type"))
def correlate(a, v, mode="valid", *, precision=None, preferred_element_type=None):
    """Cross-correlation of two one-dimensional arrays, as ``numpy.correlate``.

    Parameters
    ----------
    a, v : array_like
        One-dimensional, non-empty.
    mode : {"full", "same", "valid"}
    precision : optional
        Passed to ``lax.conv_general_dilated``.
    preferred_element_type : dtype-like, optional
        The result dtype.

    Returns
    -------
    Array
    """
    check_arraylike("correlate", a, v)
    return _conv(a, v, mode=mode, op="correlate", precision=precision,
                 preferred_element_type=preferred_element_type)
