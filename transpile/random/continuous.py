"""Continuous samplers: bits, uniform, normal, truncated_normal, exponential, gumbel,
laplace, logistic and multivariate_normal, as JAX 0.10.2 computes them.

Each public function checks its arguments eagerly (JAX's messages) and calls a jitted
helper of JAX's name (``_uniform``, ``_normal``, ...) with the shape and dtype static,
so a traced sampler prints the same nested ``jit`` equations as JAX's. Floats come from
the top mantissa bits of ``random_bits`` (``uniform``), transformed elementwise.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes, lax
from .. import numpy as jnp
from ..jit import internal_jit
from ..numpy import asarray, clip
from ..numpy._util import broadcast_shapes, promote_dtypes_inexact
from .keys import check_prng_key, random_bits_p, random_split_p

__all__ = ["bits", "uniform", "normal", "truncated_normal", "exponential", "gumbel",
           "laplace", "logistic", "multivariate_normal", "check_shape", "float_dtype",
           "EAGER_COMPILE_MIN", "sampler_jit"]

#: Eager samplers with at least this many outputs run compiled, as JAX runs them (the
#: NumPy evaluator takes ~60x longer for a large draw; the bits are the same).
EAGER_COMPILE_MIN = 1 << 16


def sampler_jit(fun, **kwargs):
    """``internal_jit`` for a sampler's helper: staged as JAX's ``jit`` equation, and
    run compiled when called eagerly for a large draw."""
    return internal_jit(fun, eager_compile_min=EAGER_COMPILE_MIN, **kwargs)

_UINT = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: np.dtype(np.uint32),
         64: np.dtype(np.uint64)}


def check_shape(name: str, shape, *param_shapes) -> None:
    """JAX's check that parameter shapes broadcast to exactly ``shape``."""
    if param_shapes:
        got = tuple(broadcast_shapes(tuple(shape), *param_shapes))
        if tuple(shape) != got:
            raise ValueError(f"{name} parameter shapes must be broadcast-compatible with "
                             "shape argument, and the result of broadcasting the shapes must "
                             f"equal the shape argument, but got result {got} for shape "
                             f"argument {tuple(shape)}.")


def float_dtype(name: str, dtype, kinds: str = "f", what: str = "a float"):
    """The canonical dtype a sampler was asked for (default: the default float)."""
    dt = dtypes.canonicalize_dtype(float if dtype is None else dtype,
                                   warn_name=None if dtype is None else "")
    if dtypes.kind(dt) not in kinds:
        raise ValueError(f"dtype argument to `{name}` must be {what} dtype, got {dt}")
    return dt


def _random_bits(key, bit_width: int, shape):
    return random_bits_p.bind(key, bit_width=bit_width, shape=tuple(shape))


# ---------------------------------------------------------------------------------------
# bits, uniform

def bits(key, shape=(), dtype=None, *, out_sharding=None):
    """Uniformly random unsigned integers.

    Parameters
    ----------
    key : key
        A single PRNG key (typed or raw).
    shape : tuple of int
    dtype : unsigned integer dtype, optional
        Default ``uint32`` (``uint64`` with x64 enabled).

    Returns
    -------
    Array
        Of ``shape`` and ``dtype``.
    """
    key, _ = check_prng_key("bits", key)
    dt = dtypes.default_uint_dtype() if dtype is None else \
        dtypes.canonicalize_dtype(dtype, warn_name="")
    if dt.kind != "u":
        raise ValueError(f"dtype argument to `bits` must be an unsigned int dtype, got {dt}")
    shape = core.canonicalize_shape(shape)
    return _random_bits(key, dt.itemsize * 8, shape)


def uniform(key, shape=(), dtype=None, minval=0., maxval=1., *, out_sharding=None):
    """Uniform floats in ``[minval, maxval)``.

    Parameters
    ----------
    key : key
    shape : tuple of int
    dtype : float dtype, optional
        Default float32 (float64 with x64 enabled).
    minval, maxval : array_like
        Broadcastable to ``shape``.

    Returns
    -------
    Array
        ``max(minval, u * (maxval - minval) + minval)`` with ``u`` in ``[0, 1)`` built
        from the top mantissa bits of ``bits``.
    """
    key, _ = check_prng_key("uniform", key)
    dt = float_dtype("uniform", dtype)
    shape = core.canonicalize_shape(shape)
    return _uniform(key, minval, maxval, shape, dt)


def _uniform_impl(key, minval, maxval, shape, dtype):
    check_shape("uniform", shape)
    minval = lax.convert_element_type(minval, dtype)
    maxval = lax.convert_element_type(maxval, dtype)
    minval = lax.broadcast_to_rank(minval, len(shape))
    maxval = lax.broadcast_to_rank(maxval, len(shape))
    info = dtypes.finfo(dtype)
    nbits, nmant = info.bits, info.nmant
    rng_bits = 8 if nmant < 8 else nbits
    uint = _UINT[nbits]
    b = _random_bits(key, rng_bits, shape)
    if rng_bits != nbits:
        b = lax.convert_element_type(b, uint)
    one_bits = np.array(1.0, dtype).view(uint)
    fbits = lax.bitwise_or(lax.shift_right_logical(b, np.array(rng_bits - nmant, uint)),
                           one_bits)
    floats = lax.sub(lax.bitcast_convert_type(fbits, dtype), np.array(1.0, dtype))
    scaled = lax.add(lax.mul(floats, lax.sub(maxval, minval)), minval)
    return lax.max(minval, lax.reshape(scaled, shape))


_uniform_impl.__name__ = "_uniform"
_uniform = sampler_jit(_uniform_impl, static_argnums=(3, 4))


# ---------------------------------------------------------------------------------------
# normal, truncated_normal

def normal(key, shape=(), dtype=None, *, out_sharding=None):
    """Standard normal floats: ``sqrt(2) * erf_inv(u)`` for ``u`` uniform in (-1, 1).

    Parameters
    ----------
    key : key
    shape : tuple of int
    dtype : float dtype, optional

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("normal", key)
    shape = core.canonicalize_shape(shape)
    dt = float_dtype("normal", dtype, kinds="fc", what="a float or complex")
    return _normal(key, shape, dt)


def _normal_real_impl(key, shape, dtype):
    check_shape("normal", shape)
    lo = np.nextafter(np.array(-1.0, dtype), np.array(0.0, dtype))
    u = uniform(key, shape, dtype, lo, np.array(1.0, dtype))
    return lax.mul(np.array(np.sqrt(2), dtype), lax.erf_inv(u))


_normal_real_impl.__name__ = "_normal_real"
_normal_real = sampler_jit(_normal_real_impl, static_argnums=(1, 2))


def _normal_impl(key, shape, dtype):
    if dtypes.kind(dtype) != "c":
        return _normal_real(key, shape, dtype)
    # complex: independent real and imaginary parts, each of variance 1/2, from two keys
    key_re, key_im = random_split_p.bind(key, shape=(2,))
    part = np.dtype(np.float64 if dtype == np.complex128 else np.float32)
    re = lax.convert_element_type(_normal_real(key_re, shape, part), dtype)
    im = lax.convert_element_type(_normal_real(key_im, shape, part), dtype)
    z = lax.add(re, lax.mul(np.array(1j, dtype), im))
    return lax.div(z, np.array(np.sqrt(2), dtype))


_normal_impl.__name__ = "_normal"
_normal = sampler_jit(_normal_impl, static_argnums=(1, 2))


def truncated_normal(key, lower, upper, shape=None, dtype=None, *, out_sharding=None):
    """Standard normal floats truncated to ``(lower, upper)``.

    Parameters
    ----------
    key : key
    lower, upper : array_like
        Bounds, broadcastable to ``shape``.
    shape : tuple of int, optional
        Default: the broadcast shape of ``lower`` and ``upper``.
    dtype : float dtype, optional

    Returns
    -------
    Array
        Values strictly inside the bounds (clipped to their neighbouring floats).
    """
    if shape is not None:
        shape = core.canonicalize_shape(shape)
    key, _ = check_prng_key("truncated_normal", key)
    dt = float_dtype("truncated_normal", dtype)
    return _truncated_normal(key, lower, upper, shape, dt)


def _truncated_normal_impl(key, lower, upper, shape, dtype):
    if shape is None:
        shape = tuple(broadcast_shapes(np.shape(lower), np.shape(upper)))
    else:
        check_shape("truncated_normal", shape, np.shape(lower), np.shape(upper))
    sqrt2 = np.array(np.sqrt(2), dtype)
    lower = lax.convert_element_type(lower, dtype)
    upper = lax.convert_element_type(upper, dtype)
    a = lax.erf(lax.div(lower, sqrt2))
    b = lax.erf(lax.div(upper, sqrt2))
    u = uniform(key, shape, dtype, minval=a, maxval=b)
    out = lax.mul(sqrt2, lax.erf_inv(u))
    return clip(out, lax.nextafter(lax.stop_gradient(lower), np.array(np.inf, dtype)),
                lax.nextafter(lax.stop_gradient(upper), np.array(-np.inf, dtype)))


_truncated_normal_impl.__name__ = "_truncated_normal"
_truncated_normal = sampler_jit(_truncated_normal_impl, static_argnums=(3, 4))


# ---------------------------------------------------------------------------------------
# exponential, gumbel, laplace, logistic

def _simple_sampler(name: str, body, doc: str):
    """A sampler ``f(key, shape=(), dtype=None)`` whose jitted helper ``_name`` applies
    ``body(key, shape, dtype)``."""
    def helper(key, shape, dtype):
        check_shape(name, shape)
        return body(key, shape, dtype)
    helper.__name__ = helper.__qualname__ = f"_{name}"
    jitted = sampler_jit(helper, static_argnums=(1, 2))

    def sampler(key, shape=(), dtype=None, *, out_sharding=None):
        key, _ = check_prng_key(name, key)
        dt = float_dtype(name, dtype)
        return jitted(key, core.canonicalize_shape(shape), dt)
    sampler.__name__ = sampler.__qualname__ = name
    sampler.__doc__ = doc
    return sampler


exponential = _simple_sampler(
    "exponential",
    lambda key, shape, dt: lax.neg(lax.log1p(lax.neg(uniform(key, shape, dt)))),
    """Exponential floats (rate 1): ``-log1p(-u)``.

    Parameters
    ----------
    key : key
    shape : tuple of int
    dtype : float dtype, optional

    Returns
    -------
    Array
    """)

laplace = _simple_sampler(
    "laplace",
    lambda key, shape, dt: _laplace_body(uniform(
        key, shape, dt, minval=-1. + dtypes.finfo(dt).epsneg, maxval=1.)),
    """Laplace floats (location 0, scale 1): ``sign(u) * log1p(-|u|)``.

    Parameters
    ----------
    key : key
    shape : tuple of int
    dtype : float dtype, optional

    Returns
    -------
    Array
    """)


def _laplace_body(u):
    return lax.mul(lax.sign(u), lax.log1p(lax.neg(lax.abs(u))))


logistic = _simple_sampler(
    "logistic",
    lambda key, shape, dt: _logistic_body(uniform(
        key, shape, dt, minval=dtypes.finfo(dt).tiny, maxval=1.)),
    """Standard logistic floats: ``log(u) - log1p(-u)``.

    Parameters
    ----------
    key : key
    shape : tuple of int
    dtype : float dtype, optional

    Returns
    -------
    Array
    """)


def _logistic_body(x):
    return lax.sub(lax.log(x), lax.log1p(lax.neg(x)))


def gumbel(key, shape=(), dtype=None, mode=None, *, out_sharding=None):
    """Standard Gumbel floats: ``-log(-log(u))``.

    Parameters
    ----------
    key : key
    shape : tuple of int
    dtype : float dtype, optional
    mode : {"low", "high"}, optional
        ``"low"`` (the default) draws ``u`` from ``[tiny, 1)``; ``"high"`` combines two
        uniforms for more resolution near 0, as JAX's does.

    Returns
    -------
    Array
    """
    key, _ = check_prng_key("gumbel", key)
    dt = float_dtype("gumbel", dtype)
    shape = core.canonicalize_shape(shape)
    if mode is None:
        mode = "low"
    if mode not in ("high", "low"):
        if mode == "highest":
            raise NotImplementedError("gumbel mode='highest' is not implemented by "
                                      "transpile; use mode='high' or 'low'")
        raise ValueError(f"Must provide valid mode for gumbel got: {mode}")
    return _gumbel(key, shape, dt, mode)


def _gumbel_impl(key, shape, dtype, mode):
    check_shape("gumbel", shape)
    info = dtypes.finfo(dtype)
    if mode == "high":
        high, low = _uniform(key, minval=0., maxval=1., shape=(2,) + tuple(shape),
                             dtype=dtype)
        x = jnp.where(high >= 0.5, high, high + 2 ** -int(info.nmant) * low + info.tiny)
        return -jnp.log(-jnp.log1p(-x))
    return -jnp.log(-jnp.log(_uniform(key, minval=info.tiny, maxval=1., shape=shape,
                                      dtype=dtype)))


_gumbel_impl.__name__ = "_gumbel"
_gumbel = sampler_jit(_gumbel_impl, static_argnums=(1, 2, 3))


# ---------------------------------------------------------------------------------------
# multivariate_normal

def multivariate_normal(key, mean, cov, shape=None, dtype=None, method="cholesky", *,
                        out_sharding=None):
    """Multivariate normal vectors ``mean + L @ z`` with ``L`` the Cholesky factor of
    ``cov`` and ``z`` standard normal.

    Parameters
    ----------
    key : key
    mean : array_like
        ``(..., n)``.
    cov : array_like
        ``(..., n, n)``, symmetric positive definite.
    shape : tuple of int, optional
        The batch shape (default: the broadcast of the batch shapes of ``mean`` and
        ``cov``).
    dtype : float dtype, optional
        Default: ``mean``'s (promoted to inexact).
    method : {"cholesky"}
        JAX also offers ``"svd"`` and ``"eigh"``; transpile implements only the
        Cholesky factor and raises ``NotImplementedError`` for the others.

    Returns
    -------
    Array
        ``shape + (n,)``.
    """
    key, _ = check_prng_key("multivariate_normal", key)
    mean, cov = promote_dtypes_inexact(asarray(mean), asarray(cov))
    if method not in {"svd", "eigh", "cholesky"}:
        raise ValueError("method must be one of {'svd', 'eigh', 'cholesky'}")
    if method != "cholesky":
        raise NotImplementedError(f"multivariate_normal(method={method!r}) is not "
                                  "implemented by transpile; use method='cholesky'")
    dt = mean.dtype if dtype is None else dtypes.canonicalize_dtype(dtype, warn_name="")
    if not dtypes.is_float(dt):
        raise ValueError("dtype argument to `multivariate_normal` must be a float dtype, "
                         f"got {dt}")
    if shape is not None:
        shape = core.canonicalize_shape(shape)
    return _multivariate_normal(key, mean, cov, shape, dt, method)


def _multivariate_normal_impl(key, mean, cov, shape, dtype, method):
    if not np.ndim(mean) >= 1:
        raise ValueError("multivariate_normal requires mean.ndim >= 1, got mean.ndim == "
                         f"{np.ndim(mean)}")
    if not np.ndim(cov) >= 2:
        raise ValueError("multivariate_normal requires cov.ndim >= 2, got cov.ndim == "
                         f"{np.ndim(cov)}")
    n = mean.shape[-1]
    if np.shape(cov)[-2:] != (n, n):
        raise ValueError(f"multivariate_normal requires cov.shape == (..., n, n) for n={n}, "
                         f"but got cov.shape == {np.shape(cov)}.")
    if shape is None:
        shape = tuple(broadcast_shapes(mean.shape[:-1], cov.shape[:-2]))
    else:
        check_shape("normal", shape, mean.shape[:-1], cov.shape[:-2])
    factor = jnp.linalg.cholesky(cov)
    z = normal(key, tuple(shape) + mean.shape[-1:], dtype)
    return mean + jnp.einsum("...ij,...j->...i", factor, z)


_multivariate_normal_impl.__name__ = "_multivariate_normal"
_multivariate_normal = sampler_jit(_multivariate_normal_impl, static_argnums=(3, 4, 5))
