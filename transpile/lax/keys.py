"""PRNG key primitives with their NumPy and differentiation rules (batching rules:
``lax.keys_batching``; the API on them, and how keys and streams work: ``random/keys.py``).
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..interpreters import ad
from ..ir import pp_param_rules
from ._base import broadcasting_shape
from .prng import _threefry2x32_impl

__all__ = ["random_seed_p", "random_wrap_p", "random_unwrap_p", "random_bits_p",
           "random_split_p", "random_fold_in_p", "random_clone_p", "FRY", "PRNGImpl"]

KEY = dtypes.KEY_FRY
_U32 = np.dtype(np.uint32)
UINT_DTYPES = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: _U32,
               64: np.dtype(np.uint64)}


class PRNGImpl:
    """The threefry2x32 implementation: the ``impl`` param of ``random_seed`` and
    ``random_wrap``, printed by its tag ``fry`` as in JAX's jaxprs."""
    name = "threefry2x32"
    tag = "fry"
    key_shape = (2,)

    def __repr__(self) -> str:
        return self.tag

    __str__ = __repr__

    def describe(self) -> str:
        """The long form JAX's key-data errors print (its four key functions)."""
        return (f"PRNGImpl(key_shape={self.key_shape}, seed={threefry_seed!r}, "
                f"split={threefry_split!r}, random_bits={threefry_random_bits!r}, "
                f"fold_in={threefry_fold_in!r}, name='{self.name}', tag='{self.tag}')")

    def __eq__(self, other) -> bool:
        return isinstance(other, PRNGImpl)

    def __hash__(self) -> int:
        return hash(self.name)


FRY = PRNGImpl()


def _resolve_impl(impl):
    if impl is None or isinstance(impl, PRNGImpl) or dtypes.is_key(impl) or \
            impl in ("threefry2x32", "threefry"):
        return FRY
    if isinstance(impl, str):
        raise ValueError(f"unrecognized PRNG implementation \"{impl}\". Did you mean one of: "
                         "\"threefry2x32\"? (transpile implements only threefry2x32)")
    raise TypeError(f"unrecognized type {type(impl)} for specifying PRNG implementation.")


# ---------------------------------------------------------------------------------------
# Key storage helpers (NumPy)

def _words(keys: np.ndarray):
    """The two uint32 words of each key (typed-key storage) as two arrays."""
    keys = np.asarray(keys)
    return keys["k0"], keys["k1"]


def _pack(w0, w1) -> np.ndarray:
    w0, w1 = np.broadcast_arrays(np.asarray(w0, _U32), np.asarray(w1, _U32))
    out = np.empty(w0.shape, KEY)
    out["k0"], out["k1"] = w0, w1
    return out


def _counters(shape):
    """The (hi, lo) words of the row-major counters of an array of ``shape``."""
    n = int(np.prod(shape, dtype=np.int64))
    i = np.arange(n, dtype=np.uint64).reshape(shape)
    return (i >> np.uint64(32)).astype(_U32), (i & np.uint64(0xFFFFFFFF)).astype(_U32)


def _hash_keys(keys: np.ndarray, shape):
    """threefry of every key (shape K) with the counters of ``shape``: (y0, y1) of shape
    K + shape."""
    k0, k1 = _words(keys)
    hi, lo = _counters(shape)
    lead = (Ellipsis,) + (None,) * len(shape)
    return _threefry2x32_impl(k0[lead], k1[lead], hi, lo)


def threefry_seed(seed: np.ndarray) -> np.ndarray:
    """uint32[2] key data of an integer scalar seed."""
    return _unwrap_impl(_seed_impl(np.asarray(seed), impl=FRY))


def threefry_split(key: np.ndarray, shape) -> np.ndarray:
    """uint32[*shape, 2] key data of the keys split from uint32[2] key data."""
    return _unwrap_impl(_split_impl(_wrap_impl(key, impl=FRY), shape=tuple(shape)))


def threefry_fold_in(key: np.ndarray, data) -> np.ndarray:
    """uint32[2] key data of ``key`` folded with the 32-bit ``data``."""
    return _unwrap_impl(_fold_in_impl(_wrap_impl(key, impl=FRY), np.uint32(data)))


def threefry_random_bits(key: np.ndarray, bit_width: int, shape) -> np.ndarray:
    """Random bits of ``shape`` from uint32[2] key data."""
    return _bits_impl(_wrap_impl(key, impl=FRY), bit_width=bit_width, shape=tuple(shape))


def _check_key_aval(name: str, aval) -> None:
    if not dtypes.is_key(aval.dtype):
        raise TypeError(f"{name} takes a key array operand, got "
                        f"keys.dtype=dtype('{dtypes.dtype_name(aval.dtype)}')")


# ---------------------------------------------------------------------------------------
# random_seed: integer seeds -> keys [seed >> 32 (64-bit seeds only), seed mod 2^32]

random_seed_p = core.new_primitive("random_seed")


@random_seed_p.def_abstract_eval
def _seed_abstract(seeds, *, impl):
    if not np.issubdtype(seeds.dtype, np.integer):
        raise TypeError(f"PRNG key seed must be an integer; got seed of dtype "
                        f"{dtypes.dtype_name(seeds.dtype)}")
    return ShapedArray(seeds.shape, KEY)


@random_seed_p.def_impl
def _seed_impl(seeds, *, impl):
    s = np.asarray(seeds)
    wide = s.astype(np.int64) if s.dtype.kind == "i" else s.astype(np.uint64)
    lo = (wide & 0xFFFFFFFF).astype(_U32)
    hi = (wide.view(np.uint64) >> np.uint64(32)).astype(_U32) if s.dtype.itemsize == 8 \
        else np.zeros(s.shape, _U32)
    return _pack(hi, lo)


# ---------------------------------------------------------------------------------------
# random_wrap / random_unwrap: uint32[..., 2] <-> key<fry>[...]

random_wrap_p = core.new_primitive("random_wrap")


def _check_key_data(aval) -> None:
    if not aval.shape:
        raise TypeError("JAX encountered invalid PRNG key data: expected key_data.ndim >= 1;"
                        " got ndim=0")
    if aval.shape[-1:] != (2,):
        raise TypeError("JAX encountered invalid PRNG key data: expected key_data.shape to "
                        f"end with (2,); got shape={aval.shape} for impl={FRY.describe()}")
    if aval.dtype != _U32:
        raise TypeError("JAX encountered invalid PRNG key data: expected key_data.dtype = "
                        f"uint32; got dtype={dtypes.dtype_name(aval.dtype)}")


@random_wrap_p.def_abstract_eval
def _wrap_abstract(base, *, impl):
    _check_key_data(base)
    return ShapedArray(base.shape[:-1], KEY)


@random_wrap_p.def_impl
def _wrap_impl(base, *, impl):
    b = np.ascontiguousarray(base, _U32)
    return b.reshape(-1).view(KEY).reshape(b.shape[:-1])


random_unwrap_p = core.new_primitive("random_unwrap")


@random_unwrap_p.def_abstract_eval
def _unwrap_abstract(keys):
    _check_key_aval("random_unwrap", keys)
    return ShapedArray(keys.shape + (2,), _U32)


@random_unwrap_p.def_impl
def _unwrap_impl(keys):
    k = np.array(keys, order="C")  # (ascontiguousarray would make a 0-d key 1-d)
    return k.reshape(-1).view(_U32).reshape(k.shape + (2,))


# ---------------------------------------------------------------------------------------
# random_bits, random_split, random_fold_in, random_clone

random_bits_p = core.new_primitive("random_bits")
random_bits_p.cost = core.Cost.HASH


@random_bits_p.def_abstract_eval
def _bits_abstract(keys, *, bit_width, shape):
    _check_key_aval("random_bits", keys)
    if bit_width not in UINT_DTYPES:
        raise TypeError("requires 8-, 16-, 32- or 64-bit field width.")
    return ShapedArray(tuple(keys.shape) + tuple(shape), UINT_DTYPES[bit_width])


@random_bits_p.def_impl
def _bits_impl(keys, *, bit_width, shape):
    y0, y1 = _hash_keys(keys, tuple(shape))
    if bit_width == 64:
        return (y0.astype(np.uint64) << np.uint64(32)) | y1.astype(np.uint64)
    return (y0 ^ y1).astype(UINT_DTYPES[bit_width])


random_split_p = core.new_primitive("random_split")
random_split_p.cost = core.Cost.HASH


@random_split_p.def_abstract_eval
def _split_abstract(keys, *, shape):
    _check_key_aval("random_split", keys)
    return ShapedArray(tuple(keys.shape) + tuple(shape), KEY)


@random_split_p.def_impl
def _split_impl(keys, *, shape):
    return _pack(*_hash_keys(keys, tuple(shape)))


random_fold_in_p = core.new_primitive("random_fold_in")
random_fold_in_p.cost = core.Cost.HASH


@random_fold_in_p.def_abstract_eval
def _fold_in_abstract(keys, msgs):
    _check_key_aval("random_fold_in", keys)
    return ShapedArray(broadcasting_shape("random_fold_in", keys.shape, msgs.shape), KEY)


@random_fold_in_p.def_impl
def _fold_in_impl(keys, msgs):
    k0, k1 = _words(keys)
    return _pack(*_threefry2x32_impl(k0, k1, np.zeros((), _U32), np.asarray(msgs, _U32)))


random_clone_p = core.new_primitive("random_clone")


@random_clone_p.def_abstract_eval
def _clone_abstract(keys):
    return ShapedArray(keys.shape, keys.dtype, keys.weak_type)


@random_clone_p.def_impl
def _clone_impl(keys):
    return np.array(keys, copy=True)


pp_param_rules[random_seed_p] = pp_param_rules[random_wrap_p] = \
    lambda params: [("impl", params["impl"])]


# ---------------------------------------------------------------------------------------
# Differentiation: keys and their bits are integer-like, so every output's tangent is a
# symbolic zero (float0 for keys and integers).

for _p in (random_seed_p, random_wrap_p, random_unwrap_p, random_bits_p,
           random_split_p, random_fold_in_p, random_clone_p):
    ad.defjvp_zero(_p)
