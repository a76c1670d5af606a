"""Compiled control flow: cond/switch, while and scan as C statements around kernels.

Every program of ``PROGRAMS`` is compiled (all in one library) and compared with the
NumPy evaluator of the same jaxpr, bit for bit, and, where the program has one, with a
plain-Python reference. The structural tests check that the C keeps the loops (no
unrolling) and reads scan slices in place.
"""
import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.interpreters.eval import eval_jaxpr_numpy
from transpile.stages import compile_many

f32 = np.float32


def _x(*shape, dtype=f32, start=1):
    n = int(np.prod(shape))
    return (np.arange(start, start + n) % 7 - 3).astype(dtype).reshape(shape) * 0.5 \
        if np.dtype(dtype).kind == "f" else \
        (np.arange(start, start + n) % 7 - 3).astype(dtype).reshape(shape)


def _collatz(n):
    def body(c):
        v, k = c
        return lax.cond(v % 2 == 0, lambda v: v // 2, lambda v: 3 * v + 1, v), k + 1
    return lax.while_loop(lambda c: c[0] != 1, body, (n, 0))[1]


def _py_collatz(n):
    k = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        k += 1
    return k


def _nested(x):
    # a scan inside a cond inside a while
    def body(c):
        i, v = c
        v = lax.cond(i % 2 == 0,
                     lambda v: lax.scan(lambda a, r: (a + r * 0.5, a.sum()), v, x)[0],
                     lambda v: v * 0.5, v)
        return i + 1, v
    return lax.while_loop(lambda c: c[0] < 5, body, (0, x[0]))[1]


def _py_nested(x):
    v = x[0].astype(np.float64)
    for i in range(5):
        if i % 2 == 0:
            for r in x:
                v = v + r * 0.5
        else:
            v = v * 0.5
    return v


def _inner(v):
    return lax.cond(v.sum() > 0, lambda v: v * 2, lambda v: v - 1, v)


_inner_jit = jax.jit(_inner)

# name: (function, arguments, plain-Python reference or None)
PROGRAMS = {
    "cond_true": (lambda p, x: lax.cond(p, lambda x: x + 1, lambda x: x - 1, x),
                  (True, _x(5)), lambda p, x: x + 1),
    "cond_false": (lambda p, x: lax.cond(p, lambda x: x + 1, lambda x: x - 1, x),
                   (False, _x(5)), lambda p, x: x - 1),
    "cond_int_pred": (lambda p, x: lax.cond(p, lambda x: x * 2, lambda x: -x, x),
                      (np.int32(-7), _x(3)), lambda p, x: x * 2),
    "cond_pytree": (lambda x: lax.cond(x.sum() > 0, lambda x: (x, x * 2, 1.0),
                                       lambda x: (x * 3, x, 2.0), x),
                    (_x(4),), None),
    "cond_closure": (lambda x, y: lax.cond(x[0] > 0, lambda: x + y, lambda: x * y),
                     (_x(3), _x(3, start=4)), None),
    "cond_in_place_big": (lambda x: lax.cond(x[3] > 0, lambda x: jnp.exp(x) + 1,
                                             lambda x: x * x, x), (_x(2100),), None),
    "switch_3": (lambda i, x: lax.switch(i, [lambda x: x, lambda x: -x, lambda x: x * 3], x),
                 (np.int32(1), _x(4)), lambda i, x: -x),
    "switch_clamp_high": (lambda i, x: lax.switch(i, [lambda x: x, lambda x: -x,
                                                      lambda x: x * 3], x),
                          (np.int32(99), _x(4)), lambda i, x: x * 3),
    "switch_clamp_low": (lambda i, x: lax.switch(i, [lambda x: x, lambda x: -x,
                                                     lambda x: x * 3], x),
                         (np.int32(-5), _x(4)), lambda i, x: x),
    "while_count": (lambda n: lax.while_loop(lambda c: c < n, lambda c: c + 1, 0),
                    (np.int32(1000),), lambda n: 1000),
    "while_zero_trip": (lambda x: lax.while_loop(lambda c: c[0] > 100,
                                                 lambda c: (c[0] + 1, c[1] * 2), (0.0, x)),
                        (_x(6),), lambda x: (0.0, x)),
    "while_swap": (lambda a, b: lax.while_loop(
        lambda c: c[2] < 3, lambda c: (c[1], c[0] + 1, c[2] + 1), (a, b, 0)),
        (_x(3), _x(3, start=2)), None),
    "while_array_carry": (lambda x: lax.while_loop(lambda c: c.sum() < 1e4,
                                                   lambda c: c * 1.5 + 1, x),
                          (np.abs(_x(64)) + 1,), None),
    "collatz": (_collatz, (np.int32(27),), _py_collatz),
    "fori_static": (lambda x: lax.fori_loop(0, 10, lambda i, c: c * 0.5 + i, x),
                    (_x(5),), None),
    "fori_traced": (lambda x, n: lax.fori_loop(0, n, lambda i, c: c + i * x, x),
                    (_x(5), np.int32(7)), None),
    "fori_empty": (lambda x: lax.fori_loop(5, 2, lambda i, c: c + 1, x), (_x(2),),
                   lambda x: x),
    "scan_cumsum": (lambda xs: lax.scan(lambda c, x: (c + x, c), 0.0, xs),
                    (_x(10),), None),
    "scan_rows": (lambda c0, xs: lax.scan(lambda c, x: (c * 0.5 + x, (c.sum(), x * c)),
                                          c0, xs), (_x(3), _x(6, 3)), None),
    "scan_reverse": (lambda xs: lax.scan(lambda c, x: (c * 2 + x, c), 0.0, xs,
                                         reverse=True), (_x(7),), None),
    "scan_empty": (lambda c0, xs: lax.scan(lambda c, x: (c + x, c * x), c0, xs),
                   (_x(3), np.zeros((0, 3), f32)), None),
    "scan_length_only": (lambda c0: lax.scan(lambda c, _: (c * 2, c), c0, None, length=4),
                         (_x(2),), None),
    "scan_carry_is_y": (lambda xs: lax.scan(lambda c, x: (c + x, c + x), 0.0, xs),
                        (_x(5),), None),
    "scan_literal_y": (lambda xs: lax.scan(lambda c, x: (c + x, 1.0), 0.0, xs),
                       (_x(5),), None),
    "map": (lambda xs: lax.map(lambda r: jnp.sum(r * r), xs), (_x(5, 4),), None),
    "nested": (_nested, (_x(4, 3),), _py_nested),
    "shared_subjaxpr": (lambda x: _inner_jit(x) + _inner_jit(-x), (_x(4),), None),
    "scan_of_cond": (lambda xs: lax.scan(
        lambda c, x: (c + x, lax.cond(x > 0, lambda: x * 2, lambda: c)), 0.0, xs),
        (_x(9),), None),
    "while_matmul": (lambda a, v: lax.fori_loop(
        0, 5, lambda i, v: jnp.tanh(a @ v), v), (_x(8, 8) * 0.1, _x(8)), None),
    "fori_scatter_in_place": (lambda x: lax.fori_loop(
        0, 10, lambda i, c: c.at[i].set(c[i - 1] * 2 + 1), x), (_x(100),), None),
    "scan_dynamic_reads": (lambda x, idx: lax.scan(
        lambda c, i: (c + x[i], x[i] * c), 0.0, idx), (_x(9), np.array(
            [0, 3, -1, 8, 100, -100, 2], np.int32)), None),
    "while_add_at_duplicates": (lambda x, idx: lax.fori_loop(
        0, 3, lambda k, c: c.at[idx].add(1.0), x), (_x(5), np.array([0, 0, 4, 9, -1],
                                                                    np.int32)), None),
    "cond_of_reduction_operand": (lambda x: lax.cond(
        jnp.max(x) > 1, lambda x: jnp.sort(x), lambda x: x[::-1], x), (_x(6),), None),
}


def _compiled():
    items = [(name, jax.make_jaxpr(fn)(*args), args)
             for name, (fn, args, _) in PROGRAMS.items()]
    exes = compile_many([(f"cf_{n}", c) for n, c, _ in items])
    return {n: (c, a, e) for (n, c, a), e in zip(items, exes, strict=True)}


@pytest.fixture(scope="module")
def compiled():
    return _compiled()


def _tolerance(closed):
    text = str(closed)
    return 1e-6 if any(f in text for f in ("exp ", "tanh ", "sin ")) else 0


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_compiled_matches_evaluator(compiled, name):
    closed, args, exe = compiled[name]
    want = eval_jaxpr_numpy(closed.jaxpr, closed.consts, *args)
    got = exe(list(args))
    rtol = _tolerance(closed)
    for g, w in zip(got, want, strict=True):
        g = np.asarray(g)
        assert g.shape == w.shape and g.dtype == w.dtype, name
        if rtol:
            np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-6, err_msg=name)
        else:
            np.testing.assert_array_equal(g, w, err_msg=name)


@pytest.mark.parametrize("name", [n for n, p in PROGRAMS.items() if p[2] is not None])
def test_compiled_matches_python_reference(compiled, name):
    closed, args, exe = compiled[name]
    ref = PROGRAMS[name][2](*args)
    got = exe(list(args))
    refs = ref if isinstance(ref, tuple) else (ref,)
    for g, r in zip(got, refs, strict=True):
        np.testing.assert_allclose(np.asarray(g, np.float64), np.asarray(r, np.float64),
                                   rtol=1e-6)


def test_jit_runs_control_flow_and_caches():
    f = jax.jit(_collatz)
    assert int(f(np.int32(27))) == _py_collatz(27)
    assert int(f(np.int32(97))) == _py_collatz(97)


def _source(fn, *args):
    return jax.jit(fn).lower(*args).as_text()


def test_loops_stay_loops():
    src = _source(lambda x: lax.fori_loop(0, 1000, lambda i, c: c * 0.5 + 1, x), 1.0)
    assert "for (int64_t t1 = 0; t1 < 1000; t1++)" in src
    assert src.count("static void") < 5  # the body is not unrolled
    src = _source(lambda n: lax.while_loop(lambda c: c < n, lambda c: c + 1, 0),
                  np.int32(3))
    assert "for (;;)" in src and "break;" in src


def test_scalar_carries_are_copied_back():
    src = _source(lambda x: lax.fori_loop(0, 9, lambda i, c: c * 0.5 + 1, x), 1.0)
    assert "_cur" not in src and "B[0] = " in src


def test_scan_reads_rows_in_place_and_writes_ys_in_place():
    src = _source(lambda xs: lax.scan(lambda c, x: (c + x, x * 2), jnp.zeros(16), xs),
                  jnp.ones((5, 16)))
    assert "const float *A_row = A + i1 * 16;" in src
    assert "_row = " in src and "memcpy(" in src
    # ys rows are written by the kernel itself, and an array carry is double-buffered:
    # the loop copies nothing
    body = src.split("for (int64_t t1")[1].split("if (C != C_cur)")[0]
    assert "memcpy(" not in body and "C_cur = C_nxt" in body


def test_cond_branches_write_outputs_in_place():
    src = _source(lambda x: lax.cond(x[0] > 0, lambda x: x + 1, lambda x: x - 1, x),
                  jnp.ones(4))
    branch = src.split("if (")[1]
    assert "memcpy(" not in branch.split("tp_ftz_end")[0]


def test_switch_clamps_in_c():
    src = _source(lambda i, x: lax.switch(i, [lambda x: x, lambda x: -x, lambda x: x * 3],
                                          x), np.int32(0), jnp.ones(2))
    assert "switch (" in src and "case 2:" in src


def test_sub_jaxpr_consts_are_lifted():
    big = np.arange(100, dtype=f32)

    def f(x):
        return lax.cond(x > 0, lambda x: x + jnp.asarray(big), lambda x: x * 0 + big, x)
    got = jax.jit(f)(f32(2))
    np.testing.assert_array_equal(np.asarray(got), big + 2)


def test_loop_carry_is_updated_in_place():
    src = _source(lambda x: lax.fori_loop(0, 10, lambda i, c: c.at[i].set(c[i - 1] * 2),
                                          x), jnp.ones(100))
    loop = src.split("for (int64_t t1")[1].split("if (")[0]
    assert "memcpy(" not in loop and "_cur, " in loop and "tp_t" not in loop
    got = jax.jit(lambda x: lax.fori_loop(0, 10, lambda i, c: c.at[i].set(c[i - 1] * 2),
                                          x))(jnp.ones(100))
    want = np.ones(100, f32)
    for i in range(10):
        want[i] = want[i - 1] * 2
    np.testing.assert_array_equal(np.asarray(got), want)
