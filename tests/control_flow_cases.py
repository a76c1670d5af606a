"""Control-flow programs (and ``jnp.select``/``jnp.piecewise``), run under JAX and transpile.

Written once against a JAX-like API (``jax, jnp, lax, np`` are parameters), like
``tests/jaxpr_cases.py``: ``tools/record_control_flow.py`` records what JAX 0.10.2 does
into ``tests/data/control_flow.json`` and ``tests/test_lax_control_flow.py`` compares.
Nothing here imports jax or transpile.

``cases(...)`` gives :class:`CFCase` objects; ``case.build()`` returns ``(fn, args, ref)``
where ``ref()`` computes the expected output independently, with plain Python loops
and NumPy only (``None`` when the recording is the only reference).
The programs that raise are in ``tests/control_flow_error_cases.py``.
"""
from __future__ import annotations

import collections

import numpy as onp  # the references use NumPy directly, never the API under test

__all__ = ["CFCase", "cases", "P"]

P = collections.namedtuple("P", "a b")  # module level: its repr names this module


class CFCase:
    """A recorded program. ``jaxpr`` says whether transpile prints JAX's jaxpr text
    (False where it knowingly differs, with ``why``)."""

    __slots__ = ("name", "build", "jaxpr", "why")

    def __init__(self, name, build, jaxpr=True, why=""):
        self.name, self.build, self.jaxpr, self.why = name, build, jaxpr, why

    def __repr__(self):
        return f"CFCase({self.name!r})"


def _f32(*v):
    return onp.array(v, onp.float32)


def cases(jax, jnp, lax, np):
    """The recorded control-flow programs."""
    out = []

    def case(jaxpr=True, why=""):
        def deco(build):
            out.append(CFCase(build.__name__, build, jaxpr, why))
            return build
        return deco

    x5 = onp.arange(5, dtype=onp.float32)

    # --- cond ----------------------------------------------------------------------------
    @case()
    def cond_traced_bool_pred():
        def f(p, x):
            return lax.cond(p, lambda x: x + 1.0, lambda x: x - 1.0, x)
        return f, (True, jnp.float32(2.0)), lambda: onp.float32(3.0)

    @case()
    def cond_traced_int_pred():
        def f(p, x):
            return lax.cond(p, lambda x: x * 3.0, lambda x: x, x)
        return f, (jnp.int32(-4), jnp.float32(2.0)), lambda: 6.0

    @case()
    def cond_concrete_false_pred():
        return (lambda x: lax.cond(False, jnp.sin, jnp.cos, x)), (jnp.float32(0.5),), \
            lambda: onp.cos(onp.float32(0.5))

    @case()
    def cond_consts_from_both_branches():
        c1, c2 = _f32(1, 2, 3), _f32(10, 20, 30)

        def f(p, x):
            return lax.cond(p, lambda x: x + c1, lambda x: x * c2, x)
        return f, (False, jnp.arange(3.0)), lambda: onp.arange(3.0) * c2

    @case()
    def cond_forwarded_output():
        def f(p, x, y):
            return lax.cond(p, lambda x, y: (x, y * 2.0), lambda x, y: (x, y + 1.0), x, y)
        return f, (True, jnp.arange(3.0), jnp.float32(4.0)), lambda: (onp.arange(3.0), 8.0)

    @case()
    def cond_literal_outputs():
        return (lambda p: lax.cond(p, lambda: 1.0, lambda: 2.0)), (False,), lambda: 2.0

    @case()
    def cond_pytree_operands():
        def f(p, d):
            def t(d):
                return {"s": d["a"] + d["b"][0], "t": (d["b"][1],)}

            def e(d):
                return {"s": d["a"] - d["b"][0], "t": (d["b"][1] * 2,)}
            return lax.cond(p, t, e, d)
        d = {"a": jnp.arange(3.0), "b": (jnp.float32(1.0), jnp.int32(5))}
        return f, (False, d), lambda: {"s": onp.arange(3.0) - 1, "t": (10,)}

    @case()
    def cond_closes_over_outer_tracers():
        def f(x, y):
            return lax.cond(x > 0, lambda: x * y, lambda: y - x)
        return f, (jnp.float32(-2.0), jnp.float32(3.0)), lambda: 5.0

    @case()
    def cond_operand_keyword():
        def f(x):
            return lax.cond(x < 0, lambda v: -v, lambda v: v, operand=x)
        return f, (jnp.float32(-7.0),), lambda: 7.0

    @case()
    def cond_long_branch_hoisted():
        def big(x):
            for k in range(12):
                x = jnp.sin(x) + float(k)
            return x

        def ref():
            v = onp.float32(0.25)
            for k in range(12):
                v = onp.sin(v) + onp.float32(k)
            return v
        return (lambda p, x: lax.cond(p, big, lambda x: x, x)), (True, jnp.float32(0.25)), \
            ref

    @case()
    def cond_weak_branches_join():
        def f(p):
            return lax.cond(p, lambda: 1.0, lambda: jnp.float32(2.0)), \
                lax.cond(p, lambda: 1, lambda: 2)
        return f, (True,), lambda: (1.0, 1)

    # --- switch --------------------------------------------------------------------------
    @case()
    def switch_traced_index():
        def f(i, x):
            return lax.switch(i, [lambda x: x + 1.0, lambda x: x * x, jnp.negative], x)
        return f, (jnp.int32(7), jnp.arange(3.0)), lambda: -onp.arange(3.0)

    @case()
    def switch_concrete_clamped():
        def f(x):
            branches = [lambda x: x, lambda x: -x]
            return (lax.switch(5, branches, x), lax.switch(-3, branches, x),
                    lax.switch(np.int64(1), branches, x))
        return f, (jnp.float32(1.5),), lambda: (-1.5, 1.5, -1.5)

    @case()
    def switch_pytree_and_closure():
        w = _f32(1, -1, 2)

        def f(i, x):
            return lax.switch(i, [lambda p: (p[0] * w, p[1]), lambda p: (p[0] + w, p[1] + 1)],
                              (x, jnp.int32(3)))
        return f, (jnp.int32(1), jnp.ones(3)), lambda: (1 + w, 4)

    @case()
    def switch_single_branch():
        return (lambda i, x: lax.switch(i, [lambda x: x * 2.0], x)), \
            (jnp.int32(3), jnp.float32(2.0)), lambda: 4.0

    @case()
    def switch_uint8_index():
        return (lambda i: lax.switch(i, [lambda: 1.0, lambda: 2.0])), (np.uint8(9),), \
            lambda: 2.0

    # --- while_loop ----------------------------------------------------------------------
    @case()
    def while_double_until_ten():
        def ref():
            v = onp.float32(0.75)
            while v < 10:
                v = v * 2
            return v
        return (lambda x: lax.while_loop(lambda c: c < 10.0, lambda c: c * 2.0, x)), \
            (jnp.float32(0.75),), ref

    @case()
    def while_weak_carry_retyped():
        return (lambda: lax.while_loop(lambda c: c < 10, lambda c: c + 1.5, 0)), (), \
            lambda: 10.5

    @case()
    def while_zero_trip():
        return (lambda x: lax.while_loop(lambda c: c > 100.0, lambda c: c + 1.0, x)), \
            (jnp.float32(3.0),), lambda: 3.0

    @case()
    def while_invariant_carry_to_const():
        def f(x, k):
            return lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1], c[2] * c[1]),
                                  (0, k, x))
        return f, (jnp.float32(1.0), jnp.float32(2.0)), lambda: (5, 2.0, 32.0)

    @case()
    def while_pytree_carry():
        def f(x):
            def body(c):
                return {"i": c["i"] + 1, "acc": (c["acc"][0] + c["i"], c["acc"][1] * 2.0)}
            return lax.while_loop(lambda c: c["i"] < 4,
                                  body, {"i": 0, "acc": (x, jnp.ones(2))})

        def ref():
            i, a, b = 0, onp.arange(2.0), onp.ones(2)
            while i < 4:
                i, a, b = i + 1, a + i, b * 2
            return {"i": i, "acc": (a, b)}
        return f, (jnp.arange(2.0),), ref

    @case()
    def while_closes_over_outer():
        def f(x, limit):
            return lax.while_loop(lambda c: c < limit, lambda c: c + x, jnp.float32(0.0))
        return f, (jnp.float32(0.5), jnp.float32(2.2)), lambda: 2.5

    # --- fori_loop -----------------------------------------------------------------------
    @case()
    def fori_static_bounds_scan():
        def ref():
            v = onp.float32(1.0)
            for i in range(5):
                v = v + i
            return v
        return (lambda x: lax.fori_loop(0, 5, lambda i, c: c + i, x)), (jnp.float32(1.0),), \
            ref

    @case()
    def fori_traced_bound_while():
        def f(n, x):
            return lax.fori_loop(0, n, lambda i, c: c * 2.0 + i, x)

        def ref():
            v = 1.0
            for i in range(4):
                v = v * 2 + i
            return v
        return f, (jnp.int32(4), jnp.float32(1.0)), ref

    @case()
    def fori_nonzero_lower():
        return (lambda x: lax.fori_loop(2, 7, lambda i, c: c + i * i, x)), \
            (jnp.int32(0),), lambda: sum(i * i for i in range(2, 7))

    @case()
    def fori_lower_above_upper():
        return (lambda x: lax.fori_loop(5, 2, lambda i, c: c + i, x)), \
            (jnp.float32(1.0),), lambda: 1.0

    @case()
    def fori_numpy_int_bounds():
        return (lambda x: lax.fori_loop(np.int32(1), np.int32(4), lambda i, c: c * i, x)), \
            (jnp.float32(1.0),), lambda: 6.0

    @case()
    def fori_weak_bound_takes_other_dtype():
        def f(n):
            return lax.fori_loop(0, n, lambda i, c: c + i.astype(jnp.float32), jnp.float32(0))
        return f, (jnp.int8(4),), lambda: 6.0

    @case()
    def fori_pytree_carry_unroll():
        def f(x):
            return lax.fori_loop(0, 4, lambda i, c: (c[0] + x * i, c[1] * 2), (0.0, 1),
                                 unroll=2)
        return f, (jnp.float32(0.5),), lambda: (3.0, 16)

    # --- scan ----------------------------------------------------------------------------
    def scan_ref(body, init, xs, reverse=False):
        """A plain Python scan over a list of slices."""
        carry, ys = init, [None] * len(xs)
        order = range(len(xs) - 1, -1, -1) if reverse else range(len(xs))
        for t in order:
            carry, ys[t] = body(carry, xs[t])
        return carry, ys

    @case()
    def scan_carry_and_ys():
        def ref():
            c, ys = scan_ref(lambda c, x: (c + x, c * 2), 0.0, list(x5))
            return c, onp.array(ys)
        return (lambda xs: lax.scan(lambda c, x: (c + x, c * 2.0), 0.0, xs)), \
            (jnp.arange(5.0),), ref

    @case()
    def scan_xs_forwarded_to_ys():
        return (lambda xs: lax.scan(lambda c, x: (c + x, x), 0.0, xs)), \
            (jnp.arange(5.0),), lambda: (10.0, x5)

    @case()
    def scan_reverse():
        def ref():
            c, ys = scan_ref(lambda c, x: (c * 2 + x, c), 0.0, list(x5), reverse=True)
            return c, onp.array(ys)
        return (lambda xs: lax.scan(lambda c, x: (c * 2.0 + x, c), 0.0, xs, reverse=True)), \
            (jnp.arange(5.0),), ref

    @case()
    def scan_pytree_xs_ys():
        def body(c, x):
            s = c + x["a"] * jnp.sum(x["b"])
            return s, (s, x["b"][::-1])

        def f(a, b):
            return lax.scan(body, jnp.float32(0.0), {"a": a, "b": b})
        a, b = onp.arange(3.0), onp.arange(6.0).reshape(3, 2)

        def ref():
            c, ys = scan_ref(lambda c, x: (c + x[0] * x[1].sum(),) * 2, 0.0, list(zip(a, b)))
            return c, (onp.array(ys), b[:, ::-1])
        return f, (jnp.arange(3.0), jnp.arange(6.0).reshape(3, 2)), ref

    @case()
    def scan_ys_none():
        return (lambda xs: lax.scan(lambda c, x: (c * x, None), 1.0, xs + 1.0)), \
            (jnp.arange(5.0),), lambda: (120.0, None)

    @case()
    def scan_no_xs_with_length():
        return (lambda x: lax.scan(lambda c, _: (c + 1.0, c), x, None, length=4)), \
            (jnp.float32(0.5),), lambda: (4.5, _f32(0.5, 1.5, 2.5, 3.5))

    @case()
    def scan_length_zero():
        def f(x):
            return (lax.scan(lambda c, _: (c + 1.0, c), x, None, length=0),
                    lax.scan(lambda c, r: (c + r.sum(), r * 2), x, jnp.zeros((0, 3))))
        return f, (jnp.float32(1.0),), \
            lambda: ((1.0, onp.zeros(0)), (1.0, onp.zeros((0, 3))))

    @case()
    def scan_unroll_values():
        def f(xs):
            body = lambda c, x: (c * 0.5 + x, c)  # noqa: E731
            return (lax.scan(body, 0.0, xs, unroll=2), lax.scan(body, 0.0, xs, unroll=True),
                    lax.scan(body, 0.0, xs, unroll=False))

        def ref():
            c, ys = scan_ref(lambda c, x: (c * 0.5 + x, c), 0.0, list(x5))
            return ((c, onp.array(ys)),) * 3
        return f, (jnp.arange(5.0),), ref

    @case()
    def scan_closes_over_numpy_and_tracer():
        w = _f32(1, 2, 3)

        def f(xs, s):
            return lax.scan(lambda c, x: (c + w * x * s, jnp.dot(c, w)), jnp.zeros(3), xs)

        def ref():
            c, ys = scan_ref(lambda c, x: (c + w * x * 2, c @ w), onp.zeros(3), list(x5[:4]))
            return c, onp.array(ys)
        return f, (jnp.arange(4.0), jnp.float32(2.0)), ref

    @case()
    def scan_invariant_carry_to_const():
        def f(xs):
            return lax.scan(lambda c, x: ((c[0] + x * c[1], c[1]), c[0]), (0.0, 3.0), xs)

        def ref():
            c, ys = scan_ref(lambda c, x: ((c[0] + x * 3, 3.0), c[0]), (0.0, 3.0), list(x5))
            return c, onp.array(ys)
        return f, (jnp.arange(5.0),), ref

    @case()
    def scan_weak_int_carry_retyped():
        return (lambda xs: lax.scan(lambda c, x: (c + x, c), 0, xs)), (jnp.arange(3.0),), \
            lambda: (3.0, _f32(0, 0, 1))

    # --- map -----------------------------------------------------------------------------
    @case()
    def map_simple():
        return (lambda xs: lax.map(lambda x: jnp.sin(x) * 2.0, xs)), (jnp.arange(5.0),), \
            lambda: onp.array([onp.sin(v) * 2 for v in x5])

    @case()
    def map_pytree():
        def f(a, b):
            return lax.map(lambda p: {"s": p[0] + p[1].sum(), "m": p[1] * p[0]}, (a, b))
        a, b = onp.arange(3.0), onp.arange(6.0).reshape(3, 2)
        return f, (jnp.arange(3.0), jnp.arange(6.0).reshape(3, 2)), \
            lambda: {"s": a + b.sum(1), "m": b * a[:, None]}

    @case(jaxpr=False, why="JAX applies f under vmap to each batch; there is no vmap yet")
    def map_batch_size():
        def f(xs):
            return lax.map(lambda x: x * 2.0 + 1.0, xs, batch_size=2)
        return f, (jnp.arange(5.0),), lambda: x5 * 2 + 1

    # --- nesting -------------------------------------------------------------------------
    @case()
    def nested_scan_in_cond_in_while():
        def f(xs):
            def body(c):
                i, acc = c
                acc = lax.cond(i % 2 == 0,
                               lambda a: lax.scan(lambda s, x: (s + x, None), a, xs)[0],
                               lambda a: a * 0.5, acc)
                return i + 1, acc
            return lax.while_loop(lambda c: c[0] < 3, body, (0, jnp.float32(1.0)))

        def ref():
            acc = 1.0
            for i in range(3):
                acc = acc + x5.sum() if i % 2 == 0 else acc * 0.5
            return 3, acc
        return f, (jnp.arange(5.0),), ref

    @case()
    def nested_cond_in_scan_in_while():
        def f(xs):
            def scan_body(s, x):
                return lax.cond(x > 2.0, lambda: s + x, lambda: s - 1.0), s

            def body(c):
                total, _ = lax.scan(scan_body, c[1], xs)
                return c[0] + 1, total
            return lax.while_loop(lambda c: c[1] < 20.0, body, (0, jnp.float32(0.0)))

        def ref():
            n, t = 0, 0.0
            while t < 20:
                for x in x5:
                    t = t + x if x > 2 else t - 1
                n += 1
            return n, t
        return f, (jnp.arange(5.0),), ref

    @case()
    def nested_fori_in_fori():
        def f(x):
            return lax.fori_loop(0, 3, lambda i, c: lax.fori_loop(0, i + 1,
                                                                  lambda j, d: d + j, c), x)
        return f, (jnp.int32(0),), lambda: sum(j for i in range(3) for j in range(i + 1))

    # --- types and sharing ---------------------------------------------------------------
    @case()
    def weak_types_table():
        def f(x):
            return (lax.while_loop(lambda c: c < 10, lambda c: c + jnp.int32(1), 0),
                    lax.while_loop(lambda c: c < 10, lambda c: c + x, 0),
                    lax.scan(lambda c, _: (c + jnp.int8(1), c), 0, None, length=2),
                    lax.fori_loop(0, 3, lambda i, c: c + i, 0),
                    lax.fori_loop(0, 3, lambda i, c: c + i, 0.5),
                    lax.switch(1, [lambda: 1, lambda: 2]),
                    lax.cond(x > 0, lambda: jnp.float32(1.0), lambda: 2.0))
        return f, (jnp.float32(3.0),), lambda: (10, 12.0, (2, onp.array([0, 1])), 3, 3.5,
                                                 2, 1.0)

    @case()
    def shared_functions_hoisted():
        def body(c):
            return c[0] + 1, c[1], c[2] * c[1]

        def cond(c):
            return c[0] < 5

        def double(x):
            return x * 2.0

        def step(i, c):
            return c + i

        def f(p, x, k):
            return (lax.while_loop(cond, body, (0, k, x)), lax.while_loop(cond, body, (0, k, x)),
                    lax.cond(p, double, jnp.sin, x), lax.cond(p, double, jnp.cos, k),
                    lax.fori_loop(0, 3, step, x), lax.fori_loop(0, 3, step, k))
        return f, (True, jnp.float32(1.0), jnp.float32(2.0)), lambda: (
            (5, 2.0, 32.0), (5, 2.0, 32.0), 2.0, 4.0, 4.0, 5.0)

    # --- jnp.select / jnp.piecewise ------------------------------------------------------

    @case()
    def select_basic():
        def f(x):
            return jnp.select([x < 1, x > 3], [x, x * 2])
        return f, (jnp.arange(5.0),), lambda: onp.select([x5 < 1, x5 > 3], [x5, x5 * 2])

    @case()
    def select_default_and_python_choices():
        def f(x):
            return (jnp.select([x < 1, x > 3, x > 2], [1, 2, 3]),
                    jnp.select([x < 1, x > 3], [x, 2], default=jnp.int32(7)))
        return f, (jnp.arange(5.0),), lambda: (
            onp.select([x5 < 1, x5 > 3, x5 > 2], [1, 2, 3]),
            onp.select([x5 < 1, x5 > 3], [x5, 2], default=7))

    @case()
    def select_broadcasting():
        def f(x):
            return (jnp.select([x < 1, (x > 2)[:, None]], [x, x]),
                    jnp.select([x < 1], [x.reshape(5, 1)]))
        return f, (jnp.arange(5.0),), lambda: (
            onp.select([x5 < 1, (x5 > 2)[:, None]], [x5, x5]),
            onp.select([x5 < 1], [x5.reshape(5, 1)]))

    @case()
    def select_dtypes():
        def f(x):
            return (jnp.select([x < 1, x > 3], [jnp.arange(5), x.astype(jnp.int8)],
                               default=2.5),
                    jnp.select([x < 1, x > 3], [x < 2, x > 1]),
                    jnp.select([x < 1], [x.astype(jnp.uint8)], default=-1),
                    jnp.select([x], [x]))
        return f, (jnp.arange(5.0),), lambda: (
            onp.select([x5 < 1, x5 > 3], [onp.arange(5), x5], default=2.5),
            onp.select([x5 < 1, x5 > 3], [x5 < 2, x5 > 1]).astype(int),
            onp.select([x5 < 1], [x5], default=255),
            x5)

    @case()
    def select_scalars():
        return (lambda: (jnp.select([True, False], [1, 2]),
                         jnp.select([False, False], [1, 2.0], 3))), (), lambda: (1, 3.0)

    xm = onp.arange(-2.0, 3.0, dtype=onp.float32)
    pw_why = "JAX runs lax.switch under vmap in a nested jit; here lax.map over switch"

    @case(jaxpr=False, why=pw_why)
    def piecewise_functions():
        def f(x):
            return jnp.piecewise(x, [x < 0, x >= 0], [lambda x: -x, lambda x: x * 2])
        return f, (jnp.arange(-2.0, 3.0),), \
            lambda: onp.piecewise(xm, [xm < 0, xm >= 0], [lambda x: -x, lambda x: x * 2])

    @case(jaxpr=False, why=pw_why)
    def piecewise_default_and_constants():
        def f(x):
            return (jnp.piecewise(x, [x < 0], [lambda x: -x, lambda x: x * 2]),
                    jnp.piecewise(x, [x < 0, x > 1], [-1, 1, 0.5]),
                    jnp.piecewise(x, [x < 0, x > -5], [1, 2]),
                    jnp.piecewise(x, [x], [lambda x: -x, lambda x: x]))
        return f, (jnp.arange(-2.0, 3.0),), lambda: (
            onp.piecewise(xm, [xm < 0], [lambda x: -x, lambda x: x * 2]),
            onp.piecewise(xm, [xm < 0, xm > 1], [-1, 1, 0.5]),
            onp.piecewise(xm, [xm < 0, xm > -5], [1, 2]),
            onp.piecewise(xm, [xm != 0], [lambda x: -x, lambda x: x]))

    @case(jaxpr=False, why=pw_why)
    def piecewise_args_and_dtypes():
        def f(x, k):
            i = jnp.arange(4)
            return (jnp.piecewise(x, [x < 0], [lambda x, k: x * k, lambda x, k: x + k], k),
                    jnp.piecewise(x, [x < 0], [lambda x, k=0: x * k, lambda x, k=0: x + k],
                                  k=2),
                    jnp.piecewise(i, [i < 2], [lambda x: x * 1.5, 9]),
                    jnp.piecewise(x.astype(jnp.int8), [x < 0], [lambda x: x * 300, 200]),
                    jnp.piecewise(2.0, [True], [lambda x: -x, lambda x: x]))
        i4 = onp.arange(4)
        return f, (jnp.arange(-2.0, 3.0), jnp.float32(3.0)), lambda: (
            onp.where(xm < 0, xm * 3, xm + 3), onp.where(xm < 0, xm * 2, xm + 2),
            onp.where(i4 < 2, (i4 * 1.5).astype(int), 9),
            onp.where(xm < 0, (xm.astype(onp.int8).astype(int) * 300).astype(onp.int8), -56),
            -2.0)

    return out
