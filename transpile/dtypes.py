"""Dtypes: the supported set, canonicalisation (x64 on/off), weak types and promotion.

Promotion follows JAX's lattice: every dtype is a node, Python scalars are the weak
nodes ``i*`` and ``f*``, and the result of promoting several operands is the least
upper bound of their nodes. A weak result node resolves to the default dtype of its
kind and stays weakly typed.
"""
from __future__ import annotations

import functools
import warnings

import ml_dtypes
import numpy as np

from .config import config
from .errors import jax_array_error

__all__ = [
    "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3b11fnuz",
    "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e3m4", "float8_e4m3", "float8_e8m0fnu",
    "float4_e2m1fn", "int4", "uint4", "int2", "uint2", "NARROW_INTS", "is_integer",
    "is_signed", "bit_width", "is_narrow_int", "SMALL_FLOATS", "is_small_float", "float32", "float64", "complex64", "complex128", "canonicalize_dtype", "result_type", "promote_types",
    "is_weakly_typed", "dtype", "short_dtype_name", "issubdtype", "iinfo", "finfo",
    "KEY_FRY", "is_key", "float0", "dtype_name", "from_name", "prng_key", "extended",
]

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
float16, float32, float64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64))
#: ``ml_dtypes``' bfloat16 (JAX's own): NumPy knows it only as a user dtype of kind "V",
#: so code here asks :func:`kind` / :func:`is_float` rather than ``dtype.kind``.
bfloat16 = np.dtype(ml_dtypes.bfloat16)
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)

#: The 8-bit (and 4-bit) floats JAX exposes, each with its format: exponent bits,
#: mantissa bits, exponent bias and its special values ("ieee": inf and NaNs as IEEE;
#: "fn": no inf, NaN is all ones; "fnuz": no inf and no -0, NaN is 0x80; "e8m0": only
#: exponents, no sign, 0xff is NaN; "finite": no inf nor NaN). All are stored one per
#: byte (as ``ml_dtypes`` does) and computed by converting each operand exactly to
#: float (see ``lax/_float8.py`` and ``runtime/tp_float8.h``).
SMALL_FLOATS = {
    np.dtype(getattr(ml_dtypes, name)): (name, e, m, bias, rule)
    for name, e, m, bias, rule in (
        ("float8_e4m3fn", 4, 3, 7, "fn"), ("float8_e5m2", 5, 2, 15, "ieee"),
        ("float8_e4m3b11fnuz", 4, 3, 11, "fnuz"), ("float8_e4m3fnuz", 4, 3, 8, "fnuz"),
        ("float8_e5m2fnuz", 5, 2, 16, "fnuz"), ("float8_e3m4", 3, 4, 3, "ieee"),
        ("float8_e4m3", 4, 3, 7, "ieee"), ("float8_e8m0fnu", 8, 0, 127, "e8m0"),
        ("float4_e2m1fn", 2, 1, 1, "finite"))}
(float8_e4m3fn, float8_e5m2, float8_e4m3b11fnuz, float8_e4m3fnuz, float8_e5m2fnuz,
 float8_e3m4, float8_e4m3, float8_e8m0fnu, float4_e2m1fn) = SMALL_FLOATS

#: JAX's 2- and 4-bit integers (``ml_dtypes``' types, NumPy kind "V"), with their width
#: and signedness. Stored one per byte as ``ml_dtypes`` does (the low bits, upper bits
#: zero); computed as int8/uint8 and wrapped back to the width after every operation,
#: as XLA:CPU does. Ask :func:`is_integer` / :func:`kind` rather than ``dtype.kind``.
NARROW_INTS = {np.dtype(getattr(ml_dtypes, name)): (bits, signed) for name, bits, signed in (
    ("int4", 4, True), ("uint4", 4, False), ("int2", 2, True), ("uint2", 2, False))}
int4, uint4, int2, uint2 = NARROW_INTS

SUPPORTED = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
             float16, bfloat16, float32, float64, complex64, complex128, *SMALL_FLOATS,
             *NARROW_INTS)
_SUPPORTED_SET = frozenset(SUPPORTED)

#: The 16-bit floats: stored as their bit pattern, computed in float32 and rounded back
#: after every operation (as XLA:CPU does); the value is their C helpers' name
#: (``tp_f16_round``, ``tp_bf16_to_f32``...).
HALF_FLOATS = {float16: "f16", bfloat16: "bf16"}
#: The C helpers' name of each small float (``tp_f8e4m3fn_to_f32``...).
SMALL_FLOAT_C_NAMES = {d: "f" + v[0][5:].replace("_", "") for d, v in SMALL_FLOATS.items()}

#: Float dtypes NumPy does not classify as floats (``ml_dtypes``' extension types).
_EXTENSION_FLOATS = frozenset({bfloat16, *SMALL_FLOATS})

_TO_32 = {int64: int32, uint64: uint32, float64: float32, complex128: complex64}

#: The real dtype of each complex dtype's parts (``real``/``imag``/``abs`` results).
COMPLEX_PARTS = {complex64: float32, complex128: float64}
#: The complex dtype whose parts are a real float dtype (``lax.complex``'s result).
COMPLEX_OF = {float32: complex64, float64: complex128}


def kind(dt) -> str:
    """``np.dtype(dt).kind``, but ``"f"`` for bfloat16 and the small floats and
    ``"i"``/``"u"`` for the narrow integers (whose NumPy kind is ``"V"``)."""
    try:
        return _KINDS[dt]   # every rule asks, for a handful of dtypes
    except (KeyError, TypeError):
        pass
    d = np.dtype(dt)
    if d in _EXTENSION_FLOATS:
        k = "f"
    else:
        narrow = NARROW_INTS.get(d)
        k = d.kind if narrow is None else "iu"[not narrow[1]]
    if isinstance(dt, (np.dtype, type)):
        _KINDS[dt] = k
    return k


_KINDS: dict = {}


def is_narrow_int(dt) -> bool:
    """Whether ``dt`` is one of the 2-/4-bit integers (:data:`NARROW_INTS`)."""
    return not is_key(dt) and np.dtype(dt) in NARROW_INTS


def is_integer(dt) -> bool:
    """Whether ``dt`` is an integer dtype (bool excluded), the narrow integers included."""
    return not is_key(dt) and kind(dt) in "iu"


def is_signed(dt) -> bool:
    """Whether ``dt`` is a signed integer dtype, the narrow ones included."""
    return not is_key(dt) and kind(dt) == "i"


def to_narrow(v, dt) -> np.ndarray:
    """Integer (or bool) values wrapped to the narrow integer ``dt``, stored as
    ``ml_dtypes`` stores them (the low bits, upper bits zero)."""
    v = np.asarray(v)
    low = v.astype(np.int64) & ((1 << bit_width(dt)) - 1)
    return low.astype(np.uint8).view(np.dtype(dt))


def bit_width(dt) -> int:
    """The number of value bits of ``dt``: 4 for int4, 8 for int8 and bool."""
    d = np.dtype(dt)
    narrow = NARROW_INTS.get(d)
    return d.itemsize * 8 if narrow is None else narrow[0]


def half_name(dt) -> str | None:
    """``"f16"``/``"bf16"`` for the 16-bit floats computed in float (``"f8e4m3fn"``...
    for the small floats), else None."""
    if is_key(dt):
        return None
    d = np.dtype(dt)
    return HALF_FLOATS.get(d) or SMALL_FLOAT_C_NAMES.get(d)


def is_small_float(dt) -> bool:
    """Whether ``dt`` is one of the 8-bit/4-bit floats (:data:`SMALL_FLOATS`)."""
    return not is_key(dt) and np.dtype(dt) in SMALL_FLOATS


def iinfo(int_type):
    """Machine limits of an integer dtype (``ml_dtypes.iinfo`` for the narrow ones)."""
    d = _to_np_dtype(int_type)
    return ml_dtypes.iinfo(d) if d in NARROW_INTS else np.iinfo(d)


def finfo(dt):
    """Machine limits of a float dtype, bfloat16 included (``ml_dtypes.finfo``); a complex
    dtype gives its parts' limits (as NumPy and JAX do)."""
    return ml_dtypes.finfo(_to_np_dtype(dt))


def is_complex(dt) -> bool:
    """Whether ``dt`` is complex64 or complex128."""
    return not is_key(dt) and np.dtype(dt).kind == "c"


def real_dtype(dt) -> np.dtype:
    """The dtype of the real part: float32 for complex64, ``dt`` itself for reals."""
    d = np.dtype(dt)
    return COMPLEX_PARTS.get(d, d)

# ---------------------------------------------------------------------------------------
# Typed PRNG keys. A ``key<fry>`` element is the two uint32 words of a threefry key; its
# storage is a NumPy structured dtype, so that every structural operation (reshape,
# slicing, gather, concatenate, select) moves keys as whole elements without knowing
# what they are, and C moves them as one ``uint64_t`` (word 0 in the low half).

#: The dtype of tangents of integer and boolean values (JAX's ``float0``): no data.
float0 = np.dtype([("float0", np.void, 0)])

#: Storage dtype of ``key<fry>`` arrays (what avals and NumPy values carry).
KEY_FRY = np.dtype([("k0", "<u4"), ("k1", "<u4")])


class extended:  # noqa: N801  (JAX's name: the abstract parent of key dtypes)
    """Abstract dtype category of extended dtypes (``jax.dtypes.extended``)."""


class prng_key(extended):  # noqa: N801
    """Abstract dtype category of PRNG key dtypes (``jax.dtypes.prng_key``)."""


class KeyDType:
    """The user-facing dtype of typed PRNG keys: prints as ``key<fry>``.

    It compares equal to the storage dtype :data:`KEY_FRY` that avals carry, so
    ``k.dtype == aval.dtype`` holds, and ``jnp.issubdtype(k.dtype, prng_key)`` is true.
    """
    name = "key<fry>"
    itemsize = 8
    kind = "V"
    impl = "threefry2x32"
    _rules = None
    type = prng_key
    dtype = KEY_FRY  # what np.dtype()-style conversion of this object yields

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def __eq__(self, other) -> bool:
        if isinstance(other, KeyDType):
            return True
        try:
            return isinstance(other, np.dtype) and other == KEY_FRY
        except TypeError:
            return False

    def __hash__(self) -> int:
        return hash(KEY_FRY)


KEY_FRY_PUBLIC = KeyDType()


def is_key(dt) -> bool:
    """Whether ``dt`` is the typed-key dtype (its storage or its public face)."""
    return isinstance(dt, KeyDType) or (isinstance(dt, np.dtype) and dt.names is not None
                                        and dt == KEY_FRY)


def public_dtype(dt):
    """What ``Array.dtype`` shows: the NumPy dtype, or ``key<fry>`` for typed keys."""
    return KEY_FRY_PUBLIC if is_key(dt) else dt


def dtype_name(dt) -> str:
    """``float32``; ``key<fry>`` for typed keys."""
    if is_key(dt):
        return "key<fry>"
    return "float0" if dt == float0 else np.dtype(dt).name


def from_name(name: str) -> np.dtype:
    """Inverse of :func:`dtype_name`."""
    return KEY_FRY if name == "key<fry>" else np.dtype(name)


#: NumPy's abstract categories a bfloat16 belongs to (as JAX places it).
_FLOAT_CATEGORIES = (np.floating, np.inexact, np.number, np.generic)


def issubdtype(arg1, arg2) -> bool:
    """``np.issubdtype``, knowing the key dtypes and their categories and bfloat16."""
    if isinstance(arg2, type) and issubclass(arg2, extended):
        return is_key(arg1) or (isinstance(arg1, type) and issubclass(arg1, arg2))
    if is_key(arg1) or (isinstance(arg1, type) and issubclass(arg1, extended)):
        return is_key(arg2) and is_key(arg1)
    if _is_narrow(arg1):  # JAX places them under NumPy's integer categories
        d = np.dtype(arg1)
        cat = np.signedinteger if NARROW_INTS[d][1] else np.unsignedinteger
        if isinstance(arg2, type) and arg2 in (cat, np.integer, np.number, np.generic):
            return True
        return _is_narrow(arg2) and d == np.dtype(arg2)
    if _is_extension_float(arg1):
        if isinstance(arg2, type) and arg2 in _FLOAT_CATEGORIES:
            return True
        return _is_extension_float(arg2) and np.dtype(arg1) == np.dtype(arg2)
    return np.issubdtype(arg1, arg2)


def _is_narrow(x) -> bool:
    try:
        return np.dtype(x) in NARROW_INTS
    except TypeError:
        return False


def _is_extension_float(x) -> bool:
    try:
        return np.dtype(x) in _EXTENSION_FLOATS
    except TypeError:
        return False


def _to_np_dtype(dt) -> np.dtype:
    if isinstance(dt, np.dtype):
        return dt
    if isinstance(dt, KeyDType):
        return KEY_FRY
    inner = getattr(dt, "dtype", None)  # transpile.numpy scalar types carry a dtype
    if isinstance(inner, np.dtype):
        return inner
    if dt is float:
        return float64
    if dt is int:
        return int64
    if dt is bool:
        return bool_
    if dt is complex:
        return complex128
    try:
        out = np.dtype(dt)
    except TypeError as e:
        raise TypeError(f"Cannot interpret '{dt!r}' as a data type") from e
    return out


def canonicalize_dtype(dt, *, warn_name: str | None = None) -> np.dtype:
    """Map ``dt`` to the dtype arrays actually get under the current x64 mode.

    Parameters
    ----------
    dt : dtype-like
        A NumPy dtype, a type such as ``float`` or ``jnp.float32``, or a string.
    warn_name : str, optional
        When given, and a 64-bit dtype is truncated, warn as JAX does for an
        explicitly requested dtype; the name says which function asked.

    Returns
    -------
    numpy.dtype
    """
    d = _to_np_dtype(dt)
    if d not in _SUPPORTED_SET:
        if is_key(d):
            return KEY_FRY
        raise TypeError(f"dtype {d} is not supported by transpile; supported dtypes are "
                        + ", ".join(str(s) for s in SUPPORTED))
    if not config.x64_enabled and d in _TO_32:
        new = _TO_32[d]
        if warn_name is not None and dt not in (float, int, complex):
            where = f" requested in {warn_name}" if warn_name else ""
            warnings.warn(
                f"Explicitly requested dtype {d}{where} is not available, and will be "
                f"truncated to dtype {new}. To enable more dtypes, set the jax_enable_x64 "
                "configuration option or the TRANSPILE_ENABLE_X64 (or JAX_ENABLE_X64) shell "
                "environment variable. See https://github.com/jax-ml/jax#current-gotchas "
                "for more.", stacklevel=3)
        return new
    return d


def default_int_dtype() -> np.dtype:
    return int64 if config.x64_enabled else int32


def default_uint_dtype() -> np.dtype:
    return uint64 if config.x64_enabled else uint32


def default_float_dtype() -> np.dtype:
    return float64 if config.x64_enabled else float32


def default_complex_dtype() -> np.dtype:
    return complex128 if config.x64_enabled else complex64


def short_dtype_name(dt) -> str:
    """``float32`` -> ``f32``, ``uint8`` -> ``u8``, ``bool`` -> ``bool``."""
    if is_key(dt):
        return "key<fry>"
    if dt == float0:
        return "float0"
    d = np.dtype(dt)
    if d == bool_:
        return "bool"
    if d == bfloat16:
        return "bf16"
    if d in SMALL_FLOATS:  # float8_e4m3fn -> f8_e4m3fn
        return "f" + d.name[5:]
    return f"{kind(d)}{bit_width(d)}"


# ---------------------------------------------------------------------------------------
# The promotion lattice. Nodes are dtypes plus the two weak scalar nodes.
_WEAK_INT, _WEAK_FLOAT, _WEAK_COMPLEX = "i*", "f*", "c*"

_LATTICE_UP = {
    bool_: [_WEAK_INT],
    _WEAK_INT: [uint8, int8, *NARROW_INTS],
    **{d: [] for d in NARROW_INTS},  # only bool and weak ints promote to them
    uint8: [uint16, int16],
    uint16: [uint32, int32],
    uint32: [uint64, int64],
    uint64: [_WEAK_FLOAT],
    int8: [int16],
    int16: [int32],
    int32: [int64],
    int64: [_WEAK_FLOAT],
    _WEAK_FLOAT: [float16, bfloat16, *SMALL_FLOATS, _WEAK_COMPLEX],
    **{d: [] for d in SMALL_FLOATS},  # no implicit promotion to or from them
    float16: [float32],
    bfloat16: [float32],
    float32: [float64, complex64],
    float64: [complex128],
    _WEAK_COMPLEX: [complex64],
    complex64: [complex128],
    complex128: [],
    KEY_FRY: [],  # keys promote only with keys
}


@functools.lru_cache(maxsize=None)
def _upper_set(node) -> frozenset:
    out = {node}
    for parent in _LATTICE_UP[node]:
        out |= _upper_set(parent)
    return frozenset(out)


@functools.lru_cache(maxsize=None)
def _join(a, b):
    common = _upper_set(a) & _upper_set(b)
    # The least upper bound is the common node whose upper set holds all the others.
    for node in common:
        if _upper_set(node) == common:
            return node
    if a in NARROW_INTS or b in NARROW_INTS:
        # JAX names the members of a set of its nodes, whose order varies with each
        # process's hashes: argument order here
        names = tuple(str(_jax_node(n)) for n in (a, b))
        raise TypePromotionError(
            f"Input dtypes {names} have no available implicit dtype promotion path. To "
            "avoid unintended promotion, 1-bit, 2-bit and 4-bit integers do not support "
            "implicit promotion. If you'd like your inputs to be promoted to another type, "
            "you can do so explicitly using e.g. x.astype('int32')")
    if a in SMALL_FLOATS or b in SMALL_FLOATS:
        names = tuple(str(_jax_node(n)) for n in (a, b))
        bits = 8 if any(n in SMALL_FLOATS and n.itemsize * 8 == 8 and "float8" in n.name
                        for n in (a, b)) else 4
        raise TypePromotionError(
            f"Input dtypes {names} have no available implicit dtype promotion path. To "
            f"avoid unintended promotion, {bits}-bit floats do not support implicit promotion. "
            "If you'd like your inputs to be promoted to another type, you can do so "
            "explicitly using e.g. x.astype('float32')")
    raise TypeError(f"Cannot promote {_node_name(a)} and {_node_name(b)}: key arrays "
                    "only combine with key arrays")


def _node_name(node) -> str:
    return node if isinstance(node, str) else dtype_name(node)


def _node(dt: np.dtype, weak: bool):
    if weak:
        if kind(dt) in "iu":
            return _WEAK_INT
        if kind(dt) == "f":
            return _WEAK_FLOAT
        if dt.kind == "c":
            return _WEAK_COMPLEX
    return dt


def _node_dtype(node) -> tuple[np.dtype, bool]:
    if node == _WEAK_INT:
        return default_int_dtype(), True
    if node == _WEAK_FLOAT:
        return default_float_dtype(), True
    if node == _WEAK_COMPLEX:
        return default_complex_dtype(), True
    return canonicalize_dtype(node), False


class TypePromotionError(ValueError):
    """Operands whose dtypes the promotion mode in force does not combine
    (``jax_numpy_dtype_promotion="strict"``)."""


def _strict_upper(node) -> frozenset:
    # Under strict promotion only weakly typed values promote: a weak int to any integer
    # or float type, a weak float to any float type.
    if node == _WEAK_INT:
        return frozenset(n for n in _LATTICE_UP if n != bool_ and n != KEY_FRY)
    if node == _WEAK_FLOAT:
        return frozenset(n for n in _upper_set(_WEAK_FLOAT))
    return frozenset({node})


def _strict_check(nodes: list) -> None:
    """Raise JAX's TypePromotionError unless the lattice ``nodes`` (in argument order)
    have a least upper bound under strict promotion."""
    common = frozenset.intersection(*[_strict_upper(n) for n in nodes])
    lub = (common & set(nodes)) or {c for c in common if common <= _strict_upper(c)}
    if len(lub) != 1:
        # JAX names the members of a set of its nodes, in that set's order (its weak
        # nodes are Python's int and float types).
        names = tuple(str(n) for n in {_jax_node(n) for n in nodes})
        raise TypePromotionError(
            f"Input dtypes {names} have no available implicit dtype promotion path when "
            "jax_numpy_dtype_promotion=strict. Try explicitly casting inputs to the "
            "desired output type, or set jax_numpy_dtype_promotion=standard.")


def _jax_node(node):
    return {_WEAK_INT: int, _WEAK_FLOAT: float}.get(node, node)


def promote_types(a, b) -> np.dtype:
    """The dtype two strong dtypes promote to, without canonicalisation (like JAX)."""
    a, b = _to_np_dtype(a), _to_np_dtype(b)
    if config._strict_promotion and a != b:
        _strict_check([a, b])
    node = _join(a, b)
    if node == _WEAK_FLOAT:
        return float64
    if node == _WEAK_COMPLEX:
        return complex128
    if node == _WEAK_INT:
        return int64
    return node


def is_python_scalar(x) -> bool:
    return type(x) in (bool, int, float, complex) or (
        isinstance(x, (int, float, complex)) and not isinstance(x, np.generic))


def dtype_and_weak(x) -> tuple[np.dtype, bool]:
    """The canonical (dtype, weak_type) of a value, tracer, Array or dtype-like."""
    aval = getattr(x, "aval", None)
    if aval is not None:
        return aval.dtype, aval.weak_type
    if isinstance(x, bool):
        return bool_, False
    if x is int or x is float or x is complex:  # Python's types are weak, as their values
        return dtype_and_weak(x(0))
    if isinstance(x, int) and not isinstance(x, np.integer):
        return default_int_dtype(), True
    if isinstance(x, float) and not isinstance(x, np.floating):
        return default_float_dtype(), True
    if isinstance(x, complex) and not isinstance(x, np.generic):
        return default_complex_dtype(), True
    if isinstance(x, (np.ndarray, np.generic)):
        return canonicalize_dtype(x.dtype), False
    if hasattr(x, "__jax_array__"):
        raise jax_array_error()
    return canonicalize_dtype(x), False


def dtype(x) -> np.dtype:
    """The canonical dtype of a value or a dtype-like, as ``jnp.dtype`` would give."""
    return dtype_and_weak(x)[0]


def is_weakly_typed(x) -> bool:
    """True for Python scalars and for arrays/tracers whose aval is weakly typed."""
    return dtype_and_weak(x)[1]


def result_type(*args, return_weak_type_flag: bool = False):
    """The dtype JAX's promotion gives for ``args`` (values, avals' owners or dtypes).

    Parameters
    ----------
    *args
        Arrays, tracers, Python scalars, NumPy values or dtype-likes.
    return_weak_type_flag : bool
        Also return whether the result is weakly typed.

    Returns
    -------
    numpy.dtype, or (numpy.dtype, bool)
    """
    if not args:
        raise ValueError("at least one array or dtype is required")
    node = None
    strict = [] if config._strict_promotion else None
    for a in args:
        dt, weak = dtype_and_weak(a)
        n = _node(dt, weak)
        if strict is not None:
            strict.append(n)
        node = n if node is None else _join(node, n)
    if strict is not None and len(strict) > 1:
        _strict_check(strict)
    out, weak = _node_dtype(node)
    return (out, weak) if return_weak_type_flag else out


def is_float(dt) -> bool:
    return kind(dt) == "f"


def is_int(dt) -> bool:
    return kind(dt) in "iu"


def is_unsigned(dt) -> bool:
    return kind(dt) == "u"


def is_bool(dt) -> bool:
    return np.dtype(dt) == bool_


# ---------------------------------------------------------------------------------------
# C spelling of each dtype

#: The C type that stores one element. bool is one byte holding 0 or 1 (NumPy's layout);
#: the 16-bit floats are stored as their bit patterns and computed in float.
C_STORAGE_TYPES = {
    np.dtype(np.bool_): "uint8_t", np.dtype(np.int8): "int8_t", np.dtype(np.int16): "int16_t",
    np.dtype(np.int32): "int32_t", np.dtype(np.int64): "int64_t",
    np.dtype(np.uint8): "uint8_t", np.dtype(np.uint16): "uint16_t",
    np.dtype(np.uint32): "uint32_t", np.dtype(np.uint64): "uint64_t",
    np.dtype(np.float16): "uint16_t", bfloat16: "uint16_t", np.dtype(np.float32): "float",
    np.dtype(np.float64): "double", KEY_FRY: "uint64_t",
    complex64: "tp_c64", complex128: "tp_c128",  # C99 complex (runtime/tp_complex.h)
    **{d: "uint8_t" for d in SMALL_FLOATS},  # their bits (runtime/tp_float8.h)
    **{d: "int8_t" if s else "uint8_t" for d, (_, s) in NARROW_INTS.items()}}

#: The C type generated code computes an element in.
C_COMPUTE_TYPES = {**C_STORAGE_TYPES, **{h: "float" for h in (*HALF_FLOATS, *SMALL_FLOATS)}}

#: Suffix of runtime helpers for a dtype (``tp_div_i32``); 16-bit floats use float's.
C_SUFFIXES = {
    np.dtype(np.bool_): "b", np.dtype(np.int8): "i8", np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32", np.dtype(np.int64): "i64", np.dtype(np.uint8): "u8",
    np.dtype(np.uint16): "u16", np.dtype(np.uint32): "u32", np.dtype(np.uint64): "u64",
    np.dtype(np.float16): "f32", bfloat16: "f32", np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
    KEY_FRY: "u64", complex64: "c64", complex128: "c128", **{d: "f32" for d in SMALL_FLOATS},
    **{d: "i8" if s else "u8" for d, (_, s) in NARROW_INTS.items()}}
