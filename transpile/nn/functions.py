"""``jax.nn``: activation functions, softmax, logsumexp and one_hot, written on jnp/lax.

Each function has JAX 0.10.2's structure, so its jaxpr text matches: most are
``jit``-wrapped (a ``jit[name=...]`` equation when traced), ``sigmoid`` is an inlined
jit (one ``logistic``), ``relu``/``relu6`` are ``custom_jvp`` functions around a jit
(their derivative at the kinks is 0), ``softmax`` and ``gelu`` are plain functions, and
``softmax``, ``log_softmax`` and ``logsumexp`` subtract a ``stop_gradient`` of the max.

Input:  arrays or scalars.  Output: Arrays with JAX's dtypes and weak types.
"""
from __future__ import annotations

import math
import operator

import numpy as np

from .. import lax
from .. import numpy as jnp
from ..config import config
from ..custom_derivatives import custom_jvp
from ..jit import jit
from ..numpy._util import aval, canonicalize_axes, canonicalize_axis, promote_args_inexact

__all__ = ["relu", "relu6", "sigmoid", "log_sigmoid", "softplus", "silu", "swish", "gelu",
           "elu", "leaky_relu", "celu", "selu", "softmax", "log_softmax", "logsumexp",
           "one_hot", "standardize"]


# ---------------------------------------------------------------------------------------
# piecewise-linear units: custom_jvp so the derivative at a kink is 0

@custom_jvp
@jit
def relu(x):
    """``max(x, 0)``; its derivative at 0 is taken as 0."""
    return jnp.maximum(x, 0)


relu.defjvps(lambda g, ans, x: lax.select(x > 0, g, lax.full_like(g, 0)))


@custom_jvp
@jit
def relu6(x):
    """``min(max(x, 0), 6)``; derivative 0 at both kinks."""
    return jnp.minimum(jnp.maximum(x, 0), 6.0)


relu6.defjvps(lambda g, ans, x: lax.select((x > 0) & (x < 6), g, lax.full_like(g, 0)))


# ---------------------------------------------------------------------------------------
# smooth activations

@jit(inline=True)
def sigmoid(x):
    """``1 / (1 + exp(-x))`` (``lax.logistic``)."""
    return lax.logistic(x)


@jit
def softplus(x):
    """``log(1 + exp(x))`` as ``logaddexp(x, 0)``."""
    return jnp.logaddexp(x, 0)


@jit
def silu(x):
    """``x * sigmoid(x)``."""
    x = jnp.asarray(x)
    return x * sigmoid(x)


swish = silu


@jit
def log_sigmoid(x):
    """``-softplus(-x)``."""
    x = jnp.asarray(x)
    return -softplus(-x)


@jit
def elu(x, alpha=1.0):
    """``x`` above 0, ``alpha * expm1(x)`` below (expm1 of a clamped argument)."""
    x = jnp.asarray(x)
    positive = x > 0
    return jnp.where(positive, x, alpha * jnp.expm1(jnp.where(x > 0, 0.0, x)))


@jit
def leaky_relu(x, negative_slope=1e-2):
    """``x`` at and above 0, ``negative_slope * x`` below."""
    x = jnp.asarray(x)
    return jnp.where(x >= 0, x, negative_slope * x)


@jit
def celu(x, alpha=1.0):
    """``max(x, 0) + alpha * expm1(min(x, 0) / alpha)``."""
    return jnp.maximum(x, 0.0) + alpha * jnp.expm1(jnp.minimum(x, 0.0) / alpha)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


@jit
def selu(x):
    """``scale * elu(x, alpha)`` with the self-normalising constants."""
    return _SELU_SCALE * elu(x, _SELU_ALPHA)


def gelu(x, approximate: bool = True):
    """Gaussian error linear unit: the tanh approximation, or ``x * Phi(x)`` exactly.

    The exact form is ``0.5 * x * erfc(-x / sqrt(2))``: erfc keeps the relative
    accuracy of the small tail for negative ``x``, which ``1 + erf`` would cancel away.
    """
    [x] = promote_args_inexact("gelu", x)
    dtype = aval(x).dtype
    if approximate:
        k = np.asarray(math.sqrt(2 / math.pi)).astype(dtype)[()]
        cdf = 0.5 * (1.0 + jnp.tanh(k * (x + 0.044715 * x ** 3)))
        return x * cdf
    k = np.asarray(math.sqrt(0.5)).astype(dtype)[()]
    return jnp.array((0.5 * x) * lax.erfc(-x * k), dtype=dtype)


# ---------------------------------------------------------------------------------------
# softmax family

@jit(static_argnames=("axis",))
def log_softmax(x, axis=-1, where=None):
    """``x - logsumexp(x)`` along ``axis``, shifted by a constant (stop_gradient) max."""
    x = jnp.asarray(x)
    x_max = jnp.max(x, axis, where=where, initial=-np.inf, keepdims=True)
    x_safe = x if where is None else jnp.where(where, x, -np.inf)
    shifted = x_safe - lax.stop_gradient(x_max)
    total = jnp.sum(jnp.exp(shifted), axis, where=where, keepdims=True)
    result = shifted - jnp.log(total)
    if where is not None:
        return jnp.where(where, result, -np.inf)
    return result


def softmax(x, axis=-1, where=None):
    """``exp(x) / sum(exp(x))`` along ``axis`` (JAX's default, non-custom_jvp form)."""
    x_max = jnp.max(x, axis, where=where, initial=-np.inf, keepdims=True)
    x_safe = x if where is None else jnp.where(where, x, -np.inf)
    unnormalized = jnp.exp(x_safe - lax.stop_gradient(x_max))
    result = unnormalized / jnp.sum(unnormalized, axis, where=where, keepdims=True)
    if where is not None:
        result = jnp.where(where, result, 0)
    return result


def _reduction_dims(a, axis):
    ndim = aval(a).ndim
    if axis is None:
        return tuple(range(ndim)), tuple(range(ndim))
    axes = canonicalize_axes(axis, ndim)
    return axes, (axis if isinstance(axis, tuple) else axes)


def logsumexp(a, axis=None, b=None, keepdims: bool = False, return_sign: bool = False,
              where=None):
    """``log(sum(b * exp(a)))`` along ``axis``, computed stably (``jax.nn.logsumexp``).

    With ``return_sign`` it returns ``(log|sum|, sign(sum))``; otherwise a negative sum
    (possible only with ``b``) gives nan.
    """
    if where is not None:
        a = jnp.where(where, a, 0)
    if b is not None:
        a, b = promote_args_inexact("logsumexp", a, b)
        a = jnp.where(b != 0, a, -np.inf)
    else:
        a, = promote_args_inexact("logsumexp", a)
    pos_dims, dims = _reduction_dims(a, axis)
    amax = jnp.max(a, axis=dims, keepdims=keepdims, where=where, initial=-np.inf)
    amax = lax.stop_gradient(lax.select(jnp.isfinite(amax), amax, lax.full_like(amax, 0)))
    amax_b = amax if keepdims else lax.expand_dims(amax, pos_dims)
    exp_a = lax.exp(lax.sub(a, amax_b.astype(aval(a).dtype)))
    if b is not None:
        exp_a = lax.mul(exp_a, b)
    sumexp = exp_a.sum(axis=dims, keepdims=keepdims, where=where)
    sign = lax.sign(sumexp)
    sumexp = abs(sumexp)
    out = lax.add(lax.log(sumexp), amax.astype(aval(sumexp).dtype))
    if return_sign:
        return out, sign
    if b is not None:
        out = jnp.where(sign < 0, jnp.array(np.nan, dtype=aval(out).dtype), out)
    return out


@jit(static_argnames=("axis",))
def standardize(x, axis=-1, mean=None, variance=None, epsilon=1e-5, where=None):
    """``(x - mean) / sqrt(variance + epsilon)`` with the 'fast' variance."""
    if mean is None:
        mean = jnp.mean(x, axis, keepdims=True, where=where)
    if variance is None:
        variance = jnp.mean(jnp.square(x), axis, keepdims=True, where=where) - jnp.square(mean)
        variance = jnp.clip(variance, 0)
    return jnp.subtract(x, mean) * lax.rsqrt(variance + epsilon)


# ---------------------------------------------------------------------------------------
# one_hot

@jit(static_argnames=("num_classes", "dtype", "axis"))
def _one_hot(x, num_classes, *, dtype, axis):
    ndim = aval(x).ndim
    out_axis = canonicalize_axis(axis, ndim + 1)
    lhs = lax.expand_dims(x, (operator.index(axis),))
    rhs_shape = [1] * ndim
    rhs_shape.insert(out_axis, num_classes)
    rhs = lax.broadcasted_iota(aval(x).dtype, rhs_shape, out_axis)
    return (lhs == rhs).astype(dtype)


def one_hot(x, num_classes: int, *, dtype=None, axis: int = -1):
    """``x[..., None] == arange(num_classes)`` as ``dtype`` (default float), the new
    axis at ``axis``."""
    num_classes = operator.index(num_classes)
    x = jnp.asarray(x)
    if dtype is None:
        dtype = np.float64 if _x64() else np.float32
    return _one_hot(x, num_classes, dtype=np.dtype(dtype), axis=axis)


def _x64() -> bool:
    return bool(config.read("jax_enable_x64"))
