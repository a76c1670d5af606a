"""The rest of ``jax.nn``'s elementwise activations and ``glu``/``logmeanexp``.

Each has JAX 0.10.2's staging: ``jit``-wrapped (``sparse_plus`` an inlined jit,
``log1mexp`` a ``custom_jvp`` around a jit whose derivative is ``g / expm1(x)``).
Non-array arguments (lists, strings) raise JAX's ``TypeError``.
"""
from __future__ import annotations

import math

from .. import lax
from .. import numpy as jnp
from ..custom_derivatives import custom_jvp
from ..jit import jit
from ..numpy._util import aval, canonicalize_axes, check_arraylike
from .functions import logsumexp, relu6, sigmoid, softplus

__all__ = ["glu", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "identity",
           "log1mexp", "logmeanexp", "mish", "soft_sign", "sparse_plus", "sparse_sigmoid",
           "squareplus", "tanh"]

tanh = jnp.tanh


@jit
def identity(x):
    """``x`` itself, as an array."""
    check_arraylike("identity", x)
    return jnp.asarray(x)


@jit
def hard_sigmoid(x):
    """``relu6(x + 3) / 6``: a piecewise-linear sigmoid."""
    return relu6(x + 3.0) / 6.0


@jit
def hard_silu(x):
    """``x * hard_sigmoid(x)`` (also ``hard_swish``)."""
    check_arraylike("hard_silu", x)
    x = jnp.asarray(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


@jit
def hard_tanh(x):
    """``x`` clipped to ``[-1, 1]``."""
    check_arraylike("hard_tanh", x)
    x = jnp.asarray(x)
    return jnp.where(x > 1, 1, jnp.where(x < -1, -1, x))


@jit
def mish(x):
    """``x * tanh(softplus(x))``."""
    check_arraylike("mish", x)
    x = jnp.asarray(x)
    return x * jnp.tanh(softplus(x))


@jit
def soft_sign(x):
    """``x / (|x| + 1)``."""
    check_arraylike("soft_sign", x)
    x = jnp.asarray(x)
    return x / (jnp.abs(x) + 1)


@jit(inline=True)
def sparse_plus(x):
    """0 at and below -1, ``x`` at and above 1, ``(x + 1)**2 / 4`` between."""
    check_arraylike("sparse_plus", x)
    x = jnp.asarray(x)
    return jnp.where(x <= -1.0, 0.0, jnp.where(x >= 1.0, x, (x + 1.0) ** 2 / 4))


@jit
def sparse_sigmoid(x):
    """``clip(x + 1, 0, 2) / 2``: 0 below -1, 1 above 1, linear between."""
    return 0.5 * jnp.clip(x + 1.0, 0.0, 2.0)


@jit
def squareplus(x, b=4):
    """``(x + sqrt(x**2 + b)) / 2``, a smooth ``relu``."""
    check_arraylike("squareplus", x, b)
    x, b = jnp.asarray(x), jnp.asarray(b)
    return (x + jnp.sqrt(jnp.square(x) + b)) / 2


@custom_jvp
@jit
def log1mexp(x):
    """``log(1 - exp(-x))`` for ``x > 0``, by ``log(-expm1(-x))`` below ``log 2`` and
    ``log1p(-exp(-x))`` above, each where it is accurate."""
    check_arraylike("log1mexp", x)
    x = jnp.asarray(x)
    return jnp.where(x < jnp.log(2.0), jnp.log(-jnp.expm1(-x)), jnp.log1p(-jnp.exp(-x)))


log1mexp.defjvps(lambda g, ans, x: g / jnp.expm1(x))


@jit(static_argnames=("axis",))
def glu(x, axis: int = -1):
    """Gated linear unit: the first half of ``x`` along ``axis`` times ``sigmoid`` of
    the second half.

    Raises
    ------
    AssertionError
        When that axis has odd length (as JAX).
    """
    check_arraylike("glu", x)
    x = jnp.asarray(x)
    assert aval(x).shape[axis] % 2 == 0, "axis size must be divisible by 2"
    x1, x2 = jnp.split(x, 2, axis)
    return x1 * sigmoid(x2)


@jit(static_argnames=("axis", "keepdims"))
def logmeanexp(x, axis=None, where=None, keepdims: bool = False):
    """``logsumexp(x) - log(n)``, ``n`` the number of (``where``-selected) elements
    reduced."""
    lse = logsumexp(x, axis=axis, where=where, keepdims=keepdims)
    dtype = aval(lse).dtype
    shape = aval(x).shape
    if where is None:
        axes = range(len(shape)) if axis is None else canonicalize_axes(axis, len(shape))
        count = lax.convert_element_type(math.prod(shape[a] for a in axes), dtype)
    else:
        count = jnp.sum(jnp.broadcast_to(where, shape), axis, dtype=dtype,
                        keepdims=keepdims)
    return lse - jnp.log(count)

