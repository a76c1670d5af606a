"""Discrete samplers: randint, bernoulli, categorical, choice and permutation, as JAX
0.10.2 computes them (same bits, same jaxprs).

``randint`` combines two independent draws of ``bits`` so that the bias of ``% span``
stays below ``2**-32`` for spans up to ``2**16`` as JAX does; ``permutation`` sorts by
random keys for as many rounds as make collisions negligible; ``categorical`` is the
Gumbel-max trick (Gumbel top-k without replacement).
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .. import core, dtypes, lax
from .. import numpy as jnp
from ..numpy import asarray, clip
from ..numpy._util import canonicalize_axis, check_arraylike, promote_dtypes_inexact
from .continuous import _UINT, _random_bits, check_shape, gumbel, sampler_jit, uniform
from .keys import check_prng_key, random_split_p

__all__ = ["randint", "bernoulli", "categorical", "choice", "permutation"]


def _split2(key):
    ks = random_split_p.bind(key, shape=(2,))
    return tuple(ks)


# ---------------------------------------------------------------------------------------
# randint

def randint(key, shape, minval, maxval, dtype=None, *, out_sharding=None):
    """Uniform integers in ``[minval, maxval)``.

    Parameters
    ----------
    key : key
    shape : tuple of int
    minval, maxval : array_like of int
        Broadcastable to ``shape``; clipped to ``dtype``'s range. ``maxval <= minval``
        gives ``minval``.
    dtype : integer dtype, optional
        Default int32 (int64 with x64 enabled).

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("randint", key)
    dt = dtypes.canonicalize_dtype(int if dtype is None else dtype,
                                   warn_name=None if dtype is None else "")
    shape = core.canonicalize_shape(shape)
    if dt.kind not in "iu":
        raise TypeError(f"randint only accepts integer dtypes, got {dt}")
    info = np.iinfo(dt)
    sampling = dt
    if info.bits < 32:
        # Narrow types sample as int32 with clipped bounds (a narrow span would wrap).
        sampling = np.dtype(np.int32)
        minval = asarray(minval).astype("int32").clip(int(info.min), int(info.max))
        maxval = asarray(maxval).astype("int32").clip(int(info.min), int(info.max) + 1)
    return _randint(key, minval, maxval, shape, sampling).astype(dt)


def _convert_and_clip_integer(val, dtype):
    """``val`` converted to ``dtype`` after clipping to the range both types hold."""
    info_to, info_from = np.iinfo(dtype), np.iinfo(val.dtype)
    lo, hi = max(info_to.min, info_from.min), min(info_to.max, info_from.max)
    if not dtypes.is_weakly_typed(val):  # bounds as weakly typed as the value, as JAX's
        lo, hi = np.array(lo, val.dtype), np.array(hi, val.dtype)
    return clip(val, lo, hi).astype(dtype)


def _randint_impl(key, minval, maxval, shape, dtype):
    check_shape("randint", shape, np.shape(minval), np.shape(maxval))
    check_arraylike("randint", minval, maxval)
    minval = jnp.asarray(minval)
    maxval = jnp.asarray(maxval)
    if minval.dtype.kind not in "iu":
        minval = minval.astype(int)
    if maxval.dtype.kind not in "iu":
        maxval = maxval.astype(int)
    maxval_out_of_range = lax.gt(maxval, _convert_and_clip_integer(
        jnp.array(np.iinfo(dtype).max, dtype), maxval.dtype))
    minval = _convert_and_clip_integer(minval, dtype)
    maxval = _convert_and_clip_integer(maxval, dtype)
    minval = lax.broadcast_to_rank(minval, len(shape))
    maxval = lax.broadcast_to_rank(maxval, len(shape))
    nbits = np.iinfo(dtype).bits
    k1, k2 = _split2(key)
    higher_bits = _random_bits(k1, nbits, shape)
    lower_bits = _random_bits(k2, nbits, shape)
    unsigned = _UINT[nbits]
    span = lax.convert_element_type(maxval - minval, unsigned)
    # An empty range gives minval; a maxval above the dtype's range is inclusive.
    span = lax.select(maxval <= minval, lax.full_like(span, 1), span)
    span = lax.select(maxval_out_of_range & (maxval > minval),
                      lax.add(span, np.array(1, unsigned)), span)
    # The high draw is scaled by 2**nbits mod span (wrapping, as in JAX) so that the
    # two draws together cover the span almost uniformly.
    multiplier = lax.rem(np.array(2 ** (nbits // 2), unsigned), span)
    multiplier = lax.rem(lax.mul(multiplier, multiplier), span)
    offset = lax.add(lax.mul(lax.rem(higher_bits, span), multiplier),
                     lax.rem(lower_bits, span))
    offset = lax.rem(offset, span)
    return lax.add(minval, lax.convert_element_type(offset, dtype))


_randint_impl.__name__ = "_randint"
_randint = sampler_jit(_randint_impl, static_argnums=(3, 4))


# ---------------------------------------------------------------------------------------
# bernoulli

def bernoulli(key, p=0.5, shape=None, mode="low", *, out_sharding=None):
    """Random booleans, True with probability ``p``.

    Parameters
    ----------
    key : key
    p : array_like of float
        Broadcastable to ``shape``; must have a floating dtype.
    shape : tuple of int, optional
        Default: ``p``'s shape.
    mode : {"low", "high"}
        ``"high"`` uses two uniforms for resolution below ``2**-23``.

    Returns
    -------
    Array
        bool.
    """
    if shape is not None:
        shape = core.canonicalize_shape(shape)
    if mode not in ("high", "low"):
        raise ValueError(f"got {mode=}, expected 'high' or 'low'")
    key, _ = check_prng_key("bernoulli", key)
    dt = dtypes.dtype(p)
    if not dtypes.is_float(dt):
        raise TypeError(f"bernoulli probability `p` must have a floating dtype, got {dt}.")
    p = lax.convert_element_type(p, dt)
    return _bernoulli(key, p, shape=shape, mode=mode)


def _bernoulli_impl(key, p, shape, mode):
    if shape is None:
        shape = np.shape(p)
    else:
        check_shape("bernoulli", shape, np.shape(p))
    dt = p.dtype
    if mode == "high":
        u1, u2 = uniform(key, (2, *shape), dt)
        u2 = u2 * 2 ** -int(dtypes.finfo(dt).nmant)
        return u2 < p - u1
    return uniform(key, shape, dt) < p


_bernoulli_impl.__name__ = "_bernoulli"
_bernoulli = sampler_jit(_bernoulli_impl, static_argnames=("shape", "mode"))


# ---------------------------------------------------------------------------------------
# permutation, choice

def permutation(key, x, axis=0, independent=False, *, out_sharding=None):
    """A random permutation of ``range(x)`` or of ``x`` along ``axis``.

    Parameters
    ----------
    key : key
    x : int or array_like
    axis : int
    independent : bool
        Shuffle each slice along ``axis`` independently (default: permute whole slices).

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("permutation", key)
    check_arraylike("permutation", x)
    axis = canonicalize_axis(axis, np.ndim(x) or 1)
    if not np.ndim(x):
        if dtypes.dtype(x).kind not in "iu":
            raise TypeError("x must be an integer or at least 1-dimensional")
        r = int(core.concrete_or_error(x, "argument x of jax.random.permutation()"))
        return _shuffle(key, jnp.arange(r), axis)
    x = jnp.asarray(x)
    if independent or np.ndim(x) == 1:
        return _shuffle(key, x, axis)
    ind = _shuffle(key, jnp.arange(x.shape[axis]), 0)
    return jnp.take(x, ind, axis, unique_indices=True)


def _shuffle_impl(key, x, axis):
    # Sort by random 32-bit keys, enough rounds that ties (which keep the previous
    # order) are negligible: ceil(3 ln(n) / ln(2**32 - 1)) rounds.
    exponent = 3
    uint32max = np.iinfo(np.uint32).max
    num_rounds = int(np.ceil(exponent * np.log(max(1, x.size)) / np.log(uint32max)))
    for _ in range(num_rounds):
        key, subkey = _split2(key)
        sort_keys = _random_bits(subkey, 32, x.shape)
        _, x = lax.sort_key_val(sort_keys, x, axis)
    return x


_shuffle_impl.__name__ = "_shuffle"
_shuffle = sampler_jit(_shuffle_impl, static_argnums=(2,))


def choice(key, a, shape=(), replace=True, p=None, axis=0, mode=None):
    """Random samples from ``range(a)`` or from ``a`` along ``axis``.

    Parameters
    ----------
    key : key
    a : int or array_like
    shape : tuple of int
    replace : bool
    p : array_like, optional
        Probabilities of the ``a.shape[axis]`` entries (default uniform).
    axis : int
    mode : str, optional
        Passed to ``gumbel`` when sampling without replacement with ``p``.

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("choice", key)
    if not isinstance(shape, Sequence):
        raise TypeError("shape argument of jax.random.choice must be a sequence, "
                        f"got {shape}")
    check_arraylike("choice", a)
    arr = jnp.asarray(a)
    if arr.ndim == 0:
        n_inputs = int(core.concrete_or_error(a, "The error occurred in jax.random.choice()"))
    else:
        axis = canonicalize_axis(axis, arr.ndim)
        n_inputs = arr.shape[axis]
    n_draws = math.prod(shape)
    if n_draws == 0:
        return jnp.zeros(shape, dtype=arr.dtype)
    if n_inputs <= 0:
        raise ValueError("a must be greater than 0 unless no samples are taken")
    if not replace and n_draws > n_inputs:
        raise ValueError(f"Cannot take a larger sample (size {n_draws}) than population "
                         f"(size {n_inputs}) when 'replace=False'")
    if p is None:
        if replace:
            ind = randint(key, shape, 0, n_inputs)
            result = ind if arr.ndim == 0 else jnp.take(arr, ind, axis)
        else:
            slices = (slice(None),) * axis + (slice(n_draws),)
            result = permutation(key, n_inputs if arr.ndim == 0 else arr, axis)[slices]
    else:
        check_arraylike("choice", p)
        p_arr, = promote_dtypes_inexact(p)
        if p_arr.shape != (n_inputs,):
            raise ValueError("p must be None or a 1D vector with the same size as "
                             f"a.shape[axis]. p has shape {p_arr.shape} and a.shape[axis] "
                             f"is {n_inputs}.")
        if replace:
            p_cuml = jnp.cumsum(p_arr)
            r = p_cuml[-1] * (1 - uniform(key, shape, dtype=p_cuml.dtype))
            ind = jnp.searchsorted(p_cuml, r).astype(int)
        else:
            # Gumbel top-k: sampling without replacement in proportion to p.
            g = gumbel(key, (n_inputs,), dtype=p_arr.dtype, mode=mode) + jnp.log(p_arr)
            ind = lax.top_k(g, k=n_draws)[1].astype(int)
        result = ind if arr.ndim == 0 else jnp.take(arr, ind, axis)
    return result.reshape(tuple(shape) if arr.ndim == 0 else
                          arr.shape[0:axis] + tuple(shape) + arr.shape[axis + 1:])


# ---------------------------------------------------------------------------------------
# categorical

def categorical(key, logits, axis=-1, shape=None, replace=True, mode=None, *,
                out_sharding=None):
    """Samples of category indices with log-probabilities ``logits`` along ``axis``.

    Parameters
    ----------
    key : key
    logits : array_like
        Unnormalised log-probabilities.
    axis : int
        The category axis.
    shape : tuple of int, optional
        Must end with the batch shape (``logits.shape`` without ``axis``); leading
        entries draw more samples. Default: the batch shape.
    replace : bool
        False: distinct categories per batch entry (Gumbel top-k).
    mode : str, optional
        Passed to ``gumbel``.

    Returns
    -------
    Array
        int32 (int64 with x64 enabled) indices.
    """
    key, _ = check_prng_key("categorical", key)
    check_arraylike("categorical", logits)
    logits_arr = jnp.asarray(logits)
    # NumPy integers, as JAX's (they show in its broadcasting error)
    batch_shape = tuple(np.delete(np.array(logits_arr.shape, dtype=np.int64), axis))
    if shape is None:
        shape = batch_shape
    else:
        shape = core.canonicalize_shape(shape)
        check_shape("categorical", shape, batch_shape)
    return _categorical(key, logits_arr, shape, batch_shape, axis, replace, mode)


def _categorical(key, logits_arr, shape, batch_shape, axis, replace, mode):
    shape_prefix = shape[:len(shape) - len(batch_shape)]
    ndim = len(logits_arr.shape)
    if replace:
        if axis >= 0:
            axis -= ndim
        logits_shape = list(shape[len(shape) - len(batch_shape):])
        logits_shape.insert(axis % ndim, logits_arr.shape[axis])
        g = gumbel(key, (*shape_prefix, *logits_shape), logits_arr.dtype, mode=mode)
        return jnp.argmax(g + lax.expand_dims(logits_arr, tuple(range(len(shape_prefix)))),
                          axis=axis)
    logits_arr = logits_arr + gumbel(key, logits_arr.shape, logits_arr.dtype, mode=mode)
    k = math.prod(shape_prefix)
    if k > logits_arr.shape[axis]:
        raise ValueError(f"Number of samples without replacement ({k}) cannot exceed "
                         f"number of categories ({logits_arr.shape[axis]}).")
    _, indices = lax.top_k(jnp.moveaxis(logits_arr, axis, -1), k)
    dimensions = (indices.ndim - 1, *range(indices.ndim - 1))
    return lax.reshape(indices, shape, dimensions)
