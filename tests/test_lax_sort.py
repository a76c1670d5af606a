"""sort, sort_key_val and stop_gradient: values against NumPy's stable sort, NaN and
signed-zero order as JAX 0.10.2 shows it, multi-operand sorts, weak types, jaxpr
text recorded from JAX 0.10.2, and JAX's error messages."""
import re

import numpy as np
import pytest

from transpile import lax
from transpile.jit import make_jaxpr

DTYPES = [np.bool_, np.int8, np.int32, np.uint8, np.uint32, np.float16, np.float32]


def rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind == "u":
        return rng.integers(0, 5, shape).astype(dt)  # few values: many ties
    if dt.kind == "i":
        return rng.integers(-3, 3, shape).astype(dt)
    return np.round(rng.standard_normal(shape), 1).astype(dt)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,dimension", [((7,), -1), ((7,), 0), ((3, 4), 0), ((3, 4), -1),
                                             ((2, 3, 4), 1), ((0, 3), 0), ((0, 3), 1),
                                             ((1, 5), 0), ((1,), 0)], ids=str)
def test_sort_values(shape, dimension, dtype):
    x = rand(shape, dtype)
    out = lax.sort(x, dimension=dimension)
    got = np.asarray(out)
    assert got.dtype == np.dtype(dtype) and out.weak_type is False
    np.testing.assert_array_equal(got, np.sort(x, axis=dimension, kind="stable"))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,dimension", [((9,), 0), ((3, 4), 1), ((3, 4), 0),
                                             ((0, 2), 0)], ids=str)
def test_sort_key_val_is_stable(shape, dimension, dtype):
    keys = rand(shape, dtype)
    values = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    k, v = lax.sort_key_val(keys, values, dimension=dimension)
    order = np.argsort(keys, axis=dimension, kind="stable")
    np.testing.assert_array_equal(np.asarray(k), np.take_along_axis(keys, order, dimension))
    np.testing.assert_array_equal(np.asarray(v), np.take_along_axis(values, order, dimension))
    assert np.asarray(v).dtype == np.int32


def test_multiple_keys_against_lexsort():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 3, 20).astype(np.int32)
    b = rng.integers(0, 3, 20).astype(np.float32)
    c = np.arange(20, dtype=np.uint8)
    out = lax.sort((a, b, c), num_keys=2)
    assert isinstance(out, tuple) and len(out) == 3
    order = np.lexsort((b, a))
    for got, x in zip(out, (a, b, c), strict=True):
        np.testing.assert_array_equal(np.asarray(got), x[order])
    # Only the first key: ties in `a` keep the input order.
    order1 = np.argsort(a, kind="stable")
    out1 = lax.sort((a, b, c), num_keys=1)
    np.testing.assert_array_equal(np.asarray(out1[2]), c[order1])


def test_observed_jax_results():
    # From JAX 0.10.2.
    out = lax.sort((np.array([1, 0, 1, 0], np.int32), np.array([3, 2, 1, 0], np.int32),
                    np.arange(4, dtype=np.int32)), num_keys=2)
    assert [np.asarray(o).tolist() for o in out] == [[0, 0, 1, 1], [0, 2, 1, 3], [3, 1, 2, 0]]
    out = lax.sort((np.array([1, 0, 1, 0], np.int32), np.array([3, 2, 1, 0], np.int32)))
    assert [np.asarray(o).tolist() for o in out] == [[0, 0, 1, 1], [2, 0, 3, 1]]
    assert np.asarray(lax.sort(np.array([2 ** 32 - 1, 0, 5], np.uint32))).tolist() == \
        [0, 5, 2 ** 32 - 1]
    assert np.asarray(lax.sort(np.array([-128, 127, 0], np.int8))).tolist() == [-128, 0, 127]


@pytest.mark.parametrize("dtype", [np.float16, np.float32], ids=lambda d: np.dtype(d).name)
def test_nan_and_signed_zero_order(dtype):
    nan = np.nan
    a = np.array([nan, 1, -nan, -0.0, 0.0, np.inf, -np.inf, -0.0, 0.0, 2], dtype)
    k, v = lax.sort_key_val(a, np.arange(10, dtype=np.int32))
    # JAX 0.10.2: NaNs of either sign last, -0.0 == 0.0, ties keep their order.
    assert np.asarray(v).tolist() == [6, 3, 4, 7, 8, 1, 9, 5, 0, 2]
    np.testing.assert_array_equal(np.signbit(np.asarray(k)),
                                  [True, True, False, True, False, False, False, False,
                                   False, True])


def test_single_vs_sequence():
    x = np.array([3, 1, 2], np.float32)
    assert not isinstance(lax.sort(x), tuple)
    for seq in ((x,), [x]):
        out = lax.sort(seq)
        assert isinstance(out, tuple) and len(out) == 1
        assert np.asarray(out[0]).tolist() == [1.0, 2.0, 3.0]


def test_weak_type():
    w = lax.broadcast_in_dim(1.0, (3,), ())
    assert lax.sort(w).weak_type is True
    out = lax.sort((w, np.ones(3, np.float32)))
    assert [o.weak_type for o in out] == [True, False]
    assert lax.stop_gradient(w).weak_type is True
    assert lax.stop_gradient(1.0).weak_type is True
    assert lax.stop_gradient(np.ones(3, np.float32)).weak_type is False


def test_stop_gradient_values_and_pytrees():
    x = np.arange(3, dtype=np.int32)
    out = lax.stop_gradient({"a": x, "b": (x.astype(np.float16), [np.bool_(True)])})
    np.testing.assert_array_equal(np.asarray(out["a"]), x)
    assert np.asarray(out["b"][0]).dtype == np.float16
    assert np.asarray(out["b"][1][0]).dtype == np.bool_


# --- jaxpr text (recorded from JAX 0.10.2) --------------------------------------------

X = np.array([3, 1, 2], np.float32)
X23 = np.ones((2, 3), np.float32)

JAXPRS = [
    (lambda x: lax.sort(x), (X,),
     "{ lambda ; a:f32[3]. let\n    b:f32[3] = sort[dimension=0 is_stable=True num_keys=1] a\n"
     "  in (b,) }"),
    (lambda x: lax.sort(x, dimension=-2), (X23,),
     "{ lambda ; a:f32[2,3]. let\n    b:f32[2,3] = sort[dimension=0 is_stable=True num_keys=1] "
     "a\n  in (b,) }"),
    (lambda x: lax.sort([x]), (X,),
     "{ lambda ; a:f32[3]. let\n    b:f32[3] = sort[dimension=0 is_stable=True num_keys=1] a\n"
     "  in (b,) }"),
    (lambda x: lax.sort(x, is_stable=False), (X,),
     "{ lambda ; a:f32[3]. let\n    b:f32[3] = sort[dimension=0 is_stable=False num_keys=1] a\n"
     "  in (b,) }"),
    (lambda x, y: lax.sort_key_val(x, y), (X, X.astype(np.int32)),
     "{ lambda ; a:f32[3] b:i32[3]. let\n    c:f32[3] d:i32[3] = sort[dimension=0 "
     "is_stable=True num_keys=1] a b\n  in (c, d) }"),
    (lambda x, y: lax.sort((x, y), num_keys=2), (X, X.astype(np.int32)),
     "{ lambda ; a:f32[3] b:i32[3]. let\n    c:f32[3] d:i32[3] = sort[dimension=0 "
     "is_stable=True num_keys=2] a b\n  in (c, d) }"),
    (lambda x: lax.sort(x), (X > 1,),
     "{ lambda ; a:bool[3]. let\n    b:bool[3] = sort[dimension=0 is_stable=True num_keys=1] "
     "a\n  in (b,) }"),
    (lambda x: lax.stop_gradient(x), (X,),
     "{ lambda ; a:f32[3]. let b:f32[3] = stop_gradient a in (b,) }"),
    (lambda x: lax.stop_gradient(x), (1.0,),
     "{ lambda ; a:f32[]. let b:f32[] = stop_gradient a in (b,) }"),
    (lambda x: lax.stop_gradient(x), (X.astype(np.int32),),
     "{ lambda ; a:i32[3]. let b:i32[3] = stop_gradient a in (b,) }"),
    (lambda x: lax.stop_gradient((x, x)), (X,),
     "{ lambda ; a:f32[3]. let\n    b:f32[3] = stop_gradient a\n    c:f32[3] = stop_gradient "
     "a\n  in (b, c) }"),
]


@pytest.mark.parametrize("fn,args,expected", JAXPRS)
def test_jaxpr_text(fn, args, expected):
    assert str(make_jaxpr(fn)(*args)) == expected


# --- errors ---------------------------------------------------------------------------

ERRORS = [
    (lambda: lax.sort(X23, dimension=2), ValueError,
     "axis 2 is out of bounds for array of dimension 2"),
    (lambda: lax.sort(X23, dimension=-3), ValueError,
     "axis -3 is out of bounds for array of dimension 2"),
    (lambda: lax.sort(np.float32(1)), ValueError,
     "axis -1 is out of bounds for array of dimension 0"),
    (lambda: lax.sort((X, X23)), TypeError,
     "Arguments to sort must have equal shapes, got: (3,) (2, 3)"),
    (lambda: lax.sort_key_val(X, X23), TypeError,
     "Arguments to sort must have equal shapes, got: (3,) (2, 3)"),
    (lambda: lax.sort((X,), num_keys=0), ValueError,
     "num_keys=0 must be between 1 and len(operand)=1"),
    (lambda: lax.sort((X, X), num_keys=3), ValueError,
     "num_keys=3 must be between 1 and len(operand)=2"),
    (lambda: lax.sort(()), TypeError, "Sort requires at least one operand"),
]


@pytest.mark.parametrize("fn,exc,message", ERRORS)
def test_errors(fn, exc, message):
    with pytest.raises(exc, match="^" + re.escape(message) + "$"):
        fn()
    with pytest.raises(exc, match="^" + re.escape(message) + "$"):
        make_jaxpr(fn)()
