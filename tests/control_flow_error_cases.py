"""Control-flow programs that raise, run under JAX and transpile (see
``tests/control_flow_cases.py``): ``error_cases(jax, jnp, lax, np)`` gives
``(name, trigger)`` pairs; ``trigger()`` raises. ``tools/record_control_flow.py``
records JAX 0.10.2's exception class and message for each.
"""
from __future__ import annotations

try:
    from control_flow_cases import P
except ImportError:  # collected as a package
    from tests.control_flow_cases import P

__all__ = ["error_cases"]

def error_cases(jax, jnp, lax, np):
    """``(name, trigger)`` pairs; ``trigger()`` raises under JAX and must under transpile."""
    out = []

    def case(trigger):
        out.append((trigger.__name__, trigger))
        return trigger

    i32, f32 = jnp.int32, jnp.float32

    # cond / switch: branch outputs
    @case
    def cond_branch_dtype():
        lax.cond(True, lambda x: x, lambda x: i32(1), 1.0)

    @case
    def cond_branch_shape_and_dtype():
        lax.cond(True, lambda x: x, lambda x: jnp.ones(2, i32), 1.0)

    @case
    def cond_branch_several():
        lax.cond(True, lambda: {"x": 1.0, "y": [1.0]}, lambda: {"x": i32(1), "y": [jnp.ones(2)]})

    @case
    def cond_branch_tree_type():
        lax.cond(True, lambda x: (x, x), lambda x: [x, x], 1.0)

    @case
    def cond_branch_tree_length_at_path():
        lax.cond(True, lambda: (1.0, [2.0, 3.0]), lambda: (1.0, [2.0]))

    @case
    def cond_branch_tree_dict_keys():
        lax.cond(True, lambda: (1.0, {"a": 2.0}), lambda: (1.0, {"b": 2.0}))

    @case
    def cond_branch_tree_none_vs_leaf():
        lax.cond(True, lambda: (1.0, None), lambda: (1.0, 2.0))

    @case
    def switch_branch_dtype():
        lax.switch(1, [lambda x: x, lambda x: x, lambda x: i32(1)], 1.0)

    @case
    def switch_branch_several():
        lax.switch(0, [lambda: (1.0, 1.0), lambda: (i32(1), jnp.ones(2))])

    @case
    def switch_branch_tree():
        lax.switch(0, [lambda: 1.0, lambda: 1.0, lambda: (1.0,)])

    # cond / switch: arguments
    @case
    def cond_pred_vector():
        lax.cond(jnp.array([True, False]), lambda: 1.0, lambda: 2.0)

    @case
    def cond_pred_none():
        lax.cond(None, lambda: 1.0, lambda: 2.0)

    @case
    def cond_pred_list():
        lax.cond([True], lambda: 1.0, lambda: 2.0)

    @case
    def cond_not_callable():
        lax.cond(True, 1, lambda x: x, 1.0)

    @case
    def cond_operand_and_operands():
        lax.cond(True, lambda x: x, lambda x: x, 1.0, operand=2.0)

    @case
    def switch_empty():
        lax.switch(1, [], 1.0)

    @case
    def switch_float_index():
        lax.switch(1.5, [lambda x: x, lambda x: x], 1.0)

    @case
    def switch_bool_index_traced():
        jax.make_jaxpr(lambda i: lax.switch(i, [lambda: 1.0, lambda: 2.0]))(True)

    @case
    def switch_vector_index():
        lax.switch(jnp.array([1, 2]), [lambda x: x, lambda x: x], 1.0)

    @case
    def switch_not_callable():
        lax.switch(0, [1, lambda: 2.0])

    # while_loop
    @case
    def while_carry_dtype_strong_init():
        lax.while_loop(lambda c: c < 10, lambda c: c + 1.5, i32(0))

    @case
    def while_carry_weak_float_init_int_body():
        lax.while_loop(lambda c: c < 10, lambda c: i32(11), 0.0)

    @case
    def while_carry_weak_shape():
        lax.while_loop(lambda c: jnp.all(c < 10), lambda c: c + jnp.ones(3), 0)

    @case
    def while_carry_shape_and_dtype():
        lax.while_loop(lambda c: jnp.all(c < 10), lambda c: c + jnp.ones(2), i32(0))

    @case
    def while_carry_several():
        lax.while_loop(lambda c: c["x"] < 10,
                       lambda c: {"x": c["x"] + 1.5, "y": P(c["y"].a, c["y"].b * 1.5)},
                       {"x": i32(1), "y": P(1, i32(2))})

    @case
    def while_carry_tree_type():
        lax.while_loop(lambda c: c[0] < 10, lambda c: [c[0], c[1]], (1, 2))

    @case
    def while_carry_tree_leaf_vs_tuple():
        lax.while_loop(lambda c: True, lambda state: (state,), i32(1))

    @case
    def while_carry_tree_length():
        lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0],), (1, 2))

    @case
    def while_carry_dict_keys():
        lax.while_loop(lambda c: True, lambda c: {"a": c["a"], "c": c["b"]}, {"a": 1, "b": 2})

    @case
    def while_carry_dict_children():
        lax.while_loop(lambda c: True, lambda c: {"a": c["a"]}, {"a": 1, "b": 2})

    @case
    def while_carry_namedtuple_types():
        lax.while_loop(lambda c: True, lambda c: (c.a, c.b), P(1, 2))

    @case
    def while_carry_name_from_varargs():
        lax.while_loop(lambda c: True, lambda *a: a[0] + 1.5, i32(1))

    @case
    def while_cond_not_bool():
        lax.while_loop(lambda c: c, lambda c: c + 1, 1)

    @case
    def while_cond_not_scalar():
        lax.while_loop(lambda c: c < 10, lambda c: c + 1, jnp.zeros(2))

    @case
    def while_cond_pytree():
        lax.while_loop(lambda c: (c < 10,), lambda c: c + 1, 1)

    # fori_loop
    @case
    def fori_bound_dtypes_differ():
        lax.fori_loop(i32(0), jnp.int8(3), lambda i, c: c, 1.0)

    @case
    def fori_bound_unsigned_and_python_int():
        lax.fori_loop(np.uint8(0), 3, lambda i, c: c, 1.0)

    @case
    def fori_unroll_traced_bounds():
        jax.make_jaxpr(lambda n: lax.fori_loop(0, n, lambda i, c: c + i, 1.0, unroll=2))(3)

    # scan
    @case
    def scan_body_not_pair():
        lax.scan(lambda c, x: c + x, 0.0, jnp.ones(3))

    @case
    def scan_body_triple():
        lax.scan(lambda c, x: (c + x, x, x), 0.0, jnp.ones(3))

    @case
    def scan_body_dict():
        lax.scan(lambda c, x: {"a": c}, 0.0, jnp.ones(3))

    @case
    def scan_body_weak_leaf():
        lax.scan(lambda c, x: c, 0.0, jnp.ones(3))

    @case
    def scan_length_disagrees():
        lax.scan(lambda c, x: (c, x), 0.0, jnp.ones(3), length=4)

    @case
    def scan_lengths_differ():
        lax.scan(lambda c, x: (c, x), 0.0, (jnp.ones(3), jnp.ones(4)))

    @case
    def scan_no_length():
        lax.scan(lambda c, x: (c, x), 0.0, None)

    @case
    def scan_python_scalars_as_xs():
        lax.scan(lambda c, x: (c, x), 0.0, [1.0, 2.0])

    @case
    def scan_carry_dtype():
        lax.scan(lambda c, x: (c + x, None), i32(0), jnp.ones(3))

    @case
    def scan_carry_shape():
        lax.scan(lambda c, x: (c * jnp.ones(2), None), f32(0), jnp.ones(3))

    @case
    def scan_carry_tree():
        lax.scan(lambda c, x: ((c, c), None), 0.0, jnp.ones(3))

    @case
    def scan_carry_namedtuple_path():
        lax.scan(lambda acc, x: (P(acc.a, acc.b + 0.5), None), P(i32(1), i32(2)), None,
                 length=2)

    @case
    def disable_jit_zero_length_scan():
        with jax.disable_jit():
            lax.scan(lambda c, x: (c + 1, c), 0.0, None, length=0)

    # jnp.select / jnp.piecewise
    x = jnp.arange(5.0)

    @case
    def select_lengths_differ():
        jnp.select([x < 1], [x, x])

    @case
    def select_empty():
        jnp.select([], [])

    @case
    def select_list_choice():
        jnp.select([x < 1, x < 2], [x, [1]])

    @case
    def select_none_default():
        jnp.select([x < 1], [x], default=None)

    @case
    def select_bad_broadcast():
        jnp.select([x < 1], [x], default=jnp.ones(3))

    @case
    def select_bad_cond_broadcast():
        jnp.select([jnp.ones(3) > 0, x > 0], [x, x])

    @case
    def piecewise_too_many_functions():
        jnp.piecewise(x, [x < 0], [1, 2, 3])

    @case
    def piecewise_array_condlist():
        jnp.piecewise(x, x < 0, [lambda x: -x, 7])

    @case
    def piecewise_empty():
        jnp.piecewise(x, [], [])

    @case
    def piecewise_bool_condlist():
        jnp.piecewise(x, True, [lambda x: -x, lambda x: x])

    @case
    def piecewise_non_scalar_piece():
        jnp.piecewise(x, [x < 0], [lambda x: jnp.ones(2), lambda x: x])

    @case
    def piecewise_python_scalar_piece():
        jnp.piecewise(x, [x < 0], [lambda x: 1, lambda x: x])

    @case
    def piecewise_bad_broadcast():
        jnp.piecewise(x, [x[:2] < 0], [lambda x: -x, lambda x: x])

    return out
