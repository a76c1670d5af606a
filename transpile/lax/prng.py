"""``threefry2x32``: the Threefry-2x32 block cipher (20 rounds), JAX's PRNG core.

``threefry2x32_p`` takes ``(k0, k1, x0, x1)``, all uint32, and returns ``(y0, y1)``:
each element pair ``(x0, x1)`` encrypted under the key ``(k0, k1)``. As in JAX 0.10.2
the four operands broadcast together (rank 0 against anything, size-1 dimensions
against any size, equal ranks otherwise), so a key can be two scalars or arrays of the
counters' shape. Arithmetic is uint32 with wraparound. JAX_BEHAVIOUR.md section 8.2
gives the rounds, the key schedule and the known-answer vectors.

``threefry_2x32(key, count)`` is ``jax.extend.random.threefry_2x32``: it hashes an
array of counters of any shape with one key of two words, and is what
``transpile.random`` builds on.
"""
from __future__ import annotations

import numpy as np

from .. import core
from ..core import ShapedArray
from ._base import broadcasting_shape
from .layout import split
from .slicing import concatenate, index_in_dim, slice as _slice
from .structural import reshape

__all__ = ["threefry2x32_p", "threefry_2x32", "THREEFRY_ROTATIONS", "THREEFRY_PARITY"]

#: Rotation amounts of the two alternating groups of four rounds.
THREEFRY_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
#: The key-schedule constant: the third key word is ``k0 ^ k1 ^ THREEFRY_PARITY``.
THREEFRY_PARITY = 0x1BD11BDA

_U32 = np.dtype(np.uint32)

threefry2x32_p = core.new_primitive("threefry2x32", multiple_results=True)


@threefry2x32_p.def_abstract_eval
def _threefry2x32_abstract(k0, k1, x0, x1):
    args = (k0, k1, x0, x1)
    if any(a.dtype != _U32 for a in args):
        raise TypeError("Arguments to threefry2x32 must have uint32 type, got "
                        f"({', '.join(repr(a) for a in args)})")
    shape = broadcasting_shape("threefry2x32", *(a.shape for a in args))
    return [ShapedArray(shape, _U32), ShapedArray(shape, _U32)]


def _rotl(v: np.ndarray, r: int) -> np.ndarray:
    return (v << np.uint32(r)) | (v >> np.uint32(32 - r))


@threefry2x32_p.def_impl
def _threefry2x32_impl(k0, k1, x0, x1):
    shape = np.broadcast_shapes(*(np.shape(a) for a in (k0, k1, x0, x1)))
    k0, k1, x0, x1 = (np.asarray(a, _U32) for a in (k0, k1, x0, x1))
    ks = (k0, k1, k0 ^ k1 ^ np.uint32(THREEFRY_PARITY))
    # uint32 wraparound is the cipher's arithmetic: NumPy's overflow warning for
    # 0-d operands would be noise.
    with np.errstate(over="ignore"):
        x0 = x0 + ks[0]
        x1 = x1 + ks[1]
        for i in range(5):  # 5 groups of 4 rounds, whole arrays at a time
            for r in THREEFRY_ROTATIONS[i % 2]:
                x0 = x0 + x1
                x1 = _rotl(x1, r) ^ x0
            x0 = x0 + ks[(i + 1) % 3]
            x1 = x1 + ks[(i + 2) % 3] + np.uint32(i + 1)
    return [np.array(np.broadcast_to(y, shape), _U32) for y in (x0, x1)]


def threefry_2x32(key, count):
    """Hash the counters ``count`` with the key pair ``key``, as JAX's
    ``jax.extend.random.threefry_2x32``.

    The counters are flattened and, when their number is odd, padded with one 0; the
    first half is ``x0`` and the second half ``x1``; the result is ``y0`` then ``y1``
    concatenated, without the pad, in the counters' shape.

    Parameters
    ----------
    key : array_like
        uint32 of shape ``(2,)``: the two key words.
    count : array_like
        uint32 counters, any shape.

    Returns
    -------
    Array
        uint32, of ``count``'s shape.

    Raises
    ------
    TypeError
        If ``key`` or ``count`` is not uint32.
    ValueError
        If ``key`` does not hold exactly two words.
    """
    key_aval = core.get_aval(key)
    n = key_aval.shape[0] if key_aval.shape else None
    if n is None:
        raise TypeError("iteration over a 0-d array")
    if n != 2:  # the words are unpacked like a Python pair, with Python's messages
        raise ValueError("too many values to unpack (expected 2)" if n > 2 else
                         f"not enough values to unpack (expected 2, got {n})")
    key1 = index_in_dim(key, 0, keepdims=False)
    key2 = index_in_dim(key, 1, keepdims=False)
    count_aval = core.get_aval(count)
    dtypes_ = [key_aval.dtype, key_aval.dtype, count_aval.dtype]
    if any(d != _U32 for d in dtypes_):
        raise TypeError(f"threefry_2x32 requires uint32 arguments, got {dtypes_}")
    size = count_aval.size
    flat = reshape(count, (size,))
    odd = size % 2
    if odd:
        flat = concatenate([flat, np.zeros(1, _U32)], 0)
    half = (size + odd) // 2
    # NumPy integers, as JAX's params hold them (``sizes=(np.int64(3), np.int64(3))``)
    x0, x1 = split(flat, (np.int64(half), np.int64(half)))
    y0, y1 = threefry2x32_p.bind(key1, key2, x0, x1)
    out = concatenate([y0, y1], 0)
    if odd:
        out = _slice(out, (0,), (size,))
    return reshape(out, count_aval.shape)
