"""Bit-level primitives: ``clz``, ``population_count``, ``mulhi``, ``reduce_precision``,
and ``optimization_barrier``, with all their rules.

* ``clz`` counts leading zero bits (the bit width for 0), ``population_count`` set bits,
  both in the operand's integer dtype; a signed operand is read as its two's-complement
  bits.
* ``mulhi`` is the upper half of the double-width product of two integers of one dtype
  (signed operands multiply as signed).
* ``reduce_precision`` rounds a float to ``mantissa_bits`` explicit mantissa bits (to
  nearest, ties to even) and clamps it to the exponent range of ``exponent_bits``: a
  magnitude above it becomes infinity, one at or below its smallest normal exponent a
  signed zero (no subnormals), as XLA's bit manipulation does. NaN stays NaN (the
  operand's, even with no mantissa bits, as JAX on CPU gives). Linear: its JVP and transpose apply it to
  the tangent and the cotangent, as JAX's rules do.
* ``eq_to``, ``le_to``, ``lt_to`` compare in the total order of ``top_k`` and ``sort``
  (floats by their bits: ``-NaN < -inf < ... < -0 < +0 < ... < inf < NaN``); boolean
  results, zero tangents.
* ``optimization_barrier`` returns its operands unchanged; it is compiled as the identity
  (``lax.call.EXPANSIONS``).

Integer results have zero tangents.
"""
from __future__ import annotations

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..interpreters import ad
from ..interpreters.batching import defbroadcasting, defvectorized, primitive_batchers
from ..interpreters.tracing import trace_to_jaxpr
from ..tree_util import tree_flatten, tree_unflatten
from .call import EXPANSIONS
from .elementwise import ANY, INTEGER, REAL_FLOATING, _binop, _check_accepts, _unop
from .sorting import total_order_key

__all__ = ['clz', 'population_count', 'mulhi', 'reduce_precision', 'optimization_barrier',
           'clz_p', 'population_count_p', 'mulhi_p', 'reduce_precision_p',
           'optimization_barrier_p', 'eq_to_p', 'le_to_p', 'lt_to_p']


def _unsigned(x: np.ndarray) -> np.ndarray:
    return x.view(np.dtype(f"u{x.dtype.itemsize}"))


def _clz_impl(x):
    x = np.asarray(x)
    u = _unsigned(x)
    nbits = 8 * x.dtype.itemsize
    length = np.zeros(u.shape, np.int64)  # bit length, found by binary search
    for step in (32, 16, 8, 4, 2, 1):
        if step >= nbits:
            continue
        high = (u >> u.dtype.type(step)) != 0
        length = np.where(high, length + step, length)
        u = np.where(high, u >> u.dtype.type(step), u)
    length = length + (u != 0)
    return (nbits - length).astype(x.dtype)


_BYTE_COUNTS = np.array([bin(i).count("1") for i in range(256)], np.uint8)


def _population_count_impl(x):
    x = np.asarray(x)
    # per-byte table (np.bitwise_count needs NumPy 2)
    per_byte = _BYTE_COUNTS[np.ascontiguousarray(x).view(np.uint8)]
    return per_byte.reshape(*x.shape, x.dtype.itemsize).sum(-1).astype(x.dtype)


_MASK32 = np.uint64(0xFFFFFFFF)


def _mulhi_u64(a, b):
    """Upper 64 bits of the 128-bit product of uint64 arrays (32-bit limbs)."""
    s = np.uint64(32)
    a0, a1, b0, b1 = a & _MASK32, a >> s, b & _MASK32, b >> s
    lo = a0 * b0
    mid1 = a1 * b0 + (lo >> s)
    mid2 = a0 * b1 + (mid1 & _MASK32)
    return a1 * b1 + (mid1 >> s) + (mid2 >> s)


def _mulhi_impl(x, y):
    x, y = np.asarray(x), np.asarray(y)
    dt = x.dtype
    nbits = 8 * dt.itemsize
    with np.errstate(over="ignore"):
        if nbits < 64:
            wide = np.int64 if dt.kind == "i" else np.uint64
            prod = x.astype(wide) * y.astype(wide)
            return (prod >> wide(nbits)).astype(dt)
        ux, uy = _unsigned(x), _unsigned(y)
        hi = _mulhi_u64(ux, uy)
        if dt.kind == "i":  # signed high half from the unsigned one
            hi = hi - np.where(x < 0, uy, np.uint64(0)) - np.where(y < 0, ux, np.uint64(0))
        return hi.view(dt) if hi.ndim else np.asarray(hi).view(dt)


clz_p = _unop("clz", INTEGER, _clz_impl)
population_count_p = _unop("population_count", INTEGER, _population_count_impl)
mulhi_p = _binop("mulhi", INTEGER, _mulhi_impl)



def _total_order(compare):
    def impl(x, y):
        return compare(total_order_key(np.asarray(x)), total_order_key(np.asarray(y)))
    return impl


eq_to_p = _binop("eq_to", ANY, _total_order(np.equal), out_dtype=np.bool_)
le_to_p = _binop("le_to", ANY, _total_order(np.less_equal), out_dtype=np.bool_)
lt_to_p = _binop("lt_to", ANY, _total_order(np.less), out_dtype=np.bool_)

for _p in (clz_p, population_count_p, mulhi_p, eq_to_p, le_to_p, lt_to_p):
    ad.defjvp_zero(_p)
defvectorized(clz_p)
defvectorized(population_count_p)
for _p in (mulhi_p, eq_to_p, le_to_p, lt_to_p):
    defbroadcasting(_p)


# ---------------------------------------------------------------------------------------
# reduce_precision

def float_format(dtype) -> tuple[int, int]:
    """``(exponent_bits, mantissa_bits)`` of a float dtype."""
    fi = dtypes.finfo(dtype)
    return int(fi.nexp), int(fi.nmant)


reduce_precision_p = core.new_primitive("reduce_precision")


@reduce_precision_p.def_abstract_eval
def _reduce_precision_abstract(x, *, exponent_bits, mantissa_bits):
    _check_accepts("reduce_precision", x.dtype, REAL_FLOATING)
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def reduce_precision_bits(u: np.ndarray, src: tuple[int, int], exponent_bits: int,
                          mantissa_bits: int) -> np.ndarray:
    """XLA's reduction on the unsigned bit patterns ``u`` of floats of format ``src``
    (NaN inputs not yet restored)."""
    ut = u.dtype.type
    src_e, src_m = src
    if mantissa_bits < src_m:
        last = 1 << (src_m - mantissa_bits)
        # round half to even: add half an ulp less one, plus the kept last bit
        bias = ((u & ut(last)) >> ut(src_m - mantissa_bits)) + ut((last >> 1) - 1)
        u = (u + bias) & ut(~(last - 1) & ((1 << (8 * u.itemsize)) - 1))
    if exponent_bits < src_e:
        sign = ut(1 << (src_e + src_m))
        exp_mask = ut(((1 << src_e) - 1) << src_m)
        bias_src = (1 << (src_e - 1)) - 1
        bias_new = (1 << (exponent_bits - 1)) - 1
        e = u & exp_mask
        over = e > ut((bias_src + bias_new) << src_m)
        under = e <= ut((bias_src - bias_new) << src_m)
        zero = u & sign
        u = np.where(over, zero | exp_mask, np.where(under, zero, u))
    return u


@reduce_precision_p.def_impl
def _reduce_precision_impl(x, *, exponent_bits, mantissa_bits):
    x = np.asarray(x)
    u = np.atleast_1d(_unsigned(x)).copy()
    with np.errstate(over="ignore"):
        out = reduce_precision_bits(u, float_format(x.dtype), exponent_bits, mantissa_bits)
    out = np.asarray(out, u.dtype).view(x.dtype).reshape(x.shape)
    return np.where(np.isnan(x), x, out)


ad.deflinear(reduce_precision_p,
             lambda ct, **params: [reduce_precision_p.bind(ct, **params)])
defvectorized(reduce_precision_p)


# ---------------------------------------------------------------------------------------
# optimization_barrier

optimization_barrier_p = core.new_primitive("optimization_barrier", multiple_results=True)


@optimization_barrier_p.def_abstract_eval
def _barrier_abstract(*avals):
    return list(avals)


@optimization_barrier_p.def_impl
def _barrier_impl(*args):
    return list(args)


def _barrier_jvp(primals, tangents):
    tangents = [ad.instantiate(t, core.get_aval(p)) for p, t in zip(primals, tangents)]
    return optimization_barrier_p.bind(*primals), optimization_barrier_p.bind(*tangents)


def _barrier_transpose(cts, *args):
    cts = [ad.instantiate(c) for c in cts]
    return optimization_barrier_p.bind(*cts)


def _barrier_batch(vals, dims):
    return optimization_barrier_p.bind(*vals), list(dims)


def _barrier_expand(in_avals):
    return trace_to_jaxpr(lambda *xs: list(xs), list(in_avals))


ad.jvp_rules[optimization_barrier_p] = _barrier_jvp
ad.transpose_rules[optimization_barrier_p] = _barrier_transpose
primitive_batchers[optimization_barrier_p] = _barrier_batch
EXPANSIONS[optimization_barrier_p] = _barrier_expand


# ---------------------------------------------------------------------------------------
# The lax API

def clz(x):
    """Count the leading zero bits of each element of an integer array.

    Parameters
    ----------
    x : array_like
        Integer operand (signed values are read as their two's-complement bits).

    Returns
    -------
    Array
        Same shape and dtype; the bit width where ``x`` is 0.
    """
    return clz_p.bind(x)


def population_count(x):
    """Count the set bits of each element of an integer array (same dtype).

    Parameters
    ----------
    x : array_like

    Returns
    -------
    Array
    """
    return population_count_p.bind(x)


def mulhi(x, y, /):
    """Upper half of the double-width product ``x * y`` of integers of one dtype.

    Parameters
    ----------
    x, y : array_like
        Integer operands of the same dtype, broadcast as other binary primitives.

    Returns
    -------
    Array
    """
    return mulhi_p.bind(x, y)


def reduce_precision(operand, exponent_bits: int, mantissa_bits: int):
    """Round floats to a narrower format and back (see the module docstring).

    Parameters
    ----------
    operand : array_like
        Floating operand.
    exponent_bits : int
        Exponent bits of the narrower format, at least 1.
    mantissa_bits : int
        Explicit mantissa bits of the narrower format, at least 0.

    Returns
    -------
    Array
        Same shape and dtype as ``operand``.

    Raises
    ------
    ValueError
        For a non-positive ``exponent_bits`` or a negative ``mantissa_bits``.
    """
    exponent_bits, mantissa_bits = int(exponent_bits), int(mantissa_bits)
    if exponent_bits < 1:
        raise ValueError(f"reduce_precision: exponent_bits must be positive; got "
                         f"{exponent_bits}")
    if mantissa_bits < 0:
        raise ValueError(f"reduce_precision: mantissa_bits must be non-negative; got "
                         f"{mantissa_bits}")
    return reduce_precision_p.bind(operand, exponent_bits=exponent_bits,
                                   mantissa_bits=mantissa_bits)


def optimization_barrier(operand):
    """Return ``operand`` (any pytree of arrays) unchanged: in XLA a fence that keeps
    computations from moving across it; here the identity.

    Parameters
    ----------
    operand : pytree of array_like

    Returns
    -------
    pytree of Array
        The same structure and values.
    """
    leaves, tree = tree_flatten(operand)
    return tree_unflatten(tree, optimization_barrier_p.bind(*leaves))
