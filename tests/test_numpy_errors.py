"""Errors and warnings of jnp programs, compared with the text JAX 0.10.2 gives.

Each program is source text evaluated with ``jnp``/``np``/``jax`` (``jax.jit`` is
transpile's) and the samples in scope. The expected ``"ErrorType: message"`` (without
JAX's trailing ``See https://docs.jax.dev/...`` line, addresses as ``0x?``) and the
expected warnings were recorded by running the same text under JAX 0.10.2 (CPU, x64
off). Integer-array (gather) indexing is not implemented in transpile yet; that case
expects our ``NotImplementedError`` instead.
"""
from __future__ import annotations

import re
import types
import warnings

import numpy as np
import pytest

import transpile.numpy as jnp
from transpile import lax
from transpile.jit import jit, make_jaxpr

from test_numpy_eager import describe

SAMPLES = """
f32 = np.array([0.5, -1.5, 2.0], np.float32)
f32b = np.array([1.0, 2.5, -3.0], np.float32)
i32 = np.array([1, -2, 3], np.int32)
i32b = np.array([2, 3, -1], np.int32)
u8 = np.array([1, 2, 250], np.uint8)
i8 = np.array([1, -2, 100], np.int8)
f16 = np.array([0.5, -1.5, 2.0], np.float16)
b3 = np.array([True, False, True])
x5 = np.arange(5, dtype=np.float32)
m23 = np.arange(6, dtype=np.float32).reshape(2, 3)
m34 = np.arange(12, dtype=np.float32).reshape(3, 4) / 4
m234 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
i23 = np.arange(6, dtype=np.int32).reshape(2, 3)
f0 = np.float32(2.5)
e0 = np.zeros((0,), np.float32)
e03 = np.zeros((0, 3), np.float32)
"""

_ENV = {"jnp": jnp, "np": np, "lax": lax,
         "jax": types.SimpleNamespace(jit=jit, make_jaxpr=make_jaxpr)}
exec(SAMPLES, _ENV)

# transpile's own wording where it deliberately differs from JAX's (not this package's):
# the x64 warning also names TRANSPILE_ENABLE_X64, and TracerBoolConversionError adds a
# hint line after JAX's text. Python's operator errors name the array class, which is
# jaxlib._jax.ArrayImpl in JAX and Array here.
_OURS_TO_JAX = [("TRANSPILE_ENABLE_X64 (or JAX_ENABLE_X64)", "JAX_ENABLE_X64")]
_PREFIX_ONLY = {"err_bool_conv", "err_traced_mask"}
_NOT_IMPLEMENTED: set = set()


def _norm(msg: str) -> str:
    msg = re.sub(r"'(jaxlib\._jax\.)?ArrayImpl'|'Array'", "'<Array>'", msg)
    msg = re.sub(r"0x[0-9a-f]+", "0x?", msg)
    msg = re.sub(r"\nSee https://docs.jax.dev/en/latest/errors.html#jax.errors.\w+", "", msg)
    for ours, theirs in _OURS_TO_JAX:
        msg = msg.replace(ours, theirs)
    return msg


# name: (program, arguments, "ErrorType: message" recorded from JAX 0.10.2)
ERRORS = {
    'err_list_index': ('lambda x: x[[0, 1]]', '(x5,)',
     'TypeError: Using a non-tuple sequence for multidimensional indexing is not allowed; '
     'use `arr[array(seq)]` instead of `arr[seq]`. See '
     'https://github.com/jax-ml/jax/issues/4564 for more information.'),
    'err_too_many': ('lambda x: x[1, 2, 3]', '(m23,)',
     'IndexError: Too many indices: array is 2-dimensional, but 3 were indexed'),
    'err_float_index': ('lambda x: x[1.5]', '(x5,)',
     'TypeError: Indexer must have integer or boolean type, got indexer with type float64'),
    'err_str_index': ("lambda x: x['a']", '(x5,)',
     "TypeError: JAX does not support string indexing; got idx='a'"),
    'err_two_ellipsis': ('lambda x: x[..., ...]', '(m23,)',
     "IndexError: an index can only have a single ellipsis ('...')"),
    'err_traced_mask': ('lambda x: jax.jit(lambda y: y[y > 2])(x)', '(x5,)',
     'NonConcreteBooleanIndexError: Array boolean indices must be concrete; got bool[5]\n'),
    'err_mask_shape': ('lambda x: x[np.array([True, False, True])]', '(m23,)',
     'IndexError: boolean index did not match shape of indexed array in index 0: got (3,), '
     'expected [2]'),
    'err_traced_slice': ('lambda x: jax.jit(lambda y, i: y[i:i + 2])(x, 1)', '(x5,)',
     'IndexError: Slice entries must be static integers. Got slice(JitTracer(~int32[]), '
     'JitTracer(~int32[]), None) at position 0'),
    'err_zero_size_idx': ('lambda x: jnp.zeros(0)[0]', '(x5,)',
     'IndexError: index is out of bounds for axis 0 with size 0'),
    'err_gather': ('lambda x: x[np.array([0, 1])]', '(x5,)',
     "NO ERROR [['float32', False, [2], [0.0, 1.0]]]"),
    'err_zeros_traced': ('lambda x: jax.jit(lambda n: jnp.zeros(n))(3)', '(x5,)',
     'TypeError: Shapes must be 1D sequences of concrete values of integer type, got '
     '(JitTracer(~int32[]),).\n'
     'If using `jit`, try using `static_argnums` or applying `jit` to smaller '
     'subfunctions.\n'
     'The error occurred while tracing the function <lambda> at <string>:1 for jit. This '
     'concrete value was not available in Python because it depends on the value of the '
     'argument n.'),
    'err_arange_traced': ('lambda x: jax.jit(lambda n: jnp.arange(n))(3)', '(x5,)',
     'ConcretizationTypeError: Abstract tracer value encountered where concrete value is '
     'expected: traced array with shape int32[]\n'
     "It arose in the jnp.arange argument 'stop'\n"
     'The error occurred while tracing the function <lambda> at <string>:1 for jit. This '
     'concrete value was not available in Python because it depends on the value of the '
     'argument n.\n'),
    'err_where1_traced': ('lambda x: jax.jit(lambda y: jnp.where(y))(x)', '(x5,)',
     'ConcretizationTypeError: Abstract tracer value encountered where concrete value is '
     'expected: traced array with shape int32[]\n'
     'The size argument of jnp.nonzero must be statically specified to use jnp.nonzero '
     'within JAX transformations.\n'
     'The error occurred while tracing the function <lambda> at <string>:1 for jit. This '
     'concrete value was not available in Python because it depends on the value of the '
     'argument y.\n'),
    'err_overflow_add': ('lambda x: x + 2 ** 40', '(i32,)',
     'OverflowError: An overflow was encountered while parsing an argument to a jitted '
     "computation, whose argument path is y. Got <class 'int'> with value 1099511627776"),
    'err_overflow_radd': ('lambda x: 2 ** 40 * x', '(f32,)',
     'OverflowError: An overflow was encountered while parsing an argument to a jitted '
     "computation, whose argument path is x. Got <class 'int'> with value 1099511627776"),
    'err_overflow_array': ('lambda x: jnp.array(2 ** 40)', '(x5,)',
     'OverflowError: Python int 1099511627776 too large to convert to int32'),
    'err_overflow_list': ('lambda x: jnp.array([1, 2 ** 31])', '(x5,)',
     'OverflowError: Python integer 2147483648 out of bounds for int32'),
    'err_overflow_where': ('lambda x: jnp.where(True, x, 2 ** 40)', '(f32,)',
     'OverflowError: An overflow was encountered while parsing an argument to a jitted '
     "computation, whose argument path is y. Got <class 'int'> with value 1099511627776"),
    'err_setitem': ('lambda x: x.__setitem__(0, 1)', '(x5,)',
     'TypeError: JAX arrays are immutable and do not support in-place item assignment. '
     'Instead of x[idx] = y, use x = x.at[idx].set(y) or another .at[] method: '
     'https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html'),
    'err_list_arg': ('lambda x: jnp.sin([1.0, 2.0])', '(x5,)',
     "TypeError: sin requires ndarray or scalar arguments, got <class 'list'> at position "
     '0.'),
    'err_list_add': ('lambda x: jnp.add([1.0], 2.0)', '(x5,)',
     "TypeError: add requires ndarray or scalar arguments, got <class 'list'> at position "
     '0.'),
    'err_sum_list': ('lambda x: jnp.sum([1.0, 2.0])', '(x5,)',
     "TypeError: sum requires ndarray or scalar arguments, got <class 'list'> at position "
     '0.'),
    'err_op_list': ('lambda x: x + [1, 2, 3]', '(f32,)',
     "TypeError: unsupported operand type(s) for +: 'ArrayImpl' and 'list'"),
    'err_op_str': ("lambda x: x + 'a'", '(f32,)',
     "TypeError: unsupported operand type(s) for +: 'jaxlib._jax.ArrayImpl' and 'str'"),
    'err_shapes': ('lambda x: jnp.add(x, np.ones(4, np.float32))', '(f32,)',
     'TypeError: add got incompatible shapes for broadcasting: (3,), (4,).'),
    'err_rank_shapes': ('lambda x: jnp.add(x, np.ones(4, np.float32))', '(m23,)',
     'ValueError: Incompatible shapes for broadcasting: shapes=[(2, 3), (4,)]'),
    'err_where_shapes': ('lambda x: jnp.where(x > 0, np.ones(4, np.float32), 0)', '(f32,)',
     'ValueError: Incompatible shapes for broadcasting: shapes=[(3,), (4,), ()]'),
    'err_reshape': ('lambda x: x.reshape(4)', '(m23,)',
     'TypeError: cannot reshape array of shape (2, 3) (size 6) into shape 4 (size 4)'),
    'err_reshape_2neg': ('lambda x: x.reshape(-1, -1)', '(m23,)',
     'TypeError: can only specify one unknown axis size with a `-1` value, got (-1, -1)'),
    'err_reshape_div': ('lambda x: x.reshape(4, -1)', '(m23,)',
     'TypeError: cannot reshape array of shape (2, 3) (size 6) into shape (4, -1) because '
     'the product of specified axis sizes (4) does not evenly divide 6'),
    'err_transpose': ('lambda x: jnp.transpose(x, (0, 0))', '(m23,)',
     "TypeError: transpose permutation isn't a permutation of operand dimensions, got "
     'permutation (0, 0) for operand shape (2, 3).'),
    'err_axis': ('lambda x: jnp.sum(x, axis=2)', '(m23,)',
     'ValueError: axis 2 is out of bounds for array of dimension 2'),
    'err_dup_axis': ('lambda x: jnp.sum(x, axis=(0, 0))', '(m23,)',
     "ValueError: duplicate value in 'axis': (0, 0)"),
    'err_empty_max': ('lambda x: jnp.max(x)', '(e0,)',
     'ValueError: zero-size array to reduction operation max which has no identity'),
    'err_empty_argmax': ('lambda x: jnp.argmax(x)', '(e0,)',
     'ValueError: attempt to get argmax of an empty sequence'),
    'err_concat_ndim': ('lambda x: jnp.concatenate([x, np.ones(3, np.float32)])', '(m23,)',
     'TypeError: Cannot concatenate arrays with different numbers of dimensions: got (2, '
     '3), (3,).'),
    'err_concat_empty': ('lambda x: jnp.concatenate([])', '(m23,)',
     'ValueError: Need at least one array to concatenate.'),
    'err_concat_0d': ('lambda x: jnp.concatenate([1.0, 2.0])', '(m23,)',
     'ValueError: Zero-dimensional arrays cannot be concatenated.'),
    'err_stack_shapes': ('lambda x: jnp.stack([x, x.T])', '(m23,)',
     'ValueError: All input arrays must have the same shape. Got (2, 3), (3, 2).'),
    'err_stack_empty': ('lambda x: jnp.stack([])', '(m23,)', 'ValueError: Need at least one array to stack.'),
    'err_split': ('lambda x: jnp.split(x, 2)', '(x5,)',
     'ValueError: array split does not result in an equal division: rest is 1'),
    'err_squeeze': ('lambda x: jnp.squeeze(x, 0)', '(m23,)',
     'ValueError: cannot select an axis to squeeze out which has size not equal to one, '
     'got shape=(2, 3) and dimensions=(0,)'),
    'err_expand_rep': ('lambda x: jnp.expand_dims(x, (0, 0))', '(m23,)',
     'ValueError: repeated axis in lax.expand_dims: (0, 0)'),
    'err_bcast_fewer': ('lambda x: jnp.broadcast_to(x, (3,))', '(m23,)',
     'ValueError: Cannot broadcast to shape with fewer dimensions: arr_shape=(2, 3) '
     'shape=(3,)'),
    'err_bcast_incompat': ('lambda x: jnp.broadcast_to(x, (3, 3))', '(m23,)',
     'ValueError: Incompatible types for broadcasting: input type=float32[2,3] and '
     'requested type=float32[3,3]'),
    'err_matmul_0d': ('lambda x: jnp.matmul(2.0, x)', '(m34,)',
     'ValueError: matmul input operand 0 must have ndim at least 1, but it has ndim 0'),
    'err_matmul_batch': ('lambda x: jnp.matmul(np.ones((2, 2, 3), np.float32), np.ones((3, 3, 4), np.float32))',
     '(m34,)',
     'ValueError: Incompatible types for matmul arguments: float32[2,2,3] and '
     'float32[3,3,4]'),
    'err_tensordot_len': ('lambda x: jnp.tensordot(x, x, ([0], [0, 1]))', '(m23,)',
     'TypeError: tensordot requires axes lists to have equal length, got [0] and [0, 1].'),
    'err_einsum_out': ("lambda x: jnp.einsum('ij,jk->il', x, np.ones((3, 4), np.float32))", '(m23,)',
     "ValueError: Output character 'l' did not appear in the input"),
    'err_einsum_nops': ("lambda x: jnp.einsum('ij,jk->ik', x)", '(m23,)',
     'ValueError: Number of einsum subscripts, 2, must be equal to the number of operands, '
     '1.'),
    'err_einsum_rank': ("lambda x: jnp.einsum('ijk,jk->ik', x, x)", '(m23,)',
     "ValueError: Einstein sum subscript 'ijk' does not contain the correct number of "
     'indices for operand 0.'),
    'err_int_neg_pow': ('lambda x: x ** -2', '(i32,)',
     'TypeError: Integers cannot be raised to negative powers, got integer_pow(int32[3], '
     '-2)'),
    'err_neg_bool': ('lambda x: -x', '(b3,)',
     'TypeError: neg does not accept dtype bool. Accepted dtypes are subtypes of integer, '
     'floating, complexfloating.'),
    'err_round_bool': ('lambda x: jnp.round(x)', '(b3,)',
     "ValueError: data type <class 'numpy.bool'> not inexact"),
    'err_round_int_neg': ('lambda x: jnp.round(x, -1)', '(i32,)',
     'NotImplementedError: integer np.round not implemented for decimals < 0'),
    'err_at_shape': ('lambda x: x.at[1].set(jnp.ones(2))', '(x5,)',
     'ValueError: Cannot broadcast to shape with fewer dimensions: arr_shape=(2,) shape=()'),
    'err_at_mode': ("lambda x: x.at[10].get(mode='bogus')", '(x5,)',
     'ValueError: Unknown gather mode "bogus"'),
    'err_linspace_neg': ('lambda x: jnp.linspace(0, 1, -1)', '(x5,)',
     'ValueError: Number of samples, -1, must be non-negative.'),
    'err_arange_zero_step': ('lambda x: jnp.arange(1, 4, 0)', '(x5,)', 'ZeroDivisionError: division by zero'),
    'err_zeros_neg': ('lambda x: jnp.zeros((2, -1))', '(x5,)',
     'TypeError: broadcast_in_dim shape must have every element be nonnegative, got (2, '
     '-1).'),
    'err_zeros_float': ('lambda x: jnp.zeros(2.0)', '(x5,)',
     'TypeError: Shapes must be 1D sequences of concrete values of integer type, got '
     '(2.0,).'),
    'err_array_none': ('lambda x: jnp.array(None)', '(x5,)',
     'ValueError: None is not a valid value for jnp.array'),
    'err_array_str': ("lambda x: jnp.array('a')", '(x5,)',
     "TypeError: Value 'a' with dtype <U1 is not a valid JAX array type. Only arrays of "
     'numeric types are supported by JAX.'),
    'err_array_ragged': ('lambda x: jnp.array([[1, 2], [3]])', '(x5,)',
     'ValueError: setting an array element with a sequence. The requested array has an '
     'inhomogeneous shape after 1 dimensions. The detected shape was (2,) + inhomogeneous '
     'part.'),
    'err_astype_list': ('lambda x: jnp.astype([1], jnp.float16)', '(x5,)',
     "TypeError: astype requires ndarray or scalar arguments, got <class 'list'> at "
     'position 0.'),
    'err_promote_py': ('lambda x: jnp.promote_types(jnp.int8, 1)', '(x5,)',
     "TypeError: Cannot interpret '1' as a data type"),
    'err_can_cast_py': ('lambda x: jnp.can_cast(1.0, jnp.int32)', '(x5,)',
     'TypeError: can_cast() does not support Python ints, floats, and complex because the '
     'result used to depend on the value.\n'
     'This change was part of adopting NEP 50, we may explicitly allow them again in the '
     'future.'),
    'err_swapaxes': ('lambda x: jnp.swapaxes(x, 0, 2)', '(m23,)',
     'IndexError: index 2 is out of bounds for axis 0 with size 2'),
    'err_moveaxis': ('lambda x: jnp.moveaxis(x, 0, 2)', '(m23,)',
     'ValueError: axis 2 is out of bounds for array of dimension 2'),
    'err_sort_0d': ('lambda x: jnp.sort(2.0)', '(x5,)',
     'ValueError: axis -1 is out of bounds for array of dimension 0'),
    'err_bool_conv': ('lambda x: jax.jit(lambda y: 1 if y[0] > 0 else 0)(x)', '(x5,)',
     'TracerBoolConversionError: Attempted boolean conversion of traced array with shape '
     'bool[].\n'
     'The error occurred while tracing the function <lambda> at <string>:1 for jit. This '
     'concrete value was not available in Python because it depends on the value of the '
     'argument y.'),
    'err_shift_float': ('lambda x: jnp.left_shift(x, 1)', '(f32,)',
     'TypeError: shift_left does not accept dtype float32 at position 0. Accepted dtypes '
     'at position 0 are subtypes of integer.'),
    'err_invert_float': ('lambda x: ~x', '(f32,)',
     'TypeError: not does not accept dtype float32. Accepted dtypes are subtypes of '
     'integer, bool.'),
    'err_dot_shapes': ('lambda x: jnp.dot(x, x)', '(m23,)',
     'TypeError: dot_general requires contracting dimensions to have the same shape, got '
     '(3,) and (2,).'),
    'err_where_xy': ('lambda x: jnp.where(x, 1)', '(x5,)',
     "TypeError: where requires ndarray or scalar arguments, got <class 'NoneType'> at "
     'position 2.'),
    'err_sum_out': ('lambda x: jnp.sum(x, out=1)', '(x5,)',
     "NotImplementedError: The 'out' argument to jnp.sum is not supported."),
}

# name: (program, arguments, outputs, warnings "Category: message") from JAX 0.10.2
WARNINGS = {
    'warn_zeros_i64': ('lambda x: jnp.zeros(3, jnp.int64)', '(x5,)', [['int32', False, [3], [0, 0, 0]]],
     ['UserWarning: Explicitly requested dtype int64 requested in zeros is not available, '
      'and will be truncated to dtype int32. To enable more dtypes, set the jax_enable_x64 '
      'configuration option or the JAX_ENABLE_X64 shell environment variable. See '
      'https://github.com/jax-ml/jax#current-gotchas for more.']),
    'warn_zeros_f64': ("lambda x: jnp.zeros(3, 'float64')", '(x5,)',
     [['float32', False, [3], [0.0, 0.0, 0.0]]],
     ['UserWarning: Explicitly requested dtype float64 requested in zeros is not '
      'available, and will be truncated to dtype float32. To enable more dtypes, set the '
      'jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment '
      'variable. See https://github.com/jax-ml/jax#current-gotchas for more.']),
    'warn_astype_i64': ('lambda x: x.astype(jnp.int64)', '(f32,)', [['int32', False, [3], [0, -1, 2]]],
     ['UserWarning: Explicitly requested dtype int64 requested in astype is not available, '
      'and will be truncated to dtype int32. To enable more dtypes, set the jax_enable_x64 '
      'configuration option or the JAX_ENABLE_X64 shell environment variable. See '
      'https://github.com/jax-ml/jax#current-gotchas for more.']),
    'warn_arange_i64': ('lambda x: jnp.arange(3, dtype=jnp.int64)', '(x5,)',
     [['int32', False, [3], [0, 1, 2]]],
     ['UserWarning: Explicitly requested dtype int64 requested in arange is not available, '
      'and will be truncated to dtype int32. To enable more dtypes, set the jax_enable_x64 '
      'configuration option or the JAX_ENABLE_X64 shell environment variable. See '
      'https://github.com/jax-ml/jax#current-gotchas for more.']),
    'warn_array_u64': ('lambda x: jnp.array([1, 2], dtype=jnp.uint64)', '(x5,)',
     [['uint32', False, [2], [1, 2]]],
     ['UserWarning: Explicitly requested dtype uint64 requested in array is not available, '
      'and will be truncated to dtype uint32. To enable more dtypes, set the '
      'jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment '
      'variable. See https://github.com/jax-ml/jax#current-gotchas for more.']),
    'warn_scalar_i64': ('lambda x: jnp.int64(3)', '(x5,)', [['int32', False, [], 3]],
     ['UserWarning: Explicitly requested dtype int64 requested in asarray is not '
      'available, and will be truncated to dtype int32. To enable more dtypes, set the '
      'jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment '
      'variable. See https://github.com/jax-ml/jax#current-gotchas for more.']),
    'warn_eye_i64': ('lambda x: jnp.eye(2, dtype=jnp.int64)', '(x5,)',
     [['int32', False, [2, 2], [[1, 0], [0, 1]]]],
     ['UserWarning: Explicitly requested dtype int64 requested in eye is not available, '
      'and will be truncated to dtype int32. To enable more dtypes, set the jax_enable_x64 '
      'configuration option or the JAX_ENABLE_X64 shell environment variable. See '
      'https://github.com/jax-ml/jax#current-gotchas for more.']),
    'warn_sum_f64': ('lambda x: jnp.sum(x, dtype=jnp.float64)', '(x5,)', [['float32', False, [], 10.0]],
     ['UserWarning: Explicitly requested dtype float64 requested in sum is not available, '
      'and will be truncated to dtype float32. To enable more dtypes, set the '
      'jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment '
      'variable. See https://github.com/jax-ml/jax#current-gotchas for more.',
      'UserWarning: Explicitly requested dtype float64 requested in convert_element_type '
      'is not available, and will be truncated to dtype float32. To enable more dtypes, '
      'set the jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment '
      'variable. See https://github.com/jax-ml/jax#current-gotchas for more.']),
    'warn_at_float_int': ('lambda x: jnp.arange(3).at[1].set(2.7)', '(x5,)', [['int32', False, [3], [0, 2, 2]]],
     ['FutureWarning: scatter inputs have incompatible types: cannot safely cast value '
      'from dtype=float32 to dtype=int32 with jax_numpy_dtype_promotion=standard. In '
      'future JAX releases this will result in an error.']),
    'warn_at_int8': ('lambda x: jnp.arange(3, dtype=jnp.int8).at[1].set(jnp.int32(5))', '(x5,)',
     [['int8', False, [3], [0, 5, 2]]],
     ['FutureWarning: scatter inputs have incompatible types: cannot safely cast value '
      'from dtype=int32 to dtype=int8 with jax_numpy_dtype_promotion=standard. In future '
      'JAX releases this will result in an error.']),
    'nowarn_zeros_float': ('lambda x: jnp.zeros(3, float)', '(x5,)', [['float32', False, [3], [0.0, 0.0, 0.0]]],
     []),
    'nowarn_at_u8': ('lambda x: x.at[0].add(300)', '(u8,)', [['uint8', False, [3], [45, 2, 250]]], []),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_error(name):
    src, args, want = ERRORS[name]
    fn = eval(src, _ENV)
    args = tuple(jnp.asarray(a) if isinstance(a, np.ndarray) else a
                 for a in eval(args, _ENV))
    if want.startswith("NO ERROR "):  # JAX recorded a result, not an error
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert f"NO ERROR {describe(fn(*args))}" == want
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as info:
            fn(*args)
    got = f"{type(info.value).__name__}: {_norm(str(info.value))}"
    if name in _NOT_IMPLEMENTED:
        assert type(info.value) is NotImplementedError, got
        assert "gather" in got
    elif name in _PREFIX_ONLY:
        assert got.startswith(want.rstrip()), got
    else:
        assert got == _norm(want)


@pytest.mark.parametrize("name", list(WARNINGS))
def test_warning(name):
    src, args, want_out, want_warnings = WARNINGS[name]
    fn = eval(src, _ENV)
    args = tuple(jnp.asarray(a) if isinstance(a, np.ndarray) else a
                 for a in eval(args, _ENV))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = describe(fn(*args))
    got = [f"{w.category.__name__}: {_norm(str(w.message))}" for w in caught
           if not issubclass(w.category, DeprecationWarning)]
    assert out == want_out
    if not want_warnings:
        assert got == []
    else:
        # JAX warns a second time from inside convert_element_type for
        # sum(dtype=float64); transpile warns once.
        assert got and got == want_warnings[:len(got)], (got, want_warnings)
