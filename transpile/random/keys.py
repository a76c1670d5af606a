"""PRNG keys: the ``random_*`` primitives on typed keys, and the key functions.

A typed key array has dtype ``key<fry>`` (storage :data:`dtypes.KEY_FRY`, the two uint32
words of a threefry key); a raw key (``PRNGKey``) is a plain ``uint32[..., 2]``. Every
public function accepts both: a raw key is wrapped (``random_wrap``) on the way in and,
for the functions that return keys, unwrapped (``random_unwrap``) on the way out, so
jaxprs read as JAX 0.10.2's.

Streams are JAX's default: threefry2x32 in partitionable mode. Element ``i`` (row-major)
of an output of shape ``S`` uses the 64-bit counter ``i`` as the pair ``(i >> 32,
i & 0xFFFFFFFF)``; ``split`` keeps both cipher words, ``random_bits`` xors them (32
bits), truncates (8, 16) or concatenates them (64); ``fold_in(k, d)`` hashes the counter
``(0, d)``. JAX_BEHAVIOUR.md section 8.3 has the details.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import core, dtypes
from ..config import config
from ..lax.keys import (_U32, FRY, KEY, UINT_DTYPES, PRNGImpl, _check_key_data,  # noqa: F401
                        _resolve_impl, random_bits_p, random_clone_p, random_fold_in_p,
                        random_seed_p, random_split_p, random_unwrap_p, random_wrap_p)
from ..numpy import asarray

__all__ = ["PRNGKey", "key", "key_data", "wrap_key_data", "key_impl", "split", "fold_in",
           "clone", "random_seed_p", "random_wrap_p", "random_unwrap_p", "random_bits_p",
           "random_split_p", "random_fold_in_p", "random_clone_p", "FRY", "check_prng_key",
           "return_keys"]

# ---------------------------------------------------------------------------------------
# Accepting keys

def _is_typed_key(x) -> bool:
    aval = getattr(x, "aval", None)
    return aval is not None and dtypes.is_key(aval.dtype)


def check_config() -> None:
    """Refuse the configurations whose streams transpile does not implement, rather
    than return other numbers than JAX would."""
    if not config.read("jax_threefry_partitionable"):
        raise NotImplementedError(
            "transpile.random implements JAX's default partitionable threefry stream only "
            "(jax_threefry_partitionable=True, the default since JAX 0.5); the legacy "
            "stream of jax_threefry_partitionable=False is not available")
    impl = config.read("jax_default_prng_impl")
    if impl not in ("threefry2x32", "threefry"):
        raise NotImplementedError(f"transpile.random implements the threefry2x32 PRNG only; "
                                  f"jax_default_prng_impl={impl!r} is not available")


def check_prng_key(name: str, key, *, allow_batched: bool = False):
    """The typed key behind ``key`` (raw keys are wrapped) and whether it was raw.

    Raises
    ------
    TypeError
        If ``key`` is neither a key array nor array-like, or raw key data of the wrong
        shape or dtype.
    ValueError
        If a single key is required and ``key`` is a key array of higher rank.
    """
    check_config()
    if _is_typed_key(key):
        typed, wrapped = key, False
    elif isinstance(key, (np.ndarray, np.generic)) or hasattr(key, "aval") or \
            isinstance(key, (int, float, bool, list, tuple)):
        raw = key if hasattr(key, "aval") else asarray(key)
        _check_key_data(core.get_aval(raw))
        typed, wrapped = random_wrap_p.bind(raw, impl=FRY), True
    else:
        raise TypeError(f"unexpected PRNG key type {type(key)}")
    shape = core.get_aval(typed).shape
    if not allow_batched and shape:
        raise ValueError(f"{name} accepts a single key, but was given a key array of shape "
                         f"{shape} != (). Use jax.vmap for batching.")
    return typed, wrapped


def return_keys(was_raw: bool, keys):
    """Keys as the caller gave them: raw data again when the input key was raw."""
    return random_unwrap_p.bind(keys) if was_raw else keys


# ---------------------------------------------------------------------------------------
# Public key functions

def _seed_keys(ctor: str, seed, impl):
    check_config()
    _resolve_impl(impl)
    if _is_typed_key(seed):
        raise TypeError(f"{ctor} accepts a scalar seed, but was given a PRNG key.")
    if np.ndim(seed) if not hasattr(seed, "aval") else seed.aval.shape:
        raise TypeError(f"{ctor} accepts a scalar seed, but was given an array of shape "
                        f"{np.shape(seed) if not hasattr(seed, 'aval') else seed.aval.shape}"
                        " != (). Use jax.vmap for batching")
    if isinstance(seed, int) and not isinstance(seed, (bool, np.integer)):
        # As JAX: through int64 first, so that an x32 seed wraps instead of overflowing.
        seed = np.int64(seed)  # OverflowError beyond int64, with Python's message
        seed_arr = asarray(seed.astype(dtypes.default_int_dtype()))
    else:
        seed_arr = asarray(seed)
    if not np.issubdtype(seed_arr.aval.dtype, np.integer):
        raise TypeError(f"PRNG key seed must be an integer; got {seed_arr!r}")
    return random_seed_p.bind(seed_arr, impl=FRY)


def key(seed, *, impl=None, dtype=None):
    """A typed PRNG key (dtype ``key<fry>``, shape ``()``) from an integer seed.

    Parameters
    ----------
    seed : int or integer scalar array
        A 64- or 32-bit seed; the key holds ``[seed >> 32, seed mod 2**32]`` (the high
        word is 0 unless the seed is a 64-bit integer, as with x64 enabled).
    impl, dtype : optional
        The PRNG implementation; only ``"threefry2x32"`` (the default) exists.

    Returns
    -------
    Array
        A scalar key array, accepted by every ``transpile.random`` function.

    Raises
    ------
    TypeError
        If ``seed`` is not an integer scalar, or is itself a key.
    """
    if dtype is not None:
        if impl is not None:
            raise ValueError("Cannot specify both `impl` and `dtype` arguments to "
                             "jax.random.key")
        impl = dtype
    return _seed_keys("key", seed, impl)


def PRNGKey(seed, *, impl=None):  # noqa: N802  (JAX's name)
    """A raw (legacy) PRNG key: ``uint32[2]`` key data from an integer seed.

    Parameters
    ----------
    seed : int or integer scalar array
        As for :func:`key`. With x64 disabled a Python int seed wraps modulo ``2**32``
        (``PRNGKey(-1)`` is ``[0, 4294967295]``), as in JAX.
    impl : optional
        Only ``"threefry2x32"``.

    Returns
    -------
    Array
        ``uint32[2]``.
    """
    return random_unwrap_p.bind(_seed_keys("PRNGKey", seed, impl))


def key_data(keys):
    """The ``uint32[..., 2]`` data of a key array (raw keys are returned as they are,
    after validation).

    Parameters
    ----------
    keys : key array or raw key data

    Returns
    -------
    Array
        uint32, of shape ``keys.shape + (2,)``.
    """
    typed, _ = check_prng_key("key_data", keys, allow_batched=True)
    return random_unwrap_p.bind(typed)


def wrap_key_data(key_bits_array, *, impl=None, dtype=None):
    """A typed key array over ``uint32[..., 2]`` key data.

    Parameters
    ----------
    key_bits_array : array_like
        uint32 with a trailing dimension of 2.
    impl, dtype : optional
        Only ``"threefry2x32"``.

    Returns
    -------
    Array
        Keys of shape ``key_bits_array.shape[:-1]``.

    Raises
    ------
    TypeError
        If the data is not uint32 or its trailing dimension is not 2.
    """
    if dtype is not None:
        if impl is not None:
            raise ValueError("Cannot specify both `impl` and `dtype` arguments to "
                             "jax.random.wrap_key_data")
        impl = dtype
    _resolve_impl(impl)
    data = key_bits_array if hasattr(key_bits_array, "aval") else asarray(key_bits_array)
    _check_key_data(core.get_aval(data))
    return random_wrap_p.bind(data, impl=FRY)


def key_impl(keys) -> str:
    """The name of the keys' PRNG implementation: ``"threefry2x32"``."""
    check_prng_key("key_impl", keys, allow_batched=True)
    return FRY.name


def split(key, num=2):
    """Split a key into ``num`` new keys.

    Parameters
    ----------
    key : key
        A single key (typed or raw).
    num : int or tuple of int
        The number, or the shape, of the new keys.

    Returns
    -------
    Array
        Keys of shape ``(num,)`` (or ``num``), typed or raw as ``key`` was; raw keys
        have a trailing dimension of 2. ``split(k, n)[i]`` equals ``fold_in(k, i)``.
    """
    typed, raw = check_prng_key("split", key)
    shape = core.canonicalize_shape(tuple(num) if isinstance(num, Sequence) else (num,))
    return return_keys(raw, random_split_p.bind(typed, shape=shape))


def fold_in(key, data):
    """A new key from ``key`` and the 32-bit integer ``data``.

    Parameters
    ----------
    key : key
        A single key (typed or raw).
    data : int or integer scalar
        Cast to uint32 (wrapping).

    Returns
    -------
    Array
        A key, typed or raw as ``key`` was.
    """
    typed, raw = check_prng_key("fold_in", key)
    if np.ndim(data) if not hasattr(data, "aval") else data.aval.shape:
        raise TypeError("fold_in accepts a scalar, but was given an array of"
                        f"shape {np.shape(data)} != (). Use jax.vmap for batching.")
    if isinstance(data, int) and not isinstance(data, (bool, np.integer)):
        data = np.asarray(data, _U32)  # out of range: NumPy's OverflowError, as JAX's
    return return_keys(raw, random_fold_in_p.bind(typed, asarray(data, dtype=_U32)))


def clone(key):
    """A copy of ``key`` (JAX's ``random.clone``; keys are immutable values here, so the
    copy only matters to JAX's key-reuse checker)."""
    return random_clone_p.bind(key)
