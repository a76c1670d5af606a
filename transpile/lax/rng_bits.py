"""``rng_bit_generator``: XLA's stateful-style bit generator (JAX's
``lax.rng_bit_generator`` and ``lax.RandomAlgorithm``), bit for bit as XLA:CPU.

``rng_bit_generator_p`` takes a key (``uint32[4]``, or ``uint64[2]`` under x64) and
returns ``(new_key, bits)``: the key with its counter advanced, and ``bits`` of the
requested shape and unsigned dtype. The key is read as two 64-bit words (little-endian
pairs of the uint32 words): ``s0`` the cipher key, ``s1`` the counter.

* ``RNG_THREE_FRY``: Threefry-2x32 (``prng.py``'s cipher) keyed by the two halves of
  ``s0``, on counters ``s1 + j`` split into (low, high) words. 64-bit output: one
  counter per element, ``y0 | y1 << 32``. 32-bit and narrower output: XLA halves the
  shape along its first even dimension (else its first largest one), one counter per
  element of the half shape (row-major ``j``), and element ``(.., 2 h + c, ..)`` takes
  word ``y_c`` of half element ``(.., h, ..)`` (the last one dropped for an odd length);
  narrower dtypes keep the low bits. The counter grows by the counters used.
* ``RNG_PHILOX`` (and ``RNG_DEFAULT``, Philox on the CPU): Philox-4x32 with 10 rounds,
  keyed by the halves of ``s0``, on 128-bit counters ``(s1, s0) + v`` (``s1`` the low
  word), four words per counter: 32-bit element ``4 v + c`` is word ``c``; 64-bit
  element ``2 v + c`` is words ``2 c`` and ``2 c + 1``; narrower dtypes keep the low
  bits. The new key's counter is ``s1`` plus the counters used (no carry into ``s0``).

The JVP has zero (``float0``) tangents: the outputs are integers. Batching follows JAX: the first key of the batch draws
``(batch, *shape)`` bits and only that key is advanced. Compiled code runs
``runtime/tp_philox.h`` (``codegen/rng_kernels.py``); the CUDA backend refuses it.
"""
from __future__ import annotations

import enum

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..interpreters import ad
from ..interpreters.batching import moveaxis, primitive_batchers
from .dynamic_slicing import dynamic_update_index_in_dim
from .prng import _threefry2x32_impl
from .slicing import index_in_dim

__all__ = ["rng_bit_generator", "rng_bit_generator_p", "RandomAlgorithm"]

rng_bit_generator_p = core.new_primitive("rng_bit_generator", multiple_results=True)

#: Philox-4x32's round multipliers and key increments.
PHILOX_M = (0xD2511F53, 0xCD9E8D57)
PHILOX_W = (0x9E3779B9, 0xBB67AE85)
_UNSIGNED = tuple(np.dtype(d) for d in (np.uint8, np.uint16, np.uint32, np.uint64))
_M32 = (1 << 32) - 1


class RandomAlgorithm(enum.IntEnum):
    """The algorithms of ``rng_bit_generator``."""
    RNG_DEFAULT = 0
    RNG_THREE_FRY = 1
    RNG_PHILOX = 2

    def __str__(self) -> str:  # as jaxprs print it
        return self.name


@rng_bit_generator_p.def_abstract_eval
def _abstract(key, *, shape, dtype, algorithm, out_sharding):
    return [ShapedArray(key.shape, key.dtype, key.weak_type),
            ShapedArray(tuple(shape), np.dtype(dtype), False)]


def check_key(aval) -> None:
    """XLA's requirement on the key (JAX raises it when lowering): ``uint32[4]`` or
    ``uint64[2]``."""
    dt, shape = np.dtype(aval.dtype), tuple(aval.shape)
    if (dt, shape) in ((np.dtype(np.uint32), (4,)), (np.dtype(np.uint64), (2,))):
        return
    if dt.kind in "iu":
        name = f"IntegerType({'ui' if dt.kind == 'u' else 'i'}{dt.itemsize * 8})"
    elif dt.kind == "f":
        name = f"F{dt.itemsize * 8}Type(f{dt.itemsize * 8})"
    else:
        name = dt.name
    raise AssertionError(f"({list(shape)}, {name})")


def key_words(key: np.ndarray) -> tuple:
    """``(s0, s1)``: the key as two 64-bit Python ints."""
    k = [int(v) for v in np.asarray(key).ravel()]
    if len(k) == 2:
        return k[0], k[1]
    return k[0] | k[1] << 32, k[2] | k[3] << 32


def _new_key(key: np.ndarray, s0: int, s1: int) -> np.ndarray:
    s1 &= (1 << 64) - 1
    if np.asarray(key).size == 2:
        return np.array([s0, s1], key.dtype)
    return np.array([s0 & _M32, s0 >> 32, s1 & _M32, s1 >> 32], key.dtype)


def half_split(shape: tuple) -> tuple:
    """``(outer, length, inner)`` around the dimension XLA's Threefry halves."""
    if not shape:
        return 1, 1, 1
    even = [i for i, d in enumerate(shape) if d % 2 == 0]
    axis = even[0] if even else int(np.argmax(shape))
    return (int(np.prod(shape[:axis], dtype=np.int64)), int(shape[axis]),
            int(np.prod(shape[axis + 1:], dtype=np.int64)))


def _threefry(s0: int, counters: np.ndarray) -> tuple:
    k0, k1 = np.uint32(s0 & _M32), np.uint32(s0 >> 32)
    lo = (counters & np.uint64(_M32)).astype(np.uint32)
    hi = (counters >> np.uint64(32)).astype(np.uint32)
    return _threefry2x32_impl(k0, k1, lo, hi)


def philox4x32(words: list, k0: int, k1: int) -> list:
    """Ten Philox-4x32 rounds on four uint32 arrays (the key raised after each)."""
    x = [w.astype(np.uint64) for w in words]
    for _ in range(10):
        p0 = x[0] * np.uint64(PHILOX_M[0])
        p1 = x[2] * np.uint64(PHILOX_M[1])
        x = [(p1 >> np.uint64(32)) ^ x[1] ^ np.uint64(k0), p1 & np.uint64(_M32),
             (p0 >> np.uint64(32)) ^ x[3] ^ np.uint64(k1), p0 & np.uint64(_M32)]
        k0, k1 = (k0 + PHILOX_W[0]) & _M32, (k1 + PHILOX_W[1]) & _M32
    return [w.astype(np.uint32) for w in x]


def _philox(s0: int, s1: int, count: int) -> list:
    v = np.arange(count, dtype=np.uint64)
    with np.errstate(over="ignore"):
        low = np.uint64(s1) + v
    high = np.where(low < np.uint64(s1), np.uint64((s0 + 1) & ((1 << 64) - 1)), np.uint64(s0))
    words = [low & np.uint64(_M32), low >> np.uint64(32), high & np.uint64(_M32),
             high >> np.uint64(32)]
    return philox4x32(words, s0 & _M32, s0 >> 32)


def generate(key: np.ndarray, shape: tuple, dtype, algorithm) -> tuple:
    """``(new_key, bits)`` as XLA:CPU computes them (the NumPy rule)."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64))
    s0, s1 = key_words(key)
    wide = dt.itemsize == 8
    if int(algorithm) == RandomAlgorithm.RNG_THREE_FRY:
        with np.errstate(over="ignore"):
            if wide:
                y0, y1 = _threefry(s0, np.uint64(s1) + np.arange(n, dtype=np.uint64))
                flat = y0.astype(np.uint64) | y1.astype(np.uint64) << np.uint64(32)
                used = n
            else:
                outer, length, inner = half_split(tuple(shape))
                half = (length + 1) // 2
                used = outer * half * inner
                ys = _threefry(s0, np.uint64(s1) + np.arange(used, dtype=np.uint64))
                both = np.stack([y.reshape(outer, half, inner) for y in ys], axis=2)
                flat = both.reshape(outer, 2 * half, inner)[:, :length].ravel()
    else:  # Philox: RNG_DEFAULT on the CPU
        used = -(-2 * n // 4) if wide else -(-n // 4)
        w = _philox(s0, s1, used)
        if wide:
            pairs = [w[0].astype(np.uint64) | w[1].astype(np.uint64) << np.uint64(32),
                     w[2].astype(np.uint64) | w[3].astype(np.uint64) << np.uint64(32)]
            flat = np.stack(pairs, axis=1).ravel()[:n]
        else:
            flat = np.stack(w, axis=1).ravel()[:n]
    bits = flat.astype(dt).reshape(shape)  # narrow dtypes keep the low bits
    return _new_key(key, s0, s1 + used), bits


@rng_bit_generator_p.def_impl
def _impl(key, *, shape, dtype, algorithm, out_sharding):
    key = np.asarray(key)
    check_key(key)
    return list(generate(key, tuple(shape), dtype, algorithm))


def rng_bit_generator(key, shape, dtype=np.uint32, algorithm=RandomAlgorithm.RNG_DEFAULT,
                      *, out_sharding=None):
    """Random bits from XLA's bit generator and the advanced key.

    Parameters
    ----------
    key : Array
        ``uint32[4]`` (or ``uint64[2]``): the cipher key word and the counter word.
    shape : int or sequence of int
        The shape of the bits.
    dtype : unsigned integer dtype
        ``uint8``, ``uint16``, ``uint32`` or ``uint64``.
    algorithm : RandomAlgorithm
        ``RNG_DEFAULT`` (Philox on the CPU), ``RNG_THREE_FRY`` or ``RNG_PHILOX``.
    out_sharding : None
        Accepted for compatibility.

    Returns
    -------
    (Array, Array)
        The new key (the key's shape and dtype) and the bits.
    """
    shape = core.canonicalize_shape(shape)
    dt = dtypes.canonicalize_dtype(dtype, warn_name="rng_bit_generator")
    if dt not in _UNSIGNED:
        raise TypeError(f"rng_bit_generator: unsupported dtype {dt}")
    if not isinstance(algorithm, RandomAlgorithm):
        raise AssertionError()
    return tuple(rng_bit_generator_p.bind(key, shape=shape, dtype=dt, algorithm=algorithm,
                                          out_sharding=out_sharding))


def _batch(vals, dims, *, shape, dtype, algorithm, out_sharding):
    (keys,), (bdim,) = vals, dims
    keys = moveaxis(keys, bdim, 0)
    size = core.get_aval(keys).shape[0]
    new_key, bits = rng_bit_generator_p.bind(
        index_in_dim(keys, 0, 0, keepdims=False), shape=(size,) + tuple(shape),
        dtype=dtype, algorithm=algorithm, out_sharding=out_sharding)
    return [dynamic_update_index_in_dim(keys, new_key, 0, 0), bits], [0, 0]


primitive_batchers[rng_bit_generator_p] = _batch
ad.defjvp_zero(rng_bit_generator_p)
