"""The public surface of transpile.numpy: names, scalar types, dtype queries, and
reductions, shape operations, creation, products and sorting against NumPy.

jaxpr text and JAX-recorded dtypes/errors live in the other test_numpy_* files.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import transpile.numpy as jnp
from transpile.array import Array
from transpile.config import enable_x64
from transpile.core import Tracer
from transpile.jit import jit

PUBLIC = """
add subtract multiply divide true_divide floor_divide remainder mod power negative positive
abs absolute sign floor ceil round around rint trunc exp exp2 expm1 log log2 log10 log1p sqrt
cbrt square reciprocal sin cos tan arcsin arccos arctan arcsinh arccosh arctanh asin acos atan
asinh acosh atanh sinh cosh tanh arctan2 hypot maximum minimum fmax fmin logaddexp equal
not_equal less less_equal greater greater_equal logical_and logical_or logical_xor logical_not
bitwise_and bitwise_or bitwise_xor bitwise_not invert left_shift right_shift isnan isinf
isfinite signbit nextafter deg2rad rad2deg where clip sum mean var std max min prod argmax
argmin any all cumsum cumprod dot matmul tensordot einsum reshape ravel transpose swapaxes
moveaxis squeeze expand_dims broadcast_to broadcast_arrays concatenate stack hstack vstack
split array_split arange linspace zeros ones full eye identity zeros_like ones_like full_like
empty empty_like array asarray astype sort argsort flip tile repeat shape ndim size
result_type promote_types dtype can_cast issubdtype iinfo finfo bool_ int8 int16 int32 int64
uint8 uint16 uint32 uint64 float16 float32 float64 pi e inf nan newaxis ndarray
""".split()


def test_public_names():
    missing = [n for n in PUBLIC if not hasattr(jnp, n)]
    assert not missing
    assert set(PUBLIC) <= set(jnp.__all__)


def test_constants_and_ndarray():
    assert jnp.pi == math.pi and jnp.e == math.e and jnp.inf == math.inf
    assert math.isnan(jnp.nan) and jnp.newaxis is None
    assert jnp.ndarray is Array and isinstance(jnp.ones(2), jnp.ndarray)


# ---------------------------------------------------------------------------------------
# Scalar types and dtype queries

SCALARS = ["bool_", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float16",
           "float32"]


@pytest.mark.parametrize("name", SCALARS)
def test_scalar_types(name):
    t = getattr(jnp, name)
    np_type = np.dtype("bool" if name == "bool_" else name).type
    assert np.dtype(t) == np.dtype(np_type)
    assert t == np_type and hash(t) == hash(np_type) and t.dtype == np.dtype(np_type)
    assert isinstance(np_type(1), t)
    x = t(3)
    assert isinstance(x, Array) and x.dtype == np.dtype(np_type) and not x.weak_type
    assert jnp.zeros(2, t).dtype == np.dtype(np_type)
    assert jnp.ones(2).astype(t).dtype == np.dtype(np_type)


def test_scalar_type_calls_and_64_bit_truncation():
    assert repr(jnp.float32(3)) == "Array(3., dtype=float32)"
    assert repr(jnp.int32(3.7)) == "Array(3, dtype=int32)"
    assert repr(jnp.bool_(2)) == "Array(True, dtype=bool)"
    assert repr(jnp.float32([1, 2])) == "Array([1., 2.], dtype=float32)"
    assert jnp.bool is jnp.bool_ and jnp.float_ is jnp.float64 and jnp.int_ is jnp.int64
    with pytest.warns(UserWarning, match="Explicitly requested dtype int64 requested in "
                                         "asarray is not available"):
        assert jnp.int64(3).dtype == np.int32
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert jnp.zeros(2, float).dtype == np.float32  # Python types never warn


def test_dtype_queries():
    assert jnp.result_type(1, 1.0) == np.float32
    assert jnp.result_type(jnp.int8, 1) == np.int8
    assert jnp.result_type(jnp.ones(2, jnp.int8), 3) == np.int8
    assert jnp.result_type(jnp.float16, 1.0) == np.float16
    assert jnp.promote_types(jnp.int8, jnp.uint8) == np.int16
    assert jnp.promote_types(np.uint64, np.int64) == np.float64  # not canonicalised
    assert jnp.can_cast(jnp.int8, jnp.int32) and not jnp.can_cast(np.float32, np.int32)
    assert jnp.can_cast(jnp.float32, jnp.int32, casting="unsafe")
    assert jnp.issubdtype(jnp.float32, jnp.floating)
    assert jnp.issubdtype(jnp.ones(2).dtype, jnp.inexact)
    assert jnp.isdtype(jnp.float32, "real floating") and not jnp.isdtype(jnp.int8, "bool")
    assert jnp.iinfo(jnp.int8).max == 127 and jnp.iinfo(jnp.ones(2, jnp.uint8)).max == 255
    assert jnp.finfo(jnp.float32).eps == np.finfo(np.float32).eps
    assert jnp.dtype("float32") == np.float32
    assert jnp.shape(3.0) == () and jnp.ndim(jnp.ones((2, 3))) == 2
    assert jnp.size(np.ones((2, 3))) == 6 and jnp.size(np.ones((2, 3)), 1) == 3


# Recorded from JAX 0.10.2 with jax_enable_x64=True: (dtype, weak_type) of each result.
X64_EXPECTED = [
    ("arange", ("int64", False)), ("ones", ("float64", False)), ("array_py", ("float64", True)),
    ("mean_int", ("float64", False)), ("i32_plus_py", ("float64", True)),
    ("sum_i32", ("int64", False)), ("sum_u8", ("uint64", False)), ("list", ("int64", False)),
    ("linspace", ("float64", False)), ("eye", ("float64", False)),
    ("argmax", ("int64", False)), ("argsort", ("int64", False)),
    ("float64", ("float64", False)), ("int64", ("int64", False)),
    ("cumsum_bool", ("int64", False)), ("var_int", ("float64", False)),
]


def test_x64_dtypes():
    with enable_x64():
        results = {
            "arange": jnp.arange(3), "ones": jnp.ones(3), "array_py": jnp.array(1.0),
            "mean_int": jnp.mean(jnp.arange(3)),
            "i32_plus_py": jnp.arange(3, dtype=jnp.int32) + 1.0,
            "sum_i32": jnp.sum(jnp.ones(3, jnp.int32)), "sum_u8": jnp.sum(jnp.ones(3, jnp.uint8)),
            "list": jnp.array([1, 2]), "linspace": jnp.linspace(0, 1, 3), "eye": jnp.eye(2),
            "argmax": jnp.argmax(jnp.ones(3)), "argsort": jnp.argsort(jnp.ones(3)),
            "float64": jnp.float64(1), "int64": jnp.int64(2),
            "cumsum_bool": jnp.cumsum(jnp.ones(3, bool)), "var_int": jnp.var(jnp.arange(3)),
        }
        got = [(k, (str(v.dtype), bool(v.weak_type))) for k, v in results.items()]
    assert got == X64_EXPECTED


# ---------------------------------------------------------------------------------------
# Methods and operators on Array and on tracers

def _method_programs():
    return {
        "sum": lambda x: x.sum(axis=0), "mean": lambda x: x.mean(keepdims=True),
        "var": lambda x: x.var(ddof=1), "std": lambda x: x.std(axis=1),
        "max": lambda x: x.max(), "min": lambda x: x.min(1), "prod": lambda x: x.prod(0),
        "argmax": lambda x: x.argmax(), "argmin": lambda x: x.argmin(axis=1),
        "any": lambda x: x.any(), "all": lambda x: x.all(axis=0),
        "cumsum": lambda x: x.cumsum(1), "cumprod": lambda x: x.cumprod(),
        "T": lambda x: x.T, "reshape": lambda x: x.reshape(3, 2),
        "reshape_tuple": lambda x: x.reshape((6,)), "ravel": lambda x: x.ravel(),
        "flatten": lambda x: x.flatten(), "transpose": lambda x: x.transpose(1, 0),
        "swapaxes": lambda x: x.swapaxes(0, 1), "squeeze": lambda x: x[None].squeeze(0),
        "astype": lambda x: x.astype(jnp.int32), "clip": lambda x: x.clip(1, 4),
        "round": lambda x: (x / 3).round(2), "dot": lambda x: x.dot(x.T),
        "sort": lambda x: (-x).sort(), "argsort": lambda x: (-x).argsort(axis=0),
        "ops": lambda x: ((x + 1) * 2 - x / 4) ** 2 % 5 // 2,
        "rops": lambda x: 1 + 2 * x - 3 / (x + 1),
        "cmp": lambda x: (x > 2) & (x <= 4) | ~(x == 3) ^ (x != 1),
        "unary": lambda x: -abs(+x), "matmul": lambda x: x @ x.T,
        "rmatmul": lambda x: np.ones((3, 2), np.float32) @ x, "getitem": lambda x: x[1, ::-1],
        "at": lambda x: x.at[0, 1:].add(10.0), "real_imag": lambda x: x.real + x.imag,
        "conj": lambda x: x.conj(), "mT": lambda x: x.mT, "repeat": lambda x: x.repeat(2, 0),
        "divmod": lambda x: divmod(x, 4.0), "pyround": lambda x: round(x / 2),
        "iter": lambda x: sum(row for row in x), "shift": lambda x: x.astype(int) << 1,
    }


@pytest.mark.parametrize("name", list(_method_programs()))
def test_methods_same_on_array_and_tracer(name):
    fn = _method_programs()[name]
    x = jnp.arange(6.0).reshape(2, 3)
    eager = fn(x)
    traced = jit(fn)(x)
    for e, t in zip(eager if isinstance(eager, tuple) else (eager,),
                    traced if isinstance(traced, tuple) else (traced,), strict=True):
        assert e.dtype == t.dtype and e.shape == t.shape
        np.testing.assert_allclose(np.asarray(e), np.asarray(t), rtol=1e-6)


def test_tracer_has_the_methods():
    seen = []

    def f(x):
        seen.append(isinstance(x, Tracer) and hasattr(x, "sum") and hasattr(x, "at"))
        return x.sum()
    jit(f)(jnp.ones(3))
    assert seen == [True]


def test_operators_defer_for_unknown_operands():
    x = jnp.ones(3)
    assert (x == "a") is False and (x != None) is True  # noqa: E711
    with pytest.raises(TypeError, match="unsupported operand"):
        x + [1, 2, 3]
    out = np.ones(3, np.float32) + x  # NumPy defers to the Array
    assert isinstance(out, Array)


# ---------------------------------------------------------------------------------------
# Reductions against NumPy

REDUCTIONS = [
    ("sum", {}), ("sum", {"axis": 0}), ("sum", {"axis": (0, 2), "keepdims": True}),
    ("sum", {"axis": -1, "dtype": jnp.int32}), ("prod", {"axis": 1}), ("max", {}),
    ("max", {"axis": 2, "keepdims": True}), ("min", {"axis": (1, 2)}), ("mean", {}),
    ("mean", {"axis": 1}), ("mean", {"axis": (0, 1), "keepdims": True}),
    ("var", {}), ("var", {"axis": 0, "ddof": 1}), ("std", {"axis": 2}),
    ("std", {"keepdims": True}), ("argmax", {}), ("argmax", {"axis": 1}),
    ("argmin", {"axis": 2, "keepdims": True}), ("any", {"axis": 0}), ("all", {}),
    ("cumsum", {}), ("cumsum", {"axis": 1}), ("cumprod", {"axis": -1}),
    ("sum", {"where": "mask"}), ("max", {"where": "mask", "initial": -100.0}),
    ("mean", {"where": "mask"}), ("sum", {"initial": 5.0}),
]


@pytest.mark.parametrize("dtype", ["float32", "int32"])
@pytest.mark.parametrize("name,kwargs", REDUCTIONS, ids=lambda v: str(v))
def test_reductions_vs_numpy(name, kwargs, dtype):
    rng = np.random.default_rng(1)
    x = rng.integers(-3, 4, (2, 3, 4)).astype(dtype)
    kw = dict(kwargs)
    if kw.get("where") == "mask":
        kw["where"] = x > 0
    got = getattr(jnp, name)(x, **kw)
    ref = getattr(np, name)(x.astype(np.float64) if name in ("mean", "var", "std") else x,
                            **{k: (np.int32 if v is jnp.int32 else v) for k, v in kw.items()})
    assert got.shape == np.shape(ref)
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(ref, np.float64),
                               rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "any", "all", "argmax", "cumsum"])
@pytest.mark.parametrize("shape", [(), (0,), (0, 3), (1,)])
def test_reductions_on_small_shapes(name, shape):
    x = np.ones(shape, np.float32)
    if name == "argmax" and 0 in shape:
        with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
            jnp.argmax(x)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = getattr(jnp, name)(x)
        ref = getattr(np, name)(x)
    assert got.shape == np.shape(ref)
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(ref, np.float64))


# ---------------------------------------------------------------------------------------
# Shape operations against NumPy

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
SHAPE_OPS = [
    ("reshape", lambda m: m.reshape(A, (4, -1)), lambda: A.reshape(4, -1)),
    ("reshape_F", lambda m: m.reshape(A, (6, 4), order="F"),
     lambda: A.reshape((6, 4), order="F")),
    ("ravel", lambda m: m.ravel(A), lambda: A.ravel()),
    ("transpose", lambda m: m.transpose(A, (1, 2, 0)), lambda: A.transpose(1, 2, 0)),
    ("swapaxes", lambda m: m.swapaxes(A, 0, 2), lambda: A.swapaxes(0, 2)),
    ("moveaxis", lambda m: m.moveaxis(A, (0, 1), (2, 0)),
     lambda: np.moveaxis(A, (0, 1), (2, 0))),
    ("squeeze", lambda m: m.squeeze(A[:1, :, :1]), lambda: A[:1, :, :1].squeeze()),
    ("expand_dims", lambda m: m.expand_dims(A, (0, 3)), lambda: np.expand_dims(A, (0, 3))),
    ("broadcast_to", lambda m: m.broadcast_to(A[:, :1], (5, 2, 3, 4)),
     lambda: np.broadcast_to(A[:, :1], (5, 2, 3, 4))),
    ("concatenate", lambda m: m.concatenate([A, A[:, :1]], axis=1),
     lambda: np.concatenate([A, A[:, :1]], axis=1)),
    ("concatenate_none", lambda m: m.concatenate([A, A[0]], axis=None),
     lambda: np.concatenate([A, A[0]], axis=None)),
    ("stack", lambda m: m.stack([A, A + 1], axis=2), lambda: np.stack([A, A + 1], axis=2)),
    ("stack_array", lambda m: m.stack(A, axis=1), lambda: np.stack(A, axis=1)),
    ("hstack", lambda m: m.hstack([A, A]), lambda: np.hstack([A, A])),
    ("vstack", lambda m: m.vstack([A[0, 0], A[1, 1]]), lambda: np.vstack([A[0, 0], A[1, 1]])),
    ("dstack", lambda m: m.dstack([A[0], A[1]]), lambda: np.dstack([A[0], A[1]])),
    ("split", lambda m: m.split(A, 2, axis=2), lambda: np.split(A, 2, axis=2)),
    ("split_idx", lambda m: m.split(A, [1, -1], axis=1), lambda: np.split(A, [1, -1], axis=1)),
    ("array_split", lambda m: m.array_split(A, 3, axis=2),
     lambda: np.array_split(A, 3, axis=2)),
    ("flip", lambda m: m.flip(A, (0, 2)), lambda: np.flip(A, (0, 2))),
    ("fliplr", lambda m: m.fliplr(A[0]), lambda: np.fliplr(A[0])),
    ("tile", lambda m: m.tile(A[0], (2, 1, 3)), lambda: np.tile(A[0], (2, 1, 3))),
    ("repeat", lambda m: m.repeat(A, 3, axis=1), lambda: np.repeat(A, 3, axis=1)),
    ("repeat_flat", lambda m: m.repeat(A[0], 2), lambda: np.repeat(A[0], 2)),
    ("broadcast_arrays", lambda m: m.broadcast_arrays(A[:, :1], A[0, 0]),
     lambda: np.broadcast_arrays(A[:, :1], A[0, 0])),
    ("atleast_2d", lambda m: m.atleast_2d(A[0, 0]), lambda: np.atleast_2d(A[0, 0])),
    ("atleast_3d", lambda m: m.atleast_3d(A[0]), lambda: np.atleast_3d(A[0])),
    ("column_stack", lambda m: m.column_stack([A[0, 0], A[1, 0]]),
     lambda: np.column_stack([A[0, 0], A[1, 0]])),
]


@pytest.mark.parametrize("name,fn,ref", SHAPE_OPS, ids=[c[0] for c in SHAPE_OPS])
def test_shape_ops_vs_numpy(name, fn, ref):
    got, want = fn(jnp), ref()
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        pairs = list(zip(got, want, strict=True))
    else:
        pairs = [(got, want)]
    for g, w in pairs:
        assert g.shape == w.shape
        np.testing.assert_array_equal(np.asarray(g), w)
    traced = jit(lambda: fn(jnp))()
    for t, (_, w) in zip(traced if isinstance(traced, (list, tuple)) else [traced], pairs,
                         strict=True):
        np.testing.assert_array_equal(np.asarray(t), w)


# ---------------------------------------------------------------------------------------
# Creation against NumPy

CREATION = [
    ("arange", lambda m: m.arange(7), lambda: np.arange(7)),
    ("arange_start", lambda m: m.arange(2, 9, 3), lambda: np.arange(2, 9, 3)),
    ("arange_neg", lambda m: m.arange(5, -3, -2), lambda: np.arange(5, -3, -2)),
    ("arange_float", lambda m: m.arange(0.5, 2.0, 0.25), lambda: np.arange(0.5, 2.0, 0.25)),
    ("arange_empty", lambda m: m.arange(3, 1), lambda: np.arange(3, 1)),
    ("linspace", lambda m: m.linspace(-1, 2, 7), lambda: np.linspace(-1, 2, 7)),
    ("linspace_noend", lambda m: m.linspace(0, 1, 4, endpoint=False),
     lambda: np.linspace(0, 1, 4, endpoint=False)),
    ("linspace_arrays", lambda m: m.linspace(np.zeros(2), np.array([1.0, 2.0]), 5, axis=1),
     lambda: np.linspace(np.zeros(2), np.array([1.0, 2.0]), 5, axis=1)),
    ("linspace_int", lambda m: m.linspace(0, 10, 4, dtype=m.int32),
     lambda: np.linspace(0, 10, 4, dtype=np.int32)),
    ("linspace_one", lambda m: m.linspace(3, 5, 1), lambda: np.linspace(3, 5, 1)),
    ("eye", lambda m: m.eye(3, 4, k=-1), lambda: np.eye(3, 4, k=-1)),
    ("identity", lambda m: m.identity(3, dtype=m.int32), lambda: np.identity(3, np.int32)),
    ("zeros", lambda m: m.zeros((2, 0)), lambda: np.zeros((2, 0))),
    ("ones", lambda m: m.ones(3, bool), lambda: np.ones(3, bool)),
    ("full", lambda m: m.full((2, 3), np.arange(3)), lambda: np.full((2, 3), np.arange(3))),
    ("full_like", lambda m: m.full_like(np.arange(3), 2.5), lambda: np.full_like(
        np.arange(3), 2.5)),
    ("array_nested", lambda m: m.array([[1, 2], [3, 4]], dtype=m.float32),
     lambda: np.array([[1, 2], [3, 4]], np.float32)),
]


@pytest.mark.parametrize("name,fn,ref", CREATION, ids=[c[0] for c in CREATION])
def test_creation_vs_numpy(name, fn, ref):
    got, want = fn(jnp), ref()
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(want, np.float64),
                               rtol=1e-6, atol=1e-6)


def test_creation_dtypes():
    assert jnp.arange(5).dtype == np.int32 and jnp.arange(5.0).dtype == np.float32
    assert jnp.zeros(3).dtype == np.float32 and not jnp.zeros(3).weak_type
    assert jnp.array(1.0).weak_type and jnp.array(1).weak_type and not jnp.array(True).weak_type
    assert jnp.full(3, 2).weak_type and jnp.full(3, 2).dtype == np.int32
    assert not jnp.array([1.0, 2.0]).weak_type
    assert jnp.asarray(np.arange(3)).dtype == np.int32
    assert jnp.array([np.int8(1), 2]).dtype == np.int8
    out, step = jnp.linspace(0, 1, 5, retstep=True)
    assert float(step) == 0.25


# ---------------------------------------------------------------------------------------
# Products against NumPy

R = np.random.default_rng(2)
PRODUCTS = [
    ("dot_mm", "dot", (2, 3), (3, 4)), ("dot_vv", "dot", (3,), (3,)),
    ("dot_mv", "dot", (2, 3), (3,)), ("dot_nd", "dot", (2, 3, 4), (5, 4, 2)),
    ("dot_scalar", "dot", (), (2, 3)), ("matmul_mm", "matmul", (2, 3), (3, 4)),
    ("matmul_batch", "matmul", (5, 2, 3), (5, 3, 4)),
    ("matmul_bcast", "matmul", (2, 1, 2, 3), (4, 3, 2)),
    ("matmul_unit", "matmul", (1, 2, 3), (1, 3, 4)), ("matmul_vm", "matmul", (3,), (2, 3, 4)),
    ("matmul_mv", "matmul", (2, 3, 4), (4,)), ("matmul_vv", "matmul", (4,), (4,)),
    ("inner", "inner", (2, 3), (4, 3)), ("outer", "outer", (2, 3), (4,)),
    ("vdot", "vdot", (2, 3), (3, 2)),
]


@pytest.mark.parametrize("name,fn,sa,sb", PRODUCTS, ids=[p[0] for p in PRODUCTS])
def test_products_vs_numpy(name, fn, sa, sb):
    a = R.standard_normal(sa).astype(np.float32)
    b = R.standard_normal(sb).astype(np.float32)
    got = getattr(jnp, fn)(a, b)
    want = getattr(np, fn)(a.astype(np.float64), b.astype(np.float64))
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)


EINSUMS = [
    ("ij,jk->ik", (2, 3), (3, 4)), ("ij,jk", (2, 3), (3, 4)), ("ij,kj->ki", (2, 3), (4, 3)),
    ("bij,bjk->bik", (2, 3, 4), (2, 4, 5)), ("bij,bkj->bki", (2, 3, 4), (2, 5, 4)),
    ("i,i->", (3,), (3,)), ("i,j->ji", (3,), (2,)), ("ij,jk->i", (2, 3), (3, 4)),
    ("ij,ij->j", (2, 3), (2, 3)), ("...ij,...jk->...ik", (2, 3, 4), (2, 4, 5)),
    ("abc,cd->dba", (2, 3, 4), (4, 5)), ("ijk->kij", (2, 3, 4), None),
    ("ijk->j", (2, 3, 4), None), ("ij,k->kji", (2, 3), (4,)),
]


@pytest.mark.parametrize("spec,sa,sb", EINSUMS, ids=[e[0] for e in EINSUMS])
def test_einsum_vs_numpy(spec, sa, sb):
    ops = [R.standard_normal(s).astype(np.float32) for s in (sa, sb) if s is not None]
    got = jnp.einsum(spec, *ops)
    want = np.einsum(spec, *[o.astype(np.float64) for o in ops])
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)


def test_products_mixed_dtypes():
    out = jnp.dot(np.ones((2, 3), np.int32), np.ones((3, 4), np.float32))
    assert out.dtype == np.float32
    out = jnp.einsum("ij,jk->ik", np.ones((2, 3), np.int32), np.ones((3, 4), np.int32),
                     preferred_element_type=jnp.float32)
    assert out.dtype == np.float32 and float(out[0, 0]) == 3.0


# ---------------------------------------------------------------------------------------
# Sorting

@pytest.mark.parametrize("axis", [-1, 0, None])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_and_argsort_vs_numpy(axis, descending):
    x = np.array([[3, 1, 2, 1], [0, 5, 5, -1], [2, 2, 2, 2]], np.int32)
    got = jnp.sort(x, axis=axis, descending=descending)
    want = np.sort(x, axis=axis)
    if descending:
        want = np.flip(want, axis=-1 if axis is None else axis)
    np.testing.assert_array_equal(np.asarray(got), want)
    idx = jnp.argsort(x, axis=axis, descending=descending)
    if descending:  # stable descending: ties keep their original order
        want_idx = np.argsort(-x.astype(np.int64), axis=axis, kind="stable")
    else:
        want_idx = np.argsort(x, axis=axis, kind="stable")
    np.testing.assert_array_equal(np.asarray(idx), want_idx)
    assert idx.dtype == np.int32
