"""``jax.image``: resampling images (any array) along some of their dimensions.

``scale_and_translate`` maps output sample ``i`` of a dimension to the input position
``(i + 0.5 - translation) / scale - 0.5`` and takes a weighted sum of the inputs by an
interpolation kernel of the distance (widened by ``1 / scale`` when downsampling with
``antialias``, so that it also low-pass filters); each output's weights are normalised
to sum to one, and outputs whose position falls outside the input are zero. ``resize``
is that with ``scale = out / in`` and no translation on each dimension whose size
changes; ``nearest`` instead picks input ``floor((i + 0.5) * in / out)``.
"""
from __future__ import annotations

import enum
import string

import numpy as np

from . import lax
from . import numpy as jnp

__all__ = ["ResizeMethod", "resize", "scale_and_translate"]


class ResizeMethod(enum.Enum):
    """The interpolation kernels of ``resize`` and ``scale_and_translate``."""
    NEAREST = 0
    LINEAR = 1
    LANCZOS3 = 2
    LANCZOS5 = 3
    CUBIC = 4
    CUBIC_PYTORCH = 5
    AREA = 6

    @staticmethod
    def from_string(s: str) -> "ResizeMethod":
        """The method named ``s`` (``'bilinear'``, ``'bicubic'``... are aliases)."""
        names = {"nearest": ResizeMethod.NEAREST, "linear": ResizeMethod.LINEAR,
                 "bilinear": ResizeMethod.LINEAR, "trilinear": ResizeMethod.LINEAR,
                 "triangle": ResizeMethod.LINEAR, "lanczos3": ResizeMethod.LANCZOS3,
                 "lanczos5": ResizeMethod.LANCZOS5, "cubic": ResizeMethod.CUBIC,
                 "bicubic": ResizeMethod.CUBIC, "tricubic": ResizeMethod.CUBIC,
                 "cubic_pytorch": ResizeMethod.CUBIC_PYTORCH,
                 "area": ResizeMethod.AREA}
        method = names.get(s.lower()) if isinstance(s, str) else None
        if method is None:
            raise ValueError(f'Unknown resize method "{s}"')
        return method


def _triangle(x):
    return jnp.maximum(0, 1 - jnp.abs(x))


def _keys_cubic(x):
    """Keys' cubic convolution kernel (a = -1/2) of a non-negative distance."""
    near = ((1.5 * x - 2.5) * x) * x + 1.
    far = ((-0.5 * x + 2.5) * x - 4.) * x + 2.
    return jnp.where(x >= 2., 0., jnp.where(x >= 1., far, near))


def _lanczos(radius: float):
    def kernel(x):
        num = radius * jnp.sin(np.pi * x) * jnp.sin(np.pi * x / radius)
        # the limit 1 at 0 (and near it, where the quotient loses its precision)
        sinc2 = jnp.where(x > 1e-3, jnp.divide(num, jnp.where(x != 0, np.pi ** 2 * x ** 2,
                                                              1)), 1)
        return jnp.where(x > radius, 0., sinc2)
    return kernel


_KERNELS = {ResizeMethod.LINEAR: _triangle, ResizeMethod.CUBIC: _keys_cubic,
            ResizeMethod.LANCZOS3: _lanczos(3.), ResizeMethod.LANCZOS5: _lanczos(5.)}


def _weights(n_in: int, n_out: int, scale, translation, kernel, antialias: bool):
    """The ``(n_in, n_out)`` matrix taking a dimension's inputs to its outputs."""
    dtype = jnp.result_type(scale, translation)
    inv = 1. / scale
    width = jnp.maximum(inv, 1.) if antialias else 1.
    where = (jnp.arange(n_out, dtype=dtype) + 0.5) * inv - translation * inv - 0.5
    dist = jnp.abs(where[jnp.newaxis, :] - jnp.arange(n_in, dtype=dtype)[:, jnp.newaxis])
    w = kernel(dist / width)
    total = jnp.sum(w, axis=0, keepdims=True)
    eps = 1000. * float(np.finfo(np.float32).eps)
    w = jnp.where(jnp.abs(total) > eps, jnp.divide(w, jnp.where(total != 0, total, 1)), 0)
    inside = jnp.logical_and(where >= -0.5, where <= n_in - 0.5)
    return jnp.where(inside[jnp.newaxis, :], w, 0)


def _resample(x, shape, spatial_dims, scale, translation, kernel, antialias, precision):
    if not spatial_dims:
        return x
    letters = iter(string.ascii_letters)
    ins = [next(letters) for _ in range(x.ndim)]
    outs = list(ins)
    terms, mats = ["".join(ins)], [x]
    for i, d in enumerate(spatial_dims):
        d = d % x.ndim
        new = next(letters)
        mats.append(_weights(x.shape[d], shape[d], scale[i], translation[i], kernel,
                             antialias).astype(x.dtype))
        terms.append(ins[d] + new)
        outs[d] = new
    return jnp.einsum(",".join(terms) + "->" + "".join(outs), *mats, precision=precision)


def _check(image, shape):
    if len(shape) != image.ndim:
        raise ValueError("shape must have length equal to the number of dimensions of x; "
                         f" {shape} vs {image.shape}")


def _method(method) -> ResizeMethod:
    method = ResizeMethod.from_string(method) if isinstance(method, str) else method
    if not isinstance(method, ResizeMethod):
        raise TypeError(f"method must be a string or ResizeMethod, got {method!r}")
    return method


def _kernel(method: ResizeMethod):
    if method not in _KERNELS:
        raise NotImplementedError(f"transpile does not implement {method} yet")
    return _KERNELS[method]


def scale_and_translate(image, shape, spatial_dims, scale, translation, method,
                        antialias: bool = True, precision=lax.Precision.HIGHEST):
    """Resample ``image`` along ``spatial_dims`` by ``scale`` and ``translation``.

    Parameters
    ----------
    image : array_like
    shape : sequence of int
        The output shape (of the same rank).
    spatial_dims : sequence of int
    scale, translation : array_like
        One per spatial dimension: output position ``o`` samples the input at
        ``(o + 0.5 - translation) / scale - 0.5``.
    method : str or ResizeMethod
        Any but ``'nearest'``.
    antialias : bool
        Widen the kernel when downsampling.
    precision : lax.Precision

    Returns
    -------
    Array
        Inexact (integers promote).
    """
    shape = tuple(int(s) for s in shape)
    image = jnp.asarray(image)
    _check(image, shape)
    method = _method(method)
    if method is ResizeMethod.NEAREST:
        raise ValueError("Nearest neighbor resampling is not currently supported for "
                         "scale_and_translate.")
    kernel = _kernel(method)
    image = _inexact(image)
    scale, translation = _inexact_pair(scale, translation)
    return _resample(image, shape, list(spatial_dims), scale, translation, kernel,
                     antialias, precision)


def _inexact(x):
    x = jnp.asarray(x)
    return x if jnp.issubdtype(x.dtype, jnp.inexact) else x.astype(jnp.result_type(float))


def _inexact_pair(a, b):
    a, b = jnp.asarray(a), jnp.asarray(b)
    dt = jnp.result_type(a, b)
    if not jnp.issubdtype(dt, jnp.inexact):
        dt = jnp.result_type(dt, float)
    return a.astype(dt), b.astype(dt)


def _nearest(x, shape):
    for d, (m, n) in enumerate(zip(x.shape, shape)):
        if m == n:
            continue
        at = jnp.floor((jnp.arange(n, dtype=np.float32) + 0.5) * m / n).astype(np.int32)
        x = x[(slice(None),) * d + (at,)]
    return x


def resize(image, shape, method, antialias: bool = True, precision=lax.Precision.HIGHEST):
    """Resample ``image`` to ``shape`` (every dimension whose size changes).

    Parameters
    ----------
    image : array_like
    shape : sequence of int
    method : str or ResizeMethod
        ``'nearest'``, ``'linear'``, ``'cubic'``, ``'lanczos3'``, ``'lanczos5'`` (and
        their aliases).
    antialias : bool
        Low-pass filter when downsampling (not for ``'nearest'``).
    precision : lax.Precision

    Returns
    -------
    Array
        ``image``'s dtype for ``'nearest'``, else inexact.
    """
    shape = tuple(int(s) for s in shape)
    image = jnp.asarray(image)
    _check(image, shape)
    method = _method(method)
    if method is ResizeMethod.NEAREST:
        return _nearest(image, shape)
    kernel = _kernel(method)
    image = _inexact(image)
    dims = [d for d in range(image.ndim) if image.shape[d] != shape[d]]
    scale = [1.0 if shape[d] == 0 else shape[d] / image.shape[d] for d in dims]
    return _resample(image, shape, dims, scale, [0.] * len(dims), kernel, antialias,
                     precision)
