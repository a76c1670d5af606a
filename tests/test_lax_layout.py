"""The layout primitives' lax functions (``copy``, ``bitcast_convert_type``, ``stack``,
``split``, ``tile``): jaxpr text, weak types and errors, compared with JAX 0.10.2.

The expected data was recorded by running each program under JAX 0.10.2 (CPU, x64 off):
``str(jax.make_jaxpr(fn)(*args))`` and the outputs' weak types, or the error's type and
message. Values are checked against NumPy below. Nothing here imports jax.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from transpile import lax
from transpile.jit import make_jaxpr

f = np.arange(3., dtype=np.float32)

# name: (program, arguments)
CASES = {
 "copy": ("lambda x: lax.copy_p.bind(x)", "(2.0,)"),
 "bitcast_same": ("lambda x: lax.bitcast_convert_type(x, np.int32)", "(f,)"),
 "bitcast_narrow": ("lambda x: lax.bitcast_convert_type(x, np.int8)", "(f,)"),
 "bitcast_wide": ("lambda x: lax.bitcast_convert_type(x, np.float32)", "(np.ones((2, 4), np.int8),)"),
 "bitcast_wide_bad": ("lambda x: lax.bitcast_convert_type(x, np.float16)", "(np.ones((3, 1), np.int8),)"),
 "bitcast_scalar_bad": ("lambda x: lax.bitcast_convert_type(x, np.float32)", "(True,)"),
 "bitcast_bool": ("lambda x: lax.bitcast_convert_type(x, np.int8)", "(np.ones(3, bool),)"),
 "bitcast_to_bool": ("lambda x: lax.bitcast_convert_type(x, np.bool_)", "(np.ones(3, np.int8),)"),
 "bitcast_weak": ("lambda x: lax.bitcast_convert_type(x, np.int16)", "(2.0,)"),
 "stack": ("lambda x: lax.stack([x, x], axis=-1)", "(f,)"),
 "stack_weak": ("lambda x: lax.stack([x, 1.0])", "(2.0,)"),
 "stack_axis_bad": ("lambda x: lax.stack([x, x], axis=2)", "(f,)"),
 "stack_dtype_bad": ("lambda x: lax.stack([x, x.astype(np.int32)])", "(f,)"),
 "stack_shape_bad": ("lambda x: lax.stack([x, x[:2]])", "(f,)"),
 "stack_ndim_bad": ("lambda x: lax.stack([x, x[None]])", "(f,)"),
 "split": ("lambda x: lax.split(x, (1, 2), axis=-1)", "(f,)"),
 "split_zero": ("lambda x: lax.split(x, [0, 3])", "(f,)"),
 "split_neg": ("lambda x: lax.split(x, (1, -1, 3))", "(f,)"),
 "split_sum": ("lambda x: lax.split(x, (1, 1))", "(f,)"),
 "split_none": ("lambda x: lax.split(x, ())", "(f,)"),
 "split_axis_bad": ("lambda x: lax.split(x, (3,), axis=1)", "(f,)"),
 "tile": ("lambda x: lax.tile(x, (2,))", "(f,)"),
 "tile_weak": ("lambda x: lax.tile(x, ())", "(2.0,)"),
 "tile_bad": ("lambda x: lax.tile(x, (2, 3))", "(f,)"),
}

# name: (jaxpr text, weak types) or "ERR Type: message"
EXPECTED = {   'bitcast_bool': 'ERR TypeError: lax.bitcast_convert_type does not support bool or '
                    'complex values unless the operand and destination types match. Got '
                    "operand dtype=bool, new_dtype=dtype('int8'). Consider using the "
                    'arr.view() method instead.',
    'bitcast_narrow': (   '{ lambda ; a:f32[3]. let\n'
                          '    b:i8[3,4] = bitcast_convert_type[new_dtype=int8] a\n'
                          '  in (b,) }',
                          [False]),
    'bitcast_same': (   '{ lambda ; a:f32[3]. let\n'
                        '    b:i32[3] = bitcast_convert_type[new_dtype=int32] a\n'
                        '  in (b,) }',
                        [False]),
    'bitcast_scalar_bad': 'ERR ValueError: Attempting to convert array of shape () from '
                          'bool of size 8 bits to float32 of size 32, bits but 1 * 8 != 32',
    'bitcast_to_bool': 'ERR TypeError: lax.bitcast_convert_type does not support bool or '
                       'complex values unless the operand and destination types match. Got '
                       "operand dtype=int8, new_dtype=dtype('bool'). Consider using the "
                       'arr.view() method instead.',
    'bitcast_weak': (   '{ lambda ; a:f32[]. let\n'
                        '    b:i16[2] = bitcast_convert_type[new_dtype=int16] a\n'
                        '  in (b,) }',
                        [False]),
    'bitcast_wide': (   '{ lambda ; a:i8[2,4]. let\n'
                        '    b:f32[2] = bitcast_convert_type[new_dtype=float32] a\n'
                        '  in (b,) }',
                        [False]),
    'bitcast_wide_bad': 'ERR ValueError: Attempting to convert array of shape (3, 1) from '
                        'int8 of size 8 bits to float16 of size 16, bits but 1 * 8 != 16',
    'copy': ('{ lambda ; a:f32[]. let b:f32[] = copy a in (b,) }', [True]),
    'split': (   '{ lambda ; a:f32[3]. let\n'
                 '    b:f32[1] c:f32[2] = split[axis=0 sizes=(1, 2)] a\n'
                 '  in (b, c) }',
                 [False, False]),
    'split_axis_bad': 'ERR ValueError: axis 1 is out of bounds for array of dimension 1',
    'split_neg': 'ERR ValueError: Sizes passed to split must be nonnegative, got [1, -1, '
                 '3]',
    'split_none': 'ERR ValueError: Sum of sizes 0.0 must be equal to dimension 0 of the '
                  'operand shape [3]',
    'split_sum': 'ERR ValueError: Sum of sizes 2 must be equal to dimension 0 of the '
                 'operand shape [3]',
    'split_zero': (   '{ lambda ; a:f32[3]. let\n'
                      '    b:f32[0] c:f32[3] = split[axis=0 sizes=(0, 3)] a\n'
                      '  in (b, c) }',
                      [False, False]),
    'stack': ('{ lambda ; a:f32[3]. let b:f32[3,2] = stack[axis=1] a a in (b,) }', [False]),
    'stack_axis_bad': 'ERR ValueError: axis 2 is out of bounds for array of dimension 2',
    'stack_dtype_bad': 'ERR TypeError: lax.stack requires arguments to have the same '
                       'dtypes, got float32, int32.',
    'stack_ndim_bad': 'ERR ValueError: Cannot stack arrays with different numbers of '
                      'dimensions: got (3,), (1, 3).',
    'stack_shape_bad': 'ERR ValueError: All input arrays must have the same shape. Got '
                       '(3,), (2,).',
    'stack_weak': (   '{ lambda ; a:f32[]. let b:f32[2] = stack[axis=0] a 1.0:f32[] in '
                      '(b,) }',
                      [True]),
    'tile': ('{ lambda ; a:f32[3]. let b:f32[6] = tile[reps=(2,)] a in (b,) }', [False]),
    'tile_bad': 'ERR TypeError: reps length must be equal to the ndim of x, got '
                'len(reps)=2 and x.ndim=1.',
    'tile_weak': ('{ lambda ; a:f32[]. let b:f32[] = tile[reps=()] a in (b,) }', [True])}


_ERRORS = {"ValueError": ValueError, "TypeError": TypeError, "IndexError": IndexError}


@pytest.mark.parametrize("name", list(CASES))
def test_jaxpr_text_and_errors(name):
    prog, args = CASES[name]
    fn, args = eval(prog), eval(args)
    want = EXPECTED[name]
    if isinstance(want, str):
        kind, message = want[len("ERR "):].split(": ", 1)
        # transpile raises NumPy's AxisError (a ValueError) where JAX raises ValueError.
        with pytest.raises(_ERRORS[kind]) as info:
            make_jaxpr(fn)(*args)
        assert str(info.value) == message
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        closed = make_jaxpr(fn)(*args)
    assert str(closed) == want[0]
    assert [v.aval.weak_type for v in closed.jaxpr.outvars] == want[1]


def test_values_match_numpy():
    x = np.array([[0.5, -0.0, np.nan], [1e-40, -np.inf, 3.0]], np.float32)
    np.testing.assert_array_equal(np.asarray(lax.bitcast_convert_type(x, np.int32)),
                                  x.view(np.int32))
    np.testing.assert_array_equal(np.asarray(lax.bitcast_convert_type(x, np.uint8)),
                                  x.view(np.uint8).reshape(2, 3, 4))
    back = lax.bitcast_convert_type(lax.bitcast_convert_type(x, np.int16), np.float32)
    np.testing.assert_array_equal(np.asarray(back).view(np.int32), x.view(np.int32))
    assert np.asarray(lax.bitcast_convert_type(np.float32(-2.0), np.int16)).tolist() == \
        [0, -16384]
    assert lax.bitcast_convert_type(np.zeros((0,), np.float32), np.int8).shape == (0, 4)
    np.testing.assert_array_equal(np.asarray(lax.stack([x, x + 1], axis=1)),
                                  np.stack([x, x + 1], axis=1))
    parts = lax.split(x, (1, 0, 2), axis=1)
    assert [p.shape for p in parts] == [(2, 1), (2, 0), (2, 2)]
    np.testing.assert_array_equal(np.asarray(parts[2]), x[:, 1:])
    np.testing.assert_array_equal(np.asarray(lax.tile(x, (2, 3))), np.tile(x, (2, 3)))
    assert lax.tile(x, (0, 1)).shape == (0, 3)
    np.testing.assert_array_equal(np.asarray(lax.copy_p.bind(x)), x)
