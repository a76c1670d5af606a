"""``jax.nn.initializers``: functions ``init(key, shape, dtype=None)`` that make weight
arrays, drawn with ``transpile.random`` exactly as JAX draws them (same key, same bits).

The factories (``normal(stddev)``, ``variance_scaling(scale, mode, distribution)``, ...)
return such a function; ``zeros`` and ``ones`` are one themselves. ``dtype=None`` means
the default float dtype (float32, float64 with x64).
"""
from __future__ import annotations

import math
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .. import dtypes
from .. import numpy as jnp
from .. import random

__all__ = ["Initializer", "constant", "delta_orthogonal", "glorot_normal", "glorot_uniform",
           "he_normal", "he_uniform", "kaiming_normal", "kaiming_uniform", "lecun_normal",
           "lecun_uniform", "normal", "ones", "orthogonal", "truncated_normal", "uniform",
           "variance_scaling", "xavier_normal", "xavier_uniform", "zeros"]


@runtime_checkable
class Initializer(Protocol):
    """What every initializer is: ``init(key, shape, dtype=None, out_sharding=None)``."""

    def __call__(self, key, shape, dtype=None, out_sharding=None) -> Any:
        raise NotImplementedError


def _float(dtype):
    return dtypes.default_float_dtype() if dtype is None else dtype


def zeros(key, shape, dtype=None, out_sharding=None):
    """An array of zeros (``key`` is ignored)."""
    return jnp.zeros(shape, _float(dtype))


def ones(key, shape, dtype=None, out_sharding=None):
    """An array of ones (``key`` is ignored)."""
    return jnp.ones(shape, _float(dtype))


def constant(value, dtype=None) -> Initializer:
    """An initializer filling with ``value`` (``key`` is ignored)."""
    def init(key, shape, dtype=dtype, out_sharding=None):
        return jnp.full(shape, value, dtype=_float(dtype))
    return init


def uniform(scale=1e-2, dtype=None) -> Initializer:
    """An initializer drawing uniformly from ``[0, scale)``."""
    def init(key, shape, dtype=dtype, out_sharding=None):
        dtype = _float(dtype)
        return random.uniform(key, shape, dtype) * jnp.array(scale, dtype)
    return init


def normal(stddev=1e-2, dtype=None) -> Initializer:
    """An initializer drawing from ``N(0, stddev**2)``."""
    def init(key, shape, dtype=dtype, out_sharding=None):
        dtype = _float(dtype)
        return random.normal(key, shape, dtype) * jnp.array(stddev, dtype)
    return init


def truncated_normal(stddev=1e-2, dtype=None, lower=-2.0, upper=2.0) -> Initializer:
    """An initializer drawing a standard normal truncated to ``[lower, upper]``, times
    ``stddev``."""
    def init(key, shape, dtype=dtype, out_sharding=None):
        dtype = _float(dtype)
        return random.truncated_normal(key, lower, upper, shape, dtype) * \
            jnp.array(stddev, dtype)
    return init


def _size(shape, axes) -> int:
    if isinstance(axes, int):
        return shape[axes]
    return math.prod(shape[i] for i in axes)


def _fans(shape, in_axis, out_axis, batch_axis):
    """(fan_in, fan_out): the in/out axis sizes times the receptive field (the axes in
    none of in/out/batch)."""
    if isinstance(in_axis, int) and in_axis == -2 and len(shape) <= 1:
        raise ValueError(f"Can't compute input and output sizes of a {len(shape)}-"
                         "dimensional weights tensor with default in_axis. Must be at "
                         "least 2D or specify in_axis explicitly.")
    fan_in, fan_out = _size(shape, in_axis), _size(shape, out_axis)
    receptive = math.prod(shape) / fan_in / fan_out / _size(shape, batch_axis)
    return fan_in * receptive, fan_out * receptive


# The standard deviation of a standard normal truncated to [-2, 2], and of the complex
# one (|z| truncated at 2), which ``truncated_normal`` samples are divided by.
_TRUNC_STD = 0.8796256610342398
_COMPLEX_TRUNC_STD = 0.9531116438049121


def _complex_uniform(key, shape, dtype):
    k_r, k_theta = random.split(key)
    real = np.array(0, dtype).real.dtype
    r = jnp.sqrt(2 * random.uniform(k_r, shape, real)).astype(dtype)
    theta = 2 * np.pi * random.uniform(k_theta, shape, real).astype(dtype)
    return r * jnp.exp(1j * theta)


def _complex_truncated_normal(key, upper, shape, dtype):
    k_r, k_theta = random.split(key)
    real = np.array(0, dtype).real.dtype
    t = (1 - jnp.exp(jnp.array(-(upper ** 2), dtype))) * \
        random.uniform(k_r, shape, real).astype(dtype)
    r = jnp.sqrt(-jnp.log(1 - t))
    theta = 2 * np.pi * random.uniform(k_theta, shape, real).astype(dtype)
    return r * jnp.exp(1j * theta)


def variance_scaling(scale, mode: str, distribution: str, in_axis=-2, out_axis=-1,
                     batch_axis=(), dtype=None) -> Initializer:
    """An initializer whose samples have variance ``scale / n``.

    Parameters
    ----------
    scale : float
    mode : {'fan_in', 'fan_out', 'fan_avg', 'fan_geo_avg'}
        ``n``: inputs, outputs, their mean or their geometric mean (each times the
        receptive field, the product of the axes in none of the axis arguments).
    distribution : {'truncated_normal', 'normal', 'uniform'}
        Truncated at two standard deviations (then rescaled to unit variance), plain
        normal, or uniform on ``[-sqrt(3 var), sqrt(3 var))`` (a disk for complex).
    in_axis, out_axis, batch_axis : int or sequence of int
    dtype : dtype, optional

    Raises
    ------
    ValueError
        For an unknown mode or distribution (when called), or a weights shape of
        fewer than 2 dimensions with the default ``in_axis``.
    """
    def init(key, shape, dtype=dtype, out_sharding=None):
        shape = tuple(int(d) for d in shape)
        dtype = _float(dtype)
        fan_in, fan_out = _fans(shape, in_axis, out_axis, batch_axis)
        if mode == "fan_in":
            n = fan_in
        elif mode == "fan_out":
            n = fan_out
        elif mode == "fan_avg":
            n = (fan_in + fan_out) / 2
        elif mode == "fan_geo_avg":
            n = (fan_in * fan_out) ** 0.5
        else:
            raise ValueError(f"invalid mode for variance scaling initializer: {mode}")
        variance = jnp.array(scale / n, dtype=dtype)
        real = jnp.issubdtype(dtype, np.floating)
        if distribution == "truncated_normal":
            if real:
                std = jnp.sqrt(variance) / jnp.array(_TRUNC_STD, dtype)
                return random.truncated_normal(key, -2, 2, shape, dtype) * std
            std = jnp.sqrt(variance) / jnp.array(_COMPLEX_TRUNC_STD, dtype)
            return _complex_truncated_normal(key, 2, shape, dtype) * std
        if distribution == "normal":
            return random.normal(key, shape, dtype) * jnp.sqrt(variance)
        if distribution == "uniform":
            if real:
                return random.uniform(key, shape, dtype, -1) * jnp.sqrt(3 * variance)
            return _complex_uniform(key, shape, dtype) * jnp.sqrt(variance)
        raise ValueError("invalid distribution for variance scaling initializer: "
                         f"{distribution}")
    return init


def _scaled(scale, mode, distribution, doc):
    def factory(in_axis=-2, out_axis=-1, batch_axis=(), dtype=None) -> Initializer:
        return variance_scaling(scale, mode, distribution, in_axis=in_axis,
                                out_axis=out_axis, batch_axis=batch_axis, dtype=dtype)
    factory.__doc__ = (f"{doc}: ``variance_scaling({scale}, {mode!r}, "
                       f"{distribution!r})`` with the given axes and dtype.")
    return factory


glorot_uniform = xavier_uniform = _scaled(1.0, "fan_avg", "uniform", "Glorot uniform")
glorot_normal = xavier_normal = _scaled(1.0, "fan_avg", "truncated_normal", "Glorot normal")
lecun_uniform = _scaled(1.0, "fan_in", "uniform", "LeCun uniform")
lecun_normal = _scaled(1.0, "fan_in", "truncated_normal", "LeCun normal")
he_uniform = kaiming_uniform = _scaled(2.0, "fan_in", "uniform", "He uniform")
he_normal = kaiming_normal = _scaled(2.0, "fan_in", "truncated_normal", "He normal")
for _f, _n in ((glorot_uniform, "glorot_uniform"), (glorot_normal, "glorot_normal"),
               (lecun_uniform, "lecun_uniform"), (lecun_normal, "lecun_normal"),
               (he_uniform, "he_uniform"), (he_normal, "he_normal")):
    _f.__name__ = _f.__qualname__ = _n


def _random_orthogonal(key, n: int, m: int, dtype):
    """An ``(n, m)`` matrix with orthonormal columns (rows if ``n < m``): the Q of a
    Gaussian matrix's QR, its columns' signs fixed by R's diagonal (Haar-distributed)."""
    z = random.normal(key, (max(n, m), min(n, m)), dtype)
    q, r = jnp.linalg.qr(z)
    x = q * jnp.expand_dims(jnp.sign(jnp.linalg.diagonal(r)), -2)
    return x.T if n < m else x


def orthogonal(scale=1.0, column_axis: int = -1, dtype=None) -> Initializer:
    """An initializer of (scaled) orthogonal matrices: the shape flattened to
    ``(rows, shape[column_axis])`` has orthonormal rows or columns, whichever are
    fewer.

    Raises
    ------
    ValueError
        For a shape of fewer than 2 dimensions.
    """
    def init(key, shape, dtype=dtype, out_sharding=None):
        if out_sharding is not None:
            raise NotImplementedError
        dtype = _float(dtype)
        shape = tuple(shape)
        if len(shape) < 2:
            raise ValueError("orthogonal initializer requires at least a 2D shape")
        if any(d == 0 for d in shape):
            return jnp.zeros(shape, dtype=dtype)
        n_cols = shape[column_axis]
        q = _random_orthogonal(key, math.prod(shape) // n_cols, n_cols, dtype)
        q = jnp.reshape(q, tuple(np.delete(shape, column_axis)) + (n_cols,))
        return jnp.array(scale, dtype) * jnp.moveaxis(q, -1, column_axis)
    return init


def delta_orthogonal(scale=1.0, column_axis: int = -1, dtype=None) -> Initializer:
    """An initializer for 3-D/4-D/5-D convolution kernels: zero except the spatial
    centre, which holds an orthogonal ``(in, out)`` matrix.

    Raises
    ------
    ValueError
        For other ranks, or fewer outputs than inputs.
    """
    def init(key, shape, dtype=dtype, out_sharding=None):
        if out_sharding is not None:
            raise NotImplementedError
        dtype = _float(dtype)
        shape = tuple(shape)
        if len(shape) not in (3, 4, 5):
            raise ValueError("Delta orthogonal initializer requires a 3D, 4D or 5D shape.")
        if shape[-1] < shape[-2]:
            raise ValueError("`fan_in` must be less or equal than `fan_out`. ")
        ortho = orthogonal(scale=scale, column_axis=column_axis, dtype=dtype)(
            key, shape[-2:])
        centre = tuple((k - 1) // 2 for k in shape[:-2])
        return jnp.zeros(shape, dtype=dtype).at[centre + (Ellipsis,)].set(ortho)
    return init
