"""Gamma-based samplers: gamma, loggamma, beta, dirichlet, chisquare, f, t,
generalized_normal and ball, as JAX 0.10.2 computes them.

``gamma`` and ``loggamma`` stage JAX's ``random_gamma`` primitive
(:mod:`transpile.lax.random_gamma`); its expansion, registered here, is JAX's: one key
split off per element, then per element Marsaglia and Tsang's rejection loop (a
``while_loop`` drawing normals until ``v > 0`` inside a ``while_loop`` until
acceptance), vmapped over the elements; ``a < 1`` draws ``Gamma(a + 1)`` and scales by
``u ** (1 / a)`` (in log space for ``loggamma``). Every element's draw is a function of
its own key only, so the values do not depend on how the loop is batched.
"""
from __future__ import annotations

import functools
import math
import operator

import numpy as np

from .. import core, lax
from .. import numpy as jnp
from ..config import config
from ..interpreters.tracing import trace_to_jaxpr
from ..lax.call import EXPANSIONS
from ..lax.random_gamma import random_gamma_p
from ..vmapping import vmap
from .continuous import check_shape, exponential, float_dtype, normal, sampler_jit, uniform
from .continuous_extra import (broadcast_shape_arg, check_safe_casts, rademacher,
                              sampler_args, split_n)
from .keys import check_prng_key, random_split_p

__all__ = ["gamma", "loggamma", "beta", "dirichlet", "chisquare", "f", "t",
           "generalized_normal", "ball", "random_gamma_p"]


# ---------------------------------------------------------------------------------------
# The expansion of random_gamma

def _gamma_one(key, alpha, log_space: bool):
    """One Gamma(alpha) draw (its log with ``log_space``) from one key."""
    dt = alpha.dtype
    zero, one, minus_one, two = (np.array(v, dt) for v in (0, 1, -1, 2))
    half, third, squeeze = (np.array(v, dt) for v in (0.5, 1. / 3., 0.0331))
    # alpha < 1: Gamma(alpha) ~ Gamma(alpha + 1) * U ** (1 / alpha)
    boost_mask = lax.ge(alpha, one)
    alpha_orig = alpha
    alpha = lax.select(boost_mask, alpha, lax.add(alpha, one))
    d = lax.sub(alpha, third)
    c = lax.div(third, lax.sqrt(d))

    def rejected(state):
        # (not short-circuited: both tests are evaluated, as JAX does)
        _, x2, v, u = state
        return lax.bitwise_and(
            lax.ge(u, lax.sub(one, lax.mul(squeeze, lax.mul(x2, x2)))),
            lax.ge(lax.log(u), lax.add(lax.mul(x2, half),
                                       lax.mul(d, lax.add(lax.sub(one, v), lax.log(v))))))

    def next_xv(state):
        k, subkey = split_n(state[0])
        x = normal(subkey, (), dtype=dt)
        return k, x, lax.add(one, lax.mul(x, c))

    def propose(state):
        k, x_key, u_key = split_n(state[0], 3)
        _, x, v = lax.while_loop(lambda s: lax.le(s[2], zero), next_xv,
                                 (x_key, zero, minus_one))
        return k, lax.mul(x, x), lax.mul(lax.mul(v, v), v), uniform(u_key, (), dtype=dt)

    key, subkey = split_n(key)
    # (zero, one, two) for (x2, v, u) makes the first test pass: at least one proposal
    _, _, v, _ = lax.while_loop(rejected, propose, (key, zero, one, two))
    if log_space:
        log_u = lax.neg(exponential(subkey, (), dtype=dt))
        log_boost = lax.select(boost_mask | (log_u == 0), zero,
                               lax.mul(log_u, lax.div(one, alpha_orig)))
        return lax.add(lax.add(lax.log(d), lax.log(v)), log_boost)
    u = 1 - uniform(subkey, (), dtype=dt)
    boost = lax.select(boost_mask, one, lax.pow(u, lax.div(one, alpha_orig)))
    return lax.mul(lax.mul(d, v), boost)


def _gamma_expanded(key, a, log_space: bool):
    """JAX's ``_gamma_impl`` (its vmapped form): a key per element of ``a``."""
    a_shape = a.shape
    count = math.prod(a_shape[key.ndim:])
    keys = vmap(lambda k: random_split_p.bind(k, shape=(count,)))(key.reshape(-1))
    samples = vmap(lambda k, x: _gamma_one(k, x, log_space))(keys.reshape(-1),
                                                             a.reshape(-1))
    return samples.reshape(a_shape)


@functools.lru_cache(maxsize=64)
def _expansion(key_aval, a_aval, log_space: bool, _x64: bool):
    return trace_to_jaxpr(lambda k, a: [_gamma_expanded(k, a, log_space)],
                          [key_aval, a_aval])


def _expand(in_avals, *, log_space):
    key, a = in_avals
    return _expansion(key, a, bool(log_space), bool(config.read("jax_enable_x64")))


EXPANSIONS[random_gamma_p] = _expand


# ---------------------------------------------------------------------------------------
# gamma, loggamma

def gamma(key, a, shape=None, dtype=None, *, out_sharding=None):
    """Standard gamma floats (scale 1) of shape parameter ``a``.

    Parameters
    ----------
    key : key
    a : array_like
        Broadcastable to ``shape``; positive.
    shape : tuple of int, optional
        Default: ``a``'s shape.
    dtype : float dtype, optional

    Returns
    -------
    Array
        Divide by a rate (or multiply by a scale) for other gamma distributions.
    """
    key, _ = check_prng_key("gamma", key)
    dt = float_dtype("gamma", dtype)
    if shape is not None:
        shape = core.canonicalize_shape(shape)
    return _gamma(key, a, shape=shape, dtype=dt)


def loggamma(key, a, shape=None, dtype=None, *, out_sharding=None):
    """The log of standard gamma draws, accurate where ``a << 1`` makes the draws
    underflow; ``exp(loggamma(k, a))`` is close to ``gamma(k, a)``.

    Parameters
    ----------
    key : key
    a : array_like
    shape : tuple of int, optional
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("loggamma", key)
    dt = float_dtype("gamma", dtype)
    if shape is not None:
        shape = core.canonicalize_shape(shape)
    return _gamma(key, a, shape=shape, dtype=dt, log_space=True)


def _gamma_impl(key, a, shape, dtype, log_space=False):
    if shape is None:
        shape = np.shape(a)
    else:
        check_shape("gamma", shape, np.shape(a))
    a = lax.convert_element_type(a, dtype)
    if np.shape(a) != tuple(shape):
        a = jnp.broadcast_to(a, shape)
    return random_gamma_p.bind(key, a, log_space=log_space)


_gamma_impl.__name__ = "_gamma"
_gamma = sampler_jit(_gamma_impl, static_argnames=("shape", "dtype", "log_space"))


# ---------------------------------------------------------------------------------------
# beta, dirichlet

def beta(key, a, b, shape=None, dtype=None, *, out_sharding=None):
    """Beta floats: ``Ga / (Ga + Gb)`` from two log-gamma draws.

    Parameters
    ----------
    key : key
    a, b : array_like
        Broadcastable to ``shape``.
    shape : tuple of int, optional
        Default: the broadcast shape of ``a`` and ``b``.
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("beta", key)
    dt = float_dtype("beta", dtype)
    check_safe_casts("beta", dt, a, b)
    shape = broadcast_shape_arg("beta", shape, a, b)
    return _beta(key, a, b, shape, dt)


def _beta_impl(key, a, b, shape, dtype):
    a = lax.convert_element_type(a, dtype)
    b = lax.convert_element_type(b, dtype)
    key_a, key_b = split_n(key)
    a = jnp.broadcast_to(a, shape)
    b = jnp.broadcast_to(b, shape)
    log_ga = loggamma(key_a, a, shape, dtype)
    log_gb = loggamma(key_b, b, shape, dtype)
    # Scaled by the larger draw, so that tiny draws do not both underflow to 0.
    log_max = lax.max(log_ga, log_gb)
    ga = jnp.exp(log_ga - log_max)
    gb = jnp.exp(log_gb - log_max)
    return ga / (ga + gb)


_beta_impl.__name__ = "_beta"
_beta = sampler_jit(_beta_impl, static_argnums=(3, 4))


def dirichlet(key, alpha, shape=None, dtype=None, *, out_sharding=None):
    """Dirichlet vectors: the softmax of log-gamma draws of ``alpha``.

    Parameters
    ----------
    key : key
    alpha : array_like
        ``(..., n)`` concentrations.
    shape : tuple of int, optional
        Batch shape, broadcast-compatible with ``alpha.shape[:-1]`` (default that).
    dtype : float dtype, optional

    Returns
    -------
    Array
        ``shape + (n,)``.
    """
    key, _ = check_prng_key("dirichlet", key)
    dt = float_dtype("dirichlet", dtype)
    if shape is not None:
        shape = core.canonicalize_shape(shape)
    return _dirichlet(key, alpha, shape, dt)


def _dirichlet_impl(key, alpha, shape, dtype):
    if not np.ndim(alpha) >= 1:
        raise ValueError(f"dirichlet requires alpha.ndim >= 1, got alpha.ndim == "
                         f"{np.ndim(alpha)}")
    if shape is None:
        shape = np.shape(alpha)[:-1]
    else:
        check_shape("dirichlet", shape, np.shape(alpha)[:-1])
    alpha = lax.convert_element_type(alpha, dtype)
    log_g = loggamma(key, alpha, tuple(shape) + np.shape(alpha)[-1:], dtype)
    return _softmax_last(log_g)


_dirichlet_impl.__name__ = "_dirichlet"
_dirichlet = sampler_jit(_dirichlet_impl, static_argnums=(2, 3))


# ---------------------------------------------------------------------------------------
# chisquare, f, t

def chisquare(key, df, shape=None, dtype=None, *, out_sharding=None):
    """Chi-square floats with ``df`` degrees of freedom: ``2 * Gamma(df / 2)``.

    Parameters
    ----------
    key : key
    df : array_like
    shape : tuple of int, optional
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, dt, shape = sampler_args("chisquare", key, dtype, shape, df)
    return _chisquare(key, df, shape, dt)


def _chisquare_impl(key, df, shape, dtype):
    df = lax.convert_element_type(df, dtype)
    two = np.array(2, dtype)
    half_df = lax.div(df, two)
    log_g = loggamma(key, a=half_df, shape=shape, dtype=dtype)
    return lax.mul(jnp.exp(log_g), two)


_chisquare_impl.__name__ = "_chisquare"
_chisquare = sampler_jit(_chisquare_impl, static_argnums=(2, 3))


def f(key, dfnum, dfden, shape=None, dtype=None, *, out_sharding=None):
    """F-distributed floats: a ratio of two scaled chi-square draws.

    Parameters
    ----------
    key : key
    dfnum, dfden : array_like
        Degrees of freedom of the numerator and denominator.
    shape : tuple of int, optional
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, dt, shape = sampler_args("f", key, dtype, shape, dfnum, dfden)
    return _f(key, dfnum, dfden, shape, dt)


def _f_impl(key, dfnum, dfden, shape, dtype):
    dfden = lax.convert_element_type(dfden, dtype)
    dfnum = lax.convert_element_type(dfnum, dtype)
    key_den, key_num = split_n(key)
    chi2_num = chisquare(key_num, dfnum, shape, dtype)
    chi2_den = chisquare(key_den, dfden, shape, dtype)
    return lax.div(lax.div(chi2_num, dfnum), lax.div(chi2_den, dfden))


_f_impl.__name__ = "_f"
_f = sampler_jit(_f_impl, static_argnums=(3, 4))


def t(key, df, shape=None, dtype=None, *, out_sharding=None):
    """Student's t floats: ``z * sqrt(df / 2 / Gamma(df / 2))``.

    Parameters
    ----------
    key : key
    df : array_like
    shape : tuple of int, optional
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, dt, shape = sampler_args("t", key, dtype, shape, df)
    return _t(key, df, shape, dt)


def _t_impl(key, df, shape, dtype):
    if shape is None:
        shape = np.shape(df)
    else:
        check_shape("t", shape, np.shape(df))
    df = lax.convert_element_type(df, dtype)
    key_n, key_g = split_n(key)
    n = normal(key_n, shape, dtype)
    half_df = lax.div(df, np.array(2, dtype))
    g = gamma(key_g, half_df, shape, dtype)
    return n * jnp.sqrt(half_df / g)


_t_impl.__name__ = "_t"
_t = sampler_jit(_t_impl, static_argnums=(2, 3))


# ---------------------------------------------------------------------------------------
# generalized_normal, ball

def generalized_normal(key, p, shape=(), dtype=None, *, out_sharding=None):
    """Generalized normal floats of power ``p`` (density ~ ``exp(-|x| ** p)``):
    ``sign * Gamma(1 / p) ** (1 / p)``.

    Parameters
    ----------
    key : key
    p : float
    shape : tuple of int
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    shape = core.canonicalize_shape(shape)
    key, _ = check_prng_key("generalized_normal", key)
    dt = float_dtype("generalized_normal", dtype)
    check_shape("generalized_normal", shape)
    return _generalized_normal(key, p, shape, dt)


def _generalized_normal_impl(key, p, shape, dtype):
    k_gamma, k_sign = split_n(key)
    g = gamma(k_gamma, 1 / p, shape, dtype)
    r = rademacher(k_sign, shape, dtype)
    return r * g ** (1 / p)


_generalized_normal_impl.__name__ = "_generalized_normal"
_generalized_normal = sampler_jit(_generalized_normal_impl, static_argnums=(2, 3))


def ball(key, d, p=2, shape=(), dtype=None, *, out_sharding=None):
    """Points uniform in the unit ``p``-norm ball of dimension ``d``.

    Parameters
    ----------
    key : key
    d : int
        The dimension.
    p : float
        The norm (default 2).
    shape : tuple of int
        Batch shape.
    dtype : float dtype, optional

    Returns
    -------
    Array
        ``shape + (d,)``.
    """
    shape = core.canonicalize_shape(shape)
    key, _ = check_prng_key("ball", key)
    dt = float_dtype("ball", dtype)
    check_shape("ball", shape)
    d = operator.index(core.concrete_or_error(d, "The error occurred in jax.random.ball()"))
    return _ball(key, p, d, shape, dt)


def _ball_impl(key, p, d, shape, dtype):
    k1, k2 = split_n(key)
    g = generalized_normal(k1, p, (*shape, d), dtype)
    e = exponential(k2, shape, dtype)
    return g / (((jnp.abs(g) ** p).sum(-1) + e) ** (1 / p))[..., None]


_ball_impl.__name__ = "_ball"
_ball = sampler_jit(_ball_impl, static_argnums=(2, 3, 4))


def _softmax_last(x):
    """Softmax over the last axis without ``nn`` (a library above ``random``: its
    initializers draw from here). The shift by the maximum only guards exp against
    overflow, so no gradient flows through it."""
    shifted = jnp.exp(x - lax.stop_gradient(jnp.max(x, axis=-1, keepdims=True)))
    return shifted / jnp.sum(shifted, axis=-1, keepdims=True)
