"""``dot_general``: the one contraction primitive, and ``lax.dot`` on it.

``dimension_numbers`` is ``((lhs_contracting, rhs_contracting), (lhs_batch,
rhs_batch))``. The result's axes are the batch axes, then the lhs's free axes, then the
rhs's free axes, each group in increasing order.

Operands may have different dtypes (lax does not promote them, but dot_general
accepts the mix): the result takes the dtype of the higher kind (bool < int < float),
then the wider one, then the signed one, as JAX 0.10.2 does. ``preferred_element_type``
sets the result dtype; for integer operands it must not be narrower.
"""
from __future__ import annotations

import enum
import operator

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..ir import pp_param_rules
from . import _float8
from .elementwise import convert_values

__all__ = ["dot_general", "dot", "Precision", "dot_general_p"]


class Precision(enum.Enum):
    """Requested matmul precision (recorded in the jaxpr; the NumPy rule ignores it)."""

    DEFAULT = 0
    HIGH = 1
    HIGHEST = 2

    def __repr__(self) -> str:
        return f"Precision.{self.name}"

    def __str__(self) -> str:
        return self.name


_PRECISION_NAMES = {
    "highest": Precision.HIGHEST, "float32": Precision.HIGHEST,
    "high": Precision.HIGH, "bfloat16_3x": Precision.HIGH, "tensorfloat32": Precision.HIGH,
    "default": Precision.DEFAULT, "bfloat16": Precision.DEFAULT,
    "fastest": Precision.DEFAULT,
}


def _canonical_precision(precision):
    """None, or a pair of ``Precision`` values (one per operand)."""
    if precision is None:
        return None
    if isinstance(precision, (tuple, list)) and len(precision) == 2:
        pair = tuple(_one_precision(p, precision) for p in precision)
        return None if pair == (None, None) else pair
    p = _one_precision(precision, precision)
    return None if p is None else (p, p)


def _one_precision(p, whole):
    if p is None or isinstance(p, Precision):
        return p
    if isinstance(p, str) and p in _PRECISION_NAMES:
        return _PRECISION_NAMES[p]
    raise ValueError(
        "Precision argument must be one of:\n- None,\n- a string in "
        f"{list(_PRECISION_NAMES) + [None]},\n- a lax.Precision value,\n- a tuple of two "
        f"lax.Precision values or strings;\nbut got {whole}.")


# ---------------------------------------------------------------------------------------
# The primitive

dot_general_p = core.new_primitive("dot_general")

_KIND_RANK = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}


def _result_dtype(a: np.dtype, b: np.dtype) -> np.dtype:
    """Mixed operand dtypes: higher kind, then wider, then signed (observed in JAX)."""
    if a == b:
        return a
    return max((a, b), key=lambda d: (_KIND_RANK[dtypes.kind(d)], d.itemsize, d.kind == "i"))


def _check_dimension_numbers(lhs: ShapedArray, rhs: ShapedArray, dimension_numbers):
    (lc, rc), (lb, rb) = dimension_numbers
    for side, aval, batch, contract in (("lhs", lhs, lb, lc), ("rhs", rhs, rb, rc)):
        if any(not 0 <= d < aval.ndim for d in batch + contract):
            raise TypeError(
                f"dot_general requires {side} dimension numbers to be nonnegative and less "
                f"than the number of axes of the {side} value, got {side}_batch of {batch} "
                f"and {side}_contracting of {contract} for {side} of rank {aval.ndim}")
    if len(lb) != len(rb):
        raise TypeError("dot_general requires equal numbers of lhs_batch and rhs_batch "
                        f"dimensions, got lhs_batch {lb} and rhs_batch {rb}.")
    for side, dims, what in (("lhs", lb, "batch"), ("rhs", rb, "batch"),
                             ("lhs", lc, "contracting"), ("rhs", rc, "contracting")):
        if len(set(dims)) != len(dims):
            raise TypeError(f"dot_general requires {side} {what} dimensions to be distinct, "
                            f"got {side}_{what} {dims}.")
    for side, batch, contract in (("lhs", lb, lc), ("rhs", rb, rc)):
        if set(batch) & set(contract):
            raise TypeError(
                f"dot_general requires {side} batch dimensions to be disjoint from "
                f"contracting dimensions, got {side}_batch {batch} and {side}_contracting "
                f"{contract}.")
    lhs_b, rhs_b = (tuple(lhs.shape[d] for d in lb), tuple(rhs.shape[d] for d in rb))
    if lhs_b != rhs_b:
        raise TypeError("dot_general requires lhs batch dimensions and rhs batch dimensions "
                        f"to have the same shape, got {lhs_b} and {rhs_b}.")
    lhs_c, rhs_c = (tuple(lhs.shape[d] for d in lc), tuple(rhs.shape[d] for d in rc))
    if lhs_c != rhs_c:
        raise TypeError("dot_general requires contracting dimensions to have the same "
                        f"shape, got {lhs_c} and {rhs_c}.")


def _free_dims(ndim: int, batch, contract) -> list:
    return [d for d in range(ndim) if d not in batch and d not in contract]


@dot_general_p.def_abstract_eval
def _dot_general_abstract(lhs, rhs, *, dimension_numbers, precision, preferred_element_type,
                          out_sharding):
    _check_dimension_numbers(lhs, rhs, dimension_numbers)
    (lc, rc), (lb, rb) = dimension_numbers
    shape = (tuple(lhs.shape[d] for d in lb)
             + tuple(lhs.shape[d] for d in _free_dims(lhs.ndim, lb, lc))
             + tuple(rhs.shape[d] for d in _free_dims(rhs.ndim, rb, rc)))
    dtype = _result_dtype(lhs.dtype, rhs.dtype)
    if preferred_element_type is not None:
        pref = np.dtype(preferred_element_type)
        if dtype.kind in "iu" and (pref.kind == "b" or pref.itemsize < dtype.itemsize):
            raise TypeError("`preferred_element_type` must not be narrower than the original "
                            f"type, got preferred_element_type of {pref.name} for result "
                            f"type of {dtype.name}.")
        dtype = pref
    # Observed: the result is weak when both operands are, even with a preferred type.
    return ShapedArray(shape, dtype, lhs.weak_type and rhs.weak_type)


def _compute_dtype(operand_dtype: np.dtype, out_dtype: np.dtype) -> np.dtype:
    """What the NumPy rule multiplies and accumulates in.

    Floats accumulate in at least float32 (as XLA does for float16). Integers and bools
    accumulate in uint64: wrapping arithmetic is modular, so narrowing the uint64 result
    gives the value XLA's wrapping integer dot gives, signed or not.
    """
    if dtypes.is_complex(operand_dtype) or dtypes.is_complex(out_dtype):
        return max(d for d in (operand_dtype, out_dtype) if dtypes.is_complex(d))
    floats = [d for d in (operand_dtype, out_dtype) if dtypes.is_float(d)]
    if floats:
        return max(floats + [np.dtype(np.float32)], key=lambda d: d.itemsize)
    return np.dtype(np.uint64)


def _einsum_spec(lhs_ndim: int, rhs_ndim: int, dimension_numbers) -> str:
    (lc, rc), (lb, rb) = dimension_numbers
    letters = iter("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    lhs = [""] * lhs_ndim
    rhs = [""] * rhs_ndim
    for l_dim, r_dim in zip(lb + lc, rb + rc, strict=True):
        lhs[l_dim] = rhs[r_dim] = next(letters)
    for spec in (lhs, rhs):
        for i, s in enumerate(spec):
            if not s:
                spec[i] = next(letters)
    out = ([lhs[d] for d in lb] + [lhs[d] for d in _free_dims(lhs_ndim, lb, lc)]
           + [rhs[d] for d in _free_dims(rhs_ndim, rb, rc)])
    return f"{''.join(lhs)},{''.join(rhs)}->{''.join(out)}"


@dot_general_p.def_impl
@_float8.dot_via_float32
def _dot_general_impl(lhs, rhs, *, dimension_numbers, precision, preferred_element_type,
                      out_sharding):
    operand_dtype = _result_dtype(lhs.dtype, rhs.dtype)
    out_dtype = np.dtype(preferred_element_type or operand_dtype)
    compute = _compute_dtype(operand_dtype, out_dtype)
    spec = _einsum_spec(lhs.ndim, rhs.ndim, dimension_numbers)
    out = np.einsum(spec, lhs.astype(compute), rhs.astype(compute), optimize=True)
    out = np.asarray(out)
    if dtypes.is_complex(compute):
        return convert_values(out, out_dtype)
    if dtypes.is_float(compute):
        # Round to the operands' float type first when that is what XLA accumulates in.
        if dtypes.is_float(operand_dtype) and not dtypes.is_float(out_dtype):
            out = out.astype(operand_dtype)
        return convert_values(out, out_dtype)
    if out_dtype == np.bool_:
        return out != 0
    return out.astype(out_dtype)


def _dot_general_pp(params):
    (lc, rc), (lb, rb) = params["dimension_numbers"]
    items = [("dimension_numbers", f"(({list(lc)}, {list(rc)}), ({list(lb)}, {list(rb)}))")]
    for key in ("precision", "preferred_element_type"):
        if params[key] is not None:
            items.append((key, params[key]))
    return items


pp_param_rules[dot_general_p] = _dot_general_pp


# ---------------------------------------------------------------------------------------
# The lax API

def _dims(d) -> tuple:
    # A bare int stands for a one-element sequence, as in JAX.
    return (operator.index(d),) if np.ndim(d) == 0 else tuple(operator.index(i) for i in d)


def _canonical_dimension_numbers(dimension_numbers) -> tuple:
    (lc, rc), (lb, rb) = dimension_numbers
    return ((_dims(lc), _dims(rc)), (_dims(lb), _dims(rb)))


def dot_general(lhs, rhs, dimension_numbers, precision=None, preferred_element_type=None,
                *, out_sharding=None):
    """General tensor contraction with batch dimensions.

    Parameters
    ----------
    lhs, rhs : array_like
    dimension_numbers : ((seq of int, seq of int), (seq of int, seq of int))
        ``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))``.
    precision : None, str, Precision or pair of them
        Recorded in the jaxpr only.
    preferred_element_type : dtype-like, optional
        The result dtype (accumulation happens at least at that width).
    out_sharding : None
        Accepted for compatibility; only None is supported.

    Returns
    -------
    Array
        Batch axes, then lhs free axes, then rhs free axes.
    """
    if out_sharding is not None:
        raise NotImplementedError("transpile does not support shardings; pass None")
    if preferred_element_type is not None:
        preferred_element_type = dtypes.canonicalize_dtype(preferred_element_type,
                                                           warn_name="dot")
    return dot_general_p.bind(
        lhs, rhs, dimension_numbers=_canonical_dimension_numbers(dimension_numbers),
        precision=_canonical_precision(precision),
        preferred_element_type=preferred_element_type, out_sharding=None)


def dot(lhs, rhs, *, dimension_numbers=None, precision=None, preferred_element_type=None,
        out_sharding=None):
    """Vector/matrix product: vector-vector, matrix-vector, vector-matrix or matrix-matrix.

    Parameters
    ----------
    lhs, rhs : array_like
        Of rank 1 or 2, with ``lhs.shape[-1] == rhs.shape[0]``.
    dimension_numbers : optional
        If given, this is ``dot_general``.
    precision, preferred_element_type, out_sharding
        As for ``dot_general``.

    Returns
    -------
    Array
    """
    if dimension_numbers is None:
        ls, rs = core.get_aval(lhs).shape, core.get_aval(rhs).shape
        if not (1 <= len(ls) <= 2 and 1 <= len(rs) <= 2 and ls[-1] == rs[0]):
            raise ValueError(
                "jax.lax.dot: dimension_numbers must be specified when not performing "
                "simple un-batched matrix-matrix, matrix-vector, or vector-vector "
                f"products; got lhs_shape={ls} rhs_shape={rs}")
        dimension_numbers = (((len(ls) - 1,), (0,)), ((), ()))
    return dot_general(lhs, rhs, dimension_numbers, precision=precision,
                       preferred_element_type=preferred_element_type,
                       out_sharding=out_sharding)
