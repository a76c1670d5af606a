"""jit: tracing once per abstract signature, static arguments, pytrees, caching, errors.

Expected retrace sequences and messages are those observed with JAX 0.10.2
(../shared/JAX_BEHAVIOUR.md section 4).
"""
import collections
import functools

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp
from transpile import errors


def _counting(fn):
    calls = []

    @functools.wraps(fn)
    def wrapped(*a, **k):
        calls.append(a)
        return fn(*a, **k)
    return wrapped, calls


def test_retrace_sequence_matches_jax():
    def f(x, n):
        return x * n
    g, calls = _counting(f)
    jf = jax.jit(g, static_argnums=1)
    seq = [
        (jnp.ones(2), 3, True), (jnp.ones(2), 3, False), (jnp.zeros(2), 3, False),
        (jnp.ones(2), 4, True), (jnp.ones(3), 4, True), (jnp.ones(3, jnp.int32), 4, True),
        (1.0, 4, True), (2.0, 4, False), (jnp.float32(2.0), 4, True),
        (np.float32(2.0), 4, False), (2, 4, True), (True, 4, True),
    ]
    for x, n, retraced in seq:
        before = len(calls)
        jf(x, n)
        assert (len(calls) > before) == retraced, (x, n)


def test_cache_belongs_to_the_function_and_size():
    def f(x):
        return x + 1
    g, calls = _counting(f)
    jax.jit(g)(jnp.ones(2))
    jax.jit(g)(jnp.ones(2))
    assert len(calls) == 1
    jg = jax.jit(g)
    jg(1.0), jg(jnp.ones(3))
    assert jg._cache_size() == 3
    jg.clear_cache()
    assert jg._cache_size() == 0


def test_keyword_vs_positional_are_different_keys():
    g, calls = _counting(lambda x, n: x + n)
    jf = jax.jit(g)
    a, b = jnp.ones(2), jnp.ones(2)
    jf(x=a, n=b), jf(a, n=b), jf(a, b), jf(a, b)
    assert len(calls) == 3


def test_static_argnames_cross_fill_and_decorator_form():
    @jax.jit(static_argnames="n")
    def f(x, n):
        assert isinstance(n, int)
        return x * n
    assert float(f(jnp.float32(2), 3)) == 6.0
    assert float(f(jnp.float32(2), n=4)) == 8.0


def test_static_argument_errors():
    with pytest.raises(ValueError, match=r"Jitted function has static_argnums=\(5,\), but only "
                                         r"accepts 2 positional arguments."):
        jax.jit(lambda x, y: x, static_argnums=5)
    with pytest.raises(ValueError, match=r"Jitted function has invalid argnames \{'m'\} in "
                                         r"static_argnames. Function does not take these args."):
        jax.jit(lambda x, n: x, static_argnames="m")
    jf = jax.jit(lambda x, n: x, static_argnums=1)
    with pytest.raises(ValueError) as e:
        jf(1.0, [1, 2])
    assert str(e.value) == (
        "Non-hashable static arguments are not supported. An error occurred while trying to "
        "hash an object of type <class 'list'>, [1, 2]. The error was:\n"
        "TypeError: unhashable type: 'list'")
    jax.jit(lambda x, n: x, static_argnums=-1)(1.0, 2)  # negative argnums are allowed


Pt = collections.namedtuple("Pt", "x y")


def test_pytree_arguments_and_results():
    @jax.jit
    def p(d):
        return {"b": d["b"] * 2, "a": (d["a"], None), "c": Pt(d["a"], 3)}
    out = p({"b": 2.0, "a": jnp.ones(2)})
    assert list(out) == ["a", "b", "c"]
    assert out["a"][1] is None and float(out["b"]) == 4.0
    assert isinstance(out["c"], Pt) and int(out["c"].y) == 3
    assert out["c"].y.dtype == np.int32 and out["c"].y.weak_type
    r = jax.jit(lambda x: (x, None, 3))(1.0)
    assert repr(r) == ("(Array(1., dtype=float32, weak_type=True), None, "
                       "Array(3, dtype=int32, weak_type=True))")
    assert jax.jit(lambda x: x)(None) is None


def test_bad_arguments_and_results():
    def f(x, n):
        return x
    with pytest.raises(TypeError) as e:
        jax.jit(f)(1.0, "hello")
    msg = str(e.value)
    assert "as an abstract array. The problematic value is of type <class 'str'> and was " \
           "passed to the function at path n." in msg
    assert "static_argnums or static_argnames" in msg
    with pytest.raises(TypeError, match="returned a value of type <class 'str'>, which is not "
                                        "a valid JAX type"):
        jax.jit(lambda x: "s")(1.0)
    with pytest.raises(OverflowError, match="whose argument path is y. Got <class 'int'> "
                                            "with value 2147483648"):
        jax.jit(lambda x, y: x + y)(jnp.ones(2, jnp.int32), 2**31)


def test_trace_jaxpr_eval_shape_and_repr():
    def f(x, y):
        return jnp.sin(x) * y
    jf = jax.jit(f)
    traced = jf.trace(jax.ShapeDtypeStruct((2,), jnp.float32), 2.0)
    # Recorded from JAX 0.10.2: the weak scalar is made strong before the multiply.
    assert str(traced.jaxpr) == (
        "{ lambda ; a:f32[2] b:f32[]. let\n    c:f32[2] = sin a\n"
        "    d:f32[] = convert_element_type[new_dtype=float32 weak_type=False] b\n"
        "    e:f32[2] = mul c d\n  in (e,) }")
    assert repr(jf.eval_shape(jnp.ones(2), 2.0)) == "ShapeDtypeStruct(shape=(2,), dtype=float32)"
    assert repr(jax.ShapeDtypeStruct((), jnp.float32, weak_type=True)) == \
        "ShapeDtypeStruct(shape=(), dtype=float32, weak_type=True)"
    assert repr(jf).startswith("<PjitFunction of <function")


def test_closure_values_are_not_in_the_key():
    G = [1.0]

    def g(x):
        return x + G[0]
    jg = jax.jit(g)
    assert float(jg(1.0)) == 2.0
    G[0] = 10.0
    assert float(jg(1.0)) == 2.0  # stale, as in JAX


def test_x64_toggle_retraces():
    g, calls = _counting(lambda x: x * 2)
    jg = jax.jit(g)
    jg(1.0)
    jax.config.update("jax_enable_x64", True)
    try:
        out = jg(1.0)
        assert out.dtype == np.float64
    finally:
        jax.config.update("jax_enable_x64", False)
    assert len(calls) == 2
    assert jg(1.0).dtype == np.float32  # back to 32-bit: the first entry again


def test_disable_jit_runs_python():
    seen = []

    @jax.jit
    def f(x):
        seen.append(type(x))
        return x
    with jax.disable_jit():
        f(1.0)
    assert seen == [float]


def test_python_control_flow_error_names_function_and_argument():
    @jax.jit
    def f1(x):
        if x % 2 == 0:
            return x
        return -x
    with pytest.raises(errors.TracerBoolConversionError) as e:
        f1(3)
    msg = str(e.value)
    assert msg.startswith("Attempted boolean conversion of traced array with shape bool[].")
    assert "while tracing the function f1 at" in msg and "for jit." in msg
    assert "depends on the value of the argument x." in msg
    assert "static_argnums" in msg
    assert isinstance(e.value, errors.ConcretizationTypeError)
    assert isinstance(e.value, TypeError)


def test_leaked_tracer_raises_unexpected_tracer_error():
    leaked = []

    @jax.jit
    def leak(x):
        leaked.append(x)
        return x
    leak(1.0)
    with pytest.raises(errors.UnexpectedTracerError, match="Encountered an unexpected tracer"):
        leaked[0] + 1


def test_nested_jit_prints_inner_jaxpr_and_runs():
    inner = jax.jit(lambda x: jnp.sin(x) * 2.0)

    def outer(x):
        return inner(x) + inner(x + 1.0)
    assert float(jax.jit(outer)(0.5)) == pytest.approx(
        np.sin(0.5) * 2 + np.sin(1.5) * 2, rel=1e-6)
    text = str(jax.make_jaxpr(outer)(0.5))
    assert text.startswith("let lambda = { lambda ; a:f32[]. let")
