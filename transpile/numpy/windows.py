"""Window functions (bartlett, blackman, hamming, hanning, kaiser) and the geometric
sequences logspace and geomspace.

The windows are ``jax.numpy``'s formulas over ``iota`` in the default float dtype;
``M`` must be a concrete integer.
"""
from __future__ import annotations

import math
import operator

from .. import dtypes, lax
from ._util import check_arraylike, to_inexact_dtype
from .creation import asarray, linspace, ones
from .math_extra import i0
from .shape_ops import moveaxis
from .ufuncs import abs as jabs, cos, log10, sign, sqrt
from .ufuncs_compound import power

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser", "logspace", "geomspace"]


def _window_n(M, name):
    try:
        M = operator.index(M) if not isinstance(M, float) else int(M)
    except TypeError:
        raise TypeError(f"M argument of jnp.{name} must be an integer, got {M!r}") from None
    dt = dtypes.default_float_dtype()
    if M <= 1:
        return M, None, ones(max(M, 0), dt)
    return M, lax.iota(dt, M), None


def bartlett(M):
    """Triangular window of ``M`` points."""
    M, n, short = _window_n(M, "bartlett")
    if short is not None:
        return short
    return 1 - jabs(2 * n + 1 - M) / (M - 1)


def blackman(M):
    """Blackman window of ``M`` points."""
    M, n, short = _window_n(M, "blackman")
    if short is not None:
        return short
    return 0.42 - 0.5 * cos(2 * math.pi * n / (M - 1)) + 0.08 * cos(4 * math.pi * n / (M - 1))


def hamming(M):
    """Hamming window of ``M`` points."""
    M, n, short = _window_n(M, "hamming")
    if short is not None:
        return short
    return 0.54 - 0.46 * cos(2 * math.pi * n / (M - 1))


def hanning(M):
    """Hann window of ``M`` points."""
    M, n, short = _window_n(M, "hanning")
    if short is not None:
        return short
    return 0.5 * (1 - cos(2 * math.pi * n / (M - 1)))


def kaiser(M, beta):
    """Kaiser window of ``M`` points with shape parameter ``beta``."""
    M, n, short = _window_n(M, "kaiser")
    if short is not None:
        return short
    alpha = 0.5 * (M - 1)
    return i0(beta * sqrt(1 - ((n - alpha) / alpha) ** 2)) / i0(beta)


def _space_dtype(start, stop, dtype, name):
    if dtype is None:
        return to_inexact_dtype(dtypes.result_type(start, stop))
    return dtypes.canonicalize_dtype(dtype, warn_name=name)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``base ** linspace(start, stop, num)``.

    Parameters
    ----------
    start, stop : array_like
        Exponents of the first and last values.
    num : int
    endpoint : bool
    base : array_like
    dtype : dtype, optional
    axis : int

    Returns
    -------
    Array
    """
    check_arraylike("logspace", start, stop)
    dt = _space_dtype(start, stop, dtype, "logspace")
    cdt = to_inexact_dtype(dt)
    lin = linspace(asarray(start, dtype=cdt), asarray(stop, dtype=cdt), num,
                   endpoint=endpoint, axis=axis)
    return lax.convert_element_type(power(base, lin), dt)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """``num`` values from ``start`` to ``stop`` spaced evenly on a log scale (both of
    one sign)."""
    check_arraylike("geomspace", start, stop)
    dt = _space_dtype(start, stop, dtype, "geomspace")
    cdt = to_inexact_dtype(dt)
    start, stop = asarray(start, dtype=cdt), asarray(stop, dtype=cdt)
    s = sign(start)
    res = s * logspace(log10(start / s), log10(stop / s), num, endpoint=endpoint, base=10.0,
                       dtype=cdt, axis=0)
    if axis != 0:
        res = moveaxis(res, 0, axis)
    return lax.convert_element_type(res, dt)

