"""Structural lax primitives: values against NumPy, dtypes and weak types, jaxpr text
recorded from JAX 0.10.2, and JAX's error messages."""
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
        return rng.integers(0, 200, shape).astype(dt)
    if dt.kind == "i":
        return rng.integers(-100, 100, shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def ref_pad(x, value, config):
    """lax.pad one axis at a time with index lists (no strided writes, no cropping)."""
    out = x
    for axis, (lo, hi, interior) in enumerate(config):
        n = out.shape[axis]
        pieces = []
        for i in range(n):
            pieces.append(np.take(out, [i], axis=axis))
            if i < n - 1:
                pieces.extend([None] * interior)
        pad_shape = list(out.shape)
        pad_shape[axis] = 1
        filler = np.full(pad_shape, value, out.dtype)
        pieces = [filler if p is None else p for p in pieces]
        pieces = [filler] * max(lo, 0) + pieces[max(-lo, 0):]
        pieces = pieces[:len(pieces) - max(-hi, 0)] + [filler] * max(hi, 0)
        pad_shape[axis] = 0
        out = np.concatenate(pieces, axis=axis) if pieces else np.zeros(pad_shape, out.dtype)
    return out


# (id, input shapes, lax function, NumPy reference)
CASES = [
    ("bid_vec", [(3,)], lambda x: lax.broadcast_in_dim(x, (2, 3), (1,)),
     lambda x: np.broadcast_to(x, (2, 3))),
    ("bid_scalar", [()], lambda x: lax.broadcast_in_dim(x, (2, 3), ()),
     lambda x: np.broadcast_to(x, (2, 3))),
    ("bid_size1", [(1, 3)], lambda x: lax.broadcast_in_dim(x, (4, 3), (0, 1)),
     lambda x: np.broadcast_to(x, (4, 3))),
    ("bid_empty", [(0, 3)], lambda x: lax.broadcast_in_dim(x, (2, 0, 3), (1, 2)),
     lambda x: np.zeros((2, 0, 3), x.dtype)),
    ("bid_unsorted", [(2, 1)], lambda x: lax.broadcast_in_dim(x, (1, 2, 2), (2, 1)),
     lambda x: np.broadcast_to(x.T.reshape(1, 1, 2), (1, 2, 2))),
    ("broadcast", [(3,)], lambda x: lax.broadcast(x, (2, 1)),
     lambda x: np.broadcast_to(x, (2, 1, 3))),
    ("broadcast_to_rank", [(3,)], lambda x: lax.broadcast_to_rank(x, 3),
     lambda x: x.reshape(1, 1, 3)),
    ("reshape", [(2, 3)], lambda x: lax.reshape(x, (3, 2)), lambda x: x.reshape(3, 2)),
    ("reshape_flat", [(2, 3)], lambda x: lax.reshape(x, 6), lambda x: x.reshape(6)),
    ("reshape_dims", [(2, 3)], lambda x: lax.reshape(x, (3, 2), (1, 0)),
     lambda x: x.T.reshape(3, 2)),
    ("reshape_to_0d", [(1, 1)], lambda x: lax.reshape(x, ()), lambda x: x.reshape(())),
    ("reshape_from_0d", [()], lambda x: lax.reshape(x, (1, 1)), lambda x: x.reshape(1, 1)),
    ("reshape_empty", [(0, 3)], lambda x: lax.reshape(x, (3, 0)), lambda x: x.reshape(3, 0)),
    ("collapse", [(2, 3, 4)], lambda x: lax.collapse(x, 0, 2), lambda x: x.reshape(6, 4)),
    ("collapse_neg", [(2, 3, 4)], lambda x: lax.collapse(x, 1, -1),
     lambda x: x.reshape(2, 3, 4)),
    ("squeeze", [(1, 3, 1)], lambda x: lax.squeeze(x, (0, 2)), lambda x: x.reshape(3)),
    ("squeeze_neg", [(3, 1)], lambda x: lax.squeeze(x, (-1,)), lambda x: x.reshape(3)),
    ("squeeze_to_0d", [(1,)], lambda x: lax.squeeze(x, (0,)), lambda x: x.reshape(())),
    ("squeeze_empty", [(0, 1)], lambda x: lax.squeeze(x, (1,)), lambda x: x.reshape(0)),
    ("expand_dims", [(3,)], lambda x: lax.expand_dims(x, (0, 2)),
     lambda x: x.reshape(1, 3, 1)),
    ("expand_dims_0d", [()], lambda x: lax.expand_dims(x, (0,)), lambda x: x.reshape(1)),
    ("expand_dims_neg", [(0,)], lambda x: lax.expand_dims(x, (-1,)),
     lambda x: x.reshape(0, 1)),
    ("transpose", [(2, 3, 4)], lambda x: lax.transpose(x, (2, 0, 1)),
     lambda x: np.moveaxis(x, 2, 0)),
    ("transpose_empty", [(0, 3)], lambda x: lax.transpose(x, (1, 0)), lambda x: x.T),
    ("transpose_0d", [()], lambda x: lax.transpose(x, ()), lambda x: x),
    ("rev", [(2, 3)], lambda x: lax.rev(x, (0, 1)), lambda x: x[::-1, ::-1]),
    ("rev_one", [(2, 3)], lambda x: lax.rev(x, (1,)), lambda x: x[:, ::-1]),
    ("rev_none", [(3,)], lambda x: lax.rev(x, ()), lambda x: x),
    ("rev_empty", [(0,)], lambda x: lax.rev(x, (0,)), lambda x: x),
    ("slice", [(5,)], lambda x: lax.slice(x, (1,), (4,)), lambda x: x[1:4]),
    ("slice_strided", [(3, 7)], lambda x: lax.slice(x, (0, 1), (3, 7), (2, 3)),
     lambda x: x[0:3:2, 1:7:3]),
    ("slice_empty", [(3,)], lambda x: lax.slice(x, (1,), (1,)), lambda x: x[1:1]),
    ("slice_0size", [(0,)], lambda x: lax.slice(x, (0,), (0,), (2,)), lambda x: x),
    ("slice_0d", [()], lambda x: lax.slice(x, (), ()), lambda x: x),
    ("slice_in_dim", [(2, 5)], lambda x: lax.slice_in_dim(x, -4, None, 2, axis=-1),
     lambda x: x[:, 1::2]),
    ("index_in_dim", [(2, 3)], lambda x: lax.index_in_dim(x, -1, axis=1),
     lambda x: x[:, 2:3]),
    ("index_in_dim_squeeze", [(2, 3)],
     lambda x: lax.index_in_dim(x, 1, axis=0, keepdims=False), lambda x: x[1]),
    ("concatenate", [(2, 3), (1, 3)], lambda x, y: lax.concatenate([x, y], 0),
     lambda x, y: np.concatenate([x, y], 0)),
    ("concatenate_empty", [(2, 0), (2, 3), (2, 1)],
     lambda x, y, z: lax.concatenate([x, y, z], 1), lambda x, y, z: np.concatenate([x, y, z], 1)),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_values_and_dtype(case, dtype):
    _, shapes, fn, ref = case
    args = [rand(s, dtype, seed=i) for i, s in enumerate(shapes)]
    out = fn(*args)
    expected = ref(*args)
    got = np.asarray(out)
    assert got.dtype == np.dtype(dtype)
    assert got.shape == expected.shape
    assert out.weak_type is False
    np.testing.assert_array_equal(got, expected)
    # Traced and eager agree on the output type.
    closed = make_jaxpr(fn)(*args)
    assert closed.out_avals[0].shape == expected.shape
    assert closed.out_avals[0].dtype == np.dtype(dtype)


PAD_CONFIGS = [
    ((3,), ((1, 2, 1),)),
    ((5,), ((-1, 2, 1),)),
    ((5,), ((2, -3, 2),)),
    ((3,), ((-4, 0, 2),)),
    ((3,), ((-3, 0, 0),)),
    ((0,), ((1, 1, 2),)),
    ((), ()),
    ((2, 3), ((0, 1, 0), (1, -1, 1))),
    ((1, 2), ((0, 0, 5), (-2, 0, 0))),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,config", PAD_CONFIGS, ids=str)
def test_pad(shape, config, dtype):
    x = rand(shape, dtype)
    value = np.zeros((), dtype) if dtype == np.bool_ else np.array(7, dtype)
    out = lax.pad(x, value, config)
    expected = ref_pad(x, value, config)
    assert np.asarray(out).dtype == np.dtype(dtype)
    np.testing.assert_array_equal(np.asarray(out), expected)


@pytest.mark.parametrize("dtype", [d for d in DTYPES if d != np.bool_],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,dim", [((5,), 0), ((2, 3), 1), ((2, 3), 0), ((0, 4), 1),
                                       ((1,), 0)])
def test_iota(shape, dim, dtype):
    out = lax.broadcasted_iota(dtype, shape, dim)
    expected = np.broadcast_to(
        np.arange(shape[dim]).reshape([-1 if i == dim else 1 for i in range(len(shape))]),
        shape).astype(dtype)
    assert np.asarray(out).dtype == np.dtype(dtype) and out.weak_type is False
    np.testing.assert_array_equal(np.asarray(out), expected)
    if len(shape) == 1:
        np.testing.assert_array_equal(np.asarray(lax.iota(dtype, shape[0])), expected)


def test_iota_wraps_narrow_ints():
    np.testing.assert_array_equal(np.asarray(lax.iota(np.uint8, 300))[255:258], [255, 0, 1])


# --- weak types ----------------------------------------------------------------------

def weak(shape):
    return lax.broadcast_in_dim(1.0, shape, ())


@pytest.mark.parametrize("fn,expect", [
    (lambda: weak((3,)), True),
    (lambda: lax.reshape(weak((3,)), (3, 1)), True),
    (lambda: lax.squeeze(weak((1, 3)), (0,)), True),
    (lambda: lax.transpose(weak((1, 3)), (1, 0)), True),
    (lambda: lax.rev(weak((3,)), (0,)), True),
    (lambda: lax.slice(weak((3,)), (1,), (2,)), True),
    (lambda: lax.expand_dims(weak((3,)), (0,)), True),
    (lambda: lax.pad(weak((3,)), 0.0, ((1, 1, 0),)), True),
    (lambda: lax.pad(weak((3,)), np.float32(0), ((1, 1, 0),)), False),
    (lambda: lax.pad(np.ones(3, np.float32), 0.0, ((1, 1, 0),)), False),
    (lambda: lax.concatenate([weak((3,)), weak((2,))], 0), True),
    (lambda: lax.concatenate([weak((3,)), np.ones(3, np.float32)], 0), False),
    (lambda: lax.broadcast(1, (2,)), True),
    (lambda: lax.iota(np.int32, 3), False),
])
def test_weak_type(fn, expect):
    assert fn().weak_type is expect


# --- jaxpr text (recorded from JAX 0.10.2) --------------------------------------------

F3 = np.ones(3, np.float32)
F23 = np.ones((2, 3), np.float32)

JAXPRS = [
    (lambda x: lax.broadcast_in_dim(x, (2, 3), (1,)), (F3,),
     "{ lambda ; a:f32[3]. let\n    b:f32[2,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a"
     "\n  in (b,) }"),
    (lambda x: lax.broadcast_in_dim(x, (3,), ()), (np.float32(1),),
     "{ lambda ; a:f32[]. let b:f32[3] = broadcast_in_dim a in (b,) }"),
    (lambda: lax.broadcast_in_dim(1.0, (3,), ()), (),
     "{ lambda ; . let a:f32[3] = broadcast_in_dim 1.0:f32[] in (a,) }"),
    (lambda x: lax.broadcast_in_dim(x, (3,), (0,)), (F3,), "{ lambda ; a:f32[3]. let  in (a,) }"),
    (lambda x: lax.broadcast_to_rank(x, 3), (F3,),
     "{ lambda ; a:f32[3]. let\n    b:f32[1,1,3] = broadcast_in_dim[broadcast_dimensions=(2,)] a"
     "\n  in (b,) }"),
    (lambda x: lax.expand_dims(x, (0, 2)), (F3,),
     "{ lambda ; a:f32[3]. let\n    b:f32[1,3,1] = broadcast_in_dim[broadcast_dimensions=(1,)] a"
     "\n  in (b,) }"),
    (lambda x: lax.reshape(x, (3, 1)), (F3,),
     "{ lambda ; a:f32[3]. let\n    b:f32[3,1] = reshape[dimensions=None new_sizes=(3, 1) "
     "sharding=None] a\n  in (b,) }"),
    (lambda x: lax.reshape(x, (3, 2), dimensions=(1, 0)), (F23,),
     "{ lambda ; a:f32[2,3]. let\n    b:f32[3,2] = reshape[dimensions=(1, 0) new_sizes=(3, 2) "
     "sharding=None] a\n  in (b,) }"),
    (lambda x: lax.reshape(x, (2, 3)), (F23,), "{ lambda ; a:f32[2,3]. let  in (a,) }"),
    (lambda x: lax.collapse(x, 0, -1), (np.ones((2, 3, 4), np.float32),),
     "{ lambda ; a:f32[2,3,4]. let\n    b:f32[6,4] = reshape[dimensions=None new_sizes=(6, 4) "
     "sharding=None] a\n  in (b,) }"),
    (lambda x: lax.squeeze(x, (0,)), (np.ones((1, 3), np.float32),),
     "{ lambda ; a:f32[1,3]. let b:f32[3] = squeeze[dimensions=(0,)] a in (b,) }"),
    (lambda x: lax.squeeze(x, ()), (F3,), "{ lambda ; a:f32[3]. let  in (a,) }"),
    (lambda x: lax.transpose(x, (1, 0)), (F23,),
     "{ lambda ; a:f32[2,3]. let\n    b:f32[3,2] = transpose[permutation=(1, 0)] a\n  in (b,) }"),
    (lambda x: lax.transpose(x, (0, 1)), (F23,), "{ lambda ; a:f32[2,3]. let  in (a,) }"),
    (lambda x: lax.rev(x, (0,)), (F23,),
     "{ lambda ; a:f32[2,3]. let b:f32[2,3] = rev[dimensions=(0,)] a in (b,) }"),
    (lambda x: lax.rev(x, ()), (F3,),
     "{ lambda ; a:f32[3]. let b:f32[3] = rev[dimensions=()] a in (b,) }"),
    (lambda x: lax.slice(x, (1,), (2,)), (F3,),
     "{ lambda ; a:f32[3]. let\n    b:f32[1] = slice[limit_indices=(2,) start_indices=(1,) "
     "strides=None] a\n  in (b,) }"),
    (lambda x: lax.slice(x, (0,), (3,), (2,)), (F3,),
     "{ lambda ; a:f32[3]. let\n    b:f32[2] = slice[limit_indices=(3,) start_indices=(0,) "
     "strides=(2,)] a\n  in (b,) }"),
    (lambda x: lax.slice_in_dim(x, 0, 2, axis=1), (F23,),
     "{ lambda ; a:f32[2,3]. let\n    b:f32[2,2] = slice[limit_indices=(2, 2) "
     "start_indices=(0, 0) strides=(1, 1)] a\n  in (b,) }"),
    (lambda x: lax.index_in_dim(x, 1, axis=1, keepdims=False), (F23,),
     "{ lambda ; a:f32[2,3]. let\n    b:f32[2,1] = slice[limit_indices=(2, 2) "
     "start_indices=(0, 1) strides=(1, 1)] a\n    c:f32[2] = squeeze[dimensions=(1,)] b\n"
     "  in (c,) }"),
    (lambda x: lax.pad(x, 0.0, ((1, 2, 1),)), (F3,),
     "{ lambda ; a:f32[3]. let\n    b:f32[8] = pad[padding_config=((1, 2, 1),)] a 0.0:f32[]\n"
     "  in (b,) }"),
    (lambda x: lax.pad(x, 0, ((1, 1, 0),)), (np.ones(3, np.int32),),
     "{ lambda ; a:i32[3]. let\n    b:i32[5] = pad[padding_config=((1, 1, 0),)] a 0:i32[]\n"
     "  in (b,) }"),
    (lambda x, y: lax.concatenate([x, y], 0), (F3, F3),
     "{ lambda ; a:f32[3] b:f32[3]. let\n    c:f32[6] = concatenate[dimension=0] a b\n"
     "  in (c,) }"),
    (lambda x: lax.concatenate([x], 0), (F3,), "{ lambda ; a:f32[3]. let  in (a,) }"),
    # NumPy operands: only the broadcast_in_dim family skips the identity equation.
    (lambda: lax.reshape(F3, (3,)), (),
     "{ lambda a:f32[3]; . let\n    b:f32[3] = reshape[dimensions=None new_sizes=(3,) "
     "sharding=None] a\n  in (b,) }"),
    (lambda: lax.squeeze(F3, ()), (),
     "{ lambda a:f32[3]; . let b:f32[3] = squeeze[dimensions=()] a in (b,) }"),
    (lambda: lax.transpose(F3, (0,)), (),
     "{ lambda a:f32[3]; . let b:f32[3] = transpose[permutation=(0,)] a in (b,) }"),
    (lambda: lax.concatenate([F3], 0), (),
     "{ lambda a:f32[3]; . let b:f32[3] = concatenate[dimension=0] a in (b,) }"),
    (lambda: lax.expand_dims(F3, ()), (), "{ lambda a:f32[3]; . let  in (a,) }"),
    (lambda: lax.broadcast(F3, ()), (), "{ lambda a:f32[3]; . let  in (a,) }"),
    (lambda: lax.iota(np.int32, 5), (),
     "{ lambda ; . let\n    a:i32[5] = iota[dimension=0 dtype=int32 shape=(5,) sharding=None] "
     "\n  in (a,) }"),
    (lambda: lax.broadcasted_iota(np.float32, (2, 3), 1), (),
     "{ lambda ; . let\n    a:f32[2,3] = iota[dimension=1 dtype=float32 shape=(2, 3) "
     "sharding=None] \n  in (a,) }"),
]


@pytest.mark.parametrize("fn,args,expected", JAXPRS)
def test_jaxpr_text(fn, args, expected):
    assert str(make_jaxpr(fn)(*args)) == expected


# --- errors (messages as JAX 0.10.2 words them) ----------------------------------------

ERRORS = [
    (lambda: lax.broadcast_in_dim(F3, (2, 3), ()), TypeError,
     "broadcast_in_dim broadcast_dimensions must have length equal to operand ndim; got "
     "broadcast_dimensions () for operand ndim 1."),
    (lambda: lax.broadcast_in_dim(F3, (2, 4), (1,)), TypeError,
     "broadcast_in_dim operand dimension sizes must either be 1, or be equal to their "
     "corresponding dimensions in the target broadcast shape; got operand of shape (3,), "
     "target broadcast shape (2, 4), broadcast_dimensions (1,) "),
    (lambda: lax.broadcast_in_dim(F3, (2, 3), (2,)), TypeError,
     "broadcast_in_dim broadcast_dimensions must be a subset of output dimensions, got (2,) "
     "for operand ndim 1 and shape (2, 3)."),
    (lambda: lax.broadcast_in_dim(np.ones((3, 3)), (3, 3), (0, 0)), TypeError,
     "broadcast_in_dim broadcast_dimensions must not contain duplicates, got "
     "broadcast_dimensions (0, 0)"),
    (lambda: lax.broadcast_in_dim(F3, (-1, 3), (1,)), TypeError,
     "broadcast_in_dim shape must have every element be nonnegative, got (-1, 3)."),
    (lambda: lax.broadcast_in_dim(F3, (2.0, 3), (1,)), TypeError,
     "broadcast_in_dim shape must have every element be an integer type, got "
     "(<class 'float'>, <class 'int'>)."),
    (lambda: lax.broadcast_in_dim(F3, (2, 3), (-1,)), TypeError,
     "broadcast_in_dim broadcast_dimensions must have every element be nonnegative, got (-1,)."),
    (lambda: lax.reshape(F23, (-1,)), TypeError, "reshape new_sizes must all be positive, got (-1,)."),
    (lambda: lax.reshape(F23, (None,)), TypeError,
     "Shapes must be 1D sequences of concrete values of integer type, got (None,)."),
    (lambda: lax.reshape(F23, (6,), (0, 0)), TypeError,
     "reshape dimensions must be a permutation of operand dimensions, got dimensions (0, 0) "
     "for shape (2, 3)."),
    # JAX 0.10.2 accepts this at trace time and fails when lowering; we refuse it early.
    (lambda: lax.reshape(F23, (4,)), TypeError,
     "reshape total size must be unchanged, got new_sizes (4,) (of total size 4) for shape "
     "(2, 3) (of total size 6)."),
    (lambda: lax.squeeze(F23, (0,)), ValueError,
     "cannot select an axis to squeeze out which has size not equal to one, got shape=(2, 3) "
     "and dimensions=(0,)"),
    (lambda: lax.squeeze(F23, (2,)), ValueError, "axis 2 is out of bounds for array of dimension 2"),
    (lambda: lax.squeeze(F23, (-3,)), ValueError, "axis -3 is out of bounds for array of dimension 2"),
    (lambda: lax.squeeze(np.ones((1, 3)), (0, 0)), ValueError, "dimensions are not unique: (0, 0)"),
    (lambda: lax.squeeze(np.float32(1), (0,)), ValueError,
     "axis 0 is out of bounds for array of dimension 0"),
    (lambda: lax.expand_dims(F3, (3,)), ValueError,
     "axis 3 is out of bounds for array of dimension 2"),
    (lambda: lax.expand_dims(F3, (0, 0)), ValueError, "repeated axis in lax.expand_dims: (0, 0)"),
    (lambda: lax.transpose(F23, (0, 0)), TypeError,
     "transpose permutation isn't a permutation of operand dimensions, got permutation (0, 0) "
     "for operand shape (2, 3)."),
    (lambda: lax.transpose(F23, (-1, 0)), TypeError,
     "transpose permutation isn't a permutation of operand dimensions, got permutation "
     "(-1, 0) for operand shape (2, 3)."),
    (lambda: lax.rev(F23, (-1,)), TypeError,
     "rev dimensions must have every element be nonnegative, got (-1,)."),
    (lambda: lax.rev(F3, (1,)), TypeError,
     "rev dimensions must all be less than operand ndim, got dimensions (1,) for operand ndim 1."),
    (lambda: lax.rev(F23, (0, 0)), TypeError, "rev dimensions must be unique, got (0, 0)."),
    (lambda: lax.slice(F3, (1,), (4,)), TypeError,
     "slice limit_indices must be less than or equal to operand shape, got limit_indices (4,) "
     "for operand shape (3,)."),
    (lambda: lax.slice(F3, (-1,), (2,)), TypeError,
     "slice start_indices must have every element be nonnegative, got (-1,)."),
    (lambda: lax.slice(F23, (1,), (2,)), TypeError,
     "slice start_indices must have length equal to the number of dimensions of the operand, "
     "got indices (1,) for operand shape (2, 3)."),
    (lambda: lax.slice(F3, (1,), (2, 3)), TypeError,
     "slice limit_indices must have the same length as start_indices, got start_indices (1,) "
     "and limit_indices (2, 3)."),
    (lambda: lax.slice(F3, (2,), (1,)), TypeError,
     "slice limit_indices must be greater than or equal to start_indices, got start_indices "
     "(2,) and limit_indices (1,)."),
    (lambda: lax.slice(F3, (0,), (3,), (-1,)), TypeError,
     "slice strides must have every element be nonnegative, got (-1,)."),
    (lambda: lax.slice(F3, (0,), (3,), (0,)), TypeError,
     "slice strides must have every element be positive, got (0,)."),
    (lambda: lax.slice(F3, (0,), (3,), (1, 1)), TypeError,
     "slice strides must have length equal to the number of dimensions of the operand, got "
     "strides (1, 1) for operand shape (3,)."),
    (lambda: lax.index_in_dim(F3, 5), IndexError, "index 5 is out of bounds for axis 0 with size 3"),
    (lambda: lax.pad(F3, np.int32(0), ((1, 1, 0),)), TypeError,
     "pad operand and padding_value must be same dtype: got float32 and int32."),
    (lambda: lax.pad(np.ones(3, np.int32), 0.0, ((1, 1, 0),)), TypeError,
     "pad operand and padding_value must be same dtype: got int32 and float32."),
    (lambda: lax.pad(F3, F3, ((1, 1, 0),)), ValueError,
     "padding_value must be a scalar; got np.shape(padding_value)=(3,)"),
    (lambda: lax.pad(F3, 0.0, ((1, 1, 0), (1, 1, 0))), ValueError,
     "length of padding_config must equal the number of axes of operand, got padding_config "
     "((1, 1, 0), (1, 1, 0)) for operand shape (3,)"),
    (lambda: lax.pad(F3, 0.0, ((1, 1, -1),)), ValueError,
     "interior padding in padding_config must be nonnegative, got padding_config ((1, 1, -1),)"),
    (lambda: lax.pad(F3, 0.0, ((-2, -2, 0),)), ValueError,
     "Dimension size after padding is not at least 0, got result shape (-1,), for "
     "padding_config ((-2, -2, 0),) and operand shape (3,)"),
    (lambda: lax.concatenate([F3, np.ones(3, np.int32)], 0), TypeError,
     "lax.concatenate requires arguments to have the same dtypes, got float32, int32. (Tip: "
     "jnp.concatenate is a similar function that does automatic type promotion on inputs)."),
    (lambda: lax.concatenate([F23, F23.T], 0), TypeError,
     "Cannot concatenate arrays with shapes that differ in dimensions other than the one being "
     "concatenated: concatenating along dimension 0 for shapes (2, 3), (3, 2)."),
    (lambda: lax.concatenate([F23, F3], 0), TypeError,
     "Cannot concatenate arrays with different numbers of dimensions: got (2, 3), (3,)."),
    (lambda: lax.concatenate([], 0), ValueError, "concatenate requires a non-empty sequences of arrays"),
    (lambda: lax.concatenate([F3, F3], 1), TypeError,
     "concatenate dimension out of bounds: dimension 1 for shapes (3,), (3,)."),
    (lambda: lax.concatenate([F23, F23], -1), TypeError,
     "concatenate dimension out of bounds: dimension -1 for shapes (2, 3), (2, 3)."),
    (lambda: lax.iota(np.bool_, 3), TypeError,
     "iota does not accept dtype bool. Accepted dtypes are subtypes of integer, floating, "
     "complexfloating."),
    (lambda: lax.iota(np.int32, -1), TypeError,
     "iota shape must have every element be nonnegative, got (-1,)."),
    (lambda: lax.iota(np.int32, 3.0), TypeError,
     "Shapes must be 1D sequences of concrete values of integer type, got (3.0,)."),
    (lambda: lax.broadcasted_iota(np.int32, (2, 3), 2), ValueError,
     "iota dimension must be between 0 and len(shape), got dimension=2 for shape=(2, 3)"),
    (lambda: lax.broadcasted_iota(np.int32, (2, 3), -1), ValueError,
     "iota dimension must be between 0 and len(shape), got dimension=-1 for shape=(2, 3)"),
    (lambda: lax.collapse(np.ones((2, 3, 4, 5)), 3, 1), ValueError,
     "Invalid dimension range passed to collapse: (2, 3, 4, 5)[3:1]"),
]


@pytest.mark.parametrize("fn,exc,message", ERRORS)
def test_errors(fn, exc, message):
    with pytest.raises(exc, match="^" + re.escape(message) + "$"):
        fn()
    # The same check runs at trace time.
    with pytest.raises(exc, match="^" + re.escape(message) + "$"):
        make_jaxpr(fn)()
