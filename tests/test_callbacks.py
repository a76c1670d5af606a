"""Host callbacks (transpile/callbacks.py): debug.print, debug.callback, pure_callback
and io_callback eagerly, compiled (the C calls back into Python), inside loops, under
vmap and grad; their jaxpr text (JAX 0.10.2's); exceptions; the export's refusal."""
import re

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import lax
from transpile.experimental import io_callback


def _f(x):
    jax.debug.print("x = {x}", x=x)
    return x * 2


def test_debug_print_jaxpr_text():
    assert str(jax.make_jaxpr(_f)(1.0)) == """{ lambda ; a:f32[]. let
    debug_print[
      fmt=x = {x}
      has_placeholders=True
      in_tree=PyTreeDef(((), {'x': *}))
      logging_record=None
      np_printoptions=(('edgeitems', 3), ('threshold', 1000), ('floatmode', 'maxprec'), ('precision', 8), ('suppress', False), ('linewidth', 75), ('nanstr', 'nan'), ('infstr', 'inf'), ('sign', '-'), ('formatter', None), ('legacy', False), ('override_repr', None))
      ordered=False
      partitioned=False
      static_args=()
    ] a
    b:f32[] = mul a 2.0:f32[]
  in (b,) }"""


def test_debug_print_eager_jit_vmap_and_loops(capsys):
    _f(1.5)
    assert float(jax.jit(_f)(3.0)) == 6.0
    jax.vmap(_f)(jnp.arange(3.0))

    def k(x):
        def body(i, c):
            jax.debug.print("i={i} c={c}", i=i, c=c)
            jax.debug.print("{}", c * 10)
            return c + 1
        return lax.fori_loop(0, 3, body, x)
    jax.jit(k)(1.0)
    jax.jit(lambda x: lax.while_loop(lambda c: c < 2, lambda c: (jax.debug.print("w {}", c),
                                                                 c + 1)[1], x))(0)
    assert capsys.readouterr().out.splitlines() == [
        "x = 1.5", "x = 3.0", "x = 0.0", "x = 1.0", "x = 2.0",
        "i=0 c=1.0", "10.0", "i=1 c=2.0", "20.0", "i=2 c=3.0", "30.0", "w 0", "w 1"]


def test_debug_print_under_grad_prints_primals(capsys):
    g = jax.grad(lambda x: (jax.debug.print("p {}", x), x * x)[1])(3.0)
    assert float(g) == 6.0
    assert capsys.readouterr().out == "p 3.0\n"


def test_pure_callback_feeds_the_program():
    def g(x):
        y = jax.pure_callback(lambda a: np.sin(a).astype(a.dtype),
                              jax.ShapeDtypeStruct(x.shape, x.dtype), x)
        return y * 2 + x
    x = np.linspace(0, 1, 5).astype(np.float32)
    want = np.sin(x) * 2 + x
    np.testing.assert_allclose(np.asarray(g(x)), want, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(jax.jit(g)(x)), want, rtol=1e-6)
    text = str(jax.make_jaxpr(g)(x))
    text = re.sub(r"0x[0-9a-f]+", "0x…", text)
    assert "b:f32[5] = pure_callback[\n      callback=_FlatCallback(callback_func=<function" \
        in text and "result_avals=(ShapedArray(float32[5]),)" in text
    with pytest.raises(ValueError, match="Pure callbacks do not support JVP"):
        jax.grad(lambda x: jnp.sum(g(x)))(x)


def test_io_callback_ordered_and_in_scan():
    seen = []

    def log(v):
        seen.append(float(v))
        return np.float32(v * 10)

    def body(c, x):
        y = io_callback(log, jax.ShapeDtypeStruct((), jnp.float32), x, ordered=True)
        return c + y, y
    c, ys = jax.jit(lambda xs: lax.scan(body, 0.0, xs))(np.arange(4, dtype=np.float32))
    assert seen == [0.0, 1.0, 2.0, 3.0]
    assert float(c) == 60.0
    np.testing.assert_array_equal(ys, [0, 10, 20, 30])


def test_debug_callback_and_exceptions():
    got = []
    jax.jit(lambda x: (jax.debug.callback(lambda v: got.append(np.asarray(v).tolist()), x),
                       x + 1)[1])(np.arange(3, dtype=np.int32))
    assert got == [[0, 1, 2]]

    def bad(a):
        raise KeyError("boom")
    f = jax.jit(lambda x: jax.pure_callback(bad, jax.ShapeDtypeStruct((), jnp.float32), x) + 1)
    with pytest.raises(KeyError, match="boom"):
        f(1.0)
    assert float(jax.jit(lambda x: x + 1)(1.0)) == 2.0  # nothing left broken
    wrong = jax.jit(lambda x: jax.pure_callback(lambda a: np.zeros(3, np.float32),
                                                jax.ShapeDtypeStruct((), jnp.float32), x))
    with pytest.raises(RuntimeError, match="Incorrect output shape or dtype"):
        wrong(1.0)


def test_vmap_of_pure_callback_runs_each_example():
    calls = []

    def cb(a):
        calls.append(a.shape)
        return (a * 3).astype(a.dtype)
    out = jax.vmap(lambda x: jax.pure_callback(cb, jax.ShapeDtypeStruct((), jnp.float32), x,
                                               vmap_method="sequential"))(
        np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(out, [0, 3, 6, 9])
    assert calls == [()] * 4


def test_export_refuses_callbacks(tmp_path):
    with pytest.raises(ValueError, match="calls back into Python.*debug.print 'x = \\{x\\}'"):
        jax.export_c(jax.jit(_f), 1.0, name="withprint", out_dir=tmp_path)
