"""Where a primitive's NumPy rule computes the compiled kernels' bits.

The NumPy rules reproduce JAX's results; the C the code generator writes does too, but
for some functions (sin, expm1, float sums...) the two take different roads to nearly
the same value and differ in the last bit on some inputs. Two clients need the cases
where they agree exactly: eager dispatch, which may answer a call from the rule while
the kernel of the same signature is being compiled (``dispatch``), and a jitted
function's first call, which may run the optimised jaxpr on the rules while its library
is being compiled (``first_call``). Each entry here is checked input by input against
the compiled kernel (``tests/test_eager_dispatch.py``, ``tests/test_first_call.py``).
"""
from __future__ import annotations

import numpy as np

from . import (dynamic_slicing, elementwise, fma, indexing, keys, layout, reduction, slicing,
               sorting, structural)

__all__ = ["ELEMENTWISE", "REDUCTIONS", "MOVES", "PRNG", "moves_data"]

F32, F64, I32, U32, BOOL = (np.dtype(t) for t in (np.float32, np.float64, np.int32,
                                                    np.uint32, np.bool_))


def _exact(names: str, *dts) -> dict:
    return {getattr(mod, n + "_p"): frozenset(dts) for n in names.split()
            for mod in (elementwise, reduction) if hasattr(mod, n + "_p")}


#: primitive -> the operand dtypes (of its last operand) for which its compiled kernel
#: gives the NumPy rule's bits. float32 log, log1p, erf_inv, exp, tanh and logistic are
#: XLA's own expansions on both sides (runtime/tp_xla_math.h and its NumPy twins,
#: bit-identical to JAX and to each other). Left out: transcendental functions whose C
#: kernels (polynomials, runtime/tp_math.h) and NumPy rules (float64, rounded once)
#: differ in the last bit on some inputs (sin, cos, tan 0.02-0.03% of random inputs;
#: exp2, expm1, asin, acos, atan, sinh, cosh, asinh, erf; the float64 transcendental
#: functions) and float sums and products, whose compiled summation order differs from
#: the rule's.
ELEMENTWISE: dict = {
    **_exact("log log1p rsqrt cbrt acosh atanh erf_inv exp tanh logistic floor ceil round "
             "is_finite pow atan2 nextafter", F32),
    **_exact("sqrt", F32, F64),
    **_exact("neg abs sign square max min add add_any sub mul div lt le gt ge", F32, F64,
             I32),
    **_exact("rem", F32, I32),
    **_exact("eq ne", F32, F64, I32, U32, BOOL),
    **_exact("and or xor not", I32, U32, BOOL),
    **_exact("shift_left shift_right_arithmetic shift_right_logical", I32, U32),
    **_exact("select_n clamp integer_pow", F32, I32),
    **_exact("convert_element_type", F32, I32, BOOL),
    **_exact("argmax argmin", F32, I32, BOOL),
    **_exact("reduce_max reduce_min", F32, I32),
    **_exact("reduce_sum", I32),
    **_exact("reduce_and reduce_or", BOOL),
    # the multiply-add the passes contract (float32: exact in float64, rounded once;
    # float64's NumPy emulation differs in rare last bits)
    fma.fma_p: frozenset([F32]),
}

#: The reductions among them. Elementwise operations of several operands give the
#: kernel's bits when the operands have one shape (a kernel broadcasting one of them
#: may combine them in the other order, and which of two NaNs propagates then differs).
REDUCTIONS = frozenset([reduction.reduce_sum_p, reduction.reduce_max_p,
                        reduction.reduce_min_p, reduction.reduce_and_p,
                        reduction.reduce_or_p, reduction.argmax_p, reduction.argmin_p])

#: Primitives that only move, copy, select or reinterpret elements: exact for every
#: dtype (PRNG keys included).
MOVES = frozenset([structural.broadcast_in_dim_p, structural.reshape_p,
                   structural.squeeze_p, structural.transpose_p, structural.rev_p,
                   slicing.slice_p, slicing.concatenate_p, slicing.pad_p, slicing.iota_p,
                   layout.copy_p, sorting.stop_gradient_p, layout.bitcast_convert_type_p,
                   keys.random_wrap_p, keys.random_unwrap_p,
                   # indices clamped (or filled) by the same rules on both sides
                   indexing.gather_p, dynamic_slicing.dynamic_slice_p,
                   dynamic_slicing.dynamic_update_slice_p])
#: The counter-based PRNG's primitives: integer arithmetic (threefry) on both sides,
#: JAX's bits in the NumPy rules and in the C (codegen/prng_c.py).
PRNG = frozenset([keys.random_bits_p, keys.random_split_p, keys.random_fold_in_p])


def moves_data(primitive) -> bool:
    """Whether ``primitive`` only moves, copies or selects elements."""
    return primitive in MOVES
