"""``transpile.scipy.integrate``: JAX 0.10.2's ``jax.scipy.integrate.trapezoid``."""
from __future__ import annotations

from .. import lax
from .. import numpy as jnp
from ..jit import internal_jit
from ..numpy import _util

__all__ = ["trapezoid"]


def _diff_impl(x, axis):
    """``x[1:] - x[:-1]`` along ``axis`` (``jnp.diff``'s equations)."""
    shape = _util.aval(x).shape
    axis = axis % len(shape)
    start, limit = [0] * len(shape), list(shape)
    start[axis] = 1
    upper = lax.slice(x, tuple(start), tuple(limit))
    start[axis], limit[axis] = 0, shape[axis] - 1
    return upper - lax.slice(x, tuple(start), tuple(limit))


_diff_impl.__name__ = _diff_impl.__qualname__ = "diff"
_diff = internal_jit(_diff_impl, static_argnames=("axis",))


def _trapezoid_impl(y, x, dx, axis):
    if x is None:
        y_arr, = _util.promote_dtypes_inexact(_util.ensure_array(y))
        dx_arr = jnp.asarray(dx)
        if dx_arr.ndim > 0:
            dx_arr = lax.expand_dims(dx_arr, tuple(range(y_arr.ndim - dx_arr.ndim)))
            dx_arr = jnp.moveaxis(dx_arr, axis, -1)
    else:
        y_arr, x_arr = _util.promote_dtypes_inexact(_util.ensure_array(y),
                                                   _util.ensure_array(x))
        if x_arr.ndim == 1:
            dx_arr = _diff(x_arr, axis=-1)
        else:
            dx_arr = jnp.moveaxis(_diff(x_arr, axis=axis), axis, -1)
    y_arr = jnp.moveaxis(y_arr, axis, -1)
    # dx constant along the axis: the sum less half the end points, times dx
    if dx_arr.ndim == 0 or dx_arr.shape[-1] == 1:
        dx_one = dx_arr if dx_arr.ndim == 0 else dx_arr[..., 0]
        return dx_one * (y_arr.sum(-1) - 0.5 * (y_arr[..., 0] + y_arr[..., -1]))
    return 0.5 * (dx_arr * (y_arr[..., 1:] + y_arr[..., :-1])).sum(-1)


_trapezoid_impl.__name__ = _trapezoid_impl.__qualname__ = "trapezoid"
#: ``jnp.trapezoid``'s jit (transpile's ``jnp`` has no ``trapezoid`` yet).
_jnp_trapezoid = internal_jit(_trapezoid_impl, static_argnames=("axis",))


def _scipy_trapezoid(y, x=None, dx=1.0, axis: int = -1):
    if x is None:
        _util.check_arraylike("trapezoid", y)
    else:
        _util.check_arraylike("trapezoid", y, x)
    return _jnp_trapezoid(y, x, dx, axis)


_scipy_trapezoid.__name__ = _scipy_trapezoid.__qualname__ = "trapezoid"
trapezoid = internal_jit(_scipy_trapezoid, static_argnames=("axis",))
trapezoid.__doc__ = """Integrate ``y`` along ``axis`` with the trapezoidal rule.

Parameters
----------
y : array_like
    The sampled values.
x : array_like, optional
    The sample points: 1-D (of ``y``'s length along ``axis``) or of ``y``'s shape.
    When omitted, the points are ``dx`` apart.
dx : float or array_like
    The spacing when ``x`` is None.
axis : int

Returns
-------
Array
    ``y``'s shape without ``axis``, in ``y``'s (inexact) dtype.
"""
