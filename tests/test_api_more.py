"""JAX's remaining top-level names (``config_flags``, ``api_more``, ``monitoring``,
``profiler``, ``dlpack``): behaviour checked against JAX 0.10.2's documented answers
(values observed in the JAX venv) and against ``vjp``/``grad`` of the plain function."""
from __future__ import annotations

import gzip
import json
import warnings

import numpy as np
import pytest

import transpile as jax
import transpile.numpy as jnp

# (context manager, option, a value, a value JAX refuses or None)
FLAGS = [
    ("default_matmul_precision", "jax_default_matmul_precision", "highest", "bogus"),
    ("enable_checks", "jax_enable_checks", True, None),
    ("check_tracer_leaks", "jax_check_tracer_leaks", True, None),
    ("checking_leaks", "jax_check_tracer_leaks", True, None),
    ("debug_key_reuse", "jax_debug_key_reuse", True, None),
    ("numpy_rank_promotion", "jax_numpy_rank_promotion", "warn", "sometimes"),
    ("threefry_partitionable", "jax_threefry_partitionable", False, None),
    ("transfer_guard_host_to_device", "jax_transfer_guard_host_to_device", "log", "bad"),
    ("transfer_guard_device_to_host", "jax_transfer_guard_device_to_host", "disallow", "x"),
    ("transfer_guard_device_to_device", "jax_transfer_guard_device_to_device", "allow", "x"),
    ("log_compiles", "jax_log_compiles", True, None),
    ("explain_cache_misses", "jax_explain_cache_misses", True, None),
    ("default_prng_impl", "jax_default_prng_impl", "rbg", "bad"),
    ("legacy_prng_key", "jax_legacy_prng_key", "warn", "foo"),
    ("enable_custom_prng", "jax_enable_custom_prng", True, None),
    ("no_tracing", "jax_no_tracing", True, None),
]


@pytest.mark.parametrize("name, option, value, bad", FLAGS, ids=[f[0] for f in FLAGS])
def test_flag_context_sets_and_restores(name, option, value, bad):
    before = jax.config.read(option)
    with getattr(jax, name)(value):
        assert jax.config.read(option) == value
    assert jax.config.read(option) == before
    if bad is not None:
        with pytest.raises(ValueError, match="new enum value must be"):
            with getattr(jax, name)(bad):
                pass
        assert jax.config.read(option) == before


def test_transfer_guard_sets_every_direction():
    with jax.transfer_guard("disallow"):
        assert {jax.config.read(f"jax_transfer_guard{k}") for k in
                ("", "_host_to_device", "_device_to_host", "_device_to_device")} == \
            {"disallow"}
    assert jax.config.read("jax_transfer_guard") is None


def test_rank_promotion_raise_in_context():
    with jax.numpy_rank_promotion("raise"):
        with pytest.raises(ValueError, match="jax_numpy_rank_promotion='raise'"):
            jnp.ones(3) + jnp.ones((2, 3))
    assert (jnp.ones(3) + jnp.ones((2, 3))).shape == (2, 3)


def test_no_tracing_raises_jax_error():
    def f(x):
        return x + 1
    with jax.no_tracing(True):
        with pytest.raises(RuntimeError, match=r"re-tracing function f at .*:\d+ for `jit`, "
                                               r"but 'no_tracing' is set"):
            jax.jit(f)(1.0)
    g = jax.jit(f)
    g(2.0)
    with jax.no_tracing(True):  # a cached trace runs
        assert float(g(2.0)) == 3.0


def test_process_queries():
    assert (jax.process_count(), jax.process_index(), jax.process_indices()) == (1, 0, [0])
    with pytest.warns(UserWarning, match="jax.process_count has been renamed"):
        assert jax.host_count() == 1
    with pytest.warns(UserWarning, match="renamed to jax.process_index"):
        assert jax.host_id() == 0
    with pytest.warns(UserWarning, match="renamed to jax.process_indices"):
        assert jax.host_ids() == [0]


def test_make_array_helpers():
    data = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    seen = []

    def cb(index):
        seen.append(index)
        return data[index]
    sharding = jnp.ones(1).sharding
    a = jax.make_array_from_callback((2, 3), sharding, cb)
    assert seen == [(slice(None), slice(None))]
    np.testing.assert_array_equal(a, data)
    b = jax.make_array_from_single_device_arrays((2, 3), sharding, [jnp.asarray(data)])
    np.testing.assert_array_equal(b, data)
    c = jax.make_array_from_process_local_data(sharding, data)
    assert c.dtype == np.float32 and c.shape == (2, 3)
    with pytest.raises(ValueError, match="expected 1 array"):
        jax.make_array_from_single_device_arrays((2, 3), sharding, [data, data])
    with pytest.raises(ValueError, match="Expected shard shape"):
        jax.make_array_from_callback((3, 3), sharding, cb)


def test_copy_to_host_async_and_effects_barrier():
    x = {"a": jnp.ones(2)}
    assert jax.copy_to_host_async(x) is x
    assert jax.effects_barrier() is None
    assert isinstance(jax.devices()[0], jax.Device)


def test_custom_gradient():
    @jax.custom_gradient
    def f(x):
        return x ** 2, lambda g: (g * 10 * x,)
    assert float(f(3.0)) == 9.0
    assert float(jax.grad(f)(3.0)) == 30.0
    assert float(jax.jit(jax.grad(f))(2.0)) == 20.0


@pytest.mark.parametrize("argnums, has_aux", [(0, False), ((0, 1), True)])
def test_fwd_and_bwd_match_vjp(argnums, has_aux):
    def f(x, w):
        y = jnp.tanh(x @ w)
        return (y, 7) if has_aux else y
    x = jnp.asarray(np.arange(6.0).reshape(2, 3) / 5)
    w = jnp.asarray(np.arange(12.0).reshape(3, 4) / 7 - 0.5)
    fwd, bwd = jax.fwd_and_bwd(f, argnums, has_aux=has_aux)
    out = fwd(x, w)
    ct = jnp.ones((2, 4))
    cts = bwd(out[1], ct)
    _, pullback = jax.vjp(lambda a, b: jnp.tanh(a @ b), x, w)
    want = pullback(ct)
    if has_aux:
        assert int(out[2]) == 7
        for got, exp in zip(cts, want, strict=True):
            np.testing.assert_allclose(got, exp, rtol=1e-6)
    else:
        np.testing.assert_allclose(cts, want[0], rtol=1e-6)


def test_monitoring_records_trace_and_compile_durations():
    events = []
    listener = lambda e, d, **k: events.append((e, d))  # noqa: E731
    jax.monitoring.register_event_duration_secs_listener(listener)
    try:
        jax.jit(lambda x: x * 3 + 0.25)(jnp.ones(3))
    finally:
        jax.monitoring.unregister_event_duration_listener(listener)
    names = [e for e, _ in events]
    assert "/jax/core/compile/jaxpr_trace_duration" in names
    assert "/jax/core/compile/backend_compile_duration" in names
    assert all(d >= 0 for _, d in events)
    seen = []
    jax.monitoring.register_event_listener(lambda e, **k: seen.append((e, k)))
    jax.monitoring.record_event("/my/event", tag="x")
    jax.monitoring.clear_event_listeners()
    jax.monitoring.record_event("/my/other")
    assert seen == [("/my/event", {"tag": "x"})]
    with pytest.raises(AssertionError):
        jax.monitoring.unregister_event_listener(listener)


def test_profiler_writes_annotations(tmp_path):
    @jax.profiler.annotate_function
    def work(x):
        return x + 1
    with jax.profiler.trace(tmp_path):
        with jax.profiler.TraceAnnotation("outer", step=3):
            work(1)
        with pytest.raises(RuntimeError, match="already been started"):
            jax.profiler.start_trace(tmp_path)
    with pytest.raises(RuntimeError, match="No profile started"):
        jax.profiler.stop_trace()
    (path,) = tmp_path.glob("plugins/profile/*/perfetto_trace.json.gz")
    with gzip.open(path, "rt") as f:
        events = json.load(f)["traceEvents"]
    names = {e["name"] for e in events}
    assert {"outer", "test_profiler_writes_annotations.<locals>.work"} <= names
    outer = next(e for e in events if e["name"] == "outer")
    assert outer["args"] == {"step": "3"} and outer["dur"] >= 0


def test_dlpack_round_trip():
    x = np.arange(4, dtype=np.int16)
    y = jax.dlpack.from_dlpack(x)
    assert y.dtype == np.int16 and y.tolist() == [0, 1, 2, 3]
    assert jax.dlpack.is_supported_dtype(np.float32)
    assert not jax.dlpack.is_supported_dtype(np.dtype("U3"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(jax.dlpack.from_dlpack(jnp.ones(2)), [1.0, 1.0])


def test_custom_vmap_uses_its_rule_under_vmap():
    from transpile.custom_batching import custom_vmap
    calls = []

    @custom_vmap
    def f(x, y):
        return x + y

    @f.def_vmap
    def rule(axis_size, in_batched, x, y):
        calls.append((axis_size, in_batched))
        return x * 100 + y, True
    assert float(f(1.0, 2.0)) == 3.0 and not calls
    xs = jnp.arange(3.0)
    assert jax.vmap(f, (0, None))(xs, 2.0).tolist() == [2, 102, 202]  # JAX's answer
    assert calls == [(3, (True, False))]
    assert jax.jit(jax.vmap(f, (0, None)))(xs, 2.0).tolist() == [2, 102, 202]
    assert float(jax.grad(f)(1.0, 2.0)) == 1.0  # the body's derivative
    with pytest.raises(AttributeError, match="No batching rule defined"):
        custom_vmap(lambda x: x)(1.0)


def test_sequential_vmap_loops_over_the_batch():
    from transpile.custom_batching import sequential_vmap
    g = sequential_vmap(lambda x, y: jnp.sum(x) * y)
    x = jnp.asarray(np.arange(6.0).reshape(3, 2))
    assert jax.vmap(g, (0, None))(x, 2.0).tolist() == [2.0, 10.0, 18.0]
    assert "scan" in str(jax.make_jaxpr(jax.vmap(g, (0, None)))(x, 2.0))
