"""The smaller ``jax.lax`` names built from other primitives, and ``unstack``.

``unstack`` is a primitive (as in JAX: one equation with several results), linear, with
its JVP, transpose and batching rules below; it is compiled as slices
(``lax.call.EXPANSIONS``). Everything else composes existing primitives as JAX does:
``batch_matmul`` and ``ragged_dot`` are ``dot_general``s, ``index_take`` a ``gather``,
``approx_max_k``/``approx_min_k`` bind ``approx_top_k`` (a primitive, as in JAX), whose
value is the exact ``top_k`` (what JAX computes on CPU; the recall arguments are
accepted and have no effect), compiled and differentiated as that expansion, ``reciprocal`` ``integer_pow(x, -1)``.

``platform_dependent`` runs the ``cpu`` branch (or ``default``): the compiled programs
here run on the host. ``composite`` runs its decomposition, as JAX evaluates a composite
on CPU. Tokens (``create_token``, ``after_all``) order effects in XLA; here effects run
in program order, so a token is a plain marker object. ``dce_sink`` keeps nothing alive
because nothing here removes a value a host callback needs.
"""
from __future__ import annotations

import enum
from typing import Any, NamedTuple, Sequence, Union

import numpy as np

from .. import core, dtypes
from ..core import ShapedArray
from ..interpreters import ad
from ..interpreters.batching import primitive_batchers
from ..interpreters.eval import eval_jaxpr, eval_jaxpr_numpy
from ..interpreters.tracing import trace_to_jaxpr
from ._base import _as_value, aval_of, numpy_api
from ._indexing_common import GatherDimensionNumbers
from .call import EXPANSIONS
from .contraction import Precision, dot_general
from .elementwise import convert_element_type, integer_pow, lt, mul, neg
from .indexing import gather
from .reduction import reduce_sum
from .slicing import concatenate, index_in_dim, iota
from .sorting import top_k
from .structural import broadcast_in_dim, expand_dims, full, transpose

__all__ = [
    'batch_matmul', 'broadcast_shapes', 'broadcast_like', 'reciprocal', 'dtype', 'empty',
    'index_take', 'shape_as_value', 'platform_dependent', 'stage', 'composite',
    'approx_max_k', 'approx_min_k', 'ragged_dot', 'ragged_dot_general',
    'RaggedDotDimensionNumbers', 'DotDimensionNumbers', 'DotAlgorithm',
    'DotAlgorithmPreset', 'PrecisionLike', 'Tolerance', 'AccuracyMode', 'RandomAlgorithm',
    'unstack', 'unstack_p', 'approx_top_k_p', 'create_token', 'after_all', 'dce_sink',
    'Token']


# ---------------------------------------------------------------------------------------
# Types

#: ``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))``
DotDimensionNumbers = tuple[tuple[Sequence[int], Sequence[int]],
                            tuple[Sequence[int], Sequence[int]]]


class DotAlgorithm(NamedTuple):
    """A dot algorithm by its operand and accumulation types (accepted for JAX
    compatibility: the compiled dots here accumulate in the result dtype)."""
    lhs_precision_type: Any
    rhs_precision_type: Any
    accumulation_type: Any
    lhs_component_count: int = 1
    rhs_component_count: int = 1
    num_primitive_operations: int = 1
    allow_imprecise_accumulation: bool = False


class DotAlgorithmPreset(enum.Enum):
    """JAX's named dot algorithms (``DEFAULT`` and the operand/accumulator presets)."""
    DEFAULT = enum.auto()
    ANY_F8_ANY_F8_F32 = enum.auto()
    ANY_F8_ANY_F8_F32_FAST_ACCUM = enum.auto()
    ANY_F8_ANY_F8_ANY = enum.auto()
    ANY_F8_ANY_F8_ANY_FAST_ACCUM = enum.auto()
    F16_F16_F16 = enum.auto()
    F16_F16_F32 = enum.auto()
    BF16_BF16_BF16 = enum.auto()
    BF16_BF16_F32 = enum.auto()
    BF16_BF16_F32_X3 = enum.auto()
    BF16_BF16_F32_X6 = enum.auto()
    BF16_BF16_F32_X9 = enum.auto()
    TF32_TF32_F32 = enum.auto()
    TF32_TF32_F32_X3 = enum.auto()
    F32_F32_F32 = enum.auto()
    F64_F64_F64 = enum.auto()

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    __str__ = lambda self: self.name  # noqa: E731


PrecisionLike = Union[None, str, Precision, tuple[str, str], tuple[Precision, Precision],
                      DotAlgorithm, DotAlgorithmPreset]


class AccuracyMode(enum.Enum):
    """Requested accuracy of a unary function (``HIGHEST`` or ``DEFAULT``)."""
    HIGHEST = 1
    DEFAULT = 2


class Tolerance:
    """Tolerances for a unary function's result: ``atol`` and ``rtol``, or ``ulps``.

    Raises
    ------
    ValueError
        For a negative tolerance, or when none is set.
    """

    def __init__(self, atol: float = 0.0, rtol: float = 0.0, ulps: int = 0):
        if atol < 0.0 or rtol < 0.0 or ulps < 0:
            raise ValueError("Tolerances must be non-negative.")
        if atol == 0.0 and rtol == 0.0 and ulps == 0:
            raise ValueError("At least one of atol, rtol, or ulps must be set.")
        self.atol, self.rtol, self.ulps = atol, rtol, ulps


class RandomAlgorithm(enum.IntEnum):
    """XLA's bit-generator algorithms."""
    RNG_DEFAULT = 0
    RNG_THREE_FRY = 1
    RNG_PHILOX = 2

    def __repr__(self) -> str:
        return f"<{type(self).__name__}.{self.name}: {self.value}>"


class RaggedDotDimensionNumbers:
    """Dimension numbers of ``ragged_dot_general``: a ``dot_general``'s, the lhs
    dimension split into groups, and the rhs dimension indexing the groups."""

    def __init__(self, dot_dimension_numbers, lhs_ragged_dimensions,
                 rhs_group_dimensions):
        self.dot_dimension_numbers = dot_dimension_numbers
        self.lhs_ragged_dimensions = tuple(lhs_ragged_dimensions)
        self.rhs_group_dimensions = tuple(rhs_group_dimensions)

    def __repr__(self) -> str:
        return (f"RaggedDotDimensionNumbers(dot_dimension_numbers="
                f"{self.dot_dimension_numbers}, lhs_ragged_dimensions="
                f"{self.lhs_ragged_dimensions}, rhs_group_dimensions="
                f"{self.rhs_group_dimensions})")


# ---------------------------------------------------------------------------------------
# Shapes and dtypes

def broadcast_shapes(*shapes) -> tuple:
    """The NumPy broadcast of ``shapes``.

    Raises
    ------
    ValueError
        When the shapes are incompatible (JAX's message).
    """
    rank = max((len(s) for s in shapes), default=0)
    padded = [(1,) * (rank - len(s)) + tuple(s) for s in shapes]
    out = []
    for dims in zip(*padded, strict=True):
        sizes = {d for d in dims if d != 1}
        if len(sizes) > 1:
            raise ValueError("Incompatible shapes for broadcasting: shapes="
                             f"{[tuple(s) for s in shapes]}")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def broadcast_like(arr, like_arr):
    """``arr`` broadcast (NumPy-style, trailing dimensions aligned) to ``like_arr``'s
    shape."""
    arr = _as_value(arr)
    shape = tuple(aval_of(like_arr).shape)
    nd = len(aval_of(arr).shape)
    return broadcast_in_dim(arr, shape, tuple(range(len(shape) - nd, len(shape))))


def dtype(x, *, canonicalize: bool = False):
    """The dtype of a value or dtype-like, as a NumPy dtype (JAX's canonical one: float64
    becomes float32 unless x64 is enabled)."""
    return dtypes.canonicalize_dtype(dtypes.dtype(x))


def reciprocal(x):
    """Elementwise ``1 / x`` (``integer_pow(x, -1)``)."""
    return integer_pow(x, -1)


def empty(shape, dtype, *, out_sharding=None):
    """An array of ``shape`` and ``dtype`` with unspecified contents (zeros here, as
    JAX gives on CPU)."""
    return full(shape, 0, dtype)


def shape_as_value(shape):
    """``shape`` as a signed integer array (int32, or int64 where a dimension needs it)."""
    shape = tuple(int(d) for d in shape)
    dt = np.int64 if any(d > np.iinfo(np.int32).max for d in shape) else np.int32
    return np.asarray(shape, dtype=dt).reshape(len(shape))


def stage(x, /):
    """``x``, staged as a value of the traced program (the identity)."""
    return _as_value(x)


def dce_sink(val, *, prevent_mlir_dce: bool = False):
    """Mark ``val`` as used. Returns ``None``."""
    return None


class Token:
    """An effect-ordering token (``create_token``, ``after_all``)."""
    __slots__ = ()

    def __repr__(self) -> str:
        return "Token()"


def create_token(*_):
    """A fresh token."""
    return Token()


def after_all(*operands):
    """A token ordered after ``operands`` (tokens)."""
    for t in operands:
        if not isinstance(t, Token):
            raise TypeError(f"after_all requires tokens, got {type(t).__name__}")
    return Token()


def platform_dependent(*args, default=None, **per_platform):
    """Call the function given for this platform (``cpu``) on ``args``, else
    ``default``.

    Raises
    ------
    NotImplementedError
        When neither a ``cpu`` function nor ``default`` is given.
    """
    fn = per_platform.get("cpu", default)
    if fn is None:
        raise NotImplementedError(
            f"Unsupported platform: cpu; given branches for {sorted(per_platform)}")
    return fn(*args)


def composite(decomposition, name: str, version: int = 0):
    """Wrap ``decomposition`` as the named composite operation ``name``: calling the
    result calls the decomposition (how JAX evaluates it on CPU)."""
    def call(*args, **kwargs):
        return decomposition(*args, **kwargs)
    call.__name__ = getattr(decomposition, "__name__", name)
    call.__doc__ = getattr(decomposition, "__doc__", None)
    return call


# ---------------------------------------------------------------------------------------
# Contractions

def batch_matmul(lhs, rhs, precision=None):
    """Matrix products over matching leading (batch) dimensions.

    Raises
    ------
    ValueError
        When an operand is below 2-D or their ranks differ (JAX's messages).
    """
    lhs, rhs = _as_value(lhs), _as_value(rhs)
    ln, rn = len(aval_of(lhs).shape), len(aval_of(rhs).shape)
    if min(ln, rn) < 2:
        raise ValueError(f"Arguments to batch_matmul must be at least 2D, got {ln}, {rn}")
    if ln != rn:
        raise ValueError(f"Arguments to batch_matmul must have same ndim, got {ln}, {rn}")
    batch = tuple(range(ln - 2))
    return dot_general(lhs, rhs, (((ln - 1,), (rn - 2,)), (batch, batch)),
                       precision=precision)


_RAGGED_DEFAULT = RaggedDotDimensionNumbers((((1,), (1,)), ((), ())), (0,), (0,))


def ragged_dot(lhs, rhs, group_sizes, precision=None, preferred_element_type=None,
               group_offset=None, out_sharding=None):
    """``lhs[m, k]`` rows in consecutive groups (``group_sizes[g]`` rows each) times
    ``rhs[g, k, n]``: the ``[m, n]`` product of each row with its group's matrix. Rows
    past the groups give zeros."""
    return ragged_dot_general(lhs, rhs, group_sizes, _RAGGED_DEFAULT, precision,
                              preferred_element_type, group_offset, out_sharding)


def ragged_dot_general(lhs, rhs, group_sizes, ragged_dot_dimension_numbers,
                       precision=None, preferred_element_type=None, group_offset=None,
                       out_sharding=None):
    """``ragged_dot`` with explicit dimension numbers (only ``ragged_dot``'s layout:
    2-D ``lhs`` ragged in its rows, 3-D ``rhs`` grouped in its first dimension).

    Raises
    ------
    NotImplementedError
        For other dimension numbers or a ``group_offset``.
    """
    d = ragged_dot_dimension_numbers
    lhs, rhs, group_sizes = _as_value(lhs), _as_value(rhs), _as_value(group_sizes)
    ls, rs = aval_of(lhs).shape, aval_of(rhs).shape
    if (group_offset is not None or len(ls) != 2 or len(rs) != 3
            or tuple(d.lhs_ragged_dimensions) != (0,) or tuple(d.rhs_group_dimensions) != (0,)
            or _norm_dnums(d.dot_dimension_numbers) != (((1,), (1,)), ((), ()))):
        raise NotImplementedError("ragged_dot_general supports ragged_dot's dimension "
                                  "numbers only")
    g = rs[0]
    if tuple(aval_of(group_sizes).shape) != (g,):
        raise TypeError(f"ragged_dot_general: group_sizes must have shape ({g},), got "
                        f"{tuple(aval_of(group_sizes).shape)}")
    # each row's group: the number of group ends at or below its index
    ends = numpy_api.cumsum(group_sizes)
    rows = iota(np.dtype(aval_of(ends).dtype), ls[0])
    below = lt(broadcast_in_dim(rows, (ls[0], g), (0,)),
               broadcast_in_dim(ends, (ls[0], g), (1,)))
    starts = ends - group_sizes
    at_or_past = lt(broadcast_in_dim(starts - 1, (ls[0], g), (1,)),
                    broadcast_in_dim(rows, (ls[0], g), (0,)))
    mask = convert_element_type(below & at_or_past, aval_of(lhs).dtype)  # [m, g]
    # every row times every group's matrix, then each row keeps its own group's
    prod = dot_general(lhs, rhs, (((1,), (1,)), ((), ())), precision=precision,
                       preferred_element_type=preferred_element_type)  # [m, g, n]
    mask = convert_element_type(mask, aval_of(prod).dtype)
    return reduce_sum(mul(prod, broadcast_in_dim(mask, aval_of(prod).shape, (0, 1))),
                      (1,))


def _norm_dnums(dn):
    (lc, rc), (lb, rb) = dn
    return ((tuple(lc), tuple(rc)), (tuple(lb), tuple(rb)))


# ---------------------------------------------------------------------------------------
# Selection

def index_take(src, idxs, axes):
    """``src`` at the integer coordinates ``idxs`` (one index array per axis of
    ``axes``), indices wrapping modulo each axis' size."""
    src = _as_value(src)
    indices = concatenate([expand_dims(_as_value(i), (1,)) for i in idxs], 1)
    shape = aval_of(src).shape
    sizes = np.array([shape[ax] for ax in axes], dtype=np.dtype(aval_of(indices).dtype))
    indices = numpy_api.remainder(indices, sizes.reshape((1,) * (len(aval_of(indices).shape)
                                                                 - 1) + sizes.shape))
    slice_sizes = list(shape)
    for ax in axes:
        slice_sizes[ax] = 1
    n_index = aval_of(indices).shape[1]
    dnums = GatherDimensionNumbers(offset_dims=tuple(range(1, len(shape) - n_index + 1)),
                                   collapsed_slice_dims=tuple(axes),
                                   start_index_map=tuple(axes))
    return gather(src, indices, dnums, tuple(slice_sizes))


def _moveaxis_perm(nd: int, src: int, dst: int) -> tuple:
    perm = [d for d in range(nd) if d != src]
    perm.insert(dst, src)
    return tuple(perm)


approx_top_k_p = core.new_primitive("approx_top_k", multiple_results=True)


def _approx_dim(nd: int, reduction_dimension: int) -> int:
    return reduction_dimension + nd if reduction_dimension < 0 else reduction_dimension


@approx_top_k_p.def_abstract_eval
def _approx_top_k_abstract(operand, *, k, reduction_dimension, recall_target, is_max_k,
                           reduction_input_size_override, aggregate_to_topk):
    if not dtypes.is_float(operand.dtype):
        raise ValueError("operand must be a floating type")
    nd = len(operand.shape)
    dim = _approx_dim(nd, reduction_dimension)
    if not 0 <= dim < nd:
        raise ValueError(f"approx_top_k: reduction_dimension {reduction_dimension} is out "
                         f"of bounds for an operand of rank {nd}")
    size = operand.shape[dim]
    if k > size:
        raise ValueError(f"k must be smaller than the size of reduction_dim {size}, got {k}")
    shape = tuple(operand.shape[:dim]) + (k,) + tuple(operand.shape[dim + 1:])
    return [ShapedArray(shape, operand.dtype, operand.weak_type),
            ShapedArray(shape, np.dtype(np.int32), operand.weak_type)]


def _approx_top_k_exact(x, *, k, reduction_dimension, is_max_k, **_):
    """The exact answer, as XLA:CPU computes it: ``top_k`` along the dimension (of the
    negated operand for the smallest)."""
    nd = len(aval_of(x).shape)
    dim = _approx_dim(nd, reduction_dimension)
    x = x if is_max_k else neg(x)
    if dim != nd - 1:
        x = transpose(x, _moveaxis_perm(nd, dim, nd - 1))
    vals, idx = top_k(x, k)
    if dim != nd - 1:
        back = _moveaxis_perm(nd, nd - 1, dim)
        vals, idx = transpose(vals, back), transpose(idx, back)
    return [vals if is_max_k else neg(vals), idx]


def _approx_expand(in_avals, **params):
    return trace_to_jaxpr(lambda x: _approx_top_k_exact(x, **params), list(in_avals))


@approx_top_k_p.def_impl
def _approx_top_k_impl(x, **params):
    closed = _approx_expand([core.get_aval(x)], **params)
    return eval_jaxpr_numpy(closed.jaxpr, closed.consts, x)


def _approx_top_k_jvp(primals, tangents, **params):
    outs = approx_top_k_p.bind(*primals, **params)
    closed = _approx_expand([core.get_aval(primals[0])], **params)
    _, t_outs = ad.jvp_flat(lambda x: eval_jaxpr(closed, None, x), list(primals),
                            list(tangents))
    return outs, t_outs


def _approx_top_k_batch(vals, dims, *, reduction_dimension, **params):
    (x,), (d,) = vals, dims
    nd = len(aval_of(x).shape) - 1
    dim = _approx_dim(nd, reduction_dimension)
    inner = dim if dim < d else dim + 1
    outs = approx_top_k_p.bind(x, reduction_dimension=inner, **params)
    return outs, [d, d]


ad.jvp_rules[approx_top_k_p] = _approx_top_k_jvp
primitive_batchers[approx_top_k_p] = _approx_top_k_batch
EXPANSIONS[approx_top_k_p] = _approx_expand


def _approx_k(operand, k, reduction_dimension, recall_target, reduction_input_size_override,
              aggregate_to_topk, is_max_k):
    vals, idx = approx_top_k_p.bind(
        _as_value(operand), k=int(k), reduction_dimension=int(reduction_dimension),
        recall_target=float(recall_target), is_max_k=is_max_k,
        reduction_input_size_override=int(reduction_input_size_override),
        aggregate_to_topk=bool(aggregate_to_topk))
    return vals, idx


def approx_max_k(operand, k: int, reduction_dimension: int = -1,
                 recall_target: float = 0.95, reduction_input_size_override: int = -1,
                 aggregate_to_topk: bool = True):
    """The ``k`` largest values of a float array along ``reduction_dimension`` and their
    indices (exact, as on CPU: ``recall_target`` and the other tuning arguments have no
    effect).

    Returns
    -------
    (Array, Array)
        Values, descending, and their int32 indices.

    Raises
    ------
    ValueError
        For a non-float operand or ``k`` above the dimension's size (JAX's messages).
    """
    return _approx_k(operand, k, reduction_dimension, recall_target,
                     reduction_input_size_override, aggregate_to_topk, True)


def approx_min_k(operand, k: int, reduction_dimension: int = -1,
                 recall_target: float = 0.95, reduction_input_size_override: int = -1,
                 aggregate_to_topk: bool = True):
    """The ``k`` smallest values of a float array along ``reduction_dimension``
    (ascending) and their indices; exact, as ``approx_max_k``."""
    return _approx_k(operand, k, reduction_dimension, recall_target,
                     reduction_input_size_override, aggregate_to_topk, False)


# ---------------------------------------------------------------------------------------
# unstack

unstack_p = core.new_primitive("unstack", multiple_results=True)


@unstack_p.def_abstract_eval
def _unstack_abstract(x, *, axis):
    shape = tuple(x.shape)
    out = ShapedArray(shape[:axis] + shape[axis + 1:], x.dtype, x.weak_type)
    return [out] * shape[axis]


@unstack_p.def_impl
def _unstack_impl(x, *, axis):
    x = np.asarray(x)
    return [np.take(x, i, axis=axis) for i in range(x.shape[axis])]


def _unstack_transpose(cts, x, *, axis):
    aval = x.aval
    shape = tuple(aval.shape)
    parts = [ad.instantiate(c, ShapedArray(shape[:axis] + shape[axis + 1:], aval.dtype))
             for c in cts]
    dims = tuple(d for d in range(len(shape)) if d != axis)
    one = shape[:axis] + (1,) + shape[axis + 1:]
    return [concatenate([broadcast_in_dim(p, one, dims) for p in parts], axis)]


def _unstack_batch(vals, dims, *, axis):
    (x,), (d,) = vals, dims
    inner = axis if axis < d else axis + 1
    out_dim = d if d < inner else d - 1
    outs = unstack_p.bind(x, axis=inner)
    return outs, [out_dim] * len(outs)


def _unstack_expand(in_avals, *, axis):
    return trace_to_jaxpr(
        lambda x: [index_in_dim(x, i, axis, keepdims=False)
                   for i in range(in_avals[0].shape[axis])], list(in_avals))


ad.deflinear2(unstack_p, _unstack_transpose)
primitive_batchers[unstack_p] = _unstack_batch
EXPANSIONS[unstack_p] = _unstack_expand


def unstack(x, axis: int = 0):
    """Split ``x`` along ``axis`` into a tuple of its slices (each without that axis).

    Raises
    ------
    ValueError
        When ``axis`` is out of bounds.
    """
    x = _as_value(x)
    nd = len(aval_of(x).shape)
    if not -nd <= axis < nd:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {nd}")
    return tuple(unstack_p.bind(x, axis=axis % nd))
