"""More continuous (and sign) samplers, each a closed-form transform of ``uniform`` or
``normal`` as JAX 0.10.2 computes it: cauchy, pareto, rayleigh, wald, triangular,
lognormal, maxwell, double_sided_maxwell, weibull_min, rademacher, geometric and
orthogonal, plus ``key_dtype``.

As in :mod:`.continuous`, each public function validates its arguments eagerly with
JAX's messages and calls a jitted helper of JAX's name (``_cauchy``, ``_pareto``, ...)
with the shape and dtype static; JAX's ``inline=True`` helpers (``_triangular``,
``_lognormal``) are plain functions here, so they stage no ``jit`` equation either.
"""
from __future__ import annotations

import operator

import numpy as np

from .. import core, dtypes, lax
from .. import numpy as jnp
from ..numpy import asarray
from ..numpy._util import broadcast_shapes, check_arraylike, promote_dtypes_inexact
from .continuous import (check_shape, exponential, float_dtype, normal, sampler_jit,
                         uniform)
from .discrete import bernoulli
from .keys import check_prng_key, random_split_p

__all__ = ["cauchy", "pareto", "rayleigh", "wald", "triangular", "lognormal", "maxwell",
           "double_sided_maxwell", "weibull_min", "rademacher", "geometric", "orthogonal",
           "key_dtype", "TypePromotionError", "broadcast_shape_arg", "check_safe_casts",
           "split_n"]


class TypePromotionError(ValueError):
    """A sampler parameter whose dtype does not promote to the requested dtype (JAX's
    ``jax.errors``-style name)."""


def split_n(key, n: int = 2) -> tuple:
    """``n`` keys split from ``key``, unpacked (JAX's ``key_a, key_b = _split(key)``)."""
    return tuple(random_split_p.bind(key, shape=(n,)))


def broadcast_shape_arg(name: str, shape, *args) -> tuple:
    """JAX's ``_check_broadcast_shapes``: ``shape`` checked against the parameters'
    shapes, or (``None``) their broadcast shape."""
    arg_shapes = [np.shape(a) for a in args]
    if shape is None:
        return tuple(broadcast_shapes(*arg_shapes)) if arg_shapes else ()
    shape = core.canonicalize_shape(shape)
    check_shape(name, shape, *arg_shapes)
    return shape


def check_safe_casts(name: str, dtype, *args) -> None:
    """Refuse parameters whose type would not promote to ``dtype`` (a float64 array
    for a float32 draw), with JAX's ``TypePromotionError``."""
    for arg in args:
        got = dtypes.dtype(arg)
        if got != dtype and dtypes.result_type(arg, dtype) != dtype:
            raise TypePromotionError(f"In arguments to {name}, cannot safely cast argument "
                                     f"of type {asarray(arg).dtype} to {dtype}")



def sampler_args(name: str, key, dtype, shape, *params, what: str = "a float"):
    """``(key, dtype, shape)`` of a sampler with distribution parameters ``params``,
    checked in JAX's order: the key, the dtype, the shapes, then the safe casts."""
    key, _ = check_prng_key(name, key)
    dt = float_dtype(name, dtype, what=what)
    shape = broadcast_shape_arg(name, shape, *params)
    check_safe_casts(name, dt, *params)
    return key, dt, shape

def _const(x, value):
    return np.array(value, x.dtype)


# ---------------------------------------------------------------------------------------
# cauchy, pareto, rayleigh, wald, weibull_min

def cauchy(key, shape=(), dtype=None, *, out_sharding=None):
    """Standard Cauchy floats: ``tan(pi * (u - 1/2))`` for ``u`` uniform in
    ``[eps, 1)``.

    Parameters
    ----------
    key : key
    shape : tuple of int
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("cauchy", key)
    dt = float_dtype("cauchy", dtype)
    return _cauchy(key, core.canonicalize_shape(shape), dt)


def _cauchy_impl(key, shape, dtype):
    check_shape("cauchy", shape)
    u = uniform(key, shape, dtype, minval=dtypes.finfo(dtype).eps, maxval=1.)
    return lax.tan(lax.mul(_const(u, np.pi), lax.sub(u, _const(u, 0.5))))


_cauchy_impl.__name__ = "_cauchy"
_cauchy = sampler_jit(_cauchy_impl, static_argnums=(1, 2))


def pareto(key, b, shape=None, dtype=None, *, out_sharding=None):
    """Pareto floats of shape ``b`` (scale 1): ``exp(e / b)``, ``e`` exponential.

    Parameters
    ----------
    key : key
    b : array_like
        The shape parameter, broadcastable to ``shape``.
    shape : tuple of int, optional
        Default: ``b``'s shape.
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, dt, shape = sampler_args("pareto", key, dtype, shape, b)
    return _pareto(key, b, shape, dt)


def _pareto_impl(key, b, shape, dtype):
    b = lax.convert_element_type(b, dtype)
    return lax.exp(exponential(key, shape, dtype) / b)


_pareto_impl.__name__ = "_pareto"
_pareto = sampler_jit(_pareto_impl, static_argnums=(2, 3))


def rayleigh(key, scale, shape=None, dtype=None, *, out_sharding=None):
    """Rayleigh floats: ``scale * sqrt(-2 log u)``.

    Parameters
    ----------
    key : key
    scale : array_like
        Broadcastable to ``shape``.
    shape : tuple of int, optional
        Default: ``scale``'s shape.
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, dt, shape = sampler_args("rayleigh", key, dtype, shape, scale)
    return _rayleigh(key, scale, shape, dt)


def _rayleigh_impl(key, scale, shape, dtype):
    u = uniform(key, shape, dtype)
    scale = jnp.broadcast_to(scale.astype(dtype), shape)
    root = lax.sqrt(lax.mul(lax.log(u), _const(scale, -2)))
    return lax.mul(scale, root)


_rayleigh_impl.__name__ = "_rayleigh"
_rayleigh = sampler_jit(_rayleigh_impl, static_argnums=(2, 3))


def wald(key, mean, shape=None, dtype=None, *, out_sharding=None):
    """Wald (inverse Gaussian) floats of the given ``mean`` (scale 1), by the
    Michael-Schucany-Haas transform of a normal and a uniform draw.

    Parameters
    ----------
    key : key
    mean : array_like
        Broadcastable to ``shape``.
    shape : tuple of int, optional
        Default: ``mean``'s shape.
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, dt, shape = sampler_args("wald", key, dtype, shape, mean)
    return _wald(key, mean, shape, dt)


def _wald_impl(key, mean, shape, dtype):
    k1, k2 = split_n(key)
    mean = jnp.broadcast_to(mean.astype(dtype), shape)
    v = normal(k1, shape, dtype)
    z = uniform(k2, shape, dtype)
    y = lax.integer_pow(v, 2)
    y_sq = lax.integer_pow(y, 2)
    mean_sq = lax.integer_pow(mean, 2)
    root = lax.sqrt(4 * mean * y + mean_sq * y_sq)
    x = mean + mean_sq * y / 2 - mean / 2 * root
    return lax.select(lax.le(z, mean / (mean + x)), x, mean_sq / x)


_wald_impl.__name__ = "_wald"
_wald = sampler_jit(_wald_impl, static_argnums=(2, 3))


def weibull_min(key, scale, concentration, shape=(), dtype=None):
    """Weibull floats: ``(-log1p(-u)) ** (1 / concentration) * scale``.

    Parameters
    ----------
    key : key
    scale, concentration : array_like
        Broadcast against the draw of ``shape``.
    shape : tuple of int
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("weibull_min", key)
    dt = float_dtype("weibull_min", dtype)
    return _weibull_min(key, scale, concentration, core.canonicalize_shape(shape), dt)


def _weibull_min_impl(key, scale, concentration, shape, dtype):
    u = uniform(key, shape, dtype, minval=0, maxval=1)
    return jnp.power(-jnp.log1p(-u), 1.0 / concentration) * scale


_weibull_min_impl.__name__ = "_weibull_min"
_weibull_min = sampler_jit(_weibull_min_impl, static_argnums=(3, 4))


# ---------------------------------------------------------------------------------------
# triangular, lognormal (JAX inlines their helpers: no jit equation)

def triangular(key, left, mode, right, shape=None, dtype=None, *, out_sharding=None):
    """Triangular floats on ``[left, right]`` peaking at ``mode``, by inverting the
    CDF of one uniform draw.

    Parameters
    ----------
    key : key
    left, mode, right : array_like
        Broadcastable to ``shape``.
    shape : tuple of int, optional
        Default: the broadcast shape of the parameters.
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, dt, shape = sampler_args("triangular", key, dtype, shape, left, mode, right)
    left = jnp.broadcast_to(lax.convert_element_type(left, dt), shape)
    right = jnp.broadcast_to(lax.convert_element_type(right, dt), shape)
    mode = jnp.broadcast_to(lax.convert_element_type(mode, dt), shape)
    fc = (mode - left) / (right - left)
    u = uniform(key, shape, dt)
    below = left + lax.sqrt(u * (right - left) * (mode - left))
    above = right - lax.sqrt((1 - u) * (right - left) * (right - mode))
    return lax.select(u < fc, below, above)


def lognormal(key, sigma=np.float32(1), shape=None, dtype=None, *, out_sharding=None):
    """Log-normal floats: ``exp(sigma * z)``, ``z`` standard normal.

    Parameters
    ----------
    key : key
    sigma : array_like
        Broadcastable to ``shape``.
    shape : tuple of int, optional
        Default: ``sigma``'s shape.
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, dt, shape = sampler_args("lognormal", key, dtype, shape, sigma,
                                  what="a float or complex")
    sigma = lax.convert_element_type(sigma, dt)
    return lax.exp(normal(key, shape, dt) * sigma)


# ---------------------------------------------------------------------------------------
# maxwell, double_sided_maxwell, rademacher

def maxwell(key, shape=(), dtype=None, *, out_sharding=None):
    """Maxwell floats: the Euclidean norm of three standard normals.

    Parameters
    ----------
    key : key
    shape : tuple of int
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("maxwell", key)
    dt = float_dtype("maxwell", dtype)
    return _maxwell(key, core.canonicalize_shape(shape), dt)


def _maxwell_impl(key, shape, dtype):
    return jnp.linalg.norm(normal(key, tuple(shape) + (3,), dtype), axis=-1)


_maxwell_impl.__name__ = "_maxwell"
_maxwell = sampler_jit(_maxwell_impl, static_argnums=(1, 2))


def double_sided_maxwell(key, loc, scale, shape=(), dtype=None):
    """Double-sided Maxwell floats: a Maxwell draw with a random sign, times ``scale``,
    plus ``loc``.

    Parameters
    ----------
    key : key
    loc, scale : array_like
    shape : tuple of int
        The draw has shape ``shape + broadcast(loc, scale).shape`` (``shape=()`` gives
        the parameters' broadcast shape, doubled as in JAX).
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("double_sided_maxwell", key)
    dt = float_dtype("double_sided_maxwell", dtype)
    return _double_sided_maxwell(key, loc, scale, core.canonicalize_shape(shape), dt)


def _double_sided_maxwell_impl(key, loc, scale, shape, dtype):
    params_shape = tuple(broadcast_shapes(np.shape(loc), np.shape(scale)))
    if not shape:
        shape = params_shape
    shape = tuple(shape) + params_shape
    maxwell_key, sign_key = split_n(key)
    draws = maxwell(maxwell_key, shape=shape, dtype=dtype)
    sign = rademacher(sign_key, shape=shape, dtype=dtype)
    return sign * draws * scale + loc


_double_sided_maxwell_impl.__name__ = "_double_sided_maxwell"
_double_sided_maxwell = sampler_jit(_double_sided_maxwell_impl, static_argnums=(3, 4))


def rademacher(key, shape=(), dtype=None, *, out_sharding=None):
    """Random signs, -1 or +1 with equal probability.

    Parameters
    ----------
    key : key
    shape : tuple of int
    dtype : dtype, optional
        Default int32 (int64 with x64 enabled).

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("rademacher", key)
    dt = dtypes.canonicalize_dtype(int if dtype is None else dtype,
                                   warn_name=None if dtype is None else "")
    return _rademacher(key, core.canonicalize_shape(shape), dt)


def _rademacher_impl(key, shape, dtype):
    coin = bernoulli(key=key, p=0.5, shape=shape).astype(dtype)
    return (2 * coin - 1).astype(dtype)


_rademacher_impl.__name__ = "_rademacher"
_rademacher = sampler_jit(_rademacher_impl, static_argnums=(1, 2))


# ---------------------------------------------------------------------------------------
# geometric

def geometric(key, p, shape=None, dtype=None, *, out_sharding=None):
    """Geometric integers (trials to the first success, >= 1):
    ``floor(log u / log1p(-p)) + 1``.

    Parameters
    ----------
    key : key
    p : array_like
        Success probability, broadcastable to ``shape``.
    shape : tuple of int, optional
        Default: ``p``'s shape.
    dtype : integer dtype, optional
        Default int32 (int64 with x64 enabled).

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("geometric", key)
    dt = dtypes.canonicalize_dtype(int if dtype is None else dtype,
                                   warn_name=None if dtype is None else "")
    if dt.kind not in "iu":
        raise ValueError(f"dtype argument to `geometric` must be an int dtype, got {dt}")
    shape = broadcast_shape_arg("geometric", shape, p)
    return _geometric(key, p, shape, dt)


def _geometric_impl(key, p, shape, dtype):
    check_arraylike("geometric", p)
    p, = promote_dtypes_inexact(p)
    u = uniform(key, shape, p.dtype)
    # JAX maps u == 0 to 1 (a draw of 1) rather than log(0) = -inf.
    u = jnp.where(u == 0, 1, u)
    log_u = lax.log(u)
    log_q = jnp.broadcast_to(lax.log1p(-p), shape)
    return (lax.floor(lax.div(log_u, log_q)) + 1).astype(dtype)


_geometric_impl.__name__ = "_geometric"
_geometric = sampler_jit(_geometric_impl, static_argnums=(2, 3))


# ---------------------------------------------------------------------------------------
# orthogonal, key_dtype

def orthogonal(key, n, shape=(), dtype=None, m=None, *, out_sharding=None):
    """Haar-random matrices with orthonormal columns (or rows): the Q factor of a
    normal matrix, its columns' signs fixed by R's diagonal.

    Parameters
    ----------
    key : key
    n : int
        Rows.
    shape : tuple of int
        Batch shape.
    dtype : float dtype, optional
    m : int, optional
        Columns (default ``n``).

    Returns
    -------
    Array
        ``shape + (n, m)``.
    """
    cols = n if m is None else m
    shape = core.canonicalize_shape(shape)
    key, _ = check_prng_key("orthogonal", key)
    dt = dtypes.canonicalize_dtype(float if dtype is None else dtype,
                                   warn_name=None if dtype is None else "")
    check_shape("orthogonal", shape)
    n = operator.index(core.concrete_or_error(n, "The error occurred in "
                                              "jax.random.orthogonal()"))
    cols = operator.index(core.concrete_or_error(cols, "The error occurred in "
                                                 "jax.random.orthogonal()"))
    return _orthogonal(key, n, cols, shape, dt)


def _orthogonal_impl(key, n, m, shape, dtype):
    z = normal(key, (*shape, max(n, m), min(n, m)), dtype)
    q, r = jnp.linalg.qr(z)
    d = jnp.linalg.diagonal(r)
    x = q * jnp.expand_dims(jnp.sign(d), -2)
    return x.mT if n < m else x


_orthogonal_impl.__name__ = "_orthogonal"
_orthogonal = sampler_jit(_orthogonal_impl, static_argnums=(1, 2, 3, 4))


def key_dtype(impl_spec=None):
    """The dtype of typed keys (``key<fry>``) of the PRNG ``impl_spec`` (only
    ``"threefry2x32"``, the default)."""
    if impl_spec not in (None, "threefry2x32", "threefry"):
        raise NotImplementedError(f"transpile.random implements the threefry2x32 PRNG "
                                  f"only; {impl_spec!r} is not available")
    return dtypes.KEY_FRY_PUBLIC
