"""JAX's smaller top-level names: ``jacobian``, ``linear_transpose``,
``closure_convert``, ``clear_caches``, ``named_scope``/``named_call``,
``ensure_compile_time_eval``, ``checkpoint_policies``, ``debug.breakpoint``,
``test_util.check_grads``, ``float0``, ``device_get``, ``live_arrays``, ``typing``.

Values and error messages against JAX 0.10.2's recorded answers (``tests/data/api.json``)
where JAX defines them, NumPy and finite differences otherwise."""
from __future__ import annotations

import io

import numpy as np
import pytest

try:
    import api_cases
    import jaxpr_cases
except ImportError:  # collected as a package
    from tests import api_cases, jaxpr_cases

import transpile as jax
import transpile.numpy as jnp
from transpile import test_util

API = jaxpr_cases.load_data("api.json")


def _raises_like_jax(name, fn):
    want = API["errors"][name]
    with pytest.raises(Exception) as info:
        fn()
    assert type(info.value).__name__ == want["error"]
    assert str(info.value) == want["message"]


def test_jacobian_is_jacrev():
    assert jax.jacobian is jax.jacrev
    j = jax.jacobian(lambda x: jnp.sin(x) * x[0])(jnp.array([1.0, 2.0]))
    x = np.array([1.0, 2.0])
    want = np.diag(np.cos(x) * x[0])
    want[:, 0] += np.sin(x)
    np.testing.assert_allclose(np.asarray(j), want, rtol=1e-6)


def test_linear_transpose_matches_jax():
    f_t = jax.linear_transpose(lambda x, y: (2 * x + y, x), 1.0, 2.0)
    for got, want in zip(f_t((1.0, 3.0)), API["linear_transpose"], strict=True):
        api_cases.assert_matches(got, want)
    g_t = jax.linear_transpose(lambda x: jnp.sum(x, 0) * 2.0,
                               jax.ShapeDtypeStruct((2, 3), jnp.float32))
    for got, want in zip(g_t(jnp.arange(3.0)), API["linear_transpose_sum"], strict=True):
        api_cases.assert_matches(got, want)
    # the transposed function is a pytree (a Partial) and works under jit
    out = jax.jit(lambda ct: g_t(ct))(jnp.arange(3.0))
    np.testing.assert_array_equal(np.asarray(out[0]), [[0, 2, 4], [0, 2, 4]])
    _raises_like_jax("linear_transpose tree", lambda: f_t(1.0))
    _raises_like_jax("linear_transpose type", lambda: f_t((jnp.ones(2), 1.0)))
    _raises_like_jax("linear_transpose dtypes",
                     lambda: jax.linear_transpose(lambda x: x.astype(int), 1.0))


def test_closure_convert_hoists_closed_over_tracers():
    seen = []

    def outer(x):
        def inner(y):
            return x * y + 3.0
        f, consts = jax.closure_convert(inner, x)
        seen.append(len(consts))
        return f(2.0, *consts)

    assert float(outer(1.5)) == 6.0 and seen[-1] == 0
    assert float(jax.grad(outer)(1.5)) == 2.0 and seen[-1] == 1
    assert float(jax.jit(outer)(1.5)) == 6.0 and seen[-1] == 1
    f, consts = jax.closure_convert(lambda a, b: a * b, 1.0, 2.0)
    with pytest.raises(TypeError, match="same Pytree structure"):
        f((1.0, 2.0))


def test_clear_caches_retraces():
    traces = []

    @jax.jit
    def f(x):
        traces.append(1)
        return x + 1

    f(1.0)
    f(2.0)
    assert len(traces) == 1
    jax.clear_caches()
    assert float(f(3.0)) == 4.0 and len(traces) == 2


def test_named_scope_and_named_call():
    def g(x):
        with jax.named_scope("layer"):
            return jnp.sin(x) * 2

    plain = str(jax.make_jaxpr(lambda x: jnp.sin(x) * 2)(1.0))
    assert str(jax.make_jaxpr(g)(1.0)) == plain
    named = jax.named_call(lambda x: jnp.sin(x) * 2, name="foo")
    assert str(jax.make_jaxpr(named)(1.0)) == plain and float(named(0.0)) == 0.0
    _raises_like_jax("named_scope", lambda: jax.named_scope(3).__enter__())


def test_ensure_compile_time_eval():
    kinds = []

    @jax.jit
    def f(x):
        with jax.ensure_compile_time_eval():
            y = jnp.sin(jnp.arange(3.0))
            kinds.append(type(y))
            z = x * 2  # a tracer operand still stages an equation
        return z + y

    np.testing.assert_allclose(np.asarray(f(1.0)), 2 + np.sin(np.arange(3.0)), rtol=1e-6)
    assert kinds == [jax.Array]
    text = str(jax.make_jaxpr(f.__wrapped__ if hasattr(f, "__wrapped__") else f)(1.0))
    assert "sin" not in text and "mul" in text


def test_checkpoint_policies():
    names = ["checkpoint_dots", "checkpoint_dots_with_no_batch_dims", "dots_saveable",
             "dots_with_no_batch_dims_saveable", "everything_saveable", "nothing_saveable",
             "offload_dot_with_no_batch_dims", "save_and_offload_only_these_names",
             "save_any_names_but_these", "save_anything_except_these_names",
             "save_from_both_policies", "save_only_these_names"]
    cp = jax.checkpoint_policies
    assert all(callable(getattr(cp, n)) for n in names)
    assert cp.dots_saveable(jax.lax.dot_general_p) and not cp.nothing_saveable(None)
    nobatch = dict(dimension_numbers=(((1,), (0,)), ((), ())))
    assert cp.dots_with_no_batch_dims_saveable(jax.lax.dot_general_p, **nobatch)
    both = cp.save_from_both_policies(cp.nothing_saveable, cp.everything_saveable)
    assert both(None)
    f = lambda x: jnp.sum(jnp.sin(x @ x))  # noqa: E731
    x = jnp.arange(4.0).reshape(2, 2) / 4
    want = np.asarray(jax.grad(f)(x))
    for policy in (cp.nothing_saveable, cp.dots_saveable, cp.save_only_these_names("a")):
        g = jax.jit(jax.grad(jax.checkpoint(f, policy=policy)))(x)
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-6)


def test_debug_breakpoint_eager_and_jit():
    def h(x):
        y = x * 2
        jax.debug.breakpoint(stdin=io.StringIO("p y\np x + 1\nc\n"), stdout=out)
        return y

    for run in (h, jax.jit(h)):
        out = io.StringIO()
        np.testing.assert_array_equal(np.asarray(run(jnp.arange(3.0))), [0.0, 2.0, 4.0])
        text = out.getvalue()
        assert "array([0., 2., 4.], dtype=float32)" in text
        assert "array([1., 2., 3.], dtype=float32)" in text


def test_check_grads():
    test_util.check_grads(lambda x: jnp.sin(x) * x, (1.5,), order=2)
    test_util.check_grads(lambda x, y: jnp.sum(jnp.tanh(x) * y), (jnp.arange(3.0), 2.0),
                          order=2, modes=["rev"])
    wrong = jax.custom_jvp(jnp.sin)
    wrong.defjvps(lambda g, ans, x: g * 2.0)
    with pytest.raises(AssertionError, match="JVP tangent"):
        test_util.check_grads(wrong, (1.5,), order=1, modes=["fwd"])
    with pytest.raises(AssertionError, match="VJP consistency check"):
        test_util.check_grads(wrong, (1.5,), order=1, modes=["rev"])


def test_float0_device_get_live_arrays_typing():
    assert jax.float0 == np.dtype([("float0", np.void, 0)])
    g = jax.grad(lambda x, n: x * 2.0, allow_int=True, argnums=(0, 1))(1.0, 3)
    assert g[1].dtype == jax.float0
    got = jax.device_get({"a": jnp.ones(2), "b": 3})
    assert isinstance(got["a"], np.ndarray) and got["b"] == 3
    a = jnp.ones(3)
    assert any(o is a for o in jax.live_arrays())
    assert any(o is a for o in jax.live_arrays("cpu"))
    assert isinstance(a, jax.typing.ArrayLike.__args__) and 1.0.__class__ in \
        jax.typing.ArrayLike.__args__
    assert np.dtype in jax.typing.DTypeLike.__args__
