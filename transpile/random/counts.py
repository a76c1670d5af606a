"""Count samplers: binomial, multinomial and poisson, as JAX 0.10.2 computes them.

``binomial`` follows TensorFlow's kernel, as JAX does: where ``n * min(p, 1 - p) <= 10``
it counts geometric waiting times (inversion), elsewhere it runs Hormann's
transformed-rejection sampler (BTRS); both loops run over the whole array until every
element is done, so both are computed and the right one selected per element.
``multinomial`` is a ``scan`` of binomial draws over the categories.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes, lax
from .. import numpy as jnp
from ..numpy._util import check_arraylike, promote_dtypes_inexact
from .continuous import check_shape, float_dtype, sampler_jit, uniform
from .continuous_extra import split_n
from .keys import check_prng_key, random_split_p

__all__ = ["binomial", "multinomial", "poisson"]

#: log(k!) - Stirling's approximation of it, for k = 0 .. 9
_STIRLING_TAIL = [0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                  0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                  0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                  0.00833056343336287]


def _stirling_approx_tail(k):
    table = jnp.array(_STIRLING_TAIL, dtype=k.dtype)
    small = k <= 9
    k = lax.clamp(np.array(0.0, k.dtype), k, np.array(9.0, k.dtype))
    kp1sq = (k + 1) * (k + 1)
    approx = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)
    k = jnp.floor(k)
    return lax.select(small, table[jnp.asarray(k, dtype="int32")], approx)


def _binomial_inversion(key, count, prob, shape, dtype, max_iters):
    log1minusprob = jnp.log1p(-prob)

    def body(carry):
        i, num_geom, geom_sum, key = carry
        subkey, key = split_n(key)
        num_geom_out = lax.select(geom_sum <= count, num_geom + 1, num_geom)
        u = uniform(subkey, shape, prob.dtype)
        geom = jnp.ceil(jnp.log(u) / log1minusprob)
        return i + 1, num_geom_out, geom_sum + geom, key

    def cond(carry):
        i, geom_sum = carry[0], carry[2]
        return (geom_sum <= count).any() & (i < max_iters)

    init = (0, lax.full_like(prob, 0, prob.dtype, shape),
            lax.full_like(prob, 0, prob.dtype, shape), key)
    k = lax.while_loop(cond, body, init)[1]
    return (k - 1).astype(dtype)


def _btrs(key, count, prob, shape, dtype, max_iters):
    stddev = jnp.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = jnp.floor((count + 1) * prob)

    def body(carry):
        i, k_out, accepted, key = carry
        key, subkey_0, subkey_1 = split_n(key, 3)
        u = uniform(subkey_0, shape, prob.dtype)
        v = uniform(subkey_1, shape, prob.dtype)
        u = u - 0.5
        us = 0.5 - jnp.abs(u)
        accept1 = (us >= 0.07) & (v <= v_r)
        k = jnp.floor((2 * a / us + b) * u + c)
        reject = (k < 0) | (k > count)
        v = jnp.log(v * alpha / (a / (us * us) + b))
        bound = ((m + 0.5) * jnp.log((m + 1) / (r * (count - m + 1)))
                 + (count + 1) * jnp.log((count - m + 1) / (count - k + 1))
                 + (k + 0.5) * jnp.log(r * (count - k + 1) / (k + 1))
                 + _stirling_approx_tail(m)
                 + _stirling_approx_tail(count - m)
                 - _stirling_approx_tail(k)
                 - _stirling_approx_tail(count - k))
        accept = accept1 | (~reject & (v <= bound))
        return i + 1, lax.select(accept, k, k_out), accepted | accept, key

    def cond(carry):
        i, accepted = carry[0], carry[2]
        return (~accepted).any() & (i < max_iters)

    init = (0, lax.full_like(prob, -1, prob.dtype, shape), jnp.full(shape, False, bool), key)
    return lax.while_loop(cond, body, init)[1].astype(dtype)


def binomial(key, n, p, shape=None, dtype=None):
    """Binomial counts of ``n`` trials with success probability ``p``, as floats.

    Parameters
    ----------
    key : key
    n, p : array_like
        Broadcastable to ``shape``. A non-integer ``n`` is floored; ``n = inf`` gives
        ``inf``; a negative or NaN ``n``, or a NaN or negative ``p``, gives NaN.
    shape : tuple of int, optional
        Default: the broadcast shape of ``n`` and ``p``.
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("binomial", key)
    check_arraylike("binomial", n, p)
    dt = float_dtype("binomial", dtype)
    if shape is not None:
        shape = core.canonicalize_shape(shape)
    return _binomial(key, n, p, shape, dt)


def _binomial(key, count, prob, shape, dtype):
    if shape is None:
        shape = tuple(jnp.broadcast_shapes(np.shape(count), np.shape(prob)))
    else:
        check_shape("binomial", shape, np.shape(count), np.shape(prob))
    count, prob = jnp.asarray(count), jnp.asarray(prob)  # as traced by JAX's inline jit
    prob, = promote_dtypes_inexact(prob)
    count = lax.convert_element_type(count, prob.dtype)
    count = jnp.broadcast_to(count, shape)
    prob = jnp.broadcast_to(prob, shape)
    # Sample with q = min(p, 1 - p) and reflect: fewer loop rounds.
    p_lt_half = prob < 0.5
    q = lax.select(p_lt_half, prob, 1.0 - prob)
    count_nan_or_neg = lax.ne(count, count) | (count < 0.0)
    count_inf = jnp.isinf(count)
    q_is_nan = lax.ne(q, q)
    q_l_0 = q < 0.0
    q = lax.select(q_is_nan | q_l_0, lax.full_like(q, 0.01), q)
    use_inversion = count_nan_or_neg | (count * q <= 10.0)
    count = jnp.floor(count)  # as NumPy does for a float count
    count_inv = lax.select(use_inversion, count, lax.full_like(count, 0.0))
    count_btrs = lax.select(use_inversion, lax.full_like(count, 1e4), count)
    q_btrs = lax.select(use_inversion, lax.full_like(q, 0.5), q)
    max_iters = dtype.type(dtypes.finfo(dtype).max)
    samples = lax.select(use_inversion,
                         _binomial_inversion(key, count_inv, q, shape, dtype, max_iters),
                         _btrs(key, count_btrs, q_btrs, shape, dtype, max_iters))
    invalid = q_l_0 | q_is_nan | count_nan_or_neg
    samples = lax.select(invalid, jnp.full_like(samples, np.nan, dtype), samples)
    samples = lax.select(count_inf & ~invalid, jnp.full_like(samples, np.inf, dtype),
                         samples)
    return lax.select(p_lt_half | count_nan_or_neg | q_is_nan | count_inf, samples,
                      count.astype(dtype) - samples)


def multinomial(key, n, p, *, shape=None, dtype=None, unroll=1):
    """Multinomial counts: ``n`` trials over the categories of ``p`` (last axis).

    Parameters
    ----------
    key : key
    n : array_like
        Trials, broadcastable to ``shape[:-1]``.
    p : array_like
        Probabilities along the last axis (summing to 1).
    shape : tuple of int, optional
        Default ``p.shape``.
    dtype : float dtype, optional
        Default: ``p``'s promoted float dtype.
    unroll : int or bool
        Passed to the ``scan`` over categories.

    Returns
    -------
    Array
        ``shape``: per category, a binomial draw from what the earlier categories left.
    """
    key, _ = check_prng_key("multinomial", key)
    check_arraylike("multinomial", n, p)
    n, p = promote_dtypes_inexact(n, p)
    if shape is None:
        shape = p.shape
    n = jnp.broadcast_to(n, shape[:-1])
    p = jnp.broadcast_to(p, shape)

    def step(remainder, ratio_key):
        ratio, k = ratio_key
        count = binomial(k, remainder, ratio.clip(0, 1), dtype=remainder.dtype)
        return remainder - count, count

    p = jnp.moveaxis(p, -1, 0)
    remaining = lax.cumsum(p, 0, reverse=True)
    ratios = p / jnp.where(remaining == 0, 1, remaining)
    keys = random_split_p.bind(key, shape=(ratios.shape[0],))
    _, counts = lax.scan(step, n, (ratios, keys), unroll=unroll)
    if dtype is None:  # (astype(None) is the default float dtype, without a warning)
        dtype = dtypes.canonicalize_dtype(float)
    return jnp.moveaxis(counts, 0, -1).astype(dtype)


# ---------------------------------------------------------------------------------------
# poisson

def _poisson_knuth_impl(key, lam, shape, dtype, max_iters):
    # Knuth: multiply uniforms until the product drops below exp(-lam).
    def body(carry):
        i, k, rng, log_prod = carry
        rng, subkey = split_n(rng)
        k = lax.select(log_prod > -lam, k + 1, k)
        u = uniform(subkey, shape, np.float32)
        return i + 1, k, rng, log_prod + jnp.log(u)

    def cond(carry):
        i, log_prod = carry[0], carry[3]
        return (log_prod > -lam).any() & (i < max_iters)

    init = (0, lax.full_like(lam, 0, dtype, shape), key,
            lax.full_like(lam, 0, np.float32, shape))
    k = lax.while_loop(cond, body, init)[1]
    return (k - 1).astype(dtype)


_poisson_knuth_impl.__name__ = "_poisson_knuth"
_poisson_knuth = sampler_jit(_poisson_knuth_impl, static_argnums=(2, 3, 4))


def _poisson_rejection_impl(key, lam, shape, dtype, max_iters):
    # Hormann's transformed rejection (PTRS).
    log_lam = lax.log(lam)
    b = 0.931 + 2.53 * lax.sqrt(lam)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2)

    def body(carry):
        i, k_out, accepted, key = carry
        key, subkey_0, subkey_1 = split_n(key, 3)
        u = uniform(subkey_0, shape, lam.dtype) - 0.5
        v = uniform(subkey_1, shape, lam.dtype)
        u_shifted = 0.5 - abs(u)
        k = lax.floor((2 * a / u_shifted + b) * u + lam + 0.43)
        s = lax.log(v * inv_alpha / (a / (u_shifted * u_shifted) + b))
        t = -lam + k * log_lam - lax.lgamma(k + 1)
        accept1 = (u_shifted >= 0.07) & (v <= v_r)
        reject = (k < 0) | ((u_shifted < 0.013) & (v > u_shifted))
        accept = accept1 | (~reject & (s <= t))
        return i + 1, lax.select(accept, k, k_out), accepted | accept, key

    def cond(carry):
        i, accepted = carry[0], carry[2]
        return (~accepted).any() & (i < max_iters)

    init = (0, lax.full_like(lam, -1, lam.dtype, shape),
            lax.full_like(lam, False, np.dtype("bool"), shape), key)
    return lax.while_loop(cond, body, init)[1].astype(dtype)


_poisson_rejection_impl.__name__ = "_poisson_rejection"
_poisson_rejection = sampler_jit(_poisson_rejection_impl, static_argnums=(2, 3, 4))


def _poisson_impl(key, lam, shape, dtype):
    # Knuth below rate 10, transformed rejection above, as TensorFlow and NumPy do.
    use_knuth = lax.ne(lam, lam) | (lam < 10)
    lam_knuth = lax.select(use_knuth, lam, lax.full_like(lam, 0.0))
    lam_rejection = lax.select(use_knuth, lax.full_like(lam, 1e5), lam)
    max_iters = dtype.type(np.iinfo(dtype).max)
    result = lax.select(use_knuth,
                        _poisson_knuth(key, lam_knuth, shape, dtype, max_iters),
                        _poisson_rejection(key, lam_rejection, shape, dtype, max_iters))
    return lax.select(lam == 0, jnp.zeros_like(result), result)


_poisson_impl.__name__ = "_poisson"
_poisson = sampler_jit(_poisson_impl, static_argnums=(2, 3))


def poisson(key, lam, shape=None, dtype=None, *, out_sharding=None):
    """Poisson counts of rate ``lam``.

    Parameters
    ----------
    key : key
    lam : array_like
        Rates (>= 0), broadcastable to ``shape``; computed in float32.
    shape : tuple of int, optional
        Default: ``lam``'s shape.
    dtype : integer dtype, optional
        Default int32 (int64 with x64 enabled).

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("poisson", key)
    dt = dtypes.canonicalize_dtype(int if dtype is None else dtype,
                                   warn_name=None if dtype is None else "")
    shape = np.shape(lam) if shape is None else core.canonicalize_shape(shape)
    lam = lax.convert_element_type(jnp.broadcast_to(lam, shape), np.float32)
    return _poisson(key, lam, tuple(shape), dt)
